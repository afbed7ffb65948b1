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
# The core (src/core) is a static library built by src/core/core.mk; the
# extension links its PIC build, made with PGXS's compiler and flags.
CORE_DIR    = src/core
CORE_BUILD  = build/core-pic
OBJS        = $(patsubst %.c,%.o,$(wildcard src/pg/*.c src/http/*.c)) \
              $(CORE_BUILD)/libregistry_core.a
# the current full install script and the chain of upgrade scripts; the
# released full scripts (test/upgrade) are installed only for the upgrade test
DATA        = sql/$(EXTENSION)--$(EXTVERSION).sql $(wildcard sql/$(EXTENSION)--*--*.sql)
RELEASED    = $(wildcard test/upgrade/$(EXTENSION)--*.sql)
REGRESS     = $(filter-out $(EXTENSION)--%,$(basename $(notdir $(wildcard sql/*.sql))))
REGRESS_OPTS = --inputdir=. --outputdir=tmp_check/regress --load-extension=registry
# the core's folders (src/core/core.mk) are on the include path, so src/pg
# and src/http include a core header by its bare name
PG_CPPFLAGS = -Isrc/core/common -Isrc/core/avro -Isrc/core/json -Isrc/core/protobuf \
              -Isrc/pg -Isrc/http -Isrc/core/protobuf/gen \
              -I$(shell $(PG_CONFIG) --includedir) \
              -DREGISTRY_VERSION_STRING='"$(EXTVERSION).0"'

PG_CXXFLAGS = -std=c++17 $(WERROR)
# WERROR=-Werror (CI sets it) turns warnings into errors
PG_CFLAGS   = -Wall -Wno-unused-parameter $(WERROR)
# libpq: a standby's workers forward writes to the primary (http_forward.c);
# GnuTLS: the TLS certificate and key are checked before the daemon takes them
SHLIB_LINK  = -ljansson -lmicrohttpd -lgnutls -lprotoc -lprotobuf -lprotobuf-c -lstdc++ -lpq \
              -Wl,--version-script=$(EXPORTS)
# registry.so exports only what PostgreSQL looks up by name: Pg_magic_func,
# _PG_init, each SQL-callable function and its pg_finfo_ record (every
# PG_FUNCTION_INFO_V1 of src/pg and src/http) and what the sources declare
# PGDLLEXPORT (the HTTP worker's entry point); everything else is local
EXPORTS     = build/registry.map
EXTRA_CLEAN = tmp_check tmp_core.log tmp_check.build.log build src/core/protobuf/gen

override with_llvm = no

PG_CONFIG  ?= pg_config
PGXS       := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

# the core's objects get the flags of the extension's own (PIC included),
# and hidden visibility: none of its names is for the server to see
CORE_CC       = $(CC)
CORE_CXX      = $(CXX)
CORE_CFLAGS   = $(CFLAGS) $(CPPFLAGS) -fvisibility=hidden
CORE_CXXFLAGS = $(CXXFLAGS) $(CPPFLAGS) -fvisibility=hidden -fvisibility-inlines-hidden
include $(CORE_DIR)/core.mk

# the export list (a linker version script), made from the sources
EXPORT_SRCS = $(wildcard src/pg/*.c src/http/*.c)
$(EXPORTS): $(EXPORT_SRCS)
	@mkdir -p $(@D)
	{ echo '{'; echo '  global:'; echo '    Pg_magic_func;'; echo '    _PG_init;'; \
	  sed -n -e 's/^PG_FUNCTION_INFO_V1(\([A-Za-z0-9_]*\)).*/    \1;\n    pg_finfo_\1;/p' \
		-e 's/^PGDLLEXPORT [^(]*[ *]\([A-Za-z0-9_]*\)(.*/    \1;/p' $(EXPORT_SRCS); \
	  echo '  local:'; echo '    *;'; echo '};'; } > $@
$(shlib): $(EXPORTS)

# A name both a linked library and the postgres executable define (jansson's
# json_object, a SQL function of the server) binds to the server's when
# registry.so imports it: the build refuses such an import
all: check-imports
check-imports: $(shlib)
	bash src/tools/check_imports.sh $(shlib) $(shell $(PG_CONFIG) --bindir)/postgres

# Every object may include rg_protobuf.h, hence the generated header; and
# each is rebuilt when any header changes (PGXS tracks none).
$(filter src/%.o,$(OBJS)): $(PROTO_DESC_H) $(wildcard src/pg/*.h src/http/*.h) $(CORE_HEADERS)

# /v1/metadata/version answers the control file's version
src/pg/rest_routes.o: $(EXTENSION).control

# registry-check, the offline checker (src/cli), is built with the
# extension and installed beside PostgreSQL's programs
CLI = src/cli/registry-check
all: $(CLI)
$(CLI): $(PROTO_DESC_H) $(wildcard src/cli/*.c) $(CORE_CSRCS) $(CORE_CXXSRCS) $(CORE_HEADERS)
	$(MAKE) -C src/cli registry-check CC='$(CC)' CXX='$(CXX)' WERROR='$(WERROR)'
# registry-migrate (src/cli/migrate), the copier between registries, likewise
MIGRATE = src/cli/registry-migrate
all: $(MIGRATE)
$(MIGRATE): $(CLI) $(wildcard src/cli/migrate/*.c src/cli/migrate/*.h)
	$(MAKE) -C src/cli registry-migrate CC='$(CC)' CXX='$(CXX)' WERROR='$(WERROR)'
install: install-cli
install-cli: $(CLI) $(MIGRATE)
	$(INSTALL_PROGRAM) $(CLI) '$(DESTDIR)$(bindir)/registry-check'
	$(INSTALL_PROGRAM) $(MIGRATE) '$(DESTDIR)$(bindir)/registry-migrate'

# make clean also removes the unit-test, fuzz and registry-check builds
clean: clean-tests
clean-tests:
	$(MAKE) -C src/cli clean
	$(MAKE) -C test/core clean
	$(MAKE) -C test/fuzz clean

.PHONY: run stop test deps core-check indent typedefs clean-tests install-cli install-released check-imports

# the released versions' install scripts, for test/tap/t/090_upgrade.pl
install-released:
	$(INSTALL_DATA) $(RELEASED) '$(DESTDIR)$(datadir)/extension/'

deps:
	bash test/scripts/deps.sh

run: deps
	bash test/scripts/run.sh start

stop:
	bash test/scripts/run.sh stop

core-check: $(PROTO_DESC_H)
	$(MAKE) -C test/core check

test: deps
	bash test/scripts/test.sh

# pgindent layout (pg_bsd_indent, package pg-bsd-indent) for every C file;
# `make indent INDENT_FLAGS=--diff` only shows what would change
indent:
	bash src/tools/pgindent.sh $(INDENT_FLAGS)

# src/tools/typedefs.list, the typedef names indent must know: from the
# debugging information of the extension, the unit tests, the fuzz targets
# and the bench programs (run it after adding a typedef)
typedefs: all
	$(MAKE) -C test/core all
	$(MAKE) -C test/fuzz all
	mkdir -p build
	$(CC) -g -c -o build/mhd_trivial.o bench/mhd_trivial.c
	$(CC) -g -c -o build/burst_client.o bench/burst_client.c
	$(CC) -g -c -o build/http_load.o bench/http_load.c
	bash src/tools/find_typedefs.sh $(OBJS) build/mhd_trivial.o build/burst_client.o build/http_load.o \
		$$(ls src/cli/registry-check src/cli/registry-migrate test/core/test_* test/fuzz/fuzz_* | grep -vE '\.(c|h|log)$$') > src/tools/typedefs.list
