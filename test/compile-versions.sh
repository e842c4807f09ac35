#!/usr/bin/env bash
# test/compile-versions.sh: compile every source file, warnings as errors,
# against the server headers of each PostgreSQL major version Debian ships
# (13 from bullseye, 15 from bookworm, 17 from trixie, 18 from sid).  The
# packages are fetched with apt into a private directory; the machine's apt
# sources are not changed.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d /tmp/uuidv7-versions.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work"/{lists/partial,cache/archives/partial,root}
touch "$work/status"
key=/usr/share/keyrings/debian-archive-keyring.gpg
for suite in bullseye bookworm trixie sid; do
	echo "deb [signed-by=$key] http://deb.debian.org/debian $suite main"
done >"$work/sources.list"
apt=(-o Dir::Etc::sourcelist="$work/sources.list" -o Dir::Etc::sourceparts=-
	-o Dir::State::Lists="$work/lists" -o Dir::State::status="$work/status"
	-o Dir::Cache="$work/cache" -o APT::Sandbox::User=root)
apt-get "${apt[@]}" -qq update
status=0
for v in ${VERSIONS:-13 15 17 18}; do
	(cd "$work" && apt-get "${apt[@]}" -qq download "postgresql-server-dev-$v")
	dpkg -x "$work"/postgresql-server-dev-"$v"_*.deb "$work/root"
	inc="$work/root/usr/include/postgresql/$v/server"
	printf '== PostgreSQL %s (%s): ' "$v" "$(ls "$work"/postgresql-server-dev-"$v"_*.deb | sed 's/.*_\(.*\)_.*/\1/')"
	if for f in "$TOP"/src/*.c; do
		gcc -std=gnu99 -fsyntax-only -Wall -Wextra -Werror -Wmissing-prototypes \
			-Wdeclaration-after-statement -isystem "$inc" -DUUIDV7_VERSION='"check"' "$f" || exit 1
	done; then echo ok; else echo FAILED; status=1; fi
done
exit $status
