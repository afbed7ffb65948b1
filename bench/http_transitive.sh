#!/usr/bin/env bash
# bench/http_transitive.sh: POST /compatibility/subjects/{s}/versions (no
# version: every live version, as BACKWARD_TRANSITIVE registration checks)
# over HTTP, warm, for subjects of N = 1, 100, 1000 versions.
#
# Subject shape: bench/transitive_check.sh's "fixed50" (the shape of the
# transitive-check targets, bench/README.md#targets: version k = record
# {c1..c49: long, x_k: ["null", "string"] = null}), loaded at
# compatibility NONE, then set to BACKWARD_TRANSITIVE.  The checked schema
# is version N+1 (compatible with all).  One HTTP worker (so one
# keep-alive connection always meets the same worker and its parsed-schema
# cache); a python http.client loop on
# one connection sends one untimed request, then up to REPS timed ones
# (stopping after BUDGET_S seconds per N), and reports the median and p90.
# In the same run and the same loop: GET /schemas/ids/1 (the HTTP floor
# of a request: after the first read the worker answers it from its
# response cache, without a transaction), and the same check through SQL
# (check_compatibility timed with clock_timestamp() in a plpgsql loop on
# one warm session).
#
# Usage: bash bench/http_transitive.sh   (env: REPS=200 BUDGET_S=8)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/http_lib.sh"

REPS=${REPS:-200}
BUDGET_S=${BUDGET_S:-8}
GOAL_MS=10		# transitive-warm (bench/README.md#targets)
ISSUE_MS=5		# issue 13: the check over HTTP

http_cluster_start 1
bench_machine

bpsql <<'SQL'
CREATE SCHEMA bench;
CREATE FUNCTION bench.schema_json(k int) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT json_build_object('type', 'record', 'name', 'R', 'namespace', 'bench', 'fields',
      (SELECT json_agg(f ORDER BY o) FROM (
         SELECT i AS o, json_build_object('name', 'c' || i, 'type', 'long') AS f FROM generate_series(1, 49) i
         UNION ALL
         SELECT 50, json_build_object('name', 'x' || k, 'type', json_build_array('null', 'string'), 'default', NULL)) s))::text $$;
CREATE FUNCTION bench.load(subject text, n int) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM registry.set_compatibility('NONE', subject);
  FOR k IN 0 .. n - 1 LOOP
    PERFORM registry.register_schema(subject, bench.schema_json(k));
  END LOOP;
  PERFORM registry.set_compatibility('BACKWARD_TRANSITIVE', subject);
END $$;
CREATE FUNCTION bench.time_check(subj text, sch text, reps int, budget_ms float8) RETURNS float8[]
LANGUAGE plpgsql AS $$
DECLARE t0 timestamptz; t1 timestamptz; tstart timestamptz; ms float8[] := '{}'; ok boolean;
BEGIN
  SELECT is_compatible INTO ok FROM registry.check_compatibility(subj, sch, 'AVRO', '[]', NULL, false);
  IF NOT ok THEN RAISE EXCEPTION 'not compatible with %', subj; END IF;
  tstart := clock_timestamp();
  LOOP
    t0 := clock_timestamp();
    SELECT is_compatible INTO ok FROM registry.check_compatibility(subj, sch, 'AVRO', '[]', NULL, false);
    t1 := clock_timestamp();
    ms := ms || extract(epoch FROM t1 - t0) * 1000;
    EXIT WHEN cardinality(ms) >= reps OR extract(epoch FROM clock_timestamp() - tstart) * 1000 >= budget_ms;
  END LOOP;
  RETURN ms;
END $$;
SQL
echo "# loading subjects t-1, t-100, t-1000 (fixed50 shape)"
for n in 1 100 1000; do bpsql -c "SELECT bench.load('t-$n', $n)" >/dev/null; done
bpsql -c "VACUUM ANALYZE" -c "CHECKPOINT" >/dev/null
W=$(mktemp -d /tmp/registry-bench-http.XXXXXX)
trap 'bench_cluster_stop; rm -rf "$W"' EXIT
for n in 1 100 1000; do bpsql -c "SELECT bench.schema_json($n)" >"$W/schema-$n"; done

