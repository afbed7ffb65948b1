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
# PROTOBUF: protobuf-c's descriptor.pb-c.[ch] are generated at build time
# from the libprotobuf-dev copy of descriptor.proto; the one C++ file
# (the libprotoc shim) is compiled by PGXS's %.o: %.cpp rule.
PROTO_GEN   = src/core/protobuf/gen
PROTO_DESC  = $(PROTO_GEN)/google/protobuf/descriptor.pb-c
PROTO_INC  ?= /usr/include
OBJS        = $(patsubst %.c,%.o,$(wildcard src/pg/*.c src/http/*.c src/core/*.c src/core/protobuf/*.c)) \
              src/core/protobuf/protoc_shim.o $(PROTO_DESC).o
DATA        = $(wildcard sql/$(EXTENSION)--*.sql)
REGRESS     = $(filter-out $(EXTENSION)--%,$(basename $(notdir $(wildcard sql/*.sql))))
REGRESS_OPTS = --inputdir=. --outputdir=tmp_check/regress --load-extension=registry
PG_CPPFLAGS = -Isrc/core -Isrc/pg -Isrc/http -I$(PROTO_GEN)
PG_CXXFLAGS = -std=c++17
PG_CFLAGS   = -Wall -Wno-unused-parameter
SHLIB_LINK  = -ljansson -lmicrohttpd -lprotoc -lprotobuf -lprotobuf-c -lstdc++
EXTRA_CLEAN = tmp_check test/core/*.log $(PROTO_GEN)

override with_llvm = no

PG_CONFIG  ?= pg_config
PGXS       := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

# Every object may include rg_protobuf.h, hence the generated header.
$(PROTO_DESC).h:
	mkdir -p $(PROTO_GEN)
	protoc-c --c_out=$(PROTO_GEN) -I$(PROTO_INC) google/protobuf/descriptor.proto

$(PROTO_DESC).c: $(PROTO_DESC).h
	@test -f $@ || { rm -f $<; $(MAKE) $<; }

# every object is rebuilt when any of the headers changes (PGXS tracks none)
$(OBJS): $(PROTO_DESC).h $(wildcard src/*/*.h src/core/protobuf/*.h)

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
