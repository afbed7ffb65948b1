-- A lookup of the exact stored text finds its version without a parse
-- (schema_lookup.c's exact-text path), vouched for by the schema row's
-- parses_to_itself / normalizes_to_itself, which only the insert trigger
-- sets.  Every lookup below is also made with the same text spaced out
-- (a blank after each comma: other bytes, the same schema), which is
-- always parsed: both must answer alike.
\set SHOW_CONTEXT never
-- a lookup's answer as one line: the version found, or the error
CREATE FUNCTION pg_temp.lk(subj text, txt text, typ text DEFAULT 'AVRO', refs jsonb DEFAULT '[]',
	norm boolean DEFAULT false, del boolean DEFAULT false, md jsonb DEFAULT NULL, rs jsonb DEFAULT NULL)
	RETURNS text LANGUAGE plpgsql AS $$
DECLARE r registry.subject_version;
BEGIN
	r := registry.lookup_schema(subj, txt, typ, refs, norm, del, md, rs);
	RETURN format('%s v%s %s %s refs=%s md=%s rs=%s deleted=%s', r.subject, r.version, r.schema_type,
		r.schema, r.refs, r.metadata, r.rule_set, r.deleted);
EXCEPTION WHEN OTHERS THEN
	RETURN SQLSTATE || ': ' || SQLERRM;
END $$;
-- the exact text's answer, and whether the spaced text (parsed) answers the same
CREATE FUNCTION pg_temp.both(subj text, txt text, typ text DEFAULT 'AVRO', refs jsonb DEFAULT '[]',
	norm boolean DEFAULT false, del boolean DEFAULT false, md jsonb DEFAULT NULL, rs jsonb DEFAULT NULL)
	RETURNS text LANGUAGE sql AS $$
	SELECT a || CASE WHEN a = b THEN ' [parsed: the same]' ELSE E'\n  parsed: ' || b END
	  FROM pg_temp.lk(subj, txt, typ, refs, norm, del, md, rs) a,
	       pg_temp.lk(subj, replace(txt, ',', ', '), typ, refs, norm, del, md, rs) b
$$;
-- a stored row's claims, by its text
CREATE FUNCTION pg_temp.own(txt text) RETURNS text LANGUAGE sql AS $$
	SELECT string_agg(format('%s/%s', parses_to_itself, normalizes_to_itself), ' ' ORDER BY id)
	  FROM registry.schemas WHERE schema = txt
$$;

-- registered as its stored form: the row vouches for the text without normalize
SELECT registry.register_schema('lx-plain', '{"type":"record","name":"P","fields":[{"name":"a","type":"int"},{"name":"b","type":"string"}]}') IS NOT NULL AS registered;
SELECT pg_temp.own('{"type":"record","name":"P","fields":[{"name":"a","type":"int"},{"name":"b","type":"string"}]}') AS plain_normalized;
SELECT pg_temp.both('lx-plain', '{"type":"record","name":"P","fields":[{"name":"a","type":"int"},{"name":"b","type":"string"}]}');
-- in a subject without it, in no subject, with another type
SELECT registry.register_schema('lx-other', '"long"') IS NOT NULL AS registered;
SELECT pg_temp.both('lx-other', '{"type":"record","name":"P","fields":[{"name":"a","type":"int"},{"name":"b","type":"string"}]}');
SELECT pg_temp.both('lx-none', '{"type":"record","name":"P","fields":[{"name":"a","type":"int"},{"name":"b","type":"string"}]}');
SELECT pg_temp.both('lx-plain', '{"type":"record","name":"P","fields":[{"name":"a","type":"int"},{"name":"b","type":"string"}]}', 'JSON');
SELECT pg_temp.both('lx-plain', '{"type":"record","name":"P","fields":[{"name":"a","type":"int"},{"name":"b","type":"string"}]}', 'XML');

-- registered from other bytes: the row does not vouch for its stored form
-- (the lookup of the stored form is parsed), both texts find the version
SELECT registry.register_schema('lx-spaced', '{"type": "record", "name": "S", "fields": [{"name": "a", "type": "int"}]}') IS NOT NULL AS registered;
SELECT pg_temp.own('{"type":"record","name":"S","fields":[{"name":"a","type":"int"}]}') AS plain_normalized;
SELECT pg_temp.both('lx-spaced', '{"type":"record","name":"S","fields":[{"name":"a","type":"int"}]}');
SELECT pg_temp.lk('lx-spaced', '{"type": "record", "name": "S", "fields": [{"name": "a", "type": "int"}]}');

-- normalize: a stored form that is not normal (aliases out of order) is
-- not what the text gives with normalize, asked for or from the config
SELECT registry.register_schema('lx-norm', '{"type":"record","name":"N","fields":[{"name":"a","type":"int"}],"aliases":["z","y"]}') IS NOT NULL AS registered;
SELECT pg_temp.own('{"type":"record","name":"N","fields":[{"name":"a","type":"int"}],"aliases":["z","y"]}') AS plain_normalized;
SELECT pg_temp.both('lx-norm', '{"type":"record","name":"N","fields":[{"name":"a","type":"int"}],"aliases":["z","y"]}');
SELECT pg_temp.both('lx-norm', '{"type":"record","name":"N","fields":[{"name":"a","type":"int"}],"aliases":["z","y"]}', norm => true);
SELECT registry.set_config('lx-norm', '{"normalize":true}') IS NOT NULL AS normalize_on;
SELECT pg_temp.both('lx-norm', '{"type":"record","name":"N","fields":[{"name":"a","type":"int"}],"aliases":["z","y"]}');
SELECT registry.delete_config('lx-norm') IS NOT NULL AS normalize_off;
-- registered with normalize from its normal form: the row vouches for the
-- text with normalize only; without it the text is parsed and found
SELECT registry.register_schema('lx-normal', '{"type":"record","name":"M","fields":[{"name":"a","type":"int"}],"aliases":["y","z"]}', "normalize" => true) IS NOT NULL AS registered;
SELECT pg_temp.own('{"type":"record","name":"M","fields":[{"name":"a","type":"int"}],"aliases":["y","z"]}') AS plain_normalized;
SELECT pg_temp.both('lx-normal', '{"type":"record","name":"M","fields":[{"name":"a","type":"int"}],"aliases":["y","z"]}', norm => true);
SELECT pg_temp.both('lx-normal', '{"type":"record","name":"M","fields":[{"name":"a","type":"int"}],"aliases":["y","z"]}');

-- another schema type with the same stored text: JSON
SELECT registry.register_schema('lx-json', '{"type":"object","properties":{"a":{"type":"string"}}}', 'JSON') IS NOT NULL AS registered;
SELECT pg_temp.own('{"type":"object","properties":{"a":{"type":"string"}}}') AS plain_normalized;
SELECT pg_temp.both('lx-json', '{"type":"object","properties":{"a":{"type":"string"}}}', 'JSON');
SELECT pg_temp.both('lx-json', '{"type":"object","properties":{"a":{"type":"string"}}}');
SELECT registry.register_schema('lx-json-s', '{"type":"string"}', 'JSON') IS NOT NULL AS registered;
SELECT pg_temp.both('lx-json-s', '{"type":"string"}', 'JSON');
SELECT pg_temp.both('lx-json-s', '{"type":"string"}', 'AVRO');

-- metadata and a rule set are part of the identity
SELECT registry.register_schema('lx-md', '{"type":"record","name":"D","fields":[{"name":"a","type":"int"}]}',
	metadata => '{"properties":{"owner":"o"}}') IS NOT NULL AS registered;
SELECT pg_temp.both('lx-md', '{"type":"record","name":"D","fields":[{"name":"a","type":"int"}]}', md => '{"properties":{"owner":"o"}}');
SELECT pg_temp.both('lx-md', '{"type":"record","name":"D","fields":[{"name":"a","type":"int"}]}', md => '{"properties":{"owner":"p"}}');
SELECT pg_temp.both('lx-md', '{"type":"record","name":"D","fields":[{"name":"a","type":"int"}]}');
SELECT pg_temp.both('lx-md', '{"type":"record","name":"D","fields":[{"name":"a","type":"int"}]}', md => '[1]');
SELECT pg_temp.both('lx-md', '{"type":"record","name":"D","fields":[{"name":"a","type":"int"}]}',
	rs => '{"domainRules":[{"name":"r","kind":"CONDITION","mode":"WRITE","type":"CEL","expr":"true"}]}');

-- references: never the exact-text path (the row is not vouched for)
SELECT registry.register_schema('lx-ref-base', '{"type":"record","name":"Base","fields":[{"name":"a","type":"int"}]}') IS NOT NULL AS registered;
SELECT registry.register_schema('lx-ref', '{"type":"record","name":"Uses","fields":[{"name":"b","type":"Base"}]}',
	refs => '[{"name":"Base","subject":"lx-ref-base","version":1}]') IS NOT NULL AS registered;
SELECT pg_temp.own('{"type":"record","name":"Uses","fields":[{"name":"b","type":"Base"}]}') AS plain_normalized;
SELECT pg_temp.both('lx-ref', '{"type":"record","name":"Uses","fields":[{"name":"b","type":"Base"}]}',
	refs => '[{"name":"Base","subject":"lx-ref-base","version":1}]');
SELECT pg_temp.both('lx-ref', '{"type":"record","name":"Uses","fields":[{"name":"b","type":"Base"}]}',
	refs => '[{"name":"Base","subject":"lx-ref-base","version":-1}]');
SELECT pg_temp.both('lx-ref', '{"type":"record","name":"Uses","fields":[{"name":"b","type":"Base"}]}');

-- soft-deleted versions only when asked for; contexts keep to themselves
SELECT registry.register_schema('lx-del', '{"type":"record","name":"X","fields":[{"name":"a","type":"int"}]}') IS NOT NULL AS registered;
SELECT registry.register_schema('lx-del', '{"type":"record","name":"X","fields":[{"name":"a","type":"int"},{"name":"b","type":"int","default":0}]}') IS NOT NULL AS registered;
SELECT registry.delete_version('lx-del', '1');
SELECT pg_temp.both('lx-del', '{"type":"record","name":"X","fields":[{"name":"a","type":"int"}]}');
SELECT pg_temp.both('lx-del', '{"type":"record","name":"X","fields":[{"name":"a","type":"int"}]}', del => true);
SELECT registry.register_schema(':.lx-ctx:c', '{"type":"record","name":"C","fields":[{"name":"a","type":"int"}]}') IS NOT NULL AS registered;
SELECT pg_temp.both(':.lx-ctx:c', '{"type":"record","name":"C","fields":[{"name":"a","type":"int"}]}');
SELECT pg_temp.both('c', '{"type":"record","name":"C","fields":[{"name":"a","type":"int"}]}');

-- REST (POST /subjects/{s}): the exact text, the spaced one, normalize (ids as ID)
SELECT status, regexp_replace(response, '"id":[0-9]+', '"id":"ID"') AS response FROM regress.rest('POST', '/subjects/lx-plain', NULL,
	json_build_object('schema', '{"type":"record","name":"P","fields":[{"name":"a","type":"int"},{"name":"b","type":"string"}]}')::text);
SELECT status, regexp_replace(response, '"id":[0-9]+', '"id":"ID"') AS response FROM regress.rest('POST', '/subjects/lx-plain', NULL,
	json_build_object('schema', '{"type":"record", "name":"P", "fields":[{"name":"a", "type":"int"}, {"name":"b", "type":"string"}]}')::text);
SELECT status, regexp_replace(response, '"id":[0-9]+', '"id":"ID"') AS response FROM regress.rest('POST', '/subjects/lx-norm', 'normalize=true',
	json_build_object('schema', '{"type":"record","name":"N","fields":[{"name":"a","type":"int"}],"aliases":["z","y"]}')::text);
SELECT status, regexp_replace(response, '"id":[0-9]+', '"id":"ID"') AS response FROM regress.rest('POST', '/subjects/lx-none', NULL,
	json_build_object('schema', '{"type":"record","name":"P","fields":[{"name":"a","type":"int"},{"name":"b","type":"string"}]}')::text);

-- what an insert claims is never taken: the trigger sets both from its parse
INSERT INTO registry.schemas (context, schema, parses_to_itself, normalizes_to_itself)
	VALUES ('.', '{"type": "record", "name": "F", "fields": []}', true, true);
SELECT pg_temp.own('{"type":"record","name":"F","fields":[]}') AS claimed_true_true;
INSERT INTO registry.schemas (context, schema, parses_to_itself, normalizes_to_itself)
	VALUES ('.', '{"type":"record","name":"G","fields":[],"aliases":["b","a"]}', false, true);
SELECT pg_temp.own('{"type":"record","name":"G","fields":[],"aliases":["b","a"]}') AS claimed_false_true;
-- a restored row (a superuser's complete row from before the transaction):
-- parses_to_itself as its check shows, normalizes_to_itself only if a parse
-- with normalize gives the text back
INSERT INTO registry.schemas (context, id, schema, fingerprint, created_at, parses_to_itself, normalizes_to_itself)
	VALUES ('.', 900001, '{"type":"record","name":"H","fields":[],"aliases":["b","a"]}',
		decode(md5('{"type":"record","name":"H","fields":[],"aliases":["b","a"]}'), 'hex'), now() - interval '1 day', false, true),
	('.', 900002, '{"type":"record","name":"K","fields":[],"aliases":["a","b"]}',
		decode(md5('{"type":"record","name":"K","fields":[],"aliases":["a","b"]}'), 'hex'), now() - interval '1 day', false, true),
	('.', 900003, '{"type":"record","name":"L","fields":[],"aliases":["a","b"]}',
		decode(md5('{"type":"record","name":"L","fields":[],"aliases":["a","b"]}'), 'hex'), now() - interval '1 day', true, false);
SELECT id, parses_to_itself, normalizes_to_itself FROM registry.schemas WHERE id > 900000 ORDER BY id;

-- 0.8: a version row carries the key of its schema's exact text where the
-- schema row vouches for it (no references, metadata or rule set), set by
-- its insert trigger: the text's identity (MD5) followed by the type's name
CREATE FUNCTION pg_temp.key_of(typ text, txt text) RETURNS bytea LANGUAGE sql AS $$
	SELECT decode(md5(txt), 'hex') || convert_to(typ, 'UTF8')
$$;
SELECT v.subject, v.version, v.text_key IS NOT NULL AS keyed,
	v.text_key IS NOT DISTINCT FROM (CASE WHEN s.parses_to_itself AND s.refs = '[]' AND s.metadata IS NULL AND s.rule_set IS NULL
		THEN pg_temp.key_of(s.schema_type, s.schema) END) AS key_as_defined
  FROM registry.subject_versions v JOIN registry.schemas s ON s.context = v.context AND s.id = v.schema_id
 WHERE v.subject LIKE 'lx-%' ORDER BY v.subject, v.version;
-- what an insert says is never taken: the trigger sets the key from the schema row
SELECT registry.register_schema('lx-key', '{"type":"record","name":"Q","fields":[{"name":"a","type":"int"}]}') IS NOT NULL AS registered;
INSERT INTO registry.subject_versions (context, subject, schema_id, text_key)
	SELECT '.', 'lx-key-raw', id, '\xdeadbeef' FROM registry.schemas WHERE schema = '{"type":"record","name":"Q","fields":[{"name":"a","type":"int"}]}';
SELECT text_key = pg_temp.key_of('AVRO', '{"type":"record","name":"Q","fields":[{"name":"a","type":"int"}]}') AS key_made_again
  FROM registry.subject_versions WHERE subject = 'lx-key-raw';
SELECT pg_temp.lk('lx-key-raw', '{"type":"record","name":"Q","fields":[{"name":"a","type":"int"}]}');
-- and it is as immutable as the rest of the row
UPDATE registry.subject_versions SET text_key = NULL WHERE subject = 'lx-key-raw';
-- the exact text is found through the key alone: one index scan of it, none
-- of the schemas' (counted by the statistics, flushed by each transaction)
SELECT pg_stat_force_next_flush();
SELECT regress.scans_mark();
SELECT pg_temp.lk('lx-key', '{"type":"record","name":"Q","fields":[{"name":"a","type":"int"}]}');
SELECT pg_stat_force_next_flush();
SELECT * FROM regress.scans_since();
-- a version without a key whose schema vouches (a row a replica applied from
-- a server before 0.8, say) is still found, by the schema row first
SET session_replication_role = replica;
INSERT INTO registry.subjects (context, subject) VALUES ('.', 'lx-key-old');
INSERT INTO registry.subject_versions (context, subject, version, schema_id)
	SELECT '.', 'lx-key-old', 1, id FROM registry.schemas WHERE schema = '{"type":"record","name":"Q","fields":[{"name":"a","type":"int"}]}';
RESET session_replication_role;
SELECT text_key IS NULL AS no_key FROM registry.subject_versions WHERE subject = 'lx-key-old';
SELECT pg_temp.both('lx-key-old', '{"type":"record","name":"Q","fields":[{"name":"a","type":"int"}]}');
