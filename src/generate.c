/*-------------------------------------------------------------------------
 *
 * generate.c
 *	  Generating UUIDv7 values: now, shifted from now, and at a given time.
 *
 * The layout is RFC 9562 section 5.7 with the sub-millisecond fraction in
 * rand_a (section 6.2, method 3), as PostgreSQL 18's uuidv7() lays it out,
 * and 62 random bits in rand_b from state.c.
 *
 * The compatibility functions uuidv7() and uuidv7(interval), which the
 * extension creates only on servers before PostgreSQL 18, are these same C
 * functions under the SQL names of core.
 *
 * IDENTIFICATION
 *	  src/generate.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <time.h>

#include "fmgr.h"
#include "utils/fmgrprotos.h"
#include "utils/timestamp.h"

#include "uuidv7.h"

/*
 * Nanoseconds since the Unix epoch, by the system's real-time clock.  A clock
 * set before 1970 cannot be written in 48 unsigned bits.
 */
static int64
clock_unix_ns(void)
{
	int64		ns;
#ifndef WIN32
	struct timespec ts;

	if (clock_gettime(CLOCK_REALTIME, &ts) != 0)
		elog(ERROR, "could not read the real-time clock: %m");
	ns = (int64) ts.tv_sec * INT64CONST(1000000000) + ts.tv_nsec;
#else
	/* Windows has no clock_gettime(); microseconds are what it offers */
	ns = (GetCurrentTimestamp() + UUIDV7_UNIX_TO_PG_EPOCH_US) * UUIDV7_NS_PER_US;
#endif
	if (ns < 0)
		uuidv7_report_out_of_range();
	return ns;
}

/* A new UUIDv7 laid out from a tick and fresh random bits. */
static pg_uuid_t *
make_uuidv7(uint64 tick)
{
	pg_uuid_t  *uuid = palloc(sizeof(pg_uuid_t));

	uuidv7_pack(uuid, tick, uuidv7_random_bits());
	return uuid;
}

/* A new UUIDv7 for now, greater than any this backend generated before. */
PG_FUNCTION_INFO_V1(uuidv7_generate);
Datum
uuidv7_generate(PG_FUNCTION_ARGS)
{
	int64		now_ns = clock_unix_ns();
	uint64		tick;

	tick = uuidv7_tick_from_unix_us(now_ns / UUIDV7_NS_PER_US,
									now_ns % UUIDV7_NS_PER_US);
	PG_RETURN_UUID_P(make_uuidv7(uuidv7_next_tick(tick)));
}

/*
 * A new UUIDv7 for now plus an interval.  The interval is added as
 * timestamptz + interval adds it, so month and day units follow the session's
 * TimeZone; the nanoseconds below the microsecond are kept.
 */
PG_FUNCTION_INFO_V1(uuidv7_generate_interval);
Datum
uuidv7_generate_interval(PG_FUNCTION_ARGS)
{
	Interval   *shift = PG_GETARG_INTERVAL_P(0);
	int64		now_ns = clock_unix_ns();
	TimestampTz now;
	TimestampTz shifted;
	uint64		tick;

	now = now_ns / UUIDV7_NS_PER_US - UUIDV7_UNIX_TO_PG_EPOCH_US;
	shifted = DatumGetTimestampTz(DirectFunctionCall2(timestamptz_pl_interval,
													  TimestampTzGetDatum(now),
													  IntervalPGetDatum(shift)));
	tick = uuidv7_tick_from_unix_us(uuidv7_unix_us_from_timestamptz(shifted),
									now_ns % UUIDV7_NS_PER_US);

	PG_RETURN_UUID_P(make_uuidv7(uuidv7_next_shifted_tick(shift, tick)));
}

/*
 * A new UUIDv7 for the given instant, with the instant's sub-millisecond
 * fraction and fresh random bits.  For backfilling history, so it is not
 * bound to the order of the backend's sequence.
 */
PG_FUNCTION_INFO_V1(uuidv7_generate_at);
Datum
uuidv7_generate_at(PG_FUNCTION_ARGS)
{
	int64		unix_us = uuidv7_unix_us_from_timestamptz(PG_GETARG_TIMESTAMPTZ(0));

	PG_RETURN_UUID_P(make_uuidv7(uuidv7_tick_from_unix_us(unix_us, 0)));
}
