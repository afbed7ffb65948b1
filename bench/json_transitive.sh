#!/usr/bin/env bash
# bench/json_transitive.sh: cost of a BACKWARD_TRANSITIVE check of a JSON
# Schema against every live version, against the same check for the
# equivalent Avro schema in the same run.
#
# Subject shape "fixed50", as in bench/transitive_check.sh, in both formats,
# for N = 1 and 1000 versions (version k):
#   AVRO  record {c1..c49: long, x_k: ["null","string"] = null}
#   JSON  object {c1..c49: integer, x_k: ["null","string"] default null},
#         additionalProperties {"type": ["null","string"]}
# The JSON versions are mutually compatible under Confluent's STRICT policy:
# the content model is partially open, so x_k's removal and x_(k+1)'s
# addition are both covered by the additionalProperties schema.  Loaded at
# compatibility NONE, then set to BACKWARD_TRANSITIVE; the checked schema is
# version N+1.  check_compatibility(subject, schema, type, '[]', NULL) is
# timed with clock_timestamp() around each call inside one plpgsql loop in
# one session, warm (one untimed call first, so the backend's parsed-schema
# cache is full), in two modes: "same", the same schema N+1 at every call
# (as a client asking again, or registering what it checked: a backend
# answers the pairs it found compatible before from its process-wide set,
# json_content.c), and "fresh", schema N+1 with a title (JSON) or a record
# doc (Avro) of its own at every call, so that no check repeats one made
# before (the first check of a new schema: it is parsed, and only its
# sub-schemas met before are answered from the set).  Then, over HTTP (one
# worker, one keep-alive connection, a python http.client loop), POST
# /compatibility/subjects/{s}/versions for both formats at N = 1000, in
# both modes.  Goal (issue 33 item 4): JSON at N = 1000 <= 5 ms over HTTP.
#
# Usage: bash bench/json_transitive.sh   (env: REPS=300 BUDGET_S=6 HTTP=1
#        HTTP_PORT, BENCH_PG_PORT: fixed ports instead of free ones)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

REPS=${REPS:-300}
BUDGET_S=${BUDGET_S:-6}
HTTP=${HTTP:-1}
GOAL_MS=5

HTTP_PORT=${HTTP_PORT:-$(bench_free_port)}
bench_cluster_start "registry.http_port = $HTTP_PORT
registry.http_listen_addresses = 'localhost'
registry.http_workers = 1"
bench_machine

bpsql <<'SQL'
CREATE SCHEMA bench;
-- the k-th schema (k = 0 is version 1) of the fixed50 shape in a format
CREATE FUNCTION bench.schema_json(fmt text, k int) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE fmt WHEN 'AVRO' THEN
    json_build_object('type', 'record', 'name', 'R', 'namespace', 'bench', 'fields',
      (SELECT json_agg(f ORDER BY o) FROM (
         SELECT i AS o, json_build_object('name', 'c' || i, 'type', 'long') AS f FROM generate_series(1, 49) i
         UNION ALL
         SELECT 50, json_build_object('name', 'x' || k, 'type', json_build_array('null', 'string'), 'default', NULL)) s))::text
  ELSE
    json_build_object('type', 'object', 'title', 'R', 'properties',
      (SELECT json_object_agg(name, s ORDER BY o) FROM (
         SELECT i AS o, 'c' || i AS name, json_build_object('type', 'integer') AS s FROM generate_series(1, 49) i
         UNION ALL
         SELECT 50, 'x' || k, json_build_object('type', json_build_array('null', 'string'), 'default', NULL)) p),
      'additionalProperties', json_build_object('type', json_build_array('null', 'string')))::text
  END $$;

-- a subject with n versions of the shape, then BACKWARD_TRANSITIVE
CREATE FUNCTION bench.load(subject text, fmt text, n int) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM registry.set_compatibility('NONE', subject);
  FOR k IN 0 .. n - 1 LOOP
    PERFORM registry.register_schema(subject, bench.schema_json(fmt, k), fmt);
  END LOOP;
  PERFORM registry.set_compatibility('BACKWARD_TRANSITIVE', subject);
END $$;

