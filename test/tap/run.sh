#!/usr/bin/env bash
# The Perl TAP layer: tests in test/tap/t with PostgreSQL::Test::Cluster,
# the framework of PostgreSQL's own replication tests.  Each test makes its
# own clusters.  As root they run as "postgres" in a directory it owns.
# The last line is "tap: N passed, M failed".
set -uo pipefail
cd "$(dirname "$0")"
PGBIN=$(pg_config --bindir)
PGXS_DIR=$(cd "$(dirname "$(pg_config --pgxs)")/../.." && pwd)
WORK=$(mktemp -d /tmp/registry-tap.XXXXXX)
cp -r RegistryTest.pm t "$WORK"/
run() { "$@"; }
if [ "$(id -u)" -eq 0 ]; then
	chown -R postgres: "$WORK"
	run() { runuser -u postgres -- "$@"; }
fi
run env PATH="$PGBIN:$PATH" TESTDIR="$WORK" PG_REGRESS="$PGXS_DIR/src/test/regress/pg_regress" \
	PG_TEST_TIMEOUT_DEFAULT=60 \
	bash -c "cd '$WORK' && prove -I '$PGXS_DIR/src/test/perl' -I . ${PROVE_FLAGS:-} t/${TAP_TESTS:-*.pl}" >"$WORK/prove.log" 2>&1
cat "$WORK/prove.log"
total=$(sed -nE 's/^Files=[0-9]+, Tests=([0-9]+),.*/\1/p' "$WORK/prove.log")
failed=$(grep -E '^  Failed tests?: ' "$WORK/prove.log" | sed -E 's/.*: //' | tr ',' '\n' |
	awk -F- '{ if (NF == 2) s += $2 - $1 + 1; else s += 1 } END { print s + 0 }')
# a file that died before its plan counts as one failure
bad_files=$(grep -cE '^t/.*\(Wstat: [0-9]+ .*Tests: 0 ' "$WORK/prove.log")
if [ -z "$total" ]; then
	echo "tap: 0 passed, 1 failed"
	exit 1
fi
total=$((total + bad_files))
failed=$((failed + bad_files))
if ! grep -q '^Result: PASS' "$WORK/prove.log" && [ "$failed" -eq 0 ]; then
	total=$((total + 1))
	failed=1
fi
# logs of failed runs are kept for reading
if [ "$failed" -eq 0 ]; then rm -rf "$WORK"; else echo "logs kept in $WORK/tmp_check/log"; fi
echo "tap: $((total - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
