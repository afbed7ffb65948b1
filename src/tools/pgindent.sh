#!/usr/bin/env bash
# make indent: PostgreSQL's pgindent layout for the project's C files.
#
#   src/tools/pgindent.sh [--diff | --check] [FILE...]
#
# Without FILE, every tracked .c and .h file (generated code excluded).
# --diff prints what would change and changes nothing; --check changes
# nothing and exits with status 2 when a file would change.  Otherwise the
# files are rewritten in place.  A file pg_bsd_indent cannot parse is left
# as it is, named on stderr, and the exit status is 1 (a typedef name used
# as a variable, e.g. "char *text", is the usual cause: rename the
# variable).
#
# The layout is pg_bsd_indent (Debian package pg-bsd-indent) with the options
# PostgreSQL's own pgindent passes it, and the typedef names of
# src/tools/typedefs.list (`make typedefs` regenerates it), so that a
# declaration such as "rg_schema *s" is not read as a multiplication.
# Around pg_bsd_indent, the same small text fixes pgindent makes: "//"
# comments become block comments, "/* ---" banner comments are kept as they
# are, the body of an extern "C" block is not indented, a return type keeps
# one space before its "*", and two comments that end up run together get a
# tab between them.
set -euo pipefail
cd "$(dirname "$0")/../.."

INDENT=${PG_BSD_INDENT:-pg_bsd_indent}
TYPEDEFS=src/tools/typedefs.list
OPTIONS="-bad -bap -bbb -bc -bl -cli1 -cp33 -cdb -nce -d0 -di12 -nfc1 -i4 -l79 -lp -lpl -nip -npro -sac -tpg -ts4"

mode=write
case "${1:-}" in
	--diff) mode=diff; shift ;;
	--check) mode=check; shift ;;
esac

command -v "$INDENT" >/dev/null || { echo "$INDENT not found (apt-get install pg-bsd-indent)" >&2; exit 1; }
[ -f "$TYPEDEFS" ] || { echo "$TYPEDEFS not found (make typedefs)" >&2; exit 1; }

if [ $# -gt 0 ]; then
	files=("$@")
else
	mapfile -t files < <(git ls-files '*.c' '*.h' | grep -v '/gen/')
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# "bool" is a macro in <stdbool.h>, so no debugging information names it
{ cat "$TYPEDEFS"; echo bool; } > "$work/typedefs"

changed=0
failed=0
for f in "${files[@]}"; do
	# before: // comments as block comments; banner comments protected; the
	# braces of an extern "C" block hidden, so its body is not indented
	perl -0pe '
		s{^([ \t]*)//(.*)$}{$1/* $2 */}mg;
		s{/\* +---}{/*---KEEP}g;
		s{(^#ifdef[ \t]+__cplusplus[^\n]*\nextern[ \t]+"C"[ \t]*\n)\{[ \t]*$}{$1/* OPEN extern "C" */}mg;
		s{(^#ifdef[ \t]+__cplusplus[^\n]*\n)\}[ \t]*$}{$1/* CLOSE extern "C" */}mg;
	' "$f" > "$work/src.c"
	if ! out=$("$INDENT" $OPTIONS -U"$work/typedefs" "$work/src.c" "$work/ind.c" 2>&1) || [ -n "$out" ]; then
		echo "pg_bsd_indent failed on $f (left as it is): $out" >&2
		failed=1
		continue
	fi
	# after: banners and extern "C" braces back; a tab between run-together
	# comments; one space before the "*" of a return type on its own line
	perl -0pe '
		s{/\*---KEEP}{/* ---}g;
		s{^/\* OPEN extern "C" \*/$}{\{}mg;
		s{^/\* CLOSE extern "C" \*/$}{\}}mg;
		s{\*/(/\*.*\*/)$}{*/\t$1}mg;
		s{^([A-Za-z_]\S*)[ \t]+\*$}{$1 *}mg;
	' "$work/ind.c" > "$work/out.c"
	if ! cmp -s "$f" "$work/out.c"; then
		changed=1
		case $mode in
			diff) diff -u --label "a/$f" --label "b/$f" "$f" "$work/out.c" || true ;;
			check) echo "would change: $f" ;;
			write) cp "$work/out.c" "$f" ;;
		esac
	fi
done
[ $failed -eq 1 ] && exit 1
[ $mode = check ] && [ $changed -eq 1 ] && exit 2
exit 0
