#!/usr/bin/env bash
# bench/transitive_check.sh: cost of a BACKWARD_TRANSITIVE compatibility
# check against every live version, for N = 1, 100, 1000 versions.
#
# Two subject shapes, both "each version adds one optional field with a
# default" so every version is compatible with every other:
#   growing  version k = record {id: long, f1..f(k-1): ["null","string"] = null}
#            (version 1000 has 1000 fields)
#   fixed50  version k = record {c1..c49: long, x_k: ["null","string"] = null}
#            (always 50 fields: the shape of the transitive-check targets in
#            bench/README.md#targets)
# For each: check_compatibility(subject, <compatible version N+1>, 'AVRO',
# '[]', NULL) timed with clock_timestamp() around each call inside one
# plpgsql loop (warm: the same backend ran the check once first, so its
# parsed-schema cache is full), and as the first call of a fresh session
# (cold).  Ratios are against N = 1 of the same shape in the same run.
# Then register_schema of version N+1 at N = 1000, warm (each attempt is
# rolled back in a subtransaction so N stays 1000); a 'latest'-only check at
# N = 1 and 1000 (the non-transitive linearity target); and the backend
# memory the parsed-schema cache takes for 1000 stored schemas (the
# cache-memory target).  Targets: bench/README.md#targets.
#
# Usage: bash bench/transitive_check.sh      (env: WARM_BUDGET_MS, COLD_SAMPLES)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

WARM_BUDGET_MS=${WARM_BUDGET_MS:-2500}	# per (shape, N): stop the warm loop after this
COLD_SAMPLES=${COLD_SAMPLES:-5}			# fresh sessions per (shape, N); 3 for growing N=1000
GOAL_MS=10
GROWING_GOAL_MS=50

bench_cluster_start
bench_machine

bpsql <<'SQL'
CREATE SCHEMA bench;
-- the k-th schema of a shape (k = 0 is version 1)
CREATE FUNCTION bench.schema_json(shape text, k int) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT json_build_object('type', 'record', 'name', 'R', 'namespace', 'bench', 'fields',
    CASE shape WHEN 'growing' THEN
      (SELECT json_agg(f ORDER BY o) FROM (
         SELECT 0 AS o, json_build_object('name', 'id', 'type', 'long') AS f
         UNION ALL
         SELECT i, json_build_object('name', 'f' || i, 'type', json_build_array('null', 'string'), 'default', NULL)
           FROM generate_series(1, k) i) s)
    ELSE
      (SELECT json_agg(f ORDER BY o) FROM (
         SELECT i AS o, json_build_object('name', 'c' || i, 'type', 'long') AS f FROM generate_series(1, 49) i
         UNION ALL
         SELECT 50, json_build_object('name', 'x' || k, 'type', json_build_array('null', 'string'), 'default', NULL)) s)
    END)::text $$;

-- a subject with n versions of a shape, then BACKWARD_TRANSITIVE
CREATE FUNCTION bench.load(subject text, shape text, n int) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM registry.set_compatibility('NONE', subject);
  FOR k IN 0 .. n - 1 LOOP
    PERFORM registry.register_schema(subject, bench.schema_json(shape, k));
  END LOOP;
  PERFORM registry.set_compatibility('BACKWARD_TRANSITIVE', subject);
END $$;

-- time repeated calls, in ms each.  what: 'check' (version NULL: all live
-- versions), 'latest' (version 'latest' only) or 'register' (rolled back).  warm: one untimed call first.
CREATE FUNCTION bench.time_calls(what text, subj text, sch text, warm boolean,
                                 budget_ms float8, max_reps int) RETURNS float8[]
LANGUAGE plpgsql AS $$
DECLARE
  t0 timestamptz; t1 timestamptz; tstart timestamptz;
  ms float8[] := '{}';
  ok boolean;
BEGIN
  IF warm THEN
    SELECT is_compatible INTO ok FROM registry.check_compatibility(subj, sch, 'AVRO', '[]', NULL, false);
    IF NOT ok THEN RAISE EXCEPTION 'bench schema is not compatible with %', subj; END IF;
  END IF;
  tstart := clock_timestamp();
  LOOP
    IF what = 'latest' THEN
      t0 := clock_timestamp();
      SELECT is_compatible INTO ok FROM registry.check_compatibility(subj, sch, 'AVRO', '[]', 'latest', false);
      t1 := clock_timestamp();
    ELSIF what = 'check' THEN
      t0 := clock_timestamp();
      SELECT is_compatible INTO ok FROM registry.check_compatibility(subj, sch, 'AVRO', '[]', NULL, false);
      t1 := clock_timestamp();
      IF NOT ok THEN RAISE EXCEPTION 'bench schema is not compatible with %', subj; END IF;
    ELSE
      BEGIN
        t0 := clock_timestamp();
        PERFORM registry.register_schema(subj, sch);
        t1 := clock_timestamp();
        RAISE EXCEPTION USING ERRCODE = 'BENCH', MESSAGE = 'roll back';
      EXCEPTION WHEN SQLSTATE 'BENCH' THEN NULL;
      END;
    END IF;
    ms := ms || extract(epoch FROM t1 - t0) * 1000;
    EXIT WHEN cardinality(ms) >= max_reps
          OR (cardinality(ms) >= 3 AND extract(epoch FROM clock_timestamp() - tstart) * 1000 >= budget_ms);
  END LOOP;
  RETURN ms;
