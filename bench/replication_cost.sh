#!/usr/bin/env bash
# bench/replication_cost.sh: what synchronous streaming replication costs a
# registration, against asynchronous replication measured in the same run.
#
# A primary (fsync = on, synchronous_commit = on, as `make run` sets it,
# with the registry preloaded and created) and a hot standby made from it
# with `pg_basebackup -R -X stream` and a replication slot, streaming over
# TCP on 127.0.0.1; both on this machine and its one disk, both with their
# HTTP workers.  The primary runs in one mode at a time, switched with ALTER
# SYSTEM and a reload (pg_stat_replication.sync_state is waited for):
#
#   async         synchronous_standby_names = '' (a commit waits for the
#                 primary's own WAL flush only)
#   sync          synchronous_standby_names = '*', synchronous_commit = on
#                 (a commit also waits for the standby to flush it)
#   remote_write  '*', synchronous_commit = remote_write (the standby has
#                 written it, not flushed)
#   remote_apply  '*', synchronous_commit = remote_apply (the standby has
#                 replayed it: a read there sees it)
#
# The load, each a new schema per transaction (bench/register_rate.sh's
# ~770-byte record made distinct by an optional field x<n>, n from a
# sequence), each client on its own subject, compatibility LEVEL:
#
#   sql-cN   pgbench -M prepared -cN -jN over the primary's Unix socket:
#            SELECT registry.register_schema('<run>-<client>', <schema>)
#            for each N in CLIENTS
#   http-cK  wrk -tK -cK (one keep-alive connection per thread): POST
#            /subjects/http-<run>-<thread>/versions (HTTP=1, the default)
#   peak-cP  sql-cP in async mode only, once a round, PEAK_CLIENTS=P (16)
#            clients: more commits share each WAL flush, so the highest
#            rate a primary reaches comes with many clients (PEAK_CLIENTS=0:
#            none)
#   mix-c1   one pgbench client, synchronous_standby_names = '*', each
#            transaction in a mode drawn at random: a script per mode sets
#            synchronous_commit (local for async) with set_config() in a
#            transaction of its own, which waits for nothing, then
#            registers (MIX=1, the default; 2 x DURATION seconds a round).
#            The modes then share the same moments of the machine, so their
#            latencies compare even when the machine's load moves within a
#            run; its reg/s is 1000 / the mode's mean latency in ms, what
#            one client would reach at that latency.
#
# Each round runs every load in every mode, DURATION seconds each; for each
# load the modes alternate, their order rotated by one each round, so that
# every mode sees the same machine.  Before each run the standby has
# replayed everything.  It prints per load and mode the medians over ROUNDS
# of the registrations/s, of the per-transaction latency (pgbench -l: median
# and p99; wrk: its p50), the WAL per registration and, sampled at
# mid-run, the standby's replay lag and the backends waiting on SyncRep;
# then each mode against async (ratio of the medians, and the median of the
# rounds' own ratios); and the highest registration rate reached (a run's
# mean and the best 1-second interval of pgbench -P 1), with the ids per
# minute it hands out: how many ids a primary can give out per minute of
# replication lag.
#
# Usage: bash bench/replication_cost.sh
#   env: ROUNDS=3 DURATION=6 CLIENTS="1 4" MODES="async sync remote_apply"
#        HTTP=1 HTTP_CLIENTS=4 PEAK_CLIENTS=16 MIX=1 LEVEL=NONE
set -euo pipefail
. "$(dirname "$0")/lib.sh"

ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-6}
CLIENTS=${CLIENTS:-1 4}
MODES=${MODES:-async sync remote_apply}
HTTP=${HTTP:-1}
HTTP_CLIENTS=${HTTP_CLIENTS:-4}
MIX=${MIX:-1}
PEAK_CLIENTS=${PEAK_CLIENTS:-16}
LEVEL=${LEVEL:-NONE}

for m in $MODES; do
	case $m in async | sync | remote_write | remote_apply) ;;
	*) echo "unknown mode $m (async, sync, remote_write, remote_apply)" >&2; exit 2 ;;
	esac
done
[[ " $MODES " == *" async "* ]] || { echo "MODES must include async (the baseline)" >&2; exit 2; }

primary_conf="fsync = on
synchronous_commit = on
wal_level = replica
max_wal_senders = 4
max_replication_slots = 4"
if [ "$HTTP" = 1 ]; then
	. "$(dirname "$0")/http_lib.sh"
	http_cluster_start 2 "$primary_conf"
