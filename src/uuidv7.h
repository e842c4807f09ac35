/*-------------------------------------------------------------------------
 *
 * uuidv7.h
 *	  The UUID version 7 bit layout of RFC 9562, and the interfaces the
 *	  source files of the uuidv7 extension share.
 *
 * RFC 9562 section 5.7 lays a UUIDv7 out as, most significant bit first:
 *
 *	 48 bits  unix_ts_ms  big-endian milliseconds since 1970-01-01 UTC
 *	  4 bits  ver         0111
 *	 12 bits  rand_a      here: the sub-millisecond fraction (section 6.2,
 *						  method 3), in units of 1/4096 ms
 *	  2 bits  var         10
 *	 62 bits  rand_b      random
 *
 * The 60 bits of unix_ts_ms and rand_a together form a "tick": a count of
 * 1/4096 ms since the Unix epoch.  A generator that keeps its ticks strictly
 * increasing produces strictly increasing UUIDs whatever its random bits.
 *
 * IDENTIFICATION
 *	  src/uuidv7.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef UUIDV7_H
#define UUIDV7_H

#include "datatype/timestamp.h"
#include "nodes/nodes.h"
#include "port/pg_bswap.h"
#include "utils/uuid.h"

#include "compat.h"

/* field widths */
#define UUIDV7_SUBMS_BITS		12

/* the variant, rand_a and rand_b as they stand in the big-endian halves */
#define UUIDV7_VARIANT_FIELD	UINT64CONST(0x8000000000000000)
#define UUIDV7_RAND_A_MASK		UINT64CONST(0x0fff)
#define UUIDV7_RAND_B_MASK		UINT64CONST(0x3fffffffffffffff)

/* time units */
#define UUIDV7_US_PER_MS		INT64CONST(1000)
#define UUIDV7_NS_PER_US		INT64CONST(1000)
#define UUIDV7_NS_PER_MS		INT64CONST(1000000)

/* the last millisecond 48 bits hold: 10889-08-02 05:31:50.655 UTC */
#define UUIDV7_MAX_UNIX_MS		((UINT64CONST(1) << 48) - 1)
#define UUIDV7_MAX_TICK \
	((UUIDV7_MAX_UNIX_MS << UUIDV7_SUBMS_BITS) | UUIDV7_RAND_A_MASK)

/* the latest instant a UUIDv7 can carry: the last microsecond of its last ms */
#define UUIDV7_MAX_UNIX_US \
	((int64) (UUIDV7_MAX_UNIX_MS + 1) * UUIDV7_US_PER_MS - 1)

