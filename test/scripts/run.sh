#!/usr/bin/env bash
# make run / make stop: a local cluster under ./.run with the registry.
# REGISTRY_RUN_DIR, REGISTRY_PGPORT and REGISTRY_HTTP_PORT choose another
# place and ports (make test runs this script so, as its quick start layer).
set -euo pipefail
cd "$(dirname "$0")/../.."
. test/scripts/cluster.sh

DIR=${REGISTRY_RUN_DIR:-$PWD/.run}
PORT=${REGISTRY_PGPORT:-5433}
HTTP=${REGISTRY_HTTP_PORT:-8081}

case "${1:-start}" in
start)
	install_extension
	# the documented way to run the registry keeps what it acknowledges: fsync on
	# (the tests' clusters run with fsync off); also for a cluster made before
	# the development cluster opts in to anonymous writes from loopback (the
	# default anonymous role only reads), so the quick start's curl works
	cluster_start "$DIR" "$PORT" "fsync = on
registry.http_port = $HTTP
registry.http_anonymous_role = 'registry_admin'"
	# a cluster made by an earlier version of the registry is updated to this
	# one; one made before reading became the default keeps anonymous writes
	as_cluster_user "$PGBIN/psql" -h "$DIR" -p "$PORT" -U "$CLUSTER_USER" -d postgres -qX >/dev/null <<'SQL'
SELECT 'ALTER SYSTEM SET registry.http_anonymous_role = ''registry_admin'''
  FROM pg_catalog.pg_settings
 WHERE name = 'registry.http_anonymous_role' AND source = 'default' \gexec
SQL
	as_cluster_user "$PGBIN/psql" -h "$DIR" -p "$PORT" -U "$CLUSTER_USER" -d postgres -qX \
		-c "ALTER SYSTEM SET fsync = on" -c "SELECT pg_catalog.pg_reload_conf()" \
		-c "SET client_min_messages = warning" \
		-c "CREATE EXTENSION IF NOT EXISTS registry" -c "ALTER EXTENSION registry UPDATE" >/dev/null
	# a fresh cluster's workers start before CREATE EXTENSION made their role:
	# they come up a few seconds later
	for _ in $(seq 1 60); do
		curl -s -o /dev/null "http://127.0.0.1:$HTTP/" && break
		sleep 0.5
	done
	echo "registry is running (fsync $(as_cluster_user "$PGBIN/psql" -h "$DIR" -p "$PORT" -U "$CLUSTER_USER" -d postgres -qXAt -c "SHOW fsync"))."
	echo "  SQL:  psql 'host=localhost port=$PORT dbname=postgres user=$CLUSTER_USER'"
	echo "  REST: http://127.0.0.1:$HTTP  (e.g. curl http://127.0.0.1:$HTTP/subjects)"
	echo "  stop: make stop"
	;;
stop)
	cluster_stop "$DIR"
	echo "stopped."
	;;
esac
