#!/usr/bin/env bash
# test/once/pgindent.sh: the C sources are pgindent-clean.  pgindent and
# pg_bsd_indent come from PostgreSQL 17's source (Debian's trixie, fetched
# with apt into a private directory); PostgreSQL's typedefs list plus ours.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
ensure_build_deps perl

work=$(mktemp -d /tmp/uuidv7-pgindent.XXXXXX)
at_exit 'rm -rf "$work"'
debian_apt "$work" trixie
tarball=$(pg_orig_tarball "$work" 17) || { echo "could not download PostgreSQL 17's source" >&2; exit 1; }
tar -xf "$tarball" -C "$work" --wildcards '*/src/tools/pg_bsd_indent/*' '*/src/tools/pgindent/*'
tools=$(ls -d "$work"/postgresql-17*/src/tools)

# pg_bsd_indent needs only c.h and libpgport, which the server dev package has
(cd "$tools/pg_bsd_indent" && gcc -O1 -DFRONTEND -I. -I"$("$PG_CONFIG" --includedir-server)" \
	-I"$("$PG_CONFIG" --includedir)/internal" -o pg_bsd_indent args.c err.c indent.c io.c lexi.c parse.c \
	pr_comment.c -L"$("$PG_CONFIG" --libdir)" -L"$("$PG_CONFIG" --pkglibdir)" -lpgport)

mkdir "$work/src"
cp "$TOP"/src/*.[ch] "$work/src/"
ours=$( (grep -ho '^} [A-Z][A-Za-z0-9]*;' "$TOP"/src/*.[ch] | tr -d '};'
	sed -n 's/^typedef struct [A-Za-z0-9]* \([A-Z][A-Za-z0-9]*\);$/\1/p' "$TOP"/src/*.[ch]) | tr '\n' ' ')
(cd "$work" && perl "$tools/pgindent/pgindent" --indent="$tools/pg_bsd_indent/pg_bsd_indent" \
	--typedefs="$tools/pgindent/typedefs.list" --list-of-typedefs="$ours" "$work"/src/*.[ch])
changed=0
for f in "$work"/src/*.[ch]; do
	diff -u "$TOP/src/$(basename "$f")" "$f" || changed=1
done
if [ $changed -eq 0 ]; then
	echo "pgindent: $(ls "$TOP"/src/*.[ch] | wc -l) files clean (typedefs of ours: $ours)"
else
	echo "pgindent would change the files above"
	exit 1
fi