/* microseconds from the Unix epoch to PostgreSQL's (2000-01-01) */
#define UUIDV7_UNIX_TO_PG_EPOCH_US \
	((int64) (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * USECS_PER_DAY)

/* the span of timestamptz values a UUIDv7 can carry */
#define UUIDV7_MIN_TIMESTAMPTZ	(-UUIDV7_UNIX_TO_PG_EPOCH_US)
#define UUIDV7_MAX_TIMESTAMPTZ	(UUIDV7_MAX_UNIX_US - UUIDV7_UNIX_TO_PG_EPOCH_US)

/* Is this UUID of the RFC 9562 variant (the two high bits of octet 8 = 10)? */
static inline bool
uuidv7_is_rfc_variant(const pg_uuid_t *uuid)
{
	return (uuid->data[8] & 0xc0) == 0x80;
}

/* The version field (the high nibble of octet 6), whatever the variant. */
static inline int
uuidv7_version(const pg_uuid_t *uuid)
{
	return uuid->data[6] >> 4;
}

/* Is this UUID of the RFC 9562 variant and version 7? */
static inline bool
uuidv7_is_v7(const pg_uuid_t *uuid)
{
	return uuidv7_is_rfc_variant(uuid) && uuidv7_version(uuid) == 7;
}

/* The 48-bit unix_ts_ms field, whatever the version. */
static inline uint64
uuidv7_get_unix_ms(const pg_uuid_t *uuid)
{
	uint64		hi;

	memcpy(&hi, uuid->data, sizeof(hi));
	return pg_ntoh64(hi) >> 16;
}

/*
 * Lay out a UUID of the RFC 9562 variant and a version from a tick (the 60
 * bits of unix_ts_ms and rand_a) and rand_b; the version and variant bits are
 * set here and nowhere else.  Public ids (public_id.c) are version 4 UUIDs
 * of this layout.
 */
static inline void
uuidv7_pack_version(pg_uuid_t *uuid, int version, uint64 tick, uint64 rand_b)
{
	uint64		hi;
	uint64		lo;

	hi = ((tick >> UUIDV7_SUBMS_BITS) << 16) | ((uint64) version << 12) |
		(tick & UUIDV7_RAND_A_MASK);
	lo = UUIDV7_VARIANT_FIELD | (rand_b & UUIDV7_RAND_B_MASK);
	hi = pg_hton64(hi);
	lo = pg_hton64(lo);
	memcpy(uuid->data, &hi, sizeof(hi));
	memcpy(uuid->data + sizeof(hi), &lo, sizeof(lo));
}

/* Lay out a UUIDv7 from a tick and rand_b. */
static inline void
uuidv7_pack(pg_uuid_t *uuid, uint64 tick, uint64 rand_b)
{
	uuidv7_pack_version(uuid, 7, tick, rand_b);
}

/* The reverse: the tick and rand_b of a UUID, whatever its version. */
static inline void
uuidv7_unpack(const pg_uuid_t *uuid, uint64 *tick, uint64 *rand_b)
{
	uint64		hi;
	uint64		lo;

	memcpy(&hi, uuid->data, sizeof(hi));
	memcpy(&lo, uuid->data + sizeof(hi), sizeof(lo));
	hi = pg_ntoh64(hi);
	lo = pg_ntoh64(lo);
	*tick = ((hi >> 16) << UUIDV7_SUBMS_BITS) | (hi & UUIDV7_RAND_A_MASK);
	*rand_b = lo & UUIDV7_RAND_B_MASK;
}

/*
 * The tick of an instant given as microseconds since the Unix epoch plus
 * nanoseconds within that microsecond.  Nanoseconds since the epoch alone
 * would overflow 64 bits long before year 10889.
 */
static inline uint64
uuidv7_tick_from_unix_us(int64 unix_us, int64 sub_us_ns)
{
	uint64		ms = unix_us / UUIDV7_US_PER_MS;
	uint64		subms_ns = (unix_us % UUIDV7_US_PER_MS) * UUIDV7_NS_PER_US + sub_us_ns;

	return (ms << UUIDV7_SUBMS_BITS) |
		((subms_ns << UUIDV7_SUBMS_BITS) / UUIDV7_NS_PER_MS);
}

/* The timestamptz of a whole number of milliseconds since the Unix epoch. */
static inline TimestampTz
uuidv7_timestamptz_from_unix_ms(uint64 unix_ms)
{
	return (TimestampTz) unix_ms * UUIDV7_US_PER_MS - UUIDV7_UNIX_TO_PG_EPOCH_US;
}

/* the first instant of the last millisecond 48 bits hold */
#define UUIDV7_LAST_MS_TIMESTAMPTZ \
	((int64) UUIDV7_MAX_UNIX_MS * UUIDV7_US_PER_MS - UUIDV7_UNIX_TO_PG_EPOCH_US)

/*
 * Where an instant stands among UUIDs, for the time comparisons: above every
 * one (past the last millisecond 48 bits hold), or at "bound", the smallest
 * UUIDv7 at or after it (of 1970's first millisecond for earlier instants),
 * and equal to that UUID when the instant falls on a whole millisecond a
 * UUIDv7 holds.
 */
typedef struct InstantPlace
{
	TimestampTz ts;
	bool		above_all;
	bool		on_bound;
	pg_uuid_t	bound;
} InstantPlace;

/* uuid's own comparison operators (pg_operator.dat) */
#define UUID_LT_OPERATOR	2974
#define UUID_GT_OPERATOR	2975
#define UUID_LE_OPERATOR	2976
#define UUID_GE_OPERATOR	2977

/* bounds.c */
extern void uuidv7_set_min_bound(pg_uuid_t *uuid, TimestampTz ts);
extern void uuidv7_place_instant(InstantPlace *place, TimestampTz ts);

/* comparison.c */
extern Node *uuidv7_at_or_after_const(Node *key, TimestampTz ts);

/* plantime.c: constant lower bounds of times relative to now() */
extern void uuidv7_plantime_init(void);

/* time.c */
extern int64 uuidv7_unix_us_from_timestamptz(TimestampTz ts);
pg_noreturn extern void uuidv7_report_out_of_range(void);

/* progress.c */
extern Size uuidv7_progress_shmem_size(void);
extern void uuidv7_progress_shmem_attach(void);
extern void uuidv7_progress_step(const char *command, Oid relid, const char *phase);
extern void uuidv7_progress_phase(const char *phase);
extern void uuidv7_progress_read(int64 blocks_done, int64 blocks_total, int64 rows_moved);

/* public_id.c */
extern void uuidv7_public_id_init(void);

/* state.c: this backend's generator state */
extern uint64 uuidv7_next_tick(uint64 clock_tick);
extern uint64 uuidv7_next_shifted_tick(const Interval *shift,
									   uint64 shifted_tick);
extern uint64 uuidv7_random_bits(void);
extern void uuidv7_state_init(void);

/* worker.c */
extern void uuidv7_worker_init(void);
extern Size uuidv7_worker_shmem_size(void);
extern void uuidv7_worker_shmem_attach(void);

#endif							/* UUIDV7_H */
