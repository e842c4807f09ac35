/*-------------------------------------------------------------------------
 *
 * progress.c
 *	  How far a long call of partition upkeep is, for the uuidv7_progress
 *	  view: a slot a backend in shared memory, as core's progress views
 *	  have theirs.
 *
 * A backend that runs upkeep (uuidv7_create_partitions moving rows out of a
 * DEFAULT partition, uuidv7_adopt_table's scans, uuidv7_run_maintenance's
 * tables) writes in its slot the call, the table, the step, and, while it
 * reads a DEFAULT partition, the blocks read and the rows moved; any session
 * reads the slots of the roles it has the privileges of, as
 * pg_stat_activity shows them (members of pg_read_all_stats read all).  A
 * slot is written as core writes a backend's status (a change count, odd
 * while it changes), so that a reader never waits for, nor slows, the
 * writer; it is emptied at the end of the transaction.
 *
 * The slots are in shared memory where uuidv7 is in shared_preload_libraries
 * and, from PostgreSQL 17, in a segment of the dynamic shared memory
 * registry otherwise; before 17 without preload there are none and the
 * view is empty.  An interactive call also says how far its read of a
 * DEFAULT partition is in a NOTICE every ten seconds.
 *
 * IDENTIFICATION
 *	  src/progress.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "catalog/pg_authid.h"
#include "funcapi.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "port/atomics.h"
#include "postmaster/autovacuum.h"
#include "replication/walsender.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/proc.h"
#include "storage/shmem.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/timestamp.h"
#include "utils/tuplestore.h"
#if PG_VERSION_NUM >= 170000
#include "storage/dsm_registry.h"
#endif

#include "compat.h"
#include "uuidv7.h"

/* (a NOTICE of an interactive call's read every so many milliseconds) */
#define PROGRESS_NOTICE_MS 10000

typedef struct ProgressSlot
{
	pg_atomic_uint32 changecount;	/* odd while its backend writes it */
	int			pid;			/* 0: no call in progress */
	Oid			userid;
	Oid			dbid;
	Oid			relid;
	TimestampTz started;
	TimestampTz statement_start;	/* the top-level statement's, which
									 * pg_stat_activity shows */
	char		command[NAMEDATALEN];
	char		phase[128];
	int64		blocks_done;
	int64		blocks_total;
	int64		rows_moved;
} ProgressSlot;

typedef struct ProgressShared
{
	int			nslots;
	ProgressSlot slots[FLEXIBLE_ARRAY_MEMBER];
} ProgressShared;

static ProgressShared *progress = NULL;
static bool progress_callback_registered = false;

/* this backend's call: when its last NOTICE was told */
static TimestampTz last_notice = 0;

static Size
progress_size(int nslots)
{
	return add_size(offsetof(ProgressShared, slots), mul_size(nslots, sizeof(ProgressSlot)));
}

static void
progress_init_slots(ProgressShared *shared, int nslots)
{
	memset(shared, 0, progress_size(nslots));
	shared->nslots = nslots;
	for (int i = 0; i < nslots; i++)
		pg_atomic_init_u32(&shared->slots[i].changecount, 0);
}

/* The size of the slots in the main shared memory (src/uuidv7.c). */
Size
uuidv7_progress_shmem_size(void)
{
	return progress_size(uuidv7_max_backends());
}

/*
 * Find or make the slots in the main shared memory, under
 * AddinShmemInitLock (src/uuidv7.c).
 */
void
uuidv7_progress_shmem_attach(void)
{
	bool		found;
	int			nslots = uuidv7_max_backends();

	progress = ShmemInitStruct("uuidv7 progress", progress_size(nslots), &found);
	if (!found)
		progress_init_slots(progress, nslots);
}

#if PG_VERSION_NUM >= 170000
static void
progress_dsm_init(UUIDV7_DSM_INIT_ARGS)
{
	progress_init_slots((ProgressShared *) ptr, MaxBackends);
}
#endif

/*
 * The slots, where this server has them (NULL where it does not): in the
 * main shared memory where preloaded, else from 17 in a registry segment.
 */
