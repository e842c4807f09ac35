/*-------------------------------------------------------------------------
 *
 * compat.h
 *	  Every difference between the PostgreSQL major versions uuidv7 builds
 *	  against (13 to 18), in one place.
 *
 * IDENTIFICATION
 *	  src/compat.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef UUIDV7_COMPAT_H
#define UUIDV7_COMPAT_H

/*
 * PostgreSQL 18 replaced the trailing pg_attribute_noreturn() with the
 * leading pg_noreturn; GCC and Clang accept the attribute in either place.
 */
#ifndef pg_noreturn
#define pg_noreturn pg_attribute_noreturn()
#endif

/* the varlena macros (VARDATA_ANY...) have their own header since PostgreSQL 16 */
#if PG_VERSION_NUM >= 160000
#include "varatt.h"
#endif

/* MarkGUCPrefixReserved() is the name since PostgreSQL 15 */
#if PG_VERSION_NUM < 150000
#define MarkGUCPrefixReserved(prefix) EmitWarningsOnPlaceholders(prefix)
#endif

/*
 * A setting's "extra" is freed by the GUC machinery: with free() before
 * PostgreSQL 16, with guc_free() (pfree in its memory context) since.
 */
#if PG_VERSION_NUM >= 160000
#define uuidv7_guc_malloc(size) guc_malloc(LOG, size)
#define uuidv7_guc_free(ptr) guc_free(ptr)
#else
#define uuidv7_guc_malloc(size) malloc(size)
#define uuidv7_guc_free(ptr) free(ptr)
#endif

/* PostgreSQL 18 records the module's name and version in its magic block */
#if PG_VERSION_NUM >= 180000
#define UUIDV7_MODULE_MAGIC \
	PG_MODULE_MAGIC_EXT(.name = "uuidv7", .version = UUIDV7_VERSION)
#else
#define UUIDV7_MODULE_MAGIC PG_MODULE_MAGIC
#endif

#endif							/* UUIDV7_COMPAT_H */
