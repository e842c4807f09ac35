/*-------------------------------------------------------------------------
 *
 * extract.c
 *	  Reading the time and version out of a UUID.
 *
 * uuidv7_timestamp() and uuidv7_unix_ms() return NULL for a UUID that is not
 * of the RFC 9562 variant and version 7, as core's uuid_extract_timestamp()
 * does for versions it cannot read: a random or foreign UUID has no time.
 *
 * The uuid_extract_* functions here back the SQL functions of the same names
 * that the extension creates only on servers that lack them (before
 * PostgreSQL 17 and 18), with the semantics of PostgreSQL 18.  Their C names
 * differ from the SQL names so that they never collide with core's symbols.
 *
 * IDENTIFICATION
 *	  src/extract.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "utils/timestamp.h"

#include "uuidv7.h"

/* the UUID version 1 clock counts 100 ns intervals from 1582-10-15 */
#define UUIDV7_GREGORIAN_EPOCH_JDATE	2299161 /* == date2j(1582, 10, 15) */
#define UUIDV7_V1_TICKS_PER_US			10

/* The embedded time of a UUIDv7, to the millisecond; NULL for other UUIDs. */
PG_FUNCTION_INFO_V1(uuidv7_timestamp);
Datum
uuidv7_timestamp(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *uuid = PG_GETARG_UUID_P(0);

	if (!uuidv7_is_v7(uuid))
		PG_RETURN_NULL();

	PG_RETURN_TIMESTAMPTZ(uuidv7_timestamptz_from_unix_ms(uuidv7_get_unix_ms(uuid)));
}

/* The embedded Unix milliseconds of a UUIDv7; NULL for other UUIDs. */
PG_FUNCTION_INFO_V1(uuidv7_unix_ms);
Datum
uuidv7_unix_ms(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *uuid = PG_GETARG_UUID_P(0);

	if (!uuidv7_is_v7(uuid))
		PG_RETURN_NULL();

	PG_RETURN_INT64((int64) uuidv7_get_unix_ms(uuid));
}

/*
 * uuid_extract_timestamp() as in PostgreSQL 18: the time of an RFC 9562
 * version 1 or 7 UUID, NULL for any other.
 */
PG_FUNCTION_INFO_V1(uuidv7_compat_extract_timestamp);
Datum
uuidv7_compat_extract_timestamp(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *uuid = PG_GETARG_UUID_P(0);
	const unsigned char *d = uuid->data;
	uint64		ticks;

	if (!uuidv7_is_rfc_variant(uuid))
		PG_RETURN_NULL();

	switch (uuidv7_version(uuid))
	{
		case 1:
			/* time_low, time_mid and time_hi, in that order on the wire */
			ticks = ((uint64) (d[6] & 0x0f) << 56) | ((uint64) d[7] << 48) |
				((uint64) d[4] << 40) | ((uint64) d[5] << 32) |
				((uint64) d[0] << 24) | ((uint64) d[1] << 16) |
				((uint64) d[2] << 8) | (uint64) d[3];
			PG_RETURN_TIMESTAMPTZ((TimestampTz) (ticks / UUIDV7_V1_TICKS_PER_US) -
								  (int64) (POSTGRES_EPOCH_JDATE - UUIDV7_GREGORIAN_EPOCH_JDATE) * USECS_PER_DAY);
		case 7:
			PG_RETURN_TIMESTAMPTZ(uuidv7_timestamptz_from_unix_ms(uuidv7_get_unix_ms(uuid)));
		default:
			PG_RETURN_NULL();
	}
}

/*
 * uuid_extract_version() as in PostgreSQL 17: the version of an RFC 9562
 * UUID, NULL for a UUID of another variant.
 */
PG_FUNCTION_INFO_V1(uuidv7_compat_extract_version);
Datum
uuidv7_compat_extract_version(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *uuid = PG_GETARG_UUID_P(0);

	if (!uuidv7_is_rfc_variant(uuid))
		PG_RETURN_NULL();

	PG_RETURN_INT16((int16) uuidv7_version(uuid));
}
