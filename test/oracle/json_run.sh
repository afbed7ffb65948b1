#!/bin/bash
# JSON Schema stored-form oracle: our core against Jackson (Debian's
# libjackson2-databind-java), set up as Confluent's registry sets up the
# mapper it stores JSON schemas with, on random documents from
# json_gen.py.  For every document it compares the stored form (key order
# kept, numbers and strings as Jackson writes them) and the normalized
# form (keys sorted); each disagreement is listed.  The last line is
# "json oracle: N passed, M failed" (N, M count compared lines).
#
#   test/oracle/json_run.sh [COUNT [SEED]]        defaults 500 and 1
set -u
here=$(cd "$(dirname "$0")" && pwd)
count=${1:-500}
seed=${2:-1}
work=$(mktemp -d "${TMPDIR:-/tmp}/json_oracle.XXXXXX")
trap 'rm -rf "$work"' EXIT

fail() { echo "json oracle: $*"; echo "json oracle: 0 passed, 1 failed"; exit 1; }

command -v javac >/dev/null && command -v java >/dev/null || fail "no javac/java (apt-get install -y default-jdk-headless)"
cp=
for j in jackson-databind jackson-core jackson-annotations; do
	[ -f /usr/share/java/$j.jar ] || fail "missing /usr/share/java/$j.jar (apt-get install -y libjackson2-databind-java)"
	cp=$cp${cp:+:}/usr/share/java/$j.jar
done

javac -nowarn -d "$work" -cp "$cp" "$here/JsonOracle.java" 2> "$work/javac.log" ||
	{ cat "$work/javac.log"; fail "javac failed"; }
# our side links the core as the unit tests build it (ASan + UBSan)
make -s -C "$here/../core" build/libregistry_core.a > "$work/make.log" 2>&1 ||
	{ tail -20 "$work/make.log"; fail "building the core failed"; }
core=$here/../../src/core
${CC:-cc} -O1 -g -Wall -Wno-unused-parameter -fsanitize=address,undefined \
	-I"$core/common" -I"$core/avro" -I"$core/json" -I"$core/protobuf" -I"$core/protobuf/gen" -o "$work/json_oracle_c" "$here/json_oracle_c.c" \
	"$here/../core/build/libregistry_core.a" \
	-ljansson -lm -lprotoc -lprotobuf -lprotobuf-c -lstdc++ 2> "$work/cc.log" ||
	{ cat "$work/cc.log"; fail "cc failed"; }

python3 "$here/json_gen.py" "$count" "$seed" > "$work/docs.tsv" || fail "json_gen.py failed"
java -cp "$work:$cp" JsonOracle < "$work/docs.tsv" > "$work/java.out" 2> "$work/java.err" ||
	{ cat "$work/java.err"; fail "java failed"; }
"$work/json_oracle_c" < "$work/docs.tsv" > "$work/c.out" 2> "$work/c.err" ||
	{ cat "$work/c.err"; fail "json_oracle_c failed"; }

python3 - "$work/docs.tsv" "$work/java.out" "$work/c.out" <<'PY'
import sys

docs = {}
for line in open(sys.argv[1], encoding="utf-8", errors="surrogateescape"):
    did, doc = line.rstrip("\n").split("\t", 1)
    docs[did] = doc


def load(path):
    out = {}
    for line in open(path, encoding="utf-8", errors="surrogateescape"):
        did, what, val = line.rstrip("\n").split("\t", 2)
        out[(did, what)] = val
    return out


java = load(sys.argv[2])
ours = load(sys.argv[3])
passed = failed = 0
for key in sorted(set(java) | set(ours)):
    j = java.get(key, "(missing)")
    c = ours.get(key, "(missing)")
    if j == c:
        passed += 1
        continue
    failed += 1
    did, what = key
    if failed <= 20:
        print("DIFF %s %s" % (did, what))
        print("  doc:     %s" % docs.get(did, "?"))
        print("  jackson: %s" % j)
        print("  ours:    %s" % c)
print("json oracle: %d documents, %d lines compared" % (len(docs), passed + failed))
print("json oracle: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
PY
