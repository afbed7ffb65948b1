#!/usr/bin/env bash
# Install the Debian packages the registry needs to build, run and test,
# skipping those already present.  Uses sudo when not run as root.
set -euo pipefail

packages=(
	build-essential pkg-config sudo
	postgresql-15 postgresql-server-dev-15 postgresql-15-pgtap
	libtap-parser-sourcehandler-pgtap-perl libipc-run-perl
	libjansson-dev libavro-dev libprotobuf-c-dev protobuf-c-compiler
	json-schema-test-suite
	libprotoc-dev libmicrohttpd-dev libgnutls28-dev
	clang libclang-rt-14-dev
	pg-bsd-indent
	curl libcurl4-gnutls-dev jq openssl libpq-dev python3 python3-confluent-kafka python3-requests python3-avro python3-protobuf
	python3-jsonschema
)

missing=()
for p in "${packages[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing+=("$p")
	fi
done
# Node.js for the tests with real npm clients: the machine's own if it has one
command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 || missing+=(nodejs npm)
[ ${#missing[@]} -eq 0 ] && exit 0

SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
echo "installing: ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
