#!/usr/bin/env bash
# pg_dump keeps the registry: a database with contexts, references, soft
# deletes, data contracts, associations, config, a READONLY mode and KEKs and
# DEKs (some soft-deleted) is dumped and
# restored three ways -- a plain pg_restore of a custom-format dump, a plain
# psql -f of a plain dump (both with every trigger on: the triggers take a
# superuser's complete rows from before the transaction as restored), and
# the older recipe with session_replication_role = replica -- and each time
# the tables must come back identical, with no error, and new ids must
# continue above the old ones in every context.  The audit trail comes back
# as it was: the restore records no row of its own, and new audit ids
# continue above the restored ones.
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
SELECT registry.register_schema('contract', '{"type":"record","name":"C","fields":[{"name":"a","type":"int"}]}',
	'AVRO', '[]', false, '{"properties":{"owner":"team"}}', '{"domainRules":[{"name":"r","kind":"CONDITION","type":"CEL","mode":"WRITE","expr":"true"}]}');
SELECT registry.create_association('{"resourceName":"orders","resourceNamespace":"lkc-1","resourceId":"lkc-1:orders",
	"associations":[{"subject":"contract","lifecycle":"STRONG"},{"subject":"line","associationType":"key"}]}');
SELECT registry.set_compatibility('FULL');
SELECT registry.set_mode('READONLY', 'orders');
-- the DEK registry: a live KEK with DEK versions, one soft-deleted, and a
-- soft-deleted KEK whose soft-deleted DEK could not be inserted again as
-- a new write
SELECT registry.create_kek('{"name":"kek1","kmsType":"local-kms","kmsKeyId":"k","kmsProps":{"x":"y"},"doc":"d"}');
SELECT registry.create_dek('kek1', '{"subject":"orders","encryptedKeyMaterial":"AAAA"}');
SELECT registry.create_dek('kek1', '{"subject":"orders","version":2,"encryptedKeyMaterial":"BBBB"}');
SELECT registry.delete_dek('kek1', 'orders', '1');
SELECT registry.create_kek('{"name":"kek2","kmsType":"aws-kms","kmsKeyId":"arn:k","shared":true}');
SELECT registry.create_dek('kek2', '{"subject":"line","algorithm":"AES256_SIV","encryptedKeyMaterial":"CCCC"}');
SELECT registry.delete_dek('kek2', 'line', NULL, 'AES256_SIV');
SELECT registry.delete_kek('kek2');
SQL
snapshot() {
	q -d "$1" -c "SELECT context, id, schema_type, schema, refs, metadata, rule_set, fingerprint FROM registry.schemas ORDER BY 1, 2" \
		-c "SELECT * FROM registry.subjects ORDER BY 1, 2" \
		-c "SELECT context, subject, version, schema_id, deleted FROM registry.subject_versions ORDER BY 1, 2, 3" \
		-c "SELECT * FROM registry.schema_references ORDER BY 1, 2, 3" \
		-c "SELECT * FROM registry.schema_fields ORDER BY 1, 2" \
		-c "SELECT count(*) AS indexed_schemas FROM registry.schema_fields" \
		-c "SELECT context, subject, compatibility, \"normalize\", settings FROM registry.config ORDER BY 1, 2" \
		-c "SELECT context, subject, mode FROM registry.modes ORDER BY 1, 2" \
		-c "SELECT * FROM registry.keks ORDER BY 1" \
		-c "SELECT * FROM registry.deks ORDER BY 1, 2, 3, 4" \
		-c "SELECT * FROM registry.associations ORDER BY 1, 2, 3" \
		-c "SELECT id, at, xact, role, http_user, http_peer, operation, context, subject, version, schema_id, result, before, after FROM registry.audit ORDER BY id"
}
pg_dump -d $SRC -f "$WORK/dump.sql" || { echo "dump/restore: FAILED (pg_dump)"; exit 0; }
pg_dump -Fc -d $SRC -f "$WORK/dump.custom" || { echo "dump/restore: FAILED (pg_dump -Fc)"; exit 0; }
snapshot $SRC >"$WORK/src.txt"
want_default=$(q -d $SRC -c "SELECT max(id) + 1 FROM registry.schemas WHERE context = '.'")
want_team=$(q -d $SRC -c "SELECT max(id) + 1 FROM registry.schemas WHERE context = '.team'")
audit_rows=$(q -d $SRC -c "SELECT count(*) FROM registry.audit")
last_audit=$(q -d $SRC -c "SELECT max(id) FROM registry.audit")
fail=0

# check_restore HOW: the restored database $DST against the source
check_restore() {
	local how=$1
	if [ -s "$WORK/restore.err" ]; then
		echo "$how: restore errors:"; head -5 "$WORK/restore.err"; fail=1
	fi
	snapshot $DST >"$WORK/dst.txt"
	if ! diff -u "$WORK/src.txt" "$WORK/dst.txt"; then echo "$how: the tables differ"; fail=1; fi
	# new ids continue above the restored ones, per context
	next_default=$(q -d $DST -c "SELECT registry.register_schema('fresh', '\"float\"')")
	next_team=$(q -d $DST -c "SELECT registry.register_schema(':.team:fresh', '\"float\"')")
	echo "$how: restored rows: $(wc -l <"$WORK/dst.txt"), next ids: default $next_default, .team $next_team"
	[ "$next_default" = "$want_default" ] || { echo "$how: expected default id $want_default"; fail=1; }
	[ "$next_team" = "$want_team" ] || { echo "$how: expected .team id $want_team"; fail=1; }
	# the audit trail: the source's rows (compared above), then the new writes above them
	next_audit=$(q -d $DST -c "SELECT min(id) FROM registry.audit WHERE subject = 'fresh'")
	echo "$how: audit rows: $audit_rows restored, the next write's audit id $next_audit"
	[ "$audit_rows" -gt 0 ] || { echo "$how: the source has no audit rows"; fail=1; }
	[ -n "$next_audit" ] && [ "$next_audit" -gt "$last_audit" ] || { echo "$how: expected an audit id above $last_audit"; fail=1; }
}
fresh_dst() {
	q -d postgres -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $DST" -c "CREATE DATABASE $DST"
}

# a plain pg_restore of the custom-format dump, no options
pg_restore -d $DST "$WORK/dump.custom" >/dev/null 2>"$WORK/restore.err"
check_restore "pg_restore"
# a plain psql -f of the plain dump
fresh_dst
q -d $DST -f "$WORK/dump.sql" >/dev/null 2>"$WORK/restore.err"
check_restore "psql -f"
# the older recipe: every trigger off
fresh_dst
PGOPTIONS='-c session_replication_role=replica' q -d $DST -f "$WORK/dump.sql" >/dev/null 2>"$WORK/restore.err"
check_restore "psql -f, replica role"
q -d postgres -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $SRC" -c "DROP DATABASE IF EXISTS $DST"
if [ $fail -eq 0 ]; then echo "dump/restore: ok"; else echo "dump/restore: FAILED"; fi
