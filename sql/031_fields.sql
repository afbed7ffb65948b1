-- Search in SQL: the field index (registry.fields, registry.find_fields) over
-- the three formats, and the reference graph both ways.
\set SHOW_CONTEXT never

SELECT registry.register_schema('fields-orders', $${"type":"record","name":"Order","namespace":"shop","fields":[
	{"name":"id","type":"long","doc":"the key"},
	{"name":"email","type":["null","string"],"default":null,"confluent:tags":["PII"]},
	{"name":"placed","type":{"type":"long","logicalType":"timestamp-millis"},"default":0},
	{"name":"ship_to","type":{"type":"record","name":"Address","fields":[{"name":"zip","type":"string"}]}}]}$$) > 0 AS registered;
SELECT registry.register_schema('fields-users', $$syntax = "proto3"; package acct;
message User { string email = 1; Profile profile = 2; message Profile { string name = 1; } }$$, 'PROTOBUF') > 0 AS registered;
SELECT registry.register_schema('fields-events', $${"type":"object","properties":{
	"email":{"type":"string","format":"email","description":"who","confluent:tags":["PII"]},
	"n":{"type":"integer","default":1}}}$$, 'JSON') > 0 AS registered;

-- "Which schemas have a field named email?"
SELECT subject, version, schema_type, path, record, type FROM registry.find_fields(name => 'email')
 WHERE subject LIKE 'fields-%' ORDER BY subject;
-- "Which subjects carry the PII tag?"
SELECT DISTINCT subject FROM registry.find_fields(tag => 'PII') WHERE subject LIKE 'fields-%' ORDER BY 1;
-- every field of a version, with its doc, default and logical type
SELECT path, name, record, type, doc, "default", logical_type, tags
  FROM registry.fields WHERE subject = 'fields-orders' ORDER BY path;
SELECT path, record, type FROM registry.fields WHERE subject = 'fields-users' ORDER BY path;
SELECT path, type, doc, "default", logical_type FROM registry.find_fields(logical_type => 'email')
 WHERE subject LIKE 'fields-%';
-- a soft-deleted version leaves the view; its schema's row stays for the versions that keep it
SELECT registry.register_schema('fields-orders', $${"type":"record","name":"Order","namespace":"shop","fields":[
	{"name":"id","type":"long","doc":"the key"},{"name":"mail","type":"string","default":""}]}$$) > 0 AS registered;
SELECT registry.delete_version('fields-orders', '2') AS deleted;
SELECT count(*) AS mail_fields FROM registry.find_fields(name => 'mail') WHERE subject LIKE 'fields-%';
SELECT count(*) AS rows_kept FROM registry.schema_fields sf
 WHERE sf.fields @> '[{"name":"mail"}]'
   AND (sf.context, sf.id) IN (SELECT context, schema_id FROM registry.subject_versions
								WHERE subject = 'fields-orders' AND version = 2);
-- the GIN index serves the search
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT * FROM registry.schema_fields WHERE fields @> '[{"name":"email"}]';
RESET enable_seqscan;
-- reindex_fields() rebuilds the same rows
CREATE TEMP TABLE before_reindex AS SELECT * FROM registry.schema_fields;
SELECT registry.reindex_fields() >= 3 AS reindexed;
-- (every row the trigger wrote is the same; a restored schema with references,
-- which an earlier test may have made, gets its row only now)
SELECT count(*) AS differing FROM (SELECT * FROM before_reindex EXCEPT SELECT * FROM registry.schema_fields) d;
SELECT count(*) AS unindexed FROM registry.schemas s
 WHERE NOT EXISTS (SELECT 1 FROM registry.schema_fields f WHERE f.context = s.context AND f.id = s.id);
-- a new schema's row goes in without a look for one already there; a row
-- inserted again, as a restore brings one, is looked for and skipped (one
-- scan of the field index's key in all, from the statistics)
SELECT registry.register_schema('fields-probe', '{"type":"record","name":"Probe","fields":[{"name":"a","type":"int"}]}') > 0 AS registered;
CREATE TEMP TABLE probe_row AS SELECT f.* FROM registry.schema_fields f
  JOIN registry.subject_versions v ON v.context = f.context AND v.schema_id = f.id
 WHERE v.subject = 'fields-probe';
SELECT pg_stat_force_next_flush();
SELECT regress.scans_mark();
SELECT registry.register_schema('fields-probe', '{"type":"record","name":"Probe","fields":[{"name":"a","type":"int"},{"name":"b","type":"int","default":0}]}') > 0 AS registered;
INSERT INTO registry.schema_fields SELECT * FROM probe_row;
SELECT pg_stat_force_next_flush();
SELECT * FROM regress.scans_since(ARRAY['schema_fields']);
SELECT count(*) AS rows_of_probe FROM registry.schema_fields f
  JOIN registry.subject_versions v ON v.context = f.context AND v.schema_id = f.id
 WHERE v.subject = 'fields-probe';

-- ---------------------------------------------------------------------------
-- the reference graph: Address <- Customer <- Invoice
-- ---------------------------------------------------------------------------
SELECT registry.register_schema('graph-address', '{"type":"record","name":"Address","namespace":"g","fields":[{"name":"zip","type":"string"}]}') > 0 AS registered;
SELECT registry.register_schema('graph-customer',
	'{"type":"record","name":"Customer","namespace":"g","fields":[{"name":"home","type":"g.Address"}]}', 'AVRO',
	'[{"name":"g.Address","subject":"graph-address","version":1}]') > 0 AS registered;
SELECT registry.register_schema('graph-invoice',
	'{"type":"record","name":"Invoice","namespace":"g","fields":[{"name":"to","type":"g.Customer"}]}', 'AVRO',
	'[{"name":"g.Customer","subject":"graph-customer","version":1},{"name":"g.Address","subject":"graph-address","version":1}]') > 0 AS registered;
SELECT registry.register_schema('graph-order',
	'{"type":"record","name":"Order","namespace":"g","fields":[{"name":"invoice","type":"g.Invoice"}]}', 'AVRO',
	'[{"name":"g.Invoice","subject":"graph-invoice","version":1}]') > 0 AS registered;
-- "Which schemas reference g.Address version 1?" one step, then transitively
SELECT depth, subject, version, reference_name FROM registry.reference_graph('graph-address', 1, 'in', false);
SELECT depth, subject, version, reference_name FROM registry.reference_graph('graph-address', 1, 'in');
-- and what an invoice depends on
SELECT depth, subject, version, reference_name FROM registry.reference_graph('graph-invoice', 1, 'out');
SELECT regress.try($$SELECT * FROM registry.reference_graph('graph-invoice', 1, 'sideways')$$);
