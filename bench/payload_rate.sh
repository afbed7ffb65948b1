#!/usr/bin/env bash
# bench/payload_rate.sh: registry.encode and registry.decode of a small
# AVRO record in SQL, as a ratio of raw avro-c encoding and decoding in C
# (bench/avro_c_rate.c) measured in the same run.
#
#   C      avro-c 1.11: avro_value_write / avro_value_read of a generic
#          value of the record (5 fields: long, string, ["null","string"],
#          int, double), schema and value interface made once
#   encode SELECT count(registry.encode('bench-user', v)) over ROWS jsonb
#          values already in a temp table (one statement: the schema is
#          looked up once and comes parsed from the backend's cache)
#   decode SELECT count(registry.decode(m)) over the ROWS messages encode
#          wrote, into jsonb
# The SQL rates include the executor's per-row cost and, for decode, the
# jsonb the value becomes; the C rates are the bare codec.  Each figure is
# the best of RUNS runs.  Goal: SQL >= 0.1x C for both.
#
# Usage: bash bench/payload_rate.sh     (env: ROWS=200000 RUNS=3)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

ROWS=${ROWS:-200000}
RUNS=${RUNS:-3}
GOAL=0.1

CBIN=$(mktemp /tmp/avro_c_rate.XXXXXX)
cc -O2 -o "$CBIN" bench/avro_c_rate.c -lavro

bench_cluster_start
bench_machine
echo "# $ROWS rows per SQL statement, $((ROWS * 5)) per C run, best of $RUNS"

bpsql <<SQL
SELECT registry.register_schema('bench-user', '{"type":"record","name":"User","fields":[
	{"name":"id","type":"long"},{"name":"name","type":"string"},
	{"name":"email","type":["null","string"]},{"name":"zip","type":"int"},
	{"name":"score","type":"double"}]}') >= 0;
CREATE SCHEMA bench;
CREATE TABLE bench.vals AS
SELECT jsonb_build_object('id', i, 'name', 'user' || i, 'email', 'someone@example.com',
		'zip', i % 100000, 'score', i / 8.0) AS v
  FROM generate_series(1, $ROWS) i;
CREATE TABLE bench.msgs AS SELECT registry.encode('bench-user', v) AS m FROM bench.vals;
-- seconds one statement takes
CREATE FUNCTION bench.seconds(q text) RETURNS float8 LANGUAGE plpgsql AS \$\$
DECLARE
	t0 timestamptz := clock_timestamp();
BEGIN
	EXECUTE q;
	RETURN extract(epoch FROM clock_timestamp() - t0);
END
\$\$;
SQL

# best rate (rows per second) of RUNS runs of a statement over ROWS rows
sql_rate() {
	local best=0 s r i
	for i in $(seq "$RUNS"); do
		s=$(bpsql -c "SELECT bench.seconds(\$q\$$1\$q\$)")
		r=$(awk -v n="$ROWS" -v s="$s" 'BEGIN { printf "%.0f", n / s }')
		[ "$r" -gt "$best" ] && best=$r
	done
	echo "$best"
}

c_enc=0
c_dec=0
for i in $(seq "$RUNS"); do
	out=$("$CBIN" $((ROWS * 5)))
	e=$(echo "$out" | awk '/^encode/ {print $2}')
	d=$(echo "$out" | awk '/^decode/ {print $2}')
	[ "$e" -gt "$c_enc" ] && c_enc=$e
	[ "$d" -gt "$c_dec" ] && c_dec=$d
done
rm -f "$CBIN"
sql_enc=$(sql_rate "SELECT count(registry.encode('bench-user', v)) FROM bench.vals")
sql_dec=$(sql_rate "SELECT count(registry.decode(m)) FROM bench.msgs")
# the executor alone: the same scan with a trivial function per row
base=$(sql_rate "SELECT count(length(m)) FROM bench.msgs")

printf '%-8s %14s %14s %8s\n' "" "SQL rows/s" "avro-c ops/s" "ratio"
for what in encode decode; do
	if [ $what = encode ]; then s=$sql_enc; c=$c_enc; else s=$sql_dec; c=$c_dec; fi
	ratio=$(awk -v s="$s" -v c="$c" 'BEGIN { printf "%.3f", s / c }')
	verdict=$(awk -v r="$ratio" -v g="$GOAL" 'BEGIN { print (r >= g) ? "meets" : "below" }')
	printf '%-8s %14s %14s %8s  (%s the %sx goal)\n' "$what" "$s" "$c" "${ratio}x" "$verdict" "$GOAL"
done
printf '%-8s %14s\n' "scan" "$base"
echo "# scan: SELECT count(length(m)) over the same rows, the executor's own per-row cost"
