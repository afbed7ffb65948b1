#!/usr/bin/env bash
# bench/register_profile.sh: where an HTTP registration's time goes.  One
# wrk client registers a new schema per request (bench/http_register.sh's
# record, level LEVEL, fsync FSYNC) while `perf record -g` samples the HTTP
# workers; prints the workers' on-CPU time per request, split into the
# commit (its WAL flush alone too), the catalog's statements and scans, the
# schema's parse and the compatibility check, the rows' triggers (the
# BEFORE triggers of the schema and version rows, the field index's and the
# audit's AFTER triggers), and the rest (HTTP, MHD, the kernel's loopback
# TCP).  The same run measures the two-row INSERT baseline
# of http_register.sh with pgbench, so the floor a registration cannot go
# under (the request's wall time less all of registry_rest: the commit, the
# HTTP round trip, the waits for the disk and the client) can be set against
# the baseline's whole transaction.  perf's sampling slows the workers by some 10-20%:
# compare the shares, not the rates, with http_register.sh's.
#
# Needs root (perf) and perf on PATH.
# Usage: bash bench/register_profile.sh   (env: SECONDS_=10 FSYNC=on LEVEL=BACKWARD)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/http_lib.sh"
command -v perf >/dev/null || { echo "perf is missing" >&2; exit 1; }

SECS=${SECONDS_:-10}
FSYNC=${FSYNC:-on}
LEVEL=${LEVEL:-BACKWARD}
http_cluster_start 2 "fsync = $FSYNC
synchronous_commit = on"
W=$(mktemp -d /tmp/registry-bench-prof.XXXXXX)
trap 'bench_cluster_stop; [ -n "${KEEP:-}" ] || rm -rf "$W"' EXIT
bench_machine
bpsql -f bench/register_setup.sql
bpsql -c "SELECT registry.set_compatibility('$LEVEL', 'prof')" >/dev/null
cp bench/baseline_cte.sql "$W/baseline.sql"
http_register_body
pre=$BODY_PRE
post=$BODY_POST
cat >"$W/reg.lua" <<LUA
local pre = [==[$pre]==]
local post = [==[$post]==]
local headers = { ["Content-Type"] = "application/vnd.schemaregistry.v1+json" }
cnt = 0
function init(args) tag = args[1] or "t" end
function request()
	cnt = cnt + 1
	return wrk.format("POST", "/subjects/prof/versions", headers, pre .. tag .. "_" .. cnt .. post)
end
function done(summary, latency, requests)
	io.write(string.format("RESULT %d %d\n", summary.requests, summary.duration))
end
LUA
echo "# fsync = $FSYNC, level $LEVEL, 1 client, ${SECS}s"
base=$(pgbench -n -M prepared -c 1 -j 1 -T "$SECS" -f "$W/baseline.sql" 2>&1 | sed -n 's/^tps = \([0-9.]*\) .*/\1/p')
wrk -t1 -c1 -d3s -s "$W/reg.lua" "http://127.0.0.1:$HTTP_PORT/" -- w >/dev/null
pids=$(bpsql -c "SELECT string_agg(pid::text, ',') FROM pg_stat_activity WHERE backend_type = 'registry http'")
wrk -t1 -c1 -d"$SECS"s -s "$W/reg.lua" "http://127.0.0.1:$HTTP_PORT/" -- p >"$W/wrk.out" &
wrk_pid=$!
perf record -q -g -o "$W/perf.data" -p "$pids" -- sleep "$SECS" >/dev/null 2>&1
wait $wrk_pid
perf script -i "$W/perf.data" -F ip,sym 2>/dev/null >"$W/stacks"
python3 - "$W/stacks" "$W/wrk.out" "$base" "$SECS" <<'PY'
import sys, collections
stacks, cur = [], None
for line in open(sys.argv[1]):
    if not line.strip():
        if cur: stacks.append(cur)
        cur = None
        continue
    parts = line.split(None, 1)
    if cur is None: cur = []
    if len(parts) == 2: cur.append(parts[1].strip())
if cur: stacks.append(cur)
res = [l.split() for l in open(sys.argv[2]) if l.startswith("RESULT")][0]
rate = int(res[1]) / (int(res[2]) / 1e6)
secs = float(sys.argv[4])
# cpu-clock samples at 4000 Hz: 250 us each, over secs seconds
per = 250.0 / (rate * secs)
incl = collections.Counter()
for s in stacks:
    for f in set(s): incl[f] += 1
def us(*names):
    n = 0
    for s in stacks:
        if any(x in s for x in names): n += 1
    return n * per
total = len(stacks) * per
rows = [
    ("commit", us("CommitTransactionCommand")),
    ("  of which the WAL flush", us("XLogFlush")),
    ("catalog writes (SQL: lock, inserts, their triggers)", us("catalog_run")),
    ("catalog point reads (index scans)", us("scan_open", "scan_next", "scan_close", "col_datum", "schema_fingerprint")),
    ("parse, stored form and fingerprint", us("registry_parse_submitted")),
    ("compatibility check (without its reads)", us("rg_compat_verdict", "rg_compat_differences")),
    ("the schema row's BEFORE trigger", us("registry_schemas_before_write")),
    ("the version row's BEFORE trigger", us("registry_versions_before_insert")),
    ("the field index row (AFTER trigger)", us("registry_schemas_index_fields")),
    ("the audit rows (AFTER triggers)", us("registry_audit_row")),
    ("registry_rest in all", us("registry_rest")),
]
base = float(sys.argv[3])
print("HTTP registrations: %.0f/s under perf; baseline two-row INSERT: %.0f tps (%.0f us each)" % (rate, base, 1e6 / base))
print("HTTP workers on CPU: %.0f us per registration (wall %.0f us)" % (total, 1e6 / rate))
for name, v in rows:
    print("  %-55s %6.1f us  %4.1f%%" % (name, v, 100 * v / total))
rest = total - us("registry_rest") - us("CommitTransactionCommand")
print("  %-55s %6.1f us  %4.1f%%" % ("HTTP, MHD, loopback TCP, the worker loop", rest, 100 * rest / total))
wall = 1e6 / rate
floor = wall - us("registry_rest")
print()
print("a registration at 0.5x of the baseline has %.0f us in all" % (2e6 / base))
print("the wall time less all of registry_rest (commit, HTTP, the wait for the disk and the client): %.0f us,"
      " at most %.2fx of the baseline even if the registry's own work took no time" % (floor, (1e6 / base) / floor))
PY
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