-- schema k with a title (JSON) or a record doc (Avro) of its own, tag
CREATE FUNCTION bench.schema_fresh(fmt text, k int, tag int) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE fmt WHEN 'AVRO' THEN
    replace(bench.schema_json(fmt, k), '"name" : "R"', '"name" : "R", "doc" : "d' || tag || '"')
  ELSE
    replace(bench.schema_json(fmt, k), '"title" : "R"', '"title" : "R' || tag || '"')
  END $$;

-- warm check of every live version with schema k ('same': untagged at
-- every call; 'fresh': tagged with the call's number), ms per call (at
-- least 3 calls, then until reps calls or budget_ms)
CREATE FUNCTION bench.time_check(subj text, fmt text, k int, mode text, reps int, budget_ms float8) RETURNS float8[]
LANGUAGE plpgsql AS $$
DECLARE t0 timestamptz; tstart timestamptz; ms float8[] := '{}'; r record; sch text;
BEGIN
  sch := CASE mode WHEN 'same' THEN bench.schema_json(fmt, k) ELSE bench.schema_fresh(fmt, k, 0) END;
  SELECT * INTO r FROM registry.check_compatibility(subj, sch, fmt, '[]', NULL, true);
  IF NOT r.is_compatible THEN RAISE EXCEPTION 'not compatible with %: %', subj, r.messages; END IF;
  tstart := clock_timestamp();
  FOR i IN 1 .. reps LOOP
    IF mode = 'fresh' THEN
      sch := bench.schema_fresh(fmt, k, i);
    END IF;
    t0 := clock_timestamp();
    PERFORM registry.check_compatibility(subj, sch, fmt, '[]', NULL, false);
    ms[i] := 1000 * extract(epoch FROM clock_timestamp() - t0);
    IF i >= 3 AND clock_timestamp() - tstart >= make_interval(secs => budget_ms / 1000) THEN
      RETURN ms;
    END IF;
  END LOOP;
  RETURN ms;
END $$;

CREATE TABLE bench.result (fmt text, n int, mode text, ms float8[]);
CREATE FUNCTION bench.median(a float8[]) RETURNS float8 LANGUAGE sql IMMUTABLE AS
  $$ SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x) FROM unnest(a) x $$;
SQL

echo "# loading subjects avro-1, avro-1000, json-1, json-1000 (compatibility NONE while loading)"
for fmt in AVRO JSON; do
	for n in 1 1000; do
		bpsql -c "SELECT bench.load('${fmt,,}-$n', '$fmt', $n)" >/dev/null
	done
done
bpsql -c "VACUUM ANALYZE" -c "CHECKPOINT" >/dev/null
echo "# JSON version 1000 is $(bpsql -c "SELECT length(bench.schema_json('JSON', 999))") bytes, Avro $(bpsql -c "SELECT length(bench.schema_json('AVRO', 999))")"

# interleaved: Avro, JSON, Avro, JSON at each N and mode, in one session per call
for round in 1 2; do
	for n in 1 1000; do
		for mode in same fresh; do
			for fmt in AVRO JSON; do
				bpsql -c "INSERT INTO bench.result SELECT '$fmt', $n, '$mode',
					bench.time_check('${fmt,,}-$n', '$fmt', $n, '$mode', $REPS, ${BUDGET_S}000 / 4)"
			done
		done
	done
done

echo
echo "# SQL: check_compatibility(subject, version N+1, type, '[]', version => NULL), BACKWARD_TRANSITIVE, warm, ms per check"
bpsql -F ' ' <<SQL | column -t
WITH r AS (SELECT fmt, n, mode, array_agg(x) a FROM bench.result, unnest(ms) x GROUP BY fmt, n, mode),
s AS (SELECT fmt, n, mode, bench.median(a) med, cardinality(a) reps FROM r)
SELECT 'N', 'mode', 'avro_median_ms', 'json_median_ms', 'json/avro', 'reps(avro,json)'
UNION ALL
SELECT * FROM (SELECT a.n::text, a.mode, round(a.med::numeric, 3)::text, round(j.med::numeric, 3)::text,
       round((j.med / a.med)::numeric, 2)::text, a.reps || ',' || j.reps
  FROM s a JOIN s j ON a.n = j.n AND a.mode = j.mode AND a.fmt = 'AVRO' AND j.fmt = 'JSON'
 ORDER BY a.n, a.mode DESC) t;
