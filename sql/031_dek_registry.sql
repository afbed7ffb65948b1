-- The DEK registry in SQL: the functions over the same services as the
-- REST routes, the rules of registry.keks and registry.deks for raw DML
-- too (their BEFORE triggers), who may do what (readers read, writers
-- create, admins alter and delete; keyMaterial by EXECUTE on
-- dek_key_material), and the audit rows.
\set SHOW_CONTEXT never
CREATE ROLE regress_dek_admin IN ROLE registry_admin;
CREATE ROLE regress_dek_writer IN ROLE registry_writer;
CREATE ROLE regress_dek_reader IN ROLE registry_reader;
CREATE ROLE regress_dek_nobody;
GRANT USAGE ON SCHEMA regress TO regress_dek_admin, regress_dek_writer, regress_dek_reader, regress_dek_nobody;
SELECT COALESCE(max(id), 0) AS mark FROM registry.audit \gset
-- a Kek or Dek without its ts
CREATE FUNCTION regress.nots(j jsonb) RETURNS jsonb LANGUAGE sql AS $$ SELECT j - 'ts' $$;

-- writers create KEKs and DEKs
SET ROLE regress_dek_writer;
SELECT regress.nots(registry.create_kek('{"name":"sqlkek","kmsType":"local-kms","kmsKeyId":"k1","kmsProps":{"b":"1","a":"2"}}'));
SELECT regress.nots(registry.create_dek('sqlkek', '{"subject":"s1","encryptedKeyMaterial":"AAAA"}'));
SELECT regress.nots(registry.create_dek('sqlkek', '{"subject":"s1","version":2,"encryptedKeyMaterial":"BBBB"}'));
SELECT regress.try($$SELECT registry.create_dek('sqlkek', '{"subject":"s1","encryptedKeyMaterial":"CCCC"}')$$);
SELECT regress.try($$SELECT registry.create_kek('{"name":"sqlkek","kmsType":"local-kms","kmsKeyId":"k1"}')$$);
SELECT regress.try($$SELECT registry.create_kek('{"name":"bad name","kmsType":"local-kms","kmsKeyId":"k1"}')$$);
SELECT regress.try($$SELECT registry.create_kek('[1]')$$);
SELECT regress.try($$SELECT registry.create_dek('nokek', '{"subject":"s1","encryptedKeyMaterial":"AAAA"}')$$);
SELECT regress.try($$SELECT registry.create_dek('sqlkek', '{"subject":"s1","version":0,"encryptedKeyMaterial":"AAAA"}')$$);
SELECT regress.try($$SELECT registry.create_dek('sqlkek', '{"subject":"","encryptedKeyMaterial":"AAAA"}')$$);
SELECT regress.try($$SELECT registry.create_dek('sqlkek', '{"subject":"s1","algorithm":"ROT13","encryptedKeyMaterial":"AAAA"}')$$);
-- ... but neither alter nor delete them
SELECT regress.try($$SELECT registry.delete_dek('sqlkek', 's1')$$);
SELECT regress.try($$SELECT registry.update_kek('sqlkek', '{"doc":"x"}')$$);
SELECT regress.try($$UPDATE registry.deks SET deleted = true$$);
RESET ROLE;

-- readers read them, wrapped
SET ROLE regress_dek_reader;
SELECT registry.list_keks(), registry.list_deks('sqlkek'), registry.dek_versions('sqlkek', 's1');
-- with subject prefixes (any of them): the KEKs with a DEK of such a subject
SELECT registry.list_keks(subject_prefix => '{s}'), registry.list_keks(false, '{x,s1}'),
	   registry.list_keks(subject_prefix => '{x}'), registry.list_keks(subject_prefix => '{}');
-- a NULL prefix is no wildcard: 22004
SELECT regress.try($$SELECT registry.list_keks(false, '{NULL}')$$);
SELECT regress.try($$SELECT registry.list_keks(subject_prefix => '{x,NULL}')$$);
SELECT regress.nots(registry.get_kek('sqlkek'));
SELECT regress.nots(registry.get_dek('sqlkek', 's1')), regress.nots(registry.get_dek('sqlkek', 's1', 'latest'));
SELECT regress.try($$SELECT registry.get_dek('sqlkek', 's1', '3')$$);
SELECT regress.try($$SELECT registry.get_dek('sqlkek', 's1', 'first')$$);
SELECT regress.try($$SELECT registry.get_kek('nokek')$$);
SELECT kek_name, subject, algorithm, version, encrypted_key_material, deleted FROM registry.deks ORDER BY version;
SELECT regress.try($$SELECT registry.create_kek('{"name":"rk","kmsType":"local-kms","kmsKeyId":"k1"}')$$);
SELECT regress.try($$INSERT INTO registry.deks (kek_name, subject, encrypted_key_material) VALUES ('sqlkek', 'x', 'AAAA')$$);
RESET ROLE;

