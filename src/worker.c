/*-------------------------------------------------------------------------
 *
 * worker.c
 *	  The maintenance worker: the policies of partitioned tables run on
 *	  their own, with no scheduler.
 *
 * Where uuidv7 is in shared_preload_libraries, a launcher (a background
 * worker of no database) wakes every uuidv7.maintenance_interval and, for
 * each database uuidv7.maintenance_databases names, starts a worker that
 * connects to it as uuidv7.maintenance_role and runs the maintenance of
 * every table with a policy that role may alter, as CALL
 * uuidv7_run_maintenance() does: each table in a transaction of its own,
 * recorded in uuidv7_maintenance_history.  One database at a time, so that
 * the launcher and one worker are all it ever holds of max_worker_processes
 * (never a connection slot of max_connections).  A database without the
 * extension, or without a policy, costs one query.  The launcher is
 * restarted after a crash (its own, or a backend's, which restarts every
 * process); it and its workers stop at shutdown like any backend.
 *
 * IDENTIFICATION
 *	  src/worker.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/xact.h"
#include "catalog/pg_class.h"
#include "commands/dbcommands.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "nodes/value.h"
#include "parser/parse_func.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "postmaster/interrupt.h"
#include "port/atomics.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "tcop/tcopprot.h"
#include "storage/latch.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
#include "utils/timeout.h"
#include "utils/timestamp.h"
#include "utils/varlena.h"

#include "compat.h"
#include "uuidv7.h"

PGDLLEXPORT void uuidv7_maintenance_launcher_main(Datum main_arg);
PGDLLEXPORT void uuidv7_maintenance_worker_main(Datum main_arg);

/* GUC uuidv7.maintenance_databases: where the worker runs ("": nowhere) */
static char *maintenance_databases = NULL;

/* GUC uuidv7.maintenance_role: as whom ("": the worker does not run) */
static char *maintenance_role = NULL;

/* GUC uuidv7.maintenance_interval, in seconds */
static int	maintenance_interval = 3600;

/* GUC uuidv7.maintenance_table_timeout, in milliseconds (0: none) */
static int	maintenance_table_timeout = 600000;

/* whether the launcher runs: uuidv7 was preloaded (every process knows) */
static bool launcher_registered = false;

/*
 * What a database's worker tells the launcher: the table whose code caught
 * the timeout's cancel and went on, so that the worker ended (0: none).  The
 * launcher has that database's next worker run it last: the other tables
 * are not held back by its name.
 */
typedef struct WorkerShared
{
	pg_atomic_uint32 ended_on;
} WorkerShared;

static WorkerShared *worker_shared = NULL;

/* the launcher's memory of it, a database at a time */
typedef struct DatabaseEnded
{
	char		database[NAMEDATALEN];
	Oid			ended_on;
} DatabaseEnded;

static List *databases_ended = NIL;

/*
 * Start the worker of one database and wait for it to finish (it takes its
 * name and the role's from its bgw_extra).
 */
static void
run_in_database(const char *database)
{
	BackgroundWorker worker;
	BackgroundWorkerHandle *handle;
	pid_t		pid;
	ListCell   *lc;
	DatabaseEnded *ended = NULL;

	memset(&worker, 0, sizeof(worker));
	worker.bgw_flags = BGWORKER_SHMEM_ACCESS | BGWORKER_BACKEND_DATABASE_CONNECTION;
	worker.bgw_start_time = BgWorkerStart_RecoveryFinished;
	worker.bgw_restart_time = BGW_NEVER_RESTART;
	snprintf(worker.bgw_library_name, BGW_MAXLEN, "uuidv7");
	snprintf(worker.bgw_function_name, BGW_MAXLEN, "uuidv7_maintenance_worker_main");
	snprintf(worker.bgw_name, BGW_MAXLEN, "uuidv7 maintenance of database %s", database);
	snprintf(worker.bgw_type, BGW_MAXLEN, "uuidv7 maintenance");
	snprintf(worker.bgw_extra, NAMEDATALEN, "%s", database);
	snprintf(worker.bgw_extra + NAMEDATALEN, NAMEDATALEN, "%s", maintenance_role);
	worker.bgw_notify_pid = MyProcPid;
	foreach(lc, databases_ended)
	{
		if (strcmp(((DatabaseEnded *) lfirst(lc))->database, database) == 0)
			ended = lfirst(lc);
	}
	if (ended == NULL)
	{
		ended = MemoryContextAllocZero(TopMemoryContext, sizeof(DatabaseEnded));
		snprintf(ended->database, NAMEDATALEN, "%s", database);
		databases_ended = lappend(databases_ended, ended);
	}
	worker.bgw_main_arg = ObjectIdGetDatum(ended->ended_on);
	pg_atomic_write_u32(&worker_shared->ended_on, InvalidOid);

	if (!RegisterDynamicBackgroundWorker(&worker, &handle))
	{
		ereport(WARNING,
				(errmsg("uuidv7 could not start the maintenance of database \"%s\"", database),
				 errhint("Raise max_worker_processes: the maintenance takes one worker while it runs.")));
		return;
	}
	if (WaitForBackgroundWorkerStartup(handle, &pid) != BGWH_STARTED)
		return;
	(void) WaitForBackgroundWorkerShutdown(handle);
	ended->ended_on = pg_atomic_read_u32(&worker_shared->ended_on);
}

