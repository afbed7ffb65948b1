#!/usr/bin/env bash
# The SQL API without shared_preload_libraries: a second, short-lived
# cluster that does not preload the library creates the extension (the
# library is then loaded by the backend, after server start) and uses it.
# The last line is "no preload: ok" or "no preload: FAILED".
# Needs the extension installed; usage: no_preload.sh DIR PORT
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
. test/scripts/cluster.sh
DIR=$1
PORT=$2
# the first port from PORT on where the cluster starts: one no socket uses
# (a client connection's TIME-WAIT on it, of which the HTTP tests make
# thousands, blocks the bind as well), retried when another cluster of the
# machine takes it between the look and the start
started=0
for _ in $(seq 1 20); do
	if ! ss -Htan "( sport = :$PORT )" 2>/dev/null | grep -q .; then
		rm -rf "$DIR"
		# cluster_start preloads the library; this cluster must not
		if cluster_start "$DIR" "$PORT" "shared_preload_libraries = ''" >"$DIR.start.log" 2>&1; then
			started=1
			break
		fi
		cluster_stop "$DIR"
	fi
	PORT=$((PORT + 1))
done
rm -f "$DIR.start.log"
if [ $started -eq 0 ]; then
	echo "no preload: FAILED (cluster start)"
	exit 0
fi
out=$(psql -qXAt -v ON_ERROR_STOP=1 -h "$DIR" -p "$PORT" -U "$CLUSTER_USER" -d postgres 2>&1 <<'SQL'
SHOW shared_preload_libraries;
CREATE EXTENSION registry;
SELECT registry.register_schema('np-value', '"string"');
SELECT version FROM registry.get_version('np-value');
SELECT status FROM registry.rest('GET', '/subjects');
SQL
)
cluster_stop "$DIR"
rm -rf "$DIR"
echo "$out"
# an empty SHOW line, then id 1, version 1, status 200
if [ "$(echo "$out" | tr '\n' ' ')" = " 1 1 200 " ]; then
	echo "no preload: ok"
else
	echo "no preload: FAILED"
fi
