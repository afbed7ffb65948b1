#!/usr/bin/env bash
# pg_dump keeps the registry: a database with contexts, references, soft
# deletes, config and a READONLY mode is dumped and restored (with the
# triggers off, as for any restore of rows that were checked when they were
# first written); the tables must come back identical and new ids must
# continue above the old ones in every context.
# Needs PGHOST/PGPORT/PGUSER of a running cluster with the extension.
set -uo pipefail
SRC=registry_dump_src
DST=registry_dump_dst
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
q() { psql -qXAt -v ON_ERROR_STOP=1 "$@"; }

q -d postgres -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $SRC" -c "DROP DATABASE IF EXISTS $DST" \
	-c "CREATE DATABASE $SRC" -c "CREATE DATABASE $DST" || exit 1
q -d $SRC >/dev/null <<'SQL' || { echo "dump/restore: FAILED (setup)"; exit 0; }
CREATE EXTENSION registry;
SELECT registry.set_compatibility('NONE', 'orders');
SELECT registry.register_schema('orders', '"int"');
SELECT registry.register_schema('orders', '"long"');
SELECT registry.register_schema('orders', '"string"');
SELECT registry.delete_version('orders', '1');
SELECT registry.register_schema('money', '{"type":"fixed","name":"Money","size":8}');
SELECT registry.register_schema('line', '{"type":"record","name":"Line","fields":[{"name":"m","type":"Money"}]}',
	'AVRO', '[{"name":"Money","subject":"money","version":1}]');
SELECT registry.register_schema(':.team:events', '"bytes"');
SELECT registry.register_schema(':.team:events2', '"double"');
SELECT registry.set_compatibility('FULL');
SELECT registry.set_mode('READONLY', 'orders');
SQL
snapshot() {
	q -d "$1" -c "SELECT context, id, schema_type, schema, refs, metadata, rule_set, fingerprint FROM registry.schemas ORDER BY 1, 2" \
		-c "SELECT * FROM registry.subjects ORDER BY 1, 2" \
		-c "SELECT context, subject, version, schema_id, deleted FROM registry.subject_versions ORDER BY 1, 2, 3" \
		-c "SELECT * FROM registry.schema_references ORDER BY 1, 2, 3" \
		-c "SELECT context, subject, compatibility, \"normalize\", settings FROM registry.config ORDER BY 1, 2" \
		-c "SELECT context, subject, mode FROM registry.modes ORDER BY 1, 2"
}
pg_dump -d $SRC -f "$WORK/dump.sql" || { echo "dump/restore: FAILED (pg_dump)"; exit 0; }
PGOPTIONS='-c session_replication_role=replica' q -d $DST -f "$WORK/dump.sql" >/dev/null 2>"$WORK/restore.err"
if [ -s "$WORK/restore.err" ]; then echo "restore errors:"; head -5 "$WORK/restore.err"; fi
snapshot $SRC >"$WORK/src.txt"
snapshot $DST >"$WORK/dst.txt"
fail=0
if ! diff -u "$WORK/src.txt" "$WORK/dst.txt"; then fail=1; fi
# new ids continue above the restored ones, per context
next_default=$(q -d $DST -c "SELECT registry.register_schema('fresh', '\"float\"')")
next_team=$(q -d $DST -c "SELECT registry.register_schema(':.team:fresh', '\"float\"')")
echo "restored rows: $(wc -l <"$WORK/dst.txt"), next ids: default $next_default, .team $next_team"
want_default=$(q -d $SRC -c "SELECT max(id) + 1 FROM registry.schemas WHERE context = '.'")
want_team=$(q -d $SRC -c "SELECT max(id) + 1 FROM registry.schemas WHERE context = '.team'")
[ "$next_default" = "$want_default" ] || { echo "expected default id $want_default"; fail=1; }
[ "$next_team" = "$want_team" ] || { echo "expected .team id $want_team"; fail=1; }
q -d postgres -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $SRC" -c "DROP DATABASE IF EXISTS $DST"
if [ $fail -eq 0 ]; then echo "dump/restore: ok"; else echo "dump/restore: FAILED"; fi
