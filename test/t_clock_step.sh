#!/usr/bin/env bash
# test/t_clock_step.sh: the system clock steps back an hour in the middle of a
# session, and forward again.  Values stay strictly increasing, and carry the
# real time again once the clock has caught up.  The clock is moved with
# libfaketime in a cluster of its own.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
ensure_build_deps libfaketime

faketime_lib=$(dpkg -L libfaketime | grep '/libfaketime.so.1$')
offset_file=$(mktemp /tmp/uuidv7-clock.XXXXXX)
chmod 644 "$offset_file"
echo "+0" >"$offset_file"
trap 'rm -f "$offset_file" "$offset_file.new"; cluster_stop_all' EXIT

# only the real-time clock is faked; timeouts use the monotonic one.  Every
# server process rereads the offset file at each clock read, and libfaketime
# makes a process exit when it reads an empty one: a new offset is written
# beside it and renamed into place, never written into the file itself (a
# truncated file, read under load, looked like a crash of the server)
CLUSTER_ENV="LD_PRELOAD=$faketime_lib FAKETIME_TIMESTAMP_FILE=$offset_file FAKETIME_NO_CACHE=1
	FAKETIME_DONT_FAKE_MONOTONIC=1" cluster_start uuidv7-clock
trap 'rm -f "$offset_file" "$offset_file.new"; cluster_stop_all' EXIT

result=$("$PG_BINDIR/psql" -X -q -At -v ON_ERROR_STOP=1 <<SQL
CREATE EXTENSION uuidv7;
CREATE TEMP TABLE seq (n serial, id uuid, clock timestamptz, phase text);
INSERT INTO seq (id, clock, phase) SELECT uuidv7_generate(), clock_timestamp(), 'before' FROM generate_series(1, 1000);
INSERT INTO seq (id, clock, phase) SELECT uuidv7_generate('-10 minutes'), clock_timestamp(), 'shifted before' FROM generate_series(1, 1000);
\! echo "-1h" > $offset_file.new && mv $offset_file.new $offset_file
INSERT INTO seq (id, clock, phase) SELECT uuidv7_generate(), clock_timestamp(), 'stepped back' FROM generate_series(1, 1000);
INSERT INTO seq (id, clock, phase) SELECT uuidv7_generate('-10 minutes'), clock_timestamp(), 'shifted stepped back' FROM generate_series(1, 1000);
\! echo "+0" > $offset_file.new && mv $offset_file.new $offset_file
INSERT INTO seq (id, clock, phase) SELECT uuidv7_generate(), clock_timestamp(), 'restored' FROM generate_series(1, 1000);
SELECT
	-- the clock really stepped back
	(SELECT max(clock) FROM seq WHERE phase = 'before') - (SELECT min(clock) FROM seq WHERE phase = 'stepped back') > interval '59 minutes',
	-- strictly increasing through the step, per shift
	(SELECT count(*) FROM (SELECT id <= lag(id) OVER (ORDER BY n) AS bad FROM seq WHERE phase NOT LIKE 'shifted%') s WHERE bad),
	(SELECT count(*) FROM (SELECT id <= lag(id) OVER (ORDER BY n) AS bad FROM seq WHERE phase LIKE 'shifted%') s WHERE bad),
	-- while the clock was behind, values kept the time of the last one before the step
	(SELECT bool_and(uuidv7_timestamp(id) >= (SELECT max(uuidv7_timestamp(id)) FROM seq WHERE phase = 'before'))
	 FROM seq WHERE phase = 'stepped back'),
	-- once restored, values carry the clock's time again
	(SELECT bool_and(abs(extract(epoch FROM uuidv7_timestamp(id) - clock)) < 1) FROM seq WHERE phase = 'restored'),
	(SELECT count(DISTINCT id) FROM seq);
SQL
)
echo "stepped back, out of order (unshifted, shifted), held the time, caught up, distinct: $result"
[ "$result" = "t|0|0|t|t|5000" ]