-- the REST routes are gated by the same functions (registry.rest() applies the gates to its caller)
SET ROLE regress_dek_reader;
SELECT * FROM regress.rest('GET', '/dek-registry/v1/keks/sqlkek/deks/s1/versions');
SELECT * FROM regress.rest('POST', '/dek-registry/v1/keks', NULL, '{"name":"rk","kmsType":"local-kms","kmsKeyId":"k1"}');
RESET ROLE;
SET ROLE regress_dek_writer;
SELECT * FROM regress.rest('DELETE', '/dek-registry/v1/keks/sqlkek/deks/s1');
SELECT * FROM regress.rest('POST', '/dek-registry/v1/keks/sqlkek/deks/s9', NULL, '{"encryptedKeyMaterial":"AAAA"}');
SELECT * FROM regress.rest('DELETE', '/dek-registry/v1/keks/sqlkek/deks/s9');
RESET ROLE;
SET ROLE regress_dek_admin;
SELECT * FROM regress.rest('DELETE', '/dek-registry/v1/keks/sqlkek/deks/s9');
SELECT * FROM regress.rest('DELETE', '/dek-registry/v1/keks/sqlkek/deks/s9', 'permanent=true');
RESET ROLE;

-- no registry role: nothing
SET ROLE regress_dek_nobody;
SELECT regress.try($$SELECT registry.list_keks()$$);
SELECT regress.try($$SELECT * FROM registry.keks$$);
RESET ROLE;

-- admins alter, delete and undelete; soft delete before hard delete
SET ROLE regress_dek_admin;
SELECT regress.nots(registry.update_kek('sqlkek', '{"doc":"the doc","kmsProps":{}}'));
SELECT regress.try($$SELECT registry.delete_kek('sqlkek')$$);
SELECT regress.try($$SELECT registry.delete_dek('sqlkek', 's1', '1', NULL, true)$$);
SELECT registry.delete_dek('sqlkek', 's1', '1');
SELECT registry.dek_versions('sqlkek', 's1'), registry.dek_versions('sqlkek', 's1', NULL, true);
SELECT registry.delete_dek('sqlkek', 's1', '1', NULL, true);
SELECT registry.dek_versions('sqlkek', 's1', NULL, true);
SELECT registry.delete_dek('sqlkek', 's1');
SELECT registry.delete_kek('sqlkek');
SELECT regress.try($$SELECT registry.undelete_dek('sqlkek', 's1')$$);
SELECT registry.list_keks(), registry.list_keks(true);
SELECT registry.undelete_kek('sqlkek');
SELECT registry.undelete_dek('sqlkek', 's1', '2');
SELECT regress.nots(registry.get_dek('sqlkek', 's1', 'latest'));
RESET ROLE;

-- raw DML keeps the same rules
SELECT regress.try($$INSERT INTO registry.keks (name, kms_type, kms_key_id) VALUES ('9x', 'local-kms', 'k')$$);
SELECT regress.try($$INSERT INTO registry.keks (name, kms_type, kms_key_id) VALUES ('rawkek', 'local-kms', '')$$);
SELECT regress.try($$UPDATE registry.keks SET kms_key_id = 'other' WHERE name = 'sqlkek'$$);
SELECT regress.try($$UPDATE registry.deks SET encrypted_key_material = 'ZZZZ' WHERE kek_name = 'sqlkek'$$);
SELECT regress.try($$UPDATE registry.deks SET version = 7 WHERE kek_name = 'sqlkek'$$);
SELECT regress.try($$DELETE FROM registry.deks WHERE kek_name = 'sqlkek'$$);
SELECT regress.try($$DELETE FROM registry.keks WHERE name = 'sqlkek'$$);
SELECT regress.try($$UPDATE registry.keks SET deleted = true WHERE name = 'sqlkek'$$);
SELECT regress.try($$INSERT INTO registry.deks (kek_name, subject, encrypted_key_material) VALUES ('nokek', 'x', 'AAAA')$$);
SELECT regress.try($$INSERT INTO registry.deks (kek_name, subject, algorithm, encrypted_key_material) VALUES ('sqlkek', 'x', 'AES128_CBC', 'AAAA')$$);
SELECT regress.try($$INSERT INTO registry.deks (kek_name, subject, encrypted_key_material) VALUES ('sqlkek', E'a\nb', 'AAAA')$$);

-- a shared KEK: without the local KMS secret the server can make no DEK
-- (a KMS it cannot reach); the secret is a superuser's
SET registry.local_kms_secret = '';
SELECT regress.nots(registry.create_kek('{"name":"sharedkek","kmsType":"local-kms","kmsKeyId":"k","shared":true}'));
SELECT regress.try($$SELECT registry.create_dek('sharedkek', '{"subject":"s"}')$$);
SELECT regress.try($$SELECT registry.test_kek('sharedkek')$$);
SET registry.local_kms_secret = 'regress secret';
SELECT (d->>'keyMaterial') IS NOT NULL AS has_key_material,
	   length(decode(d->>'keyMaterial', 'base64')) AS key_bytes,
	   length(decode(d->>'encryptedKeyMaterial', 'base64')) AS wrapped_bytes
  FROM registry.create_dek('sharedkek', '{"subject":"s"}') d;
