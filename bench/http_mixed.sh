#!/usr/bin/env bash
# bench/http_mixed.sh: does a cheap request wait behind an expensive one?
# GET /schemas/ids/{id} from one keep-alive client (wrk -t1 -c1), its p50
# and p99 alone (quiet, the baseline) and while two other keep-alive
# clients run expensive requests without pause:
#
#   listing   GET /schemas: every version (NSCHEMAS ~1 KB Avro schemas,
#             http_get.sh's, in 20 subjects), a body of a few MB
#   check     POST /compatibility/subjects/grow/versions: a
#             BACKWARD_TRANSITIVE check against CHECK_N versions of
#             transitive_check.sh's "growing" shape (version k has k
#             fields: tens of ms per check at CHECK_N = 300), the same
#             body each time (after the first, the pairs it found
#             compatible are remembered: a few ms each)
#   fresh     the same check with a schema new at each request (its
#             last field named after a counter): parsed and compared
#             against every version each time
#
# The loads' two clients connect first (one connection each, wrk -t2 -c2),
# then the GET client, so that with registry.http_workers = WORKERS (2, the
# default) its connection shares a worker with one of them.  Each round
# runs quiet, listing, check, fresh (DURATION seconds each, after 1 s of warm-up
# for the loads); the figures are medians over ROUNDS rounds, and the
# ratios are each loaded phase's p50 and p99 against the same round's
# quiet ones.  It also prints how many expensive requests the loads got
# through (req/s), which a design that starved them would show.  The goal
# (issue 33, item 2): the GET's p99 under 10 ms while the loads run.
#
# Usage: bash bench/http_mixed.sh   (env: ROUNDS=3 DURATION=10 NSCHEMAS=3000
#        CHECK_N=300 WORKERS=2 POOL=default; POOL=n sets
#        registry.http_pool_workers where the build has it)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/http_lib.sh"

ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-10}
NSCHEMAS=${NSCHEMAS:-3000}
CHECK_N=${CHECK_N:-300}
WORKERS=${WORKERS:-2}
POOL=${POOL:-default}
GOAL_MS=10

W=$(mktemp -d /tmp/registry-bench-mixed.XXXXXX)
LOAD_PID=
cleanup() {
	[ -n "$LOAD_PID" ] && kill "$LOAD_PID" 2>/dev/null && wait "$LOAD_PID" 2>/dev/null
	bench_cluster_stop
	rm -rf "$W"
}
extra=
[ "$POOL" != default ] && extra="registry.http_pool_workers = $POOL"
http_cluster_start "$WORKERS" "$extra"
trap cleanup EXIT
bench_machine
echo "# registry.http_workers = $WORKERS, registry.http_pool_workers = $(bpsql -c 'SHOW registry.http_pool_workers' 2>/dev/null || echo '(none in this build)')"

bpsql <<SQL
CREATE SCHEMA bench;
\\i bench/new_schema.sql
CREATE FUNCTION bench.growing(k int) RETURNS text LANGUAGE sql IMMUTABLE AS \$\$
  SELECT json_build_object('type', 'record', 'name', 'G', 'namespace', 'bench', 'fields',
      (SELECT json_agg(f ORDER BY o) FROM (
         SELECT 0 AS o, json_build_object('name', 'id', 'type', 'long') AS f
         UNION ALL
         SELECT i, json_build_object('name', 'f' || i, 'type', json_build_array('null', 'string'), 'default', NULL)
           FROM generate_series(1, k - 1) i) s))::text \$\$;
DO \$\$
BEGIN
  FOR s IN 0 .. 19 LOOP
    PERFORM registry.set_compatibility('NONE', 'get-' || s);
  END LOOP;
  FOR k IN 1 .. $NSCHEMAS LOOP
    PERFORM registry.register_schema('get-' || (k % 20), bench.new_schema(k));
  END LOOP;
  PERFORM registry.set_compatibility('NONE', 'grow');
  FOR k IN 1 .. $CHECK_N LOOP
    PERFORM registry.register_schema('grow', bench.growing(k));
  END LOOP;
  PERFORM registry.set_compatibility('BACKWARD_TRANSITIVE', 'grow');
END \$\$;
VACUUM ANALYZE;
SQL

