#!/usr/bin/env bash
# bench/http_lib.sh: helpers of the HTTP bench scripts (http_get.sh,
# http_register.sh, http_transitive.sh); sourced after bench/lib.sh.
# The cluster's HTTP workers listen on 127.0.0.1:$HTTP_PORT, a port below
# Linux's ephemeral range (32768-60999): after a wrk run, client sockets in
# TIME_WAIT on a port inside it can keep the workers from listening.

command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 1; }

# http_cluster_start WORKERS [more postgresql.conf lines]
http_cluster_start() {
	HTTP_PORT=${BENCH_HTTP_PORT:-$(bench_free_port)}
	bench_cluster_start "registry.http_port = $HTTP_PORT
registry.http_listen_addresses = 'localhost'
registry.http_workers = $1
${2:-}"
	http_wait "$1"
}

# http_wait WORKERS: until that many HTTP workers run and the API answers
http_wait() {
	local i n
	for i in $(seq 100); do
		n=$(bpsql -c "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'registry http'" 2>/dev/null || echo 0)
		if [ "$n" = "$1" ] && curl -sf -o /dev/null "http://127.0.0.1:$HTTP_PORT/config"; then
			return 0
		fi
		sleep 0.1
	done
	echo "HTTP API not up with $1 workers on port $HTTP_PORT (have $n)" >&2
	tail -20 "$BENCH_DIR/server.log" >&2
	exit 1
}

# BODY_PRE and BODY_POST: the body {"schema": <bench.reg_schema's record,
# JSON-escaped>} split where its distinguishing field name goes
http_register_body() {
	local schema body
	schema=$(bpsql -c "SELECT bench.reg_schema('@N@')")
	body=$(python3 -c 'import json,sys; print(json.dumps({"schema": sys.argv[1]}))' "$schema")
	BODY_PRE=${body%%@N@*}
	BODY_POST=${body#*@N@}
}

# http_set_workers K: registry.http_workers is PGC_POSTMASTER, so restart
http_set_workers() {
	bpsql -c "ALTER SYSTEM SET registry.http_workers = $1"
	as_cluster_user "$PGBIN/pg_ctl" -D "$BENCH_DIR/data" -l "$BENCH_DIR/server.log" -m fast -w restart >/dev/null
	http_wait "$1"
}

# prints "keep-alive" if two requests on one connection reuse it, else what curl saw
http_keepalive_check() {
	local out
	out=$(curl -sv -o /dev/null -o /dev/null "$1" "$1" 2>&1)
	if echo "$out" | grep -qi "Re-using existing connection" && ! echo "$out" | grep -qi "< Connection: close"; then
		echo keep-alive
	else
		echo "NO keep-alive: $(echo "$out" | grep -i 'connection' | tr '\n' ' ')"
	fi
}

# The Lua lines that number wrk's threads: each thread's script sees its
# number (1, 2, ...) as the global tid.
wrk_lua_thread_numbers() {
	cat <<'LUA'
local n = 0
function setup(thread)
	n = n + 1
	thread:set("tid", n)
end
LUA
}

# The Lua of a wrk load over N subjects (s0 .. s(N-1)) of ten versions each,
# the text of (subject i, version v) being bench.schema_text(10 i + v - 1)
# (bench/scale_setup.sql): init(args) takes the mode from args[1], and
# request() sends, for a random subject and version, the mode's request:
# lookup-nc (POST the exact text), relook-nc (POST it spaced, so that it
# is parsed) or latest-nc (GET latest), each made unique (?nc=) so that
# no answer cache serves it.  The caller adds done().  Needs
# wrk_lua_thread_numbers' tid.
wrk_lua_subject_reads() {
	cat <<LUA
local nsub = $1
local headers = { ["Content-Type"] = "application/vnd.schemaregistry.v1+json" }
local count = 0
function init(args)
	mode = args[1]
	math.randomseed(tid * 7919 + os.time())
end
-- bench.schema_text(k) as a request body, spaced (", " and ": ") when
-- sp: the text before and after k, built once
local function halves(sp)
	local c, q = ",", ":"
	if sp then c, q = ", ", ": " end
	local pre = '{"type"' .. q .. '"record"' .. c .. '"name"' .. q .. '"Event"' .. c .. '"namespace"' .. q .. '"bench.n'
	local post = '"' .. c .. '"fields"' .. q .. '[{"name"' .. q .. '"id"' .. c .. '"type"' .. q .. '"long"}' .. c ..
		'{"name"' .. q .. '"kind"' .. c .. '"type"' .. q .. '"string"}' .. c ..
		'{"name"' .. q .. '"at"' .. c .. '"type"' .. q .. '{"type"' .. q .. '"long"' .. c .. '"logicalType"' .. q .. '"timestamp-millis"}}]}'
	return '{"schema":"' .. pre:gsub('"', '\\\\"'), post:gsub('"', '\\\\"') .. '"}'
end
local pre, post = halves(false)
local spre, spost = halves(true)
function request()
	local i = math.random(nsub) - 1
	local k = 10 * i + math.random(10) - 1
	count = count + 1
	local q = "?nc=" .. tid .. "x" .. count
	if mode == "latest-nc" then
		return wrk.format("GET", "/subjects/s" .. i .. "/versions/latest" .. q)
	elseif mode == "relook-nc" then
		return wrk.format("POST", "/subjects/s" .. i .. q, headers, spre .. k .. spost)
	end
	return wrk.format("POST", "/subjects/s" .. i .. q, headers, pre .. k .. post)
end
LUA
}
