/*-------------------------------------------------------------------------
 *
 * operators.c
 *	  Comparing UUIDv7 keys with times, for the uuidv7_time_ops extension:
 *	  operators, btree comparison support and RANGE window frames.
 *
 * A btree operator family needs one total order over both types.  An
 * instant t that falls on a whole millisecond takes the place of
 * uuidv7_min(t), the smallest UUIDv7 of that millisecond, and equals it; any
 * other instant takes the place just below uuidv7_min(t), the first
 * millisecond after it.  So each = pairs one instant with one UUID, instants
 * of one millisecond keep their own order among themselves (ties with no
 * UUID between them), and the order stays transitive across both types.  For
 * every valid UUIDv7 and every instant t:
 *
 *	 id <  t  <=>  uuidv7_timestamp(id) <  t
 *	 id >= t  <=>  uuidv7_timestamp(id) >= t
 *
 * while id <= t and id > t differ from id < t and id >= t only for the key
 * uuidv7_min(t) of a t on a whole millisecond.  That equality is what lets
 * the planner prune "id >= t" to the partitions the uuidv7_min(t) form
 * prunes to: the partition whose upper bound is uuidv7_min(t) ends at t.
 *
 * Instants before 1970 stand just below uuidv7_min of 1970's first
 * millisecond and those past the last millisecond of 48 bits (and infinity)
 * above every UUID, so the operators are total and never raise an error
 * inside an index scan.
 *
 * uuidv7_time_ops 0.2.0 ordered every instant just below uuidv7_min(t) and
 * had no equality.  The symbols its SQL functions name answer as they did
 * until ALTER EXTENSION ... UPDATE points its functions at the new ones (the
 * _0_3 symbols are those whose answers changed), so that no install mixes
 * the two orders.  Indexes hold uuids only: neither order is stored in them.
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

/*
 * The instant's place, kept in the call's fn_extra: a comparison in a scan's
 * filter, an index search or partition pruning meets the same instant row
 * after row, and placing it costs more than the comparison itself.
 */
static const InstantPlace *
instant_place(FunctionCallInfo fcinfo, TimestampTz ts, InstantPlace *local)
{
	FmgrInfo   *flinfo = fcinfo->flinfo;
	InstantPlace *place;

	if (flinfo == NULL)
	{
		uuidv7_place_instant(local, ts);
		return local;
	}
	place = (InstantPlace *) flinfo->fn_extra;
	if (place == NULL)
	{
		place = MemoryContextAlloc(flinfo->fn_mcxt, sizeof(InstantPlace));
		uuidv7_place_instant(place, ts);
		flinfo->fn_extra = place;
	}
	else if (place->ts != ts)
		uuidv7_place_instant(place, ts);
	return place;
}

/*
 * -1 if the UUID sorts below the instant's place, +1 if above, 0 if the
 * instant falls on a whole millisecond a UUIDv7 holds and the UUID is that
 * millisecond's smallest (only when aligned_equal: 0.2.0 had no equality).
 */
static int
cmp_uuid_instant(FunctionCallInfo fcinfo, const pg_uuid_t *uuid, TimestampTz ts,
				 bool aligned_equal)
{
	InstantPlace local;
	const InstantPlace *place = instant_place(fcinfo, ts, &local);
	int			cmp;

	if (place->above_all)
		return -1;
	cmp = memcmp(uuid->data, place->bound.data, UUID_LEN);
	if (cmp < 0)
		return -1;
	if (cmp == 0 && aligned_equal && place->on_bound)
		return 0;
	return 1;
}

/* btree comparison support (uuid, timestamptz) */
PG_FUNCTION_INFO_V1(uuidv7_cmp_timestamptz_0_3);
Datum
uuidv7_cmp_timestamptz_0_3(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(cmp_uuid_instant(fcinfo, PG_GETARG_UUID_P(0), PG_GETARG_TIMESTAMPTZ(1), true));
}

/* btree comparison support (timestamptz, uuid) */
PG_FUNCTION_INFO_V1(timestamptz_cmp_uuidv7_0_3);
Datum
timestamptz_cmp_uuidv7_0_3(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(-cmp_uuid_instant(fcinfo, PG_GETARG_UUID_P(1), PG_GETARG_TIMESTAMPTZ(0), true));
}