/*
 * SIGUSR1, by which the postmaster tells of a worker's start and end: it
 * sets the launcher's latch (a background worker of no database has no
 * handler that does, and waited for its worker without end).
 */
static void
launcher_sigusr1(SIGNAL_ARGS)
{
	int			save_errno = errno;

	SetLatch(MyLatch);
	errno = save_errno;
}

/* The configuration read again if a reload was asked for. */
static void
reload_if_pending(void)
{
	if (ConfigReloadPending)
	{
		ConfigReloadPending = false;
		ProcessConfigFile(PGC_SIGHUP);
	}
}

/*
 * The launcher: every interval, the databases named, one after another; a
 * reload takes new settings at the next wake.
 */
void
uuidv7_maintenance_launcher_main(Datum main_arg pg_attribute_unused())
{
	pqsignal(SIGHUP, SignalHandlerForConfigReload);
	pqsignal(SIGTERM, die);
	pqsignal(SIGUSR1, launcher_sigusr1);
	BackgroundWorkerUnblockSignals();

	for (;;)
	{
		char	   *names;
		List	   *databases = NIL;
		ListCell   *lc;

		CHECK_FOR_INTERRUPTS();
		reload_if_pending();

		names = pstrdup(maintenance_databases);
		if (maintenance_role[0] != '\0' && !SplitIdentifierString(names, ',', &databases))
			ereport(WARNING,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("uuidv7.maintenance_databases is not a list of database names: \"%s\"",
							maintenance_databases)));
		else if (maintenance_role[0] != '\0')
		{
			foreach(lc, databases)
			{
				CHECK_FOR_INTERRUPTS();
				run_in_database((const char *) lfirst(lc));
			}
		}
		list_free(databases);
		pfree(names);

		/* (a reload while the workers ran sets the interval to wait) */
		reload_if_pending();
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 maintenance_interval * 1000L, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
	}
}

/* the timeout that ends the worker, and the table it was on */
static TimeoutId table_deadline = MAX_TIMEOUTS;
static volatile sig_atomic_t table_deadline_passed = false;
static Oid	table_running = InvalidOid;

/*
 * A table's run went on as long again after its cancel (its code caught
 * it): the worker ends, as a terminated backend does, so that the launcher
 * goes on.
 */
static void
table_deadline_handler(void)
{
	table_deadline_passed = true;
	ProcDiePending = true;
	InterruptPending = true;
	SetLatch(MyLatch);
}

/* (said as the worker ends: core's own message names no table) */
static void
tell_table_deadline(int code pg_attribute_unused(), Datum arg pg_attribute_unused())
{
	if (table_deadline_passed && worker_shared != NULL)
		pg_atomic_write_u32(&worker_shared->ended_on, table_running);
	if (table_deadline_passed)
		ereport(WARNING,
				(errmsg("uuidv7 maintenance of the table of OID %u went on past twice uuidv7.maintenance_table_timeout, its cancel caught: the worker ended it",
						table_running),
				 errdetail("The run was not recorded; the other databases' runs go on.")));
}

/*
 * One step ("create", "retire" or "archive") of a table's maintenance, in a
 * transaction of its own, as its owner, within
 * uuidv7.maintenance_table_timeout (as statement_timeout bounds a
 * statement): the table's code cannot hold the worker, and with it the
 * other tables and databases, for longer; code that catches the cancel and
 * goes on ends the worker at twice the timeout.  An error is recorded by
 * the helper, and told here, as CALL uuidv7_run_maintenance() tells it; one
 * that escapes it is told, and the next step's run comes.
 */
