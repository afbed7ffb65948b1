#!/usr/bin/env bash
# bench/scale.sh: does the registry slow down as it grows?  Two clusters
# side by side: "small" holds 1,000 versions (100 subjects x 10), "large"
# SUBJECTS x 10 versions (default 100,000 x 10 = 1,000,000), both built
# with bulk SQL (raw inserts, which the tables' triggers check and number as
# they do for the SQL API).  Then, in ROUNDS rounds that alternate between
# the two, so that both see the same machine:
#   - start-up: from `pg_ctl start` to the first answered GET
#     /subjects/{s}/versions/latest (polled every 5 ms);
#   - GET /subjects/{s}/versions/latest and lookup POST /subjects/{s} of a
#     random subject, and registration of a new schema into a random
#     subject, over HTTP with wrk (CLIENTS keep-alive connections, 2
#     workers), as requests per second: on the small cluster over its 100
#     subjects; on the large one over the same 100 ("large": the same
#     working set in a database 1,000 times as big) and over all of them
#     ("large-all": the workers' caches then seldom hold the answer);
#     and GET latest and lookup once more with a query parameter unique to
#     each request, so that no worker's cache of answers holds one
#     ("small-nc" and "large-all-nc": the catalog's path at both sizes);
#   - pgbench's read of a random subject's version 10 and its schema row by
#     SQL ("small-sql" over 100 subjects, "large-all-sql" over all): the
#     database's own point reads at both sizes, the yardstick for the -nc
#     ratios.
# SHARED_BUFFERS (default 1GB) is set on both clusters.
# Prints the large cluster's medians as ratios of the small one's (goal:
# >= 0.9, i.e. within 10%; start-up under a second), and large-all-nc as a
# ratio of small-nc; beside each, the median of the rounds' own ratios
# (the two clusters measured back to back, on one state of the machine).  Built at
# compatibility NONE and measured with fsync off: the CPU cost (durable
# commits are register_rate.sh's).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/http_lib.sh"

SUBJECTS=${SUBJECTS:-100000}
DURATION=${DURATION:-10}
CLIENTS=${CLIENTS:-4}
ROUNDS=${ROUNDS:-3}
BATCH=${BATCH:-50000}	# versions per bulk INSERT transaction
# the large data set is about 620 MB: with PostgreSQL's default 128 MB of
# shared buffers its indexes do not stay cached, which is the buffer
# cache's sizing, not the registry's; both clusters get the same setting
SHARED_BUFFERS=${SHARED_BUFFERS:-1GB}

W=$(mktemp -d /tmp/registry-bench-scale.XXXXXX)
chmod 755 "$W"
cleanup() {
	for c in small large; do cluster_stop "$W/$c"; done
	rm -rf "$W"
}
trap cleanup EXIT

# start_one NAME: a cluster in $W/NAME; sets PORT_NAME and HTTP_NAME
start_one() {
	local port http
	port=$(bench_free_port)
	http=$(bench_free_port)
	while [ "$http" = "$port" ]; do http=$(bench_free_port); done
	cluster_start "$W/$1" "$port" "registry.http_port = $http
registry.http_listen_addresses = 'localhost'
registry.http_workers = 2
shared_buffers = $SHARED_BUFFERS
synchronous_commit = off
full_page_writes = off
max_wal_size = 4GB
checkpoint_timeout = 30min" || exit 1
	eval "PORT_$1=$port HTTP_$1=$http"
}
# on NAME CMD...: run CMD with psql's environment pointing at cluster NAME
on() {
	local c=$1 p
	shift
	p=PORT_$c
	PGHOST=$W/$c PGPORT=${!p} PGUSER=$CLUSTER_USER PGDATABASE=postgres "$@"
}
url() { local h=HTTP_$1; echo "http://127.0.0.1:${!h}"; }

start_one small
start_one large
export PGHOST=$W/small PGPORT=$PORT_small PGUSER=$CLUSTER_USER PGDATABASE=postgres
bench_machine

for c in small large; do on "$c" bpsql -c "CREATE EXTENSION registry" -f bench/scale_setup.sql >/dev/null; done

