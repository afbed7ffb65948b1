#!/usr/bin/env bash
# Helpers for a private PostgreSQL 15 cluster in a directory of the
# project.  Sourced by run.sh and test.sh.  initdb/pg_ctl refuse to run as
# root, so as root the cluster belongs to the unprivileged "postgres" user.

PGBIN=$(pg_config --bindir)
if [ "$(id -u)" -eq 0 ]; then
	CLUSTER_USER=postgres
	as_cluster_user() { runuser -u postgres -- "$@"; }
	SUDO=""
else
	CLUSTER_USER=$(id -un)
	as_cluster_user() { "$@"; }
	SUDO="sudo"
fi

# build and install the extension into the PostgreSQL installation
# (install_extension released: with the released versions' install scripts,
# which the upgrade test creates)
install_extension() {
	make -s -j2 all
	$SUDO make -s install ${1:+install-released}
}

# cluster_start DIR PORT [extra postgresql.conf lines]; the project's own
# clusters (tests, benches, make run) opt in to anonymous writes, which the
# default registry.http_anonymous_role (registry_reader) does not allow
cluster_start() {
	local dir=$1 port=$2 extra=${3:-}
	mkdir -p "$dir"
	if [ "$(id -u)" -eq 0 ]; then
		chown postgres: "$dir"
		if ! runuser -u postgres -- test -w "$dir"; then
			echo "the postgres user cannot reach $dir: make its parent directories traversable (chmod o+x) or use a checkout it can reach" >&2
			return 1
		fi
	fi
	if [ ! -f "$dir/data/PG_VERSION" ]; then
		as_cluster_user "$PGBIN/initdb" -D "$dir/data" -U "$CLUSTER_USER" \
			--auth=trust --no-sync -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
			|| { cat "$dir/initdb.log"; return 1; }
		as_cluster_user bash -c "cat >> '$dir/data/postgresql.conf'" <<CONF
port = $port
listen_addresses = 'localhost'
unix_socket_directories = '$dir'
shared_preload_libraries = 'registry'
registry.http_anonymous_role = 'registry_admin'
max_connections = 100
fsync = off
$extra
CONF
	fi
	if ! as_cluster_user "$PGBIN/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then
		as_cluster_user "$PGBIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w start >/dev/null \
			|| { cat "$dir/server.log"; return 1; }
	fi
}

cluster_stop() {
	local dir=$1
	if [ -f "$dir/data/PG_VERSION" ]; then
		as_cluster_user "$PGBIN/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
	fi
}
