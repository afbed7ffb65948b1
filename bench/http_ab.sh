#!/usr/bin/env bash
# bench/http_ab.sh: two builds of the extension's library side by side,
# for a change too small to see in a throughput run on a shared machine:
# the HTTP workers' CPU per answer of one build against the other's,
# measured at the same time, so that whatever else the machine does
# weighs on both alike.
#
# Two private copies of the PostgreSQL installation that pg_config names
# (its bin, lib and share trees), OLD_SO installed in one and NEW_SO in
# the other; one cluster built with SUBJECTS x 10 versions of scale.sh's
# small records (bench/scale_setup.sql), then copied, so the two hold the
# same data; each with 2 HTTP workers, served by its own installation.
# Each round runs the same wrk load (one thread, CLIENTS connections,
# DURATION seconds) against both at once and prints the CPU (utime +
# stime, /proc) of each side's HTTP workers per answer and the ratio
# new / old.  After ROUNDS rounds the builds change sides (each data
# directory is started by the other installation) and ROUNDS more run,
# so that a difference between the two clusters cancels out.  Prints the
# median ratio (below 1: the new build spends less per answer).
#
# MODE is bench/lookup_scale.sh's: lookup-nc (POST /subjects/{s} with the
# exact text of one of its versions, no answer cached), relook-nc (the
# same text spaced out: parsed) or latest-nc (GET .../versions/latest);
# or register: each request registers a new schema as a new version of
# one subject at the default level (BACKWARD), bench/http_register.sh's
# record (bench/register_setup.sql is loaded instead of SUBJECTS).
# Both builds must take the extension's SQL as installed (the share tree
# is copied from the installation): for changes to C only.
#
# Usage: bash bench/http_ab.sh OLD_SO NEW_SO
#   (env: SUBJECTS=20000 ROUNDS=5 DURATION=8 CLIENTS=4 MODE=lookup-nc;
#    BENCH_PG_PORT, BENCH_HTTP_PORT, BENCH_HTTP_PORT_B: ports, else free ones)
set -euo pipefail
OLD_SO=$(realpath "$1")
NEW_SO=$(realpath "$2")
. "$(dirname "$0")/lib.sh"
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 1; }

SUBJECTS=${SUBJECTS:-20000}
ROUNDS=${ROUNDS:-5}
DURATION=${DURATION:-8}
CLIENTS=${CLIENTS:-4}
MODE=${MODE:-lookup-nc}

W=$(mktemp -d /tmp/registry-bench-ab.XXXXXX)
chmod 755 "$W"
stop_all() {
	local d
	for d in "$W"/a "$W"/b; do
		[ -f "$d/data/postmaster.pid" ] && as_cluster_user "$PGBIN/pg_ctl" -D "$d/data" -m fast -w stop >/dev/null 2>&1
	done
	rm -rf "$W"
}
trap stop_all EXIT

# a copy of the installation at $W/$1 with library $2, as laid out here
# (bin and lib under one directory, share beside)
BIN_REL=$(realpath --relative-to=/ "$(pg_config --bindir)")
SHARE_REL=$(realpath --relative-to=/ "$(pg_config --sharedir)")
LIB_REL=$(realpath --relative-to=/ "$(pg_config --pkglibdir)")
install_copy() {
	mkdir -p "$W/$1/$(dirname "$BIN_REL")" "$W/$1/$(dirname "$SHARE_REL")" "$W/$1/$(dirname "$LIB_REL")"
	cp -a "/$BIN_REL" "$W/$1/$BIN_REL"
	[ -d "$W/$1/$LIB_REL" ] || cp -a "/$LIB_REL" "$W/$1/$LIB_REL"
	cp -a "/$SHARE_REL" "$W/$1/$SHARE_REL"
	cp "$2" "$W/$1/$LIB_REL/registry.so"
}
install_copy old "$OLD_SO"
install_copy new "$NEW_SO"

# the data, once, with the old build
PGBIN=$W/old/$BIN_REL
PORT_A=${BENCH_PG_PORT:-$(bench_free_port)}
HTTP_A=${BENCH_HTTP_PORT:-$(bench_free_port)}
HTTP_B=${BENCH_HTTP_PORT_B:-$(bench_free_port)}
cluster_start "$W/a" "$PORT_A" "registry.http_port = $HTTP_A
registry.http_listen_addresses = 'localhost'
registry.http_workers = 2
shared_buffers = 256MB
synchronous_commit = off
full_page_writes = off"
export PGHOST=$W/a PGPORT=$PORT_A PGUSER=$CLUSTER_USER PGDATABASE=postgres
bpsql -c "CREATE EXTENSION registry"
if [ "$MODE" = register ]; then
	bpsql -f bench/register_setup.sql >/dev/null
	. bench/http_lib.sh
	http_register_body
else
	bpsql -f bench/scale_setup.sql >/dev/null
	bpsql -c "CALL bench.build('s', 0, $((SUBJECTS * 10)), 50000)"
