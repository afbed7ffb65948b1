#!/usr/bin/env bash
# bench/register_burst.sh: issue 13's registration measurement as the issue
# states it: 2,000 distinct Avro schemas registered over HTTP into 20
# subjects at level NONE by 4 keep-alive clients, against "a plain
# two-INSERT transaction run by pgbench with 4 clients on the same
# cluster", with fsync off (as `make run` sets it) and on.
#
#   two-ins   BEGIN; INSERT; INSERT; END; (the schema text into a plain
#             "schemas" table, a row into a plain "versions" table, the
#             tables of bench/register_tables.sql), pgbench's default
#             (simple) query protocol: the issue's baseline, read literally
#   two-prep  the same transaction with -M prepared
#   one-cte   bench/register_rate.sh's stricter baseline: both rows in one
#             statement (a data-modifying CTE), -M prepared
#   sql-reg   registry.register_schema into 20 subjects through pgbench
#             -M prepared (the registry without HTTP)
#   http      bench/burst_client.c (built here): CLIENTS threads, one
#             keep-alive connection each, REQUESTS / CLIENTS registrations
#             each (as pgbench -t), request k to subject k % 20, each a new
#             schema: the run lasts as long as its slowest connection
#   http-pool the same client taking requests from a shared counter, so all
#             connections stay busy to the end (as under pgbench -T or wrk
#             -d, the throughput the other bench scripts measure)
# Every run does REQUESTS transactions and is timed from its first request
# to its last answer; the HTTP rate counts 200 answers only, and a run with
# fewer than REQUESTS of them stops the script.  For each fsync setting the
# cluster runs with each number of HTTP workers in WORKERS (restarted in
# between), every run is warmed up first, and each round runs the six in
# an order rotated by one per round, sql-reg and http on fresh subjects;
# the figures are medians over ROUNDS rounds, with the cluster's CPU (utime +
# stime of all its processes, from /proc) per HTTP registration.  The schema is
# bench/register_rate.sh's 11-field record made distinct by its last
# optional field.  A "seed" subject of 2,000 versions is analyzed first
# (bench/register_setup.sql).  fsync is set with ALTER SYSTEM (a reload,
# then the workers' restart); synchronous_commit stays on.
#
# Usage: bash bench/register_burst.sh   (env: ROUNDS=5 REQUESTS=2000 CLIENTS=4 SUBJECTS=20 WORKERS="2 4" FSYNCS="off on")
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/http_lib.sh"

ROUNDS=${ROUNDS:-5}
REQUESTS=${REQUESTS:-2000}
CLIENTS=${CLIENTS:-4}
SUBJECTS=${SUBJECTS:-20}
WORKERS=${WORKERS:-2 4}
FSYNCS=${FSYNCS:-off on}
GOAL=0.5

[ $((REQUESTS % CLIENTS)) -eq 0 ] || { echo "REQUESTS must be a multiple of CLIENTS" >&2; exit 2; }
workers=${WORKERS%% *}
http_cluster_start "$workers" "synchronous_commit = on"
W=$(mktemp -d /tmp/registry-bench-burst.XXXXXX)
trap 'bench_cluster_stop; rm -rf "$W"' EXIT
bench_machine
cc -O2 -Wall -pthread -o "$W/burst_client" bench/burst_client.c
bpsql -f bench/register_setup.sql
echo "# $REQUESTS registrations per run, $CLIENTS clients, $SUBJECTS subjects at NONE, HTTP workers: $WORKERS, $ROUNDS rounds"

cp bench/baseline_two_insert.sql "$W/two-ins.sql"
cp bench/baseline_two_insert.sql "$W/two-prep.sql"
cp bench/baseline_cte.sql "$W/one-cte.sql"

# the HTTP body: {"schema": <the same text, JSON-escaped>}, made distinct by the client
http_register_body
printf '%s\n' "$BODY_PRE" >"$W/pre"
printf '%s\n' "$BODY_POST" >"$W/post"

# subjects PREFIX0 .. PREFIX<SUBJECTS-1> at level NONE
subjects_none() {
	bpsql -c "SELECT registry.set_compatibility('NONE', '$1' || k) FROM generate_series(0, $SUBJECTS - 1) k" >/dev/null
}

# NAME PHASE ROUND: pgbench, REQUESTS transactions in all (two-ins: the simple protocol)
pgb() {
	local out tps proto=prepared
	[ "$1" = two-ins ] && proto=simple
	[ "$1" = sql-reg ] && subjects_none "sql-reg-$2-$3-"
	out=$(pgbench -n -M "$proto" -c "$CLIENTS" -j "$CLIENTS" -t $((REQUESTS / CLIENTS)) \
		-D prefix="sql-reg-$2-$3-" -f "$W/$1.sql" 2>&1) || { echo "$out" >&2; exit 1; }
	[[ $out == *"number of failed transactions: 0 "* ]] || { echo "$out" >&2; exit 1; }
	tps=$(echo "$out" | sed -n 's/^tps = \([0-9.]*\) .*/\1/p')
	echo "$1 $2 $3 $tps 0 0" >>"$W/results"
}

cat >"$W/sql-reg.sql" <<PGB
\\set s random(0, $((SUBJECTS - 1)))
SELECT registry.register_schema(:prefix::text || :s, bench.reg_schema(nextval('bench.n')::text));
PGB