else
	bench_cluster_start "$primary_conf
registry.http_port = 0"
fi

# the standby: a base backup of the primary, its own port, socket and HTTP port
SDIR=$(mktemp -d /tmp/registry-bench-standby.XXXXXX)
W=$(mktemp -d /tmp/registry-bench-repl.XXXXXX)
standby_stop() {
	if [ -n "${SDIR:-}" ]; then
		cluster_stop "$SDIR"
		rm -rf "$SDIR"
		SDIR=
	fi
}
trap 'standby_stop; bench_cluster_stop; rm -rf "$W"' EXIT
[ "$(id -u)" -eq 0 ] && chown postgres: "$SDIR"
SPORT=$(bench_free_port)
SHTTP=0
[ "$HTTP" = 1 ] && SHTTP=$(bench_free_port)
as_cluster_user "$PGBIN/pg_basebackup" -h 127.0.0.1 -p "$BENCH_PORT" -U "$CLUSTER_USER" \
	-D "$SDIR/data" -R -X stream -C -S registry_bench -c fast >"$SDIR/basebackup.log" 2>&1 ||
	{ cat "$SDIR/basebackup.log" >&2; exit 1; }
as_cluster_user bash -c "cat >> '$SDIR/data/postgresql.conf'" <<CONF
# the standby's own
port = $SPORT
unix_socket_directories = '$SDIR'
hot_standby = on
registry.http_port = $SHTTP
registry.http_listen_addresses = 'localhost'
CONF
cluster_start "$SDIR" "$SPORT" || exit 1
spsql() { bpsql -h "$SDIR" -p "$SPORT" "$@"; }

# until the primary's walsender streams to the standby in sync_state $1
wait_state() {
	local i s
	for i in $(seq 200); do
		s=$(bpsql -c "SELECT state || ' ' || sync_state FROM pg_stat_replication" 2>/dev/null || true)
		[ "$s" = "streaming $1" ] && return 0
		sleep 0.05
	done
	echo "the standby is not streaming in state '$1' (pg_stat_replication: '$s')" >&2
	tail -20 "$SDIR/server.log" >&2
	exit 1
}
# until the standby has replayed all the primary's WAL so far
wait_caught_up() {
	local i lsn
	lsn=$(bpsql -c "SELECT pg_current_wal_lsn()")
	for i in $(seq 600); do
		[ "$(spsql -c "SELECT pg_last_wal_replay_lsn() >= '$lsn'" 2>/dev/null)" = t ] && return 0
		sleep 0.05
	done
	echo "the standby did not replay up to $lsn in 30 s" >&2
	exit 1
}
# set_mode MODE: the primary's synchronous_standby_names and synchronous_commit
set_mode() {
	local names='*' sc=on state=sync i
	case $1 in
	async) names= state=async ;;
	remote_write) sc=remote_write ;;
	remote_apply) sc=remote_apply ;;
	esac
	bpsql -c "ALTER SYSTEM SET synchronous_standby_names = '$names'" \
		-c "ALTER SYSTEM SET synchronous_commit = '$sc'" -c "SELECT pg_reload_conf()" >/dev/null
	wait_state "$state"
	for i in $(seq 100); do
		[ "$(bpsql -c 'SHOW synchronous_commit')" = "$sc" ] && break
		sleep 0.05
	done
	# the HTTP workers read the file at their next wake-up
	sleep 0.3
}

wait_state async
bench_machine
echo "# primary: fsync = $(bpsql -c 'SHOW fsync'), synchronous_commit = $(bpsql -c 'SHOW synchronous_commit'); standby: fsync = $(spsql -c 'SHOW fsync'), in recovery = $(spsql -c 'SELECT pg_is_in_recovery()'), streaming over $(bpsql -c 'SELECT client_addr FROM pg_stat_replication') (slot $(bpsql -c 'SELECT slot_name FROM pg_replication_slots'))"
echo "# registry.so loaded by both: installed $(date -u -r "$(pg_config --pkglibdir)/registry.so" '+%Y-%m-%d %H:%M:%S UTC'), md5 $(md5sum "$(pg_config --pkglibdir)/registry.so" | cut -c1-12) (make install of another checkout replaces it)"
echo "# modes: $MODES; SQL clients: $CLIENTS$([ "$HTTP" = 1 ] && echo "; HTTP connections: $HTTP_CLIENTS (2 HTTP workers)"); ${DURATION}s per run, $ROUNDS rounds, level $LEVEL"

