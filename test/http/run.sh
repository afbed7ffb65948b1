#!/usr/bin/env bash
# HTTP server tests of the registry's REST workers, with curl (and psql for
# checks on the registry tables and the worker processes).
#
# Environment (set by make test):
#   REGISTRY_URL   http://127.0.0.1:<port> of the HTTP workers
#   PGHOST PGPORT PGUSER   the cluster (superuser: ALTER SYSTEM is used)
#   CLUSTER_DATA   the data directory (only for messages; signals go by pid)
# Needs curl, jq and python3.  Every check prints "ok - ..." or
# "not ok - ... :: detail"; the last line is "http: N passed, M failed" and
# the exit status is non-zero on any failure.  Subjects are unique per run;
# every loop is bounded; only loopback is used.
set -uo pipefail
cd "$(dirname "$0")" || exit 1

URL=${REGISTRY_URL:-http://127.0.0.1:8081}
URL=${URL%/}
HOSTPART=${URL#http://}
HTTP_HOST=${HOSTPART%%:*}
HTTP_PORT=${HOSTPART##*:}
HTTP_PORT=${HTTP_PORT%%/*}
CT='application/vnd.schemaregistry.v1+json'
RUN="h$(date +%s)$$"
TMP=$(mktemp -d /tmp/registry-http.XXXXXX)
PASSED=0
FAILED=0
START=$(date +%s)

for tool in curl jq python3 psql; do
	command -v $tool >/dev/null || { echo "not ok - $tool is not installed"; echo "http: 0 passed, 1 failed"; exit 1; }
done

PSQL=(psql -XAtq -v ON_ERROR_STOP=1)
DB=$("${PSQL[@]}" -d postgres -c "SHOW registry.database" 2>/dev/null)
DB=${DB:-postgres}
sql() { "${PSQL[@]}" -d "$DB" -c "$1" 2>>"$TMP/psql.err"; }

# --- reporting ------------------------------------------------------------

pass() { PASSED=$((PASSED + 1)); echo "ok - $1"; }
fail() { FAILED=$((FAILED + 1)); echo "not ok - $1${2:+ :: $2}"; }
check() {	# check NAME CONDITION-RESULT(0/1) DETAIL
	if [ "$2" -eq 0 ]; then pass "$1"; else fail "$1" "$3"; fi
}

# --- HTTP -----------------------------------------------------------------

# req METHOD PATH [BODY [extra curl args...]] -> $STATUS, $BODY, $HDRS
# (BODY "@none": no body, for extra args on a GET)
# The body is sent with Content-Type application/vnd.schemaregistry.v1+json
# unless the extra args give another -H Content-Type.
req() {
	local method=$1 path=$2
	shift 2
	local args=(-s -S --max-time 20 -o "$TMP/body" -D "$TMP/hdrs" -w '%{http_code}' -X "$method")
	if [ $# -gt 0 ] && [ "$1" = "@none" ]; then
		shift
	elif [ $# -gt 0 ]; then
		args+=(--data-binary "$1")
		shift
		local ct_given=0 a
		for a in "$@"; do case "$a" in [Cc]ontent-[Tt]ype:*) ct_given=1 ;; esac; done
		[ $ct_given -eq 0 ] && args+=(-H "Content-Type: $CT")
	fi
	STATUS=$(curl "${args[@]}" "$@" "$URL$path" 2>"$TMP/curl.err")
	[ -z "$STATUS" ] && STATUS=000
	BODY=$(cat "$TMP/body" 2>/dev/null)
	HDRS=$(cat "$TMP/hdrs" 2>/dev/null)
}

short() { printf '%s' "$1" | head -c 300 | tr '\n' ' '; }

# expect NAME STATUS [JQ-CONDITION]: the last response had STATUS and its
# body satisfies the jq condition (default: it is JSON).
expect() {
	local name=$1 want=$2 cond=${3:-true}
	if [ "$STATUS" != "$want" ]; then
		fail "$name" "HTTP $STATUS (want $want): $(short "$BODY")"
	elif ! printf '%s' "$BODY" | jq -e "$cond" >/dev/null 2>&1; then
		fail "$name" "body does not satisfy [$cond]: $(short "$BODY")"
	else
		pass "$name"
	fi
}

# expect_error NAME STATUS ERROR_CODE: Confluent's {"error_code","message"}
expect_error() {
	local name=$1 want=$2 code=$3
	expect "$name" "$want" \
		"(.error_code == $code) and (.message | type == \"string\" and length > 0) and (keys | sort == [\"error_code\",\"message\"])"
}

# expect_4xx NAME: any 4xx with Confluent's error body
expect_4xx() {
	local name=$1
	if [[ "$STATUS" =~ ^4[0-9][0-9]$ ]] && printf '%s' "$BODY" | jq -e \
		'(.error_code | type == "number") and (.message | type == "string")' >/dev/null 2>&1; then
		pass "$name (HTTP $STATUS, error_code $(printf '%s' "$BODY" | jq -r .error_code))"
	else
		fail "$name" "want 4xx with an error body, got HTTP $STATUS: $(short "$BODY")"
	fi
}

# wait_http URL SECONDS: poll GET / until it answers 200; prints the seconds taken
wait_http() {
	local u=$1 max=$2 i=0 code
	while [ $i -lt $((max * 4)) ]; do
		code=$(curl -s -o /dev/null --max-time 2 -w '%{http_code}' "$u/" 2>/dev/null)
		[ "$code" = 200 ] && { echo $((i / 4)); return 0; }
		sleep 0.25
		i=$((i + 1))
	done
	return 1
}

# wait_down URL SECONDS: poll until the port refuses connections
wait_down() {
	local u=$1 max=$2 i=0
	while [ $i -lt $((max * 4)) ]; do
		curl -s -o /dev/null --max-time 2 "$u/" 2>/dev/null
		[ $? -eq 7 ] && return 0	# 7: could not connect
		sleep 0.25
		i=$((i + 1))
	done
	return 1
}

# wait_sql SECONDS: poll until the cluster accepts SQL again
wait_sql() {
	local max=$1 i=0
	while [ $i -lt $((max * 4)) ]; do
		"${PSQL[@]}" -d "$DB" -c "SELECT 1" >/dev/null 2>&1 && return 0
		sleep 0.25
		i=$((i + 1))
	done
	return 1
}

# A fingerprint of every registry table and id sequence: the rows go to
# a file, "FILE:md5" to stdout.
snapshot() {
	local f
	f=$(mktemp "$TMP/snap.XXXXXX")
	sql "SELECT x FROM (
		SELECT 'config ' || row_to_json(t)::text AS x FROM registry.config t
		UNION ALL SELECT 'contexts ' || row_to_json(t)::text FROM registry.contexts t
		UNION ALL SELECT 'seq ' || t.context || ' ' || t.id_sequence::text || ' ' ||
			coalesce(pg_sequence_last_value(t.id_sequence)::text, '-') FROM registry.contexts t
		UNION ALL SELECT 'modes ' || row_to_json(t)::text FROM registry.modes t
		UNION ALL SELECT 'refs ' || row_to_json(t)::text FROM registry.schema_references t
		UNION ALL SELECT 'schemas ' || row_to_json(t)::text FROM registry.schemas t
		UNION ALL SELECT 'versions ' || row_to_json(t)::text FROM registry.subject_versions t
		UNION ALL SELECT 'subjects ' || row_to_json(t)::text FROM registry.subjects t
		UNION ALL SELECT 'seq default_context_ids ' ||
			coalesce(pg_sequence_last_value('registry.default_context_ids')::text, '-')) s
		ORDER BY x" >"$f" 2>/dev/null || echo "snapshot failed $(date +%s%N)" >>"$f"
	echo "$f:$(md5sum <"$f" | cut -c1-32)"
}
# same_rows NAME BEFORE AFTER: a check that no table row changed;
# same_sequences NAME BEFORE AFTER: that no id sequence advanced
same_rows() {
	local name=$1 a=${2%:*} b=${3%:*}
	if [ -s "$a" ] && [ -s "$b" ] && diff -q <(grep -av '^seq ' "$a") <(grep -av '^seq ' "$b") >/dev/null; then
		pass "$name"
	else
		fail "$name" "changed rows: $(diff <(grep -av '^seq ' "$a") <(grep -av '^seq ' "$b") | grep '^[<>]' | head -c 600 | tr '\n' ' ')"
	fi
}
same_sequences() {
	local name=$1 a=${2%:*} b=${3%:*}
	if [ -s "$a" ] && [ -s "$b" ] && diff -q <(grep -a '^seq ' "$a") <(grep -a '^seq ' "$b") >/dev/null; then
		pass "$name"
	else
		fail "$name" "$(diff <(grep -a '^seq ' "$a") <(grep -a '^seq ' "$b") | grep '^[<>]' | head -c 600 | tr '\n' ' ')"
	fi
}

restore_guc() {
	sql "ALTER SYSTEM RESET registry.http_max_body_size" >/dev/null 2>&1
	sql "ALTER SYSTEM RESET registry.http_port" >/dev/null 2>&1
	local g
	for g in http_max_connections http_max_body_memory http_request_timeout http_lock_wait \
		http_statement_timeout; do
		sql "ALTER SYSTEM RESET registry.$g" >/dev/null 2>&1
	done
	sql "SELECT pg_reload_conf()" >/dev/null 2>&1
}
cleanup() {
	restore_guc
	rm -rf "$TMP"
}
trap cleanup EXIT

# An Avro record schema as a JSON string literal (for the "schema" member):
# avro NAME [EXTRA-FIELDS-JSON]
avro() {
	local name=$1 extra=${2:-}
	jq -cn --arg n "$name" --argjson x "[${extra}]" \
		'{type:"record",name:$n,fields:([{name:"a",type:"int"}] + $x)} | tojson'
}
F_B='{"name":"b","type":"string","default":"x"}'
F_C='{"name":"c","type":["null","long"],"default":null}'

echo "# registry HTTP tests against $URL (database $DB, data ${CLUSTER_DATA:-?}), run $RUN"

if ! wait_http "$URL" 15 >/dev/null; then
	fail "the REST API answers GET / at $URL" "no answer within 15 s"
	echo "http: $PASSED passed, $FAILED failed"
	exit 1
fi

##############################################################################
# 1. Every route, round trip
##############################################################################
echo "# 1. routes"
S1="$RUN-s1"
S2="$RUN-ref"
SL="$RUN/slash"	# a subject containing "/"
SLE="$RUN%2Fslash"
REC="R_$RUN"	# record name unique per run, so are the schemas and their ids
A1=$(avro "$REC")
A2=$(avro "$REC" "$F_B")
A3=$(avro "$REC" "$F_B,$F_C")

req GET /
expect "GET / -> {}" 200 '. == {}'
if printf '%s' "$HDRS" | grep -qi "^content-type: application/vnd.schemaregistry.v1+json"; then
	pass "GET / Content-Type is application/vnd.schemaregistry.v1+json"
else
	fail "GET / Content-Type is application/vnd.schemaregistry.v1+json" "$(printf '%s' "$HDRS" | grep -i content-type)"
fi
req POST / '{}'
expect "POST / -> {}" 200 '. == {}'
req GET / @none -H "Accept: application/json"
expect "GET / with Accept: application/json" 200 '. == {}'
req GET /schemas/types
expect "GET /schemas/types contains AVRO" 200 'type == "array" and index("AVRO") != null'

# --- GET /metrics ---------------------------------------------------------

# metric NAME [LABELS]: the value of one sample in the last scrape ($BODY), 0 if absent
metric() {
	local key=$1
	[ -n "${2:-}" ] && key="$1{$2}"
	printf '%s\n' "$BODY" | KEY=$key awk '$1 == ENVIRON["KEY"] { v = $2 } END { print (v == "" ? 0 : v) }'
}
req GET /metrics @none -H "Accept: application/json"
check "GET /metrics answers 200 in Prometheus' text format, whatever Accept says" \
	$([ "$STATUS" = 200 ] && printf '%s' "$HDRS" | grep -qi '^content-type: text/plain; version=0.0.4' && echo 0 || echo 1) "HTTP $STATUS $(printf '%s' "$HDRS" | grep -i content-type)"
missing=
for m in kafka_schema_registry_api_success_count kafka_schema_registry_api_failure_count \
	kafka_schema_registry_master_slave_role kafka_schema_registry_node_count \
	kafka_schema_registry_registered_count kafka_schema_registry_deleted_count \
	kafka_schema_registry_avro_schemas_created kafka_schema_registry_json_schemas_created \
	kafka_schema_registry_protobuf_schemas_deleted; do
	# grep without -q reads the whole scrape: an early exit would end printf
	# with SIGPIPE, which pipefail counts as a failure
	printf '%s\n' "$BODY" | grep "^# TYPE $m " >/dev/null && printf '%s\n' "$BODY" | grep "^$m [0-9]" >/dev/null || missing="$missing $m"
done
check "the scrape has Confluent's metric names" $([ -z "$missing" ] && echo 0 || echo 1) "missing:$missing"
check "this node reports itself as the primary" $([ "$(metric kafka_schema_registry_master_slave_role)" = 1 ] && echo 0 || echo 1) "$(metric kafka_schema_registry_master_slave_role)"
ok0=$(metric kafka_schema_registry_api_success_count)
bad0=$(metric kafka_schema_registry_api_failure_count)
avro0=$(metric kafka_schema_registry_avro_schemas_created)
del0=$(metric kafka_schema_registry_deleted_count)
reg0=$(metric registry_http_requests_total 'method="POST",route="/subjects/*/versions",code="2xx"')
req POST "/subjects/$RUN-metrics/versions" '{"schema":"{\"type\":\"fixed\",\"name\":\"M\",\"size\":3}"}'
req GET "/subjects/$RUN-metrics/versions"
req GET "/subjects/$RUN-metrics/versions/1"
req GET "/subjects/$RUN-metrics-none/versions"
req DELETE "/subjects/$RUN-metrics/versions/1"
req GET /no/such/route
req GET /metrics
ok1=$(metric kafka_schema_registry_api_success_count)
bad1=$(metric kafka_schema_registry_api_failure_count)
check "api_success_count counts every answer below 400, over all workers ($ok0 -> $ok1: the last scrape and 4 requests)" \
	$([ $((ok1 - ok0)) -eq 5 ] && echo 0 || echo 1) "delta $((ok1 - ok0))"
check "api_failure_count counts the 404s ($bad0 -> $bad1)" $([ $((bad1 - bad0)) -eq 2 ] && echo 0 || echo 1) "delta $((bad1 - bad0))"
check "avro_schemas_created counts the registered version" \
	$([ $(($(metric kafka_schema_registry_avro_schemas_created) - avro0)) -eq 1 ] && echo 0 || echo 1) "$avro0 -> $(metric kafka_schema_registry_avro_schemas_created)"
check "deleted_count counts the soft-deleted version" \
	$([ $(($(metric kafka_schema_registry_deleted_count) - del0)) -eq 1 ] && echo 0 || echo 1) "$del0 -> $(metric kafka_schema_registry_deleted_count)"
check "registered_count is the versions in the catalog" \
	$([ "$(metric kafka_schema_registry_registered_count)" = "$(sql 'SELECT count(*) FROM registry.subject_versions')" ] && echo 0 || echo 1) \
	"$(metric kafka_schema_registry_registered_count) vs $(sql 'SELECT count(*) FROM registry.subject_versions')"
reg1=$(metric registry_http_requests_total 'method="POST",route="/subjects/*/versions",code="2xx"')
check "the per-route count of POST /subjects/*/versions went up by one" $([ $((reg1 - reg0)) -eq 1 ] && echo 0 || echo 1) "$reg0 -> $reg1"
hcount=$(metric registry_http_request_duration_seconds_count 'method="GET",route="/subjects/*/versions"')
hinf=$(metric registry_http_request_duration_seconds_bucket 'method="GET",route="/subjects/*/versions",le="+Inf"')
hclasses=$(( $(metric registry_http_requests_total 'method="GET",route="/subjects/*/versions",code="2xx"') + $(metric registry_http_requests_total 'method="GET",route="/subjects/*/versions",code="4xx"') ))
check "the latency histogram of a route counts its requests ($hcount = +Inf bucket $hinf = by status $hclasses)" \
	$([ "$hcount" -ge 2 ] && [ "$hcount" = "$hinf" ] && [ "$hcount" = "$hclasses" ] && echo 0 || echo 1) "count $hcount, +Inf $hinf, by status $hclasses"
fromsql=$(sql "SELECT status FROM registry.rest('GET', '/metrics') WHERE response LIKE '%kafka_schema_registry_registered_count %'")
check "registry.rest('GET', '/metrics') answers the same scrape from SQL" $([ "$fromsql" = 200 ] && echo 0 || echo 1) "$fromsql"

req POST "/subjects/$S1/versions" "{\"schema\":$A1}"
expect "register v1" 200 '(.id | type == "number") and .version == 1'
ID1=$(printf '%s' "$BODY" | jq -r '.id // empty')
req POST "/subjects/$S1/versions" "{\"schema\":$A1}"
expect "register the same schema again: same id, same version" 200 ".id == ${ID1:-0} and .version == 1"
req POST "/subjects/$S1/versions" "{\"schema\":$A2,\"schemaType\":\"AVRO\"}"
expect "register v2 (adds a field with a default)" 200 ".version == 2 and .id != ${ID1:-0}"
ID2=$(printf '%s' "$BODY" | jq -r '.id // empty')
ID1=${ID1:-0}
ID2=${ID2:-0}

req GET /schemas/ids/$ID1
expect "GET /schemas/ids/{id}" 200 ".schema == $A1 and (has(\"maxId\") | not)"
req GET "/schemas/ids/$ID1?fetchMaxId=true"
expect "GET /schemas/ids/{id}?fetchMaxId=true has maxId >= both ids" 200 ".schema == $A1 and .maxId >= $ID2"
req GET /schemas/ids/$ID1/schema
expect "GET /schemas/ids/{id}/schema is the raw schema" 200 ". == ($A1 | fromjson)"
req GET /schemas/ids/$ID1/subjects
expect "GET /schemas/ids/{id}/subjects" 200 ". == [\"$S1\"]"
req GET /schemas/ids/$ID1/versions
expect "GET /schemas/ids/{id}/versions" 200 ". == [{\"subject\":\"$S1\",\"version\":1}]"
req GET "/schemas?subjectPrefix=$S1"
expect "GET /schemas?subjectPrefix=" 200 "length == 2 and (map(.subject) | unique) == [\"$S1\"] and (map(.version) == [1,2])"
req GET "/schemas?subjectPrefix=$S1&latestOnly=true"
expect "GET /schemas?latestOnly=true" 200 "length == 1 and .[0].version == 2"
req GET /schemas
expect "GET /schemas (all)" 200 "type == \"array\" and (map(select(.subject == \"$S1\")) | length) == 2"

req GET /subjects
expect "GET /subjects lists the subject" 200 "index(\"$S1\") != null"
req GET "/subjects?subjectPrefix=$S1"
expect "GET /subjects?subjectPrefix=" 200 ". == [\"$S1\"]"
req GET "/subjects/$S1/versions"
expect "GET /subjects/{s}/versions" 200 '. == [1,2]'
req GET "/subjects/$S1/versions/1"
expect "GET /subjects/{s}/versions/1" 200 ".subject == \"$S1\" and .version == 1 and .id == $ID1 and .schema == $A1"
req GET "/subjects/$S1/versions/latest"
expect "GET /subjects/{s}/versions/latest" 200 '.version == 2'
req GET "/subjects/$S1/versions/LATEST"
expect "GET /subjects/{s}/versions/LATEST (case-insensitive)" 200 '.version == 2'
req GET "/subjects/$S1/versions/-1"
expect "GET /subjects/{s}/versions/-1" 200 ".version == 2 and .id == $ID2"
req GET "/subjects/$S1/versions/2/schema"
expect "GET /subjects/{s}/versions/{v}/schema" 200 ". == ($A2 | fromjson)"
req GET "/subjects/$S1/versions/1/referencedby"
expect "GET referencedby (none)" 200 '. == []'

req POST "/subjects/$S1" "{\"schema\":$A1}"
expect "lookup POST /subjects/{s}" 200 ".subject == \"$S1\" and .version == 1 and .id == $ID1"
req POST "/subjects/$S1" "{\"schema\":$A3}"
expect_error "lookup of an unregistered schema -> 40403" 404 40403
req POST "/subjects/$RUN-nosuch" "{\"schema\":$A1}"
expect_error "lookup in a missing subject -> 40401" 404 40401

# compatibility
req POST "/compatibility/subjects/$S1/versions/latest" "{\"schema\":$A3}"
expect "compatibility with version latest: compatible" 200 '. == {"is_compatible":true}'
req POST "/compatibility/subjects/$S1/versions/1" "{\"schema\":$(avro "$REC" '{"name":"z","type":"int"}')}"
expect "compatibility with version 1: new field without default is incompatible" 200 '. == {"is_compatible":false}'
req POST "/compatibility/subjects/$S1/versions?verbose=true" "{\"schema\":$(jq -cn --arg n "$REC" '{type:"record",name:$n,fields:[{name:"a",type:"string"}]} | tojson')}"
expect "compatibility without version, verbose: messages" 200 '.is_compatible == false and (.messages | type == "array" and length > 0)'
req POST "/compatibility/subjects/$S1/versions" "{\"schema\":$A3}"
expect "compatibility without version: compatible, no messages" 200 '. == {"is_compatible":true}'
req POST "/compatibility/subjects/$S1/versions/7" "{\"schema\":$A3}"
expect_error "compatibility with a missing version -> 40402" 404 40402

# references: S2 references S1 version 1 (record $REC)
REFSCHEMA=$(jq -cn --arg n "$REC" '{type:"record",name:("O_" + $n),fields:[{name:"inner",type:$n}]} | tojson')
req POST "/subjects/$S2/versions" "{\"schema\":$REFSCHEMA,\"references\":[{\"name\":\"$REC\",\"subject\":\"$S1\",\"version\":1}]}"
expect "register with a reference" 200 '.version == 1'
IDREF=$(printf '%s' "$BODY" | jq -r '.id // 0')
req GET "/subjects/$S1/versions/1/referencedby"
expect "GET referencedby lists the referrer" 200 ". == [$IDREF]"
req GET "/subjects/$S2/versions/1"
expect "GET version returns the references" 200 ".references == [{\"name\":\"$REC\",\"subject\":\"$S1\",\"version\":1}]"
req DELETE "/subjects/$S1/versions/1"
expect_error "delete of a referenced version -> 42206" 422 42206

# config
req GET /config
expect "GET /config" 200 '.compatibilityLevel | type == "string"'
GLOBAL_COMPAT=$(printf '%s' "$BODY" | jq -r '.compatibilityLevel // "BACKWARD"')
req PUT "/config/$S1" '{"compatibility":"FULL"}'
expect "PUT /config/{s}" 200 '.compatibility == "FULL"'
req GET "/config/$S1"
expect "GET /config/{s}" 200 '.compatibilityLevel == "FULL"'
req GET "/config/$RUN-noconfig"
expect_error "GET /config/{s} without a subject config -> 40408" 404 40408
req GET "/config/$RUN-noconfig?defaultToGlobal=true"
expect "GET /config/{s}?defaultToGlobal=true" 200 ".compatibilityLevel == \"$GLOBAL_COMPAT\""
req DELETE "/config/$S1"
expect "DELETE /config/{s} returns the old config" 200 '.compatibilityLevel == "FULL"'
req DELETE "/config/$S1"
expect_error "DELETE /config/{s} again -> 40401" 404 40401
req PUT /config "{\"compatibility\":\"$GLOBAL_COMPAT\"}"
expect "PUT /config (same level)" 200 ".compatibility == \"$GLOBAL_COMPAT\""
req DELETE /config
expect "DELETE /config returns the old config" 200 ".compatibilityLevel == \"$GLOBAL_COMPAT\""
req GET /config
expect "GET /config after DELETE: the default" 200 '.compatibilityLevel == "BACKWARD"'
if [ "$GLOBAL_COMPAT" != BACKWARD ]; then req PUT /config "{\"compatibility\":\"$GLOBAL_COMPAT\"}"; fi

# mode
req GET /mode
expect "GET /mode" 200 '.mode == "READWRITE"'
req PUT /mode '{"mode":"READWRITE"}'
expect "PUT /mode" 200 '.mode == "READWRITE"'
req DELETE /mode
expect "DELETE /mode" 200 '.mode == "READWRITE"'
req PUT "/mode/$S1" '{"mode":"READONLY"}'
expect "PUT /mode/{s} READONLY" 200 '.mode == "READONLY"'
req GET "/mode/$S1"
expect "GET /mode/{s}" 200 '.mode == "READONLY"'
req POST "/subjects/$S1/versions" "{\"schema\":$A3}"
expect_error "register into a READONLY subject -> 42205" 422 42205
req POST "/subjects/$S1/versions" "{\"schema\":$A2}"
expect "re-register an existing schema in READONLY (idempotent)" 200 '.version == 2'
req DELETE "/mode/$S1"
expect "DELETE /mode/{s}" 200 '.mode == "READONLY"'
req GET "/mode/$S1"
expect_error "GET /mode/{s} after delete -> 40409" 404 40409
req GET "/mode/$S1?defaultToGlobal=true"
expect "GET /mode/{s}?defaultToGlobal=true" 200 '.mode == "READWRITE"'

# subject containing "/" (sent as %2F)
req POST "/subjects/$SLE/versions" "{\"schema\":$A1}"
expect "register a subject with %2F" 200 ".id == $ID1 and .version == 1"
req GET "/subjects/$SLE/versions/1"
expect "the %2F subject is one subject named with a /" 200 ".subject == \"$SL\""
req GET "/subjects?subjectPrefix=$RUN"
expect "GET /subjects shows the / subject" 200 "index(\"$SL\") != null"

# contexts
CTX=".c$RUN"
CS=":$CTX:name"
req POST "/subjects/:$CTX:name/versions" "{\"schema\":$A2}"
expect "register in a new context: ids start at 1 per context" 200 '.id == 1 and .version == 1'
req POST "/contexts/$CTX/subjects/name2/versions" "{\"schema\":$A1}"
expect "register with the /contexts/{ctx}/subjects prefix form" 200 '.id == 2 and .version == 1'
req GET /contexts
expect "GET /contexts lists . first and the new context" 200 ".[0] == \".\" and index(\"$CTX\") != null"
req GET "/subjects?subjectPrefix=:$CTX:"
expect "GET /subjects lists qualified context subjects" 200 ". == [\"$CS\",\":$CTX:name2\"]"
req GET "/contexts/$CTX/subjects"
expect "GET /contexts/{ctx}/subjects" 200 ". == [\"$CS\",\":$CTX:name2\"]"
req GET "/contexts/$CTX/subjects/name/versions/latest"
expect "GET /contexts/{ctx}/subjects/{s}/versions/latest" 200 ".subject == \"$CS\" and .id == 1 and .schema == $A2"
req GET "/schemas/ids/2?subject=:$CTX:"
expect "GET /schemas/ids/{id}?subject=:ctx: resolves in the context" 200 ".schema == $A1"
req GET "/contexts/$CTX/schemas/ids/1"
expect "GET /contexts/{ctx}/schemas/ids/{id}" 200 ".schema == $A2"
req GET "/subjects/:$CTX:name/versions"
expect "GET /subjects/:.ctx:name/versions" 200 '. == [1]'
req PUT "/contexts/$CTX/config/name" '{"compatibility":"NONE"}'
expect "PUT /contexts/{ctx}/config/{s}" 200 '.compatibility == "NONE"'
req GET "/config/:$CTX:name"
expect "GET /config/:.ctx:name sees it" 200 '.compatibilityLevel == "NONE"'
req DELETE "/config/:$CTX:name"
expect "DELETE /config/:.ctx:name" 200 '.compatibilityLevel == "NONE"'

# data contracts: rule set validation, config defaults/overrides, metadata-only updates
req POST /subjects/dc-http-bad/versions '{"schema":"\"int\"","ruleSet":{"domainRules":[{"name":"r","type":"CEL","mode":"UPGRADE"}]}}'
expect "a domain rule with a migration mode is 42210 with Confluent's words" 422 \
	'.error_code == 42210 and .message == "Domain rules can only be WRITE, READ, WRITEREAD"'
req GET /subjects/dc-http-bad/versions
expect_error "the refused rule set stored nothing" 404 40401
req PUT /config/dc-http '{"defaultMetadata":{"properties":{"owner":"ops"}},"overrideMetadata":{"properties":{"pii":"false"}}}'
expect "PUT /config/{s} with defaultMetadata and overrideMetadata" 200 '.defaultMetadata.properties.owner == "ops"'
req POST /subjects/dc-http/versions '{"schema":"{\"type\":\"record\",\"name\":\"D\",\"fields\":[]}","metadata":{"properties":{"pii":"true","team":"x"}}}'
expect "register merges default, request and override metadata" 200 '.id > 0 and .version == 1'
req GET /subjects/dc-http/versions/1
expect "the stored metadata is the merge, in Confluent's order" 200 \
	'(.metadata | tojson) == "{\"properties\":{\"owner\":\"ops\",\"pii\":\"false\",\"team\":\"x\"}}"'
req POST /subjects/dc-http '{"schema":"{\"type\":\"record\",\"name\":\"D\",\"fields\":[]}"}'
expect "lookup without metadata finds the version registered with the merged metadata" 200 '.version == 1'
req POST /subjects/dc-http/versions '{"schema":"","metadata":{"properties":{"team":"y"}}}'
expect "an empty schema with new metadata makes version 2 of the previous schema" 200 '.version == 2'
req GET /subjects/dc-http/versions/2
expect "version 2 holds the previous schema and the new merged metadata" 200 \
	'.schema == "{\"type\":\"record\",\"name\":\"D\",\"fields\":[]}" and .metadata.properties == {"owner":"ops","pii":"false","team":"y"}'
req POST /subjects/dc-http-empty/versions '{"schema":""}'
expect "an empty schema without a previous version is 42201 Empty schema" 422 '.error_code == 42201 and .message == "Empty schema"'
req DELETE /config/dc-http
expect "DELETE /config/{s}" 200 '.defaultMetadata.properties.owner == "ops"'

# Confluent 8.x: guid, ts and deleted; /schemas/guids/{guid}[/ids];
# the subject version of GET /schemas/ids/{id}?subject=
GS="$RUN-guid"
GUIDRE='^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
req POST "/subjects/$GS/versions" "{\"schema\":$A1}"
expect "register answers guid, ts and deleted (8.x RegisterSchemaResponse)" 200 \
	".id == $ID1 and (.guid | test(\"$GUIDRE\")) and ((.ts / 1000 - now) | fabs) < 600 and .deleted == false"
GUID=$(printf '%s' "$BODY" | jq -r '.guid // empty')
WANT=$(printf '%s' "$BODY" | jq -j '.schema' | python3 -c 'import sys, hashlib, uuid; print(uuid.UUID(bytes=hashlib.md5(sys.stdin.buffer.read()).digest()))')
check "the guid is the UUID of the MD5 of the stored schema, as Confluent's ($GUID)" \
	$([ -n "$GUID" ] && [ "$GUID" = "$WANT" ] && echo 0 || echo 1) "got $GUID, want $WANT"
req GET "/subjects/$GS/versions/1"
expect "GET /subjects/{s}/versions/{v} has guid, ts and deleted" 200 ".guid == \"$GUID\" and (.ts | type == \"number\") and .deleted == false"
req GET "/schemas/ids/$ID1"
expect "GET /schemas/ids/{id}: guid and ts, no subject, version or deleted" 200 \
	".guid == \"$GUID\" and (.ts | type == \"number\") and (has(\"subject\") or has(\"version\") or has(\"deleted\") | not)"
req GET "/schemas/ids/$ID1?subject=$GS"
expect "GET /schemas/ids/{id}?subject=s names the subject version (8.x)" 200 \
	".subject == \"$GS\" and .version == 1 and .deleted == false and .guid == \"$GUID\" and .schema == $A1"
req GET "/schemas/ids/$ID2?subject=$GS"
expect "  ... a subject without the id: a version of its context that has it" 200 ".subject == \"$S1\" and .version == 2"
req GET "/schemas/ids/2?subject=:$CTX:name"
expect_error "  ... a qualified subject without the id -> 40403" 404 40403
req GET "/schemas/ids/2?subject=:$CTX:"
expect "  ... a context: the version of it that has the id" 200 ".subject == \":$CTX:name2\" and .version == 1"
req GET "/schemas?subjectPrefix=$GS"
expect "GET /schemas entries have guid, ts and deleted" 200 ".[0].guid == \"$GUID\" and (.[0].ts | type == \"number\") and .[0].deleted == false"
req POST "/subjects/$GS" "{\"schema\":$A1}"
expect "lookup has guid and ts" 200 ".guid == \"$GUID\" and (.ts | type == \"number\") and .version == 1"
req GET "/schemas/guids/$GUID"
expect "GET /schemas/guids/{guid}: the SchemaString, without subject or version" 200 \
	".guid == \"$GUID\" and .schema == $A1 and .schemaType == \"AVRO\" and (has(\"subject\") or has(\"version\") | not)"
req GET "/schemas/guids/$GUID/ids"
expect "GET /schemas/guids/{guid}/ids: its id in each context, default first" 200 \
	". == [{\"context\":\".\",\"id\":$ID1},{\"context\":\"$CTX\",\"id\":2}]"
req GET "/schemas/guids/00000000-0000-0000-0000-000000000000"
expect "GET /schemas/guids/{unknown} -> 40403 Schema <guid> not found" 404 \
	'.error_code == 40403 and .message == "Schema 00000000-0000-0000-0000-000000000000 not found"'
req GET "/schemas/guids/nonsense/ids"
expect "GET /schemas/guids/{not a guid}/ids -> []" 200 '. == []'
n=$(sql "SELECT count(*) FROM registry.schema_ids_by_guid('$GUID')")
check "registry.schema_ids_by_guid() from SQL ($n)" $([ "$n" = 2 ] && echo 0 || echo 1) "$n"
# the cached answer without a subject, the uncached one with it
req DELETE "/subjects/$GS/versions/1"
expect "soft-delete the version" 200 '. == 1'
req GET "/schemas/ids/$ID1?subject=$GS"
expect "GET /schemas/ids/{id}?subject=s after the soft delete: deleted" 200 ".subject == \"$GS\" and .version == 1 and .deleted == true"
req GET "/schemas/ids/$ID1"
expect "GET /schemas/ids/{id} still answers the same" 200 ".guid == \"$GUID\" and (has(\"deleted\") | not)"

# registering through an alias answers the served version's guid and ts
req PUT "/config/$GS-alias" "{\"alias\":\"$GS-target\"}"
req POST "/subjects/$GS-alias/versions" "{\"schema\":$A3}"
AG=$(printf '%s' "$BODY" | jq -r '.guid // empty')
req GET "/subjects/$GS-target/versions/1"
expect "registering through an alias answers the guid of the version it made" 200 ".guid == \"$AG\" and (\"$AG\" | length) == 36"
req DELETE "/config/$GS-alias"

# PUT /config answers the stored configuration (8.x), also for {}
req PUT "/config/$GS" '{"compatibility":"FULL"}'
expect "PUT /config/{s}" 200 '. == {"compatibility":"FULL"}'
req PUT "/config/$GS" '{}'
expect "PUT /config/{s} {} answers the current config" 200 '. == {"compatibility":"FULL"}'
req PUT "/config/$GS" '{"normalize":true}'
expect "PUT /config/{s} answers the whole stored config" 200 '. == {"compatibility":"FULL","normalize":true}'
req DELETE "/config/$GS"
expect "DELETE /config/{s}" 200 '.compatibilityLevel == "FULL"'
req GET /config
GLOBAL=$BODY
req PUT /config '{}'
expect "PUT /config {}" 200 "type == \"object\" and ((.compatibility // \"BACKWARD\") == ($GLOBAL | .compatibilityLevel))"
req GET /config
expect "  ... and the global config is unchanged" 200 ". == $GLOBAL"

# empty schemas: no schema at all, as Confluent's trim().isEmpty()
req POST "/subjects/$S1" '{"schema":""}'
expect_error "lookup with an empty schema -> 40403" 404 40403
req POST "/subjects/$S1" '{"schema":" \n\t "}'
expect_error "lookup with a whitespace-only schema -> 40403" 404 40403
req POST "/subjects/$S1" '{}'
expect_error "lookup without a schema -> 40403" 404 40403
req POST "/subjects/$RUN-nobody" '{"schema":""}'
expect_error "lookup with an empty schema in a missing subject -> 40401" 404 40401
req POST "/subjects/$RUN-empty/versions" '{"schema":" \n "}'
expect "register a whitespace-only schema without a previous version -> 42201 Empty schema" 422 \
	'.error_code == 42201 and .message == "Empty schema"'

# /contexts/{ctx}/ as Confluent's ContextFilter reads it
req GET "/contexts/.a:b/subjects"
expect "GET /contexts/{ctx with a colon}/subjects is 400" 400 '.error_code == 400 and .message == "Context name cannot contain a colon"'
req GET "/contexts/:$CTX:/subjects/name/versions"
expect "GET /contexts/:{ctx}:/subjects/{s}/versions (colons around the context dropped)" 200 '. == [1]'
req GET "/contexts/$CTX/subjects/:$CTX:name/versions"
expect "GET /contexts/{ctx}/subjects/{qualified s}/versions keeps the qualified subject" 200 '. == [1]'

# the .__GLOBAL context: config and mode only
req POST "/subjects/:.__GLOBAL:$RUN-g/versions" "{\"schema\":$A1}"
expect "POST /subjects/:.__GLOBAL:s/versions is 42208" 422 ".error_code == 42208 and .message == \"The specified subject ':.__GLOBAL:$RUN-g' is not a valid.\""
req POST "/contexts/.__GLOBAL/subjects/$RUN-g/versions" "{\"schema\":$A1}"
expect "POST /contexts/.__GLOBAL/subjects/s/versions is 42208" 422 '.error_code == 42208'
req PUT "/config/:.__GLOBAL:" '{"compatibility":"BACKWARD"}'
expect "PUT /config/:.__GLOBAL: works" 200 '.compatibility == "BACKWARD"'
req GET "/config/:.__GLOBAL:"
expect "GET /config/:.__GLOBAL:" 200 '.compatibilityLevel == "BACKWARD"'
req DELETE "/config/:.__GLOBAL:"
expect "DELETE /config/:.__GLOBAL:" 200 '.compatibilityLevel == "BACKWARD"'
req PUT "/mode/:.__GLOBAL:" '{"mode":"READWRITE"}'
expect "PUT /mode/:.__GLOBAL: works" 200 '.mode == "READWRITE"'
req DELETE "/mode/:.__GLOBAL:"
expect "DELETE /mode/:.__GLOBAL:" 200 '.mode == "READWRITE"'
req GET /contexts
expect "GET /contexts does not list .__GLOBAL" 200 'index(".__GLOBAL") == null'
req GET "/subjects?subjectPrefix=:.__GLOBAL:"
expect "GET /subjects lists nothing under .__GLOBAL" 200 '. == []'
req GET "/schemas?subjectPrefix=:.__GLOBAL:"
expect "GET /schemas lists nothing under .__GLOBAL" 200 '. == []'

# context names: a refused one creates nothing
for bad in '.bad!' '.has%20space' '.at@sign' '.hash%23char' '.pct%25enc'; do
	req POST "/subjects/:$bad$RUN:s/versions" "{\"schema\":$A1}"
	expect "POST /subjects/:$bad:s/versions is 42208" 422 '.error_code == 42208 and (.message | endswith("is not a valid."))'
	req POST "/contexts/$bad$RUN/subjects/s/versions" "{\"schema\":$A1}"
	expect "POST /contexts/$bad/subjects/s/versions is 42208" 422 '.error_code == 42208'
	req PUT "/config/:$bad$RUN:" '{"compatibility":"NONE"}'
	expect "PUT /config/:$bad: is 42208" 422 '.error_code == 42208'
done
req GET /contexts
expect "GET /contexts lists none of the refused names" 200 "map(select(contains(\"$RUN\") and test(\"[^A-Za-z0-9._-]\"))) == []"
check "no row for a refused context name" "$([ "$(sql "SELECT count(*) FROM registry.contexts WHERE context ~ '[^A-Za-z0-9._-]'")" = 0 ] && echo 0 || echo 1)" \
	"$(sql "SELECT string_agg(context, ' ') FROM registry.contexts")"
req POST "/subjects/:.My-Ctx_v2.0$RUN:all-chars/versions" "{\"schema\":$A1}"
expect "a context name of letters, digits, '.', '_' and '-' is valid" 200 '.id == 1'

# config alias: the subject is served as its alias (not /config, /mode)
AT="$RUN-al-target"
AN="$RUN-al-name"
req POST "/subjects/$AT/versions" "{\"schema\":$A1}"
expect "alias: register the target" 200 '.version == 1'
AID=$(printf '%s' "$BODY" | jq -r .id)
req PUT "/config/$AN" "{\"alias\":\"$AT\"}"
expect "PUT /config/{s} with an alias" 200 ".alias == \"$AT\""
req GET "/config/$AN"
expect "GET /config/{s} is the subject's own config, alias and all" 200 ".alias == \"$AT\""
req GET "/subjects/$AN/versions"
expect "GET /subjects/{alias}/versions reads the target" 200 '. == [1]'
req GET "/subjects/$AN/versions/latest"
expect "GET /subjects/{alias}/versions/latest is the target's" 200 ".subject == \"$AT\" and .version == 1 and .id == $AID"
req GET "/subjects/$AN/versions/1/schema"
expect "GET /subjects/{alias}/versions/1/schema" 200 ". == ($A1 | fromjson)"
req POST "/subjects/$AN" "{\"schema\":$A1}"
expect "POST /subjects/{alias} finds the schema under the target" 200 ".subject == \"$AT\" and .version == 1 and .id == $AID"
req POST "/compatibility/subjects/$AN/versions/latest" "{\"schema\":$A2}"
expect "POST /compatibility/subjects/{alias}/versions/latest" 200 '.is_compatible == true'
req GET "/schemas/ids/$AID/versions?subject=$AN"
expect "GET /schemas/ids/{id}/versions?subject={alias}" 200 "index({\"subject\":\"$AT\",\"version\":1}) != null"
req POST "/subjects/$AN/versions" "{\"schema\":$A2}"
expect "POST /subjects/{alias}/versions registers under the target" 200 '.version == 2'
req GET "/subjects/$AT/versions"
expect "the target has the new version" 200 '. == [1,2]'
req GET "/subjects?subjectPrefix=$RUN-al-"
expect "the alias is no subject of its own" 200 ". == [\"$AT\"]"
req GET "/schemas?subjectPrefix=$AN&aliases=true"
expect "GET /schemas?aliases=true brings the alias's subject, naming its aliases" 200 "length == 2 and all(.[]; .subject == \"$AT\" and .aliases == [\"$AN\"])"
req GET "/schemas?subjectPrefix=$AN"
expect "GET /schemas without aliases=true lists nothing under the alias's name" 200 '. == []'
req GET "/schemas?subjectPrefix=$RUN-al-&aliases=true&latestOnly=true"
expect "GET /schemas?aliases=true&latestOnly=true" 200 "length == 1 and .[0].version == 2 and .[0].aliases == [\"$AN\"]"
req GET "/schemas?subjectPrefix=$AT"
expect "GET /schemas without aliases=true has no aliases member" 200 'length == 2 and all(.[]; has("aliases") | not)'
req GET "/subjects/$AN/versions/9"
expect "GET /subjects/{alias}/versions/9 is 40402" 404 '.error_code == 40402'
req PUT "/config/$RUN-al-ghost" "{\"alias\":\"$RUN-al-nothing\"}"
req GET "/subjects/$RUN-al-ghost/versions"
expect "an alias to a missing subject: 40401 names the alias's subject" 404 ".error_code == 40401 and .message == \"Subject '$RUN-al-nothing' not found.\""
req DELETE "/subjects/$AN/versions/2"
expect "DELETE /subjects/{alias}/versions/2 deletes the target's" 200 '. == 2'
req GET "/subjects/$AT/versions"
expect "the target lost version 2" 200 '. == [1]'
req DELETE "/config/$AN"
expect "DELETE /config/{s} removes the alias" 200 ".alias == \"$AT\""
req GET "/subjects/$AN/versions"
expect "without the alias the subject is its own again (40401)" 404 ".error_code == 40401 and .message == \"Subject '$AN' not found.\""
req DELETE "/config/$RUN-al-ghost"
# an alias moves /schemas/ids/{id}?subject= to its context: no stale cached answer
AC=".alc$RUN"
req POST "/subjects/:$AC:t/versions" "{\"schema\":$A3}"
expect "alias and cache: a schema in another context" 200 '.id == 1'
req GET "/schemas/ids/$AID?subject=$RUN-al-x"
expect "alias and cache: GET /schemas/ids/{id}?subject=s before the alias" 200 ".schema == $A1"
req GET "/schemas/ids/$AID?subject=$RUN-al-x"
expect "alias and cache: the same again (cached)" 200 ".schema == $A1"
req PUT "/config/$RUN-al-x" "{\"alias\":\":$AC:t\"}"
expect "alias and cache: PUT /config/{s} with an alias in another context" 200 ".alias == \":$AC:t\""
req GET "/schemas/ids/$AID?subject=$RUN-al-x"
if [ "$AID" = 1 ]; then
	expect "alias and cache: the id is read in the alias's context" 200 ".schema == $A3"
else
	expect "alias and cache: the id is read in the alias's context (not there)" 404 '.error_code == 40403'
fi
req DELETE "/config/$RUN-al-x"

# The workers cache GET /subjects/{s}/versions/{v} and lookups: every answer
# after a registration, a delete, a config change and in a context is the
# new one.  Each read is asked 6 times on fresh connections, so that every
# worker has cached it before the change and answers after it.
reads() {	# reads NAME METHOD PATH BODY STATUS JQ: all 6 answers are STATUS and satisfy JQ
	local name=$1 method=$2 path=$3 body=$4 want=$5 cond=$6 i bad=""
	for i in 1 2 3 4 5 6; do
		if [ -n "$body" ]; then req "$method" "$path" "$body"; else req "$method" "$path"; fi
		if [ "$STATUS" != "$want" ] || ! printf '%s' "$BODY" | jq -e "$cond" >/dev/null 2>&1; then
			bad="answer $i: HTTP $STATUS $(short "$BODY")"
			break
		fi
	done
	check "$name" "$([ -z "$bad" ] && echo 0 || echo 1)" "$bad"
}
CS="$RUN-cache"
req POST "/subjects/$CS/versions" "{\"schema\":$A1}"
reads "subject cache: latest is version 1" GET "/subjects/$CS/versions/latest" "" 200 '.version == 1'
reads "subject cache: version 1's schema" GET "/subjects/$CS/versions/1/schema" "" 200 '.type == "record"'
reads "subject cache: lookup of version 1" POST "/subjects/$CS" "{\"schema\":$A1}" 200 '.version == 1'
req POST "/subjects/$CS/versions" "{\"schema\":$A2}"
expect "subject cache: a registration (version 2)" 200 '.id > 0'
reads "subject cache: after a registration latest is version 2" GET "/subjects/$CS/versions/latest" "" 200 '.version == 2'
reads "subject cache: lookup of version 2" POST "/subjects/$CS" "{\"schema\":$A2}" 200 '.version == 2'
req DELETE "/subjects/$CS/versions/2"
expect "subject cache: a soft delete of version 2" 200 '. == 2'
reads "subject cache: after a delete latest is version 1 again" GET "/subjects/$CS/versions/latest" "" 200 '.version == 1'
reads "subject cache: after a delete the lookup of version 2 is 40403" POST "/subjects/$CS" "{\"schema\":$A2}" 404 '.error_code == 40403'
reads "subject cache: a deleted version with deleted=true" POST "/subjects/$CS?deleted=true" "{\"schema\":$A2}" 200 '.version == 2 and .deleted == true'
req DELETE "/subjects/$CS/versions/2?permanent=true"
expect "subject cache: a permanent delete of version 2" 200 '. == 2'
reads "subject cache: after a permanent delete deleted=true finds nothing" POST "/subjects/$CS?deleted=true" "{\"schema\":$A2}" 404 '.error_code == 40403'
CX="$RUN-cache-x"
req POST "/subjects/$CX/versions" "{\"schema\":$A3}"
reads "subject cache: another subject's latest" GET "/subjects/$CX/versions/latest" "" 200 ".version == 1 and .schema == $A3"
req PUT "/config/$CX" "{\"alias\":\"$CS\"}"
expect "subject cache: a config change (an alias)" 200 ".alias == \"$CS\""
reads "subject cache: after the alias latest is the target's" GET "/subjects/$CX/versions/latest" "" 200 ".subject == \"$CS\" and .version == 1 and .schema == $A1"
req DELETE "/config/$CX"
reads "subject cache: without the alias latest is its own again" GET "/subjects/$CX/versions/latest" "" 200 ".subject == \"$CX\" and .schema == $A3"
CC=":.cache$RUN:s"
req POST "/subjects/$CC/versions" "{\"schema\":$A1}"
reads "subject cache: latest in a context" GET "/subjects/$CC/versions/latest" "" 200 ".version == 1 and .subject == \"$CC\""
reads "subject cache: lookup in a context" POST "/subjects/$CC" "{\"schema\":$A2}" 404 '.error_code == 40403'
req POST "/subjects/$CC/versions" "{\"schema\":$A2}"
reads "subject cache: after a registration in the context" GET "/subjects/$CC/versions/latest" "" 200 '.version == 2'
reads "subject cache: the lookup in the context finds it" POST "/subjects/$CC" "{\"schema\":$A2}" 200 '.version == 2'
req PUT "/mode/$CS" '{"mode":"READONLY"}'
expect "subject cache: a mode change (READONLY)" 200 '.mode == "READONLY"'
reads "subject cache: reads go on in READONLY" GET "/subjects/$CS/versions/latest" "" 200 '.version == 1'
req POST "/subjects/$CS/versions" "{\"schema\":$A3}"
expect "subject cache: a registration in READONLY is refused" 422 '.error_code == 42205'
req DELETE "/mode/$CS"
req POST "/subjects/$CS/versions" "{\"schema\":$A3}"
expect "subject cache: after the mode is removed a registration" 200 '.id > 0'
reads "subject cache: after the mode change and a registration latest is the new version" GET "/subjects/$CS/versions/latest" "" 200 ".version > 1 and .schema == $A3"

# server metadata
req GET /v1/metadata/id
expect "GET /v1/metadata/id" 200 '(.id | type == "string") and (.scope.clusters | type == "object")'
req GET /v1/metadata/version
expect "GET /v1/metadata/version" 200 '(.version | type == "string") and (.commitId | type == "string")'

# deletes: versions and subjects, soft and permanent
S3="$RUN-del"
req POST "/subjects/$S3/versions" "{\"schema\":$A1}"
req POST "/subjects/$S3/versions" "{\"schema\":$A2}"
req POST "/subjects/$S3/versions" "{\"schema\":$A3}"
expect "setup: 3 versions" 200 '.version == 3'
req DELETE "/subjects/$S3/versions/latest"
expect "DELETE versions/latest -> 3" 200 '. == 3'
req DELETE "/subjects/$S3/versions/-1"
expect "DELETE versions/-1 -> 2" 200 '. == 2'
req GET "/subjects/$S3/versions"
expect "GET versions after soft deletes" 200 '. == [1]'
req GET "/subjects/$S3/versions?deleted=true"
expect "GET versions?deleted=true" 200 '. == [1,2,3]'
req GET "/subjects/$S3/versions/2"
expect_error "GET a soft-deleted version -> 40402" 404 40402
req GET "/subjects/$S3/versions/2?deleted=true"
expect "GET a soft-deleted version with deleted=true" 200 '.version == 2'
# latest is the newest live version; with deleted=true the newest of all, soft-deleted or not
req GET "/subjects/$S3/versions/latest"
expect "GET latest with the newest versions soft-deleted -> the newest live one" 200 '.version == 1 and .deleted == false'
# the row the SQL API gives for it, with the schema's guid and the version's registration time
WANT=$(sql "SELECT json_build_object('id', v.id, 'schema', v.schema, 'guid', s.guid::text,
	'ts', floor(extract(epoch FROM sv.created_at) * 1000)::bigint)
	FROM registry.get_version('$S3', 'latest', true) v
	JOIN registry.subject_versions sv ON sv.context = '.' AND sv.subject = '$S3' AND sv.version = v.version
	JOIN registry.schemas s ON s.context = '.' AND s.id = v.id")
req GET "/subjects/$S3/versions/latest?deleted=true"
expect "GET latest?deleted=true -> the newest version, soft-deleted, as the SQL API's row" 200 \
	".version == 3 and .deleted == true and ({id, schema, guid, ts} == $WANT)"
req GET "/subjects/$S3/versions/-1?deleted=true"
expect "GET -1?deleted=true is latest?deleted=true" 200 '.version == 3 and .deleted == true'
req GET "/subjects/$S3/versions/3/schema?deleted=true"
expect "GET 3/schema?deleted=true: the soft-deleted version's schema" 200 ". == ($A3 | fromjson)"
req GET "/subjects/$S3/versions/3/schema"
expect_error "GET 3/schema of a soft-deleted version -> 40402" 404 40402
# the version id is checked before the subject, as Confluent parses it first
req GET "/subjects/$RUN-del-none/versions/x1"
expect_error "GET an invalid version of a missing subject -> 42202" 422 42202
req GET "/subjects/$RUN-del-none/versions/1"
expect_error "GET a version of a missing subject -> 40401" 404 40401
req DELETE "/subjects/$S3/versions/2"
expect_error "soft delete twice -> 40406" 404 40406
req DELETE "/subjects/$S3/versions/1?permanent=true"
expect_error "permanent delete without soft delete -> 40407" 404 40407
req DELETE "/subjects/$S3/versions/2?permanent=true"
expect "permanent delete of a soft-deleted version" 200 '. == 2'
req GET "/subjects/$S3/versions?deleted=true"
expect "GET versions?deleted=true after permanent delete" 200 '. == [1,3]'
req DELETE "/subjects/$S3?permanent=true"
expect_error "permanent subject delete without soft delete -> 40405" 404 40405
req DELETE "/subjects/$S3"
expect "soft DELETE /subjects/{s}" 200 '. == [1]'
req DELETE "/subjects/$S3"
expect_error "soft subject delete twice -> 40404" 404 40404
req GET "/subjects"
expect "GET /subjects hides the soft-deleted subject" 200 "index(\"$S3\") == null"
req GET "/subjects?deleted=true"
expect "GET /subjects?deleted=true shows it" 200 "index(\"$S3\") != null"
req POST "/subjects/$S3/versions" "{\"schema\":$A1}"
expect "re-register after soft delete: new version, same id" 200 ".version == 4 and .id == $ID1"
req DELETE "/subjects/$S3"
req DELETE "/subjects/$S3?permanent=true"
expect "permanent DELETE /subjects/{s}" 200 '. == [1,3,4]'
req GET "/subjects/$S3/versions?deleted=true"
expect_error "the permanently deleted subject is gone -> 40401" 404 40401
req POST "/subjects/$S3/versions" "{\"schema\":$A2}"
expect "after a permanent delete numbering restarts at 1" 200 ".version == 1 and .id == $ID2"

##############################################################################
# 2. Keep-alive
##############################################################################
echo "# 2. keep-alive"
curl -sv --max-time 20 -o /dev/null -o /dev/null "$URL/subjects" "$URL/schemas/types" 2>"$TMP/ka.err"
if grep -q "Re-using existing connection" "$TMP/ka.err" && ! grep -qi "^< connection: close" "$TMP/ka.err" \
	&& [ "$(grep -c '^< HTTP/1.1 200' "$TMP/ka.err")" -eq 2 ]; then
	pass "keep-alive: two GETs on one connection"
else
	fail "keep-alive: two GETs on one connection" "$(grep -E 'Re-using|onnection|^< HTTP' "$TMP/ka.err" | tr '\n' '|')"
fi
curl -sv --max-time 20 -o /dev/null -o /dev/null -H "Content-Type: $CT" --data-binary "{\"schema\":$A1}" \
	"$URL/subjects/$S1" "$URL/subjects/$S1" 2>"$TMP/ka2.err"
if grep -q "Re-using existing connection" "$TMP/ka2.err" && ! grep -qi "^< connection: close" "$TMP/ka2.err" \
	&& [ "$(grep -c '^< HTTP/1.1 200' "$TMP/ka2.err")" -eq 2 ]; then
	pass "keep-alive: two POSTs with bodies on one connection"
else
	fail "keep-alive: two POSTs with bodies on one connection" "$(grep -E 'Re-using|onnection|^< HTTP' "$TMP/ka2.err" | tr '\n' '|')"
fi
curl -sv --max-time 20 -o /dev/null -o /dev/null "$URL/nosuchroute" "$URL/subjects" 2>"$TMP/ka3.err"
if grep -q "Re-using existing connection" "$TMP/ka3.err" && ! grep -qi "^< connection: close" "$TMP/ka3.err"; then
	pass "keep-alive: the connection survives a 404"
else
	fail "keep-alive: the connection survives a 404" "$(grep -E 'Re-using|onnection|^< HTTP' "$TMP/ka3.err" | tr '\n' '|')"
fi

##############################################################################
# 3. Bad input: 4xx with an error body, the server stays up, nothing changes
##############################################################################
echo "# 3. bad input"
SB="$RUN-bad"
req POST "/subjects/$SB/versions" "{\"schema\":$A1}"	# an existing subject for some cases
BEFORE=$(snapshot)

req POST "/subjects/$SB/versions" '{"schema": "x"'
expect_error "invalid JSON (truncated) -> 400" 400 400
req POST "/subjects/$SB%00tail/versions" "{\"schema\":$A3}"
expect_error "a percent-decoded NUL in the subject -> 42208 (not a cut-short subject)" 422 42208
req GET "/subjects?subjectPrefix=a%00"
expect_error "a percent-decoded NUL in a query parameter -> 400" 400 400
req POST "/subjects/$SB/versions" "{'schema': 1}"
expect_error "invalid JSON (single quotes) -> 400" 400 400
req POST "/subjects/$SB/versions" "{\"schema\":$A3}" -H "Content-Type: text/plain"
expect_error "Content-Type text/plain -> 415" 415 415
req PUT "/config/$SB" '{"compatibility":"NONE"}' -H "Content-Type: application/xml"
expect_error "PUT with Content-Type application/xml -> 415" 415 415
req POST "/subjects/$SB/versions" '{"schema":42}'
expect_4xx "schema is a number"
req POST "/subjects/$SB/versions" '{"schema":{"type":"string"}}'
expect_4xx "schema is an object"
req POST "/subjects/$SB/versions" "{\"schema\":$A3,\"schemaType\":\"XML\"}"
expect_error "unknown schemaType -> 42201" 422 42201
req POST "/subjects/$SB/versions" '{"schema":"{\"type\":\"record\",\"name\":\"X\"}"}'
expect_error "invalid Avro (record without fields) -> 42201" 422 42201
req POST "/subjects/$SB/versions" '{"schema":"{\"type\":\"nosuchtype\"}"}'
expect_error "invalid Avro (unknown type) -> 42201" 422 42201
req POST "/subjects/$SB/versions" '{"schema":"{not json"}'
expect_error "schema string is not JSON -> 42201" 422 42201
req POST "/subjects/$SB/versions" "$(printf '{"schema":"\xff\xfe"}')"
expect_error "invalid UTF-8 in the body -> 400" 400 400
req POST "/subjects/$SB/versions" "$(printf '{"schema":"\xc3"}')"
expect_error "truncated UTF-8 sequence in the body -> 400" 400 400
python3 -c 'import sys; sys.stdout.write("{\"schema\":" + "[" * 200000 + "]" * 200000 + "}")' >"$TMP/deep.json"
req POST "/subjects/$SB/versions" "@$TMP/deep.json"
expect_4xx "deeply nested JSON (200000 levels)"
python3 -c 'import sys; sys.stdout.write("{\"a\":" * 5000 + "1" + "}" * 5000)' >"$TMP/deep2.json"
req POST "/subjects/$SB-new/versions" "@$TMP/deep2.json"
expect_4xx "deeply nested JSON objects (5000 levels)"
req POST "/subjects/$SB/versions" ""
expect_error "empty body -> 400" 400 400
req POST "/subjects/$SB/versions" "[{\"schema\":$A3}]"
expect_error "JSON array body -> 400" 400 400
req POST "/subjects/$SB/versions" '"just a string"'
expect_error "JSON string body -> 400" 400 400
req POST "/subjects/$SB-new/versions" '{}'
expect_error "no schema member in a new subject -> 42201" 422 42201
req POST "/subjects/$SB/versions" '{}'
expect "no schema member in a subject with a version: that version's schema, as Confluent fills it" 200 \
	".version == 1 and .schema == $A1"
req GET "/subjects/$SB-new/versions"
expect_error "... and the refused requests created no subject" 404 40401
printf '{"schema":%s}\0' "$A3" >"$TMP/nul.json"
req POST "/subjects/$SB/versions" "@$TMP/nul.json"
expect_4xx "NUL byte in the body"
req POST "/subjects/%01ctl$RUN/versions" "{\"schema\":$A1}"
expect_error "subject with a control character (%01) -> 42208" 422 42208
req POST "/subjects/__GLOBAL/versions" "{\"schema\":$A1}"
expect_error "subject __GLOBAL -> 42208" 422 42208
for v in abc 0 -2 2147483648 1.5; do
	req GET "/subjects/$SB/versions/$v"
	expect_error "version $v -> 42202" 422 42202
done
req DELETE "/subjects/$SB/versions/abc"
expect_error "DELETE version abc -> 42202" 422 42202
req POST "/compatibility/subjects/$SB/versions/-2" "{\"schema\":$A3}"
expect_error "compatibility against version -2 -> 42202" 422 42202
req PUT "/config/$SB" '{"compatibility":"SUPER"}'
expect_error "unknown compatibility level -> 42203" 422 42203
req PUT /config '{"compatibility":7}'
expect_error "compatibility level not a string -> 42203" 422 42203
req PUT "/mode/$SB" '{"mode":"WHATEVER"}'
expect_error "unknown mode -> 42204" 422 42204
req PUT /mode '{"mode":""}'
expect_error "empty mode -> 42204" 422 42204
req GET /nosuchroute
expect_error "unknown route -> 404" 404 404
req GET "/subjects/$SB/versions/1/nosuch"
expect_error "unknown sub-route -> 404" 404 404
req PATCH /subjects
expect_error "PATCH /subjects -> 405" 405 405
req PUT "/subjects/$SB/versions" "{\"schema\":$A3}"
expect_error "PUT /subjects/{s}/versions -> 405" 405 405
req GET /subjects @none -H "Accept: text/html"
expect_error "Accept: text/html -> 406" 406 406
req GET /schemas/ids/abc
expect_4xx "schema id not a number"
req GET /schemas/ids/99999999999999
expect_4xx "schema id out of range"
req GET /schemas/ids/2147483647
expect_error "unknown schema id -> 40403" 404 40403
req POST "/subjects/$SB/versions" "{\"schema\":$REFSCHEMA,\"references\":[{\"name\":\"$REC\",\"subject\":\"$RUN-missing\",\"version\":1}]}"
expect_error "reference to a missing subject -> 42201" 422 42201
req POST "/subjects/$SB/versions" "{\"schema\":$REFSCHEMA,\"references\":[{\"name\":\"$REC\",\"subject\":\"$S1\",\"version\":99}]}"
expect_error "reference to a missing version -> 42201" 422 42201
req POST "/subjects/$SB/versions" "{\"schema\":$REFSCHEMA,\"references\":{\"a\":1}}"
expect_4xx "references not an array"
req POST "/subjects/$SB/versions" "{\"schema\":$A3,\"id\":987654}"
expect_error "explicit id outside IMPORT mode -> 42205" 422 42205
req POST "/subjects/$SB/versions" "{\"schema\":$A3,\"version\":7}"
expect_error "explicit version not one more than the previous -> 42201" 422 42201
req POST "/subjects/$SB/versions" "{\"schema\":$(jq -cn --arg n "$REC" '{type:"record",name:$n,fields:[{name:"a",type:"string"}]} | tojson')}"
expect "incompatible schema -> 409" 409 '(.error_code == 409 or .error_code == 40901) and (.message | type == "string")'
req PUT "/mode/$SB" '{"mode":"FORWARD"}'
expect_error "mode FORWARD on a subject -> 42204" 422 42204
req DELETE "/subjects/$RUN-nosuch"
expect_error "DELETE a missing subject -> 40401" 404 40401
req DELETE "/subjects/$SB/versions/9"
expect_error "DELETE a missing version -> 40402" 404 40402
req POST "/compatibility/subjects/$SB/versions/latest" '{"schema":"{bad"}'
expect_error "compatibility with an invalid schema -> 42201" 422 42201

# registry.http_max_body_size: set it low, expect 413, reset it
sql "ALTER SYSTEM SET registry.http_max_body_size = '4kB'" >/dev/null && sql "SELECT pg_reload_conf()" >/dev/null
BIG="{\"schema\":$A3,\"pad\":\"$(head -c 8000 /dev/zero | tr '\0' x)\"}"
ok413=1
for i in $(seq 1 20); do	# until both workers have reloaded (2 answers in a row)
	req POST "/subjects/$SB/versions" "$BIG"
	if [ "$STATUS" = 413 ]; then
		req POST "/subjects/$SB/versions" "$BIG"
		[ "$STATUS" = 413 ] && { ok413=0; break; }
	fi
	sleep 0.25
done
if [ $ok413 -eq 0 ]; then
	expect_error "body over registry.http_max_body_size (4kB) -> 413" 413 413
else
	fail "body over registry.http_max_body_size (4kB) -> 413" "HTTP $STATUS: $(short "$BODY")"
fi
curl -sv --max-time 20 -o /dev/null -o /dev/null -H "Content-Type: $CT" --data-binary "$BIG" \
	"$URL/subjects/$SB" "$URL/subjects/$SB" 2>"$TMP/ka413.err"
check "413 on a keep-alive connection: the next request is answered too" \
	$([ "$(grep -cE '^< HTTP/1.1 (413|404)' "$TMP/ka413.err")" -eq 2 ] && echo 0 || echo 1) \
	"$(grep -E '^< HTTP|Re-using|onnection' "$TMP/ka413.err" | tr '\n' '|')"
sql "ALTER SYSTEM RESET registry.http_max_body_size" >/dev/null && sql "SELECT pg_reload_conf()" >/dev/null
okbig=1
for i in $(seq 1 20); do
	req POST "/subjects/$SB" "$BIG"	# a lookup: reads only
	[ "$STATUS" = 404 ] && { req POST "/subjects/$SB" "$BIG"; [ "$STATUS" = 404 ] && { okbig=0; break; }; }
	sleep 0.25
done
check "after RESET the 8 kB body is accepted again (lookup -> 40403)" $okbig "HTTP $STATUS: $(short "$BODY")"

req GET /
expect "the server is still up after the bad input" 200 '. == {}'
AFTER=$(snapshot)
same_rows "no row of the registry tables changed" "$BEFORE" "$AFTER"
same_sequences "no id sequence advanced (no id was burnt)" "$BEFORE" "$AFTER"

# Input that must be refused and not stored.  Each case gets its own
# before/after snapshot, and is cleaned up through the API if it was stored
# anyway (a subject or value that is not valid UTF-8 in the registry's
# UTF8 text/jsonb columns would break pg_dump/restore of later layers).
refused() {	# refused NAME EXPECT-CODE(or 4xx) CLEANUP-METHOD CLEANUP-PATH METHOD PATH [BODY]
	local name=$1 code=$2 cm=$3 cp=$4
	shift 4
	local before after
	before=$(snapshot)
	req "$@"
	if [ "$code" = 4xx ]; then expect_4xx "$name"; else expect_error "$name -> $code" "${code:0:3}" "$code"; fi
	if [ "$STATUS" = 200 ]; then
		req "$cm" "$cp"
		[ "$cm" = DELETE ] && [ "${cp#/subjects/}" != "$cp" ] && req DELETE "$cp?permanent=true"
	fi
	after=$(snapshot)
	same_rows "$name: nothing stored" "$before" "$after"
}
refused "PUT /config/{s} with a control character (%01) in the subject" 42208 \
	DELETE "/config/%01ctl$RUN" PUT "/config/%01ctl$RUN" '{"compatibility":"NONE"}'
refused "PUT /mode/{s} with a control character (%01) in the subject" 42208 \
	DELETE "/mode/%01ctl$RUN" PUT "/mode/%01ctl$RUN" '{"mode":"READONLY"}'
refused "register under a subject that is invalid UTF-8 (%FF)" 4xx \
	DELETE "/subjects/%FFbad$RUN" POST "/subjects/%FFbad$RUN/versions" "{\"schema\":$A1}"
refused "PUT /config/{s} with a subject that is invalid UTF-8 (%FF)" 4xx \
	DELETE "/config/%FFbad$RUN" PUT "/config/%FFbad$RUN" '{"compatibility":"NONE"}'
refused "register with invalid UTF-8 inside metadata" 400 \
	DELETE "/subjects/$RUN-utf8meta" POST "/subjects/$RUN-utf8meta/versions" \
	"$(printf '{"schema":"\\"string\\"","metadata":{"properties":{"k":"\xff"}}}')"
refused "register with invalid UTF-8 in a reference name" 400 \
	DELETE "/subjects/$RUN-utf8ref" POST "/subjects/$RUN-utf8ref/versions" \
	"$(printf '{"schema":%s,"references":[{"name":"R1\xff","subject":"%s","version":1}]}' "$REFSCHEMA" "$S1")"

##############################################################################
# 3b. Hostile nesting: 422 42201, fast, and no worker dies
##############################################################################
echo "# 3b. hostile nesting"
SN="$RUN-nest"
req POST "/subjects/$SN/versions" '{"schema":"syntax = \"proto3\"; message M0 { int32 a = 1; }","schemaType":"PROTOBUF"}'
expect "a PROTOBUF subject to check against" 200 '.id | type == "number"'
NEST_LOG=${CLUSTER_DATA:+$(dirname "$CLUSTER_DATA")/server.log}
NEST_LOG_SIZE=0
[ -n "$NEST_LOG" ] && [ -r "$NEST_LOG" ] && NEST_LOG_SIZE=$(stat -c %s "$NEST_LOG")
NEST_PIDS=$(sql "SELECT pid FROM pg_stat_activity WHERE backend_type = 'registry http' ORDER BY pid")
NEST_BEFORE=$(snapshot)
# message M0 { message M1 { ... } }: 20,000 deep, about 320 KB; 20,000 nested Avro arrays
python3 -c 'import json, sys
n = 20000
print(json.dumps({"schemaType": "PROTOBUF", "schema": "syntax = \"proto3\";\n"
	+ "".join("message M%d { " % i for i in range(n)) + "} " * n}))' >"$TMP/deep_proto.json"
python3 -c 'import json
n = 20000
print(json.dumps({"schema": "{\"type\":\"array\",\"items\":" * n + "\"int\"" + "}" * n}))' >"$TMP/deep_avro.json"
t0=$(date +%s%N)
req POST "/subjects/$SN/versions" "@$TMP/deep_proto.json"
ms=$((($(date +%s%N) - t0) / 1000000))
expect_error "register a PROTOBUF schema 20,000 messages deep ($(stat -c %s "$TMP/deep_proto.json") bytes) -> 42201" 422 42201
check "  ... refused in ${ms} ms (limit 2000 ms)" $([ $ms -lt 2000 ] && echo 0 || echo 1) "took ${ms} ms"
printf '%s' "$BODY" | grep -q 'Nesting is deeper than 100 levels'
check "  ... the message names the limit" $? "$(short "$BODY")"
req POST "/compatibility/subjects/$SN/versions/latest" "@$TMP/deep_proto.json"
expect_error "compatibility of a PROTOBUF schema 20,000 messages deep -> 42201" 422 42201
req POST "/subjects/$SN" "@$TMP/deep_proto.json"
expect_4xx "lookup of a PROTOBUF schema 20,000 messages deep"
t0=$(date +%s%N)
req POST "/subjects/$SN-avro/versions" "@$TMP/deep_avro.json"
ms=$((($(date +%s%N) - t0) / 1000000))
expect_error "register an AVRO schema 20,000 arrays deep -> 42201" 422 42201
check "  ... refused in ${ms} ms (limit 2000 ms)" $([ $ms -lt 2000 ] && echo 0 || echo 1) "took ${ms} ms"
printf '%s' "$BODY" | grep -q 'nesting deeper than 1000 levels'
check "  ... the message names the limit" $? "$(short "$BODY")"
req POST "/compatibility/subjects/$SN/versions/latest" "@$TMP/deep_avro.json"
expect_error "compatibility of an AVRO schema 20,000 arrays deep -> 42201" 422 42201
req GET /
expect "the server is still up after the deep schemas" 200 '. == {}'
NEST_PIDS_AFTER=$(sql "SELECT pid FROM pg_stat_activity WHERE backend_type = 'registry http' ORDER BY pid")
check "the same HTTP workers are serving ($(echo $NEST_PIDS))" \
	$([ -n "$NEST_PIDS" ] && [ "$NEST_PIDS" = "$NEST_PIDS_AFTER" ] && echo 0 || echo 1) \
	"before: $(echo $NEST_PIDS); after: $(echo $NEST_PIDS_AFTER)"
if [ -n "$NEST_LOG" ] && [ -r "$NEST_LOG" ]; then
	tail -c +$((NEST_LOG_SIZE + 1)) "$NEST_LOG" >"$TMP/nest.log"
	! grep -qE 'terminated by signal|server process .* was terminated|all server processes terminated|database system was interrupted' "$TMP/nest.log"
	check "the postmaster log shows no crash or restart" $? "$(grep -E 'terminated|interrupted' "$TMP/nest.log" | head -3 | tr '\n' ' ')"
else
	fail "the postmaster log shows no crash or restart" "no server log at ${NEST_LOG:-(CLUSTER_DATA not set)}"
fi
NEST_AFTER=$(snapshot)
same_rows "the deep schemas stored nothing" "$NEST_BEFORE" "$NEST_AFTER"
req DELETE "/subjects/$SN"
req DELETE "/subjects/$SN?permanent=true"

##############################################################################
# 3c. JSON Schema: register, the stored form byte for byte, lookup,
#     compatibility, references, bad input (nothing stored, no crash)
##############################################################################
echo "# 3c. JSON Schema"
JS="$RUN-json"
req GET /schemas/types
expect "GET /schemas/types lists AVRO, JSON, PROTOBUF" 200 '. == ["AVRO","JSON","PROTOBUF"]'
# the document pretty-printed, and its compact form (the stored form)
python3 - "$TMP" "$RUN" <<'EOF'
import json, sys
tmp, run = sys.argv[1], sys.argv[2]
doc = {"$schema": "http://json-schema.org/draft-07/schema#", "title": "Order" + run.replace("-", "_"),
	"type": "object",
	"properties": {"id": {"type": "string", "description": "caf\u00e9 \u2603"}, "qty": {"type": "integer", "minimum": 1},
		"price": {"type": "number", "exclusiveMinimum": 0}, "tags": {"type": "array", "items": {"type": "string"}}},
	"required": ["id"], "additionalProperties": False}
open(tmp + "/js_pretty.json", "w").write(json.dumps({"schemaType": "JSON", "schema": json.dumps(doc, indent=4, ensure_ascii=False)}))
open(tmp + "/js_compact.txt", "w", encoding="utf-8").write(json.dumps(doc, separators=(",", ":"), ensure_ascii=False))
# the same keys sorted (what normalize stores), and shuffled the other way
open(tmp + "/js_sorted.txt", "w", encoding="utf-8").write(json.dumps(doc, separators=(",", ":"), ensure_ascii=False, sort_keys=True))
def rev(v):
	return {k: rev(v[k]) for k in reversed(list(v))} if isinstance(v, dict) else v
open(tmp + "/js_reversed.json", "w").write(json.dumps({"schemaType": "JSON", "schema": json.dumps(rev(doc))}))
doc2 = dict(doc)
doc2["properties"] = dict(doc["properties"], note={"type": "string"})
open(tmp + "/js_v2.json", "w").write(json.dumps({"schemaType": "JSON", "schema": json.dumps(doc2)}))
doc3 = dict(doc)
doc3["properties"] = dict(doc["properties"], qty={"type": "string"})
open(tmp + "/js_bad.json", "w").write(json.dumps({"schemaType": "JSON", "schema": json.dumps(doc3)}))
EOF
JS_COMPACT=$(cat "$TMP/js_compact.txt")
req POST "/subjects/$JS/versions" "@$TMP/js_pretty.json"
expect "register a JSON schema" 200 '(.id | type == "number") and .version == 1'
JID=$(printf '%s' "$BODY" | jq -r '.id // 0')
req GET "/schemas/ids/$JID"
expect "GET /schemas/ids/{id}: schemaType JSON, the compact document" 200 \
	".schemaType == \"JSON\" and .schema == $(jq -Rs . <"$TMP/js_compact.txt")"
curl -s --max-time 20 -o "$TMP/js_raw" "$URL/schemas/ids/$JID/schema"
cmp -s "$TMP/js_raw" "$TMP/js_compact.txt"
check "GET /schemas/ids/{id}/schema is the stored form byte for byte (key order, unicode)" $? \
	"got $(head -c 200 "$TMP/js_raw")"
req GET "/subjects/$JS/versions/1"
expect "GET /subjects/{s}/versions/1 has schemaType JSON" 200 ".schemaType == \"JSON\" and .id == $JID"
jq -c '.schema |= (fromjson | tojson)' "$TMP/js_pretty.json" >"$TMP/js_min.json"
req POST "/subjects/$JS/versions" "@$TMP/js_min.json"
expect "register it again without whitespace: same id, same version" 200 ".id == $JID and .version == 1"
req POST "/subjects/$JS" "@$TMP/js_min.json"
expect "lookup finds version 1" 200 ".version == 1 and .id == $JID and .schemaType == \"JSON\""
req POST "/subjects/$JS" "@$TMP/js_reversed.json"
expect_error "lookup with the keys in another order (no normalize) -> 40403" 404 40403
req POST "/subjects/$JS-norm/versions?normalize=true" "@$TMP/js_pretty.json"
expect "register with normalize=true" 200 '.version == 1'
JNID=$(printf '%s' "$BODY" | jq -r '.id // 0')
req POST "/subjects/$JS-norm/versions?normalize=true" "@$TMP/js_reversed.json"
expect "  ... the keys in another order: the same id and version" 200 ".id == $JNID and .version == 1"
curl -s --max-time 20 -o "$TMP/js_norm_raw" "$URL/schemas/ids/$JNID/schema"
cmp -s "$TMP/js_norm_raw" "$TMP/js_sorted.txt"
check "  ... stored with its keys sorted, byte for byte" $? "got $(head -c 200 "$TMP/js_norm_raw")"
req POST "/subjects/$JS?normalize=true" "@$TMP/js_reversed.json"
expect_error "  ... lookup with normalize=true of the unnormalized subject: the stored text differs -> 40403" 404 40403
req POST "/subjects/$JS" "$(jq -c '.schemaType = "AVRO"' "$TMP/js_min.json")"
expect_4xx "lookup as AVRO is not the JSON schema"
req POST "/compatibility/subjects/$JS/versions/latest?verbose=true" "@$TMP/js_bad.json"
expect "compatibility (verbose): a property's type changed -> TYPE_CHANGED in Confluent's form" 200 \
	'.is_compatible == false and (.messages[0] | startswith("{errorType:\"TYPE_CHANGED\"")) and (.messages | map(select(startswith("{oldSchemaVersion: 1}"))) | length == 1)'
req POST "/compatibility/subjects/$JS/versions/latest" "@$TMP/js_v2.json"
expect "compatibility: an optional property added to a closed object is compatible" 200 '. == {"is_compatible":true}'
req POST "/subjects/$JS/versions" "@$TMP/js_bad.json"
expect_error "registering the incompatible one -> 409" 409 40901
req POST "/subjects/$JS/versions" "@$TMP/js_v2.json"
expect "register v2" 200 '.version == 2'
req POST "/subjects/$JS/versions" '{"schema":"\"string\""}'
expect "an AVRO schema after JSON versions: incompatible" 409 '.message | contains("Incompatible because of different schema type")'
# compatibilityPolicy: LENIENT takes an optional property added to an open object
req POST "/subjects/$JS-open/versions" '{"schemaType":"JSON","schema":"{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"}}}"}'
expect "register an open object" 200 '.id | type == "number"'
JOPEN='{"schemaType":"JSON","schema":"{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"},\"b\":{\"type\":\"integer\"}}}"}'
req POST "/compatibility/subjects/$JS-open/versions/latest?verbose=true" "$JOPEN"
expect "STRICT (the default): an optional property added to an open object is incompatible" 200 \
	'.is_compatible == false and (.messages[0] | startswith("{errorType:\"OPTIONAL_PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL\""))'
req PUT "/config/$JS-open" '{"compatibilityPolicy":"LENIENT"}'
expect "PUT /config/{s} {compatibilityPolicy: LENIENT}" 200 '.compatibilityPolicy == "LENIENT"'
req GET "/config/$JS-open"
expect "GET /config/{s} has the policy" 200 '.compatibilityPolicy == "LENIENT"'
req POST "/compatibility/subjects/$JS-open/versions/latest" "$JOPEN"
expect "LENIENT: the same change is compatible" 200 '. == {"is_compatible":true}'
req POST "/subjects/$JS-open/versions" "$JOPEN"
expect "LENIENT: and registers" 200 '.id | type == "number"'
req DELETE "/config/$JS-open"
req POST "/compatibility/subjects/$JS-open/versions/latest" '{"schemaType":"JSON","schema":"{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"},\"b\":{\"type\":\"integer\"},\"c\":{}}}"}'
expect "  ... and after DELETE /config/{s}, STRICT again (but an empty schema added is compatible)" 200 '. == {"is_compatible":true}'
req POST "/compatibility/subjects/$JS-open/versions/latest" '{"schemaType":"JSON","schema":"{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"},\"b\":{\"type\":\"integer\"},\"c\":{\"type\":\"null\"}}}"}'
expect "  ... while a typed one is not" 200 '. == {"is_compatible":false}'

# references: a JSON schema refers to another subject's by the reference's name
JA="$RUN-json-addr"
JC="$RUN-json-cust"
req POST "/subjects/$JA/versions" '{"schemaType":"JSON","schema":"{\"$id\":\"https://example.com/address.json\",\"type\":\"object\",\"properties\":{\"street\":{\"type\":\"string\"}}}"}'
expect "register the referenced JSON schema" 200 '.id | type == "number"'
JAID=$(printf '%s' "$BODY" | jq -r '.id // 0')
JC_BODY=$(jq -cn --arg s "$JA" '{schemaType:"JSON",
	schema:({type:"object",properties:{home:{"$ref":"https://example.com/address.json"},work:{"$ref":"addr.json"}}} | tojson),
	references:[{name:"https://example.com/address.json",subject:$s,version:1},{name:"addr.json",subject:$s,version:1}]}')
req POST "/subjects/$JC/versions" "$JC_BODY"
expect "register a JSON schema with references (an \$id URL and a relative name)" 200 '.id | type == "number"'
JCID=$(printf '%s' "$BODY" | jq -r '.id // 0')
req GET "/schemas/ids/$JCID"
expect "GET /schemas/ids/{id} has the references" 200 \
	"(.references | length == 2) and .references[0].subject == \"$JA\" and .references[0].version == 1"
req GET "/subjects/$JA/versions/1/referencedby"
expect "referencedby lists the referring schema" 200 ". == [$JCID]"
req DELETE "/subjects/$JA/versions/1"
expect_error "deleting a referenced version -> 42206" 422 42206
req DELETE "/subjects/$JA"
expect_error "deleting a referenced subject -> 42206" 422 42206
req GET "/subjects/$JC/versions/1"
JC_REFS=$(printf '%s' "$BODY" | jq -c '.references')
req POST "/subjects/$JC" "$JC_BODY"
expect "lookup with references: its references as GET gives them" 200 \
	".id == $JCID and .version == 1 and (.references | length) > 0 and .references == $JC_REFS"
JBEFORE=$(snapshot)
req POST "/subjects/$JC-x/versions" "$(printf '%s' "$JC_BODY" | jq -c 'del(.references)')"
expect_error "the same schema without its references: unresolvable \$ref -> 42201" 422 42201
req POST "/subjects/$JC-x/versions" "$(printf '%s' "$JC_BODY" | jq -c '.references[1].version = 9')"
expect_error "a reference to a missing version -> 42201" 422 42201

# bad input: 42201, fast, nothing stored, the workers live on
JPIDS=$(sql "SELECT pid FROM pg_stat_activity WHERE backend_type = 'registry http' ORDER BY pid")
python3 - "$TMP" <<'EOF'
import json, sys
tmp = sys.argv[1]
def body(name, schema):
	open(tmp + "/" + name, "w").write(json.dumps({"schemaType": "JSON", "schema": schema}))
n = 20000
body("js_deep_items.json", '{"items":' * n + '{}' + '}' * n)
body("js_deep_props.json", '{"properties":{"a":' * n + '{}' + '}}' * n)
body("js_deep_array.json", '{"enum":[' + '[' * n + ']' * n + ']}')
# about 5 MB on one line, as clients send it: 100,000 valid properties, then
# one that is not a schema; the valid one, and the same with a line each
props = ",".join('"p%d":{"type":"string","maxLength":%d}' % (i, i) for i in range(100000))
body("js_huge_bad.json", '{"type":"object","properties":{' + props + ',"last":{"type":5}}}')
body("js_huge_ok.json", '{"type":"object","properties":{' + props + '}}')
body("js_huge_lines.json", '{"type":"object","properties":{\n' + props.replace(',"p', ',\n"p') + '}}')
# the same with one property fewer: a second version of it
body("js_huge_v2.json", '{"type":"object","properties":{' + props.split(',"p99999"')[0] + '}}')
body("js_cycle.json", '{"$ref":"#/definitions/a","definitions":{"a":{"$ref":"#/definitions/b"},"b":{"$ref":"#/definitions/a"}}}')
body("js_unresolved.json", '{"type":"object","properties":{"x":{"$ref":"#/definitions/missing"}}}')
body("js_remote.json", '{"type":"object","properties":{"x":{"$ref":"other.json"}}}')
body("js_notjson.json", '{"type": "object", ')
body("js_type5.json", '{"type":5}')
body("js_required.json", '{"type":"object","required":"x"}')
EOF
for f in js_deep_items js_deep_props js_deep_array js_huge_bad js_cycle js_unresolved js_remote js_notjson js_type5 js_required; do
	t0=$(date +%s%N)
	req POST "/subjects/$JS-bad/versions" "@$TMP/$f.json"
	ms=$((($(date +%s%N) - t0) / 1000000))
	expect_error "register $f ($(stat -c %s "$TMP/$f.json") bytes) -> 42201 in ${ms} ms" 422 42201
	[ $ms -lt 5000 ] || fail "  ... $f took ${ms} ms (limit 5000)"
done
req POST "/compatibility/subjects/$JS/versions/latest" "@$TMP/js_deep_items.json"
expect_error "compatibility of a schema 20,000 levels deep -> 42201" 422 42201
req POST "/compatibility/subjects/$JS/versions/latest?verbose=true" "@$TMP/js_type5.json"
expect "compatibility (verbose) of an invalid schema: a negative verdict with the reason" 200 \
	'.is_compatible == false and (.messages | length == 1) and (.messages[0] | startswith("Invalid schema"))'
req POST "/subjects/$JS" "@$TMP/js_cycle.json"
expect_4xx "lookup of a \$ref cycle"
JAFTER=$(snapshot)
same_rows "the refused JSON schemas stored nothing" "$JBEFORE" "$JAFTER"
same_sequences "  ... and used no id" "$JBEFORE" "$JAFTER"
req GET /
expect "the server still answers after the bad JSON schemas" 200 '. == {}'
JPIDS_AFTER=$(sql "SELECT pid FROM pg_stat_activity WHERE backend_type = 'registry http' ORDER BY pid")
check "the same HTTP workers are serving" $([ -n "$JPIDS" ] && [ "$JPIDS" = "$JPIDS_AFTER" ] && echo 0 || echo 1) \
	"before: $(echo $JPIDS); after: $(echo $JPIDS_AFTER)"
req POST "/subjects/$JS-huge/versions" "@$TMP/js_huge_ok.json"
expect "a valid JSON schema of $(stat -c %s "$TMP/js_huge_ok.json") bytes (100,000 properties) registers" 200 '.id | type == "number"'
JHID=$(printf '%s' "$BODY" | jq -r '.id // 0')
curl -s --max-time 30 -o "$TMP/js_huge_raw" "$URL/schemas/ids/$JHID/schema"
cmp -s "$TMP/js_huge_raw" <(jq -j .schema "$TMP/js_huge_ok.json")
check "  ... and comes back byte for byte" $? "$(head -c 100 "$TMP/js_huge_raw")"
req POST "/subjects/$JS-huge/versions" "@$TMP/js_huge_lines.json"
expect "  ... the same with a line per property: the same id" 200 ".id == $JHID"
# each worker parses the stored 5 MB form once to check against it
for i in 1 2 3 4; do
	t0=$(date +%s%N)
	req POST "/compatibility/subjects/$JS-huge/versions/latest" "@$TMP/js_huge_v2.json"
	ms=$((($(date +%s%N) - t0) / 1000000))
	expect "  ... compatibility of a version with one property fewer (${ms} ms)" 200 '. == {"is_compatible":true}'
done
req POST "/subjects/$JS-huge/versions" "@$TMP/js_huge_v2.json"
expect "  ... which registers as version 2" 200 '.version == 2'
for s in "$JS-huge" "$JS-open" "$JS-norm" "$JC" "$JA" "$JS"; do
	req DELETE "/subjects/$s"
	req DELETE "/subjects/$s?permanent=true"
done

##############################################################################
# 3d. PROTOBUF in text and descriptor form: one schema, one id; the
#     serialized descriptor names every field's JSON key
##############################################################################
echo "# 3d. PROTOBUF forms"
PF="$RUN-pbform"
PFTEXT='syntax = "proto3";
package forms.v1;

import "google/protobuf/timestamp.proto";

message Order {
  message Line {
    string sku = 1;
    Kind kind = 2;
  }
  enum Kind {
    KIND_UNSPECIFIED = 0;
    KIND_BOOK = 1;
  }
  int64 order_id = 1;
  repeated Line line_items = 2;
  google.protobuf.Timestamp placed_at = 3;
  map<string, Line> by_sku = 4;
  string note = 5 [json_name = "memo"];
  oneof payment {
    string card_no = 6;
    Refund refund_of = 7;
  }
}

message Refund {
  Order.Line line = 1;
  Order.Kind kind = 2;
}
'
req POST "/subjects/$PF/versions" "$(jq -n --arg s "$PFTEXT" '{schema: $s, schemaType: "PROTOBUF"}')"
expect "register a PROTOBUF schema as .proto text" 200 '.id | type == "number"'
PFID=$(printf '%s' "$BODY" | jq -r '.id // 0')
req GET "/schemas/ids/$PFID?format=serialized"
expect "GET /schemas/ids/{id}?format=serialized" 200 '.schema | type == "string"'
PFB64=$(printf '%s' "$BODY" | jq -r '.schema // ""')
req GET "/subjects/$PF/versions/1"
PFSTORED=$(printf '%s' "$BODY" | jq -c '.schema')
# the descriptor's json_names, by a wire-format walk (no protobuf module
# needed): FileDescriptorProto.message_type 4, DescriptorProto.field 2 and
# nested_type 3, FieldDescriptorProto.name 1 and json_name 10
JSON_NAMES=$(printf '%s' "$PFB64" | python3 -c '
import base64, sys
def fields(b):
    i = 0
    while i < len(b):
        key = 0; shift = 0
        while True:
            c = b[i]; i += 1; key |= (c & 127) << shift; shift += 7
            if c < 128: break
        num, wt = key >> 3, key & 7
        if wt == 0:
            while b[i] >= 128: i += 1
            i += 1; yield num, None
        elif wt == 2:
            n = 0; shift = 0
            while True:
                c = b[i]; i += 1; n |= (c & 127) << shift; shift += 7
                if c < 128: break
            yield num, b[i:i + n]; i += n
        elif wt == 5: i += 4; yield num, None
        elif wt == 1: i += 8; yield num, None
        else: raise SystemExit("bad wire type")
def message(b, scope, out):
    name = next((v.decode() for n, v in fields(b) if n == 1), "")
    for n, v in fields(b):
        if n == 2:
            f = dict((k, x) for k, x in fields(v) if k in (1, 10))
            out.append("%s.%s=%s" % (scope + name, f[1].decode(), f[10].decode() if 10 in f else "-"))
        elif n == 3:
            message(v, scope + name + ".", out)
out = []
for n, v in fields(base64.b64decode(sys.stdin.read())):
    if n == 4:
        message(v, "", out)
print(" ".join(out))' 2>&1)
for want in Order.order_id=orderId Order.line_items=lineItems Order.placed_at=placedAt Order.by_sku=bySku \
	Order.note=memo Order.card_no=cardNo Order.refund_of=refundOf Order.Line.sku=sku Refund.line=line; do
	case " $JSON_NAMES " in
	*" $want "*) pass "the serialized descriptor has json_name $want" ;;
	*) fail "the serialized descriptor has json_name $want" "$JSON_NAMES" ;;
	esac
done
case " $JSON_NAMES " in
*"=- "*) fail "every field of the serialized descriptor has a json_name" "$JSON_NAMES" ;;
*) pass "every field of the serialized descriptor has a json_name" ;;
esac
PFDESC=$(jq -n --arg s "$PFB64" '{schema: $s, schemaType: "PROTOBUF"}')
req POST "/subjects/$PF" "$PFDESC"
expect "lookup with the serialized descriptor finds the text's version" 200 \
	".id == $PFID and .version == 1 and .subject == \"$PF\" and .schema == $PFSTORED"
req POST "/subjects/$PF/versions" "$PFDESC"
expect "registering the serialized descriptor: the same id and version" 200 ".id == $PFID and .version == 1"
req GET "/subjects/$PF/versions"
expect "  ... and no new version" 200 '. == [1]'
req POST "/subjects/$PF-desc/versions" "$PFDESC"
expect "the serialized descriptor under another subject: the text's id" 200 ".id == $PFID and .version == 1"
req GET "/subjects/$PF-desc/versions/1"
expect "  ... stored as the .proto text's stored form" 200 ".schema == $PFSTORED"
for s in "$PF" "$PF-desc"; do
	req DELETE "/subjects/$s"
	req DELETE "/subjects/$s?permanent=true"
done

##############################################################################
# 4. A worker killed with SIGKILL: crash recovery, the API comes back
##############################################################################
echo "# 4. SIGKILL of a worker"
OLDPIDS=$(sql "SELECT pid FROM pg_stat_activity WHERE backend_type = 'registry http' ORDER BY pid")
WPID=$(printf '%s\n' "$OLDPIDS" | head -1)
if [ -z "$WPID" ]; then
	fail "find a registry http worker in pg_stat_activity" "none"
else
	pass "find a registry http worker in pg_stat_activity (pid $WPID of $(echo $OLDPIDS))"
	t0=$(date +%s)
	kill -9 "$WPID"
	# the postmaster answers a SIGKILLed child with a crash restart: every
	# other worker is terminated too; wait for all the old pids to go
	i=0
	while [ $i -lt 60 ]; do
		alive=0
		for p in $OLDPIDS; do kill -0 "$p" 2>/dev/null && alive=1; done
		[ $alive -eq 0 ] && break
		sleep 0.25
		i=$((i + 1))
	done
	check "crash restart: every old worker ($(echo $OLDPIDS)) is gone" $alive "still alive after 15 s"
	if wait_http "$URL" 30 >/dev/null; then
		el=$(($(date +%s) - t0))
		check "the REST API answers again ${el}s after SIGKILL (limit 15 s)" $([ $el -le 15 ] && echo 0 || echo 1) "took ${el}s"
	else
		fail "the REST API answers again after SIGKILL" "no answer within 30 s"
	fi
	if wait_sql 30; then pass "the cluster accepts SQL again after the crash restart"; else fail "the cluster accepts SQL again after the crash restart" "not within 30 s"; fi
	req GET "/subjects/$S1/versions"
	expect "the data is intact after the crash restart" 200 '. == [1,2]'
	i=0
	n=0
	while [ $i -lt 40 ]; do
		n=$(sql "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'registry http'")
		[ "${n:-0}" -ge "$(echo $OLDPIDS | wc -w)" ] && break
		sleep 0.25
		i=$((i + 1))
	done
	NEWPIDS=$(sql "SELECT pid FROM pg_stat_activity WHERE backend_type = 'registry http' ORDER BY pid")
	common=$(comm -12 <(printf '%s\n' $OLDPIDS | sort) <(printf '%s\n' $NEWPIDS | sort) | grep -c .)
	check "all workers are back with new pids ($(echo $NEWPIDS))" \
		$([ "${n:-0}" -ge "$(echo $OLDPIDS | wc -w)" ] && [ "$common" -eq 0 ] && echo 0 || echo 1) "$n workers: $(echo $NEWPIDS)"
fi

##############################################################################
# 5. SIGHUP: registry.http_port moves, and back
##############################################################################
echo "# 5. SIGHUP reload of registry.http_port"
NEWPORT=""
for p in $((HTTP_PORT + 1000)) $((HTTP_PORT + 1001)) $((HTTP_PORT + 1002)) $((HTTP_PORT + 2000)); do
	curl -s -o /dev/null --max-time 2 "http://127.0.0.1:$p/" 2>/dev/null
	[ $? -eq 7 ] && { NEWPORT=$p; break; }
done
if [ -z "$NEWPORT" ]; then
	fail "find a free port for the reload test" "none"
else
	NEWURL="http://$HTTP_HOST:$NEWPORT"
	sql "ALTER SYSTEM SET registry.http_port = $NEWPORT" >/dev/null && sql "SELECT pg_reload_conf()" >/dev/null
	if wait_http "$NEWURL" 15 >/dev/null; then pass "after reload the new port $NEWPORT answers"; else fail "after reload the new port $NEWPORT answers" "no answer within 15 s"; fi
	if wait_down "$URL" 15; then pass "after reload the old port $HTTP_PORT refuses connections"; else fail "after reload the old port $HTTP_PORT refuses connections" "still accepting after 15 s"; fi
	STATUS=$(curl -s -o "$TMP/body" --max-time 10 -w '%{http_code}' "$NEWURL/subjects/$S1/versions"); BODY=$(cat "$TMP/body")
	expect "the new port serves the API" 200 '. == [1,2]'
	sql "ALTER SYSTEM RESET registry.http_port" >/dev/null && sql "SELECT pg_reload_conf()" >/dev/null
	if wait_http "$URL" 15 >/dev/null; then pass "after RESET and reload the original port answers"; else fail "after RESET and reload the original port answers" "no answer within 15 s"; fi
	if wait_down "$NEWURL" 15; then pass "after RESET the port $NEWPORT is closed"; else fail "after RESET the port $NEWPORT is closed" "still accepting after 15 s"; fi
fi

##############################################################################
# 6. Two workers share the port
##############################################################################
echo "# 6. two workers on one port"
WANT=$(sql "SHOW registry.http_workers")
n=$(sql "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'registry http'")
check "$n processes with backend_type 'registry http' (registry.http_workers = $WANT)" \
	$([ "$n" = "$WANT" ] && [ "${n:-0}" -ge 2 ] && echo 0 || echo 1) "$n processes, want $WANT (>= 2)"
# Each request, on a new connection, has a unique path; the worker that
# served it reports "GET <path>" in pg_stat_activity.query (the last
# request line stays there while the worker is idle).  So after every
# request we ask which pid shows that exact line.
: >"$TMP/served"
for i in $(seq 1 40); do
	path="/subjects/$RUN-probe-$i/versions"
	curl -s -o /dev/null --max-time 10 "$URL$path"
	sql "SELECT pid FROM pg_stat_activity WHERE backend_type = 'registry http' AND query = 'GET $path'" >>"$TMP/served"
done
served=$(grep -c . "$TMP/served")
pids=$(sort -u "$TMP/served" | grep -c .)
dist=$(sort "$TMP/served" | uniq -c | awk '{printf "pid %s: %s requests; ", $2, $1}')
check "each of 40 requests was found in one worker's pg_stat_activity.query" $([ "$served" -eq 40 ] && echo 0 || echo 1) "$served found"
check "both workers served some of the 40 connections ($dist)" $([ "$pids" -ge 2 ] && echo 0 || echo 1) "$dist"

##############################################################################
# 7. Concurrency: 8 clients, 50 schemas, one subject
##############################################################################
echo "# 7. concurrent registration"
python3 ./concurrent_register.py "$URL" "$RUN-conc" 8 50 >"$TMP/conc.out" 2>&1
cat "$TMP/conc.out"
PASSED=$((PASSED + $(grep -c '^ok - ' "$TMP/conc.out")))
FAILED=$((FAILED + $(grep -c '^not ok - ' "$TMP/conc.out")))
if ! grep -q '^ok - ' "$TMP/conc.out" && ! grep -q '^not ok - ' "$TMP/conc.out"; then
	fail "concurrent_register.py ran" "$(head -c 300 "$TMP/conc.out")"
fi
# the same new schemas under a subject per client, all clients at once
python3 ./concurrent_subjects.py "$URL" "$RUN-race" 8 30 >"$TMP/race.out" 2>&1
cat "$TMP/race.out"
PASSED=$((PASSED + $(grep -c '^ok - ' "$TMP/race.out")))
FAILED=$((FAILED + $(grep -c '^not ok - ' "$TMP/race.out")))
if ! grep -q '^ok - ' "$TMP/race.out" && ! grep -q '^not ok - ' "$TMP/race.out"; then
	fail "concurrent_subjects.py ran" "$(head -c 300 "$TMP/race.out")"
fi

##############################################################################
# 8. Framing that could smuggle a request (raw sockets: curl cannot send it)
##############################################################################
echo "# 8. framing"
# raw_http.py prints ok/not ok lines; count them, and fail if it printed none
raw() {	# raw NAME CHECK ARGS...: run one raw_http.py check, count its lines
	local name=$1
	shift
	python3 ./raw_http.py "$HTTP_HOST" "$HTTP_PORT" "$@" >"$TMP/raw.out" 2>&1
	cat "$TMP/raw.out"
	PASSED=$((PASSED + $(grep -c '^ok - ' "$TMP/raw.out")))
	FAILED=$((FAILED + $(grep -c '^not ok - ' "$TMP/raw.out")))
	grep -qE '^(not )?ok - ' "$TMP/raw.out" || fail "raw_http.py $name ran" "$(head -c 300 "$TMP/raw.out")"
}
# reload_wait: give the workers a moment to act on pg_reload_conf()
reload_wait() { sql "SELECT pg_reload_conf()" >/dev/null; sleep 1; }
BEFORE=$(snapshot)
raw framing framing "$RUN-fr"
AFTER=$(snapshot)
same_rows "refused framing registered nothing" "$BEFORE" "$AFTER"

##############################################################################
# 9. Body limits: refused on Content-Length before the body; pending memory
##############################################################################
echo "# 9. body limits"
raw bodies bodies "$(sql "SELECT setting FROM pg_settings WHERE name = 'registry.http_max_body_size'")"
# registry.http_max_body_memory = 100kB holds one pending 60 kB body per
# worker; the others are refused with 503 before their bodies are read
sql "ALTER SYSTEM SET registry.http_max_body_memory = '100kB'" >/dev/null && reload_wait
raw pending pending 60000 "$(sql "SHOW registry.http_workers")"
sql "ALTER SYSTEM RESET registry.http_max_body_memory" >/dev/null && reload_wait

##############################################################################
# 10. Slow senders: registry.http_request_timeout bounds the head and body
##############################################################################
echo "# 10. request timeout"
sql "ALTER SYSTEM SET registry.http_request_timeout = '2s'" >/dev/null && reload_wait
raw slow slow 2
sql "ALTER SYSTEM RESET registry.http_request_timeout" >/dev/null && reload_wait

##############################################################################
# 11. Lock waits: registrations wait for a row lock, reads go on
##############################################################################
echo "# 11. lock waits"
# hold_lock SUBJECT SECONDS: a SQL session holds the subject's row lock
# (what a registration takes first) for SECONDS, in the background;
# returns once the lock is held
hold_lock() {
	"${PSQL[@]}" -d "$DB" -c "BEGIN; SELECT subject FROM registry.subjects WHERE context = '.' AND subject = '$1' FOR UPDATE; SELECT pg_sleep($2); COMMIT" >/dev/null 2>&1 &
	LOCKPID=$!
	local i=0
	while [ $i -lt 40 ]; do
		[ "$(sql "SELECT count(*) FROM pg_stat_activity WHERE wait_event = 'PgSleep' AND query LIKE '%FOR UPDATE; SELECT pg_sleep($2)%'")" = 1 ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
# results: the "result STATUS SECONDS ERROR_CODE" lines of raw_http.py locks
results() { grep '^result ' "$TMP/raw.out"; }
SLK="$RUN-lock"
req POST "/subjects/$SLK/versions" "{\"schema\":$(avro L)}"
expect "setup: a subject for the lock test" 200 '.version == 1'
hold_lock "$SLK" 6 || fail "the SQL session holds the subject's row lock" "not seen in pg_stat_activity"
raw locks locks "$SLK" 6 6 f
wait $LOCKPID
n200=$(results | awk '$2 == 200 && $3 >= 3' | grep -c .)
check "the 6 waiting registrations succeed once the lock is released (after >= 3 s): $(results | awk '{printf "%s/%ss ", $2, $3}')" \
	$([ "$n200" -eq 6 ] && echo 0 || echo 1) "$(results | tr '\n' ' ')"
req GET "/subjects/$SLK/versions"
expect "the subject has all 7 versions" 200 '. == [1,2,3,4,5,6,7]'
# a short registry.http_lock_wait: the waiting registrations give up with 50002
sql "ALTER SYSTEM SET registry.http_lock_wait = '1s'" >/dev/null && reload_wait
hold_lock "$SLK" 4 || fail "the SQL session holds the subject's row lock again" "not seen in pg_stat_activity"
raw "locks (1 s)" locks "$SLK" 3 4 g
wait $LOCKPID
n50002=$(results | awk '$2 == 500 && $4 == 50002 && $3 >= 0.9 && $3 < 3' | grep -c .)
check "with registry.http_lock_wait = 1s the 3 waiting registrations get 500/50002 after ~1 s: $(results | awk '{printf "%s/%s/%ss ", $2, $4, $3}')" \
	$([ "$n50002" -eq 3 ] && echo 0 || echo 1) "$(results | tr '\n' ' ')"
sql "ALTER SYSTEM RESET registry.http_lock_wait" >/dev/null && reload_wait
req GET "/subjects/$SLK/versions"
expect "nothing was registered by the timed-out requests" 200 '. == [1,2,3,4,5,6,7]'

##############################################################################
# 12. HEAD answers like GET without a body
##############################################################################
echo "# 12. HEAD"
raw head head
STATUS=$(curl -s -I -o "$TMP/body" --max-time 10 -w '%{http_code}' "$URL/subjects"); BODY=$(cat "$TMP/body")
check "curl -I /subjects: 200 with the Content-Type" $([ "$STATUS" = 200 ] && grep -qi "^content-type: $CT" "$TMP/body" && echo 0 || echo 1) "HTTP $STATUS: $(short "$BODY")"

##############################################################################
# 13. A failure outside the route (here at commit) answers 500 without its text
##############################################################################
echo "# 13. errors at commit"
SCF="$RUN-commitfail"
sql "CREATE FUNCTION registry.test_commit_fail() RETURNS trigger LANGUAGE plpgsql AS \$\$
	BEGIN RAISE EXCEPTION 'internal detail at commit %', 'do-not-leak'; END \$\$" >/dev/null
sql "CREATE CONSTRAINT TRIGGER test_commit_fail AFTER INSERT ON registry.subjects
	DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.subject = '$SCF')
	EXECUTE FUNCTION registry.test_commit_fail()" >/dev/null
req POST "/subjects/$SCF/versions" "{\"schema\":$A1}"
expect "an error at commit -> 500 {\"error_code\":50001,\"message\":\"Error in the backend data store\"}" 500 \
	'. == {"error_code":50001,"message":"Error in the backend data store"}'
sql "DROP TRIGGER test_commit_fail ON registry.subjects" >/dev/null
sql "DROP FUNCTION registry.test_commit_fail()" >/dev/null
req GET "/subjects/$SCF/versions"
expect_error "the failed registration was rolled back -> 40401" 404 40401
# registry.http_statement_timeout: an attempt that runs too long (here a
# trigger sleeping 5 s) is cancelled and answered 50002; the worker goes on
SST="$RUN-slowstmt"
sql "CREATE FUNCTION registry.test_slow_insert() RETURNS trigger LANGUAGE plpgsql AS \$\$
	BEGIN PERFORM pg_sleep(5); RETURN NEW; END \$\$" >/dev/null
sql "CREATE TRIGGER test_slow_insert BEFORE INSERT ON registry.subjects
	FOR EACH ROW WHEN (NEW.subject = '$SST') EXECUTE FUNCTION registry.test_slow_insert()" >/dev/null
sql "ALTER SYSTEM SET registry.http_statement_timeout = '500ms'" >/dev/null && reload_wait
t0=$(date +%s%N)
req POST "/subjects/$SST/versions" "{\"schema\":$A1}"
el=$((($(date +%s%N) - t0) / 1000000))
expect "an attempt over registry.http_statement_timeout (500ms) -> 500/50002 (in $el ms)" 500 \
	'. == {"error_code":50002,"message":"Operation timed out"}'
check "the cancelled attempt was answered within 3 s ($el ms)" $([ $el -lt 3000 ] && echo 0 || echo 1) "$el ms"
sql "ALTER SYSTEM RESET registry.http_statement_timeout" >/dev/null && reload_wait
sql "DROP TRIGGER test_slow_insert ON registry.subjects" >/dev/null
sql "DROP FUNCTION registry.test_slow_insert()" >/dev/null
for i in 1 2 3 4; do
	req GET /subjects
	expect "after the cancel the workers answer ($i)" 200 'type == "array"'
done
req GET "/subjects/$SST/versions"
expect_error "the cancelled registration was rolled back -> 40401" 404 40401
# pg_cancel_backend() on idle workers has nothing to cancel: they stay up
PIDS0=$(sql "SELECT pid FROM pg_stat_activity WHERE backend_type = 'registry http' ORDER BY pid")
sql "SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE backend_type = 'registry http'" >/dev/null
sleep 0.5
PIDS1=$(sql "SELECT pid FROM pg_stat_activity WHERE backend_type = 'registry http' ORDER BY pid")
check "pg_cancel_backend() on the idle workers leaves them running ($(echo $PIDS0))" \
	$([ -n "$PIDS0" ] && [ "$PIDS0" = "$PIDS1" ] && echo 0 || echo 1) "now $(echo $PIDS1)"

##############################################################################
# 14. Thousands of idle connections against a worker with few descriptors
##############################################################################
echo "# 14. open file limit"
# One worker gets a low open file limit (soft = hard = 256, set with
# prlimit as the cluster's user, since lowering a hard limit needs no
# privilege); a reload makes it size its connection limit anew (~160),
# and registry.http_max_connections = 3000 leaves the other worker room.
# 2500 idle sockets are held for 8 s.  The limited worker must stop
# accepting (LOG once), not run out of descriptors, and keep its pid;
# fresh requests are answered meanwhile (those that land on the other
# worker) and all of them once the sockets are closed.  The limited worker
# is SIGKILLed at the end: the crash restart gives every worker the
# postmaster's limits again (a lowered hard limit cannot be raised back).
SRVLOG=""
[ -n "${CLUSTER_DATA:-}" ] && [ -r "$(dirname "$CLUSTER_DATA")/server.log" ] && SRVLOG=$(dirname "$CLUSTER_DATA")/server.log
LOGPOS=$([ -n "$SRVLOG" ] && stat -c %s "$SRVLOG" || echo 0)
PIDS0=$(sql "SELECT pid FROM pg_stat_activity WHERE backend_type = 'registry http' ORDER BY pid")
W1=$(printf '%s\n' "$PIDS0" | head -1)
OWNER=$(stat -c %U "/proc/$W1" 2>/dev/null)
as_owner() { if [ "$(id -u)" -eq 0 ] && [ "$OWNER" != root ]; then runuser -u "$OWNER" -- "$@"; else "$@"; fi; }
if ! command -v prlimit >/dev/null || ! as_owner prlimit --pid "$W1" --nofile=256:256; then
	fail "lower the open file limit of worker $W1 with prlimit" "prlimit failed or is missing"
else
	pass "worker $W1 now has an open file limit of 256"
	sql "ALTER SYSTEM SET registry.http_max_connections = 3000" >/dev/null
	reload_wait
	python3 ./raw_http.py "$HTTP_HOST" "$HTTP_PORT" idle 2500 8 >"$TMP/idle.out" 2>&1 &
	IDLEPID=$!
	i=0
	while [ $i -lt 40 ] && ! grep -q "^connected" "$TMP/idle.out" 2>/dev/null; do sleep 0.25; i=$((i + 1)); done
	sleep 1
	held=$(sed -n 's/^connected //p' "$TMP/idle.out")
	answered=0
	for i in $(seq 1 20); do
		[ "$(curl -s -o /dev/null --max-time 1 -w '%{http_code}' "$URL/subjects")" = 200 ] && answered=$((answered + 1))
	done
	check "while ${held:-0} idle connections are held, fresh requests are answered ($answered of 20, by a worker with room)" \
		$([ "${held:-0}" -ge 1500 ] && [ $answered -ge 1 ] && echo 0 || echo 1) "held ${held:-0}, answered $answered"
	wait $IDLEPID
	cat "$TMP/idle.out" | grep '^#'
	answered=0
	for i in $(seq 1 20); do
		[ "$(curl -s -o /dev/null --max-time 5 -w '%{http_code}' "$URL/subjects")" = 200 ] && answered=$((answered + 1))
	done
	check "once they are closed, every fresh request is answered ($answered of 20)" $([ $answered -eq 20 ] && echo 0 || echo 1) "$answered of 20"
	PIDS1=$(sql "SELECT pid FROM pg_stat_activity WHERE backend_type = 'registry http' ORDER BY pid")
	check "the workers kept their pids ($(echo $PIDS0))" $([ "$PIDS0" = "$PIDS1" ] && echo 0 || echo 1) "now $(echo $PIDS1)"
	if [ -n "$SRVLOG" ]; then
		tail -c +$((LOGPOS + 1)) "$SRVLOG" >"$TMP/srv.log"
		check "no 'Too many open files' in the server log" $(grep -qi 'too many open files' "$TMP/srv.log" && echo 1 || echo 0) \
			"$(grep -i 'too many open files' "$TMP/srv.log" | head -2 | tr '\n' ' ')"
		nlim=$(grep -c "\[$W1\] LOG:  registry REST API worker reached its limit" "$TMP/srv.log")
		check "the limited worker LOGged reaching its connection limit once ($nlim)" $([ "$nlim" -eq 1 ] && echo 0 || echo 1) \
			"$(grep -E 'reached its limit|connections in this worker' "$TMP/srv.log" | head -4 | tr '\n' ' ')"
	fi
	sql "ALTER SYSTEM RESET registry.http_max_connections" >/dev/null
	reload_wait
	kill -9 "$W1"
	i=0
	while [ $i -lt 60 ] && kill -0 "$W1" 2>/dev/null; do sleep 0.25; i=$((i + 1)); done
	if wait_http "$URL" 30 >/dev/null && wait_sql 30; then pass "the workers are back after resetting the limited one"; else fail "the workers are back after resetting the limited one" "not within 30 s"; fi
fi

##############################################################################
# Schema tags (Confluent 7.5+): POST /subjects/{s}/versions/{v}/tags,
# schemaTagsToAdd / schemaTagsToRemove / propagateSchemaTags on register,
# findTags on GET.
##############################################################################
# tag_list PATH TYPE TAG...: a SchemaTags list of one entity
tag_list() {
	local path=$1 type=$2
	shift 2
	jq -cn --arg p "$path" --arg t "$type" '[{schemaEntity:{entityPath:$p,entityType:$t},tags:$ARGS.positional}]' --args "$@"
}
tags_rest_cases() {
	echo "# schema tags"
	local ST="$RUN-tags" TR="T_$RUN" base id2
	base=$(avro "$TR" "$F_B")
	req POST "/subjects/$ST/versions" "{\"schema\":$base}"
	expect "tags: version 1 registered" 200 '.id | type == "number"'
	req POST "/subjects/$ST/versions/1/tags" "{\"tagsToAdd\":$(tag_list "$TR.a" sr_field PII)}"
	expect "tags: POST /versions/1/tags makes version 2 with the field's tags and confluent:version" 200 \
		".version == 2 and .metadata.properties[\"confluent:version\"] == \"2\" and (.schema | fromjson | .fields[0][\"confluent:tags\"] == [\"PII\"])"
	id2=$(printf '%s' "$BODY" | jq -r .id)
	req GET "/subjects/$ST/versions/2"
	expect "tags: version 2 is stored with the tags, after the field's other attributes" 200 \
		"(.schema | contains(\"{\\\"name\\\":\\\"a\\\",\\\"type\\\":\\\"int\\\",\\\"confluent:tags\\\":[\\\"PII\\\"]}\"))"
	req GET "/subjects/$ST/versions/2?findTags=PII"
	expect "tags: findTags=PII lists the tagged field" 200 \
		".schemaTags == [{\"schemaEntity\":{\"entityPath\":\"$TR.a\",\"entityType\":\"sr_field\"},\"tags\":[\"PII\"]}]"
	req GET "/subjects/$ST/versions/2?findTags=NOPE"
	expect "tags: findTags with no match leaves schemaTags out" 200 'has("schemaTags") | not'
	req GET "/schemas/ids/$id2?findTags=*"
	expect "tags: GET /schemas/ids/{id}?findTags=* lists every tagged entity" 200 \
		".schemaTags == [{\"schemaEntity\":{\"entityPath\":\"$TR.a\",\"entityType\":\"sr_field\"},\"tags\":[\"PII\"]}]"
	req POST "/subjects/$ST/versions/2/tags" "{\"newVersion\":5,\"tagsToAdd\":$(tag_list "$TR" sr_record R)}"
	expect_error "tags: a newVersion that is not the next version is refused" 422 42201
	req POST "/subjects/$ST/versions/2/tags" "{\"newVersion\":3,\"tagsToAdd\":$(tag_list "$TR" sr_record R)}"
	expect "tags: newVersion 3 makes version 3 with the record's tags too" 200 \
		".version == 3 and .metadata.properties[\"confluent:version\"] == \"3\" and (.schema | fromjson | .[\"confluent:tags\"] == [\"R\"] and .fields[0][\"confluent:tags\"] == [\"PII\"])"
	req POST "/subjects/$ST/versions/3/tags" "{\"tagsToRemove\":$(tag_list "$TR.a" sr_field PII)}"
	expect "tags: tagsToRemove drops the field's last tag and its property" 200 \
		".version == 4 and (.schema | fromjson | (.fields[0] | has(\"confluent:tags\") | not) and .[\"confluent:tags\"] == [\"R\"])"
	req POST "/subjects/$ST/versions/1/tags" "{\"tagsToAdd\":$(tag_list "$TR.zz" sr_field X)}"
	expect "tags: an entity not in the schema is 42201 (No matching path)" 422 \
		'.error_code == 42201 and (.message | contains("No matching path"))'
	req POST "/subjects/$ST/versions/1/tags" "{\"ruleSet\":{},\"rulesToRemove\":[\"r\"]}"
	expect "tags: ruleSet with rulesToRemove is 42210" 422 \
		'.error_code == 42210 and .message == "ruleSet should be omitted if specifying rulesToMerge or rulesToRemove"'
	req POST "/subjects/$RUN-no-such/versions/1/tags" "{\"tagsToAdd\":$(tag_list "$TR.a" sr_field X)}"
	expect_error "tags: a missing subject is 40401" 404 40401
	req POST "/subjects/$ST/versions/99/tags" "{\"tagsToAdd\":$(tag_list "$TR.a" sr_field X)}"
	expect_error "tags: a missing version is 40402" 404 40402
	req POST "/subjects/$ST/versions" "{\"schema\":$base,\"schemaTagsToAdd\":$(tag_list "$TR.b" sr_field S)}"
	expect "tags: register with schemaTagsToAdd stores the tagged schema as a new version" 200 '.id | type == "number"'
	req GET "/subjects/$ST/versions/latest"
	expect "tags: the latest version has the tags schemaTagsToAdd gave and confluent:version" 200 \
		".version == 5 and .metadata.properties[\"confluent:version\"] == \"5\" and (.schema | fromjson | .fields[1][\"confluent:tags\"] == [\"S\"])"
	req POST "/subjects/$ST-proto/versions" '{"schemaType":"PROTOBUF","schema":"syntax = \"proto3\"; message M { int32 a = 1; }"}'
	expect "tags: a PROTOBUF version" 200 '.version == 1'
	req POST "/subjects/$ST-proto/versions/1/tags" "{\"tagsToAdd\":$(tag_list "M.a" sr_field PII)}"
	expect_error "tags: tags on a PROTOBUF schema are 42201 (not implemented), never a 500" 422 42201
	req POST "/subjects/$ST/versions/1/tags" '{"tagsToAdd":[{"schemaEntity":"nope"}]}'
	expect_error "tags: a malformed tag list is 42201, never a 500" 422 42201
	req POST "/subjects/$ST/versions" "{\"schema\":$(avro "$TR" "$F_B,$F_C"),\"propagateSchemaTags\":true}"
	expect "tags: register with propagateSchemaTags" 200 '.id | type == "number"'
	req GET "/subjects/$ST/versions/latest"
	expect "tags: the previous version's tags are carried to the new schema" 200 \
		".version == 6 and (.schema | fromjson | .fields[1][\"confluent:tags\"] == [\"S\"] and (.fields[2] | has(\"confluent:tags\") | not))"
}
tags_rest_cases

# --- bounds on a compatibility check (doc/design.md#limits) -----------------
# A reader's POST /compatibility with a schema whose 60 definitions each use
# the previous one twice answers in time with 10,000 messages and the count
# of the rest; a comparison past the budget (anyOf of 3,000 objects against
# 3,000) and a nested counted repetition in patternProperties are 422 42201,
# quickly; the workers survive (same pids) and serve the next request.
bounds_cases() {
	local S="$RUN-bounds" pids0 pids1 t0 t1
	python3 - "$TMP" <<'PYEOF'
import json, sys
tmp = sys.argv[1]
def chain(n, ml):
    d = {"a0": {"type": "string", "maxLength": ml}}
    for k in range(1, n + 1):
        ref = {"$ref": "#/definitions/a%d" % (k - 1)}
        d["a%d" % k] = {"type": "object", "properties": {"x": ref, "y": ref}}
    return json.dumps({"definitions": d, "$ref": "#/definitions/a%d" % n})
def wide(n, t):
    return json.dumps({"anyOf": [{"type": "object", "properties": {"p%d" % k: {"type": t}, "q": {"type": t}},
                                  "required": ["p%d" % k]} for k in range(n)]})
def pattern(extra):
    s = {"type": "object", "patternProperties": {"((a{1,1000}){1,1000}){1,1000}": {"type": "string"}},
         "additionalProperties": False}
    if extra:
        s["properties"] = {"aaa": {"type": "string"}}
    return json.dumps(s)
for name, schema in [("chain10", chain(60, 10)), ("chain5", chain(60, 5)), ("wide_s", wide(3000, "string")),
                     ("wide_i", wide(3000, "integer")), ("pat", pattern(False)), ("pat_extra", pattern(True))]:
    open("%s/bounds_%s.json" % (tmp, name), "w").write(json.dumps({"schemaType": "JSON", "schema": schema}))
PYEOF
	req POST "/subjects/$S-chain/versions" "@$TMP/bounds_chain10.json"
	expect "bounds: a 60-level JSON chain registers" 200 '.id | type == "number"'
	req POST "/subjects/$S-wide/versions" "@$TMP/bounds_wide_s.json"
	expect "bounds: an anyOf of 3,000 objects registers" 200 '.id | type == "number"'
	req POST "/subjects/$S-pattern/versions" "@$TMP/bounds_pat.json"
	expect "bounds: a nested counted repetition in patternProperties registers" 200 '.id | type == "number"'
	pids0=$(sql "SELECT pid FROM pg_stat_activity WHERE backend_type = 'registry http' ORDER BY pid")
	t0=$(date +%s%N)
	req POST "/compatibility/subjects/$S-chain/versions/latest?verbose=true" "@$TMP/bounds_chain5.json"
	t1=$(date +%s%N)
	expect "bounds: 2^60 differences: 10,000 messages, the count of the rest, Confluent's closing lines" 200 \
		'.is_compatible == false and (.messages | length) == 10004 and (.messages[10000] | test("1152921504606836976 more incompatible differences"))'
	check "bounds: the 60-level chain answered within 5 s ($(((t1 - t0) / 1000000)) ms)" \
		$([ $(((t1 - t0) / 1000000)) -lt 5000 ]; echo $?) ""
	t0=$(date +%s%N)
	req POST "/compatibility/subjects/$S-wide/versions/latest" "@$TMP/bounds_wide_i.json"
	t1=$(date +%s%N)
	expect_error "bounds: a comparison past the budget is 422 42201" 422 42201
	check "bounds: ... within 10 s ($(((t1 - t0) / 1000000)) ms)" $([ $(((t1 - t0) / 1000000)) -lt 10000 ]; echo $?) ""
	req POST "/subjects/$S-wide/versions" "@$TMP/bounds_wide_i.json"
	expect_error "bounds: so is its registration" 422 42201
	req POST "/compatibility/subjects/$S-pattern/versions/latest" "@$TMP/bounds_pat_extra.json"
	expect_error "bounds: a nested counted repetition in patternProperties is 422 42201" 422 42201
	pids1=$(sql "SELECT pid FROM pg_stat_activity WHERE backend_type = 'registry http' ORDER BY pid")
	check "bounds: the workers survive (same pids)" $([ -n "$pids0" ] && [ "$pids0" = "$pids1" ]; echo $?) \
		"before: $pids0 after: $pids1"
	req GET "/subjects/$S-chain/versions"
	expect "bounds: and serve the next request" 200 '. == [1]'
}
bounds_cases

req GET /
expect "the server is up at the end" 200 '. == {}'

echo "# $(($(date +%s) - START)) s"
echo "http: $PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
