#!/usr/bin/env bash
# make test: every test layer against a throwaway cluster.  Each layer adds
# to the pass/fail counts; the last line is "N passed, M failed" and the
# exit status is non-zero on any failure.
#
# Each layer reports in its own runner's format.  The TAP layers (the core
# unit tests, pgTAP, the HTTP tests, the Perl TAP tests) run under prove or
# pg_prove, whose harness (test/scripts/TAPCounts.pm) writes their counts to
# a file; the others end with a line "TAG: N passed, M failed" (pg_regress
# is counted from its own output).
set -uo pipefail
cd "$(dirname "$0")/../.."
. test/scripts/cluster.sh

DIR=$PWD/tmp_check/cluster
# as root the cluster runs as "postgres", which must reach its directory:
# when the checkout is somewhere it cannot, the cluster lives under /tmp
if [ "$(id -u)" -eq 0 ] && ! runuser -u postgres -- test -x "$PWD" 2>/dev/null; then
	DIR=$(mktemp -d /tmp/registry-test.XXXXXX)
	chmod 755 "$DIR"
	DIR=$DIR/cluster
	echo "note: postgres cannot reach $PWD; the test cluster is in $DIR"
fi
PORT=${REGISTRY_TEST_PGPORT:-54329}
PASSED=0
FAILED=0

count() {	# count LAYER PASSED FAILED
	echo "== $1: $2 passed, $3 failed"
	PASSED=$((PASSED + $2))
	FAILED=$((FAILED + $3))
}

# layer_counts NAME TAG FILE: count a layer whose output (FILE) ends with
# "TAG: N passed, M failed", showing its failures; no such line is a failure
layer_counts() {
	local name=$1 tag=$2 file=$3 p f
	grep -E '^(not ok|agreement)' "$file" | head -30 | sed 's/^/  /'
	if read -r p f < <(sed -nE "s/^$tag: ([0-9]+) passed, ([0-9]+) failed\$/\1 \2/p" "$file" | tail -1) &&
		[ -n "$f" ]; then
		count "$name" "$p" "$f"
	else
		tail -20 "$file" | sed 's/^/  /'
		count "$name (did not finish)" 0 1
	fi
}

# tap_layer NAME LOG COMMAND...: run a TAP layer (prove or pg_prove with
# --harness TAPCounts, which writes "PASSED FAILED" to $TAP_COUNTS, and
# --failures, which prints the "not ok" lines) with its output in LOG; show
# its failures and count it.  No counts written (the runner did not start
# or died) is a failure.
tap_layer() {
	local name=$1 log=$2 counts p f
	shift 2
	counts=$(mktemp /tmp/registry-counts.XXXXXX)
	TAP_COUNTS=$counts "$@" >"$log" 2>&1
	grep -E -A3 '^(not ok|#   Failed test)' "$log" | head -60 | sed 's/^/  /'
	sed -n '/^Test Summary Report/,/^Files=/p' "$log" | head -40 | sed 's/^/  /'
	if read -r p f <"$counts" && [ -n "$f" ]; then
		count "$name" "$p" "$f"
	else
		tail -20 "$log" | sed 's/^/  /'
		count "$name (did not finish)" 0 1
	fi
	rm -f "$counts"
}

finish() {
	cluster_stop "$DIR"
	case "$DIR" in /tmp/registry-test.*) rm -rf "$(dirname "$DIR")" ;; esac
	echo "$PASSED passed, $FAILED failed"
	[ "$FAILED" -eq 0 ]
	exit $?
}

# 1. core unit tests (no PostgreSQL), under ASan/UBSan; they log the
# compatibility cases they check for registry-check's agreement test (4b)
mkdir -p tmp_check
CASES=$PWD/tmp_check/compat_cases.jsonl
rm -f "$CASES"
tap_layer "core unit tests" tmp_check/core.log \
	env RG_CASE_LOG="$CASES" make -s -C test/core check PROVE_FLAGS=--failures

# 1a. the PROTOBUF payload cases of the core tests, against python3-protobuf
/usr/bin/python3 test/core/protobuf_payload_check.py >tmp_check/protobuf_oracle.log 2>&1
layer_counts "protobuf payload oracle" "protobuf oracle" tmp_check/protobuf_oracle.log

# 1b. the fuzz targets over their seed corpus and past findings (libFuzzer, ASan)
for target in smoke crashes; do
	make -s -C test/fuzz $target >tmp_check/fuzz_$target.log 2>&1
	layer_counts "fuzz $target" "fuzz $target" tmp_check/fuzz_$target.log
done

# 2. build, install, start a throwaway cluster
if ! install_extension released >tmp_check.build.log 2>&1; then
	cat tmp_check.build.log
	count "build" 0 1
	finish
fi
rm -f tmp_check.build.log
cluster_stop "$DIR"	# a cluster left running by an earlier, interrupted run
rm -rf "$DIR"
mkdir -p tmp_check
HTTP_PORT=${REGISTRY_TEST_HTTP_PORT:-18081}
# the local KMS secret the CSFLE client tests use (test/clients/encrypt.mjs)
if ! cluster_start "$DIR" "$PORT" "registry.http_port = $HTTP_PORT
registry.local_kms_secret = 'mysecret'"; then
	count "cluster start" 0 1
	finish
fi
export PGHOST=$DIR PGPORT=$PORT PGUSER=$CLUSTER_USER
export REGISTRY_URL=http://127.0.0.1:$HTTP_PORT
# the HTTP workers serve the "postgres" database
psql -qX -d postgres -c "CREATE EXTENSION IF NOT EXISTS registry" >/dev/null