static bool
maintain_table_step(Oid table, const char *step, TimestampTz started, int k, int n)
{
	volatile bool ok = true;
	Oid			argtypes[3] = {OIDOID, TEXTOID, TIMESTAMPTZOID};
	Datum		args[3] = {ObjectIdGetDatum(table), CStringGetTextDatum(step), TimestampTzGetDatum(started)};
	MemoryContext caller = CurrentMemoryContext;

	PG_TRY();
	{
		SetCurrentStatementStartTimestamp();
		StartTransactionCommand();
		SPI_connect();
		PushActiveSnapshot(GetTransactionSnapshot());
		pgstat_report_activity(STATE_RUNNING, "uuidv7 maintenance: a table's policy");
		uuidv7_progress_step("uuidv7 maintenance worker", table, psprintf("table %d of %d", k, n));
		table_running = table;
		if (maintenance_table_timeout > 0)
		{
			enable_timeout_after(STATEMENT_TIMEOUT, maintenance_table_timeout);
			enable_timeout_after(table_deadline, maintenance_table_timeout > INT_MAX / 2 ?
								 INT_MAX : 2 * maintenance_table_timeout);
		}
		/* (a table dropped since it was listed is skipped) */
		if (SPI_execute_with_args("SELECT m.error_code, m.error_message, c.oid::pg_catalog.regclass::pg_catalog.text"
								  " FROM pg_catalog.pg_class c,"
								  " uuidv7_internal.uuidv7_maintain_as_owner(c.oid::pg_catalog.regclass, '1 minute', $2, $3) m"
								  " WHERE c.oid OPERATOR(pg_catalog.=) $1 AND m.error_message IS NOT NULL",
								  3, argtypes, args, NULL, false, 0) == SPI_OK_SELECT && SPI_processed == 1)
		{
			ok = false;
			ereport(WARNING,
					(errmsg("uuidv7 maintenance of %s: %s",
							SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 3),
							SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 2)),
					 errdetail("SQLSTATE %s; uuidv7_maintenance_runs has it, and the next run tries again.",
							   SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1))));
		}
		disable_timeout(STATEMENT_TIMEOUT, false);
		disable_timeout(table_deadline, false);
		PopActiveSnapshot();
		SPI_finish();
		CommitTransactionCommand();
	}
	PG_CATCH();
	{
		ErrorData  *error;

		disable_timeout(STATEMENT_TIMEOUT, false);
		disable_timeout(table_deadline, false);
		MemoryContextSwitchTo(caller);
		error = CopyErrorData();
		FlushErrorState();
		AbortCurrentTransaction();
		ereport(WARNING,
				(errmsg("uuidv7 maintenance of the table of OID %u: %s", table, error->message),
				 errdetail("SQLSTATE %s; the run was not recorded, and the next run tries again.", unpack_sql_state(error->sqlerrcode))));
		FreeErrorData(error);
		ok = false;
	}
	PG_END_TRY();
	return ok;
}

/*
 * One table's maintenance: its periods made in one transaction, its old
 * ones retired in another, and those retired into an archive attached to
 * it in a third, so that none undoes or holds back another (a period that
 * cannot be retired never stops the making of those ahead).
 */
static bool
maintain_table(Oid table, int k, int n)
{
	static const char *const steps[] = {"create", "retire", "archive"};
	TimestampTz started = GetCurrentTimestamp();
	bool		ok = true;

	for (size_t i = 0; i < lengthof(steps); i++)
	{
		CHECK_FOR_INTERRUPTS();
		ok &= maintain_table_step(table, steps[i], started, k, n);
	}
	return ok;
}

/*
 * A database's worker: the tables with a policy its role may alter, each
 * maintained (and recorded) in a transaction of its own by the helper
 * CALL uuidv7_run_maintenance() uses.  Nothing where the extension (of a
 * version with policies) is not installed.
 */
