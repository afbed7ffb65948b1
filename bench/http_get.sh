#!/usr/bin/env bash
# bench/http_get.sh: GET /schemas/ids/{id} over HTTP against a trivial
# libmicrohttpd server, measured in the same run.
#
#   trivial   bench/mhd_trivial.c, built here: the registry's MHD mode
#             (MHD_USE_EPOLL, one process, external epoll loop), a fixed
#             JSON body as long as the registry's answer, keep-alive kept
#   reg-1w    the registry, registry.http_workers = 1 (counting the reads
#             of each id: registry.usage_tracking on, the default)
#   reg-1w-off  the same with registry.usage_tracking = off
#   reg-2w    the registry, registry.http_workers = 2 (one shared socket)
# NSCHEMAS distinct ~1 KB Avro schemas (the 11-field record of
# bench/register_rate.sh with a longer doc) are registered first; the wrk Lua script asks for
# a random one of their ids per request (the trivial server ignores the
# path).  Load: wrk -t2 -c32 -dDURATION, keep-alive; unloaded latency:
# wrk -t1 -c1 -dDURATION_C1; a new connection per request (clients that
# do not keep connections, each placed on a worker anew): wrk -t2 -c16
# -dDURATION_C1 with "Connection: close".  Each round runs trivial, reg-1w,
# reg-1w-off (a reload between them), reg-2w (a
# restart between the registry runs, http_workers is PGC_POSTMASTER),
# each after a 2 s warm-up; figures are medians over ROUNDS rounds.
#
# Usage: bash bench/http_get.sh   (env: ROUNDS=3 DURATION=10 DURATION_C1=5 NSCHEMAS=2000)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/http_lib.sh"

ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-10}
DURATION_C1=${DURATION_C1:-5}
NSCHEMAS=${NSCHEMAS:-2000}

W=$(mktemp -d /tmp/registry-bench-http.XXXXXX)
TRIV_PID=
cleanup() {
	[ -n "$TRIV_PID" ] && kill "$TRIV_PID" 2>/dev/null && wait "$TRIV_PID" 2>/dev/null
	bench_cluster_stop
	rm -rf "$W"
}
trap cleanup EXIT
cc -O2 -Wall -o "$W/mhd_trivial" bench/mhd_trivial.c -lmicrohttpd

http_cluster_start 1
trap cleanup EXIT	# bench_cluster_start set its own
bench_machine

bpsql <<SQL
CREATE SCHEMA bench;
\\i bench/new_schema.sql
DO \$\$
BEGIN
  FOR s IN 0 .. 19 LOOP
    PERFORM registry.set_compatibility('NONE', 'get-' || s);
  END LOOP;
  FOR k IN 1 .. $NSCHEMAS LOOP
    PERFORM registry.register_schema('get-' || (k % 20), bench.new_schema(k));
  END LOOP;
END \$\$;
VACUUM ANALYZE;
SQL

bpsql -c "SELECT id FROM registry.schemas ORDER BY id" >"$W/ids"
nids=$(wc -l <"$W/ids")
[ "$nids" -ge "$NSCHEMAS" ] || { echo "only $nids schemas registered" >&2; exit 1; }
first=$(head -1 "$W/ids")
resp_len=$(curl -sf "http://127.0.0.1:$HTTP_PORT/schemas/ids/$first" | wc -c)
echo "# $nids schemas, schema text $(bpsql -c "SELECT length(schema) FROM registry.schemas WHERE id = $first") B, response body $resp_len B"

