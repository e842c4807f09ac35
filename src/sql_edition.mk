# The SQL edition as a file-based extension: no compiler needed.
#   make install [PG_CONFIG=...]
EXTENSION = uuidv7
DATA = $(wildcard uuidv7--*.sql)
PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)
