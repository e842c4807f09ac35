/*-------------------------------------------------------------------------
 *
 * time.c
 *	  Conversions between PostgreSQL timestamps and UUIDv7 time fields.
 *
 * IDENTIFICATION
 *	  src/time.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "uuidv7.h"

/*
 * Microseconds since the Unix epoch of a timestamptz, which must lie within
 * what a UUIDv7 can carry.  The range test also rejects -infinity and
 * infinity, which PostgreSQL stores as the smallest and largest int64.
 */
int64
uuidv7_unix_us_from_timestamptz(TimestampTz ts)
{
	if (ts < UUIDV7_MIN_TIMESTAMPTZ || ts > UUIDV7_MAX_TIMESTAMPTZ)
		uuidv7_report_out_of_range();

	return ts + UUIDV7_UNIX_TO_PG_EPOCH_US;
}

/* The one error for a time that a UUIDv7 cannot carry. */
void
uuidv7_report_out_of_range(void)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
			 errmsg("timestamp out of range for UUID version 7"),
			 errdetail("UUID version 7 holds times from 1970-01-01 00:00:00 UTC to 10889-08-02 05:31:50.655999 UTC.")));
}
