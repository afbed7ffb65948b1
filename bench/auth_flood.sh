#!/usr/bin/env bash
# bench/auth_flood.sh: another client's GET /schemas/ids/{id} latency while
# wrong passwords flood the REST API (registry.http_auth = basic, one
# worker, SCRAM verifiers), against the same client without the flood,
# measured in the same run.  The client (bench/auth_flood.c) sends one
# request every 2 ms on a keep-alive connection from 127.0.0.1 with the
# right password; the flood comes from 127.0.1.x (pg_hba.conf lets
# 127.0.0.0/8 in with scram-sha-256, so each wrong password is a SCRAM
# check unless the worker's throttle answers 429 first).
#
#   quiet        the client alone
#   flood-1      FLOOD_RATE wrong passwords a second from one peer
#                (127.0.1.1) on FLOOD_CONNS connections (each waits for
#                its answer: a request arriving behind them waits for as
#                many password checks as are queued, up to FLOOD_CONNS)
#   flood-many   the same rate from 500 peers, a connection moving to the
#                next address every 5 requests (what a per-peer throttle
#                alone would not stop)
# Each phase runs DURATION seconds, ROUNDS times; figures are medians over
# the rounds.  The issue's goal: the client's p99 under 50 ms during the
# flood (it was 519 ms at about 680 wrong passwords a second before the
# throttle).  Then the time of a refused login, median of SAMPLES each,
# from peers the throttle has not seen: a wrong SCRAM password, a wrong md5
# password and an unknown role (they should cost the same).
#
# Usage: bash bench/auth_flood.sh  (env: ROUNDS=3 DURATION=10 FLOOD_RATE=680 FLOOD_CONNS=64 SAMPLES=20)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/http_lib.sh"

ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-10}
FLOOD_RATE=${FLOOD_RATE:-680}
FLOOD_CONNS=${FLOOD_CONNS:-64}
SAMPLES=${SAMPLES:-20}

W=$(mktemp -d /tmp/registry-bench-auth.XXXXXX)
cleanup() {
	bench_cluster_stop
	rm -rf "$W"
}
trap cleanup EXIT
cc -O2 -Wall -o "$W/auth_flood" bench/auth_flood.c -lpthread

# until one worker runs and answers reader
auth_wait() {
	local i n
	for i in $(seq 100); do
		n=$(bpsql -c "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'registry http'" 2>/dev/null || echo 0)
		if [ "$n" = 1 ] && curl -sf -o /dev/null -u reader:reader-pw "http://127.0.0.1:$HTTP_PORT/config"; then
			return 0
		fi
		sleep 0.1
	done
	echo "HTTP API not answering reader on port $HTTP_PORT" >&2
	tail -20 "$BENCH_DIR/server.log" >&2
	exit 1
}

# a new worker: no peer known, the whole allowance of all peers
new_worker() {
	bpsql -c "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE backend_type = 'registry http'" >/dev/null
	sleep 1
	auth_wait
}

http_cluster_start 1
trap cleanup EXIT	# bench_cluster_start set its own
bench_machine
as_cluster_user bash -c "printf 'local all all trust\nhost all all 127.0.0.0/8 scram-sha-256\nhost all all ::1/128 scram-sha-256\n' > '$BENCH_DIR/data/pg_hba.conf'"
bpsql >/dev/null <<'SQL'
CREATE ROLE reader LOGIN PASSWORD 'reader-pw' IN ROLE registry_reader;
SET password_encryption = 'md5';
CREATE ROLE md5user LOGIN PASSWORD 'md5-pw' IN ROLE registry_reader;
RESET password_encryption;
SELECT pg_reload_conf();
SQL
sleep 1
id=$(curl -sf -H 'Content-Type: application/vnd.schemaregistry.v1+json' \
	--data '{"schema":"{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"}]}"}' \
	"http://127.0.0.1:$HTTP_PORT/subjects/flood-value/versions" | sed -n 's/.*"id":\([0-9]*\).*/\1/p')
