/*-------------------------------------------------------------------------
 *
 * uuidv7.c
 *	  Module magic and load-time initialization of the uuidv7 extension.
 *
 * IDENTIFICATION
 *	  src/uuidv7.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "utils/guc.h"

#include "uuidv7.h"

UUIDV7_MODULE_MAGIC;

PGDLLEXPORT void _PG_init(void);

/* Set the module up when a backend, or the postmaster, loads it. */
void
_PG_init(void)
{
	uuidv7_state_init();
	uuidv7_public_id_init();
	uuidv7_plantime_init();
	uuidv7_worker_init();
	uuidv7_progress_init();
	/* (after every setting is defined: this drops unknown uuidv7.* ones) */
	MarkGUCPrefixReserved("uuidv7");
}
