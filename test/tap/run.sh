#!/usr/bin/env bash
# The Perl TAP layer: prove over the tests in test/tap/t, which use
# PostgreSQL::Test::Cluster, the framework of PostgreSQL's own replication
# tests.  Each test makes its own clusters.  As root they run as "postgres"
# in a directory it owns.  This script only sets up what PostgreSQL's TAP
# framework needs (PATH, PG_REGRESS, TESTDIR, the -I of its modules); the
# output and the exit status are prove's.
#
#   TAP_TESTS=030_auth.pl bash test/tap/run.sh   one test (a glob under t/)
#   PROVE_FLAGS='-v -j2' bash test/tap/run.sh    flags for prove
#   TAP_COUNTS=FILE                              "PASSED FAILED" written to
#                                                FILE (test/scripts/TAPCounts.pm)
set -uo pipefail
cd "$(dirname "$0")"
PGBIN=$(pg_config --bindir)
PGXS_DIR=$(cd "$(dirname "$(pg_config --pgxs)")/../.." && pwd)
WORK=$(mktemp -d /tmp/registry-tap.XXXXXX)
cp -r RegistryTest.pm dek_mock.py t ../scripts/TAPCounts.pm "$WORK"/
run() { "$@"; }
if [ "$(id -u)" -eq 0 ]; then
	chown -R postgres: "$WORK"
	run() { runuser -u postgres -- "$@"; }
fi
run env PATH="$PGBIN:$PATH" TESTDIR="$WORK" PG_REGRESS="$PGXS_DIR/src/test/regress/pg_regress" \
	PG_TEST_TIMEOUT_DEFAULT=60 PERL5LIB="$WORK" TAP_COUNTS="$WORK/counts" \
	bash -c "cd '$WORK' && prove --harness TAPCounts -I '$PGXS_DIR/src/test/perl' -I . ${PROVE_FLAGS:-} t/${TAP_TESTS:-*.pl}"
rc=$?
if [ -n "${TAP_COUNTS:-}" ]; then
	cp "$WORK/counts" "$TAP_COUNTS" 2>/dev/null || : >"$TAP_COUNTS"
fi
# logs of failed runs are kept for reading
if [ $rc -eq 0 ]; then rm -rf "$WORK"; else echo "logs kept in $WORK/tmp_check/log"; fi
exit $rc