bpsql -f bench/register_setup.sql
bpsql -c "SELECT registry.set_compatibility('$LEVEL')" >/dev/null
echo "# schema text: $(bpsql -c "SELECT length(bench.reg_schema('123456'))") bytes"
cat >"$W/reg.sql" <<'PGB'
SELECT registry.register_schema(:tag || '-' || :client_id, bench.reg_schema(nextval('bench.n')::text));
PGB
for m in $MODES; do
	sc=$m
	case $m in async) sc=local ;; sync) sc=on ;; esac
	{
		echo "SELECT set_config('synchronous_commit', '$sc', false);"
		cat "$W/reg.sql"
	} >"$W/mix-$m.sql"
done
if [ "$HTTP" = 1 ]; then
	http_register_body
	{
		wrk_lua_thread_numbers
		cat <<LUA
local pre = [==[$BODY_PRE]==]
local post = [==[$BODY_POST]==]
local headers = { ["Content-Type"] = "application/vnd.schemaregistry.v1+json" }
function init(args)
	tag = args[1] or "t"
	cnt = 0
end
function request()
	cnt = cnt + 1
	return wrk.format("POST", "/subjects/http-" .. tag .. "-" .. tid .. "/versions", headers,
		pre .. tag .. "_" .. tid .. "_" .. cnt .. post)
end
function done(summary, latency, requests)
	local e = summary.errors
	io.write(string.format("RESULT %d %d %.1f %.1f %d %d\n", summary.requests, summary.duration,
		latency:percentile(50), latency:percentile(99), e.status,
		e.connect + e.read + e.write + e.timeout))
end
LUA
	} >"$W/reg.lua"
	curl -sf -H 'Content-Type: application/vnd.schemaregistry.v1+json' \
		--data "${BODY_PRE}probe${BODY_POST}" "http://127.0.0.1:$HTTP_PORT/subjects/http-probe/versions" >/dev/null ||
		{ echo "probe registration over HTTP failed" >&2; exit 1; }
fi

# sample LOAD MODE ROUND: at mid-run, the standby's lag and the SyncRep waiters
sample() {
	sleep "$(awk -v d="$DURATION" 'BEGIN{print d / 2}')"
	bpsql -F ' ' -c "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn)::bigint,
		coalesce(round(extract(epoch FROM replay_lag) * 1000, 2), 0),
		(SELECT count(*) FROM pg_stat_activity WHERE wait_event = 'SyncRep')
		FROM pg_stat_replication" >"$W/sample" 2>/dev/null || echo "0 0 0" >"$W/sample"
}
wal_lsn() { bpsql -c "SELECT pg_current_wal_lsn()"; }
wal_bytes() { bpsql -c "SELECT pg_wal_lsn_diff('$2', '$1')::bigint"; }