SELECT get_byte(k, 0) AS tag, get_byte(k, 1) AS len, length(k)
  FROM registry.dek_key_material('sharedkek', 's') k;
SELECT regress.nots(registry.test_kek('sharedkek'));
SET ROLE regress_dek_reader;
SELECT regress.try($$SET registry.local_kms_secret = 'x'$$);
SELECT regress.try($$SHOW registry.local_kms_secret$$);
SELECT count(*) FROM pg_settings WHERE name = 'registry.local_kms_secret';
-- readers see keyMaterial while they may execute dek_key_material
SELECT registry.get_dek('sharedkek', 's') ? 'keyMaterial' AS shown;
RESET ROLE;
REVOKE EXECUTE ON FUNCTION registry.dek_key_material(text, text, text, text) FROM registry_reader;
SET ROLE regress_dek_reader;
SELECT registry.get_dek('sharedkek', 's') ? 'keyMaterial' AS shown, registry.get_dek('sharedkek', 's') ? 'encryptedKeyMaterial' AS wrapped;
SELECT regress.try($$SELECT registry.dek_key_material('sharedkek', 's')$$);
RESET ROLE;
GRANT EXECUTE ON FUNCTION registry.dek_key_material(text, text, text, text) TO registry_reader;
SELECT regress.try($$SELECT registry.dek_key_material('sqlkek', 's1', '2')$$);
SET registry.local_kms_secret = 'another secret';
SELECT regress.try($$SELECT registry.get_dek('sharedkek', 's')$$);
RESET registry.local_kms_secret;
-- another KMS type: Confluent's error for a KMS the server cannot reach
SELECT regress.nots(registry.create_kek('{"name":"gcpkek","kmsType":"gcp","kmsKeyId":"projects/p/keys/k","shared":true}'));
SELECT regress.try($$SELECT registry.create_dek('gcpkek', '{"subject":"s"}')$$);

-- created soft-deleted: one INSERT, which a writer may do (it has no
-- UPDATE); under a soft-deleted KEK a DEK created soft-deleted too, as
-- Confluent's, but not a live one (40470)
SET ROLE regress_dek_writer;
SELECT regress.nots(registry.create_kek('{"name":"delkek","kmsType":"local-kms","kmsKeyId":"k1","deleted":true}'));
SELECT * FROM regress.rest('POST', '/dek-registry/v1/keks', NULL, '{"name":"delkek2","kmsType":"local-kms","kmsKeyId":"k1","deleted":true}');
SELECT regress.nots(registry.create_dek('delkek', '{"subject":"s1","encryptedKeyMaterial":"AAAA","deleted":true}'));
SELECT * FROM regress.rest('POST', '/dek-registry/v1/keks/delkek2/deks/s1', NULL, '{"encryptedKeyMaterial":"AAAA","deleted":true}');
SELECT regress.try($$SELECT registry.create_dek('delkek', '{"subject":"s2","encryptedKeyMaterial":"AAAA"}')$$);
SELECT regress.try($$INSERT INTO registry.deks (kek_name, subject, encrypted_key_material) VALUES ('delkek', 's3', 'AAAA')$$);
SELECT regress.try($$INSERT INTO registry.deks (kek_name, subject, encrypted_key_material, deleted) VALUES ('delkek', 's3', 'AAAA', true)$$);
SELECT name, deleted FROM registry.keks WHERE name LIKE 'delkek%' ORDER BY name;
SELECT kek_name, subject, version, deleted FROM registry.deks WHERE kek_name LIKE 'delkek%' ORDER BY 1, 2;
RESET ROLE;

-- the audit trail
SELECT operation, CASE WHEN role = current_user THEN '(superuser)' ELSE role END AS role, subject, version,
	   COALESCE(after->>'name', after->>'kek_name', before->>'name', before->>'kek_name') AS kek,
	   after->>'deleted' AS deleted
  FROM registry.audit WHERE id > :mark ORDER BY id;

-- clean up
DELETE FROM registry.deks;	-- refused: live ones
UPDATE registry.deks SET deleted = true;
DELETE FROM registry.deks;
UPDATE registry.keks SET deleted = true;
DELETE FROM registry.keks;
DROP FUNCTION regress.nots(jsonb);
REVOKE USAGE ON SCHEMA regress FROM regress_dek_admin, regress_dek_writer, regress_dek_reader, regress_dek_nobody;
DROP ROLE regress_dek_admin, regress_dek_writer, regress_dek_reader, regress_dek_nobody;