SQL
bpsql <<SQL
WITH r AS (SELECT fmt, n, mode, array_agg(x) a FROM bench.result, unnest(ms) x GROUP BY fmt, n, mode),
s AS (SELECT fmt, n, mode, bench.median(a) med FROM r)
SELECT format('JSON warm check at N=1000, %s: %s ms (%sx Avro %s ms) -> goal <= $GOAL_MS ms: %s;  JSON t(1000)/t(1) %s',
       j.mode, round(j.med::numeric, 2), round((j.med / a.med)::numeric, 2), round(a.med::numeric, 2),
       CASE WHEN j.med <= $GOAL_MS THEN 'MET' ELSE 'NOT MET' END, round((j.med / j1.med)::numeric, 1))
  FROM s j JOIN s a ON a.n = 1000 AND a.fmt = 'AVRO' AND a.mode = j.mode
  JOIN s j1 ON j1.n = 1 AND j1.fmt = 'JSON' AND j1.mode = j.mode
 WHERE j.n = 1000 AND j.fmt = 'JSON'
 ORDER BY j.mode DESC;
SQL

[ "$HTTP" = 1 ] || exit 0
W=$(mktemp -d /tmp/registry-bench-json.XXXXXX)
trap 'bench_cluster_stop; rm -rf "$W"' EXIT
for fmt in AVRO JSON; do bpsql -c "SELECT bench.schema_json('$fmt', 1000)" >"$W/schema-$fmt"; done
for _ in $(seq 100); do
	curl -sf -o /dev/null "http://127.0.0.1:$HTTP_PORT/config" && break
	sleep 0.1
done
python3 - "$HTTP_PORT" "$W" "$REPS" "$BUDGET_S" "$GOAL_MS" <<'PY'
import http.client, json, statistics as st, sys, time
port, w, reps, budget, goal = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
conn = http.client.HTTPConnection("127.0.0.1", port)
hdr = {"Content-Type": "application/vnd.schemaregistry.v1+json"}

def call(path, body):
    conn.request("POST", path, body=body, headers=hdr)
    r = conn.getresponse()
    data = r.read()
    if r.status != 200:
        sys.exit("POST %s -> %d %s" % (path, r.status, data[:300]))
    return data

def body(fmt, tag):
    text = open("%s/schema-%s" % (w, fmt)).read().strip()
    if tag is not None:
        if fmt == "JSON":
            text = text.replace('"title" : "R"', '"title" : "R%d"' % tag)
        else:
            text = text.replace('"name" : "R"', '"name" : "R", "doc" : "d%d"' % tag)
    return json.dumps({"schema": text, "schemaType": fmt})

def timed(fmt, mode, first_tag):
    path = "/compatibility/subjects/%s-1000/versions" % fmt.lower()
    out = json.loads(call(path, body(fmt, None if mode == "same" else first_tag)))	# untimed
    if out.get("is_compatible") is not True:
        sys.exit("%s not compatible: %s" % (fmt, out))
    bodies = [body(fmt, None if mode == "same" else first_tag + 1 + i) for i in range(reps)]
    ms, t_end = [], time.perf_counter() + budget / 4
    for b in bodies:
        if len(ms) >= 3 and time.perf_counter() >= t_end:
            break
        t0 = time.perf_counter()
        call(path, b)
        ms.append((time.perf_counter() - t0) * 1000)
    return ms

res = {(f, m): [] for f in ("AVRO", "JSON") for m in ("same", "fresh")}
for rnd in range(2):					# interleaved rounds
    for mode in ("same", "fresh"):
        for fmt in ("AVRO", "JSON"):
            # tags of their own per round, above the SQL part's
            res[(fmt, mode)] += timed(fmt, mode, 100000 * (rnd + 1))
print()
print("# HTTP: POST /compatibility/subjects/{s}/versions, N=1000, warm, 1 worker, one keep-alive connection")
for mode in ("same", "fresh"):
    a, j = st.median(res[("AVRO", mode)]), st.median(res[("JSON", mode)])
    print("%-5s avro median %.3f ms (%d reps), json median %.3f ms (%d reps): json/avro %.2fx" %
          (mode, a, len(res[("AVRO", mode)]), j, len(res[("JSON", mode)]), j / a))
for mode in ("same", "fresh"):
    j = st.median(res[("JSON", mode)])
    print("JSON HTTP N=1000, %s: %.2f ms -> goal <= %g ms: %s" % (mode, j, goal, "MET" if j <= goal else "NOT MET"))
PY
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
