#!/usr/bin/env bash
# bench/audit_cost.sh: what the audit trail (registry.audit, its AFTER
# triggers and NOTIFY registry_changes) costs a registration over the SQL
# API: registrations per second with the audit triggers enabled against the
# same with them disabled (ALTER TABLE ... DISABLE TRIGGER), in the same
# cluster and run, interleaved; and with the triggers but without the
# notifications (registry.audit_notify = off).
#
#   version   SELECT registry.register_schema('<client>', <new schema>) on
#             each client's own subject (compatibility NONE): a new schema
#             and a new version, two audit rows
#   subject   the same on a new subject each time: a new subject, schema
#             and version, three audit rows
# Every schema is new (bench/new_schema.sql).  Runs of DURATION seconds,
# CLIENTS clients (each on subjects of its own), pgbench -M prepared, ROUNDS
# rounds of (audit, audit without NOTIFY, none) for each script, fsync off
# (the CPU cost alone) and on (durable commits); each ratio against "none"
# is the median of the rounds' ratios.
#
# Usage: bash bench/audit_cost.sh
#   (env: ROUNDS=3 DURATION=6 FSYNCS="off on" CLIENTS=1)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-6}
FSYNCS=${FSYNCS:-off on}
CLIENTS=${CLIENTS:-1}

bench_cluster_start
bench_machine
echo "# ${DURATION}s per run, $CLIENTS client(s), pgbench -M prepared, $ROUNDS rounds of (audit, audit without NOTIFY, none)"
bpsql <<'SQL'
\i bench/register_tables.sql
SQL

W=$(mktemp -d /tmp/registry-bench-scripts.XXXXXX)
trap 'bench_cluster_stop; rm -rf "$W"' EXIT
cat >"$W/version.sql" <<'PGB'
SELECT registry.register_schema(:tag || '-v' || :client_id, bench.reg_schema(nextval('bench.n')::text));
PGB
cat >"$W/subject.sql" <<'PGB'
SELECT registry.register_schema(:tag || '-s-' || nextval('bench.n'), bench.reg_schema(nextval('bench.n')::text));
PGB

# audit on|quiet|off: the audit triggers enabled (quiet: without the
# notifications) or disabled on every registry table
audit() {
	local t verb=ENABLE notify=on
	[ "$1" = off ] && verb=DISABLE
	[ "$1" = quiet ] && notify=off
	for t in contexts schemas subjects subject_versions config modes; do
		bpsql -c "ALTER TABLE registry.$t $verb TRIGGER audit_after_write" >/dev/null
	done
	bpsql -c "ALTER SYSTEM SET registry.audit_notify = $notify" -c "SELECT pg_reload_conf()" >/dev/null
	sleep 0.2
}
# run SCRIPT TAG -> tps
run() {
	local out i
	for i in $(seq 0 $((CLIENTS - 1))); do
		bpsql -c "SELECT registry.set_compatibility('NONE', '$2-v$i')" >/dev/null
	done
	out=$(pgbench -n -M prepared -c "$CLIENTS" -j "$CLIENTS" -T "$DURATION" -D tag="$2" -f "$W/$1.sql" 2>"$W/err") ||
		{ cat "$W/err" >&2; echo "$out" >&2; exit 1; }
	echo "$out" | sed -n 's/^tps = \([0-9.]*\) .*/\1/p'
}
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

for fsync in $FSYNCS; do
	bpsql -c "ALTER SYSTEM SET fsync = $fsync" -c "SELECT pg_reload_conf()" >/dev/null
	sleep 0.5
	echo
	echo "# fsync = $(bpsql -c 'SHOW fsync')"
	printf '%-8s %9s %9s %9s %8s %8s   %s\n' script "tps audit" "no notify" "tps none" ratio "quiet" \
		"ratios audit/none of the rounds"
	for s in version subject; do
		ratios=
		qratios=
		on_all=
		quiet_all=
		off_all=
		for r in $(seq "$ROUNDS"); do
			audit on
			on=$(run "$s" "on$fsync$s$r")
			audit quiet
			quiet=$(run "$s" "quiet$fsync$s$r")
			audit off
			off=$(run "$s" "off$fsync$s$r")
			ratios="$ratios $(awk -v a="$on" -v b="$off" 'BEGIN{printf "%.3f", a/b}')"
			qratios="$qratios $(awk -v a="$quiet" -v b="$off" 'BEGIN{printf "%.3f", a/b}')"
			on_all="$on_all $on"
			quiet_all="$quiet_all $quiet"
			off_all="$off_all $off"
		done
		audit on
		printf '%-8s %9.0f %9.0f %9.0f %8.3f %8.3f  %s\n' "$s" "$(echo $on_all | tr ' ' '\n' | median)" \
			"$(echo $quiet_all | tr ' ' '\n' | median)" "$(echo $off_all | tr ' ' '\n' | median)" \
			"$(echo $ratios | tr ' ' '\n' | median)" "$(echo $qratios | tr ' ' '\n' | median)" "$ratios"
	done
done
echo
echo "# audit rows written: $(bpsql -c 'SELECT count(*) FROM registry.audit')"