fi
bpsql -c "VACUUM ANALYZE"
bench_machine
as_cluster_user "$PGBIN/pg_ctl" -D "$W/a/data" -m fast -w stop >/dev/null
# the copy: Unix socket only (the same port number, its own directory)
mkdir -p "$W/b"
cp -a "$W/a/data" "$W/b/data"
chown -R "$CLUSTER_USER" "$W/b"
sed -i "s|^listen_addresses = .*|listen_addresses = ''|; s|^unix_socket_directories = .*|unix_socket_directories = '$W/b'|; s|^registry.http_port = .*|registry.http_port = $HTTP_B|" \
	"$W/b/data/postgresql.conf"

# start_side DIR BUILD: the cluster in DIR served by that build's installation
start_side() {
	as_cluster_user "$W/$2/$BIN_REL/pg_ctl" -D "$1/data" -l "$1/server.log" -w start >/dev/null
}
stop_side() {
	as_cluster_user "$PGBIN/pg_ctl" -D "$1/data" -m fast -w stop >/dev/null
}
workers() {
	psql -h "$1" -p "$PORT_A" -qAtX -c "SELECT string_agg(pid::text, ' ') FROM pg_stat_activity WHERE backend_type = 'registry http'"
}
ticks() {
	local t=0 p
	for p in $1; do t=$((t + $(awk '{print $14 + $15}' "/proc/$p/stat"))); done
	echo "$t"
}

if [ "$MODE" = register ]; then
	# each request a new schema and a new version of subject ab-reg
	# (bench/http_register.sh's record, its last field named after the
	# run, the thread and a counter)
	cat >"$W/load.lua" <<LUA
$(wrk_lua_thread_numbers)
local pre = [==[$BODY_PRE]==]
local post = [==[$BODY_POST]==]
local headers = { ["Content-Type"] = "application/vnd.schemaregistry.v1+json" }
local count = 0
function init(args)
	math.randomseed(tid * 7919 + os.time())
	run = os.time() .. "_" .. math.random(1000000)
end
function request()
	count = count + 1
	return wrk.format("POST", "/subjects/ab-reg/versions", headers, pre .. run .. "_" .. tid .. "_" .. count .. post)
end
LUA
else
	cat >"$W/load.lua" <<LUA
$(. bench/http_lib.sh && wrk_lua_thread_numbers)
$(. bench/http_lib.sh && wrk_lua_subject_reads "$SUBJECTS")
LUA
fi
cat >>"$W/load.lua" <<LUA
function done(summary, latency, requests)
	io.write(string.format("RESULT %d %d\n", summary.requests, summary.errors.status))
end
LUA

echo "# $([ "$MODE" = register ] && echo "a subject registered into" || echo "$SUBJECTS subjects x 10 versions"), $MODE, $CLIENTS connections to each side, ${DURATION}s rounds"
echo "# old $OLD_SO, new $NEW_SO"
: >"$W/ratios"
for sides in "old new" "new old"; do
	set -- $sides
	start_side "$W/a" "$1"
	start_side "$W/b" "$2"
	for _ in $(seq 100); do
		curl -sf -o /dev/null "http://127.0.0.1:$HTTP_A/config" &&
			curl -sf -o /dev/null "http://127.0.0.1:$HTTP_B/config" && break
		sleep 0.1
	done
	wa=$(workers "$W/a")
	wb=$(workers "$W/b")
	# warm-up
	wrk -t1 -c"$CLIENTS" -d2s -s "$W/load.lua" "http://127.0.0.1:$HTTP_A/" -- "$MODE" >/dev/null &
	wrk -t1 -c"$CLIENTS" -d2s -s "$W/load.lua" "http://127.0.0.1:$HTTP_B/" -- "$MODE" >/dev/null &
	wait
	for _ in $(seq "$ROUNDS"); do
		ta=$(ticks "$wa")
		tb=$(ticks "$wb")
		wrk -t1 -c"$CLIENTS" -d"$DURATION"s -s "$W/load.lua" "http://127.0.0.1:$HTTP_A/" -- "$MODE" >"$W/a.out" &
		wrk -t1 -c"$CLIENTS" -d"$DURATION"s -s "$W/load.lua" "http://127.0.0.1:$HTTP_B/" -- "$MODE" >"$W/b.out" &
		wait
		awk -v ta=$(($(ticks "$wa") - ta)) -v tb=$(($(ticks "$wb") - tb)) -v hz="$(getconf CLK_TCK)" \
			-v sa="$1" -v sb="$2" -v ratios="$W/ratios" '
			FNR == 1 { f++ }
			/^RESULT/ { n[f] = $2; bad[f] = $3 }
			END {
				ua = ta * 1e6 / hz / n[1]; ub = tb * 1e6 / hz / n[2]
				r = (sa == "new") ? ua / ub : ub / ua
				printf "%s %.1f us/answer (%d, %d non-2xx)  %s %.1f us/answer (%d, %d non-2xx)  new/old %.3f\n",
					sa, ua, n[1], bad[1], sb, ub, n[2], bad[2], r
				print r >> ratios
			}' "$W/a.out" "$W/b.out"
	done
	stop_side "$W/a"
	stop_side "$W/b"
done
sort -n "$W/ratios" | awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
	printf "new / old, worker CPU per answer: median %.3f of %d rounds (min %.3f, max %.3f)\n", m, NR, v[1], v[NR] }'
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
