/*-------------------------------------------------------------------------
 *
 * compat.h
 *	  Every difference between the PostgreSQL major versions uuidv7 builds
 *	  against (13 to 19), in one place.
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

/*
 * CLUSTER's machinery, which the mover of waiting rows (lifecycle.c) uses,
 * is declared in commands/repack.h since PostgreSQL 19 (CLUSTER became
 * REPACK), where finish_heap_swap() also takes whether to rebuild the
 * indexes and table_beginscan() takes flags.
 */
#if PG_VERSION_NUM >= 190000
#include "commands/repack.h"
#define uuidv7_table_beginscan_any(rel) table_beginscan(rel, SnapshotAny, 0, NULL, 0)
#define uuidv7_finish_heap_swap(old, new, frozen_xid, min_multi, persistence) \
	finish_heap_swap(old, new, false, false, false, true, true, frozen_xid, min_multi, persistence)
#else
#include "commands/cluster.h"
#define uuidv7_table_beginscan_any(rel) table_beginscan(rel, SnapshotAny, 0, NULL)
#define uuidv7_finish_heap_swap(old, new, frozen_xid, min_multi, persistence) \
	finish_heap_swap(old, new, false, false, false, true, frozen_xid, min_multi, persistence)
#endif

/*
 * What else the mover of waiting rows needs of CLUSTER's
 * machinery: the oldest transaction whose rows must be kept
 * (GetOldestNonRemovableTransactionId since PostgreSQL 14), a new heap like
 * an old one (with an access method argument since 15), the rebuild of a
 * table's indexes (its arguments changed in 14 and 17), and whether the
 * current role owns a table (object_ownercheck since 16).
 */
#if PG_VERSION_NUM >= 140000
#define uuidv7_oldest_nonremovable_xid(rel) GetOldestNonRemovableTransactionId(rel)
#else
#define uuidv7_oldest_nonremovable_xid(rel) GetOldestXmin(rel, PROCARRAY_FLAGS_VACUUM)
#endif
#if PG_VERSION_NUM >= 150000
#define uuidv7_make_new_heap(relid, tablespace, am, persistence) \
	make_new_heap(relid, tablespace, am, persistence, AccessExclusiveLock)
#else
#define uuidv7_make_new_heap(relid, tablespace, am, persistence) \
	make_new_heap(relid, tablespace, persistence, AccessExclusiveLock)
#endif
#if PG_VERSION_NUM >= 170000
#define uuidv7_reindex_relation(relid, flags) \
	do { ReindexParams params = {0}; reindex_relation(NULL, relid, flags, &params); } while (0)
#elif PG_VERSION_NUM >= 140000
#define uuidv7_reindex_relation(relid, flags) \
	do { ReindexParams params = {0}; reindex_relation(relid, flags, &params); } while (0)
#else
#define uuidv7_reindex_relation(relid, flags) reindex_relation(relid, flags, 0)
#endif
#if PG_VERSION_NUM >= 160000
#define uuidv7_is_owner(relid) object_ownercheck(RelationRelationId, relid, GetUserId())
#else
#define uuidv7_is_owner(relid) pg_class_ownercheck(relid, GetUserId())
#endif

/* the role that reads every setting: its name since PostgreSQL 14 */
#if PG_VERSION_NUM >= 140000
#define UUIDV7_ROLE_READ_ALL_SETTINGS ROLE_PG_READ_ALL_SETTINGS
#else
#define UUIDV7_ROLE_READ_ALL_SETTINGS DEFAULT_ROLE_READ_ALL_SETTINGS
#endif

/* the role that reads every backend's activity: its name since PostgreSQL 14 */
#if PG_VERSION_NUM >= 140000
#define UUIDV7_ROLE_READ_ALL_STATS ROLE_PG_READ_ALL_STATS
#else
#define UUIDV7_ROLE_READ_ALL_STATS DEFAULT_ROLE_READ_ALL_STATS
#endif

/* a backend's number among MaxBackends, from 0: MyProcNumber since PostgreSQL 17 */
#if PG_VERSION_NUM >= 170000
#define uuidv7_my_backend_index() ((int) MyProcNumber)
#else
#define uuidv7_my_backend_index() ((int) MyBackendId - 1)
#endif

/*
 * MaxBackends, which before PostgreSQL 15 a preloaded library asking for
 * shared memory reads before it is computed: the same sum.
 */
#if PG_VERSION_NUM >= 150000
#define uuidv7_max_backends() MaxBackends
#else
#define uuidv7_max_backends() \
	(MaxConnections + autovacuum_max_workers + 1 + max_worker_processes + max_wal_senders)
#endif

/*
 * A segment of the dynamic shared memory registry (PostgreSQL 17): its
 * initializer takes an argument since 19
 */
#if PG_VERSION_NUM >= 190000
#define UUIDV7_DSM_INIT_ARGS void *ptr, void *arg pg_attribute_unused()
#define uuidv7_get_named_dsm_segment(name, size, init, found) GetNamedDSMSegment(name, size, init, found, NULL)
#else
#define UUIDV7_DSM_INIT_ARGS void *ptr
#define uuidv7_get_named_dsm_segment(name, size, init, found) GetNamedDSMSegment(name, size, init, found)
#endif

/*
 * InitMaterializedSRF() (a set-returning function's result as a tuplestore)
 * is PostgreSQL 15's; before, the same steps (for the files that include
 * funcapi.h).
 */
#if PG_VERSION_NUM < 150000 && defined(FUNCAPI_H)
#include "miscadmin.h"
static inline void
InitMaterializedSRF(FunctionCallInfo fcinfo, bits32 flags pg_attribute_unused())
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	TupleDesc	tupdesc;
	MemoryContext old;

	if (rsinfo == NULL || !IsA(rsinfo, ReturnSetInfo) || !(rsinfo->allowedModes & SFRM_Materialize))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("materialize mode required, but it is not allowed in this context")));
	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	old = MemoryContextSwitchTo(rsinfo->econtext->ecxt_per_query_memory);
	rsinfo->returnMode = SFRM_Materialize;
	rsinfo->setResult = tuplestore_begin_heap(true, false, work_mem);
	rsinfo->setDesc = CreateTupleDescCopy(tupdesc);
	MemoryContextSwitchTo(old);
}
#endif

/*
 * copyObject() is typeof_unqual() (C23) in PostgreSQL 19's headers where
 * the server's compiler has it; copyObjectImpl() is the same copy for any
 * compiler.
 */
#define uuidv7_copy_node(node) copyObjectImpl(node)

/* the planner hook takes the EXPLAIN in progress since PostgreSQL 19 */
#if PG_VERSION_NUM >= 190000
#define UUIDV7_PLANNER_ARGS Query *parse, const char *query_string, int cursorOptions, \
	ParamListInfo boundParams, ExplainState *es
#define UUIDV7_PLANNER_PASS parse, query_string, cursorOptions, boundParams, es
#else
#define UUIDV7_PLANNER_ARGS Query *parse, const char *query_string, int cursorOptions, \
	ParamListInfo boundParams
#define UUIDV7_PLANNER_PASS parse, query_string, cursorOptions, boundParams
#endif

/* SysCacheGetAttrNotNull() is PostgreSQL 16's */
#if PG_VERSION_NUM < 160000
#define SysCacheGetAttrNotNull(cacheId, tup, attnum) \
	SysCacheGetAttr(cacheId, tup, attnum, &(bool){false})
#endif

#endif							/* UUIDV7_COMPAT_H */
