# The source directory: this Makefile's, so that the tree also builds out
# of it (pg_buildext runs make -f SRC/Makefile VPATH=SRC in build-NN/)
src := $(dir $(firstword $(MAKEFILE_LIST)))

EXTENSION = uuidv7 uuidv7_time_ops
EXTVERSION = $(shell sed -n "s/^default_version = '\(.*\)'/\1/p" $(src)uuidv7.control)
TIME_OPS_VERSION = $(shell sed -n "s/^default_version = '\(.*\)'/\1/p" $(src)uuidv7_time_ops.control)

MODULE_big = uuidv7
OBJS = src/uuidv7.o src/state.o src/time.o src/generate.o src/extract.o \
	src/bounds.o src/domain.o src/partition.o src/partitions.o src/base32.o src/textform.o \
	src/operators.o src/aggregate.o src/public_id.o src/public_id_keys.o src/ff1.o src/siphash.o \
	src/lifecycle.o src/comparison.o src/plantime.o src/worker.o src/progress.o

# The SQL of each concern stands beside its C in src/ (src/generate.sql
# beside src/generate.c), both editions' versions of an object together
# (src/assemble.awk); make assembles from them, in this order, the install
# script of the version in development and its upgrade scripts, whose
# sources in src/update/ name the objects they take from src/.  Released
# versions keep their scripts in src/released/, as they were released (the
# upgrade test walks them).
UUIDV7_SOURCES = $(addprefix src/,uuidv7.sql time.sql generate.sql extract.sql bounds.sql \
	domain.sql aggregate.sql compat.sql progress.sql grid.sql partition.sql lifecycle.sql adopt.sql policy.sql \
	metrics.sql doctor.sql textform.sql comparison.sql public_id.sql)
