#!/usr/bin/env bash
# bench/field_search.sh: is searching every field interactive at scale
# (issue 34 item 2)?  N versions (10 per subject) of distinct small Avro
# records are built with bulk SQL (raw inserts, checked and indexed by the
# tables' triggers as a registration is); one schema in RARE also has a
# field "email" tagged PII.  Then, REPS times each, the server's own time
# (EXPLAIN ANALYZE) of:
#   name     registry.find_fields(name => 'email')       (the GIN index)
#   tag      registry.find_fields(tag => 'PII')
# against the baseline, the same question asked of the view without the
# index (SELECT ... FROM registry.fields WHERE name = 'email': every field
# of every live version unnested), and prints medians and ratios.
#
# Usage: bash bench/field_search.sh   (env: N=200000 RARE=1000 REPS=5 BATCH=20000)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

N=${N:-200000}
RARE=${RARE:-1000}
REPS=${REPS:-5}
BATCH=${BATCH:-20000}
bench_cluster_start "fsync = off
synchronous_commit = off
shared_buffers = 512MB"
trap bench_cluster_stop EXIT
bench_machine
bpsql -f bench/scale_setup.sql >/dev/null
# every RARE-th schema also declares "email", tagged PII
bpsql -c "CREATE OR REPLACE FUNCTION bench.schema_text(k bigint) RETURNS text LANGUAGE sql IMMUTABLE AS \$\$
  SELECT format('{\"type\":\"record\",\"name\":\"Event\",\"namespace\":\"bench.n%s\",\"fields\":[{\"name\":\"id\",\"type\":\"long\"},{\"name\":\"kind\",\"type\":\"string\"},{\"name\":\"at\",\"type\":{\"type\":\"long\",\"logicalType\":\"timestamp-millis\"}}%s]}',
    k, CASE WHEN k % $RARE = 0 THEN ',{\"name\":\"email\",\"type\":\"string\",\"default\":\"\",\"confluent:tags\":[\"PII\"]}' ELSE '' END) \$\$" >/dev/null
t0=$(date +%s)
bpsql -c "CALL bench.build('s', 0, $N, $BATCH)" >/dev/null
t1=$(date +%s)
bpsql -c "VACUUM ANALYZE" >/dev/null
echo "# built $N versions in $((t1 - t0)) s; $(bpsql -Atc 'SELECT count(*) FROM registry.schema_fields') field index rows, $(bpsql -Atc "SELECT pg_size_pretty(pg_total_relation_size('registry.schema_fields'))")"

# median ms of REPS runs of one statement (the server's own time)
median_ms() {
	for _ in $(seq "$REPS"); do
		bpsql -c "EXPLAIN (ANALYZE, FORMAT JSON) $1" | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["Execution Time"])'
	done | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'
}

base=$(median_ms "SELECT subject, version FROM registry.fields WHERE name = 'email'")
name=$(median_ms "SELECT subject, version FROM registry.find_fields(name => 'email')")
tag=$(median_ms "SELECT subject, version FROM registry.find_fields(tag => 'PII')")
found=$(bpsql -Atc "SELECT count(*) FROM registry.find_fields(name => 'email')")
echo "# $N versions; $found have a field named email; median of $REPS, ms; ratio to the view scanned whole"
printf '%-50s %10.2f ms  %8.4fx\n' "registry.fields WHERE name = 'email' (no index)" "$base" 1
printf '%-50s %10.2f ms  %8.4fx\n' "find_fields(name => 'email')" "$name" "$(echo "$name / $base" | bc -l)"
printf '%-50s %10.2f ms  %8.4fx\n' "find_fields(tag => 'PII')" "$tag" "$(echo "$tag / $base" | bc -l)"
