#!/usr/bin/env bash
# Print the typedef names a set of compiled files knows, one a line, sorted:
# the project's own and those of PostgreSQL, the C library and the other
# headers the code uses.  They come from the DWARF debugging information
# (compile with -g); the compiler only describes the types a file uses.
#
#   src/tools/find_typedefs.sh FILE...      objects, archives or programs
#
# `make typedefs` runs it over the builds and writes src/tools/typedefs.list,
# which `make indent` gives pg_bsd_indent.
set -euo pipefail

[ $# -gt 0 ] || { echo "usage: $0 FILE..." >&2; exit 1; }

# Names left out although a header makes them typedefs: the code uses them
# as variable names, and indent would then read "text = ..." as a
# declaration.  (PostgreSQL's "text" is used as a type in a few places only;
# those declarations lay out the same either way.)
not_typedefs=(text)

# A DW_TAG_typedef entry is followed by its attributes; its DW_AT_name line
# ends with the name (after "(indirect string, offset: ...):" or ":").  The
# C++ compilation units (the libprotoc shim and its headers) are skipped:
# only C is indented.
objdump --dwarf=info "$@" 2>/dev/null | awk '
	/\(DW_TAG_compile_unit\)/ { in_cxx = 0; in_typedef = 0; in_cu = 1; next }
	in_cu && /DW_AT_language/ { in_cxx = /C\+\+/; in_cu = 0; next }
	/\(DW_TAG_/ { in_typedef = /\(DW_TAG_typedef\)/; in_cu = 0; next }
	in_typedef && !in_cxx && /DW_AT_name/ { print $NF; in_typedef = 0 }
' | grep -E '^[A-Za-z_][A-Za-z0-9_]*$' \
	| grep -vxF -f <(printf '%s\n' "${not_typedefs[@]}") \
	| sort -u