# wrk scripts: MODE latest | lookup | register over subjects PREFIX0 ..
# PREFIX(N-1); the schema text of (subject i, version v) is
# schema_text(LO + 10 i + v - 1); NC 1: each request has a query
# parameter of its own (the routes ignore it; the answer caches key by it)
lua() {
	wrk_lua_thread_numbers
	cat <<LUA
local mode, prefix, nsub, lo, nc = "$1", "$2", $3, $4, ${5:-0}
function init(args)
	math.randomseed(tid * 7919 + os.time())
	counter = 0
end
local function schema(ns)
	return '{"schema":"{\\\\"type\\\\":\\\\"record\\\\",\\\\"name\\\\":\\\\"Event\\\\",\\\\"namespace\\\\":\\\\"bench.' .. ns ..
		'\\\\",\\\\"fields\\\\":[{\\\\"name\\\\":\\\\"id\\\\",\\\\"type\\\\":\\\\"long\\\\"},{\\\\"name\\\\":\\\\"kind\\\\",\\\\"type\\\\":\\\\"string\\\\"},' ..
		'{\\\\"name\\\\":\\\\"at\\\\",\\\\"type\\\\":{\\\\"type\\\\":\\\\"long\\\\",\\\\"logicalType\\\\":\\\\"timestamp-millis\\\\"}}]}"}'
end
function request()
	local i = math.random(nsub) - 1
	local headers = { ["Content-Type"] = "application/vnd.schemaregistry.v1+json" }
	local q = ""
	counter = counter + 1
	if nc == 1 then q = "?nc=" .. tid .. "x" .. counter end
	if mode == "latest" then
		return wrk.format("GET", "/subjects/" .. prefix .. i .. "/versions/latest" .. q)
	elseif mode == "lookup" then
		return wrk.format("POST", "/subjects/" .. prefix .. i .. q, headers, schema("n" .. (lo + 10 * i + math.random(10) - 1)))
	else
		return wrk.format("POST", "/subjects/" .. prefix .. i .. "/versions", headers,
			schema("new" .. tid .. "x" .. counter .. "x" .. math.random(1000000000)))
	end
end
function done(summary, latency, requests)
	local e = summary.errors
	io.write(string.format("RESULT %d %d %.1f %d\n", summary.requests, summary.duration,
		latency:percentile(50), e.status + e.connect + e.read + e.write + e.timeout))
end
LUA
}

# rate LABEL NAME MODE PREFIX NSUB LO [NC]: one wrk run on cluster NAME over
# subjects PREFIX0 .. PREFIX(NSUB-1), appended to $W/results as LABEL
rate() {
	lua "$3" "$4" "$5" "$6" "${7:-0}" >"$W/$1-$3.lua"
	wrk -t2 -c"$CLIENTS" -d2s -s "$W/$1-$3.lua" "$(url "$2")/" >/dev/null	# warm
	local out
	out=$(wrk -t2 -c"$CLIENTS" -d"$DURATION"s -s "$W/$1-$3.lua" "$(url "$2")/" | grep '^RESULT')
	echo "$1 $3 $out" >>"$W/results"
	echo "# $1 $3: $(echo "$out" | awk '{printf "%.0f req/s, p50 %.0f us, %d errors", $2 / ($3 / 1e6), $4, $5}')"
}

# sql_rate LABEL NAME NSUB: pgbench's point read of subject s<random> version 10
# with its schema row on cluster NAME, appended to $W/results as LABEL
sql_rate() {
	local out tps
	printf '%s\n' "\\set k random(0, $(($3 - 1)))" \
		"SELECT s.id, s.fingerprint FROM registry.subject_versions sv JOIN registry.schemas s ON s.context = sv.context AND s.id = sv.schema_id WHERE sv.context = '.' AND sv.subject = 's' || :k AND sv.version = 10;" \
		>"$W/$1.sql"
	out=$(on "$2" pgbench -n -M prepared -c "$CLIENTS" -j 2 -T "$DURATION" -f "$W/$1.sql" 2>&1) || { echo "$out" >&2; exit 1; }
	tps=$(echo "$out" | sed -n 's/^tps = \([0-9]*\).*/\1/p')
	echo "$1 read RESULT $tps 1000000 0 0" >>"$W/results"
	echo "# $1 read: $tps tps"
}

# workers_up NAME: until both HTTP workers of cluster NAME run
workers_up() {
	local i n
	for i in $(seq 100); do
		n=$(on "$1" bpsql -c "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'registry http'" 2>/dev/null || echo 0)
		[ "$n" = 2 ] && return 0
		sleep 0.1
	done
	echo "cluster $1: $n HTTP workers" >&2
	exit 1
}

