#!/usr/bin/env bash
# Real, unmodified Confluent clients against a running registry:
#   Node  @kafkajs/confluent-schema-registry   (kafkajs.mjs)
#   Node  @confluentinc/schemaregistry         (confluent.mjs)
#   its AssociatedNameStrategy over associations (associations.mjs)
#   Python confluent_kafka.schema_registry     (python_client.py, Debian's python3-confluent-kafka)
#   and the Avro wire format across all three  (cross.mjs, python_cross.py)
#   PROTOBUF with all three: registration, references, well-known types,
#   compatibility, message indexes on the wire  (protobuf.mjs,
#   protobuf_client.py; proto/*.proto compiled at run time by buf from npm)
#   JSON with all three: kafkajs SchemaType.JSON, @confluentinc
#   JsonSerializer/JsonDeserializer, python JSONSerializer/JSONDeserializer
#   (python3-jsonschema): each other's bytes, compatibility, config, a
#   reference  (json.mjs, json_client.py)
#   CSFLE: field and payload encryption with FieldEncryptionExecutor,
#   EncryptionExecutor and LocalKmsDriver, through the DEK registry
#   (encrypt.mjs)
#   registry.encode / registry.decode in SQL against each client's bytes, in
#   both directions, for the three formats (sql_payload.py, psql with
#   PGHOST/PGPORT/PGUSER; the node side is in the decode steps of cross.mjs,
#   protobuf.mjs and json.mjs)
#
# Needs REGISTRY_URL (e.g. http://127.0.0.1:18081).  The node clients are
# installed into tmp_check/clients/node_modules (not committed, reused on
# later runs); the Debian packages are installed with apt-get if missing.
# One line per check; the last line is "clients: N passed, M failed" and
# the exit status is non-zero on any failure.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
WORK=$ROOT/tmp_check/clients
PY=/usr/bin/python3	# Debian's python, where python3-confluent-kafka lives

# pinned client versions (all run on Node 20)
NODE_PKGS=(
	@kafkajs/confluent-schema-registry@3.9.0
	@confluentinc/schemaregistry@1.10.1
	avsc@5.7.9
	@bufbuild/buf@1.75.0	# compiles proto/*.proto to descriptors (no protoc here)
)
DEB_PKGS=(python3-confluent-kafka python3-requests python3-avro python3-protobuf python3-jsonschema)

PASSED=0
FAILED=0
pass() { PASSED=$((PASSED + 1)); echo "ok - $*"; }
fail() { FAILED=$((FAILED + 1)); echo "not ok - $*"; }
finish() {
	echo "clients: $PASSED passed, $FAILED failed"
	[ "$FAILED" -eq 0 ]
	exit $?
}

if [ -z "${REGISTRY_URL:-}" ]; then
	fail "REGISTRY_URL is not set"
	finish
fi
REGISTRY_URL=${REGISTRY_URL%/}
export REGISTRY_URL CLIENTS_WORK=$WORK PYTHONDONTWRITEBYTECODE=1
# unique subjects per run, so reruns against the same cluster work
export RUN_ID=${RUN_ID:-$(date +%s)-$$}
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"

# --- install --------------------------------------------------------------
t0=$(date +%s)
mkdir -p "$WORK"
stamp="${NODE_PKGS[*]}"
if [ -d "$WORK/node_modules" ] && [ "$(cat "$WORK/.installed" 2>/dev/null)" = "$stamp" ]; then
	:
elif ! command -v npm >/dev/null; then
	fail "npm is not installed (need Node >= 20)"
else
	mkdir -p "$WORK"
	[ -f "$WORK/package.json" ] || echo '{"name":"registry-client-tests","private":true}' >"$WORK/package.json"
	if npm install --prefix "$WORK" --no-audit --no-fund --no-save --loglevel=error \
		"${NODE_PKGS[@]}" >"$WORK/npm-install.log" 2>&1; then
		echo "$stamp" >"$WORK/.installed"
		echo "# installed node clients into $WORK in $(($(date +%s) - t0))s"
	else
		tail -20 "$WORK/npm-install.log"
		fail "npm install ${NODE_PKGS[*]}"
	fi
fi

if ! "$PY" -c 'import confluent_kafka.schema_registry, avro.io, google.protobuf, jsonschema' >/dev/null 2>&1; then
	echo "# installing ${DEB_PKGS[*]}"
	( $SUDO apt-get install -y -qq "${DEB_PKGS[@]}" || { $SUDO apt-get update -qq && $SUDO apt-get install -y -qq "${DEB_PKGS[@]}"; } ) \
		>"$WORK/apt.log" 2>&1 || tail -20 "$WORK/apt.log"
