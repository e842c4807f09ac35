#!/usr/bin/env bash
# test/bench/bench.sh: the performance benchmark, side by side in one run.
#
# Builds and installs uuidv7, starts a throwaway cluster (fsync on,
# shared_buffers small enough that a random-key index outgrows it, JIT off:
# its compile time is a per-query constant that would blur per-row costs) and
# compares bigserial, gen_random_uuid(), uuidv7_generate() and uuidv7() (core's
# where the server has it, the extension's where it does not):
#   1. generation cost above the count(1) floor
#   2. bulk load of ROWS rows: time, primary-key index, heap, WAL
#   3. CLIENTS concurrent single-row inserts with pgbench: throughput, index
#   4. extraction cost over ROWS stored ids
#   5. the uuid7 domain's check against a plain uuid column (in 2)
#   6. generation cost from 1 million to SCALE_MAX rows
# Prints one table per part, writes them to test/bench/out/results.md and
# plots primary-key index size against rows loaded to test/bench/out/index_size.png.
#
# Sizes: ROWS (5000000), ROUNDS (3), GEN_ROUNDS (7), CLIENTS (8),
# PGBENCH_ROWS (2000000), SCALE_MAX (50000000).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib.sh"

ROWS=${ROWS:-5000000}
ROUNDS=${ROUNDS:-3}
GEN_ROUNDS=${GEN_ROUNDS:-7}
CLIENTS=${CLIENTS:-8}
PGBENCH_ROWS=${PGBENCH_ROWS:-2000000}
SCALE_MAX=${SCALE_MAX:-50000000}
CHUNKS=20
OUT=$TOP/test/bench/out
mkdir -p "$OUT"

ensure_build_deps gnuplot-nox
find_pg_config
make -C "$TOP" -s
as_root make -C "$TOP" -s install

cluster_start uuidv7-bench \
	"fsync = on" "synchronous_commit = on" "shared_buffers = 64MB" \
	"max_wal_size = 8GB" "checkpoint_timeout = 1h" "autovacuum = off" \
	"max_connections = 40" "work_mem = 64MB" "jit = off"

export PGOPTIONS="-c client_min_messages=warning"
psql_q "CREATE EXTENSION uuidv7"
if [ -n "$(psql_q "SELECT pg_catalog.to_regprocedure('pg_catalog.uuidv7()')")" ]; then
	uuidv7_label="uuidv7() (core)"
else
	uuidv7_label="uuidv7() (uuidv7 compat)"
fi

create_bench_ms

# CPU-bound statements are summarized by their fastest run, loads and
# pgbench by the median (test/bench/lib.sh)

exec > >(tee "$OUT/results.md")
echo "# uuidv7 benchmark"
echo
echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(psql_q "SELECT version()" | sed 's/ on .*//'), $(nproc) cores,"\
	"$(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo), $(sed -n 's/^model name.*: //p' /proc/cpuinfo | head -1)"

# ---------------------------------------------------------------------------
echo
echo "## 1. Generation: SELECT count(f()) FROM generate_series(1, $ROWS), fastest of $GEN_ROUNDS interleaved runs"
echo
gens=("1" "gen_random_uuid()" "uuidv7_generate()" "uuidv7()" "uuidv7_generate() [random_pool off]")
labels=("count(1) floor" "gen_random_uuid()" "uuidv7_generate()" "$uuidv7_label" "uuidv7_generate(), uuidv7.random_pool = off")
declare -A gen_ms
for r in $(seq 1 "$GEN_ROUNDS"); do
	for i in "${!gens[@]}"; do
		g=${gens[$i]}
		pre=""
		[[ $g == *"[random_pool off]" ]] && { pre="SET uuidv7.random_pool = off;"; g="uuidv7_generate()"; }
		gen_ms[$i]+="$(psql_q "$pre SELECT bench_ms('SELECT count($g) FROM generate_series(1, $ROWS)')") "
	done
