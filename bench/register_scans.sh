#!/usr/bin/env bash
# bench/register_scans.sh: the index scans a registration makes, counted
# (pg_stat_user_indexes.idx_scan over the registry's schemas, subjects and
# subject_versions tables), for N new schemas registered through the SQL API
# into 20 subjects at NONE (the registration of register_burst.sh without
# its HTTP), then for the same N again (each already registered: the fast
# path's answer).  A count, not a time: it is the same on every machine and
# in every run, so a change that saves a probe shows here even where the
# machine's noise hides it in register_burst.sh's rates.  The ON CONFLICT
# arbiter checks and the foreign key checks count as scans too.
#
# Usage: bash bench/register_scans.sh   (env: N=1000)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

N=${N:-1000}
bench_cluster_start
bench_machine
bpsql -f bench/register_setup.sql
bpsql -c "SELECT registry.set_compatibility('NONE', 'scan-' || k) FROM generate_series(0, 19) k" >/dev/null

# the idx_scan of each index of the three tables, flushed to the statistics first
scans() {
	bpsql -c "SELECT pg_stat_force_next_flush()" >/dev/null
	bpsql -F ' ' -c "SELECT indexrelname, idx_scan FROM pg_stat_user_indexes
		WHERE schemaname = 'registry' AND relname IN ('schemas', 'subjects', 'subject_versions')
		ORDER BY indexrelname"
}
# register the N schemas (the same ones each time it is called)
register() {
	bpsql -c "SELECT count(registry.register_schema('scan-' || (k % 20),
		bench.reg_schema(('scan' || k)::text))) FROM generate_series(1, $N) k" >/dev/null
}
# BEFORE AFTER LABEL: index scans per registration between two snapshots
per_registration() {
	echo "# $3: index scans per registration ($N registrations)"
	join <(echo "$1") <(echo "$2") | awk -v n="$N" '
		{ d = ($3 - $2) / n; total += d; printf "%-34s %6.2f\n", $1, d }
		END { printf "%-34s %6.2f\n", "all", total }'
}

s0=$(scans)
register
s1=$(scans)
register
s2=$(scans)
new=$(bpsql -c "SELECT count(*) FROM registry.subject_versions WHERE subject LIKE 'scan-%'")
[ "$new" -eq "$N" ] || { echo "expected $N versions, found $new" >&2; exit 1; }
per_registration "$s0" "$s1" "new schema"
per_registration "$s1" "$s2" "already registered"
