#!/usr/bin/env bash
# bench/list_page.sh: what a page of each listing costs over HTTP (issue 33
# item 1), at offset 0 and deep offsets, against a trivial request through
# the same server in the same run.  N versions, 10 per subject (N/10
# subjects, at NONE), are bulk-loaded as bench/scale_setup.sql does (raw
# inserts checked by the tables' triggers); then REPS times each, with
# curl on a new connection, the median of its total time:
#   baseline  GET /schemas/types (answered by the HTTP worker itself)
#   GET /schemas?limit=10 at offset 0, N/2 and N-10, latestOnly at S/2
#   GET /subjects?limit=10 at offset 0, S/2 and S-10, and the whole
#     GET /subjects (S names, streamed: its bytes are printed)
#   GET /subjects/{s}/versions?limit=1&offset=5 of the middle subject
#   GET /schemas/ids/{id}/versions and .../subjects of the middle schema
# And the peak memory the whole GET /subjects adds to the HTTP and pool
# workers (VmHWM after /proc/PID/clear_refs, as root), summed over each
# kind, against the answer's size.
# Each page's first request after a write (the subject directory is built
# then, once per pool worker: a scan of the whole table) is printed apart,
# as "first": it runs on a fresh cluster, whose pool workers have built
# nothing, each listing asked once per pool worker before the medians.
#
# Usage: bash bench/list_page.sh   (env: N=100000 REPS=9 BATCH=50000)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/http_lib.sh"

N=${N:-100000}
REPS=${REPS:-9}
BATCH=${BATCH:-50000}
S=$((N / 10))
http_cluster_start 2 "shared_buffers = 512MB"
bench_machine
bpsql -f bench/scale_setup.sql >/dev/null
t0=$(date +%s)
bpsql -c "CALL bench.build('s', 0, $N, $BATCH)"
bpsql -c "VACUUM ANALYZE" >/dev/null
echo "# $N versions in $S subjects loaded in $(($(date +%s) - t0)) s"
URL="http://127.0.0.1:$HTTP_PORT"
mid_subject=$(bpsql -c "SELECT subject FROM registry.subject_versions ORDER BY subject OFFSET $((N / 2)) LIMIT 1")
mid_id=$(bpsql -c "SELECT schema_id FROM registry.subject_versions WHERE subject = '$mid_subject' LIMIT 1")

# one request's total seconds in ms, and its size
once() {
	curl -s -o /dev/null -w '%{time_total} %{size_download}\n' "$URL$1" |
		awk '{ printf "%.3f %d\n", $1 * 1000, $2 }'
}

# the median ms of REPS requests
median() {
	for _ in $(seq "$REPS"); do once "$1"; done | sort -n |
		awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'
}

base=$(median /schemas/types)
echo "# median of $REPS, ms; ratio to GET /schemas/types in the same run; bytes of the answer"
printf '%-52s %10s %10s %9s %10s\n' request first median ratio bytes
printf '%-52s %10s %10.3f %9.2f %10s\n' "GET /schemas/types (baseline)" - "$base" 1 -
for q in "/schemas?limit=10" "/schemas?limit=10&offset=$((N / 2))" \
	"/schemas?limit=10&offset=$((N - 10))" "/schemas?limit=10&latestOnly=true&offset=$((S / 2))" \
	"/subjects?limit=10" "/subjects?limit=10&offset=$((S / 2))" "/subjects?limit=10&offset=$((S - 10))" \
	"/subjects" "/subjects/$mid_subject/versions?limit=1&offset=5" \
	"/schemas/ids/$mid_id/versions" "/schemas/ids/$mid_id/subjects"; do
	# the first request after the load, on each of the two pool workers
	first=$( (once "$q"; once "$q") | sort -n | tail -1)
	m=$(median "$q")
	printf '%-52s %10.3f %10.3f %9.2f %10d\n' "GET $q" "${first% *}" "$m" \
		"$(echo "$m / $base" | bc -l)" "${first#* }"
done

# the peak RSS (kB) one request adds to the registry's workers of a kind
# ("registry http worker" or "registry http pool worker"), summed
peak_growth() {
	local pm p t before=() pids=() sum=0 i
	pm=$(head -1 "$BENCH_DIR/data/postmaster.pid")
	for p in $(pgrep -P "$pm"); do
		t=$(tr '\0' ' ' <"/proc/$p/cmdline")
		case "$t" in *"$2 "*) pids+=("$p") ;; esac
	done
	for p in "${pids[@]}"; do
		echo 5 >"/proc/$p/clear_refs" 2>/dev/null || { echo -; return; }
		before+=("$(awk '/VmRSS/ {print $2}' "/proc/$p/status")")
	done
	curl -s -o /dev/null "$URL$1"
	for i in "${!pids[@]}"; do
		sum=$((sum + $(awk '/VmHWM/ {print $2}' "/proc/${pids[$i]}/status") - before[i]))
	done
	echo "$sum"
}
echo "# the whole GET /subjects ($(once /subjects | cut -d' ' -f2) bytes): peak RSS added, kB"
for kind in "registry http pool worker" "registry http worker"; do
	printf '%-30s %s\n' "$kind" "$(peak_growth /subjects "$kind")"
done
