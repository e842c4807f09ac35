#!/usr/bin/env bash
# test/once/fuzz/run.sh [seconds]: build the base32 parser's libFuzzer harness with
# AddressSanitizer and UndefinedBehaviorSanitizer, and fuzz it for a while
# (FUZZ_SECONDS, default 30) from a small seed corpus.  Exits non-zero on a
# crash, a sanitizer report or a failed round trip.
set -euo pipefail
. "$(dirname "$0")/../../lib.sh"
command -v clang >/dev/null && [ -n "$(find /usr/lib/llvm-*/lib/clang -name 'libclang_rt.fuzzer-x86_64.a' 2>/dev/null | head -n 1)" ] ||
	{ echo "== installing clang and libFuzzer"; apt_install clang libclang-rt-dev; }

seconds=${1:-${FUZZ_SECONDS:-30}}
work=$(mktemp -d /tmp/uuidv7-fuzz.XXXXXX)
at_exit 'rm -rf "$work"'
clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	-I"$TOP/src" "$TOP/test/once/fuzz/fuzz_base32.c" "$TOP/src/base32.c" -o "$work/fuzz_base32"

mkdir -p "$work/corpus"
for seed in 01FWHE4YDGFK1SHH6W1G60EECF 01-fwhe-4ydg-fk1s-hh6w-1g60-eecf 7ZZZZZZZZZZZZZZZZZZZZZZZZZ \
	8ZZZZZZZZZZZZZZZZZZZZZZZZZ O1FWHE4YDGFKISHH6W1G6OEECF 01fwhe4ydg fk1shh6w1g60eecu; do
	printf '%s' "$seed" >"$work/corpus/$(printf '%s' "$seed" | md5sum | cut -c1-16)"
done
"$work/fuzz_base32" -max_total_time="$seconds" -max_len=64 -print_final_stats=1 "$work/corpus" 2>"$work/log" ||
	{ tail -n 40 "$work/log"; exit 1; }
grep -E '^stat::number_of_executed_units|^Done' "$work/log"