: >"$W/results"
: >"$W/cpu"
# NAME PHASE ROUND: one run of any of the six, with the cluster's CPU per transaction
run() {
	local t0
	t0=$(bench_cluster_ticks)
	case $1 in
	http | http-pool) http_run "$@" ;;
	*) pgb "$@" && bench_clients_gone ;;
	esac
	echo "$1 $2 $3 $((($(bench_cluster_ticks) - t0) * 1000000 / $(getconf CLK_TCK) / REQUESTS))" >>"$W/cpu"
}
# NAME PHASE ROUND: an HTTP run (http: REQUESTS / CLIENTS per connection; http-pool: a shared counter)
http_run() {
	local mode=quota
	[ "$1" = http-pool ] && mode=pool
	subjects_none "$1-$2-$3-"
	"$W/burst_client" "$HTTP_PORT" "$CLIENTS" "$REQUESTS" "$SUBJECTS" "$1-$2-$3-" "r$3_${2//-/_}_$mode" "$W/pre" "$W/post" $mode |
		awk -v n="$1" -v p="$2" -v r="$3" -v want="$REQUESTS" '/^RESULT/ {
			if ($2 < want) { print "only " $2 " of " want " registrations answered 200: " $0 > "/dev/stderr"; exit 1 }
			printf "%s %s %s %.1f %d %d\n", n, p, r, $2 / $3, $4, $5 }' >>"$W/results"
}
names=(two-ins two-prep one-cte sql-reg http http-pool)
for fs in $FSYNCS; do
	bpsql -c "ALTER SYSTEM SET fsync = $fs" -c "SELECT pg_reload_conf()" >/dev/null
	for w in $WORKERS; do
		[ "$w" = "$workers" ] || { http_set_workers "$w"; workers=$w; }
		sleep 1
		echo "# fsync = $(bpsql -c 'SHOW fsync'), synchronous_commit = $(bpsql -c 'SHOW synchronous_commit'), $w HTTP workers"
		phase="$fs-$w"
		for n in "${names[@]}"; do run "$n" "w$phase" 0 >/dev/null; done	# warm-up
		sed -i "/ w$phase 0 /d" "$W/results"
		for r in $(seq "$ROUNDS"); do
			for i in "${!names[@]}"; do
				run "${names[$(((i + r) % ${#names[@]}))]}" "$phase" "$r"
			done
		done
		echo "# fsync = $fs, $w workers done"
	done
done

echo
python3 - "$W/results" "$GOAL" "$W/cpu" <<'PY'
import sys, statistics as st
CPU = {}
for l in open(sys.argv[3]):
    name, phase, rnd, us = l.split()
    if rnd != "0":
        CPU.setdefault((phase, name), []).append(int(us))
R = {}
for l in open(sys.argv[1]):
    name, phase, rnd, tps, non200, sock = l.split()
    R.setdefault((phase, name), []).append((float(tps), int(non200), int(sock)))
goal = float(sys.argv[2])
names = ("two-ins", "two-prep", "one-cte", "sql-reg", "http", "http-pool")
http = {}
for phase in dict.fromkeys(k[0] for k in R):
    fs, w = phase.split("-")
    med = {n: st.median(x[0] for x in R[(phase, n)]) for n in names}
    http[(fs, w)] = med["http"]
    print("# fsync = %s, %s HTTP workers: per second, median of %d rounds" % (fs, w, len(R[(phase, "http")])))
    print("%-9s %9s %12s  %s" % ("run", "per_s", "x_two-ins", "per round"))
    for n in names:
        print("%-9s %9.0f %12.2f  [%s]" % (n, med[n], med[n] / med["two-ins"],
              " ".join("%.0f" % x[0] for x in R[(phase, n)])))
    bad = sum(x[1] + x[2] for h in ("http", "http-pool") for x in R[(phase, h)])
    print("http non-200 answers and socket errors: %d" % bad)
    for h in ("http", "http-pool"):
        for b in ("two-ins", "two-prep", "one-cte"):
            v = med[h] / med[b]
            print("%-9s / %-8s %.2fx  (goal >= %.1fx: %s)" % (h, b, v, goal, "met" if v >= goal and bad == 0 else "NOT MET"))
    print("http      / sql-reg  %.2fx" % (med["http"] / med["sql-reg"]))
    cpu = {n: st.median(CPU[(phase, n)]) for n in names}
    for h in ("http", "http-pool"):
        print("%-9s cluster CPU per registration: %d us (median; utime + stime of all its processes)"
              % (h, cpu[h]))
    for h in ("http", "http-pool"):
        print("%-9s cluster CPU: two-ins's per transaction (%d us) / its per registration  %.2fx"
              "  (the same ratio, freed of the clients' share of the CPUs)" % (h, cpu["two-ins"], cpu["two-ins"] / cpu[h]))
    print()
for fs in dict.fromkeys(k[0] for k in http):
    ws = [w for (f, w) in http if f == fs]
    for w in ws[1:]:
        print("fsync = %s: http with %s workers / with %s  %.2fx (same run)" % (fs, w, ws[0], http[(fs, w)] / http[(fs, ws[0])]))
PY
got=$(bpsql -c "SELECT count(*) FROM registry.subject_versions WHERE subject LIKE 'http-%'")
want=$((2 * $(echo $FSYNCS | wc -w) * $(echo $WORKERS | wc -w) * (ROUNDS + 1) * REQUESTS))
echo "# versions registered over HTTP: $got (expected $want, warm-ups included)"
[ "$got" -eq "$want" ] || { echo "registered versions missing" >&2; exit 1; }
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
