/*-------------------------------------------------------------------------
 *
 * aggregate.c
 *	  The transition functions of min(uuid) and max(uuid), which no released
 *	  PostgreSQL has: "the newest order" is max(id) on a UUIDv7 key.
 *
 * They keep the smaller or the larger of two UUIDs in uuid's own order (its
 * btree order, bytewise), so that the aggregates, whose sort operators are
 * uuid's < and >, can be answered from a btree index on the key, and serve
 * as their own combine functions for parallel aggregation.  Comparing two
 * UUIDs cannot fail, so they are LEAKPROOF.
 *
 * IDENTIFICATION
 *	  src/aggregate.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "utils/uuid.h"

#include "uuidv7.h"

PG_FUNCTION_INFO_V1(uuidv7_uuid_smaller);
Datum
uuidv7_uuid_smaller(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *a = PG_GETARG_UUID_P(0);
	pg_uuid_t  *b = PG_GETARG_UUID_P(1);

	PG_RETURN_UUID_P(memcmp(a->data, b->data, UUID_LEN) <= 0 ? a : b);
}

PG_FUNCTION_INFO_V1(uuidv7_uuid_larger);
Datum
uuidv7_uuid_larger(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *a = PG_GETARG_UUID_P(0);
	pg_uuid_t  *b = PG_GETARG_UUID_P(1);

	PG_RETURN_UUID_P(memcmp(a->data, b->data, UUID_LEN) >= 0 ? a : b);
}
