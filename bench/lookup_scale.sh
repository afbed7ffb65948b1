#!/usr/bin/env bash
# bench/lookup_scale.sh: the lookup (POST /subjects/{s} with the body of
# one of its versions) and GET /subjects/{s}/versions/latest at scale, with
# no answer cached, against pgbench -S over a table as big, in one run.
#
# One cluster (2 HTTP workers, SHARED_BUFFERS), SUBJECTS x 10 versions of
# scale.sh's small records (bench/scale_setup.sql, bulk SQL), and
# pgbench -i at scale SUBJECTS / 10,000 (1,000,000 pgbench_accounts rows
# for 100,000 subjects).  Then ROUNDS rounds of, DURATION seconds each
# after a 2 s warm-up, CLIENTS clients (lookup-nc between pgbench-S and
# pgbench-S-after, the same pgbench run again, then the others; the
# machine's speed drifts over minutes, and the bracketed ratio, lookup-nc
# against the mean of the two, is the one that drift moves least):
#   pgbench-S    pgbench -n -S -cCLIENTS -j2: the database's own point read
#                at that size, pgbench's default (simple) protocol, the
#                issue's yardstick (the baseline of x_pgbenchS)
#   pgbench-S-M  the same with -M prepared (no parse or plan per query)
#   pgbench-S-tcp  the simple protocol over TCP to 127.0.0.1, as the HTTP
#                clients connect (pgbench-S goes through the Unix socket):
#                for reading only, the baseline stays pgbench-S
#   latest-nc    GET /subjects/{random subject}/versions/latest?nc=<own>
#   lookup-nc    POST /subjects/{random subject}?nc=<own> with the
#                exact text of a random one of its versions (the text
#                clients registered; here the stored form): the exact-text
#                path, no parse
#   relook-nc    the same lookup with the text spaced out (a blank after
#                every comma): it canonicalises to the same version but
#                differs in bytes, so it is parsed (the path every lookup
#                took before the exact-text path)
#   lookup-nc-wrk  lookup-nc again, sent by wrk (lookup-nc-c under
#                CLIENT=wrk): the two clients side by side, and the figures
#                of the runs before the C client
# The HTTP client (CLIENT=c, the default) is bench/http_load.c, built here:
# CLIENTS keep-alive connections served by 2 threads (as pgbench -j2 and
# wrk -t2), each request written by one snprintf into its connection's
# buffer, the same requests wrk's Lua builds (bench/http_lib.sh,
# wrk_lua_subject_reads).  The client shares the 2 CPUs with the cluster,
# and wrk, building each request in Lua, spent 11-20 us of its own CPU per
# request where pgbench spends 5-7 us per transaction: the throughput ratio
# measured the load generators as much as the registry.  CLIENT=wrk sends
# latest-nc, lookup-nc and relook-nc with wrk, as before.  Before the
# rounds, the C client checks every answer of a second of each mode (a 200
# of the subject, version and text asked for).
# The query parameter ?nc=... is the request's own (the routes ignore it,
# the workers' caches of answers key by it), so no answer comes from a
# cache and the subjects are random over all of them.  Prints medians and
# each as a ratio of pgbench -S (goal: lookup-nc >= 0.8x), with the median
# of the rounds' own ratios, and the cluster's CPU per answer (utime +
# stime of all its processes over each timed run, from /proc) against
# pgbench's per transaction.  The clients' own CPU per answer (pgbench's,
# http_load's, wrk's: getrusage) is printed too, and the ratio
# of pgbench -S's cluster + client CPU to the run's, which is what the
# throughput ratio comes to when the 2 CPUs are the limit.
#
# PIN (a taskset CPU list, e.g. 1) runs every timed client, pgbench and the
# HTTP ones alike, on those CPUs only, the cluster still on all: the
# client and the server then meet the same way in every run.
#
# Usage: bash bench/lookup_scale.sh  (env: SUBJECTS=100000 ROUNDS=3 DURATION=10 CLIENTS=4 SHARED_BUFFERS=1GB CLIENT=c|wrk PIN=)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/http_lib.sh"

