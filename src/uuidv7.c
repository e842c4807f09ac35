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

#include "uuidv7.h"

UUIDV7_MODULE_MAGIC;

PGDLLEXPORT void _PG_init(void);

/* Set the module up when a backend, or the postmaster, loads it. */
void
_PG_init(void)
{
	uuidv7_state_init();
}