{
	echo "local ids = {$(paste -sd, "$W/ids")}"
	wrk_lua_thread_numbers
	cat <<'LUA'
function init(args)
	math.randomseed(tid * 7919 + os.time())
end
function request()
	return wrk.format(nil, "/schemas/ids/" .. ids[math.random(#ids)])
end
function done(summary, latency, requests)
	local e = summary.errors
	io.write(string.format("RESULT %d %d %.1f %.1f %d %d %d %d %d\n",
		summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
		e.status, e.connect, e.read, e.write, e.timeout))
end
LUA
} >"$W/get.lua"

TRIV_PORT=$(bench_free_port)
while [ "$TRIV_PORT" = "$HTTP_PORT" ]; do TRIV_PORT=$(bench_free_port); done

# wrkrun NAME ROUND MODE(c32|c1|close) SECONDS PORT  -> appends to $W/results
wrkrun() {
	local out args
	case $3 in
	c32) args=(-t2 -c32) ;;
	c1) args=(-t1 -c1) ;;
	close) args=(-t2 -c16 -H "Connection: close") ;;
	esac
	out=$(wrk "${args[@]}" -d"$4"s -s "$W/get.lua" "http://127.0.0.1:$5/") || { echo "$out" >&2; exit 1; }
	echo "$out" | grep '^RESULT' | sed "s/^RESULT/$1 $2 $3/" >>"$W/results"
}
warm() { wrk -t2 -c32 -d2s -s "$W/get.lua" "http://127.0.0.1:$1/" >/dev/null; }
# usage_tracking on|off: registry.usage_tracking, reloaded (the workers
# read it at their next wake-up)
usage_tracking() {
	bpsql -c "ALTER SYSTEM SET registry.usage_tracking = $1" -c "SELECT pg_reload_conf()" >/dev/null
	sleep 0.5
}

: >"$W/results"
for r in $(seq "$ROUNDS"); do
	"$W/mhd_trivial" "$TRIV_PORT" "$resp_len" 2>"$W/trivial.log" &
	TRIV_PID=$!
	for _ in $(seq 50); do curl -sf -o /dev/null "http://127.0.0.1:$TRIV_PORT/" && break; sleep 0.1; done
	[ "$r" = 1 ] && echo "# trivial server: $(http_keepalive_check "http://127.0.0.1:$TRIV_PORT/"), body $(curl -s "http://127.0.0.1:$TRIV_PORT/" | wc -c) B"
	warm "$TRIV_PORT"
	wrkrun trivial "$r" c32 "$DURATION" "$TRIV_PORT"
	wrkrun trivial "$r" c1 "$DURATION_C1" "$TRIV_PORT"
	wrkrun trivial "$r" close "$DURATION_C1" "$TRIV_PORT"
	kill "$TRIV_PID"; wait "$TRIV_PID" 2>/dev/null || true; TRIV_PID=

	for k in 1 2; do
		if [ "$(bpsql -c 'SHOW registry.http_workers')" != "$k" ]; then http_set_workers "$k"; fi
		[ "$r" = 1 ] && echo "# registry $k worker(s): $(http_keepalive_check "http://127.0.0.1:$HTTP_PORT/schemas/ids/$first")"
		warm "$HTTP_PORT"
		wrkrun "reg-${k}w" "$r" c32 "$DURATION" "$HTTP_PORT"
		wrkrun "reg-${k}w" "$r" c1 "$DURATION_C1" "$HTTP_PORT"
		wrkrun "reg-${k}w" "$r" close "$DURATION_C1" "$HTTP_PORT"
		if [ "$k" = 1 ]; then
			# the same worker without counting the reads (a reload)
			usage_tracking off
			warm "$HTTP_PORT"
			wrkrun reg-1w-off "$r" c32 "$DURATION" "$HTTP_PORT"
			wrkrun reg-1w-off "$r" c1 "$DURATION_C1" "$HTTP_PORT"
			wrkrun reg-1w-off "$r" close "$DURATION_C1" "$HTTP_PORT"
			usage_tracking on
		fi
	done
	echo "# round $r done"
done

python3 - "$W/results" "$DURATION" "$DURATION_C1" <<'PY'
import sys, statistics as st
rows = [l.split() for l in open(sys.argv[1])]
R = {}
for name, rnd, mode, reqs, dur, p50, p99, status, conn, rd, wr, to in rows:
    R.setdefault((name, mode), []).append(dict(rps=int(reqs) / (int(dur) / 1e6), p50=float(p50), p99=float(p99),
        non2xx=int(status), sock=int(conn) + int(rd) + int(wr) + int(to)))