bpsql -c "SELECT id FROM registry.schemas WHERE schema LIKE '%com.example.bench%' ORDER BY id" >"$W/ids"
check_body=$(bpsql -c "SELECT json_build_object('schema', bench.growing($CHECK_N + 1))")
# the fresh check's body: growing(CHECK_N + 1) and a last field x<n>, n a counter
fresh_body=$(bpsql -c "SELECT json_build_object('schema', jsonb_set(g, '{fields}', (g->'fields') || jsonb_build_array(jsonb_build_object('name', 'x@N@', 'type', jsonb_build_array('null', 'string'), 'default', NULL)))::text)
	FROM (SELECT bench.growing($CHECK_N + 1)::jsonb g) s")
base="http://127.0.0.1:$HTTP_PORT"
list_len=$(curl -sf "$base/schemas" | wc -c)
check_t=$(curl -sf -o /dev/null -w '%{time_total}' -H 'Content-Type: application/json' -d "$check_body" "$base/compatibility/subjects/grow/versions")
fresh_one() {	# the fresh check of tag $1: "time answer"
	curl -sf -o "$W/fresh.out" -w '%{time_total}' -H 'Content-Type: application/json' -d "${fresh_body%%@N@*}$1${fresh_body#*@N@}" "$base/compatibility/subjects/grow/versions"
	echo " $(cat "$W/fresh.out")"
}
echo "# $(wc -l <"$W/ids") schemas to GET; GET /schemas: $list_len B over $((NSCHEMAS + CHECK_N)) versions; one check: ${check_t} s"
echo "# fresh checks, the first two: $(fresh_one probe1), $(fresh_one probe2)"

result_lua='function done(summary, latency, requests)
	local e = summary.errors
	io.write(string.format("RESULT %d %d %.1f %.1f %.1f %d\n",
		summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
		latency.max, e.status + e.connect + e.read + e.write + e.timeout))
end'
{
	echo "local ids = {$(paste -sd, "$W/ids")}"
	cat <<'LUA'
function init(args)
	math.randomseed(os.time())
end
function request()
	return wrk.format(nil, "/schemas/ids/" .. ids[math.random(#ids)])
end
LUA
	echo "$result_lua"
} >"$W/get.lua"
{
	echo 'function request() return wrk.format(nil, "/schemas") end'
	echo "$result_lua"
} >"$W/listing.lua"
{
	printf 'local body = %s\n' "$(python3 -c 'import json,sys; print(json.dumps(sys.argv[1]))' "$check_body")"
	cat <<'LUA'
function request()
	return wrk.format("POST", "/compatibility/subjects/grow/versions",
		{["Content-Type"] = "application/vnd.schemaregistry.v1+json"}, body)
end
LUA
	echo "$result_lua"
} >"$W/check.lua"
{
	python3 -c 'import json,sys; pre, post = sys.argv[1].split("@N@"); print("local pre = %s\nlocal post = %s" % (json.dumps(pre), json.dumps(post)))' "$fresh_body"
	wrk_lua_thread_numbers
	cat <<'LUA'
local count = 0
function init(args)
	-- new in every run and thread: no check repeats one of an earlier run
	tag = os.time() .. "_" .. tid
end
function request()
	count = count + 1
	return wrk.format("POST", "/compatibility/subjects/grow/versions",
		{["Content-Type"] = "application/vnd.schemaregistry.v1+json"}, pre .. tag .. "_" .. count .. post)
end
LUA
	echo "$result_lua"
} >"$W/fresh.lua"

# phase NAME ROUND: the GET client alone (quiet) or beside a load's two clients
phase() {
	local out
	if [ "$1" != quiet ]; then
		wrk -t2 -c2 -d"$((DURATION + 2))"s --timeout 30s -s "$W/$1.lua" "$base/" >"$W/load.out" 2>&1 &
		LOAD_PID=$!
		sleep 1
	fi
	out=$(wrk -t1 -c1 -d"$DURATION"s --timeout 30s -s "$W/get.lua" "$base/") || { echo "$out" >&2; exit 1; }
	echo "$out" | grep '^RESULT' | sed "s/^RESULT/get $1 $2/" >>"$W/results"
	if [ -n "$LOAD_PID" ]; then
		wait "$LOAD_PID" || true
		LOAD_PID=
		grep '^RESULT' "$W/load.out" | sed "s/^RESULT/load $1 $2/" >>"$W/results"
	fi
}

: >"$W/results"
wrk -t1 -c1 -d2s -s "$W/get.lua" "$base/" >/dev/null
for r in $(seq "$ROUNDS"); do
	for p in quiet listing check fresh; do phase "$p" "$r"; done
	echo "# round $r done"
done

python3 - "$W/results" "$GOAL_MS" <<'PY'
import sys, statistics as st
rows = [l.split() for l in open(sys.argv[1])]
goal_ms = float(sys.argv[2])
G, L = {}, {}
for who, phase, rnd, reqs, dur, p50, p99, mx, err in rows:
    d = dict(rps=int(reqs) / (int(dur) / 1e6), p50=float(p50) / 1000, p99=float(p99) / 1000,
             max=float(mx) / 1000, err=int(err), rnd=rnd)
    (G if who == "get" else L).setdefault(phase, []).append(d)
med = lambda v, f: st.median(x[f] for x in v)
print()
print("# GET /schemas/ids/{id}, one keep-alive client: medians over %d rounds (ms; p99 of each round in brackets)" % len(G["quiet"]))
print("%-8s %9s %8s %8s %8s %6s  %-22s %s" % ("phase", "req/s", "p50", "p99", "max", "errors", "load req/s (2 clients)", "rounds' p99"))
for ph in ("quiet", "listing", "check", "fresh"):
    v = G[ph]
    load = "%.1f" % med(L[ph], "rps") if ph in L else "-"
    lerr = sum(x["err"] for x in L.get(ph, []))
    print("%-8s %9.0f %8.3f %8.3f %8.1f %6d  %-22s [%s]" % (ph, med(v, "rps"), med(v, "p50"), med(v, "p99"), med(v, "max"),
          sum(x["err"] for x in v) + lerr, load, " ".join("%.2f" % x["p99"] for x in v)))
print()
print("# loaded / quiet, the median of the rounds' own ratios")
for ph in ("listing", "check", "fresh"):
    r50 = st.median(l["p50"] / q["p50"] for l, q in zip(G[ph], G["quiet"]))
    r99 = st.median(l["p99"] / q["p99"] for l, q in zip(G[ph], G["quiet"]))
    p99 = med(G[ph], "p99")
    print("%-8s p50 %.2fx  p99 %.2fx   p99 %.2f ms: goal p99 < %g ms %s" % (ph, r50, r99, p99, goal_ms,
          "met" if p99 < goal_ms else "NOT MET"))
PY
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
