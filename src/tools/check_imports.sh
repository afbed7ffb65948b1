#!/usr/bin/env bash
# make check-imports: refuse a registry.so that imports a name which both a
# library it links and the postgres executable define.
#
#   src/tools/check_imports.sh SHLIB POSTGRES
#
# A shared library's undefined symbol binds to the first definition in the
# global scope, and the executable comes first: registry.so calling
# jansson's json_object() would run the server's SQL function json_object()
# instead (with garbage arguments).  The core makes empty objects with
# rg_json_new_object() for that reason.  libpq is left out: the names it
# shares with the server (pqsignal, pg_char_to_encoding, ...) are the
# server's own functions, which registry.so may well mean.
set -euo pipefail
shlib=$1
postgres=$2

syms() { sed 's/@.*//' | sort -u; }

trap 'rm -f "$shlib.imports" "$shlib.server" "$shlib.lib"' EXIT
nm -D --undefined-only "$shlib" | awk '{print $2}' | syms > "$shlib.imports"
nm -D --defined-only "$postgres" | awk '{print $3}' | syms > "$shlib.server"
status=0
for lib in $(ldd "$shlib" | awk '$3 ~ /^\// {print $3}'); do
	case "$lib" in */libpq.so*|*/libc.so*|*/libm.so*) continue ;; esac
	nm -D --defined-only "$lib" | awk '{print $3}' | syms > "$shlib.lib"
	clash=$(comm -12 "$shlib.imports" "$shlib.lib" | comm -12 - "$shlib.server" | tr '\n' ' ')
	if [ -n "$clash" ]; then
		echo "$shlib imports from $lib names the postgres executable also defines: $clash" >&2
		status=1
	fi
done
exit $status
