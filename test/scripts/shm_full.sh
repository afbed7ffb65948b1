#!/usr/bin/env bash
# A full /dev/shm does not take an HTTP worker down: a cluster whose
# /dev/shm is a 2 MB tmpfs of its own (a mount namespace: root only, as
# CI runs) gets more long requests than segments fit there.  Each request
# handed to the pool takes a dynamic shared memory segment of some 260 KB
# while it waits; with the pool's one worker held on a lock, a segment
# soon no longer fits, and that request must be answered 503 (as a full
# queue is) while the others are answered and the HTTP worker runs on:
# the same process, every connection answered.  The last line is
# "shm full: ok", "shm full: FAILED (...)" or "shm full: skipped (...)".
# Needs the extension installed; usage: shm_full.sh DIR PORT HTTP_PORT
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
. test/scripts/cluster.sh
DIR=$1
PORT=$2
HTTP=$3
REQUESTS=12
SHM_SIZE=2m

if [ "$(id -u)" -ne 0 ] || ! command -v unshare >/dev/null; then
	echo "shm full: skipped (a /dev/shm of its own needs root and unshare)"
	exit 0
fi
if ! unshare -m --propagation private sh -c "mount -t tmpfs -o size=$SHM_SIZE tmpfs /dev/shm" 2>/dev/null; then
	echo "shm full: skipped (this machine allows no mount namespace)"
	exit 0
fi
rm -rf "$DIR"
mkdir -p "$DIR"
chmod 755 "$DIR"
CONF="registry.http_port = $HTTP
registry.http_listen_addresses = '127.0.0.1'
registry.http_workers = 1
registry.http_pool_workers = 1
registry.http_lock_wait = 3000
max_parallel_workers_per_gather = 0"
# the cluster goes however the script ends (killed too)
trap 'cluster_stop "$DIR"; rm -rf "$DIR"' EXIT
trap 'exit 1' INT TERM
# initdb outside (its bootstrap takes a 1 MB segment), then the server in a
# mount namespace with a small /dev/shm of its own, which its processes keep
if ! { cluster_start "$DIR" "$PORT" "$CONF" && cluster_stop "$DIR" &&
	unshare -m --propagation private bash -c "mount -t tmpfs -o size=${SHM_SIZE},mode=1777 tmpfs /dev/shm &&
		. test/scripts/cluster.sh && cluster_start '$DIR' '$PORT'"; } >"$DIR.start.log" 2>&1; then
	cat "$DIR.start.log"
	cluster_stop "$DIR"
	rm -rf "$DIR" "$DIR.start.log"
	echo "shm full: FAILED (cluster start)"
	exit 0
fi
rm -f "$DIR.start.log"
export PGHOST=$DIR PGPORT=$PORT PGUSER=$CLUSTER_USER PGDATABASE=postgres
sq() { psql -qXAt -v ON_ERROR_STOP=1 -c "$1"; }
W=$(mktemp -d)
# the session that holds the lock ends (its client alone going would leave it sleeping)
unlock() {
	sq "SELECT pg_terminate_backend(pid) FROM pg_stat_activity
		WHERE query LIKE '%shm-full-locker%' AND pid <> pg_backend_pid()" >/dev/null 2>&1
}
finish() {
	unlock
	cluster_stop "$DIR"
	rm -rf "$DIR" "$W"
	echo "shm full: $1"
	exit 0
}

sq "CREATE EXTENSION registry" >/dev/null || finish "FAILED (CREATE EXTENSION)"
sq "SELECT registry.register_schema('shm-' || n, '\"string\"') FROM generate_series(1, 3) n" >/dev/null
for _ in $(seq 100); do
	curl -sf -o /dev/null --max-time 2 "http://127.0.0.1:$HTTP/schemas/types" && break
	sleep 0.1
done
worker=$(sq "SELECT pid FROM pg_stat_activity WHERE backend_type = 'registry http'")
[ -n "$worker" ] || finish "FAILED (no HTTP worker)"

# the pool's worker waits for this lock with the first listing; the others
# wait in the queue, each in its segment
psql -qXAt -c "BEGIN; LOCK registry.subject_versions IN ACCESS EXCLUSIVE MODE;
	SELECT pg_sleep(20) AS \"shm-full-locker\"" >/dev/null 2>&1 &
for _ in $(seq 200); do
	[ "$(sq "SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
		WHERE c.relname = 'subject_versions' AND l.mode = 'AccessExclusiveLock' AND l.granted")" = 1 ] && break
	sleep 0.025
done
for i in $(seq $REQUESTS); do
	curl -s -o "$W/body.$i" -w '%{http_code}' --max-time 30 \
		"http://127.0.0.1:$HTTP/schemas?limit=5&n=$i" >"$W/code.$i" &
	sleep 0.1
done
wait_codes() {
	for _ in $(seq 400); do
		[ "$(cat "$W"/code.* 2>/dev/null | wc -c)" -ge $((3 * REQUESTS)) ] && return
		sleep 0.1
	done
}
wait_codes
unlock
codes=$(for i in $(seq $REQUESTS); do cat "$W/code.$i"; echo; done | sort | uniq -c | tr -s ' \n' ' ')
echo "answers (count code): $codes"
after=$(sq "SELECT pid FROM pg_stat_activity WHERE backend_type = 'registry http'")
grep -q "could not resize shared memory segment" "$DIR/server.log" ||
	finish "FAILED (no segment failed to fit: the test did not fill /dev/shm)"
for i in $(seq $REQUESTS); do
	c=$(cat "$W/code.$i")
	case $c in
		503) grep -q '"error_code":503' "$W/body.$i" || finish "FAILED (request $i: 503 without Confluent's body)" ;;
		200 | 500) ;;
		*) finish "FAILED (request $i answered '$c': a connection the worker dropped)" ;;
	esac
done
echo "$codes" | grep -q ' 503' || finish "FAILED (no request answered 503)"
[ "$after" = "$worker" ] || finish "FAILED (the HTTP worker is another process: $worker, then $after)"
[ "$(curl -s --max-time 10 "http://127.0.0.1:$HTTP/schemas/types")" = '["AVRO","JSON","PROTOBUF"]' ] ||
	finish "FAILED (no answer after the pool emptied)"
finish ok
