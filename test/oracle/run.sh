#!/bin/bash
# Differential oracle: our core against Avro Java 1.8.2 (Debian's
# libavro-java) on random schema pairs from gen.py.  For every pair it
# compares each schema's Schema.toString() (our stored form) and the
# reader/writer verdict both ways; each disagreement is listed, known
# 1.8.2-vs-1.11 differences separately.  The last line is
# "oracle: N passed, M failed" (N, M count compared lines).
#
#   test/oracle/run.sh [COUNT [SEED]]        defaults 300 and 1
set -u
here=$(cd "$(dirname "$0")" && pwd)
core=$here/../../src/core
count=${1:-300}
seed=${2:-1}
work=$(mktemp -d "${TMPDIR:-/tmp}/oracle.XXXXXX")
trap 'rm -rf "$work"' EXIT

fail() { echo "oracle: $*"; echo "oracle: 0 passed, 1 failed"; exit 1; }

command -v javac >/dev/null && command -v java >/dev/null || fail "no javac/java (apt-get install -y default-jdk-headless)"
[ -f /usr/share/java/avro.jar ] || fail "no /usr/share/java/avro.jar (apt-get install -y libavro-java)"
cp=/usr/share/java/avro.jar
for j in jackson-core-asl jackson-mapper-asl slf4j-api slf4j-nop; do
	[ -f /usr/share/java/$j.jar ] || fail "missing /usr/share/java/$j.jar"
	cp=$cp:/usr/share/java/$j.jar
done

javac -nowarn -d "$work" -cp "$cp" "$here/Oracle.java" 2> "$work/javac.log" ||
	{ cat "$work/javac.log"; fail "javac failed"; }
# our side links the core as the unit tests build it (ASan + UBSan)
make -s -C "$here/../core" build/libregistry_core.a > "$work/make.log" 2>&1 ||
	{ tail -20 "$work/make.log"; fail "building the core failed"; }
${CC:-cc} -O1 -g -Wall -Wno-unused-parameter -fsanitize=address,undefined \
	-I"$core/common" -I"$core/avro" -I"$core/json" -I"$core/protobuf" -I"$core/protobuf/gen" \
	-o "$work/oracle_c" "$here/oracle_c.c" "$here/../core/build/libregistry_core.a" \
	-ljansson -lm -lprotoc -lprotobuf -lprotobuf-c -lstdc++ 2> "$work/cc.log" ||
	{ cat "$work/cc.log"; fail "cc failed"; }

python3 "$here/gen.py" "$count" "$seed" > "$work/pairs.tsv" || fail "gen.py failed"
java -cp "$work:$cp" Oracle < "$work/pairs.tsv" > "$work/java.out" 2> "$work/java.err" ||
	{ cat "$work/java.err"; fail "java failed"; }
"$work/oracle_c" < "$work/pairs.tsv" > "$work/c.out" 2> "$work/c.err" ||
	{ cat "$work/c.err"; fail "oracle_c failed"; }

python3 - "$work/pairs.tsv" "$work/java.out" "$work/c.out" <<'PY'
import sys

pairs = {}
for line in open(sys.argv[1], encoding="utf-8"):
    pid, a, b = line.rstrip("\n").split("\t")
    pairs[pid] = (a, b)

def load(path):
    out = {}
    for line in open(path, encoding="utf-8"):
        pid, what, val = line.rstrip("\n").split("\t", 2)
        out[(pid, what)] = val
    return out

java = load(sys.argv[2])
ours = load(sys.argv[3])


def expected(pid, what, j, c):
    """The reason a disagreement is a known 1.8.2-vs-1.11 difference, or None."""
    if what in ("A<-B", "B<-A") and "~wunion" in pid \
            and j == "INCOMPATIBLE" and c == "COMPATIBLE":
        return ("1.8.2 reads a writer union with a non-union reader only when "
                "it has one branch; 1.11 checks each branch")
    if what in ("A<-B", "B<-A") and "~ns" in pid \
            and j == "INCOMPATIBLE" and c == "COMPATIBLE":
        return ("1.8.2 matches record, enum and fixed names on the full name; "
                "1.11 on the unqualified name")
    return None


passed = failed = known = 0
by_kind = {}
for key in sorted(set(java) | set(ours)):
    j = java.get(key, "(missing)")
    c = ours.get(key, "(missing)")
    pid, what = key
    if j == c:
        passed += 1
        continue
    why = expected(pid, what, j, c)
    if why:
        known += 1
        passed += 1
        by_kind[why] = by_kind.get(why, 0) + 1
        continue
    failed += 1
    a, b = pairs.get(pid, ("?", "?"))
    print("DIFF %s %s" % (pid, what))
    print("  A:    %s" % a)
    print("  B:    %s" % b)
    print("  java: %s" % j)
    print("  ours: %s" % c)
for why, n in by_kind.items():
    print("expected difference (%d): %s" % (n, why))
print("oracle: %d pairs, %d lines compared, %d known differences" %
      (len(pairs), passed + failed, known))
print("oracle: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
PY