echo "# SQL: check_compatibility(subject, version N+1, version => NULL), one warm session"
for n in 1 100 1000; do
	bpsql -c "SELECT $n, percentile_cont(0.5) WITHIN GROUP (ORDER BY x), cardinality(a)
	            FROM (SELECT bench.time_check('t-$n', bench.schema_json($n), $REPS, ${BUDGET_S}000 / 2) a) t, unnest(a) x GROUP BY a" >>"$W/sql"
done

python3 - "$HTTP_PORT" "$W" "$REPS" "$BUDGET_S" "$GOAL_MS" "$ISSUE_MS" <<'PY'
import http.client, json, statistics as st, sys, time
port, w, reps, budget, goal, issue = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5]), float(sys.argv[6])
conn = http.client.HTTPConnection("127.0.0.1", port)
hdr = {"Content-Type": "application/vnd.schemaregistry.v1+json"}

def call(method, path, body=None):
    conn.request(method, path, body=body, headers=hdr)
    r = conn.getresponse()
    data = r.read()
    if r.status != 200 or r.getheader("Connection", "").lower() == "close":
        sys.exit("%s %s -> %d %s %s" % (method, path, r.status, r.getheader("Connection"), data[:200]))
    return data

def timed(method, path, body=None, check=None):
    out = call(method, path, body)		# untimed: fills the worker's caches
    if check: check(out)
    ms, t_end = [], time.perf_counter() + budget
    while len(ms) < reps and time.perf_counter() < t_end:
        t0 = time.perf_counter()
        call(method, path, body)
        ms.append((time.perf_counter() - t0) * 1000)
    ms.sort()
    return st.median(ms), ms[int(len(ms) * 0.9)], len(ms)

def compatible(out):
    if json.loads(out).get("is_compatible") is not True:
        sys.exit("not compatible: %s" % out[:200])

sql = {int(l.split("|")[0]): float(l.split("|")[1]) for l in open(w + "/sql")}
floor = timed("GET", "/schemas/ids/1")
res = {}
for n in (1, 100, 1000):
    body = json.dumps({"schema": open("%s/schema-%d" % (w, n)).read().strip()})
    res[n] = timed("POST", "/compatibility/subjects/t-%d/versions" % n, body, compatible)
print()
print("# warm, one keep-alive connection, 1 HTTP worker; ms per request")
print("%-34s %10s %8s %6s %12s %12s" % ("request", "median_ms", "p90_ms", "reps", "x_N1", "sql_med_ms"))
print("%-34s %10.3f %8.3f %6d %12s %12s" % ("GET /schemas/ids/1 (cached, floor)", floor[0], floor[1], floor[2], "-", "-"))
for n in (1, 100, 1000):
    m, p, k = res[n]
    print("%-34s %10.3f %8.3f %6d %12.1f %12.3f" % ("POST compatibility N=%d" % n, m, p, k, m / res[1][0], sql[n]))
m1000 = res[1000][0]
print()
print("N=1000 HTTP median %.2f ms -> transitive-warm <= %g ms: %s; issue 13 <= %g ms: %s" % (m1000, goal, "MET" if m1000 <= goal else "NOT MET", issue, "MET" if m1000 <= issue else "NOT MET"))
print("t(1000)/t(100) %.1f  (transitive-linearity: <= 15 floor, <= 11 target);  t(1000)/t(1) %.1f" % (m1000 / res[100][0], m1000 / res[1][0]))
print("HTTP / SQL at N=1000 %.2fx;  HTTP minus SQL at N=1 %.3f ms (per-request HTTP+transaction overhead)" % (m1000 / sql[1000], res[1][0] - sql[1]))
PY
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