done
floor=$(fastest_of ${gen_ms[0]})
v4=$(fastest_of ${gen_ms[1]})
v4_cost=$(awk -v a="$v4" -v f="$floor" -v n="$ROWS" 'BEGIN {print (a - f) * 1e6 / n}')
echo "| generator | ms | ns/row above floor | cost vs gen_random_uuid() | values out of order in 1M |"
echo "|---|---:|---:|---:|---:|"
for i in "${!gens[@]}"; do
	ms=$(fastest_of ${gen_ms[$i]})
	if [ "$i" -eq 0 ]; then
		printf '| %s | %.0f | | | |\n' "${labels[$i]}" "$ms"
		continue
	fi
	g=${gens[$i]%% \[*}
	pre=""
	[[ ${gens[$i]} == *"[random_pool off]" ]] && pre="SET uuidv7.random_pool = off;"
	disorder=$(psql_q "$pre SELECT count(*) FILTER (WHERE id <= prev) FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev
		FROM (SELECT array_agg($g) AS ids FROM generate_series(1, 1000000)) a, unnest(ids) WITH ORDINALITY AS u(id, n)) s")
	awk -v l="${labels[$i]}" -v ms="$ms" -v f="$floor" -v n="$ROWS" -v c4="$v4_cost" -v d="$disorder" \
		'BEGIN {c = (ms - f) * 1e6 / n; printf "| %s | %.0f | %.1f | 1/%.1f | %d |\n", l, ms, c, c4 / c, d}'
done

# ---------------------------------------------------------------------------
echo
echo "## 2. Bulk load: INSERT INTO t (payload) SELECT g FROM generate_series(1, $ROWS) g, median of $ROUNDS rounds"
echo
keys=("bigserial" "gen_random_uuid()" "uuidv7_generate()" "uuidv7_generate()" "uuidv7()")
types=("bigserial" "uuid" "uuid7" "uuid" "uuid")
klabels=("bigserial" "uuid DEFAULT gen_random_uuid()" "uuid7 DEFAULT uuidv7_generate()"
	"uuid DEFAULT uuidv7_generate()" "uuid DEFAULT $uuidv7_label")
declare -A load_ms load_idx load_heap load_wal load_dis
: >"$OUT/index_size.dat"
chunk=$((ROWS / CHUNKS))
for r in $(seq 1 "$ROUNDS"); do
	# each round starts with another key, so that no key always loads first
	for j in "${!keys[@]}"; do
		i=$(((j + r - 1) % ${#keys[@]}))
		if [ "${types[$i]}" = bigserial ]; then
			col="id bigserial PRIMARY KEY"
		else
			col="id ${types[$i]} PRIMARY KEY DEFAULT ${keys[$i]}"
		fi
		psql_q "DROP TABLE IF EXISTS t; CREATE TABLE t ($col, payload int NOT NULL); CHECKPOINT"
		lsn=$(psql_q "SELECT pg_current_wal_insert_lsn()")
		total=0
		for c in $(seq 0 $((CHUNKS - 1))); do
			ms=$(psql_q "SELECT bench_ms('INSERT INTO t (payload) SELECT g FROM generate_series($((c * chunk + 1)), $(((c + 1) * chunk))) g')")
			total=$(awk -v a="$total" -v b="$ms" 'BEGIN {print a + b}')
			[ "$r" -eq 1 ] && echo "$i $(((c + 1) * chunk)) $(psql_q "SELECT pg_relation_size('t_pkey')")" >>"$OUT/index_size.dat"
		done
		load_ms[$i]+="$total "
		IFS='|' read -r idx heap wal <<<"$(psql_q "SELECT pg_relation_size('t_pkey'), pg_relation_size('t'),
			pg_wal_lsn_diff(pg_current_wal_insert_lsn(), '$lsn')")"
		load_idx[$i]=$idx load_heap[$i]=$heap load_wal[$i]+="$wal "
		[ "$r" -eq 1 ] && load_dis[$i]=$(psql_q "SELECT count(*) FILTER (WHERE id <= prev)
			FROM (SELECT id, lag(id) OVER (ORDER BY payload) AS prev FROM t) s")
	done
done
psql_q "DROP TABLE t"
b_ms=$(median ${load_ms[0]})
b_wal=$(median ${load_wal[0]})
echo "| key | load s | time vs bigserial | PK index MB | index vs bigserial | heap MB | WAL MB | WAL vs bigserial | keys out of insert order |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for i in "${!keys[@]}"; do
	ms=$(median ${load_ms[$i]})
	wal=$(median ${load_wal[$i]})
	awk -v l="${klabels[$i]}" -v ms="$ms" -v bms="$b_ms" -v idx="${load_idx[$i]}" -v bidx="${load_idx[0]}" \
		-v heap="${load_heap[$i]}" -v wal="$wal" -v bwal="$b_wal" -v d="${load_dis[$i]}" \
		'BEGIN {printf "| %s | %.1f | %.2fx | %.0f | %.2fx | %.0f | %.0f | %.2fx | %d |\n",
			l, ms / 1000, ms / bms, idx / 1048576, idx / bidx, heap / 1048576, wal / 1048576, wal / bwal, d}'
done
d_ms=$(median ${load_ms[2]})
p_ms=$(median ${load_ms[3]})
echo
domain_rounds=$(paste -d' ' <(tr ' ' '\n' <<<"${load_ms[2]}" | grep .) <(tr ' ' '\n' <<<"${load_ms[3]}" | grep .) |
	awk '{printf "%s%.3fx", (NR > 1 ? ", " : ""), $1 / $2}')
echo "uuid7 domain check: the uuid7 column loads in $(ratio "$d_ms" "$p_ms") the time of the plain uuid column"\
	"(median; round by round: $domain_rounds)."

gnuplot <<-GP
	set terminal png size 900,540
	set termoption noenhanced
	set output "$OUT/index_size.png"
	set title "Primary-key index size while bulk loading $ROWS rows (PostgreSQL $PG_MAJOR, one session)"
	set xlabel "rows loaded (millions)"
	set ylabel "primary-key index (MB)"
	set key left top
	set grid
	plot "$OUT/index_size.dat" using (\$1 == 0 ? \$2 / 1e6 : 1/0):(\$3 / 1048576) with linespoints title "bigserial", \
		"$OUT/index_size.dat" using (\$1 == 1 ? \$2 / 1e6 : 1/0):(\$3 / 1048576) with linespoints title "uuid, gen_random_uuid()", \
		"$OUT/index_size.dat" using (\$1 == 2 ? \$2 / 1e6 : 1/0):(\$3 / 1048576) with linespoints title "uuid7, uuidv7_generate()"
GP

# ---------------------------------------------------------------------------
echo
per_round=$((PGBENCH_ROWS / ROUNDS / CLIENTS))
echo "## 3. Concurrent inserts: pgbench, $CLIENTS clients, single-row INSERTs, $ROUNDS interleaved rounds of $((per_round * CLIENTS)) rows per key (synchronous_commit = off)"
echo
pkeys=("bigserial" "uuidv7_generate()" "gen_random_uuid()")
ptypes=("bigserial" "uuid7" "uuid")
declare -A pg_s
for i in "${!pkeys[@]}"; do
	if [ "${ptypes[$i]}" = bigserial ]; then col="id bigserial PRIMARY KEY"
	else col="id ${ptypes[$i]} PRIMARY KEY DEFAULT ${pkeys[$i]}"; fi
	psql_q "DROP TABLE IF EXISTS p$i; CREATE TABLE p$i ($col, payload int NOT NULL)"
	echo "INSERT INTO p$i (payload) VALUES (1);" >"$OUT/insert$i.sql"
	pg_s[$i]=0
done
for r in $(seq 1 "$ROUNDS"); do
	for j in "${!pkeys[@]}"; do
		i=$(((j + r - 1) % ${#pkeys[@]}))
		psql_q "CHECKPOINT"
		tps=$(PGOPTIONS="$PGOPTIONS -c synchronous_commit=off" "$PG_BINDIR/pgbench" -n -c "$CLIENTS" -j 2 \
			-t "$per_round" -f "$OUT/insert$i.sql" 2>&1 | sed -n 's/^tps = \([0-9.]*\).*/\1/p' | head -1)
		pg_s[$i]=$(awk -v s="${pg_s[$i]}" -v n="$((per_round * CLIENTS))" -v tps="$tps" 'BEGIN {print s + n / tps}')
	done
done
echo "| key | rows | TPS | TPS vs bigserial | PK index MB | index vs bigserial |"
echo "|---|---:|---:|---:|---:|---:|"
for i in "${!pkeys[@]}"; do
	IFS='|' read -r rows idx <<<"$(psql_q "SELECT count(*), pg_relation_size('p${i}_pkey') FROM p$i")"
	tps=$(awk -v n="$rows" -v s="${pg_s[$i]}" 'BEGIN {print n / s}')
	[ "$i" -eq 0 ] && { b_tps=$tps; b_pidx=$idx; }
	label="${ptypes[$i]} DEFAULT ${pkeys[$i]}"
	[ "$i" -eq 0 ] && label=bigserial
	awk -v l="$label" -v rows="$rows" -v tps="$tps" -v btps="$b_tps" -v idx="$idx" -v bidx="$b_pidx" \
		'BEGIN {printf "| %s | %d | %.0f | %.2fx | %.0f | %.2fx |\n", l, rows, tps, tps / btps, idx / 1048576, idx / bidx}'
	psql_q "DROP TABLE p$i"
done

# ---------------------------------------------------------------------------
echo
echo "## 4. Extraction over $ROWS stored ids, fastest of $GEN_ROUNDS interleaved runs"
echo
psql_q "CREATE TABLE ids AS SELECT uuidv7_generate() AS id FROM generate_series(1, $ROWS)"
psql_q "VACUUM ANALYZE ids"
psql_q "SELECT count(*) FROM ids" >/dev/null
if [ -n "$(psql_q "SELECT pg_catalog.to_regprocedure('pg_catalog.uuid_extract_timestamp(uuid)')")" ]; then
	extract_label="uuid_extract_timestamp(id) (core)"
else
	extract_label="uuid_extract_timestamp(id) (uuidv7 compat)"
fi
exprs=("id" "uuidv7_timestamp(id)" "uuidv7_unix_ms(id)" "uuid_extract_timestamp(id)")
elabels=("count(id) floor" "uuidv7_timestamp(id)" "uuidv7_unix_ms(id)" "$extract_label")
declare -A ex_ms
for r in $(seq 1 "$GEN_ROUNDS"); do
	for i in "${!exprs[@]}"; do
		ex_ms[$i]+="$(psql_q "SELECT bench_ms('SELECT count(${exprs[$i]}) FROM ids')") "
	done
done
efloor=$(fastest_of ${ex_ms[0]})
echo "| expression | ms | ns/row above floor |"
echo "|---|---:|---:|"
for i in "${!exprs[@]}"; do
	ms=$(fastest_of ${ex_ms[$i]})
	awk -v l="${elabels[$i]}" -v ms="$ms" -v f="$efloor" -v n="$ROWS" \
		'BEGIN {printf "| %s | %.0f | %.1f |\n", l, ms, (ms - f) * 1e6 / n}'
done

echo
echo "## 5. The uuid7 domain's check, per row: SELECT count(id::uuid7) FROM ids against count(id), fastest of $GEN_ROUNDS interleaved runs"
echo
declare -A dom_ms
for r in $(seq 1 "$GEN_ROUNDS"); do
	dom_ms[0]+="$(psql_q "SELECT bench_ms('SELECT count(id) FROM ids')") "
	dom_ms[1]+="$(psql_q "SELECT bench_ms('SELECT count(id::uuid7) FROM ids')") "
done
f=$(fastest_of ${dom_ms[0]})
d=$(fastest_of ${dom_ms[1]})
awk -v f="$f" -v d="$d" -v n="$ROWS" -v load="$p_ms" 'BEGIN {c = (d - f) * 1e6 / n;
	printf "The check costs %.1f ns per row: %.1f%% of the %.0f ns per row of the plain uuid bulk load in part 2.\n",
		c, 100 * c / (load * 1e6 / n), load * 1e6 / n}'
psql_q "DROP TABLE ids"

# ---------------------------------------------------------------------------
echo
echo "## 6. Scaling: SELECT count(f) FROM (SELECT generate_series(1, n)) s, fastest of 5 interleaved runs"
echo
echo "(The set-returning function in the select list streams its rows, where generate_series in FROM would spill"
echo "50 million rows to a temporary file and drown the cost measured.)"
echo
echo "| rows | count(1) floor ms | uuidv7_generate() ms | ns/row above floor |"
echo "|---:|---:|---:|---:|"
for n in 1000000 10000000 "$SCALE_MAX"; do
	f= g=
	for r in 1 2 3 4 5; do
		f+="$(psql_q "SELECT bench_ms('SELECT count(1) FROM (SELECT generate_series(1, $n)) s')") "
		g+="$(psql_q "SELECT bench_ms('SELECT count(uuidv7_generate()) FROM (SELECT generate_series(1, $n)) s')") "
	done
	f=$(fastest_of $f)
	g=$(fastest_of $g)
	awk -v n="$n" -v f="$f" -v g="$g" 'BEGIN {printf "| %d | %.0f | %.0f | %.1f |\n", n, f, g, (g - f) * 1e6 / n}'
done

# ---------------------------------------------------------------------------
if command -v perf >/dev/null && [ "${PROFILE:-1}" = 1 ]; then
	echo
	echo "## 7. Profile: where uuidv7_generate()'s time goes (perf, cpu-clock samples of the backend)"
	echo
	"$PG_BINDIR/psql" -X -q -c "SET application_name = 'uuidv7-profile'" -c "SELECT pg_sleep(0.5)" \
		-c "SELECT count(uuidv7_generate()) FROM (SELECT generate_series(1, 100000000)) s" >/dev/null &
	query=$!
	sleep 0.3
	pid=$(psql_q "SELECT pid FROM pg_stat_activity WHERE application_name = 'uuidv7-profile'")
	perf record -q -e cpu-clock -F 2000 -p "$pid" -o "$OUT/perf.data" -- sleep 4 >/dev/null 2>&1 || true
	wait "$query"
	echo '```'
	perf report -i "$OUT/perf.data" --no-children --stdio --sort symbol --percent-limit 1.5 2>/dev/null |
		grep -E '^ +[0-9]' | awk '{printf "%8s  %s\n", $1, $3}'
	echo '```'
fi
