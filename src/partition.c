/*-------------------------------------------------------------------------
 *
 * partition.c
 *	  The periods of a span of time and their exact UUIDv7 bounds, for
 *	  range partitions keyed by a UUIDv7.
 *
 * Period k of a span starts at from + k * step, computed from the start of
 * the span rather than from the previous period, so that month steps from
 * the 31st come back to the 31st after a short month.  Each period ends where
 * the next starts, and its uuid bounds are uuidv7_min() of both instants, so
 * consecutive partitions tile with no gap and no overlap.
 *
 * The step is added as timestamptz + interval adds it: months and days
 * follow the calendar of a time zone (a day may last 23 or 25 hours across a
 * daylight-saving change), hours and smaller units are absolute.  A local
 * day that a zone skips (Pacific/Apia has no 2011-12-30) starts at the same
 * instant as the day after it; such an empty period is left out.  The zone is
 * the session's TimeZone, or one named explicitly so that a migration gives
 * the same bounds whatever the session's setting.
 *
 * IDENTIFICATION
 *	  src/partition.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/xact.h"
#include "common/int.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "pgtime.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/timestamp.h"

#include "uuidv7.h"

/*
 * No partitioned table has a million partitions; a span that would yield
 * more is a mistake (a step in milliseconds over years), and would fill the
 * disk with the rows of a set-returning function that PostgreSQL
 * materializes before any LIMIT applies.
 */
#define UUIDV7_MAX_PERIODS		1000000

static const Interval zero_step = {0, 0, 0};

/* the state of one call of uuidv7_partition_bounds */
typedef struct PartitionBoundsState
{
	TimestampTz from;			/* start of the span */
	TimestampTz upto;			/* no period starts at or after this */
	Interval	step;
	pg_tz	   *zone;			/* calendar of month and day steps */
	int32		next;			/* number of the next period */
	TimestampTz next_start;		/* where it starts */
} PartitionBoundsState;

/*
 * from + k * step in the given zone.  The zone stands in for the session's
 * TimeZone during timestamptz + interval, which reads it (PostgreSQL 16 has
 * date_add() for this, earlier versions do not).
 */
static TimestampTz
add_steps(TimestampTz from, const Interval *step, int32 k, pg_tz *zone)
{
	Interval	span;
	pg_tz	   *session_zone = session_timezone;
	TimestampTz result;

	if (pg_mul_s64_overflow(step->time, k, &span.time) ||
		pg_mul_s32_overflow(step->day, k, &span.day) ||
		pg_mul_s32_overflow(step->month, k, &span.month))
		uuidv7_report_out_of_range();

	session_timezone = zone;
	PG_TRY();
	{
		result = DatumGetTimestampTz(DirectFunctionCall2(timestamptz_pl_interval,
														 TimestampTzGetDatum(from),
														 IntervalPGetDatum(&span)));
	}
	PG_FINALLY();
	{
		session_timezone = session_zone;
	}
	PG_END_TRY();

	return result;
}

/*
 * A time as text, in a string of its own: timestamptz_to_str() returns a
 * static buffer, which a second call in the same argument list would
 * overwrite.
 */
static char *
timestamptz_text(TimestampTz ts)
{
	return pstrdup(timestamptz_to_str(ts));
}

/* The zone a name stands for, or an error. */
static pg_tz *
lookup_zone(text *name)
{
	char	   *zone_name = text_to_cstring(name);
	pg_tz	   *zone = pg_tzset(zone_name);

	if (zone == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("time zone \"%s\" not recognized", zone_name)));
	return zone;
}

/*
 * uuidv7_partition_bounds(from, upto, step [, zone]): one row per period of
 * [from, upto), with its start and end and its lower and upper uuid bounds.
 * The last period ends at or after upto.  No rows when upto <= from, as
 * generate_series() does.
 */
