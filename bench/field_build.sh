#!/usr/bin/env bash
# bench/field_build.sh: what the field index (registry.schema_fields, kept by
# the AFTER INSERT trigger schemas_index_fields) costs a bulk build of new
# schemas.  N versions (10 per subject) of field_search.sh's distinct small
# Avro records are built with bench/scale_setup.sql's bench.build (raw
# multi-row INSERTs of BATCH rows, checked and numbered by the tables'
# triggers), once with the field index trigger enabled ("indexed") and once
# with it disabled ("plain", the baseline: ALTER TABLE ... DISABLE TRIGGER),
# in ROUNDS rounds that alternate the order, each build on schemas of its
# own.  It prints, per mode, the median wall time and the median CPU time
# of the backend that ran the build (utime + stime from /proc, sampled
# until it ends), and indexed / plain of both: the index's cost as a
# ratio to the same build without it, measured in the same run.
#
# Usage: bash bench/field_build.sh   (env: N=20000 BATCH=10000 ROUNDS=3)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

N=${N:-20000}
BATCH=${BATCH:-10000}
ROUNDS=${ROUNDS:-3}
RARE=1000
bench_cluster_start "fsync = off
synchronous_commit = off
shared_buffers = 512MB"
W=$(mktemp -d /tmp/registry-bench-fields.XXXXXX)
trap 'bench_cluster_stop; rm -rf "$W"' EXIT
bench_machine
echo "# N=$N versions per build, BATCH=$BATCH rows per INSERT, $ROUNDS rounds"
bpsql -f bench/scale_setup.sql >/dev/null
bpsql -c "CREATE OR REPLACE FUNCTION bench.schema_text(k bigint) RETURNS text LANGUAGE sql IMMUTABLE AS \$\$
  SELECT format('{\"type\":\"record\",\"name\":\"Event\",\"namespace\":\"bench.n%s\",\"fields\":[{\"name\":\"id\",\"type\":\"long\"},{\"name\":\"kind\",\"type\":\"string\"},{\"name\":\"at\",\"type\":{\"type\":\"long\",\"logicalType\":\"timestamp-millis\"}}%s]}',
    k, CASE WHEN k % $RARE = 0 THEN ',{\"name\":\"email\",\"type\":\"string\",\"default\":\"\",\"confluent:tags\":[\"PII\"]}' ELSE '' END) \$\$" >/dev/null

# build MODE LO: N versions of schemas LO .. LO+N-1; appends "MODE wall cpu" to results
build() {
	local mode=$1 lo=$2 t0 t1 bg pid ticks t
	[ "$mode" = plain ] && bpsql -c "ALTER TABLE registry.schemas DISABLE TRIGGER schemas_index_fields" >/dev/null
	t0=$(date +%s.%N)
	bpsql -c "CALL bench.build('$mode$lo-', $lo, $((lo + N)), $BATCH)" &
	bg=$!
	pid=
	while [ -z "$pid" ] && kill -0 $bg 2>/dev/null; do
		pid=$(bpsql -c "SELECT pid FROM pg_stat_activity WHERE query LIKE 'CALL bench.build%'")
		sleep 0.02
	done
	ticks=0
	while kill -0 $bg 2>/dev/null; do
		t=$(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || true)
		[ -n "$t" ] && ticks=$t
		sleep 0.05
	done
	wait $bg
	t1=$(date +%s.%N)
	[ "$mode" = plain ] && bpsql -c "ALTER TABLE registry.schemas ENABLE TRIGGER schemas_index_fields" >/dev/null
	echo "$mode $(echo "$t1 - $t0" | bc) $(echo "$ticks / $(getconf CLK_TCK)" | bc -l)" >>"$W/results"
}

: >"$W/results"
lo=0
for r in $(seq "$ROUNDS"); do
	if [ $((r % 2)) -eq 1 ]; then order="indexed plain"; else order="plain indexed"; fi
	for mode in $order; do
		build "$mode" "$lo"
		lo=$((lo + N))
	done
	bpsql -c "VACUUM ANALYZE" >/dev/null
	echo "# round $r done"
done
echo "# field index rows: $(bpsql -c 'SELECT count(*) FROM registry.schema_fields') (the indexed builds' $((ROUNDS * N)))"
python3 - "$W/results" <<'PY'
import sys, statistics as st
R = {}
for l in open(sys.argv[1]):
    m, wall, cpu = l.split()
    R.setdefault(m, []).append((float(wall), float(cpu)))
print("%-8s %9s %9s  %s" % ("build", "wall_s", "cpu_s", "per round (wall/cpu)"))
for m in ("plain", "indexed"):
    print("%-8s %9.2f %9.2f  %s" % (m, st.median(x[0] for x in R[m]), st.median(x[1] for x in R[m]),
          " ".join("%.1f/%.1f" % x for x in R[m])))
for i, what in ((0, "wall"), (1, "backend CPU")):
    print("indexed / plain, %-12s %.2fx" % (what, st.median(x[i] for x in R["indexed"]) /
                                           st.median(x[i] for x in R["plain"])))
PY
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