static ProgressShared *
progress_slots(void)
{
#if PG_VERSION_NUM >= 170000
	if (progress == NULL)
	{
		bool		found;

		progress = uuidv7_get_named_dsm_segment("uuidv7 progress", progress_size(MaxBackends), progress_dsm_init,
												&found);
	}
#endif
	return progress;
}

/* This backend's slot, or NULL. */
static ProgressSlot *
my_slot(void)
{
	ProgressShared *shared = progress_slots();
	int			index = uuidv7_my_backend_index();

	if (shared == NULL || index < 0 || index >= shared->nslots)
		return NULL;
	return &shared->slots[index];
}

/* src into dst of size bytes, cut between characters (as core's activity) */
static void
copy_clipped(char *dst, const char *src, int size)
{
	int			len = pg_mbcliplen(src, strlen(src), size - 1);

	memcpy(dst, src, len);
	dst[len] = '\0';
}

/*
 * A slot is written as core writes a backend's status: its change count odd
 * while it changes (slot_write_begin, slot_write_end), so that a reader
 * never waits for, nor slows, the writer (slot_read).
 */
static inline void
slot_write_begin(ProgressSlot *slot)
{
	pg_atomic_fetch_add_u32(&slot->changecount, 1);
	pg_write_barrier();
}

static inline void
slot_write_end(ProgressSlot *slot)
{
	pg_write_barrier();
	pg_atomic_fetch_add_u32(&slot->changecount, 1);
}

/* a consistent copy of a slot: its count even, and the same after */
static void
slot_read(ProgressSlot *slot, ProgressSlot *copy)
{
	for (;;)
	{
		uint32		before = pg_atomic_read_u32(&slot->changecount);

		pg_read_barrier();
		memcpy(copy, slot, sizeof(*copy));
		pg_read_barrier();
		if ((before & 1) == 0 && before == pg_atomic_read_u32(&slot->changecount))
			return;
		CHECK_FOR_INTERRUPTS();
	}
}

/* a step begun, in a slot being written: its counts from nothing */
static void
slot_set_phase(ProgressSlot *slot, const char *phase)
{
	copy_clipped(slot->phase, phase, sizeof(slot->phase));
	slot->blocks_done = 0;
	slot->blocks_total = 0;
	slot->rows_moved = 0;
}

/* the end of the transaction empties this backend's slot */
static void
progress_at_transaction_end(XactEvent event, void *arg pg_attribute_unused())
{
	ProgressSlot *slot;

	if (event != XACT_EVENT_COMMIT && event != XACT_EVENT_ABORT &&
		event != XACT_EVENT_PARALLEL_COMMIT && event != XACT_EVENT_PARALLEL_ABORT &&
		event != XACT_EVENT_PREPARE)
		return;
	slot = progress == NULL ? NULL : my_slot();
	if (slot == NULL || slot->pid == 0)
		return;
	slot_write_begin(slot);
	slot->pid = 0;
	slot_write_end(slot);
	last_notice = 0;
}

/*
 * A step of a call of upkeep on a table: the call (kept from the first step
 * of the transaction's outermost call), the table, the step; the counts of
 * the step before are reset.
 */
void
uuidv7_progress_step(const char *command, Oid relid, const char *phase)
{
	ProgressSlot *slot = my_slot();

	if (slot == NULL)
		return;
	if (!progress_callback_registered)
	{
		RegisterXactCallback(progress_at_transaction_end, NULL);
		progress_callback_registered = true;
	}
	slot_write_begin(slot);
	/* (a step of another statement of the transaction: a call of its own) */
	if (slot->pid == 0 || slot->statement_start != GetCurrentStatementStartTimestamp())
	{
		slot->pid = MyProcPid;
		/* (the session's, as pg_stat_activity's; SET ROLE changes it not) */
		slot->userid = GetSessionUserId();
		slot->dbid = MyDatabaseId;
		slot->started = GetCurrentTimestamp();
		copy_clipped(slot->command, command, sizeof(slot->command));
	}
	slot->statement_start = GetCurrentStatementStartTimestamp();
	slot->relid = relid;
	slot_set_phase(slot, phase);
	slot_write_end(slot);
}

