#!/usr/bin/env bash
# make run / make stop: a local cluster under ./.run with the registry.
set -euo pipefail
cd "$(dirname "$0")/../.."
. test/scripts/cluster.sh

DIR=$PWD/.run
PORT=${REGISTRY_PGPORT:-5433}

case "${1:-start}" in
start)
	install_extension
	# the documented way to run the registry keeps what it acknowledges: fsync on
	# (the tests' clusters run with fsync off); also for a cluster made before
	cluster_start "$DIR" "$PORT" "fsync = on"
	as_cluster_user "$PGBIN/psql" -h "$DIR" -p "$PORT" -U "$CLUSTER_USER" -d postgres -qX \
		-c "ALTER SYSTEM SET fsync = on" -c "SELECT pg_catalog.pg_reload_conf()" \
		-c "CREATE EXTENSION IF NOT EXISTS registry" >/dev/null
	# the HTTP workers' role, made by the extension script; a cluster whose
	# registry was installed before that script made it gets it here
	as_cluster_user "$PGBIN/psql" -h "$DIR" -p "$PORT" -U "$CLUSTER_USER" -d postgres -qX -c \
		"DO \$\$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'registry_http') THEN CREATE ROLE registry_http LOGIN NOINHERIT; END IF; END \$\$" >/dev/null
	# a fresh cluster's workers start before CREATE EXTENSION made their role:
	# they come up a few seconds later
	for _ in $(seq 1 60); do
		curl -s -o /dev/null http://127.0.0.1:8081/ && break
		sleep 0.5
	done
	echo "registry is running (fsync $(as_cluster_user "$PGBIN/psql" -h "$DIR" -p "$PORT" -U "$CLUSTER_USER" -d postgres -qXAt -c "SHOW fsync"))."
	echo "  SQL:  psql 'host=localhost port=$PORT dbname=postgres user=$CLUSTER_USER'"
	echo "  REST: http://127.0.0.1:8081  (e.g. curl http://127.0.0.1:8081/subjects)"
	echo "  stop: make stop"
	;;
stop)
	cluster_stop "$DIR"
	echo "stopped."
	;;
esac
