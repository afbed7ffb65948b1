#!/usr/bin/env bash
# bench/http_reads.sh: the reads clients make at start-up and with
# use.latest.version, over HTTP, against pgbench -S with the same number of
# clients on the same cluster, measured in the same run.
#
#   pgbench-S  pgbench -S -M prepared -cCLIENTS -j2 (pgbench -i -s 1 first):
#              one indexed SELECT per transaction, the database's read floor
#   latest     wrk -t2 -cCLIENTS: GET /subjects/{random subject}/versions/latest
#   lookup     wrk -t2 -cCLIENTS: POST /subjects/{random subject} with the
#              body of one of its versions (a lookup: is it registered?)
#   latest-nc, lookup-nc  the same with a query parameter of their own on
#              every request (?nc=..., which the routes ignore and the
#              workers' caches of answers key by): no answer comes from a
#              cache, as for a subject read the first time (no goal)
# NSUBJECTS subjects get VERSIONS versions each of bench/http_get.sh's ~1 KB
# record.  The registry has registry.http_workers = WORKERS (2).  Each round
# runs the five in that order, DURATION seconds each after a 2 s warm-up;
# figures are medians over ROUNDS rounds.  The answers come from the
# workers' caches once each (subject, worker) has been read; the goal is
# >= 0.8x of pgbench -S for both.  wrk builds the cached modes' requests
# once per thread, as pgbench -M prepared parses its query once (building
# each request in Lua took wrk some 15 us of CPU per request against
# pgbench's 10, CPU the two-CPU machines' servers then lacked).  The
# clients share the CPUs with the cluster, so the script also prints the
# cluster's CPU per answer (utime + stime of all its processes over each
# timed run, from /proc) and its ratio to pgbench -S's per transaction.
#
# Usage: bash bench/http_reads.sh   (env: ROUNDS=3 DURATION=10 CLIENTS=8 WORKERS=2 NSUBJECTS=200 VERSIONS=3)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/http_lib.sh"

ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-10}
CLIENTS=${CLIENTS:-8}
WORKERS=${WORKERS:-2}
NSUBJECTS=${NSUBJECTS:-200}
VERSIONS=${VERSIONS:-3}
GOAL=0.8

W=$(mktemp -d /tmp/registry-bench-http.XXXXXX)
http_cluster_start "$WORKERS"
trap 'bench_cluster_stop; [ -n "${KEEP:-}" ] || rm -rf "$W"' EXIT
bench_machine
echo "# $CLIENTS clients, $WORKERS HTTP workers, $NSUBJECTS subjects x $VERSIONS versions, ${DURATION}s per run"

bpsql <<SQL
CREATE SCHEMA bench;
\\i bench/new_schema.sql
DO \$\$
BEGIN
  FOR s IN 1 .. $NSUBJECTS LOOP
    FOR v IN 1 .. $VERSIONS LOOP
      PERFORM registry.register_schema('read-' || s, bench.new_schema(s * 100 + v));
    END LOOP;
  END LOOP;
END \$\$;
VACUUM ANALYZE;
SQL
pgbench -i -s 1 -q >/dev/null 2>&1

# the Lua: a random subject per request; for the lookup, one of its versions' bodies
{
	echo "local n_subjects = $NSUBJECTS"
	echo "local n_versions = $VERSIONS"
	echo "local bodies = {}"
	bpsql -c "SELECT s, v, pg_catalog.to_json(json_build_object('schema', bench.new_schema(s * 100 + v)))::text
	            FROM generate_series(1, $NSUBJECTS) s, generate_series(1, $VERSIONS) v" |
		while IFS='|' read -r s v body; do
			echo "bodies[$(( (s - 1) * VERSIONS + v ))] = [==[$body]==]"
		done
	cat <<'LUA'
local headers = { ["Content-Type"] = "application/vnd.schemaregistry.v1+json" }
local n = 0
function setup(thread)
	n = n + 1
	thread:set("tid", n)
end
-- the request for version v of subject s, with the query q
local function build(s, v, q)
	if mode:sub(1, 6) == "lookup" then
		return wrk.format("POST", "/subjects/read-" .. s .. q, headers, bodies[(s - 1) * n_versions + v])
	end
	return wrk.format("GET", "/subjects/read-" .. s .. "/versions/latest" .. q)
end
-- the cached modes' requests, built once per thread (as pgbench -M
-- prepared parses its query once): the client's work per request is then
-- little more than its socket's
local built = {}
function init(args)
	math.randomseed(tid * 7919 + os.time())
	mode = args[1]
	nc = mode:sub(-3) == "-nc"
	if not nc then
		for s = 1, n_subjects do
			for v = 1, n_versions do
				built[(s - 1) * n_versions + v] = build(s, v, "")
			end
		end
	end
end
local count = 0
function request()
	local s = math.random(n_subjects)
	local v = math.random(n_versions)
	if not nc then return built[(s - 1) * n_versions + v] end
	count = count + 1
	return build(s, v, "?nc=" .. tid .. "x" .. count)
end
function done(summary, latency, requests)
	local e = summary.errors
	io.write(string.format("RESULT %d %d %.1f %.1f %d %d\n", summary.requests, summary.duration,
		latency:percentile(50), latency:percentile(99), e.status,
		e.connect + e.read + e.write + e.timeout))