void
uuidv7_maintenance_worker_main(Datum main_arg)
{
	char		database[NAMEDATALEN];
	char		role[NAMEDATALEN];
	List	   *tables = NIL;
	List	   *tables_last = NIL;
	ListCell   *lc;
	bool		isnull;

	/* (the table that ended this database's last worker: run last) */
	Oid			put_last = DatumGetObjectId(main_arg);
	int			failed = 0;

	pqsignal(SIGTERM, die);
	BackgroundWorkerUnblockSignals();
	snprintf(database, NAMEDATALEN, "%s", MyBgworkerEntry->bgw_extra);
	snprintf(role, NAMEDATALEN, "%s", MyBgworkerEntry->bgw_extra + NAMEDATALEN);
	BackgroundWorkerInitializeConnection(database, role, 0);
	table_deadline = RegisterTimeout(USER_TIMEOUT, table_deadline_handler);
	before_shmem_exit(tell_table_deadline, (Datum) 0);

	/* the tables, read in a transaction of their own */
	StartTransactionCommand();
	SPI_connect();
	PushActiveSnapshot(GetTransactionSnapshot());
	pgstat_report_activity(STATE_RUNNING, "uuidv7 maintenance: finding the policies");
	if (SPI_execute("SELECT pg_catalog.to_regprocedure('uuidv7_internal.uuidv7_policy_tables()') IS NOT NULL",
					true, 1) == SPI_OK_SELECT &&
		DatumGetBool(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull)) &&
		SPI_execute("SELECT uuidv7_internal.uuidv7_forget_dropped()", false, 0) == SPI_OK_SELECT &&
		SPI_execute("SELECT t::pg_catalog.oid FROM uuidv7_internal.uuidv7_policy_tables() t", false, 0) == SPI_OK_SELECT)
	{
		MemoryContext old = MemoryContextSwitchTo(TopMemoryContext);

		for (uint64 i = 0; i < SPI_processed; i++)
		{
			Datum		oid = SPI_getbinval(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1, &isnull);

			if (!isnull && DatumGetObjectId(oid) != put_last)
				tables = lappend_oid(tables, DatumGetObjectId(oid));
			else if (!isnull)
				tables_last = lappend_oid(tables_last, DatumGetObjectId(oid));
		}
		tables = list_concat(tables, tables_last);
		MemoryContextSwitchTo(old);
	}
	PopActiveSnapshot();
	SPI_finish();
	CommitTransactionCommand();

	foreach(lc, tables)
	{
		CHECK_FOR_INTERRUPTS();
		if (!maintain_table(lfirst_oid(lc), foreach_current_index(lc) + 1, list_length(tables)))
			failed++;
	}
	pgstat_report_activity(STATE_IDLE, NULL);

	/*
	 * (as CALL uuidv7_run_maintenance() ends: the worker exits with an error,
	 * which the log and the postmaster's exit code record)
	 */
	if (failed > 0)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("uuidv7 maintenance of database \"%s\": %d of %d tables failed",
						database, failed, list_length(tables)),
				 errdetail("Every table's run was committed; the WARNINGs above name the tables."),
				 errhint("uuidv7_maintenance_runs and uuidv7_doctor() say why.")));
	proc_exit(0);
}

/*
 * uuidv7_internal.uuidv7_maintain_as_owner(parent regclass, lock_wait
 * interval, step text, run_started timestamptz):
 * uuidv7_internal.uuidv7_maintain(parent, lock_wait, step, run_started) under the
 * table owner's id, as a security-restricted operation, as autovacuum runs
 * a table's code: its triggers, defaults and constraints get the owner's
 * rights, never the caller's, and cannot SET ROLE back to the caller.  The
 * caller must have the owner's rights (42501).  NULL for a table dropped
 * since it was listed.
 */
PG_FUNCTION_INFO_V1(uuidv7_maintain_as_owner);

Datum
uuidv7_maintain_as_owner(PG_FUNCTION_ARGS)
{
	Oid			relid = PG_GETARG_OID(0);
	HeapTuple	tuple;
	Oid			owner;
	Oid			save_userid;
	int			save_sec_context;
	int			save_nestlevel;
	Oid			argtypes[4] = {REGCLASSOID, INTERVALOID, TEXTOID, TIMESTAMPTZOID};
	Oid			maintain;
	Datum		result;

	tuple = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
	if (!HeapTupleIsValid(tuple))
		PG_RETURN_NULL();
	owner = ((Form_pg_class) GETSTRUCT(tuple))->relowner;
	ReleaseSysCache(tuple);
	if (!has_privs_of_role(GetUserId(), owner))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("must be owner of table %s", get_rel_name(relid))));
	maintain = LookupFuncName(list_make2(makeString("uuidv7_internal"), makeString("uuidv7_maintain")),
							  4, argtypes, false);

	GetUserIdAndSecContext(&save_userid, &save_sec_context);
	SetUserIdAndSecContext(owner, save_sec_context | SECURITY_LOCAL_USERID_CHANGE |
						   SECURITY_RESTRICTED_OPERATION);
	save_nestlevel = NewGUCNestLevel();
	result = OidFunctionCall4(maintain, PG_GETARG_DATUM(0), PG_GETARG_DATUM(1), PG_GETARG_DATUM(2),
							  PG_GETARG_DATUM(3));
	AtEOXact_GUC(false, save_nestlevel);
	SetUserIdAndSecContext(save_userid, save_sec_context);
	PG_RETURN_DATUM(result);
}

