#!/usr/bin/env bash
# test/once/compile-versions.sh: compile every source file, warnings as errors,
# against the server headers of each PostgreSQL major version Debian ships:
# 13 from bullseye, 15 from bookworm, 17 from trixie, 18 from sid and 19
# (a release candidate, whose server binaries need a newer C library than
# bookworm's) from experimental.  PostgreSQL 19 requires C11; the older
# majors are compiled as C99, as they require.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
work=$(mktemp -d /tmp/uuidv7-versions.XXXXXX)
at_exit 'rm -rf "$work"'
debian_apt "$work/apt" bullseye bookworm trixie sid experimental
mkdir "$work/root"
status=0
for v in ${VERSIONS:-13 15 17 18 19}; do
	(cd "$work" && apt-get "${APT_OPTS[@]}" -qq download "postgresql-server-dev-$v")
	dpkg -x "$work"/postgresql-server-dev-"$v"_*.deb "$work/root"
	inc="$work/root/usr/include/postgresql/$v/server"
	std=gnu99
	[ "$v" -ge 19 ] && std=gnu11
	printf '== PostgreSQL %s (%s, -std=%s): ' "$v" "$(ls "$work"/postgresql-server-dev-"$v"_*.deb | sed 's/.*_\(.*\)_.*/\1/')" "$std"
	failed=0
	for f in "$TOP"/src/*.c; do
		gcc -std=$std -fsyntax-only -Wall -Wextra -Werror -Wmissing-prototypes \
			-Wdeclaration-after-statement -isystem "$inc" -DUUIDV7_VERSION='"check"' "$f" || failed=1
	done
	if [ $failed -eq 0 ]; then echo ok; else echo FAILED; status=1; fi
done
exit $status
