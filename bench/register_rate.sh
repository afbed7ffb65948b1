#!/usr/bin/env bash
# bench/register_rate.sh: SQL registration rate (registry.register_schema
# of a new, distinct schema per transaction) against a baseline of plain
# two-row INSERT transactions, measured in the same run with pgbench.
#
#   baseline   one statement, one transaction: INSERT a row with the same
#              schema text (~0.9 KB) into a plain "schemas" table (id from a
#              sequence, PK) and a row into a plain "versions" table
#              (PK subject, version), via a data-modifying CTE
#   reg-none   SELECT registry.register_schema('none-<client>', <new schema>)
#              compatibility NONE on each client's own subject
#   reg-bw     SELECT registry.register_schema('bw', <new schema>), level
#              BACKWARD (latest version only), every client on one subject
# Every new schema is a 10-field record plus one optional field named after
# nextval() of a sequence, so all are distinct and all BACKWARD compatible.
# The same format() call builds the text in all three scripts.
# Runs interleave (baseline, reg-none, reg-bw) at 1 then 4 clients, DURATION
# seconds each, -M prepared, after a short warm-up of each script.
# Subjects keep growing during the run (nothing is deleted), so the "bw"
# subject holds tens of thousands of versions by its last run; the pgbench
# progress (-P) column shows whether a script slows down as they pile up.
#
# Two rounds in one cluster: fsync = on (durable commits, what the
# registration target of bench/README.md#targets means) and fsync =
# off (the CPU cost alone; what cluster.sh uses), switched with ALTER SYSTEM
# + reload.  Before them, one reg-none run on the fresh cluster, before any
# ANALYZE, shows what a new registry does until autovacuum analyzes its
# tables.  Every measured run uses fresh subjects and the tables are
# ANALYZEd before it.
#
# Usage: bash bench/register_rate.sh     (env: DURATION=10 seconds per run)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

DURATION=${DURATION:-10}
GOAL=0.5

bench_cluster_start
bench_machine
echo "# ${DURATION}s per run, pgbench -M prepared, -j = -c"

bpsql <<'SQL'
\i bench/register_tables.sql
SQL
echo "# schema text: $(bpsql -c "SELECT length(bench.reg_schema('123456'))") bytes"

W=$(mktemp -d /tmp/registry-bench-scripts.XXXXXX)
trap 'bench_cluster_stop; rm -rf "$W"' EXIT
cat >"$W/baseline.sql" <<'PGB'
WITH s AS (INSERT INTO bench.b_schemas (id, schema) SELECT nextval('bench.b_ids'), bench.reg_schema(nextval('bench.n')::text) RETURNING id)
INSERT INTO bench.b_versions (subject, version, schema_id) SELECT :tag || :client_id, id, id FROM s;
PGB
# compatibility NONE on each client's own subject (set before the run)
cat >"$W/reg-none.sql" <<'PGB'
SELECT registry.register_schema(:tag || '-none-' || :client_id, bench.reg_schema(nextval('bench.n')::text));
PGB
# the global default level, BACKWARD; all clients on one subject
cat >"$W/reg-bw.sql" <<'PGB'
SELECT registry.register_schema(:tag || '-bw', bench.reg_schema(nextval('bench.n')::text));
PGB

# run SCRIPT CLIENTS SECONDS TAG -> prints tps; pgbench -P output in $W/TAG.prog
run() {
	local name=$1 c=$2 t=$3 tag=$4 out i
	for i in $(seq 0 $((c - 1))); do
		bpsql -c "SELECT registry.set_compatibility('NONE', '$tag-none-$i')" >/dev/null
	done
	out=$(pgbench -n -M prepared -c "$c" -j "$c" -T "$t" -P 2 -D tag="$tag" -f "$W/$name.sql" 2>"$W/$tag.prog") ||
		{ cat "$W/$tag.prog" >&2; echo "$out" >&2; exit 1; }
	[[ $out == *"number of failed transactions: 0 "* ]] || { echo "$out" >&2; exit 1; }
	echo "$out" | sed -n 's/^tps = \([0-9.]*\) .*/\1/p'
}
progress() {	# the -P tps column of a run, space separated
	sed -n 's/^progress: [0-9.]* s, \([0-9.]*\) tps.*/\1/p' "$W/$1.prog" | awk '{printf "%.0f ", $1}'
}
versions() {
	bpsql -c "SELECT count(*) FROM registry.subject_versions WHERE subject LIKE '$1%'"
}
analyze() {
	bpsql -c "ANALYZE registry.subjects" -c "ANALYZE registry.subject_versions" -c "ANALYZE registry.schemas" \
		-c "ANALYZE bench.b_schemas" -c "ANALYZE bench.b_versions" >/dev/null
}

echo
echo "# fresh cluster, before any ANALYZE: reg-none, 1 client, fsync = $(bpsql -c 'SHOW fsync')"
t=$(run reg-none 1 "$DURATION" fresh)
echo "  tps $(printf '%.0f' "$t"), tps every 2 s: $(progress fresh)(subject reached $(versions fresh-none) versions)"

declare -A TPS
for fsync in on off; do
	bpsql -c "ALTER SYSTEM SET fsync = $fsync" -c "SELECT pg_reload_conf()" >/dev/null
	sleep 0.5
	analyze
	for s in baseline reg-none reg-bw; do run "$s" 1 2 "warm$fsync" >/dev/null; done
	for c in 1 4; do
		for s in baseline reg-none reg-bw; do
			analyze
			TPS[$s-$c]=$(run "$s" "$c" "$DURATION" "$fsync$c$s")
		done
	done
	echo
	echo "# fsync = $(bpsql -c 'SHOW fsync'), synchronous_commit = $(bpsql -c 'SHOW synchronous_commit')"
	printf '%-8s %-9s %8s %11s %8s  %s\n' clients script tps x_baseline "goal 0.5" "tps every 2 s"
	for c in 1 4; do
		for s in baseline reg-none reg-bw; do
			r=$(awk -v a="${TPS[$s-$c]}" -v b="${TPS[baseline-$c]}" 'BEGIN{printf "%.3f", a/b}')
			g=$(awk -v r="$r" -v g=$GOAL 'BEGIN{print (r >= g) ? "met" : "NOT MET"}')
			extra=
			[ "$s" = baseline ] && g=-
			[ "$s" = reg-bw ] && extra="(subject grew to $(versions "$fsync$c$s-bw") versions)"
			printf '%-8s %-9s %8.0f %11s %8s  %s%s\n' "$c" "$s" "${TPS[$s-$c]}" "$r" "$g" "$(progress "$fsync$c$s")" "$extra"
		done
	done
	printf '4 clients / 1 client:'
	for s in baseline reg-none reg-bw; do
		awk -v s="$s" -v a="${TPS[$s-4]}" -v b="${TPS[$s-1]}" 'BEGIN{printf "  %s %.2f", s, a/b}'
	done
	echo "   (register-scaling target: >= 1.3 on distinct subjects)"
done