/*
 * The next step of the call in progress (none: nothing written); its reads
 * are told from its start.
 */
void
uuidv7_progress_phase(const char *phase)
{
	ProgressSlot *slot = my_slot();

	last_notice = 0;
	if (slot == NULL || slot->pid == 0)
		return;
	slot_write_begin(slot);
	slot_set_phase(slot, phase);
	slot_write_end(slot);
}

/*
 * How far the read of a DEFAULT partition is; an interactive call's client
 * is told every ten seconds.
 */
void
uuidv7_progress_read(int64 blocks_done, int64 blocks_total, int64 rows_moved)
{
	ProgressSlot *slot = my_slot();
	TimestampTz now;

	if (slot != NULL && slot->pid != 0)
	{
		slot_write_begin(slot);
		slot->blocks_done = blocks_done;
		slot->blocks_total = blocks_total;
		slot->rows_moved = rows_moved;
		slot_write_end(slot);
	}
	if (MyBackendType != B_BACKEND)
		return;
	now = GetCurrentTimestamp();
	if (last_notice == 0)
		last_notice = now;
	else if (TimestampDifferenceExceeds(last_notice, now, PROGRESS_NOTICE_MS))
	{
		last_notice = now;
		ereport(NOTICE,
				(errmsg("%ld of %ld blocks of the DEFAULT partition read, %ld rows moved",
						(long) blocks_done, (long) blocks_total, (long) rows_moved)));
	}
}

/*
 * uuidv7_internal.uuidv7_progress_step(command text, parent regclass, phase
 * text): the step of a call of upkeep written in SQL.
 */
PG_FUNCTION_INFO_V1(uuidv7_progress_step_sql);
Datum
uuidv7_progress_step_sql(PG_FUNCTION_ARGS)
{
	char	   *command = text_to_cstring(PG_GETARG_TEXT_PP(0));
	char	   *phase = text_to_cstring(PG_GETARG_TEXT_PP(2));

	uuidv7_progress_step(command, PG_GETARG_OID(1), phase);
	PG_RETURN_VOID();
}

/*
 * uuidv7_internal.uuidv7_progress(): the calls of upkeep in progress, of the
 * roles the caller has the privileges of (every one for pg_read_all_stats).
 */
PG_FUNCTION_INFO_V1(uuidv7_progress);
Datum
uuidv7_progress(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	ProgressShared *shared = progress_slots();
	bool		all = has_privs_of_role(GetUserId(), UUIDV7_ROLE_READ_ALL_STATS);

	InitMaterializedSRF(fcinfo, 0);
	if (shared == NULL)
		return (Datum) 0;
	for (int i = 0; i < shared->nslots; i++)
	{
		ProgressSlot *slot = &shared->slots[i];
		ProgressSlot copy;
		Datum		values[11];
		bool		nulls[11] = {0};

		slot_read(slot, &copy);
		if (copy.pid == 0 || (!all && !has_privs_of_role(GetUserId(), copy.userid)))
			continue;
		copy.command[sizeof(copy.command) - 1] = '\0';
		copy.phase[sizeof(copy.phase) - 1] = '\0';
		values[0] = Int32GetDatum(copy.pid);
		values[1] = ObjectIdGetDatum(copy.dbid);
		values[2] = ObjectIdGetDatum(copy.relid);
		values[3] = ObjectIdGetDatum(copy.userid);
		values[4] = CStringGetTextDatum(copy.command);
		values[5] = CStringGetTextDatum(copy.phase);
		values[6] = Int64GetDatum(copy.blocks_done);
		values[7] = Int64GetDatum(copy.blocks_total);
		values[8] = Int64GetDatum(copy.rows_moved);
		values[9] = TimestampTzGetDatum(copy.started);
		values[10] = TimestampTzGetDatum(copy.statement_start);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
