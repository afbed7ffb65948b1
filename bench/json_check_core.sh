#!/usr/bin/env bash
# bench/json_check_core.sh: the JSON Schema transitive check of the core
# alone (bench/json_check_core.c, no PostgreSQL): BACKWARD_TRANSITIVE of
# schema N+1 against N parsed versions, fixed50 and growing shapes, with
# the pairs found compatible (json_content.c) used for the same schema at
# every call ("same") and for a new one at every call ("fresh"), against
# the check without them ("off", as before the set: the baseline of the
# same run, interleaved).  Prints min and median ms per check and the
# ratio to off.  The core is built by `make` (build/core-pic).
#
# Usage: bash bench/json_check_core.sh   (env: N=1000 REPS=200 GROWING_REPS=10)
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-1000}
REPS=${REPS:-200}
GROWING_REPS=${GROWING_REPS:-10}

make -s build/core-pic/libregistry_core.a
BIN=$(mktemp /tmp/json_check_core.XXXXXX)
trap 'rm -f "$BIN"' EXIT
INC=""
for d in common avro json protobuf; do INC="$INC -Isrc/core/$d"; done
# shellcheck disable=SC2086
cc -O2 $INC -o "$BIN" bench/json_check_core.c build/core-pic/libregistry_core.a \
	-ljansson -lm -lprotoc -lprotobuf -lprotobuf-c -lstdc++

echo "# load average before the run: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) CPUs)"
echo "# $(date -u '+%Y-%m-%d %H:%M:%S UTC')  git $(git rev-parse --short HEAD 2>/dev/null)$(git diff --quiet HEAD -- src 2>/dev/null || echo '+dirty')"
echo "# fixed50, N = $N, $REPS checks of each mode"
"$BIN" "$N" "$REPS" fixed50
echo "# growing, N = $N, $GROWING_REPS checks of each mode"
"$BIN" "$N" "$GROWING_REPS" growing