med = lambda k, f: st.median(x[f] for x in R[k])
names = ["trivial", "reg-1w", "reg-1w-off", "reg-2w"]
for mode, title in (("c32", "wrk -t2 -c32 -d%ss, keep-alive" % sys.argv[2]), ("c1", "wrk -t1 -c1 -d%ss (unloaded latency)" % sys.argv[3]),
                    ("close", "wrk -t2 -c16 -d%ss, Connection: close (a new connection per request)" % sys.argv[3])):
    print()
    print("# %s; median of %d rounds (req/s of each round in brackets)" % (title, len(R[("trivial", mode)])))
    print("%-10s %10s %9s %9s %7s %8s  %s" % ("server", "req/s", "p50_us", "p99_us", "non2xx", "sockerr", "rounds"))
    for n in names:
        k = (n, mode)
        print("%-10s %10.0f %9.0f %9.0f %7d %8d  [%s]" % (n, med(k, "rps"), med(k, "p50"), med(k, "p99"),
              sum(x["non2xx"] for x in R[k]), sum(x["sock"] for x in R[k]),
              " ".join("%.0f" % x["rps"] for x in R[k])))
t, r1, r0, r2 = (med((n, "c32"), "rps") for n in names)
l_t, l_1, l_0, l_2 = (med((n, "c1"), "p50") for n in names)
q_t, q_1 = (med((n, "c1"), "p99") for n in ("trivial", "reg-1w"))
c_t, c_1 = (med((n, "c1"), "rps") for n in ("trivial", "reg-1w"))
err = sum(x["non2xx"] + x["sock"] for v in R.values() for x in v)
def goal(ok): return "met" if ok else "NOT MET"
print()
print("# ratios (medians, same run)")
print("reg-1w / trivial  req/s  %.2fx   (get-cached >= 0.8x: %s; uncached floor 0.30x / target 0.45x)" % (r1 / t, goal(r1 / t >= 0.8)))
print("reg-1w-off / trivial  req/s  %.2fx   (the same worker without usage tracking)" % (r0 / t))
print("reg-1w / reg-1w-off    req/s  %.2fx   (usage tracking's cost; issue 34: GET by id >= 0.9x of trivial with it on: %s)" % (r1 / r0, goal(r1 / t >= 0.9)))
print("c1 p50 latency  reg-1w / reg-1w-off  %.2fx  (%.0f vs %.0f us)" % (l_1 / l_0, l_1, l_0))
print("reg-2w / trivial  req/s  %.2fx" % (r2 / t))
print("reg-2w / reg-1w   req/s  %.2fx   (worker-scaling floor 1.3x / target 1.5x: %s)" % (r2 / r1, goal(r2 / r1 >= 1.3)))
print("c1 p50 latency  reg-1w / trivial  %.2fx  (%.0f vs %.0f us; latency: p50 <= 2.5x and <= 150 us: %s)" % (l_1 / l_t, l_1, l_t, goal(l_1 / l_t <= 2.5 and l_1 <= 150)))
print("c1 p50 latency  reg-2w / trivial  %.2fx" % (l_2 / l_t))
print("c1 p99 latency  reg-1w            %.0f us (trivial %.0f us; latency: p99 <= 2 ms: %s)" % (q_1, q_t, goal(q_1 <= 2000)))
print("c1 req/s        reg-1w / trivial  %.2fx  (%.0f vs %.0f)" % (c_1 / c_t, c_1, c_t))
n_t, n_1, n_0, n_2 = (med((n, "close"), "rps") for n in names)
print("close req/s     reg-1w / trivial  %.2fx, reg-2w / trivial %.2fx  (%.0f, %.0f vs %.0f)" % (n_1 / n_t, n_2 / n_t, n_1, n_2, n_t))
print("errors (non-2xx + socket) over all runs: %d  (errors target: 0 -> %s)" % (err, goal(err == 0)))
PY
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
