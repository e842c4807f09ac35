#!/usr/bin/env bash
# test/shell/meta.sh: the PGXN packaging.  META.json follows the PGXN META spec
# 1.0.0 (required keys, semantic versions, a license the spec names) and
# describes both extensions as their control files do (each one's install
# script, version, docfile); "make dist" makes the zip PGXN takes, with
# META.json at the top of a directory named for the version and every file
# the build needs, and nothing of test/vendor/.  The zip is made in a clone,
# from what is committed.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
find_pg_config

work=$(mktemp -d /tmp/uuidv7-meta.XXXXXX)
at_exit 'rm -rf "$work"'
git clone -q "$TOP" "$work/clone"
make -C "$work/clone" -s dist >/dev/null

/usr/bin/python3 - "$work/clone" <<'PY'
import json, re, sys, zipfile, pathlib

top = pathlib.Path(sys.argv[1])
meta = json.loads((top / "META.json").read_text())
problems = []
semver = re.compile(r"^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z-]+)?$")
licenses = {"agpl_3", "apache_1_1", "apache_2_0", "artistic_1", "artistic_2", "bsd", "freebsd", "gfdl_1_2",
            "gfdl_1_3", "gpl_1", "gpl_2", "gpl_3", "lgpl_2_1", "lgpl_3_0", "mit", "mozilla_1_0", "mozilla_1_1",
            "openssl", "perl_5", "postgresql", "qpl_1_0", "ssleay", "sun", "zlib", "open_source",
            "restricted", "unrestricted", "unknown"}

for key in ("name", "abstract", "maintainer", "license", "provides", "version", "meta-spec"):
    if key not in meta:
        problems.append(f"required key {key} missing")
if meta.get("meta-spec", {}).get("version") != "1.0.0":
    problems.append("meta-spec version is not 1.0.0")
if not semver.match(meta.get("version", "")):
    problems.append(f"version {meta.get('version')!r} is not a semantic version")
lic = meta.get("license")
if not (isinstance(lic, str) and lic in licenses or isinstance(lic, dict) and lic):
    problems.append(f"license {lic!r} is not one the spec names")
if meta.get("release_status", "stable") not in ("stable", "testing", "unstable"):
    problems.append("release_status is not stable, testing or unstable")
if not meta.get("maintainer"):
    problems.append("no maintainer")

def control(name):
    text = (top / f"{name}.control").read_text()
    return re.search(r"^default_version = '([^']*)'", text, re.M).group(1)

controls = sorted(p.stem for p in top.glob("*.control"))
provides = meta.get("provides", {})
if sorted(provides) != controls:
    problems.append(f"provides {sorted(provides)} but the control files are {controls}")
for name, ext in provides.items():
    for key in ("abstract", "version", "file"):
        if key not in ext:
            problems.append(f"{name}: {key} missing")
    if not semver.match(ext.get("version", "")):
        problems.append(f"{name}: version {ext.get('version')!r} is not a semantic version")
    if name in controls and ext.get("version") != control(name):
        problems.append(f"{name}: version {ext.get('version')} but the control file says {control(name)}")
    for key in ("file", "docfile"):
        if key in ext and not (top / ext[key]).is_file():
            problems.append(f"{name}: {key} {ext[key]} does not exist")
if meta.get("version") != control("uuidv7"):
    problems.append(f"version {meta.get('version')} but uuidv7.control says {control('uuidv7')}")

# make dist names the zip for the control file's version
zip_path = top / f"uuidv7-{control('uuidv7')}.zip"
prefix = f"uuidv7-{control('uuidv7')}/"
with zipfile.ZipFile(zip_path) as z:
    if z.testzip() is not None:
        problems.append("the zip is corrupt")
    names = set(z.namelist())
    if any(not n.startswith(prefix) for n in names):
        problems.append(f"not every file of the zip is under {prefix}")
    need = ["META.json", "Makefile", "README.md", "LICENSE", "uuidv7.control", "uuidv7_time_ops.control",
            "src/assemble.awk", "sql-edition/uuidv7.control", "sql-edition/Makefile",
            f"sql-edition/uuidv7--{control('uuidv7')}.sql", "sql-edition/uuidv7_pg_tle.sql",
            "sql-edition/uuidv7_plain.sql"]
    need += [str(p.relative_to(top)) for p in top.glob("src/*.[ch]")]
    need += [str(p.relative_to(top)) for p in top.glob("src/*.sql")]
    need += [str(p.relative_to(top)) for p in top.glob("src/released/*.sql")]
    need += [str(p.relative_to(top)) for p in top.glob("src/update/*.sql")]
    for n in need:
        if prefix + n not in names:
            problems.append(f"the zip lacks {n}")
    # test-only sources of other licences stay out of the distribution
    if any(n.startswith(prefix + "test/vendor/") for n in names):
        problems.append("the zip holds test/vendor/")
    print(f"{zip_path.name}: {len(names)} entries, META.json {meta['version']}, provides {', '.join(sorted(provides))}")

for p in problems:
    print("problem:", p)
sys.exit(1 if problems else 0)
PY
