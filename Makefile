# The source directory: this Makefile's, so that the tree also builds out
# of it (pg_buildext runs make -f SRC/Makefile VPATH=SRC in build-NN/)
src := $(dir $(firstword $(MAKEFILE_LIST)))

EXTENSION = uuidv7 uuidv7_time_ops
EXTVERSION = $(shell sed -n "s/^default_version = '\(.*\)'/\1/p" $(src)uuidv7.control)
TIME_OPS_VERSION = $(shell sed -n "s/^default_version = '\(.*\)'/\1/p" $(src)uuidv7_time_ops.control)

MODULE_big = uuidv7
OBJS = src/uuidv7.o src/state.o src/time.o src/generate.o src/extract.o \
	src/bounds.o src/domain.o src/partition.o src/base32.o src/textform.o \
	src/operators.o src/aggregate.o

# The install script is hand-edited in sql/uuidv7.sql and copied to the
# current version's name; released versions keep their install scripts (for
# the upgrade test) beside one upgrade script per release.
DATA_built = sql/uuidv7--$(EXTVERSION).sql sql/uuidv7_time_ops--$(TIME_OPS_VERSION).sql
DATA = $(filter-out $(DATA_built),$(patsubst $(src)%,%,$(wildcard $(src)sql/uuidv7--*.sql $(src)sql/uuidv7_time_ops--*.sql)))

REGRESS = generate extract bounds domain planner compat errors partition textform time_ops time_ops_brin_multi rls adversarial randomness security adopt doctor minmax upgrade
REGRESS_OPTS = --inputdir=$(srcdir) --load-extension=uuidv7

PG_CONFIG ?= pg_config

# The server headers count as system headers, so that -Wextra judges our code
# and not theirs; make WERROR=1 turns every warning into an error.
PG_CPPFLAGS = -isystem $(shell $(PG_CONFIG) --includedir-server) \
	-DUUIDV7_VERSION=\"$(EXTVERSION)\"
PG_CFLAGS = -Wall -Wextra $(if $(WERROR),-Werror)

EXTRA_CLEAN = $(DATA_built)

PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

# (out of the tree, the object and built script directories are made
# first; named by absolute path, which VPATH does not search)
$(OBJS) $(DATA_built): | $(CURDIR)/src $(CURDIR)/sql
$(CURDIR)/src $(CURDIR)/sql:
	mkdir -p $@

sql/uuidv7--$(EXTVERSION).sql: sql/uuidv7.sql
	cp $< $@

sql/uuidv7_time_ops--$(TIME_OPS_VERSION).sql: sql/uuidv7_time_ops.sql
	cp $< $@

# the PGXN distribution: the committed tree at HEAD, in a zip named for the
# version (test/t_meta.sh checks it against META.json)
dist:
	git archive --format zip --prefix=uuidv7-$(EXTVERSION)/ -o uuidv7-$(EXTVERSION).zip HEAD

.PHONY: dist
