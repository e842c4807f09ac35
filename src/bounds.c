/*-------------------------------------------------------------------------
 *
 * bounds.c
 *	  The smallest and largest UUIDv7 of an instant, for range predicates
 *	  and partition bounds.
 *
 * A UUIDv7 carries whole milliseconds, so "the time of a UUID is at or after
 * t" means its millisecond is at or after t rounded up to a millisecond.  The
 * smallest valid UUIDv7 of that millisecond has rand_a and rand_b all zero;
 * the largest valid UUIDv7 of a millisecond has them all ones.  Both keep the
 * version and variant bits, so they pass the uuid7 domain and can bound the
 * partitions of a uuid7 column.  Because uuid comparison is bytewise, these
 * bounds are exact for every valid UUIDv7:
 *
 *	 id >= uuidv7_min(t)  <=>  uuidv7_timestamp(id) >= t
 *	 id <= uuidv7_max(t)  <=>  uuidv7_timestamp(id) <= t
 *
 * and uuidv7_min(t1) .. uuidv7_min(t2) as a half-open range covers exactly
 * the UUIDs whose time is in [t1, t2), so consecutive ranges tile.
 *
 * IDENTIFICATION
 *	  src/bounds.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "utils/timestamp.h"

#include "uuidv7.h"

/* Lay out the smallest valid UUIDv7 whose time is at or after ts. */
void
uuidv7_set_min_bound(pg_uuid_t *uuid, TimestampTz ts)
{
	int64		unix_us = uuidv7_unix_us_from_timestamptz(ts);
	uint64		unix_ms = (unix_us + UUIDV7_US_PER_MS - 1) / UUIDV7_US_PER_MS;

	/* within the last millisecond, rounding up leaves the 48 bits */
	if (unix_ms > UUIDV7_MAX_UNIX_MS)
		uuidv7_report_out_of_range();

	uuidv7_pack(uuid, unix_ms << UUIDV7_SUBMS_BITS, 0);
}

/*
 * Place an instant among UUIDs, as the time comparisons order them
 * (comparison.c, operators.c).
 */
void
uuidv7_place_instant(InstantPlace *place, TimestampTz ts)
{
	place->ts = ts;
	place->above_all = ts > UUIDV7_LAST_MS_TIMESTAMPTZ;
	place->on_bound = ts >= UUIDV7_MIN_TIMESTAMPTZ && ts % UUIDV7_US_PER_MS == 0;
	if (!place->above_all)
		uuidv7_set_min_bound(&place->bound, Max(ts, UUIDV7_MIN_TIMESTAMPTZ));
}

/* The smallest valid UUIDv7 whose time is at or after the given instant. */
PG_FUNCTION_INFO_V1(uuidv7_min);
Datum
uuidv7_min(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *uuid = palloc(sizeof(pg_uuid_t));

	uuidv7_set_min_bound(uuid, PG_GETARG_TIMESTAMPTZ(0));
	PG_RETURN_UUID_P(uuid);
}

/* The largest valid UUIDv7 whose time is at or before the given instant. */
PG_FUNCTION_INFO_V1(uuidv7_max);
Datum
uuidv7_max(PG_FUNCTION_ARGS)
{
	int64		unix_us = uuidv7_unix_us_from_timestamptz(PG_GETARG_TIMESTAMPTZ(0));
	uint64		unix_ms = unix_us / UUIDV7_US_PER_MS;
	pg_uuid_t  *uuid = palloc(sizeof(pg_uuid_t));

	uuidv7_pack(uuid, (unix_ms << UUIDV7_SUBMS_BITS) | UUIDV7_RAND_A_MASK,
				UUIDV7_RAND_B_MASK);
	PG_RETURN_UUID_P(uuid);
}