END $$;

-- backend memory (RssAnon, kB) before and after filling the parsed-schema
-- cache with every version of a subject, one version per check so no big
-- transitive scratch arena inflates the figure
CREATE FUNCTION bench.rss_kb() RETURNS bigint LANGUAGE sql AS $$
  SELECT substring(pg_read_file('/proc/self/status') FROM 'RssAnon:\s*(\d+) kB')::bigint $$;
CREATE FUNCTION bench.cache_memory(subj text, sch text, n int, OUT kb_before bigint, OUT kb_after bigint) LANGUAGE plpgsql AS $$
BEGIN
  PERFORM registry.check_compatibility(subj, sch, 'AVRO', '[]', '1', false);
  kb_before := bench.rss_kb();
  FOR v IN 2 .. n LOOP
    PERFORM registry.check_compatibility(subj, sch, 'AVRO', '[]', v::text, false);
  END LOOP;
  kb_after := bench.rss_kb();
END $$;

CREATE TABLE bench.result (shape text, n int, mode text, ms float8[]);
CREATE FUNCTION bench.median(a float8[]) RETURNS float8 LANGUAGE sql IMMUTABLE AS
  $$ SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x) FROM unnest(a) x $$;
CREATE FUNCTION bench.mean(a float8[]) RETURNS float8 LANGUAGE sql IMMUTABLE AS
  $$ SELECT avg(x) FROM unnest(a) x $$;
SQL

echo "# loading subjects (compatibility NONE while loading, then BACKWARD_TRANSITIVE)"
for shape in fixed50 growing; do
	for n in 1 100 1000; do
		bpsql -c "SELECT bench.load('$shape-$n', '$shape', $n)" >/dev/null
	done
done
bpsql -c "VACUUM ANALYZE" -c "CHECKPOINT" >/dev/null

# cold samples first (fresh sessions), then warm loops, per shape and N
for shape in fixed50 growing; do
	for n in 1 100 1000; do
		samples=$COLD_SAMPLES
		[ "$shape-$n" = growing-1000 ] && samples=3
		for _ in $(seq "$samples"); do
			bpsql -c "INSERT INTO bench.result SELECT '$shape', $n, 'cold',
				bench.time_calls('check', '$shape-$n', bench.schema_json('$shape', $n), false, 0, 1)"
		done
		bpsql -c "INSERT INTO bench.result SELECT '$shape', $n, 'warm',
			bench.time_calls('check', '$shape-$n', bench.schema_json('$shape', $n), true, $WARM_BUDGET_MS, 500)"
	done
	for n in 1 1000; do
		bpsql -c "INSERT INTO bench.result SELECT '$shape', $n, 'latest',
			bench.time_calls('latest', '$shape-$n', bench.schema_json('$shape', $n), true, 1000, 500)"
	done
	bpsql -c "INSERT INTO bench.result SELECT '$shape', 1000, 'register',
		bench.time_calls('register', '$shape-1000', bench.schema_json('$shape', 1000), true, $WARM_BUDGET_MS, 200)"
done

echo
echo "# check_compatibility(subject, new schema, version => NULL), BACKWARD_TRANSITIVE, ms per check"
bpsql -F ' ' <<SQL | column -t
WITH r AS (
  SELECT shape, n, mode, array_agg(x) AS a
    FROM bench.result, unnest(ms) x GROUP BY shape, n, mode),
s AS (
  SELECT shape, n, mode, bench.median(a) AS med, bench.mean(a) AS mean, cardinality(a) AS reps FROM r),
w AS (SELECT * FROM s WHERE mode = 'warm'), c AS (SELECT * FROM s WHERE mode = 'cold')
SELECT * FROM (SELECT 'shape', 'N', 'warm_median_ms', 'warm_mean_ms', 'reps', 'warm_x_N1',
                      'cold_median_ms', 'cold_mean_ms', 'sessions', 'cold_x_N1') h
UNION ALL
SELECT * FROM (
SELECT w.shape, w.n::text, round(w.med::numeric, 3)::text, round(w.mean::numeric, 3)::text, w.reps::text,
       round((w.med / w1.med)::numeric, 1)::text,
       round(c.med::numeric, 2)::text, round(c.mean::numeric, 2)::text, c.reps::text,
       round((c.med / c1.med)::numeric, 1)::text
  FROM w JOIN c USING (shape, n)
  JOIN w w1 ON w1.shape = w.shape AND w1.n = 1
  JOIN c c1 ON c1.shape = w.shape AND c1.n = 1
 ORDER BY w.shape DESC, w.n) t;
