#!/usr/bin/env bash
# Concurrent registration, in SQL.  Three scenarios, each with several
# sessions registering the same set of schemas at once, each session in its
# own order:
#   one subject:    all sessions register into one subject; it must then
#                   hold exactly one version per distinct schema, numbered
#                   1..N with no gap;
#   many subjects:  each session registers into a subject of its own, all
#                   in the same order, so the same new schema is inserted
#                   by several transactions at once; every call must succeed and the same schema
#                   must get the same id in every subject;
#   contracts:      as "one subject", under config data contract defaults
#                   (no fast path: every call merges under the lock).
# In both, every session must be answered with the same id for the same
# schema.  The last line is "concurrency: N passed, M failed".
# Needs PGHOST/PGPORT/PGUSER of a running cluster with the extension.
set -uo pipefail
SESSIONS=${SESSIONS:-8}
SCHEMAS=${SCHEMAS:-30}
DB=registry_concurrency
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
PASSED=0
FAILED=0

# schema k: a record with optional fields f1..fk (all mutually BACKWARD compatible)
schema() {
	local k=$1 fields="" i
	for i in $(seq 1 "$k"); do
		fields+="{\"name\":\"f$i\",\"type\":[\"null\",\"long\"],\"default\":null}"
		[ "$i" -lt "$k" ] && fields+=","
	done
	echo "{\"type\":\"record\",\"name\":\"Event\",\"fields\":[$fields]}"
}

fresh_database() {
	psql -qX -d postgres -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB" >/dev/null
	psql -qX -d $DB -c "CREATE EXTENSION registry" >/dev/null
	rm -f "$WORK"/*
}

# run_sessions SUBJECT-PATTERN ORDER: SUBJECT-PATTERN with %s replaced by
# the session number gives each session's subject.  ORDER "own" shuffles
# the schemas per session; "same" has every session register schema k at
# the same moment (a shared start time per schema, 100 ms apart), so the
# same new schema arrives in several transactions at once.
run_sessions() {
	local pattern=$1 order=$2 s k subject start
	start=$(($(date +%s) + 2))
	for s in $(seq 1 "$SESSIONS"); do
		# shellcheck disable=SC2059
		subject=$(printf "$pattern" "$s")
		{
			if [ "$order" = same ]; then
				for k in $(seq 1 "$SCHEMAS"); do
					echo "SELECT pg_catalog.pg_sleep_until(pg_catalog.to_timestamp($start + $k * 0.1)) \\g /dev/null"
					echo "SELECT $k AS k, registry.register_schema('$subject', \$\$$(schema "$k")\$\$) AS id \\gset"
					echo "\\echo :k :id"
				done
			else
				for k in $(seq 1 "$SCHEMAS" | shuf --random-source=<(yes $s)); do
					echo "SELECT $k AS k, registry.register_schema('$subject', \$\$$(schema "$k")\$\$) AS id \\gset"
					echo "\\echo :k :id"
				done
			fi
		} >"$WORK/session$s.sql"
	done
	for s in $(seq 1 "$SESSIONS"); do
		psql -qX -v ON_ERROR_STOP=1 -d $DB -f "$WORK/session$s.sql" >"$WORK/out$s" 2>"$WORK/err$s" &
	done
	wait
}

# check_answers NAME: no session saw an error, and one id per schema
check_answers() {
	local name=$1 errors distinct pairs
	errors=$(cat "$WORK"/err* | grep -c .)
	if [ "$errors" -ne 0 ]; then
		echo "$name: sessions reported $errors error lines:"; cat "$WORK"/err* | head -10
		return 1
	fi
	distinct=$(cat "$WORK"/out* | sort -u | awk '{print $1}' | sort | uniq -d | wc -l)
	pairs=$(cat "$WORK"/out* | sort -u | wc -l)
	if [ "$distinct" -ne 0 ] || [ "$pairs" -ne "$SCHEMAS" ]; then
		echo "$name: ids disagree between sessions ($pairs distinct (schema, id) pairs for $SCHEMAS schemas)"
		return 1
	fi
}

result() {	# result NAME STATUS
	if [ "$2" -eq 0 ]; then PASSED=$((PASSED + 1)); echo "ok - $1"; else FAILED=$((FAILED + 1)); echo "not ok - $1"; fi
}

# 1. one subject
fresh_database
run_sessions "orders-value" own
check_answers "one subject"; rc=$?
read -r n minv maxv nids < <(psql -qXAt -F' ' -d $DB -c \
	"SELECT count(*), min(version), max(version), count(DISTINCT schema_id) FROM registry.subject_versions WHERE subject = 'orders-value'")
echo "one subject: versions: $n (from $minv to $maxv), distinct ids: $nids, sessions: $SESSIONS, schemas: $SCHEMAS"
if [ "$n" != "$SCHEMAS" ] || [ "$minv" != 1 ] || [ "$maxv" != "$SCHEMAS" ] || [ "$nids" != "$SCHEMAS" ]; then
	rc=1
fi
result "one subject: one version per distinct schema, no gap, one id per schema" $rc

# 2. a subject per session, the same schemas
fresh_database
run_sessions "s%s-value" same
check_answers "many subjects"; rc=$?
read -r n nsub nids nschemas < <(psql -qXAt -F' ' -d $DB -c \
	"SELECT count(*), count(DISTINCT subject), count(DISTINCT schema_id), (SELECT count(*) FROM registry.schemas) FROM registry.subject_versions")
echo "many subjects: versions: $n in $nsub subjects, distinct ids: $nids, stored schemas: $nschemas"
if [ "$n" != $((SESSIONS * SCHEMAS)) ] || [ "$nsub" != "$SESSIONS" ] || [ "$nids" != "$SCHEMAS" ] || [ "$nschemas" != "$SCHEMAS" ]; then
	rc=1
fi
result "many subjects: every registration answered, one id per schema across subjects" $rc

# 3. one subject under data contract defaults: no fast path, every registration
# merges the config's metadata and rule set under the subject's lock
fresh_database
psql -qX -d $DB -c "SELECT registry.set_config(NULL, '{\"defaultMetadata\":{\"properties\":{\"owner\":\"ops\"}},\"overrideRuleSet\":{\"domainRules\":[{\"name\":\"r\",\"type\":\"CEL\",\"expr\":\"true\"}]}}')" >/dev/null
run_sessions "contracts-value" own
check_answers "data contract defaults"; rc=$?
read -r n minv maxv nids nmerged < <(psql -qXAt -F' ' -d $DB -c \
	"SELECT count(*), min(v.version), max(v.version), count(DISTINCT v.schema_id),
	        count(*) FILTER (WHERE s.metadata->'properties'->>'owner' = 'ops' AND s.rule_set IS NOT NULL)
	   FROM registry.subject_versions v JOIN registry.schemas s ON s.context = v.context AND s.id = v.schema_id
	  WHERE v.subject = 'contracts-value'")
echo "data contract defaults: versions: $n (from $minv to $maxv), distinct ids: $nids, merged: $nmerged"
if [ "$n" != "$SCHEMAS" ] || [ "$minv" != 1 ] || [ "$maxv" != "$SCHEMAS" ] || [ "$nids" != "$SCHEMAS" ] || [ "$nmerged" != "$SCHEMAS" ]; then
	rc=1
fi
result "data contract defaults: one version per distinct schema, no gap, each with the merged contract" $rc

psql -qX -d postgres -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $DB" >/dev/null
echo "concurrency: $PASSED passed, $FAILED failed"
