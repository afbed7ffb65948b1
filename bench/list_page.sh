#!/usr/bin/env bash
# bench/list_page.sh: what a page of GET /schemas costs (issue 33 item 1),
# against reading the whole listing, in one run.  N versions (10 per
# subject, at NONE) are registered; then, REPS times each, through
# registry.rest() (the route without the HTTP transport):
#   page0    GET /schemas?limit=10
#   pagemid  GET /schemas?limit=10&offset=N/2
#   full     GET /schemas?limit=1000 is not the baseline: the baseline is
#            registry.list_schemas() read whole (count(*)), the work every
#            page did before the listing paged itself
# and prints each one's median milliseconds and its ratio to the baseline.
#
# Usage: bash bench/list_page.sh   (env: N=20000 REPS=7)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

N=${N:-20000}
REPS=${REPS:-7}
bench_cluster_start
bench_machine
bpsql -f bench/register_tables.sql
bpsql -c "SELECT registry.set_compatibility('NONE')" >/dev/null
bpsql -c "SELECT count(registry.register_schema('page-' || lpad((k / 10)::text, 6, '0'),
	bench.reg_schema(('page' || k)::text))) FROM generate_series(0, $N - 1) k" >/dev/null
bpsql -c "VACUUM ANALYZE" >/dev/null

# median ms of REPS runs of one statement (the server's own time, EXPLAIN ANALYZE)
median_ms() {
	for _ in $(seq "$REPS"); do
		bpsql -c "EXPLAIN (ANALYZE, FORMAT JSON) $1" | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["Execution Time"])'
	done | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'
}

base=$(median_ms "SELECT count(*) FROM registry.list_schemas()")
page0=$(median_ms "SELECT * FROM registry.rest('GET', '/schemas', 'limit=10')")
pagemid=$(median_ms "SELECT * FROM registry.rest('GET', '/schemas', 'limit=10&offset=$((N / 2))')")
latest=$(median_ms "SELECT * FROM registry.rest('GET', '/schemas', 'limit=10&latestOnly=true&offset=$((N / 20))')")
echo "# $N versions, $((N / 10)) subjects; median of $REPS, ms; ratio to reading the whole listing"
printf '%-40s %9.2f ms  %6.4fx\n' "whole listing (list_schemas, count)" "$base" 1
for row in "GET /schemas?limit=10:$page0" "GET /schemas?limit=10&offset=N/2:$pagemid" \
	"GET /schemas?limit=10&latestOnly&offset=S/2:$latest"; do
	printf '%-40s %9.2f ms  %6.4fx\n' "${row%%:*}" "${row##*:}" "$(echo "${row##*:} / $base" | bc -l)"
done
