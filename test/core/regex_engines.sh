#!/usr/bin/env bash
# Every regular expression goes through src/core/json/json_match.c
# (doc/design.md#limits): no other engine may be called from src/ (comment
# lines aside).  One TAP test.
cd "$(dirname "$0")/../.." || exit 1
echo "1..1"
found=$(grep -rnE 'regcomp|regexec|<regex\.h>|<regex>|std::w?regex|pcre2?_|onig_new|re2::' src \
	--include='*.c' --include='*.h' --include='*.cpp' |
	grep -vE '^[^:]+:[0-9]+:[[:space:]]*(\*|/\*|//)')
if [ -n "$found" ]; then
	echo "not ok 1 - no regular expression engine other than json_match.c in src/"
	echo "$found" | sed 's/^/#   /'
else
	echo "ok 1 - no regular expression engine other than json_match.c in src/"
fi
