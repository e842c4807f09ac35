# test/bench/lib.sh: sourced by the benchmarks, after test/lib.sh.

# bench_begin NAME: the output directory OUT, a work directory "work" removed
# on exit with the clusters started, and this checkout built and installed
# into the server of PG_CONFIG
bench_begin() {
	OUT=$TOP/test/bench/out
	mkdir -p "$OUT"
	work=$(mktemp -d "/tmp/uuidv7-bench-$1.XXXXXX")
	chmod 755 "$work"
	at_exit 'rm -rf "$work"'
	ensure_build_deps
	mkdir "$work/ext"
	build_copy_and_install "$work/ext" >/dev/null
}

# editions_install MAJOR: both editions of this checkout for PostgreSQL
# MAJOR, to be measured side by side: the C edition built and installed into
# the server (as test/check.sh builds it), the SQL edition into a copy of the
# server that has no C of uuidv7 (test/lib.sh server_copy), in the work
# directory; their pg_config in C_PG_CONFIG and SQL_PG_CONFIG
editions_install() {
	use_pg_major "$1"
	mkdir "$work/ext-$1"
	build_copy_and_install "$work/ext-$1" >/dev/null
	C_PG_CONFIG=$PG_CONFIG
	make -s -C "$work/ext-$1" SQL_EDITION_DIR="$work/edition-$1" sql-edition
	SQL_PG_CONFIG=$(server_copy "$work/server-$1")
	make -s -C "$work/edition-$1" PG_CONFIG="$SQL_PG_CONFIG" install >/dev/null
}

# Summaries of repeated measurements given as arguments.  CPU-bound figures
# count by their best (noise on a shared machine only ever lowers a rate or
# adds time), loads by their median.
best_of() { printf '%s\n' "$@" | sort -g | tail -n 1; }
fastest_of() { printf '%s\n' "$@" | sort -g | head -n 1; }
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

# pgbench_rate SCRIPT [simple|prepared]: the transactions a second of one
# pgbench client running SCRIPT for SECONDS_EACH seconds, in the simple
# protocol (the default, planned every time) or prepared with generic plans
pgbench_rate() {
	local opts=""
	[ "${2:-simple}" = prepared ] && opts="-c plan_cache_mode=force_generic_plan"
	PGOPTIONS="$opts" "$PG_BINDIR/pgbench" -n -c 1 -T "$SECONDS_EACH" -M "${2:-simple}" -f "$1" 2>&1 |
		sed -nE 's/^tps = ([0-9.]+).*/\1/p'
}

# ratio A B [DIGITS]: A / B as "1.23x"
ratio() { awk -v a="$1" -v b="$2" -v d="${3:-2}" 'BEGIN {printf "%.*fx", d, a / b}'; }

# ts_table_sql BASE DAYS: the SQL that makes ev_ts, the table the uuid-keyed
# ones are measured against: range-partitioned by its timestamptz column into
# DAYS UTC days from the Unix time BASE, indexed on it, a row every 10 minutes
ts_table_sql() {
	cat <<-SQL
		CREATE TABLE ev_ts (ts timestamptz NOT NULL, v int NOT NULL) PARTITION BY RANGE (ts);
		CREATE INDEX ON ev_ts (ts);
		DO \$\$
		BEGIN
			FOR d IN 0 .. $2 - 1 LOOP
				EXECUTE format('CREATE TABLE %I PARTITION OF ev_ts FOR VALUES FROM (%L) TO (%L)',
							   'ev_ts_p' || d, to_timestamp($1 + d * 86400), to_timestamp($1 + (d + 1) * 86400));
			END LOOP;
		END
		\$\$;
		INSERT INTO ev_ts SELECT to_timestamp($1 + g * 600), g FROM generate_series(0, $2 * 144 - 1) g;
	SQL
}
