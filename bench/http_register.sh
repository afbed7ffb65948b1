#!/usr/bin/env bash
# bench/http_register.sh: registration rate over HTTP (POST
# /subjects/{s}/versions of a new, distinct schema per request) against a
# baseline of plain two-row INSERT transactions, measured in the same run.
#
#   baseline  pgbench -cCLIENTS -M prepared: one statement, one transaction, a row
#             with the schema text (~0.9 KB) into a plain "schemas" table
#             (id from a sequence, PK) and a row into a plain "versions"
#             table (PK subject, version): bench/register_rate.sh's baseline
#   two-ins   the issue's wording taken literally: BEGIN; INSERT; INSERT;
#             END; into the same tables, four statements, pgbench's default
#             (simple) query protocol, as issue 13's "plain two-INSERT
#             transaction run by pgbench" (4,689/s there) was measured;
#             two-prep the same with -M prepared
#   sql-reg   pgbench -cCLIENTS: SELECT registry.register_schema('sql-<client>', ...)
#             (the SQL API, no HTTP; to split HTTP from registry cost)
#   http-2w   wrk -tCLIENTS -cCLIENTS (one keep-alive connection per wrk thread):
#             POST /subjects/http-<thread>/versions, registry.http_workers = 2
#   http-4w   the same with registry.http_workers = 4 (restart before/after)
# The measured subjects are at compatibility LEVEL (NONE unless set) and
# each client has its own subject.  Every schema is bench/register_rate.sh's 11-field record whose
# last optional field is named after a counter (x<n> in SQL; x<tag>_<thread>_<n>
# over HTTP), so each request registers a new schema and a new version.
# Before the runs a "seed" subject gets 2,000 versions and the tables are
# analyzed, so that the registry's saved SPI plans are made with real
# statistics (on empty tables the generic plan of the by-fingerprint
# lookup walks every version of the subject; see bench/README.md).
# fsync as in bench/register_rate.sh (off unless FSYNC=on).  Each round runs
# the four in that order, DURATION seconds each; medians over ROUNDS.
# CLIENTS (4) sets pgbench -c/-j and wrk -t/-c; LEVEL (NONE) the
# compatibility level of the sql-* and http-* subjects.  The registration
# target (bench/README.md#targets) is CLIENTS=1 LEVEL=BACKWARD FSYNC=on:
# one client, durable commits.
#
# WITHOUT=1 adds two rows, each round right after http-2w: http-nofields,
# the same registrations with the field index's trigger on registry.schemas
# disabled (no registry.schema_fields row), and http-bare, with the audit
# triggers of registry.schemas and registry.subject_versions disabled too
# (no audit rows); the triggers are enabled again after.  Not a
# configuration anyone should run: it sizes what those rows cost a
# registration (issue 33 item 5).
#
# Usage: bash bench/http_register.sh   (env: ROUNDS=3 DURATION=10 FSYNC=off|on CLIENTS=4 LEVEL=NONE WITHOUT=)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/http_lib.sh"

ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-10}
FSYNC=${FSYNC:-off}
CLIENTS=${CLIENTS:-4}
LEVEL=${LEVEL:-NONE}
WITHOUT=${WITHOUT:-}
GOAL=0.5

extra="fsync = $FSYNC"
[ "$FSYNC" = on ] && extra="$extra
synchronous_commit = on"
http_cluster_start 2 "$extra"
W=$(mktemp -d /tmp/registry-bench-http.XXXXXX)
trap 'bench_cluster_stop; rm -rf "$W"' EXIT
bench_machine
echo "# fsync = $(bpsql -c 'SHOW fsync'), synchronous_commit = $(bpsql -c 'SHOW synchronous_commit'), ${DURATION}s per run, $CLIENTS client(s), level $LEVEL on the measured subjects"

bpsql -f bench/register_setup.sql
# pgbench client ids start at 0 (sql-0 ..), wrk threads at 1 (http-1 ..); the probe uses http-0
bpsql -c "SELECT registry.set_compatibility('$LEVEL', p || c) FROM unnest(ARRAY['sql-', 'http-']) p, generate_series(0, $CLIENTS) c" >/dev/null
echo "# schema text: $(bpsql -c "SELECT length(bench.reg_schema('123456'))") B (SQL), ~5 B more over HTTP"

cp bench/baseline_cte.sql "$W/baseline.sql"
cp bench/baseline_two_insert.sql "$W/two-ins.sql"
cp bench/baseline_two_insert.sql "$W/two-prep.sql"
cat >"$W/sql-reg.sql" <<'PGB'
SELECT registry.register_schema('sql-' || :client_id, bench.reg_schema(nextval('bench.n')::text));
PGB

