#!/usr/bin/env bash
# registry-check, the offline checker: its command line, and its agreement
# with the server on every compatibility case of the core unit tests
# (logged by them to $1, see test/core/rg_test.h).  psql reaches the test
# cluster through PGHOST/PGPORT/PGUSER.  Last line: "cli: N passed, M failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
CASES=${1:-}
TOOL=$PWD/src/cli/registry-check
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
PASSED=0
FAILED=0

check() {	# check NAME WANT_STATUS COMMAND...: the exit status is WANT_STATUS
	local name=$1 want=$2
	shift 2
	"$@" >"$T/out" 2>"$T/err"
	local rc=$?
	if [ "$rc" -eq "$want" ]; then
		PASSED=$((PASSED + 1)); echo "ok - $name"
	else
		FAILED=$((FAILED + 1)); echo "not ok - $name: exit $rc, want $want"; head -5 "$T/out" "$T/err"
	fi
}

contains() {	# contains NAME FILE TEXT: the last command's FILE (out/err) has TEXT
	if grep -qF -- "$3" "$T/$2"; then
		PASSED=$((PASSED + 1)); echo "ok - $1"
	else
		FAILED=$((FAILED + 1)); echo "not ok - $1: no \"$3\" in"; head -5 "$T/$2"
	fi
}

printf '{"type":"record","name":"A","fields":[{"name":"x","type":"int"}]}' >"$T/v1.avsc"
printf '{"type":"record","name":"A","fields":[{"name":"x","type":"int"},{"name":"y","type":"int","default":0}]}' >"$T/v2.avsc"
printf '{"type":"record","name":"A","fields":[{"name":"x","type":"int"},{"name":"z","type":"int"}]}' >"$T/v3.avsc"
printf '{"type":"record","name":"A","fields":[' >"$T/bad.avsc"
printf 'syntax = "proto3";\nmessage Dep { int32 n = 1; }\n' >"$T/dep.proto"
printf 'syntax = "proto3";\nimport "dep.proto";\nmessage M { Dep d = 1; }\n' >"$T/m1.proto"
printf 'syntax = "proto3";\nimport "dep.proto";\nmessage M { Dep d = 1; string s = 2; }\n' >"$T/m2.proto"

check "a compatible new version exits 0" 0 "$TOOL" "$T/v2.avsc" "$T/v1.avsc"
contains "and says so" out "compatible"
check "a new field without a default is refused at BACKWARD (exit 1)" 1 "$TOOL" "$T/v3.avsc" "$T/v2.avsc"
contains "with Confluent's error type" out "READER_FIELD_MISSING_DEFAULT_VALUE"
contains "naming the version it fails against" out "{oldSchemaVersion: 1}"
check "BACKWARD looks at the latest version only" 0 "$TOOL" "$T/v3.avsc" "$T/v1.avsc" "$T/v3.avsc"
check "BACKWARD_TRANSITIVE looks at every earlier version" 1 "$TOOL" -l BACKWARD_TRANSITIVE "$T/v3.avsc" "$T/v1.avsc" "$T/v3.avsc"
check "NONE checks nothing" 0 "$TOOL" -l NONE "$T/v3.avsc" "$T/v2.avsc"
check "no earlier version: compatible" 0 "$TOOL" "$T/v3.avsc"
check "--json answers as the REST API" 1 "$TOOL" --json "$T/v3.avsc" "$T/v2.avsc"
contains "with is_compatible and messages" out '{"is_compatible":false,"messages":["{errorType:'
check "an invalid new schema is trouble (exit 2)" 2 "$TOOL" "$T/bad.avsc" "$T/v1.avsc"
contains "named, with the parser's words" err "invalid schema \"$T/bad.avsc\""
check "an invalid earlier version is trouble" 2 "$TOOL" "$T/v1.avsc" "$T/bad.avsc"
check "a missing file is trouble" 2 "$TOOL" "$T/none.avsc"
contains "named" err "could not open \"$T/none.avsc\""
check "an unknown level is refused" 2 "$TOOL" -l SIDEWAYS "$T/v1.avsc"
check "an unknown type is refused" 2 "$TOOL" -t XML "$T/v1.avsc"
check "a malformed reference is refused" 2 "$TOOL" -t PROTOBUF -r dep.proto "$T/m1.proto"
check "PROTOBUF with a reference given as a file" 0 "$TOOL" -t PROTOBUF -r "dep.proto=$T/dep.proto" "$T/m2.proto" "$T/m1.proto"
check "PROTOBUF without the referenced file is trouble" 2 "$TOOL" -t PROTOBUF "$T/m2.proto" "$T/m1.proto"
printf '{"type":"record","name":"A","fields":[{"name":"w","type":"int","default":0}]}' >"$T/renamed.avsc"
check "a rename without an alias passes the compatibility rules" 0 "$TOOL" "$T/renamed.avsc" "$T/v1.avsc"
check "--lint reports it and the verdict stands" 0 "$TOOL" --lint "$T/renamed.avsc" "$T/v1.avsc"
contains "as a FIELD_RENAMED_WITHOUT_ALIAS" out "{lintType:'FIELD_RENAMED_WITHOUT_ALIAS'"
check "--lint=FAIL refuses it" 1 "$TOOL" --lint=FAIL "$T/renamed.avsc" "$T/v1.avsc"
contains "with the closing line" out "{validateFields: 'false', compatibility: 'BACKWARD'}"
check "an unknown lint mode is refused" 2 "$TOOL" --lint=LOUD "$T/renamed.avsc" "$T/v1.avsc"
check "--lint-rules=PRACTICES leaves the rename lint out" 1 "$TOOL" --lint=FAIL --lint-rules=PRACTICES "$T/renamed.avsc" "$T/v1.avsc"
contains "and reports the removal without deprecation instead" out "{lintType:'FIELD_REMOVED_WITHOUT_DEPRECATION'"
check "--lint-rules=FIELD_TYPE_CHANGED alone finds nothing here" 0 "$TOOL" --lint=FAIL --lint-rules=FIELD_TYPE_CHANGED "$T/renamed.avsc" "$T/v1.avsc"
check "--lint-rules=PRACTICES lints a first version" 1 "$TOOL" --lint=FAIL --lint-rules=PRACTICES "$T/v1.avsc"
contains "for a field without a default" out "{lintType:'FIELD_WITHOUT_DEFAULT'"
check "an unknown lint rule is refused" 2 "$TOOL" --lint --lint-rules=TYPOS "$T/renamed.avsc" "$T/v1.avsc"
check "--help exits 0" 0 "$TOOL" --help
check "no operand is a usage error" 2 "$TOOL"

if [ -n "$CASES" ] && [ -s "$CASES" ]; then
	out=$(python3 test/cli/agree.py "$CASES" "$TOOL")
	echo "$out" | grep -E '^not ok' | head -20
	line=$(echo "$out" | grep -E '^cli: [0-9]+ passed, [0-9]+ failed$' | tail -1)
	if [ -n "$line" ]; then
		PASSED=$((PASSED + $(echo "$line" | sed -E 's/^cli: ([0-9]+) passed.*/\1/')))
		FAILED=$((FAILED + $(echo "$line" | sed -E 's/.* ([0-9]+) failed$/\1/')))
		echo "agreement with the server: $line"
	else
		echo "$out" | tail -5
		FAILED=$((FAILED + 1)); echo "not ok - the agreement test ran"
	fi
else
	FAILED=$((FAILED + 1)); echo "not ok - the core unit tests logged their compatibility cases"
fi
echo "cli: $PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
