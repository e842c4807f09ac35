/*-------------------------------------------------------------------------
 *
 * operators.c
 *	  Comparing UUIDv7 keys with times, for the uuidv7_time_ops extension:
 *	  operators, btree comparison support and RANGE window frames.
 *
 * A btree operator family needs one total order over both types.  Each
 * instant t takes the place just below uuidv7_min(t), the smallest UUIDv7 of
 * the first millisecond at or after t: below every UUID of that millisecond
 * and above every UUID of an earlier one.  No UUID ever equals an instant, so
 * there is no = operator, "id <= t" means "id < t" and "id > t" means
 * "id >= t", and for every valid UUIDv7:
 *
 *	 id <  t  and  id <= t  <=>  uuidv7_timestamp(id) <  t
 *	 id >= t  and  id >  t  <=>  uuidv7_timestamp(id) >= t
 *
 * Instants before 1970 stand below every UUIDv7 and those past the last
 * millisecond of 48 bits (and infinity) above every UUID, so the operators
 * are total and never raise an error inside an index scan.  Reading "same
 * millisecond" as "equal" instead would break the transitivity the planner
 * relies on.
 *
 * IDENTIFICATION
 *	  src/operators.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "utils/fmgrprotos.h"
#include "utils/timestamp.h"

#include "uuidv7.h"

/* the first instant of the last millisecond 48 bits hold */
#define UUIDV7_LAST_MS_TIMESTAMPTZ \
	((int64) UUIDV7_MAX_UNIX_MS * UUIDV7_US_PER_MS - UUIDV7_UNIX_TO_PG_EPOCH_US)

/* -1 if the UUID sorts below the instant's place, +1 if above; never 0. */
static int
cmp_uuid_instant(const pg_uuid_t *uuid, TimestampTz ts)
{
	pg_uuid_t	bound;

	if (ts > UUIDV7_LAST_MS_TIMESTAMPTZ)
		return -1;
	uuidv7_set_min_bound(&bound, Max(ts, UUIDV7_MIN_TIMESTAMPTZ));
	return memcmp(uuid->data, bound.data, UUID_LEN) < 0 ? -1 : 1;
}

/* btree comparison support (uuid, timestamptz) */
PG_FUNCTION_INFO_V1(uuidv7_cmp_timestamptz);
Datum
uuidv7_cmp_timestamptz(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(cmp_uuid_instant(PG_GETARG_UUID_P(0), PG_GETARG_TIMESTAMPTZ(1)));
}

/* btree comparison support (timestamptz, uuid) */
PG_FUNCTION_INFO_V1(timestamptz_cmp_uuidv7);
Datum
timestamptz_cmp_uuidv7(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(-cmp_uuid_instant(PG_GETARG_UUID_P(1), PG_GETARG_TIMESTAMPTZ(0)));
}

/* uuid < timestamptz, and uuid <= timestamptz */
PG_FUNCTION_INFO_V1(uuidv7_lt_timestamptz);
Datum
uuidv7_lt_timestamptz(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(cmp_uuid_instant(PG_GETARG_UUID_P(0), PG_GETARG_TIMESTAMPTZ(1)) < 0);
}

/* uuid >= timestamptz, and uuid > timestamptz */
PG_FUNCTION_INFO_V1(uuidv7_ge_timestamptz);
Datum
uuidv7_ge_timestamptz(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(cmp_uuid_instant(PG_GETARG_UUID_P(0), PG_GETARG_TIMESTAMPTZ(1)) > 0);
}

/* timestamptz < uuid, and timestamptz <= uuid */
PG_FUNCTION_INFO_V1(timestamptz_lt_uuidv7);
Datum
timestamptz_lt_uuidv7(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(cmp_uuid_instant(PG_GETARG_UUID_P(1), PG_GETARG_TIMESTAMPTZ(0)) > 0);
}

/* timestamptz > uuid, and timestamptz >= uuid */
PG_FUNCTION_INFO_V1(timestamptz_gt_uuidv7);
Datum
timestamptz_gt_uuidv7(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(cmp_uuid_instant(PG_GETARG_UUID_P(1), PG_GETARG_TIMESTAMPTZ(0)) < 0);
}

/* The embedded time of a UUID in a RANGE frame, which must be version 7. */
static TimestampTz
frame_timestamp(const pg_uuid_t *uuid)
{
	if (!uuidv7_is_v7(uuid))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("RANGE frame offsets over uuid need version 7 UUIDs"),
				 errdetail("UUID \"%s\" carries no time.",
						   DatumGetCString(DirectFunctionCall1(uuid_out, UUIDPGetDatum(uuid))))));
	return uuidv7_timestamptz_from_unix_ms(uuidv7_get_unix_ms(uuid));
}

/*
 * in_range support (btree support function 3) for RANGE window frames with
 * an interval offset over ORDER BY a UUIDv7 key: whether val lies within
 * offset before or after base, by embedded time, as PostgreSQL's own
 * in_range for timestamptz decides it.
 */
PG_FUNCTION_INFO_V1(uuidv7_in_range);
Datum
uuidv7_in_range(PG_FUNCTION_ARGS)
{
	TimestampTz val = frame_timestamp(PG_GETARG_UUID_P(0));
	TimestampTz base = frame_timestamp(PG_GETARG_UUID_P(1));
	Interval   *offset = PG_GETARG_INTERVAL_P(2);
	bool		sub = PG_GETARG_BOOL(3);
	bool		less = PG_GETARG_BOOL(4);

	PG_RETURN_DATUM(DirectFunctionCall5(in_range_timestamptz_interval,
										TimestampTzGetDatum(val),
										TimestampTzGetDatum(base),
										IntervalPGetDatum(offset),
										BoolGetDatum(sub),
										BoolGetDatum(less)));
}