# sqlrun CLIENTS MODE ROUND TAG: one pgbench run, a line of $W/results
sqlrun() {
	local c=$1 out lsn0 lsn1 n pk
	rm -f "$W"/log.*
	lsn0=$(wal_lsn)
	sample &
	out=$(cd "$W" && timeout $((DURATION + 60)) pgbench -n -M prepared -c "$c" -j "$c" -T "$DURATION" -P 1 \
		-l --log-prefix=log -D tag="$4" -f "$W/reg.sql" 2>"$W/prog") ||
		{ cat "$W/prog" >&2; echo "$out" >&2; exit 1; }
	wait
	lsn1=$(wal_lsn)
	[[ $out == *"number of failed transactions: 0 "* ]] || { echo "$out" >&2; exit 1; }
	n=$(echo "$out" | sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p')
	# per-transaction latencies (us, 3rd field of pgbench -l) -> median and p99 in ms
	read -r med p99 < <(cat "$W"/log.* | awk '{print $3}' | sort -n |
		awk '{a[NR] = $1} END {printf "%.3f %.3f\n", a[int((NR + 1) / 2)] / 1000, a[int(NR * 0.99 + 0.5)] / 1000}')
	pk=$(sed -n 's/^progress: [0-9.]* s, \([0-9.]*\) tps.*/\1/p' "$W/prog" | sort -g | tail -1)
	echo "sql-c$c $2 $3 $(echo "$out" | sed -n 's/^tps = \([0-9.]*\) .*/\1/p') $med $p99 ${pk:--} \
$(($(wal_bytes "$lsn0" "$lsn1") / (n > 0 ? n : 1))) $(cat "$W/sample")" >>"$W/results"
}
# mixrun ROUND TAG: one pgbench client, the modes' scripts drawn at random
mixrun() {
	local out lsn0 lsn1 n i=0 m f=()
	for m in $MODES; do f+=(-f "$W/mix-$m.sql"); done
	rm -f "$W"/log.*
	lsn0=$(wal_lsn)
	sample &
	out=$(cd "$W" && timeout $((2 * DURATION + 60)) pgbench -n -M prepared -c 1 -j 1 -T $((2 * DURATION)) \
		-l --log-prefix=log -D tag="$2" "${f[@]}" 2>&1) || { echo "$out" >&2; exit 1; }
	wait
	lsn1=$(wal_lsn)
	[[ $out == *"number of failed transactions: 0 "* ]] || { echo "$out" >&2; exit 1; }
	n=$(echo "$out" | sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p')
	for m in $MODES; do
		# this mode's latencies (3rd field of pgbench -l, us; 4th the script's number)
		read -r rate med p99 < <(cat "$W"/log.* | awk -v k=$i '$4 == k {print $3}' | sort -n |
			awk '{a[NR] = $1; s += $1} END {printf "%.1f %.3f %.3f\n", 1e6 * NR / s, a[int((NR + 1) / 2)] / 1000, a[int(NR * 0.99 + 0.5)] / 1000}')
		echo "mix-c1 $m $1 $rate $med $p99 - $(($(wal_bytes "$lsn0" "$lsn1") / (n > 0 ? n : 1))) $(cat "$W/sample")" >>"$W/results"
		i=$((i + 1))
	done
}
# httprun MODE ROUND TAG
httprun() {
	local out lsn0 lsn1
	lsn0=$(wal_lsn)
	sample &
	out=$(timeout $((DURATION + 60)) wrk -t"$HTTP_CLIENTS" -c"$HTTP_CLIENTS" -d"$DURATION"s -s "$W/reg.lua" \
		"http://127.0.0.1:$HTTP_PORT/" -- "$3") || { echo "$out" >&2; exit 1; }
	wait
	lsn1=$(wal_lsn)
	read -r n us p50 p99 non2xx sockerr < <(echo "$out" | awk '/^RESULT/ {print $2, $3, $4, $5, $6, $7}')
	[ "$non2xx" = 0 ] && [ "$sockerr" = 0 ] || { echo "wrk: $non2xx non-2xx answers, $sockerr socket errors" >&2; echo "$out" >&2; exit 1; }
	echo "http-c$HTTP_CLIENTS $1 $2 $(awk -v n="$n" -v us="$us" 'BEGIN{printf "%.1f", n / (us / 1e6)}') \
$(awk -v x="$p50" 'BEGIN{printf "%.3f", x / 1000}') $(awk -v x="$p99" 'BEGIN{printf "%.3f", x / 1000}') - \
$(($(wal_bytes "$lsn0" "$lsn1") / (n > 0 ? n : 1))) $(cat "$W/sample")" >>"$W/results"
}
# run LOAD MODE ROUND
run() {
	set_mode "$2"
	wait_caught_up
	case $1 in
	sql-c*) sqlrun "${1#sql-c}" "$2" "$3" "r$3-$2-$1" ;;
	http-c*) httprun "$2" "$3" "r$3_$2" ;;
	mix-c1) mixrun "$3" "r$3-mix" ;;
	peak-c*) sqlrun "${1#peak-c}" "$2" "$3" "r$3-$2-$1"; sed -i '$s/^sql-/peak-/' "$W/results" ;;
	esac
}

LOADS=
for c in $CLIENTS; do LOADS="$LOADS sql-c$c"; done
[ "$HTTP" = 1 ] && LOADS="$LOADS http-c$HTTP_CLIENTS"
[ "$MIX" = 1 ] && LOADS="$LOADS mix-c1"
[ "$PEAK_CLIENTS" -gt 0 ] && LOADS="$LOADS peak-c$PEAK_CLIENTS"
read -ra M <<<"$MODES"

echo "# warm-up (2 s of each load in each mode, not reported)"
: >"$W/results"
keep=$DURATION
DURATION=2
for l in $LOADS; do
	if [ "$l" = mix-c1 ]; then run "$l" sync 0; elif [[ $l == peak-* ]]; then run "$l" async 0; else for m in "${M[@]}"; do run "$l" "$m" 0; done; fi