fi
# fastavro is what confluent_kafka's AvroSerializer imports; Debian 12 does
# not package it (python_cross.py then uses a shim over python3-avro)
if ! "$PY" -c 'import fastavro' >/dev/null 2>&1 \
	&& apt-cache policy python3-fastavro 2>/dev/null | grep -q 'Candidate: [0-9]'; then
	$SUDO apt-get install -y -qq python3-fastavro >/dev/null 2>&1 || true
fi
echo "# install step: $(($(date +%s) - t0))s"

# --- the registry must answer ----------------------------------------------
up=0
for _ in $(seq 1 50); do
	if curl -sf -o /dev/null "$REGISTRY_URL/subjects"; then up=1; break; fi
	sleep 0.2
done
if [ $up -eq 0 ]; then
	fail "registry at $REGISTRY_URL answers GET /subjects"
	finish
fi

# --- run -------------------------------------------------------------------
# step NAME CMD...: run one test program (2 minutes at most), pass its
# lines through and count them; a program that fails without a failed
# check (a crash, a missing module) counts as one failure
step() {
	local name=$1; shift
	local out rc
	out=$(cd "$HERE" && timeout 120 "$@" 2>&1)
	rc=$?
	echo "$out" | grep -E '^(ok|not ok) - |^# ' || true
	local p f
	p=$(echo "$out" | grep -c '^ok - ')
	f=$(echo "$out" | grep -c '^not ok - ')
	PASSED=$((PASSED + p))
	FAILED=$((FAILED + f))
	if [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "$out" | grep -vE '^(ok|not ok) - |^# ' | tail -15 | sed 's/^/#   /'
		fail "$name exited with status $rc"
	fi
}

t1=$(date +%s)
XDIR=$(mktemp -d "${TMPDIR:-/tmp}/registry-clients.XXXXXX")
trap 'rm -rf "$XDIR"' EXIT

if [ -d "$WORK/node_modules" ]; then
	step kafkajs.mjs node kafkajs.mjs
	step confluent.mjs node confluent.mjs
	step associations.mjs node associations.mjs
	step "cross.mjs encode" node cross.mjs encode "$XDIR"
else
	fail "node clients not installed: node tests not run"
fi
if "$PY" -c 'import confluent_kafka.schema_registry' >/dev/null 2>&1; then
	step python_client.py "$PY" python_client.py
	if [ -f "$XDIR/schema.json" ]; then
		step python_cross.py "$PY" python_cross.py "$XDIR"
		step "sql_payload.py AVRO" "$PY" sql_payload.py AVRO "$XDIR"
	fi
else
	fail "python3-confluent-kafka not importable by $PY: python tests not run"
fi
if [ -d "$WORK/node_modules" ]; then
	step "cross.mjs decode" node cross.mjs decode "$XDIR"
fi

# round_trip FORMAT NODE_TEST DIR IDS PY_MODULE PY_TEST PACKAGE: node
# registers and encodes into DIR (writing DIR/IDS), python reads those bytes
# and writes its own (when PY_MODULE, from Debian's PACKAGE, imports), node
# decodes python's
round_trip() {
	local format=$1 js=$2 dir=$3 ids=$4 module=$5 py=$6 pkg=$7
	[ -d "$WORK/node_modules" ] || return 0
	step "$js encode" node "$js" encode "$dir"
	[ -f "$dir/$ids" ] || return 0
	if "$PY" -c "import $module" >/dev/null 2>&1; then
		step "$py" "$PY" "$py" "$dir"
	else
		fail "$pkg not importable by $PY: python $format tests not run"
	fi
	step "sql_payload.py $format" "$PY" sql_payload.py "$format" "$dir"
	step "$js decode" node "$js" decode "$dir"
}
# PROTOBUF (protobuf.mjs also compiles proto/ into $XDIR/pb/protos.binpb), JSON
round_trip PROTOBUF protobuf.mjs "$XDIR/pb" pb-ids.json \
	confluent_kafka.schema_registry.protobuf protobuf_client.py python3-protobuf
round_trip JSON json.mjs "$XDIR/json" json-ids.json \
	confluent_kafka.schema_registry.json_schema json_client.py python3-jsonschema
# client-side field-level and payload encryption through the DEK registry:
# encode, decode in a fresh process (empty caches), then decode the shared
# KEK's messages with no KMS secret at all (the registry must have
# registry.local_kms_secret = 'mysecret', as test/scripts/test.sh sets it)
if [ -d "$WORK/node_modules" ]; then
	step "encrypt.mjs encode" node encrypt.mjs encode "$XDIR/enc"
	if [ -f "$XDIR/enc/enc.json" ]; then
		step "encrypt.mjs decode" node encrypt.mjs decode "$XDIR/enc"
		step "encrypt.mjs shared" node encrypt.mjs shared "$XDIR/enc"
	fi
fi
echo "# run time: $(($(date +%s) - t1))s"
finish
