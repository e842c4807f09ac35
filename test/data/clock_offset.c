/*
 * clock_offset.c: a preload library that moves a process's real-time clock
 * by UUIDV7_CLOCK_OFFSET seconds, a decimal (read once, at load), for
 * test/shell/clock_boundary.sh.  libfaketime cannot serve there: it wraps
 * epoll_wait and answers the real time to a clock read from a signal
 * handler that interrupts it, so PostgreSQL's SIGALRM handler never sees
 * its lock_timeout expire.  Here every read is the kernel's plus a
 * constant: the monotonic clock and timers are left alone.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>

static long long offset_ns;
static int	(*real_clock_gettime) (clockid_t, struct timespec *);

__attribute__((constructor))
static void
clock_offset_init(void)
{
	const char *value = getenv("UUIDV7_CLOCK_OFFSET");

	offset_ns = value ? (long long) (strtod(value, NULL) * 1e9) : 0;
	real_clock_gettime = dlsym(RTLD_NEXT, "clock_gettime");
}

int
clock_gettime(clockid_t clock, struct timespec *ts)
{
	int			rc = real_clock_gettime(clock, ts);

	if (rc == 0 && (clock == CLOCK_REALTIME || clock == CLOCK_REALTIME_COARSE))
	{
		long long	ns = ts->tv_nsec + offset_ns % 1000000000;

		ts->tv_sec += offset_ns / 1000000000 + (ns >= 1000000000) - (ns < 0);
		ts->tv_nsec = ns - 1000000000LL * ((ns >= 1000000000) - (ns < 0));
	}
	return rc;
}

int
gettimeofday(struct timeval *tv, void *tz)
{
	struct timespec ts;

	(void) tz;
	if (clock_gettime(CLOCK_REALTIME, &ts) != 0)
		return -1;
	tv->tv_sec = ts.tv_sec;
	tv->tv_usec = ts.tv_nsec / 1000;
	return 0;
}

time_t
time(time_t *t)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	if (t)
		*t = ts.tv_sec;
	return ts.tv_sec;
}