SQL

echo
echo "# register_schema of version 1001 at N = 1000, BACKWARD_TRANSITIVE, warm (rolled back each time)"
bpsql -F ' ' <<SQL | column -t
WITH s AS (SELECT shape, bench.median(ms) med, bench.mean(ms) mean, cardinality(ms) reps
             FROM bench.result WHERE mode = 'register'),
w AS (SELECT shape, bench.median(ms) med FROM bench.result WHERE mode = 'warm' AND n = 1000)
SELECT 'shape', 'register_median_ms', 'register_mean_ms', 'reps', 'x_warm_check_N1000'
UNION ALL
SELECT * FROM (SELECT s.shape, round(s.med::numeric, 3)::text, round(s.mean::numeric, 3)::text, s.reps::text,
       round((s.med / w.med)::numeric, 2)::text
  FROM s JOIN w USING (shape) ORDER BY s.shape DESC) t;
SQL

echo
echo "# check_compatibility(..., version => 'latest'): one version checked, warm (latest-linearity target: t(1000)/t(1) <= 2 floor, <= 1.2 target)"
bpsql -F ' ' <<SQL | column -t
WITH s AS (SELECT shape, n, bench.median(ms) med FROM bench.result WHERE mode = 'latest')
SELECT 'shape', 'N=1_median_ms', 'N=1000_median_ms', 't1000/t1'
UNION ALL
SELECT * FROM (SELECT a.shape, round(a.med::numeric, 3)::text, round(b.med::numeric, 3)::text,
       round((b.med / a.med)::numeric, 2)::text
  FROM s a JOIN s b ON a.shape = b.shape AND a.n = 1 AND b.n = 1000 ORDER BY a.shape DESC) t;
SQL

echo
echo "# memory of the backend's parsed-schema cache, 1000 stored schemas (cache-memory target: <= 2 KB per cached schema beyond its text)"
for shape in fixed50 growing; do
	bpsql -F ' ' -c "SELECT m.kb_before, m.kb_after, t.avg_text
		FROM bench.cache_memory('$shape-1000', bench.schema_json('$shape', 1000), 1000) m,
		     (SELECT avg(length(s.schema)) avg_text FROM registry.subject_versions v
		        JOIN registry.schemas s ON s.context = v.context AND s.id = v.schema_id
		       WHERE v.subject = '$shape-1000') t" |
	while read -r before after text; do
		awk -v sh="$shape" -v b="$before" -v a="$after" -v t="$text" 'BEGIN{
			printf "%s: RssAnon %.1f MB -> %.1f MB: %.1f KB per cached schema, schema text %.1f KB (%.0fx the text)\n",
				sh, b/1024, a/1024, (a-b)/1000, t/1024, (a-b)*1024/1000/t }'
	done
done

echo
echo "# targets (bench/README.md#targets)"
bpsql <<SQL
WITH s AS (SELECT shape, n, mode, bench.median(ms) AS med FROM bench.result GROUP BY shape, n, mode, ms),
m AS (SELECT shape, n, mode, bench.median(array_agg(med)) med FROM s GROUP BY shape, n, mode)
SELECT CASE WHEN w.shape = 'growing' THEN
       -- the growing shape's own target; linearity and cold are fixed50's
       format('%s: warm check at N=1000 %s ms -> transitive-growing <= $GROWING_GOAL_MS ms: %s;  t(1000)/t(100) warm %s, cold N=1000 %s ms (no target: version k has k fields)',
              w.shape, round(w.med::numeric, 2), CASE WHEN w.med <= $GROWING_GOAL_MS THEN 'MET' ELSE 'NOT MET' END,
              round((w.med / w100.med)::numeric, 1), round(c.med::numeric, 1))
       ELSE
       format('%s: warm check at N=1000 %s ms -> transitive-warm <= $GOAL_MS ms: %s;  t(1000)/t(100) warm %s (transitive-linearity <= 15 floor, <= 11 target);  cold N=1000 %s ms (transitive-cold <= 150 ms: %s)',
              w.shape, round(w.med::numeric, 2), CASE WHEN w.med <= $GOAL_MS THEN 'MET' ELSE 'NOT MET' END,
              round((w.med / w100.med)::numeric, 1),
              round(c.med::numeric, 1), CASE WHEN c.med <= 150 THEN 'MET' ELSE 'NOT MET' END)
       END
  FROM m w JOIN m w100 ON w100.shape = w.shape AND w100.n = 100 AND w100.mode = 'warm'
           JOIN m c ON c.shape = w.shape AND c.n = 1000 AND c.mode = 'cold'
 WHERE w.n = 1000 AND w.mode = 'warm'
 ORDER BY w.shape DESC;
SQL