TIME_OPS_SOURCES = src/operators.sql
UPDATES = $(patsubst $(src)src/update/%,build/%,$(wildcard $(src)src/update/*.sql))

DATA_built = build/uuidv7--$(EXTVERSION).sql build/uuidv7_time_ops--$(TIME_OPS_VERSION).sql $(UPDATES)
DATA = $(patsubst $(src)%,%,$(wildcard $(src)src/released/*.sql))

REGRESS = generate state extract bounds domain planner compat errors partition grid textform comparison time_ops time_ops_brin_multi rls adversarial randomness security adopt policy policy_tables maintenance metrics doctor minmax move time_predicates upgrade
# what the SQL edition runs (make installcheck-sql-edition, on a server
# where it is installed): all but the C edition's own concerns
REGRESS_SQL_EDITION = $(filter-out state time_ops time_ops_brin_multi rls security maintenance move time_predicates upgrade,$(REGRESS))
REGRESS_OPTS = --inputdir=$(srcdir) --load-extension=uuidv7
# interleavings of sessions (specs/*.spec), run by make installcheck after
# the regress suites, on both editions
ISOLATION = upkeep_create upkeep_drop upkeep_adopt upkeep_adopt_neighbours upkeep_overlap upkeep_snapshot upkeep_maintenance upkeep_policy
ISOLATION_OPTS = --load-extension=uuidv7
# tests that need clusters of their own (test/t/*.pl, on PostgreSQL's
# PostgreSQL::Test::Cluster, with test/perl's helpers), run by make
# installcheck after the isolation specs where the server's framework is
# installed (Debian: postgresql-client-NN) and Perl has IPC::Run
TAP_TESTS = 1
PROVE_TESTS = test/t/*.pl

PG_CONFIG ?= pg_config

# The server headers count as system headers, so that -Wextra judges our code
# and not theirs; make WERROR=1 turns every warning into an error.
PG_CPPFLAGS = -isystem $(shell $(PG_CONFIG) --includedir-server) \
	-DUUIDV7_VERSION=\"$(EXTVERSION)\"
PG_CFLAGS = -Wall -Wextra $(if $(WERROR),-Werror)

EXTRA_CLEAN = build $(SQL_EDITION_DIR) output_iso

PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

# test/perl's helpers, whatever PROVE_FLAGS the caller gives (after PGXS,
# whose Makefile.global sets PG_PROVE_FLAGS; absolute, as prove runs in
# srcdir)
override PG_PROVE_FLAGS += -I $(abspath $(srcdir))/test/perl
# where the TAP framework is missing, installcheck says so and goes on
tap_missing := $(strip $(if $(filter yes,$(enable_tap_tests)),,the server was built without TAP tests;) \
	$(if $(wildcard $(dir $(PGXS))../test/perl/PostgreSQL/Test/Cluster.pm),,its PostgreSQL::Test::Cluster is not installed;) \
	$(if $(shell $(PERL) -MIPC::Run -e 1 2>/dev/null && echo yes),,Perl lacks IPC::Run;) \
	$(if $(filter 0,$(shell id -u)),run as root (initdb refuses root);) \
	$(if $(DESTDIR),the extension is staged in DESTDIR (a package build) where clusters of their own would not find it;))
ifneq ($(tap_missing),)
prove_installcheck = @echo "TAP tests (test/t) skipped: $(tap_missing)"
endif

# OpenSSL's libcrypto gives the ff1 public-id scheme its AES, where the
# server was built with OpenSSL; without it (or with WITHOUT_OPENSSL=1) that
# scheme is refused
ifneq ($(filter openssl yes,$(with_ssl) $(with_openssl)),)
ifndef WITHOUT_OPENSSL
override CPPFLAGS += -DUUIDV7_USE_OPENSSL
SHLIB_LINK += -lcrypto
endif
endif

# (out of the tree, the object and built script directories are made
# first; named by absolute path, which VPATH does not search)
$(OBJS): | $(CURDIR)/src
$(DATA_built): | $(CURDIR)/build
$(CURDIR)/src $(CURDIR)/build:
	mkdir -p $@

ASSEMBLE = awk -f $(src)src/assemble.awk

build/uuidv7--$(EXTVERSION).sql: $(UUIDV7_SOURCES) src/assemble.awk
	$(ASSEMBLE) -v edition=c $(addprefix $(src),$(UUIDV7_SOURCES)) > $@

build/uuidv7_time_ops--$(TIME_OPS_VERSION).sql: $(TIME_OPS_SOURCES) src/assemble.awk
	$(ASSEMBLE) -v edition=c $(addprefix $(src),$(TIME_OPS_SOURCES)) > $@

build/uuidv7--%.sql: src/update/uuidv7--%.sql $(UUIDV7_SOURCES) src/assemble.awk
	$(ASSEMBLE) -v edition=c -v template=$< $(addprefix $(src),$(UUIDV7_SOURCES)) > $@

build/uuidv7_time_ops--%.sql: src/update/uuidv7_time_ops--%.sql $(TIME_OPS_SOURCES) src/assemble.awk
	$(ASSEMBLE) -v edition=c -v template=$< $(addprefix $(src),$(TIME_OPS_SOURCES)) > $@

# The SQL edition, for servers that load no C (managed services): the same
# objects, assembled from the same sources, in SQL and PL/pgSQL; in
# SQL_EDITION_DIR, as a file-based extension (make -C sql-edition install),
# a pg_tle script and a plain script (src/sql_edition.sh)
SQL_EDITION_DIR = sql-edition
# Its first version is 0.3.0: it updates only from its own versions, with
# scripts assembled from the same templates in src/update/ as the C edition's.
SQL_EDITION_UPDATES = $(addprefix $(SQL_EDITION_DIR)/,$(filter-out uuidv7--0.1.0--% uuidv7--0.2.0--%, \
	$(notdir $(wildcard $(src)src/update/uuidv7--*.sql))))
SQL_EDITION_FILES = $(addprefix $(SQL_EDITION_DIR)/,uuidv7.control Makefile uuidv7--$(EXTVERSION).sql \
	uuidv7_pg_tle.sql uuidv7_plain.sql) $(SQL_EDITION_UPDATES)
COMMENT = $(shell sed -n "s/^comment = '\(.*\)'/\1/p" $(src)uuidv7.control)

sql-edition: $(SQL_EDITION_FILES)

$(SQL_EDITION_FILES): | $(abspath $(SQL_EDITION_DIR))
$(abspath $(SQL_EDITION_DIR)):
	mkdir -p $@

$(SQL_EDITION_DIR)/uuidv7--$(EXTVERSION).sql: $(UUIDV7_SOURCES) src/assemble.awk
	$(ASSEMBLE) -v edition=sql $(addprefix $(src),$(UUIDV7_SOURCES)) > $@.tmp
	@if grep -n "MODULE_PATHNAME\|LANGUAGE C" $@.tmp; then echo "C in the SQL edition" >&2; exit 1; fi
	mv $@.tmp $@

$(SQL_EDITION_DIR)/uuidv7--%.sql: src/update/uuidv7--%.sql $(UUIDV7_SOURCES) src/assemble.awk
	$(ASSEMBLE) -v edition=sql -v template=$< $(addprefix $(src),$(UUIDV7_SOURCES)) > $@.tmp
	@if grep -n "MODULE_PATHNAME\|LANGUAGE C" $@.tmp; then echo "C in the SQL edition" >&2; exit 1; fi
	mv $@.tmp $@

$(SQL_EDITION_DIR)/uuidv7.control: uuidv7.control
	sed -e '/^module_pathname/d' -e "s/^comment = '\(.*\)'/comment = '\1 (SQL edition)'/" $< > $@

$(SQL_EDITION_DIR)/Makefile: src/sql_edition.mk
	cp $< $@

$(SQL_EDITION_DIR)/uuidv7_pg_tle.sql $(SQL_EDITION_DIR)/uuidv7_plain.sql &: $(SQL_EDITION_DIR)/uuidv7--$(EXTVERSION).sql \
		$(SQL_EDITION_UPDATES) src/sql_edition.sh
	sh $(src)src/sql_edition.sh $(EXTVERSION) "$(COMMENT) (SQL edition)" $(SQL_EDITION_DIR) $< $(SQL_EDITION_UPDATES)

.PHONY: sql-edition

installcheck-sql-edition:
	$(MAKE) -f $(firstword $(MAKEFILE_LIST)) installcheck REGRESS="$(REGRESS_SQL_EDITION)" REGRESS_OPTS="$(REGRESS_OPTS)" \
		ISOLATION="$(ISOLATION)" ISOLATION_OPTS="$(ISOLATION_OPTS)" TAP_TESTS=

.PHONY: installcheck-sql-edition

# the PGXN distribution: the committed tree at HEAD, with the SQL edition
# built from it, in a zip named for the version (test/shell/meta.sh checks it
# against META.json)
dist: sql-edition
	git archive --format zip --prefix=uuidv7-$(EXTVERSION)/sql-edition/ \
		$(addprefix --add-file=,$(SQL_EDITION_FILES)) \
		--prefix=uuidv7-$(EXTVERSION)/ -o uuidv7-$(EXTVERSION).zip HEAD

.PHONY: dist
