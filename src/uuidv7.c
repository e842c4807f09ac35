/*-------------------------------------------------------------------------
 *
 * uuidv7.c
 *	  Module magic, load-time initialization of the uuidv7 extension, and
 *	  its shared memory.
 *
 * Where uuidv7 is in shared_preload_libraries, one request hook and one
 * startup hook size and set up every part of its shared memory: the slots
 * of the uuidv7_progress view (progress.c) and what the maintenance worker
 * shares (worker.c).  Each part is a struct of its own, found by name, as
 * core's parts are.
 *
 * IDENTIFICATION
 *	  src/uuidv7.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "miscadmin.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "utils/guc.h"

#include "uuidv7.h"

UUIDV7_MODULE_MAGIC;

PGDLLEXPORT void _PG_init(void);

#if PG_VERSION_NUM >= 150000
static shmem_request_hook_type prev_shmem_request_hook = NULL;
#endif
static shmem_startup_hook_type prev_shmem_startup_hook = NULL;

/* the size of every part */
static Size
uuidv7_shmem_size(void)
{
	return add_size(uuidv7_progress_shmem_size(), uuidv7_worker_shmem_size());
}

#if PG_VERSION_NUM >= 150000
static void
uuidv7_shmem_request(void)
{
	if (prev_shmem_request_hook)
		prev_shmem_request_hook();
	RequestAddinShmemSpace(uuidv7_shmem_size());
}
#endif

/* shared memory made (at start, after a crash): find or make every part */
static void
uuidv7_shmem_startup(void)
{
	if (prev_shmem_startup_hook)
		prev_shmem_startup_hook();
	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	uuidv7_progress_shmem_attach();
	uuidv7_worker_shmem_attach();
	LWLockRelease(AddinShmemInitLock);
}

/* Set the module up when a backend, or the postmaster, loads it. */
void
_PG_init(void)
{
	uuidv7_state_init();
	uuidv7_public_id_init();
	uuidv7_plantime_init();
	uuidv7_worker_init();
	if (process_shared_preload_libraries_in_progress)
	{
#if PG_VERSION_NUM >= 150000
		prev_shmem_request_hook = shmem_request_hook;
		shmem_request_hook = uuidv7_shmem_request;
#else
		RequestAddinShmemSpace(uuidv7_shmem_size());
#endif
		prev_shmem_startup_hook = shmem_startup_hook;
		shmem_startup_hook = uuidv7_shmem_startup;
	}
	/* (after every setting is defined: this drops unknown uuidv7.* ones) */
	MarkGUCPrefixReserved("uuidv7");
}