done
DURATION=$keep
: >"$W/results"
t0=$(date +%s)
for r in $(seq "$ROUNDS"); do
	for l in $LOADS; do
		# the mixed run once a round, with synchronous_standby_names = '*'
		[ "$l" = mix-c1 ] && { run "$l" sync "$r"; continue; }
		[[ $l == peak-* ]] && { run "$l" async "$r"; continue; }
		for i in $(seq 0 $((${#M[@]} - 1))); do
			run "$l" "${M[$(((i + r - 1) % ${#M[@]}))]}" "$r"
		done
	done
	echo "# round $r done ($(($(date +%s) - t0)) s)"
done
set_mode async

echo
python3 - "$W/results" "$MODES" "$LOADS" <<'PY'
import sys, statistics as st
modes, loads = sys.argv[2].split(), sys.argv[3].split()
R = {}
for l in open(sys.argv[1]):
    load, mode, rnd, tps, med, p99, peak, walb, lagb, lagms, waiters = l.split()
    R.setdefault((load, mode), {})[int(rnd)] = dict(tps=float(tps), med=float(med), p99=float(p99),
        peak=None if peak == "-" else float(peak), wal=int(walb), lagb=int(lagb), lagms=float(lagms), w=int(waiters))
med = lambda xs: st.median(xs) if xs else float("nan")
print("# medians over %d rounds; latency: pgbench -l per transaction (median, p99) / wrk (p50, p99), ms;"
      % len(next(iter(R.values()))))
print("# lag: the standby's replay lag sampled at mid-run (bytes of WAL behind, ms); syncrep: backends waiting on SyncRep then")
if any(l.startswith("mix") for l in loads):
    print("# mix-c1: the modes drawn per transaction in one run; its reg/s is 1000 / the mode's mean latency (ms)")
print("%-8s %-13s %9s %8s %8s %9s %9s %7s %7s  %s" % ("load", "mode", "reg/s", "lat_med", "lat_p99",
      "WAL/reg", "lag_B", "lag_ms", "syncrep", "reg/s per round"))
for load in loads:
    for mode in modes:
        if (load, mode) not in R:
            continue
        v = R[(load, mode)]
        rs = sorted(v)
        print("%-8s %-13s %9.0f %8.3f %8.3f %9.0f %9.0f %7.2f %7.0f  [%s]" % (load, mode,
              med([v[r]["tps"] for r in rs]), med([v[r]["med"] for r in rs]), med([v[r]["p99"] for r in rs]),
              med([v[r]["wal"] for r in rs]), med([v[r]["lagb"] for r in rs]), med([v[r]["lagms"] for r in rs]),
              med([v[r]["w"] for r in rs]), " ".join("%.0f" % v[r]["tps"] for r in rs)))
print()
print("# each mode against async, same load: the median of the rounds' own ratios [each round's], the ratio of the medians;")
print("# the added median latency (median of the rounds' own differences)")
for load in loads:
    a = R[(load, "async")]
    for mode in modes:
        if mode == "async" or (load, mode) not in R:
            continue
        v = R[(load, mode)]
        rs = sorted(set(v) & set(a))
        ratio = med([v[r]["tps"] for r in rs]) / med([a[r]["tps"] for r in rs])
        own = [v[r]["tps"] / a[r]["tps"] for r in rs]
        dlat = med([v[r]["med"] - a[r]["med"] for r in rs])
        print("%-8s %-13s / async  %.2fx [%s]  ratio of medians %.2fx   latency %+.3f ms" % (load, mode, med(own),
              " ".join("%.2f" % x for x in own), ratio, dlat))
print()
best = max(((x["tps"], load, mode, r) for (load, mode), v in R.items() for r, x in v.items() if not load.startswith("mix")))
peak = max(((x["peak"], load, mode, r) for (load, mode), v in R.items() for r, x in v.items() if x["peak"] is not None),
           default=None)
print("peak registration rate: %.0f/s over a whole run (%s, %s, round %d): %.0f ids per minute"
      % (best[0], best[1], best[2], best[3], best[0] * 60))
if peak:
    print("peak 1-second interval: %.0f/s (%s, %s, round %d): %.0f ids per minute"
          % (peak[0], peak[1], peak[2], peak[3], peak[0] * 60))
lag = max(((x["lagms"], x["lagb"], load, r) for (load, mode), v in R.items() for r, x in v.items()
           if mode == "async" and not load.startswith("mix")))
print("async: largest replay lag sampled at mid-run %.2f ms, %d bytes of WAL (%s, round %d)" % lag)
PY
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