PG_FUNCTION_INFO_V1(uuidv7_partition_bounds);
Datum
uuidv7_partition_bounds(PG_FUNCTION_ARGS)
{
	FuncCallContext *funcctx;
	PartitionBoundsState *state;
	TimestampTz start;
	TimestampTz end;
	pg_uuid_t  *lower;
	pg_uuid_t  *upper;
	Datum		values[4];
	bool		nulls[4] = {false, false, false, false};

	if (SRF_IS_FIRSTCALL())
	{
		MemoryContext oldcontext;
		TupleDesc	tupdesc;

		funcctx = SRF_FIRSTCALL_INIT();
		oldcontext = MemoryContextSwitchTo(funcctx->multi_call_memory_ctx);

		if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
			elog(ERROR, "return type must be a row type");
		funcctx->tuple_desc = BlessTupleDesc(tupdesc);

		state = palloc(sizeof(PartitionBoundsState));
		state->from = PG_GETARG_TIMESTAMPTZ(0);
		state->upto = PG_GETARG_TIMESTAMPTZ(1);
		state->step = *PG_GETARG_INTERVAL_P(2);
		state->zone = PG_NARGS() > 3 ? lookup_zone(PG_GETARG_TEXT_PP(3)) : session_timezone;
		state->next = 0;
		state->next_start = state->from;
		funcctx->user_fctx = state;

		if (DatumGetInt32(DirectFunctionCall2(interval_cmp,
											  IntervalPGetDatum(&state->step),
											  IntervalPGetDatum(&zero_step))) <= 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("step must be a positive interval"),
					 errdetail("The step is \"%s\".",
							   DatumGetCString(DirectFunctionCall1(interval_out,
																   IntervalPGetDatum(&state->step))))));

		/* the span's edges must be times a UUIDv7 can carry */
		(void) uuidv7_unix_us_from_timestamptz(state->from);
		(void) uuidv7_unix_us_from_timestamptz(state->upto);

		MemoryContextSwitchTo(oldcontext);
	}

	funcctx = SRF_PERCALL_SETUP();
	state = funcctx->user_fctx;

	start = state->next_start;
	if (start >= state->upto)
		SRF_RETURN_DONE(funcctx);

	CHECK_FOR_INTERRUPTS();

	/* skip the empty periods of local days that the zone skips */
	do
	{
		if (state->next >= UUIDV7_MAX_PERIODS)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("too many partition periods"),
					 errdetail("A span is cut into at most %d periods.", UUIDV7_MAX_PERIODS),
					 errhint("Use a longer step or a shorter span.")));
		end = add_steps(state->from, &state->step, state->next + 1, state->zone);
		state->next++;
	} while (end == start);
	if (end < start)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("step must be a positive interval"),
				 errdetail("The period starting at %s would end at %s.",
						   timestamptz_text(start), timestamptz_text(end))));

	lower = palloc(sizeof(pg_uuid_t));
	upper = palloc(sizeof(pg_uuid_t));
	uuidv7_set_min_bound(lower, start);
	uuidv7_set_min_bound(upper, end);
	if (memcmp(lower, upper, sizeof(pg_uuid_t)) == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("step must be at least one millisecond"),
				 errdetail("The period from %s to %s holds no millisecond of a UUIDv7.",
						   timestamptz_text(start), timestamptz_text(end))));

	state->next_start = end;

	values[0] = TimestampTzGetDatum(start);
	values[1] = TimestampTzGetDatum(end);
	values[2] = UUIDPGetDatum(lower);
	values[3] = UUIDPGetDatum(upper);
	SRF_RETURN_NEXT(funcctx,
					HeapTupleGetDatum(heap_form_tuple(funcctx->tuple_desc, values, nulls)));
}

/*
 * uuidv7_forbid_transaction_block(name text): raise 25001 if called inside a
 * transaction block, for procedures that commit between their steps.  Their
 * own COMMIT would fail there too, but with "invalid transaction
 * termination" from the middle of the procedure, which does not say what to
 * do; migration tools wrap each migration in a transaction by default.
 */
PG_FUNCTION_INFO_V1(uuidv7_forbid_transaction_block);
Datum
uuidv7_forbid_transaction_block(PG_FUNCTION_ARGS)
{
	if (IsTransactionBlock())
		ereport(ERROR,
				(errcode(ERRCODE_ACTIVE_SQL_TRANSACTION),
				 errmsg("%s cannot run inside a transaction block",
						text_to_cstring(PG_GETARG_TEXT_PP(0))),
				 errhint("It commits between its steps: CALL it on its own, outside BEGIN and COMMIT "
						 "(in a migration tool, in a migration marked as not transactional).")));
	PG_RETURN_VOID();
}