/*
 * uuidv7_internal.uuidv7_worker_interval(): the worker's interval where it
 * maintains the current database (uuidv7 preloaded, a role set, the
 * database named as the launcher reads the list), NULL where it does not:
 * how often a policy's table is maintained, for the doctor.
 */
PG_FUNCTION_INFO_V1(uuidv7_worker_interval);

Datum
uuidv7_worker_interval(PG_FUNCTION_ARGS)
{
	char	   *names;
	List	   *databases = NIL;
	ListCell   *lc;
	char	   *current = get_database_name(MyDatabaseId);
	Interval   *every;

	if (!launcher_registered || maintenance_role[0] == '\0' || current == NULL)
		PG_RETURN_NULL();
	names = pstrdup(maintenance_databases);
	if (!SplitIdentifierString(names, ',', &databases))
		PG_RETURN_NULL();
	foreach(lc, databases)
	{
		if (strcmp((const char *) lfirst(lc), current) == 0)
		{
			every = (Interval *) palloc0(sizeof(Interval));
			every->time = (int64) maintenance_interval * USECS_PER_SEC;
			PG_RETURN_INTERVAL_P(every);
		}
	}
	PG_RETURN_NULL();
}

/* The size of what the worker shares (src/uuidv7.c). */
Size
uuidv7_worker_shmem_size(void)
{
	return sizeof(WorkerShared);
}

/*
 * Find or make what the worker shares, under AddinShmemInitLock
 * (src/uuidv7.c).
 */
void
uuidv7_worker_shmem_attach(void)
{
	bool		found;

	worker_shared = ShmemInitStruct("uuidv7 maintenance worker", sizeof(WorkerShared), &found);
	if (!found)
		pg_atomic_init_u32(&worker_shared->ended_on, InvalidOid);
}

/*
 * Define the settings and, when preloaded, register the launcher.  Called
 * once per load.
 */
void
uuidv7_worker_init(void)
{
	BackgroundWorker worker;

	DefineCustomStringVariable("uuidv7.maintenance_databases",
							   "Sets the databases whose partition policies the maintenance worker runs.",
							   "A comma-separated list of database names; empty: none.",
							   &maintenance_databases,
							   "",
							   PGC_SIGHUP,
							   GUC_LIST_INPUT,
							   NULL, NULL, NULL);
	DefineCustomStringVariable("uuidv7.maintenance_role",
							   "Sets the role the maintenance worker runs as.",
							   "It runs the policies of the tables this role may alter; empty: the worker does not run.",
							   &maintenance_role,
							   "",
							   PGC_SIGHUP,
							   0,
							   NULL, NULL, NULL);
	DefineCustomIntVariable("uuidv7.maintenance_interval",
							"Sets the time between two runs of the maintenance worker.",
							NULL,
							&maintenance_interval,
							3600, 1, INT_MAX / 1000,
							PGC_SIGHUP,
							GUC_UNIT_S,
							NULL, NULL, NULL);

	DefineCustomIntVariable("uuidv7.maintenance_table_timeout",
							"Sets the longest time the maintenance worker spends on one table.",
							"A table's run that takes longer is cancelled and recorded so; 0 turns the limit off.",
							&maintenance_table_timeout,
							600000, 0, INT_MAX,
							PGC_SIGHUP,
							GUC_UNIT_MS,
							NULL, NULL, NULL);

	if (!process_shared_preload_libraries_in_progress)
		return;
	memset(&worker, 0, sizeof(worker));
	worker.bgw_flags = BGWORKER_SHMEM_ACCESS;
	worker.bgw_start_time = BgWorkerStart_RecoveryFinished;
	worker.bgw_restart_time = 10;
	snprintf(worker.bgw_library_name, BGW_MAXLEN, "uuidv7");
	snprintf(worker.bgw_function_name, BGW_MAXLEN, "uuidv7_maintenance_launcher_main");
	snprintf(worker.bgw_name, BGW_MAXLEN, "uuidv7 maintenance launcher");
	snprintf(worker.bgw_type, BGW_MAXLEN, "uuidv7 maintenance launcher");
	RegisterBackgroundWorker(&worker);
	launcher_registered = true;
}