SUBJECTS=${SUBJECTS:-100000}
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-10}
CLIENTS=${CLIENTS:-4}
SHARED_BUFFERS=${SHARED_BUFFERS:-1GB}
BATCH=${BATCH:-50000}
CLIENT=${CLIENT:-c}
PIN=${PIN:-}
GOAL=0.8
case $CLIENT in
c) other=wrk ;;
wrk) other=c ;;
*) echo "CLIENT is c or wrk" >&2; exit 2 ;;
esac

W=$(mktemp -d /tmp/registry-bench-lookup.XXXXXX)
http_cluster_start 2 "shared_buffers = $SHARED_BUFFERS
synchronous_commit = off
full_page_writes = off
max_wal_size = 4GB
checkpoint_timeout = 30min"
trap 'bench_cluster_stop; rm -rf "$W"' EXIT
bench_machine
cc -O2 -Wall -pthread -o "$W/http_load" bench/http_load.c
total=$((SUBJECTS * 10))
echo "# $SUBJECTS subjects x 10 versions, $CLIENTS clients, 2 HTTP workers, ${DURATION}s per run"

bpsql -f bench/scale_setup.sql >/dev/null
t0=$(date +%s)
bpsql -c "CALL bench.build('s', 0, $total, $BATCH)"
scale=$(( (total + 99999) / 100000 ))
pgbench -i -q -s "$scale" >/dev/null 2>&1
bpsql -c "VACUUM ANALYZE" >/dev/null
echo "# built in $(($(date +%s) - t0)) s: $(bpsql -c "SELECT count(*) FROM registry.subject_versions") versions, $(bpsql -c "SELECT count(*) FROM pgbench_accounts") pgbench_accounts rows, database $(bpsql -c "SELECT pg_size_pretty(pg_database_size(current_database()))")"

# the text of (subject i, version v) is bench.schema_text(10 i + v - 1)
cat >"$W/lookup.lua" <<LUA
$(wrk_lua_thread_numbers)
$(wrk_lua_subject_reads "$SUBJECTS")
function done(summary, latency, requests)
	local e = summary.errors
	io.write(string.format("RESULT %d %d %.1f %d %d\n", summary.requests, summary.duration,
		latency:percentile(50), e.status, e.connect + e.read + e.write + e.timeout))
end
LUA

# both lookups answer the version asked for
url="http://127.0.0.1:$HTTP_PORT"
for sp in "" " "; do
	b=$(python3 -c 'import json,sys; t=sys.argv[1]; print(json.dumps({"schema": t.replace(",", ","+sys.argv[2]) if sys.argv[2] else t}))' \
		"$(bpsql -c "SELECT bench.schema_text(13)")" "$sp")
	curl -sf -H 'Content-Type: application/vnd.schemaregistry.v1+json' --data "$b" "$url/subjects/s1" |
		grep -q '"version":4' || { echo "the lookup${sp:+ of the spaced text} did not answer version 4 of s1" >&2; exit 1; }
done
# the C client's text (k at @K@), and a second of each of its modes with every answer checked
bpsql -c "SELECT replace(bench.schema_text(0), 'bench.n0\"', 'bench.n@K@\"')" >"$W/text"
for m in latest-nc lookup-nc relook-nc; do
	out=$("$W/http_load" "$HTTP_PORT" 2 "$CLIENTS" 1 0 "$SUBJECTS" "$m" "$W/text" check) &&
		echo "$out" | awk '/^RESULT/ && $2 > 0 && $5 == 0 && $6 == 0 {ok = 1} END {exit !ok}' ||
		{ echo "http_load's $m answers are not all right: $out" >&2; exit 1; }
	echo "# http_load $m checked: $(echo "$out" | awk '/^CHECK/ {print $2 " answers, " $3 " wrong"}')"
done