# startup NAME SUBJECT: stop, then time pg_ctl start -> first 200 on GET latest
startup() {
	local d=$W/$1 t0 t1
	as_cluster_user "$PGBIN/pg_ctl" -D "$d/data" -m fast -w stop >/dev/null
	t0=$(date +%s%N)
	as_cluster_user "$PGBIN/pg_ctl" -D "$d/data" -l "$d/server.log" start >/dev/null
	until curl -sf -o /dev/null "$(url "$1")/subjects/$2/versions/latest"; do
		sleep 0.005
		if [ $(( ($(date +%s%N) - t0) / 1000000 )) -gt 60000 ]; then
			echo "cluster $1: no answer 60 s after pg_ctl start" >&2
			tail -5 "$d/server.log" >&2
			exit 1
		fi
	done
	t1=$(date +%s%N)
	echo "$1 startup RESULT $(( (t1 - t0) / 1000 )) 0 0 0" >>"$W/results"
	echo "# $1 start-up: pg_ctl start to the first answered GET: $(( (t1 - t0) / 1000000 )) ms"
	workers_up "$1"
}

: >"$W/results"
t0=$(date +%s)
on small bpsql -c "CALL bench.build('s', 0, 1000, $BATCH)"
total=$((SUBJECTS * 10))
echo "# building $total versions on the large cluster (bulk SQL, $BATCH per transaction) ..."
t1=$(date +%s)
on large bpsql -c "CALL bench.build('s', 0, $total, $BATCH)"
echo "# built in $(($(date +%s) - t1)) s ($(( total / ($(date +%s) - t1 + 1) )) versions/s)"
for c in small large; do
	on "$c" bpsql -c "VACUUM ANALYZE" >/dev/null
	echo "# $c: $(on "$c" bpsql -c "SELECT count(*) FROM registry.subject_versions") versions, $(on "$c" bpsql -c "SELECT count(*) FROM registry.subjects") subjects, database $(on "$c" bpsql -c "SELECT pg_size_pretty(pg_database_size(current_database()))")"
done
# "large" is the large cluster under the small one's requests (the same
# 100 subjects: the same working set, a database 1,000 times as big);
# "large-all" spreads them over every subject, so the workers' caches of
# subject reads and lookups seldom hold the answer
for r in $(seq "$ROUNDS"); do
	for c in small large; do startup "$c" s0; done
	for mode in latest lookup register; do
		rate small small "$mode" s 100 0
		rate large large "$mode" s 100 0
		rate large-all large "$mode" s "$SUBJECTS" 0
		[ "$mode" = register ] && continue
		rate small-nc small "$mode" s 100 0 1
		rate large-all-nc large "$mode" s "$SUBJECTS" 0 1
	done
	sql_rate small-sql small 100
	sql_rate large-all-sql large "$SUBJECTS"
	echo "# round $r done"
done

python3 - "$W/results" <<'PY'
import sys, statistics as st
R = {}
for line in open(sys.argv[1]):
    c, mode, _, a, b, *_ = line.split()
    # start-up: microseconds; a rate: requests over microseconds
    R.setdefault((c, mode), []).append(int(a) / 1000 if mode == "startup" else int(a) / (int(b) / 1e6))
m = lambda c, mode: st.median(R[(c, mode)])
# the median of the rounds' own ratios: each round measures both clusters
# back to back, so a ratio within a round sees one state of the machine
p = lambda a, b, mode: st.median(x / y for x, y in zip(R[(a, mode)], R[(b, mode)]))
print("# medians               small (1,000)   large   large-all    large / small (goal; of the rounds)   large-all / small")
s, l = m("small", "startup"), m("large", "startup")
print(f"  start-up (ms)         {s:12.0f} {l:7.0f}           -    {l / s:5.2f}x  (large < 1000 ms)")
for mode in ("latest", "lookup", "register"):
    s, l, a = m("small", mode), m("large", mode), m("large-all", mode)
    print(f"  {mode:<10} (req/s)   {s:12.0f} {l:7.0f} {a:11.0f}    {l / s:5.2f}x  (>= 0.90x; {p('large', 'small', mode):4.2f}x)   {a / s:5.2f}x")
print("# no answer cached (a query parameter per request): small-nc (1,000)   large-all-nc   large-all-nc / small-nc (goal; of the rounds)")
for mode in ("latest", "lookup"):
    s, a = m("small-nc", mode), m("large-all-nc", mode)
    print(f"  {mode:<10} (req/s)   {s:12.0f} {a:14.0f}    {a / s:5.2f}x  (>= 0.90x; {p('large-all-nc', 'small-nc', mode):4.2f}x)")
s, a = m("small-sql", "read"), m("large-all-sql", "read")
print(f"  SQL point read (tps)  {s:12.0f} {a:14.0f}    {a / s:5.2f}x  (pgbench: the database's own at both sizes; {p('large-all-sql', 'small-sql', 'read'):4.2f}x)")
PY
echo "# total run time $(($(date +%s) - t0)) s"
