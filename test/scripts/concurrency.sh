#!/usr/bin/env bash
# Several sessions register the same set of schemas into one subject at
# once, each in its own order.  Afterwards the subject must hold exactly one
# version per distinct schema, numbered 1..N with no gap, and every session
# must have been answered with the same id for the same schema.
# Needs PGHOST/PGPORT/PGUSER of a running cluster with the extension.
set -uo pipefail
SESSIONS=${SESSIONS:-8}
SCHEMAS=${SCHEMAS:-30}
DB=registry_concurrency
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

psql -qX -d postgres -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB" >/dev/null
psql -qX -d $DB -c "CREATE EXTENSION registry" >/dev/null

# schema k: a record with optional fields f1..fk (all mutually BACKWARD compatible)
schema() {
	local k=$1 fields="" i
	for i in $(seq 1 "$k"); do
		fields+="{\"name\":\"f$i\",\"type\":[\"null\",\"long\"],\"default\":null}"
		[ "$i" -lt "$k" ] && fields+=","
	done
	echo "{\"type\":\"record\",\"name\":\"Event\",\"fields\":[$fields]}"
}

for s in $(seq 1 "$SESSIONS"); do
	{
		for k in $(seq 1 "$SCHEMAS" | shuf --random-source=<(yes $s)); do
			echo "SELECT $k AS k, registry.register_schema('orders-value', \$\$$(schema "$k")\$\$) AS id \\gset"
			echo "\\echo :k :id"
		done
	} >"$WORK/session$s.sql"
	psql -qX -v ON_ERROR_STOP=1 -d $DB -f "$WORK/session$s.sql" >"$WORK/out$s" 2>"$WORK/err$s" &
done
wait

fail=0
errors=$(cat "$WORK"/err* | grep -c . )
if [ "$errors" -ne 0 ]; then
	echo "sessions reported errors:"; cat "$WORK"/err* | head -20; fail=1
fi
# every session got the same id for the same schema
distinct=$(cat "$WORK"/out* | sort -u | awk '{print $1}' | sort | uniq -d | wc -l)
pairs=$(cat "$WORK"/out* | sort -u | wc -l)
if [ "$distinct" -ne 0 ] || [ "$pairs" -ne "$SCHEMAS" ]; then
	echo "ids disagree between sessions ($pairs distinct (schema, id) pairs for $SCHEMAS schemas)"; fail=1
fi
read -r n minv maxv nids < <(psql -qXAt -F' ' -d $DB -c \
	"SELECT count(*), min(version), max(version), count(DISTINCT schema_id) FROM registry.subject_versions WHERE subject = 'orders-value'")
echo "versions: $n (from $minv to $maxv), distinct ids: $nids, sessions: $SESSIONS, schemas: $SCHEMAS"
if [ "$n" != "$SCHEMAS" ] || [ "$minv" != 1 ] || [ "$maxv" != "$SCHEMAS" ] || [ "$nids" != "$SCHEMAS" ]; then
	fail=1
fi
psql -qX -d postgres -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $DB" >/dev/null
if [ $fail -eq 0 ]; then echo "concurrency: ok"; else echo "concurrency: FAILED"; fi