# 3. pg_regress
mkdir -p tmp_check/regress
make -s installcheck PGHOST="$DIR" PGPORT="$PORT" PGUSER="$CLUSTER_USER" >tmp_check/regress.log 2>&1
cat tmp_check/regress.log | grep -E '^(test|ok|not ok|     )' | sed 's/^/  /' | tail -60
total=$(grep -cE '^(ok|not ok) ' tmp_check/regress.log; true)
[ "$total" -eq 0 ] && total=$(grep -cE '^test .* \.\.\. ' tmp_check/regress.log; true)
bad=$(grep -cE '(^not ok |\.\.\. FAILED)' tmp_check/regress.log; true)
if [ "$total" -eq 0 ]; then
	cat tmp_check/regress.log
	count "pg_regress (did not run)" 0 1
else
	count "pg_regress" $((total - bad)) "$bad"
	[ "$bad" -gt 0 ] && cat tmp_check/regress/regression.diffs 2>/dev/null | head -200
fi

# 4. pgTAP
psql -qX -d postgres -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS registry_tap" -c "CREATE DATABASE registry_tap" >/dev/null
psql -qX -d registry_tap -c "CREATE EXTENSION pgtap" -c "CREATE EXTENSION registry" >/dev/null
tap_layer "pgTAP" tmp_check/pgtap.log \
	env PERL5LIB=test/scripts pg_prove --harness TAPCounts --failures -d registry_tap test/pgtap/*.sql

# 4b. registry-check: its command line, and the same answer as the server on
# every compatibility case of the core unit tests
bash test/cli/run.sh "$CASES" >tmp_check/cli.log 2>&1
layer_counts "registry-check" cli tmp_check/cli.log

# 5. concurrency: many sessions, one subject and a subject each
bash test/scripts/concurrency.sh >tmp_check/concurrency.log 2>&1
sed 's/^/  /' tmp_check/concurrency.log
layer_counts "concurrency" concurrency tmp_check/concurrency.log

# 6. the HTTP server: routes, bad input, keep-alive, restart, reload,
# workers, concurrency (Perl, Test::More: test/http/t/*.t, one at a time)
tap_layer "http server" tmp_check/http.log \
	env CLUSTER_DATA="$DIR/data" PERL5LIB=test/scripts prove --harness TAPCounts --failures -I test/http test/http/t/*.t

# 7. real, unmodified Confluent clients (npm and Debian packages)
bash test/clients/run.sh >tmp_check/clients.log 2>&1
layer_counts "real clients" clients tmp_check/clients.log

# 8. pg_dump and restore keep the registry and its ids
out=$(bash test/scripts/dump_restore.sh 2>&1)
echo "$out" | sed 's/^/  /'
if echo "$out" | grep -q '^dump/restore: ok'; then count "dump/restore" 1 0; else count "dump/restore" 0 1; fi

# 9. the SQL API in a cluster that does not preload the library
out=$(bash test/scripts/no_preload.sh "$DIR-nopreload" $((PORT + 1)) 2>&1)
echo "$out" | sed 's/^/  /'
if echo "$out" | grep -q '^no preload: ok'; then count "no preload" 1 0; else count "no preload" 0 1; fi

# 9a. a full /dev/shm (a cluster with a small one of its own, as root)
# answers long requests 503 and keeps its HTTP worker
# (ports below the ephemeral range, where no client socket of the HTTP tests sits)
out=$(bash test/scripts/shm_full.sh "$DIR-shmfull" $((HTTP_PORT + 103)) $((HTTP_PORT + 3)) 2>&1)
echo "$out" | sed 's/^/  /'
if echo "$out" | grep -q '^shm full: ok'; then
	count "shm full" 1 0
elif ! echo "$out" | grep -q '^shm full: skipped'; then
	count "shm full" 0 1
fi

# 9b. the quick start: make run's script, on a cluster and ports of its own,
# gives a durable cluster serving the REST API
QDIR=$DIR-quickstart
QHTTP=$((HTTP_PORT + 2))
out=$(REGISTRY_RUN_DIR=$QDIR REGISTRY_PGPORT=$((PORT + 2)) REGISTRY_HTTP_PORT=$QHTTP bash test/scripts/run.sh start 2>&1)
types=$(curl -s --max-time 10 "http://127.0.0.1:$QHTTP/schemas/types")
# make run's cluster opts in to anonymous writes (the default only reads)
config=$(curl -s --max-time 10 -X PUT -H 'Content-Type: application/json' \
	--data '{"compatibility":"FULL"}' "http://127.0.0.1:$QHTTP/config")
REGISTRY_RUN_DIR=$QDIR bash test/scripts/run.sh stop >/dev/null 2>&1
rm -rf "$QDIR"
if echo "$out" | grep -q '^registry is running (fsync on)' && [ "$types" = '["AVRO","JSON","PROTOBUF"]' ] &&
	echo "$config" | grep -qE '^\{"compatibility": ?"FULL"\}$'; then
	echo "  quick start: ok"
	count "quick start" 1 0
else
	echo "$out" | tail -5 | sed 's/^/  /'
	echo "  GET /schemas/types: $types"
	echo "  PUT /config: $config"
	count "quick start" 0 1
fi

# 10. Perl TAP (PostgreSQL::Test::Cluster): replication, failover,
# authentication, TLS and upgrades, each test on clusters of its own.  Two
# at a time: the tests mostly wait (for a standby, a timeout, a restart),
# about 75 s of CPU in 350 s alone, and each picks its ports through the
# framework's port locks, so two at once take about 190 s.
tap_layer "perl tap" tmp_check/tap.log env PROVE_FLAGS="--failures -j2" bash test/tap/run.sh

finish