# the HTTP body: {"schema": <the same text, JSON-escaped>}, x<n> made distinct
http_register_body
pre=$BODY_PRE
post=$BODY_POST
{
	wrk_lua_thread_numbers
	cat <<LUA
local pre = [==[$pre]==]
local post = [==[$post]==]
local headers = { ["Content-Type"] = "application/vnd.schemaregistry.v1+json" }
function init(args)
	tag = args[1] or "t"
	cnt = 0
end
function request()
	cnt = cnt + 1
	return wrk.format("POST", "/subjects/http-" .. tid .. "/versions", headers,
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
	--data "${pre}probe${post}" "http://127.0.0.1:$HTTP_PORT/subjects/http-0/versions" >/dev/null ||
	{ echo "probe registration over HTTP failed" >&2; exit 1; }

: >"$W/results"
pgb() {	# NAME ROUND SECONDS [PROTOCOL]
	local out
	out=$(pgbench -n -M "${4:-prepared}" -c $CLIENTS -j $CLIENTS -T "$3" -f "$W/$1.sql" 2>&1) || { echo "$out" >&2; exit 1; }
	[[ $out == *"number of failed transactions: 0 "* ]] || { echo "$out" >&2; exit 1; }
	echo "$1 $2 $(echo "$out" | sed -n 's/^tps = \([0-9.]*\) .*/\1/p') $(echo "$out" | sed -n 's/^latency average = \([0-9.]*\) ms/\1/p') 0 0" >>"$W/results"
}
httprun() {	# NAME ROUND SECONDS TAG
	local out
	out=$(wrk -t$CLIENTS -c$CLIENTS -d"$3"s -s "$W/reg.lua" "http://127.0.0.1:$HTTP_PORT/" -- "$4") || { echo "$out" >&2; exit 1; }
	echo "$out" | awk -v n="$1" -v r="$2" '/^RESULT/ {printf "%s %s %.1f %.3f %d %d\n", n, r, $2 / ($3 / 1e6), $4 / 1000, $6, $7}' >>"$W/results"
}

echo "# warm-up (2 s each, not reported)"
pgbench -n -M prepared -c $CLIENTS -j $CLIENTS -T 2 -f "$W/baseline.sql" >/dev/null 2>&1
pgbench -n -M prepared -c $CLIENTS -j $CLIENTS -T 2 -f "$W/sql-reg.sql" >/dev/null 2>&1
wrk -t$CLIENTS -c$CLIENTS -d2s -s "$W/reg.lua" "http://127.0.0.1:$HTTP_PORT/" -- w >/dev/null
for r in $(seq "$ROUNDS"); do
	pgb baseline "$r" "$DURATION"
	pgb two-ins "$r" "$DURATION" simple
	pgb two-prep "$r" "$DURATION"
	pgb sql-reg "$r" "$DURATION"
	httprun http-2w "$r" "$DURATION" "r${r}a"
	if [ -n "$WITHOUT" ]; then
		bench_set_triggers DISABLE "${FIELDS_TRIGGER[@]}"
		httprun http-nofields "$r" "$DURATION" "r${r}f"
		bench_set_triggers DISABLE "${AUDIT_TRIGGERS[@]}"
		httprun http-bare "$r" "$DURATION" "r${r}n"
		bench_set_triggers ENABLE "${FIELDS_TRIGGER[@]}" "${AUDIT_TRIGGERS[@]}"
	fi
	http_set_workers 4
	wrk -t$CLIENTS -c$CLIENTS -d1s -s "$W/reg.lua" "http://127.0.0.1:$HTTP_PORT/" -- "r${r}w" >/dev/null
	httprun http-4w "$r" "$DURATION" "r${r}b"
	http_set_workers 2
	wrk -t$CLIENTS -c$CLIENTS -d1s -s "$W/reg.lua" "http://127.0.0.1:$HTTP_PORT/" -- "r${r}v" >/dev/null
	echo "# round $r done"
done

echo
python3 - "$W/results" "$GOAL" "$CLIENTS" <<'PY'
import sys, statistics as st
R = {}
for l in open(sys.argv[1]):
    name, rnd, tps, lat, non2xx, sock = l.split()
    R.setdefault(name, []).append((float(tps), float(lat), int(non2xx), int(sock)))
goal = float(sys.argv[2])
base = st.median(x[0] for x in R["baseline"])
print("# %s client(s); median of %d rounds; latency = pgbench average / wrk p50 (ms)" % (sys.argv[3], len(R["baseline"])))
print("%-9s %9s %11s %8s %7s %8s  %s" % ("run", "tps", "x_baseline", "lat_ms", "non2xx", "sockerr", "tps per round"))
for n in ("baseline", "two-ins", "two-prep", "sql-reg", "http-2w", "http-nofields", "http-bare", "http-4w"):
    if n not in R:
        continue
    v = R[n]
    t = st.median(x[0] for x in v)
    print("%-9s %9.0f %11.2f %8.2f %7d %8d  [%s]" % (n, t, t / base, st.median(x[1] for x in v),
          sum(x[2] for x in v), sum(x[3] for x in v), " ".join("%.0f" % x[0] for x in v)))
h = st.median(x[0] for x in R["http-2w"])
s = st.median(x[0] for x in R["sql-reg"])
print()
print("http-2w / baseline  %.2fx  (goal >= %.1fx: %s)" % (h / base, goal, "met" if h / base >= goal else "NOT MET"))
print("http-2w / sql-reg   %.2fx  (cost of the HTTP layer and of 2 workers serving %s client(s))" % (h / s, sys.argv[3]))
print("http-4w / http-2w   %.2fx" % (st.median(x[0] for x in R["http-4w"]) / h))
print("sql-reg / baseline  %.2fx" % (s / base))
for n, what in (("two-ins", "the issue's baseline as worded"), ("two-prep", "the same, prepared")):
    b = st.median(x[0] for x in R[n])
    print("http-2w / %-8s  %.2fx  (goal >= %.1fx against %s: %s)" % (n, h / b, goal, what, "met" if h / b >= goal else "NOT MET"))
for n in ("http-nofields", "http-bare"):
    if n in R:
        b = st.median(x[0] for x in R["two-ins"])
        print("%-13s / two-ins  %.2fx  (not a configuration: what the registration would be without those rows)" % (
              n, st.median(x[0] for x in R[n]) / b))
PY
echo "# versions at the end: $(bpsql -c "SELECT string_agg(subject || '=' || n, ' ' ORDER BY subject) FROM (SELECT subject, count(*) n FROM registry.subject_versions GROUP BY subject) t")"
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