[ -n "$id" ] || { echo "could not register a schema" >&2; exit 1; }
bpsql -c "ALTER SYSTEM SET registry.http_auth = basic" -c "SELECT pg_reload_conf()" >/dev/null
for i in $(seq 50); do
	[ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$HTTP_PORT/config")" = 401 ] && break
	sleep 0.1
done
auth_wait
good=$(printf 'reader:reader-pw' | base64)
bad=$(printf 'reader:not-the-password' | base64)
echo "# GET /schemas/ids/$id every 2 ms as reader (SCRAM); flood: $FLOOD_RATE wrong passwords/s on $FLOOD_CONNS connections; $DURATION s a phase, $ROUNDS rounds"

# run PHASE FLOOD_CONNS FLOOD_ADDRS: one measured phase, its RESULT line
run() {
	local conns=$2 addrs=$3
	"$W/auth_flood" "$HTTP_PORT" "$DURATION" "/schemas/ids/$id" "$good" "$bad" \
		"$conns" "$FLOOD_RATE" "$addrs" | sed -n "s/^RESULT /$1 /p"
}

: >"$W/results"
for r in $(seq "$ROUNDS"); do
	run quiet 0 1 >>"$W/results"
	run flood-1 "$FLOOD_CONNS" 1 >>"$W/results"
	new_worker
	run flood-many "$FLOOD_CONNS" 500 >>"$W/results"
	new_worker
done

median() { sort -n | awk '{a[NR]=$1} END {if (NR == 0) print "nan"; else if (NR % 2) print a[(NR+1)/2]; else printf "%.2f\n", (a[NR/2]+a[NR/2+1])/2}'; }
col() { awk -v p="$1" -v c="$2" '$1 == p {print $c}' "$W/results" | median; }

printf '%-11s %8s %9s %9s %9s %10s %8s %8s\n' phase answers p50_ms p99_ms non200 flood_ans 401 429
for p in quiet flood-1 flood-many; do
	printf '%-11s %8s %9s %9s %9s %10s %8s %8s\n' "$p" "$(col $p 2)" "$(col $p 3)" "$(col $p 4)" \
		"$(col $p 5)" "$(col $p 6)" "$(col $p 7)" "$(col $p 8)"
done
q99=$(col quiet 4)
for p in flood-1 flood-many; do
	f99=$(col $p 4)
	awk -v p="$p" -v q="$q99" -v f="$f99" 'BEGIN {
		printf "%s: p99 %.2f ms against %.2f ms quiet: ratio %.2f; goal p99 < 50 ms: %s\n",
			p, f, q, (q > 0 ? f / q : 0), (f < 50 ? "met" : "NOT met") }'
done

# the time of a refused login, each from a peer of its own (127.0.3.x),
# paced under the throttle's allowance of all peers (20 a second)
: >"$W/times"
for i in $(seq "$SAMPLES"); do
	for kind in scram md5 unknown; do
		case $kind in
			scram) cred=reader:wrong-$i ;;
			md5) cred=md5user:wrong-$i ;;
			unknown) cred=ghost-$i:wrong-$i ;;
		esac
		n=$(( (i * 3 + ${#kind}) % 250 + 1 ))
		t=$(curl -s -o /dev/null -w '%{http_code} %{time_total}' --interface "127.0.3.$n" \
			-u "$cred" "http://127.0.0.1:$HTTP_PORT/subjects")
		echo "$kind $t" >>"$W/times"
		sleep 0.1
	done
done
for kind in scram md5 unknown; do
	st=$(awk -v k=$kind '$1 == k {print $2}' "$W/times" | sort | uniq -c | awk '{printf "%s%s x%s", (NR > 1 ? "," : ""), $2, $1}')
	ms=$(awk -v k=$kind '$1 == k {print $3 * 1000}' "$W/times" | median)
	echo "refused login, $kind: median $ms ms (statuses: $st)"
done