end
LUA
} >"$W/reads.lua"

# a check of both answers before the runs
curl -sf "http://127.0.0.1:$HTTP_PORT/subjects/read-1/versions/latest" | grep -q "\"version\":$VERSIONS" ||
	{ echo "GET latest did not answer version $VERSIONS" >&2; exit 1; }
body=$(bpsql -c "SELECT json_build_object('schema', bench.new_schema(101))::text")
curl -sf -H 'Content-Type: application/vnd.schemaregistry.v1+json' --data "$body" \
	"http://127.0.0.1:$HTTP_PORT/subjects/read-1" | grep -q '"version":1' ||
	{ echo "the lookup did not answer version 1" >&2; exit 1; }

: >"$W/results"
# the cluster's CPU per answer in microseconds: TICKS_BEFORE ANSWERS
cpu_per() {
	awk -v t="$(($(bench_cluster_ticks) - $1))" -v hz="$(getconf CLK_TCK)" -v n="$2" \
		'BEGIN {printf "%.1f\n", (n > 0 ? t * 1e6 / hz / n : 0)}'
}
pgb() {	# ROUND
	local out t0
	t0=$(bench_cluster_ticks)
	out=$(pgbench -n -S -M prepared -c "$CLIENTS" -j 2 -T "$DURATION" 2>&1) || { echo "$out" >&2; exit 1; }
	bench_clients_gone
	echo "pgbench-S $1 $(echo "$out" | sed -n 's/^tps = \([0-9.]*\) .*/\1/p') $(echo "$out" | sed -n 's/^latency average = \([0-9.]*\) ms/\1/p') 0 0" \
		"$(cpu_per "$t0" "$(echo "$out" | sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p')")" >>"$W/results"
}
wrkrun() {	# MODE ROUND
	local out t0
	t0=$(bench_cluster_ticks)
	out=$(wrk -t2 -c"$CLIENTS" -d"$DURATION"s -s "$W/reads.lua" "http://127.0.0.1:$HTTP_PORT/" -- "$1") ||
		{ echo "$out" >&2; exit 1; }
	echo "$out" | awk -v n="$1" -v r="$2" '/^RESULT/ {printf "%s %s %.1f %.3f %d %d ", n, r, $2 / ($3 / 1e6), $4 / 1000, $6, $7}' >>"$W/results"
	cpu_per "$t0" "$(echo "$out" | awk '/^RESULT/ {print $2}')" >>"$W/results"
}
for r in $(seq "$ROUNDS"); do
	pgbench -n -S -M prepared -c "$CLIENTS" -j 2 -T 2 >/dev/null 2>&1
	pgb "$r"
	for m in latest lookup latest-nc lookup-nc; do
		wrk -t2 -c"$CLIENTS" -d2s -s "$W/reads.lua" "http://127.0.0.1:$HTTP_PORT/" -- "$m" >/dev/null
		wrkrun "$m" "$r"
	done
	echo "# round $r done"
done

echo
python3 - "$W/results" "$GOAL" "$CLIENTS" <<'PY'
import sys, statistics as st
R = {}
for l in open(sys.argv[1]):
    name, rnd, tps, lat, non2xx, sock, cpu = l.split()
    R.setdefault(name, []).append((float(tps), float(lat), int(non2xx), int(sock), float(cpu)))
goal = float(sys.argv[2])
base = st.median(x[0] for x in R["pgbench-S"])
base_cpu = st.median(x[4] for x in R["pgbench-S"])
print("# %s clients; median of %d rounds; latency = pgbench average / wrk p50 (ms);" % (sys.argv[3], len(R["pgbench-S"])))
print("# cpu_us = the cluster's CPU (all its processes, the HTTP workers among them) per answer")
print("%-10s %9s %11s %8s %7s %8s %7s  %s" % ("run", "per_s", "x_pgbenchS", "lat_ms", "non2xx", "sockerr", "cpu_us", "per round"))
for n in ("pgbench-S", "latest", "lookup", "latest-nc", "lookup-nc"):
    v = R[n]
    t = st.median(x[0] for x in v)
    print("%-10s %9.0f %11.2f %8.3f %7d %8d %7.1f  [%s]" % (n, t, t / base, st.median(x[1] for x in v),
          sum(x[2] for x in v), sum(x[3] for x in v), st.median(x[4] for x in v),
          " ".join("%.0f" % x[0] for x in v)))
print()
for n in ("latest", "lookup"):
    t = st.median(x[0] for x in R[n])
    print("%-7s / pgbench -S  %.2fx  (goal >= %.1fx: %s)" % (n, t / base, goal, "met" if t / base >= goal else "NOT MET"))
for n in ("latest", "lookup"):
    c = st.median(x[4] for x in R[n])
    print("%-7s cluster CPU: pgbench -S's per transaction / its per answer  %.2fx  (the same ratio, freed of the clients' share of the CPUs)" % (n, base_cpu / c))
for n in ("latest", "lookup"):
    t = st.median(x[0] for x in R[n + "-nc"])
    print("%-7s no answer cached / pgbench -S  %.2fx  (no goal)" % (n, t / base))
PY
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
