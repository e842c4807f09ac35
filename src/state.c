/*-------------------------------------------------------------------------
 *
 * state.c
 *	  This backend's generator state: the last tick it handed out, and a
 *	  pool of cryptographically secure random bits.
 *
 * Every generator goes through the functions here, so that a server-wide
 * ordering mode can later replace the per-backend sequence without touching
 * them.
 *
 * Ordering.  RFC 9562 section 6.2 asks that a generator check each value is
 * greater than the one before.  We keep the 60-bit tick (milliseconds and
 * sub-millisecond fraction) strictly increasing: when the clock has not moved
 * on since the last value, or has stepped back, the next value takes the last
 * tick plus one, 1/4096 ms later.  Values then run ahead of the wall clock
 * while more than 4096 of them a millisecond are asked for, or until a clock
 * that stepped back catches up again; they never repeat or go backwards.
 *
 * Randomness.  pg_strong_random() costs far more than everything else in a
 * UUID, so by default we draw it in blocks and hand out 64 bits at a time.
 * RFC 9562 section 6.9 warns that such state must not survive a fork: a child
 * would hand out the same bits as its parent.  A fork handler empties the pool
 * in every child, whether a backend or parallel worker forked by the
 * postmaster or a process forked by anything else, so each process fills its
 * own pool from the secure source after it exists.  uuidv7.random_pool = off
 * makes every value call pg_strong_random() itself.
 *
 * IDENTIFICATION
 *	  src/state.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#ifndef WIN32
#include <pthread.h>
#endif

#include "utils/guc.h"

#include "uuidv7.h"

/* random words drawn from the secure source at a time: 4 kB */
#define UUIDV7_RANDOM_POOL_WORDS	512

/* GUC uuidv7.random_pool */
static bool uuidv7_random_pool_enabled = true;

static uint64 random_pool[UUIDV7_RANDOM_POOL_WORDS];
static int	random_pool_next = UUIDV7_RANDOM_POOL_WORDS;	/* empty */

/* the last tick handed out without a shift */
static uint64 last_tick = 0;

/* the last shift asked for, and the last tick handed out with it */
static Interval last_shift;
static uint64 last_shifted_tick = 0;

/* Fill a buffer from the secure source, or fail loudly. */
static void
fill_random(void *buf, size_t len)
{
	if (!pg_strong_random(buf, len))
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("could not generate random values")));
}

#ifndef WIN32
/* Fork handler: a child must never hand out its parent's random bits. */
static void
forget_random_pool(void)
{
	random_pool_next = UUIDV7_RANDOM_POOL_WORDS;
}
#endif

/* 64 bits from the secure source, through the pool unless it is turned off. */
uint64
uuidv7_random_bits(void)
{
	uint64		bits;

	if (unlikely(!uuidv7_random_pool_enabled))
	{
		fill_random(&bits, sizeof(bits));
		return bits;
	}

	if (unlikely(random_pool_next >= UUIDV7_RANDOM_POOL_WORDS))
	{
		fill_random(random_pool, sizeof(random_pool));
		random_pool_next = 0;
	}
	return random_pool[random_pool_next++];
}

/* Hand out the later of a tick and the one after *last. */
static uint64
advance_tick(uint64 *last, uint64 tick)
{
	if (tick <= *last)
		tick = *last + 1;
	if (tick > UUIDV7_MAX_TICK)
		uuidv7_report_out_of_range();
	*last = tick;
	return tick;
}

/* The next tick of this backend's sequence, given the clock's reading. */
uint64
uuidv7_next_tick(uint64 clock_tick)
{
	return advance_tick(&last_tick, clock_tick);
}

/*
 * The next tick for a shifted value.  Values with one same shift are kept
 * strictly increasing on their own, apart from unshifted ones: a burst of
 * uuidv7_generate('-1 hour') must not be pushed to the present by the values
 * generated without a shift in between.  A month or day shift can map two
 * clock readings to one instant (Jan 30 and Jan 31 + 1 month are both the
 * last of February), which this also covers.
 */
uint64
uuidv7_next_shifted_tick(const Interval *shift, uint64 shifted_tick)
{
	if (shift->time != last_shift.time || shift->day != last_shift.day ||
		shift->month != last_shift.month)
	{
		last_shift = *shift;
		last_shifted_tick = 0;
	}
	return advance_tick(&last_shifted_tick, shifted_tick);
}

/* Define the settings and install the fork handler; called once per load. */
void
uuidv7_state_init(void)
{
	DefineCustomBoolVariable("uuidv7.random_pool",
							 "Draws the random bits of UUIDs from a per-process pool of secure random bytes.",
							 "When off, every UUID calls the secure random source on its own.",
							 &uuidv7_random_pool_enabled,
							 true,
							 PGC_SUSET,
							 0,
							 NULL, NULL, NULL);

	/* Windows has no fork(): every backend there starts with an empty pool */
#ifndef WIN32
	if (pthread_atfork(NULL, NULL, forget_random_pool) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("could not install the uuidv7 fork handler")));
#endif
}
