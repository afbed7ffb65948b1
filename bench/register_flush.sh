#!/usr/bin/env bash
# bench/register_flush.sh: what a durable commit's WAL flush costs a
# registration against the baseline, with fsync on: per transaction, the
# WAL bytes written and the time spent in the flush's fdatasync
# (pg_stat_wal with track_wal_io_timing), and the rate, for
#   two-ins   bench/baseline_two_insert.sql, the issue's baseline (simple protocol)
#   sql-reg   registry.register_schema() of a new schema (bench/http_register.sh's
#             record) as a new version of one subject at BACKWARD, through pgbench
#   sql-bare  the same with the field index's trigger and the audit triggers
#             disabled (no registry.schema_fields row, no audit rows; not a
#             configuration anyone should run: it sizes what those rows
#             cost, as http_register.sh WITHOUT=1 does over HTTP)
# one client, DURATION seconds each, ROUNDS rounds; prints each round and
# the medians, with the rates and flush times against two-ins's.
#
# Usage: bash bench/register_flush.sh   (env: ROUNDS=3 DURATION=4)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-4}
bench_cluster_start "fsync = on
synchronous_commit = on
track_wal_io_timing = on"
W=$(mktemp -d /tmp/registry-bench-flush.XXXXXX)
chmod 755 "$W"
trap 'bench_cluster_stop; rm -rf "$W"' EXIT
bench_machine
bpsql -f bench/register_setup.sql >/dev/null
bpsql -c "SELECT registry.set_compatibility('BACKWARD', 'sql-0')" >/dev/null
echo "SELECT registry.register_schema('sql-0', bench.reg_schema(nextval('bench.n')::text));" >"$W/sql-reg.sql"
cp bench/baseline_two_insert.sql "$W/two-ins.sql"

# the WAL counters, flushed to the statistics first
wal() {
	bpsql -c "SELECT pg_stat_force_next_flush()" >/dev/null
	bpsql -c "SELECT wal_sync || ' ' || wal_sync_time || ' ' || wal_bytes FROM pg_stat_wal"
}
# NAME SCRIPT PROTOCOL: one run, a line of results
run() {
	local before after out n
	before=$(wal)
	out=$(pgbench -n -M "$3" -c 1 -j 1 -T "$DURATION" -f "$W/$2.sql" 2>&1) || { echo "$out" >&2; exit 1; }
	after=$(wal)
	n=$(echo "$out" | sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p')
	echo "$1 $(echo "$out" | sed -n 's/^tps = \([0-9.]*\) .*/\1/p') $before $after $n" |
		awk '{ printf "%s %.0f %.2f %.0f %.0f\n", $1, $2, ($6 - $3) / $9, ($7 - $4) * 1000 / $9, ($8 - $5) / $9 }' >>"$W/results"
}

: >"$W/results"
for r in $(seq "$ROUNDS"); do
	run two-ins two-ins simple
	run sql-reg sql-reg prepared
	bench_set_triggers DISABLE "${FIELDS_TRIGGER[@]}" "${AUDIT_TRIGGERS[@]}"
	run sql-bare sql-reg prepared
	bench_set_triggers ENABLE "${FIELDS_TRIGGER[@]}" "${AUDIT_TRIGGERS[@]}"
done
echo "# one client, ${DURATION}s per run, fsync on; per transaction: flushes, flush time (us), WAL bytes"
printf "%-9s %8s %8s %10s %10s\n" run tps flushes flush_us wal_bytes
awk '{ printf "%-9s %8s %8s %10s %10s\n", $1, $2, $3, $4, $5 }' "$W/results"
python3 - "$W/results" <<'PY'
import sys, statistics
rows = [l.split() for l in open(sys.argv[1])]
med = {}
for name in ('two-ins', 'sql-reg', 'sql-bare'):
    rs = [r for r in rows if r[0] == name]
    med[name] = (statistics.median(float(r[1]) for r in rs),
                 statistics.median(float(r[3]) for r in rs),
                 statistics.median(float(r[4]) for r in rs))
print("# medians of %d rounds" % (len(rows) // 3))
for name, (tps, us, b) in med.items():
    print("%-9s %6.0f/s  %.2fx of two-ins   flush %4.0f us (%.2fx)   WAL %5.0f B" % (
        name, tps, tps / med['two-ins'][0], us, us / med['two-ins'][1], b))
PY
