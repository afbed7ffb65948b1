#!/usr/bin/env bash
# bench/register_long.sh: register_burst.sh's http-pool run made long.  Its
# runs of 2,000 registrations last under half a second, so a run's start
# and end weigh on each figure; here 4 keep-alive clients register
# REQUESTS new schemas (default 40,000) into 20 subjects at NONE through 2
# HTTP workers, fsync FSYNC, against the two-INSERT baseline (`BEGIN;
# INSERT; INSERT; END;`, pgbench's simple protocol, 4 clients) run for as
# many transactions right before, ROUNDS times in turn.  With PERF=1 (root)
# the middle 5 s of the last HTTP run are sampled machine-wide and the CPU
# is split by process (the server's processes, the client, the kernel's
# threads).
#
# Usage: bash bench/register_long.sh   (env: ROUNDS=3 REQUESTS=40000 FSYNC=off PERF=)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/http_lib.sh"

ROUNDS=${ROUNDS:-3}
REQUESTS=${REQUESTS:-40000}
FSYNC=${FSYNC:-off}
http_cluster_start 2 "fsync = $FSYNC
synchronous_commit = on"
W=$(mktemp -d /tmp/registry-bench-long.XXXXXX)
trap 'bench_cluster_stop; rm -rf "$W"' EXIT
bench_machine
cc -O2 -Wall -pthread -o "$W/burst_client" bench/burst_client.c
bpsql -f bench/register_setup.sql
cp bench/baseline_two_insert.sql "$W/two-ins.sql"
http_register_body
printf '%s\n' "$BODY_PRE" >"$W/pre"
printf '%s\n' "$BODY_POST" >"$W/post"
echo "# $REQUESTS registrations per run, 4 clients, 20 subjects at NONE, 2 HTTP workers, fsync = $FSYNC"

# ROUND: one HTTP run on fresh subjects; its rate, or nothing when short of 200s
http_run() {
	local prefix="long-$1-"
	bpsql -c "SELECT registry.set_compatibility('NONE', '$prefix' || k) FROM generate_series(0, 19) k" >/dev/null
	"$W/burst_client" "$HTTP_PORT" 4 "$REQUESTS" 20 "$prefix" "r$1" "$W/pre" "$W/post" pool |
		awk -v want="$REQUESTS" '/^RESULT/ { if ($2 == want) printf "%.1f\n", $2 / $3 }'
}

for r in $(seq "$ROUNDS"); do
	base=$(pgbench -n -c 4 -j 4 -t $((REQUESTS / 4)) -f "$W/two-ins.sql" 2>&1 | sed -n 's/^tps = \([0-9.]*\) .*/\1/p')
	if [ -n "${PERF:-}" ] && [ "$r" = "$ROUNDS" ]; then
		(sleep 1 && perf record -q -a -g -o "$W/perf.data" -- sleep 5 >/dev/null 2>&1) &
		perf_pid=$!
	fi
	rate=$(http_run "$r")
	[ -n "$rate" ] || { echo "round $r: fewer than $REQUESTS answers were 200" >&2; exit 1; }
	[ -z "${perf_pid:-}" ] || wait "$perf_pid"
	python3 - "$r" "$base" "$rate" <<'PY'
import sys
r, b, h = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
print("round %s  two-ins %8.0f/s  http %7.0f/s  %.2fx" % (r, b, h, h / b))
PY
done
if [ -n "${PERF:-}" ]; then
	echo "# CPU by process, the last HTTP run's middle 5 s, all CPUs:"
	perf report -i "$W/perf.data" --no-children --sort comm --stdio -g none 2>/dev/null |
		grep '%' | head -6
fi
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
