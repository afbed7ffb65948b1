# registry: a Confluent-compatible Schema Registry inside PostgreSQL (PGXS)
#
#   make run    install missing Debian packages, build, install, start a
#               local cluster under ./.run with the extension created
#   make stop   stop that cluster
#   make test   every test layer against a throwaway cluster; the last line
#               is "N passed, M failed"

EXTENSION   = registry
EXTVERSION  = $(shell sed -n "s/^default_version *= *'\(.*\)'/\1/p" $(EXTENSION).control)
MODULE_big  = registry
OBJS        = $(patsubst %.c,%.o,$(wildcard src/pg/*.c src/http/*.c src/core/*.c))
DATA        = $(wildcard sql/$(EXTENSION)--*.sql)
REGRESS     = $(filter-out $(EXTENSION)--%,$(basename $(notdir $(wildcard sql/*.sql))))
REGRESS_OPTS = --inputdir=. --outputdir=tmp_check/regress --load-extension=registry
PG_CPPFLAGS = -Isrc/core -Isrc/pg -Isrc/http
PG_CFLAGS   = -Wall -Wno-unused-parameter
SHLIB_LINK  = -ljansson -lmicrohttpd
EXTRA_CLEAN = tmp_check test/core/*.log

override with_llvm = no

PG_CONFIG  ?= pg_config
PGXS       := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

.PHONY: run stop test deps core-check

deps:
	bash test/scripts/deps.sh

run: deps
	bash test/scripts/run.sh start

stop:
	bash test/scripts/run.sh stop

core-check:
	$(MAKE) -C test/core check

test: deps
	bash test/scripts/test.sh
