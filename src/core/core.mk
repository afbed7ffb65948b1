# src/core/core.mk: the core (pure C, plus the C++ files that wrap
# libprotoc) built as a static library.  Its folders:
#
#   common/     what every format shares: allocation and arenas, buffers and
#               errors, UTF-8, JSON text, the format interface (rg_format.h),
#               compatibility levels and the verdict, schema tags, base64
#   avro/       the AVRO format      json/       the JSON format
#   protobuf/   the PROTOBUF format
#
# Each folder's headers are on the include path, so a file includes a core
# header by its bare name ("rg_format.h") wherever it lives.
#
# Three builds include this fragment, each with its own compiler, flags and
# build directory, so each gets its own archive from the same rules:
#
#   Makefile            the extension: PGXS's CC and CFLAGS, -fPIC
#   test/core/Makefile  the unit tests: ASan + UBSan
#   test/fuzz/Makefile  the libFuzzer targets: clang, fuzzer instrumentation
#
# Set before including it:
#
#   CORE_DIR        src/core, as seen from the including Makefile
#   CORE_BUILD      the directory for the objects and the archive
#   CORE_CC         C compiler             CORE_CFLAGS    its flags
#   CORE_CXX        C++ compiler           CORE_CXXFLAGS  its flags
#
# It defines:
#
#   CORE_LIB        $(CORE_BUILD)/libregistry_core.a, with its rule
#   CORE_CPPFLAGS   the include path of the core's headers
#   CORE_HEADERS    the core's headers (a dependency of what includes them)
#   CORE_LDLIBS     the libraries a program linking CORE_LIB needs
#   PROTO_GEN       where protobuf-c's descriptor.pb-c.[ch] are generated
#   PROTO_DESC_H    the generated header (objects that include
#                   rg_protobuf.h depend on it)
#
# Every .c and .cpp in those folders is part of the library; a new file
# needs no change here.  Header dependencies are
# tracked per object (-MMD).

PROTO_INC ?= /usr/include
AR ?= ar

PROTO_GEN := $(CORE_DIR)/protobuf/gen
PROTO_DESC := $(PROTO_GEN)/google/protobuf/descriptor.pb-c
PROTO_DESC_H := $(PROTO_DESC).h

CORE_FOLDERS := common avro json protobuf
CORE_CSRCS := $(foreach d,$(CORE_FOLDERS),$(wildcard $(CORE_DIR)/$(d)/*.c)) \
	$(PROTO_DESC).c
CORE_CXXSRCS := $(foreach d,$(CORE_FOLDERS),$(wildcard $(CORE_DIR)/$(d)/*.cpp))
# every header of the core, for the rules of objects that include them
CORE_HEADERS := $(foreach d,$(CORE_FOLDERS),$(wildcard $(CORE_DIR)/$(d)/*.h))
CORE_OBJS := $(patsubst $(CORE_DIR)/%.c,$(CORE_BUILD)/%.o,$(CORE_CSRCS)) \
	$(patsubst $(CORE_DIR)/%.cpp,$(CORE_BUILD)/%.o,$(CORE_CXXSRCS))
CORE_LIB := $(CORE_BUILD)/libregistry_core.a
CORE_CPPFLAGS := $(foreach d,$(CORE_FOLDERS),-I$(CORE_DIR)/$(d)) -I$(PROTO_GEN)
CORE_LDLIBS := -ljansson -lm -lprotoc -lprotobuf -lprotobuf-c -lstdc++

# protobuf-c's C code for descriptor.proto, from the copy libprotobuf-dev
# installs; one run of protoc-c makes both files
$(PROTO_GEN)/%.pb-c.c $(PROTO_GEN)/%.pb-c.h: $(PROTO_INC)/%.proto
	@mkdir -p $(PROTO_GEN)
	protoc-c --c_out=$(PROTO_GEN) -I$(PROTO_INC) $*.proto

# named here so that make keeps the generated source after a build
$(CORE_BUILD)/protobuf/gen/google/protobuf/descriptor.pb-c.o: $(PROTO_DESC).c

# never removed as intermediate files: the builds including this fragment
# share them, and one build deleting the header while another compiles
# against it broke parallel builds
.SECONDARY: $(PROTO_DESC).c $(PROTO_DESC_H)

$(CORE_BUILD)/%.o: $(CORE_DIR)/%.c | $(PROTO_DESC_H)
	@mkdir -p $(@D)
	$(CORE_CC) $(CORE_CFLAGS) $(CORE_CPPFLAGS) -MMD -MP -c -o $@ $<

$(CORE_BUILD)/%.o: $(CORE_DIR)/%.cpp | $(PROTO_DESC_H)
	@mkdir -p $(@D)
	$(CORE_CXX) $(CORE_CXXFLAGS) $(CORE_CPPFLAGS) -MMD -MP -c -o $@ $<

$(CORE_LIB): $(CORE_OBJS)
	@rm -f $@
	$(AR) crs $@ $^

-include $(CORE_OBJS:.o=.d)