/* uuid < timestamptz */
PG_FUNCTION_INFO_V1(uuidv7_lt_timestamptz);
Datum
uuidv7_lt_timestamptz(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(cmp_uuid_instant(fcinfo, PG_GETARG_UUID_P(0), PG_GETARG_TIMESTAMPTZ(1), true) < 0);
}

/* uuid <= timestamptz */
PG_FUNCTION_INFO_V1(uuidv7_le_timestamptz);
Datum
uuidv7_le_timestamptz(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(cmp_uuid_instant(fcinfo, PG_GETARG_UUID_P(0), PG_GETARG_TIMESTAMPTZ(1), true) <= 0);
}

/*
 * uuid >= timestamptz (and, below, its commutator): NULL in, NULL out, also
 * where declared not STRICT, as uuidv7's uuidv7_time_ge is in both editions
 * (src/comparison.sql)
 */
PG_FUNCTION_INFO_V1(uuidv7_ge_timestamptz);
Datum
uuidv7_ge_timestamptz(PG_FUNCTION_ARGS)
{
	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		PG_RETURN_NULL();
	PG_RETURN_BOOL(cmp_uuid_instant(fcinfo, PG_GETARG_UUID_P(0), PG_GETARG_TIMESTAMPTZ(1), true) >= 0);
}

/* uuid > timestamptz */
PG_FUNCTION_INFO_V1(uuidv7_gt_timestamptz);
Datum
uuidv7_gt_timestamptz(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(cmp_uuid_instant(fcinfo, PG_GETARG_UUID_P(0), PG_GETARG_TIMESTAMPTZ(1), true) > 0);
}

/* timestamptz < uuid */
PG_FUNCTION_INFO_V1(timestamptz_lt_uuidv7_0_3);
Datum
timestamptz_lt_uuidv7_0_3(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(cmp_uuid_instant(fcinfo, PG_GETARG_UUID_P(1), PG_GETARG_TIMESTAMPTZ(0), true) > 0);
}

/* timestamptz <= uuid */
PG_FUNCTION_INFO_V1(timestamptz_le_uuidv7);
Datum
timestamptz_le_uuidv7(PG_FUNCTION_ARGS)
{
	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		PG_RETURN_NULL();
	PG_RETURN_BOOL(cmp_uuid_instant(fcinfo, PG_GETARG_UUID_P(1), PG_GETARG_TIMESTAMPTZ(0), true) >= 0);
}

/* timestamptz >= uuid */
PG_FUNCTION_INFO_V1(timestamptz_ge_uuidv7);
Datum
timestamptz_ge_uuidv7(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(cmp_uuid_instant(fcinfo, PG_GETARG_UUID_P(1), PG_GETARG_TIMESTAMPTZ(0), true) <= 0);
}

/* timestamptz > uuid */
PG_FUNCTION_INFO_V1(timestamptz_gt_uuidv7);
Datum
timestamptz_gt_uuidv7(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(cmp_uuid_instant(fcinfo, PG_GETARG_UUID_P(1), PG_GETARG_TIMESTAMPTZ(0), true) < 0);
}

/*
 * The symbols of uuidv7_time_ops 0.2.0 whose answers changed, as they were,
 * for installs not yet updated: comparison support that never returns 0,
 * and the "timestamptz < uuid" that served both < and <= (it answers as
 * <= does now).  0.2.0's other operators call the functions above, whose
 * answers are the same in both orders.
 */
PG_FUNCTION_INFO_V1(uuidv7_cmp_timestamptz);
Datum
uuidv7_cmp_timestamptz(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(cmp_uuid_instant(fcinfo, PG_GETARG_UUID_P(0), PG_GETARG_TIMESTAMPTZ(1), false));
}

PG_FUNCTION_INFO_V1(timestamptz_cmp_uuidv7);
Datum
timestamptz_cmp_uuidv7(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(-cmp_uuid_instant(fcinfo, PG_GETARG_UUID_P(1), PG_GETARG_TIMESTAMPTZ(0), false));
}

PG_FUNCTION_INFO_V1(timestamptz_lt_uuidv7);
Datum
timestamptz_lt_uuidv7(PG_FUNCTION_ARGS)
{
	return timestamptz_le_uuidv7(fcinfo);
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