: >"$W/results"
# the cluster's CPU per answer in microseconds: TICKS_BEFORE ANSWERS
cpu_per() {
	awk -v t="$(($(bench_cluster_ticks) - $1))" -v hz="$(getconf CLK_TCK)" -v n="$2" \
		'BEGIN {printf "%.1f\n", (n > 0 ? t * 1e6 / hz / n : 0)}'
}
# run a client (on the CPUs PIN lists, when set), its CPU (user and
# system seconds) into $W/time: CMD ARGS...
timed() {
	local pin=()
	[ -n "$PIN" ] && pin=(taskset -c "$PIN")
	python3 -c 'import resource, subprocess, sys
rc = subprocess.run(sys.argv[2:]).returncode
u = resource.getrusage(resource.RUSAGE_CHILDREN)
open(sys.argv[1], "w").write("%f %f\n" % (u.ru_utime, u.ru_stime))
sys.exit(rc)' "$W/time" "${pin[@]}" "$@"
}
# the client's CPU per answer in microseconds, from $W/time: ANSWERS
client_cpu() {
	awk -v n="$1" '{printf "%.1f\n", (n > 0 ? ($1 + $2) * 1e6 / n : 0)}' "$W/time"
}
# pgbench -S in a protocol (simple, prepared or tcp) as NAME, round R
pgbench_run() {
	local how=(-M "$1") out n t0
	[ "$1" = tcp ] && how=(-M simple -h 127.0.0.1)
	pgbench -n -S "${how[@]}" -c "$CLIENTS" -j 2 -T 2 >/dev/null 2>&1
	t0=$(bench_cluster_ticks)
	out=$(timed pgbench -n -S "${how[@]}" -c "$CLIENTS" -j 2 -T "$DURATION" 2>&1) ||
		{ echo "$out" >&2; exit 1; }
	bench_clients_gone
	n=$(echo "$out" | sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p')
	echo "$2 $3 $(echo "$out" | sed -n 's/^tps = \([0-9.]*\) .*/\1/p') 0 0 0" \
		"$(cpu_per "$t0" "$n") $(client_cpu "$n")" >>"$W/results"
}
# the command line of CLIENT (c: http_load, or wrk) sending MODE for
# SECONDS, into the array cmd: CLIENT MODE SECONDS
http_cmd() {
	if [ "$1" = wrk ]; then
		cmd=(wrk -t2 -c"$CLIENTS" -d"$3"s -s "$W/lookup.lua" "$url/" -- "$2")
	else
		cmd=("$W/http_load" "$HTTP_PORT" 2 "$CLIENTS" "$3" 0 "$SUBJECTS" "$2" "$W/text")
	fi
}
# the HTTP load in MODE from CLIENT as NAME, round R: MODE R NAME CLIENT
http_run() {
	local out n t0 cmd
	http_cmd "$4" "$1" 2
	"${cmd[@]}" >/dev/null
	http_cmd "$4" "$1" "$DURATION"
	t0=$(bench_cluster_ticks)
	out=$(timed "${cmd[@]}")
	n=$(echo "$out" | awk '/^RESULT/ {print $2}')
	echo "$out" | awk -v m="$3" -v r="$2" '/^RESULT/ {printf "%s %s %.1f %.3f %d %d ", m, r, $2 / ($3 / 1e6), $4 / 1000, $5, $6}' >>"$W/results"
	echo "$(cpu_per "$t0" "$n") $(client_cpu "$n")" >>"$W/results"
}
# each round: lookup-nc between two runs of pgbench -S (the machine's
# speed drifts over minutes: the bracketed ratio sets it against both),
# the other client's lookup-nc just after them, then the other runs
for r in $(seq "$ROUNDS"); do
	pgbench_run simple pgbench-S "$r"
	http_run lookup-nc "$r" lookup-nc "$CLIENT"
	pgbench_run simple pgbench-S-after "$r"
	http_run lookup-nc "$r" "lookup-nc-$other" "$other"
	pgbench_run prepared pgbench-S-M "$r"
	pgbench_run tcp pgbench-S-tcp "$r"
	http_run latest-nc "$r" latest-nc "$CLIENT"
	http_run relook-nc "$r" relook-nc "$CLIENT"
	echo "# round $r done"
done

echo "# HTTP client: $([ "$CLIENT" = c ] && echo "bench/http_load.c" || echo wrk); lookup-nc-$other: $([ "$other" = c ] && echo "bench/http_load.c" || echo wrk)"
python3 - "$W/results" "$GOAL" "lookup-nc-$other" <<'PY'
import sys, statistics as st
R = {}
for l in open(sys.argv[1]):
    n, r, tps, lat, non2xx, sock, cpu, ccpu = l.split()
    R.setdefault(n, []).append((float(tps), float(lat), int(non2xx), int(sock), float(cpu), float(ccpu)))
goal = float(sys.argv[2])
other = sys.argv[3]
base = [x[0] for x in R["pgbench-S"]]
base_cpu = st.median(x[4] for x in R["pgbench-S"])
base_all = st.median(x[4] + x[5] for x in R["pgbench-S"])
print("# cpu_us: the cluster's CPU (all its processes, the HTTP workers and pgbench's backends) per answer;")
print("# x_cpu: pgbench -S's cpu_us / the run's, the throughput ratio freed of the clients' share of the 2 CPUs;")
print("# client_us: the client's own CPU (pgbench, http_load, wrk) per answer; x_all: pgbench -S's cpu_us + client_us / the run's")
print("%-15s %9s %11s %9s %8s %7s %8s %7s %6s %9s %6s  %s" % ("run", "per_s", "x_pgbenchS", "of_rounds", "p50_ms", "non2xx", "sockerr", "cpu_us", "x_cpu", "client_us", "x_all", "per round"))
for n in ("pgbench-S", "pgbench-S-after", "pgbench-S-M", "pgbench-S-tcp", "latest-nc", "lookup-nc", other, "relook-nc"):
    v = R[n]
    t = st.median(x[0] for x in v)
    own = st.median(x[0] / b for x, b in zip(v, base))
    c = st.median(x[4] for x in v)
    cc = st.median(x[5] for x in v)
    print("%-15s %9.0f %11.2f %9.2f %8.3f %7d %8d %7.1f %6.2f %9.1f %6.2f  [%s]" % (n, t, t / st.median(base), own,
          st.median(x[1] for x in v), sum(x[2] for x in v), sum(x[3] for x in v), c, base_cpu / c,
          cc, base_all / st.median(x[4] + x[5] for x in v), " ".join("%.0f" % x[0] for x in v)))
for b in ("pgbench-S", "pgbench-S-M", "pgbench-S-tcp"):
    t = st.median(x[0] for x in R["lookup-nc"]) / st.median(x[0] for x in R[b])
    c = st.median(x[4] for x in R[b]) / st.median(x[4] for x in R["lookup-nc"])
    print("lookup-nc / %-13s  %.2fx, cluster CPU %.2fx%s" % (b, t, c,
          "  (goal >= %.1fx: %s)" % (goal, "met" if t >= goal else "NOT MET") if b == "pgbench-S" else ""))
print("lookup-nc / relook-nc (exact text / parsed)  %.2fx" % (st.median(x[0] for x in R["lookup-nc"]) / st.median(x[0] for x in R["relook-nc"])))
# lookup-nc against the pgbench -S runs just before and just after it, per round
for n in ("lookup-nc", other):
    br = [l[0] / ((b[0] + a[0]) / 2) for l, b, a in zip(R[n], R["pgbench-S"], R["pgbench-S-after"])]
    print("%s / its round's pgbench -S before and after (mean)  median %.2fx  [%s]%s" % (
          n, st.median(br), " ".join("%.2f" % x for x in br),
          "  (goal >= %.1fx: %s)" % (goal, "met" if st.median(br) >= goal else "NOT MET") if n == "lookup-nc" else ""))
print("%s / lookup-nc  %.2fx, cluster CPU per answer %.2fx, client CPU per answer %.2fx" % (other,
      st.median(x[0] for x in R[other]) / st.median(x[0] for x in R["lookup-nc"]),
      st.median(x[4] for x in R[other]) / st.median(x[4] for x in R["lookup-nc"]),
      st.median(x[5] for x in R[other]) / st.median(x[5] for x in R["lookup-nc"])))
PY
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
