#!/usr/bin/env bash
# bench/lib.sh: shared helpers of the bench scripts (sourced, not run).
# Starts a throwaway cluster with the installed registry extension in a
# temp dir on a free port, exports PGHOST/PGPORT/PGUSER/PGDATABASE for
# psql and pgbench, and stops and removes it on exit.

BENCH_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$BENCH_ROOT"
. test/scripts/cluster.sh

# a port below Linux's ephemeral range (32768-60999) that nobody listens on
bench_free_port() {
	local p
	for p in $(shuf -i 20000-32000 -n 50); do
		if ! ss -ltnH 2>/dev/null | awk '{print $4}' | grep -q ":$p\$" &&
			[ ! -e "/tmp/.s.PGSQL.$p" ]; then
			echo "$p"
			return 0
		fi
	done
	return 1
}

# bench_cluster_start [extra postgresql.conf lines]
bench_cluster_start() {
	BENCH_DIR=$(mktemp -d /tmp/registry-bench.XXXXXX)
	BENCH_PORT=${BENCH_PG_PORT:-$(bench_free_port)}
	trap bench_cluster_stop EXIT
	cluster_start "$BENCH_DIR" "$BENCH_PORT" "${1:-}" || exit 1
	export PGHOST=$BENCH_DIR PGPORT=$BENCH_PORT PGUSER=$CLUSTER_USER PGDATABASE=postgres
	psql -qX -v ON_ERROR_STOP=1 -c "CREATE EXTENSION registry" >/dev/null || exit 1
}

bench_cluster_stop() {
	if [ -n "${BENCH_DIR:-}" ]; then
		cluster_stop "$BENCH_DIR"
		rm -rf "$BENCH_DIR"
		BENCH_DIR=
	fi
}

# the CPU ticks (utime + stime, in 1/CLK_TCK s) of the cluster's processes
# so far: the postmaster's, its children's (the HTTP workers among them)
# and those of the children that have exited (the postmaster's cutime +
# cstime: a pgbench client's backend is gone when its run ends)
bench_cluster_ticks() {
	local pm t p
	pm=$(head -1 "$BENCH_DIR/data/postmaster.pid")
	t=$(awk '{print $16 + $17}' "/proc/$pm/stat")
	for p in $pm $(pgrep -P "$pm"); do
		t=$((t + $(awk '{print $14 + $15}' "/proc/$p/stat" 2>/dev/null || echo 0)))
	done
	echo "$t"
}

# after a pgbench run: until its backends have exited (at most 2 s), so
# that bench_cluster_ticks counts their CPU
bench_clients_gone() {
	local pm i
	pm=$(head -1 "$BENCH_DIR/data/postmaster.pid")
	for i in $(seq 40); do
		pgrep -P "$pm" -f '\[local\]' >/dev/null || return 0
		sleep 0.05
	done
}

# psql with the options every bench wants; extra args follow
bpsql() {
	psql -qAtX -v ON_ERROR_STOP=1 "$@"
}

bench_machine() {
	echo "# load average before the run: $(cut -d" " -f1-3 /proc/loadavg) (other work on these $(nproc) CPUs skews every figure)"
	echo "# $(date -u '+%Y-%m-%d %H:%M:%S UTC')  $(nproc) CPUs  $(psql -AtXc 'SHOW server_version' | cut -d' ' -f1)  git $(git rev-parse --short HEAD 2>/dev/null)$(git diff --quiet HEAD -- src sql 2>/dev/null || echo '+dirty')"
}

# The triggers that write a registration's field index row and its audit
# rows (table:trigger), for the runs that size what those rows cost
# (http_register.sh WITHOUT=1, register_flush.sh): not a configuration
# anyone should run.
FIELDS_TRIGGER=(schemas:schemas_index_fields)
AUDIT_TRIGGERS=(schemas:audit_after_write subject_versions:audit_after_write)

# bench_set_triggers ENABLE|DISABLE table:trigger ...
bench_set_triggers() {
	local how=$1 t
	shift
	for t in "$@"; do
		bpsql -c "ALTER TABLE registry.${t%%:*} $how TRIGGER ${t#*:}" >/dev/null
	done
}
