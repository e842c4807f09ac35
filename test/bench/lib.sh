# test/bench/lib.sh: sourced by the benchmarks, after test/lib.sh.

# bench_begin NAME: the output directory OUT, a work directory "work" removed
# on exit with the clusters started, and this checkout built and installed
# into the server of PG_CONFIG
bench_begin() {
	OUT=$TOP/test/bench/out
	mkdir -p "$OUT"
	work=$(mktemp -d "/tmp/uuidv7-bench-$1.XXXXXX")
	chmod 755 "$work"
	trap 'cluster_stop_all; rm -rf "$work"' EXIT
	ensure_build_deps
	mkdir "$work/ext"
	build_copy_and_install "$work/ext" >/dev/null
}

# Summaries of repeated measurements given as arguments.  CPU-bound figures
# count by their best (noise on a shared machine only ever lowers a rate or
# adds time), loads by their median.
best_of() { printf '%s\n' "$@" | sort -g | tail -n 1; }
fastest_of() { printf '%s\n' "$@" | sort -g | head -n 1; }
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

# ratio A B [DIGITS]: A / B as "1.23x"
ratio() { awk -v a="$1" -v b="$2" -v d="${3:-2}" 'BEGIN {printf "%.*fx", d, a / b}'; }
