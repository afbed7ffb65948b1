-- Associations (Confluent 8.2+): the SQL functions, the table's rules for
-- every writer (raw DML included), the roles, the audit trail and pg_dump.
\set SHOW_CONTEXT never
CREATE ROLE regress_assoc_writer IN ROLE registry_writer;
CREATE ROLE regress_assoc_reader IN ROLE registry_reader;
GRANT USAGE ON SCHEMA regress TO regress_assoc_writer, regress_assoc_reader;
SELECT registry.register_schema('assoc-orders-key', '{"type":"record","name":"K","fields":[{"name":"k","type":"int"}]}') > 0 AS registered;
SELECT registry.register_schema('assoc-orders-value', '{"type":"record","name":"V","fields":[{"name":"v","type":"int"}]}') > 0 AS registered;
SELECT COALESCE(max(id), 0) AS mark FROM registry.audit \gset

-- a writer creates the key (WEAK by default) and value (STRONG) associations of a topic
SET ROLE regress_assoc_writer;
SELECT registry.create_association('{"resourceName":"assoc-orders","resourceNamespace":"lkc-a1",
	"resourceId":"rid-1","associations":[{"subject":"assoc-orders-key","associationType":"key"},
	{"subject":"assoc-orders-value","lifecycle":"STRONG"}]}');
RESET ROLE;
-- a reader reads them by resource name (in the namespace, or "-" in any), by id, by subject
SET ROLE regress_assoc_reader;
SELECT registry.associations_by_resource_name('assoc-orders', 'lkc-a1', 'topic', '{value}');
SELECT jsonb_array_length(registry.associations_by_resource_name('assoc-orders', '-')) AS in_any_namespace;
SELECT jsonb_array_length(registry.associations_by_resource_name('assoc-orders', 'lkc-other')) AS in_another;
SELECT jsonb_array_length(registry.associations_by_resource_id('rid-1', NULL, NULL, 'WEAK')) AS weak;
SELECT registry.associations_by_subject('assoc-orders-key');
-- but writes none
SELECT regress.try($$SELECT registry.create_association('{"resourceName":"t","resourceNamespace":"n","resourceId":"r","associations":[{"subject":"assoc-orders-key"}]}')$$);
SELECT regress.try($$INSERT INTO registry.associations VALUES ('topic','r','key','t','n','.','assoc-orders-key','WEAK')$$);
-- the REST routes are gated by the same grants
SELECT status, response FROM registry.rest('GET', '/associations/resources/rid-1', 'associationType=key');
SELECT status, response FROM registry.rest('POST', '/associations', NULL, '{"resourceName":"t","resourceNamespace":"n","resourceId":"r","associations":[{"subject":"assoc-orders-key"}]}');
SELECT status, response FROM registry.rest('DELETE', '/associations/resources/rid-1');
RESET ROLE;

-- Confluent's refusals, each with its SQLSTATE (R + error_code) and words
SELECT regress.try($$SELECT registry.create_association('{"resourceName":"assoc-orders","resourceNamespace":"lkc-a1","resourceId":"rid-1","associations":[{"subject":"assoc-orders-key","associationType":"key"}]}')$$);
SELECT regress.try($$SELECT registry.create_association('{"resourceName":"assoc-other","resourceNamespace":"lkc-a1","resourceId":"rid-2","associations":[{"subject":"assoc-orders-value"}]}')$$);
SELECT regress.try($$SELECT registry.create_association('{"resourceName":"assoc-other","resourceNamespace":"lkc-a1","resourceId":"rid-2","associations":[{"subject":"assoc-orders-key","lifecycle":"STRONG"}]}')$$);
SELECT regress.try($$SELECT registry.create_association('{"resourceName":"assoc-other","resourceNamespace":"lkc-a1","resourceId":"rid-2","associations":[{"subject":"assoc-nothing"}]}')$$);
SELECT regress.try($$SELECT registry.create_association('{"resourceName":"assoc-other","resourceNamespace":"lkc-a1","resourceId":"rid-2","associations":[{"subject":"assoc-orders-key","lifecycle":"WEAK","frozen":true}]}')$$);
SELECT regress.try($$SELECT registry.create_association('{"resourceName":"assoc-other","resourceNamespace":"lkc-a1","resourceId":"rid-2","resourceType":"table","associations":[{"subject":"assoc-orders-key"}]}')$$);
SELECT regress.try($$SELECT registry.create_association('{"resourceName":"assoc-other","resourceNamespace":"lkc-a1","associations":[{"subject":"assoc-orders-key"}]}')$$);
SELECT regress.try($$SELECT registry.delete_associations('rid-none')$$);
-- a dry run validates and writes nothing
SELECT registry.create_association('{"resourceName":"assoc-other","resourceNamespace":"lkc-a1","associations":[{"subject":"assoc-orders-key"}]}', true);

-- raw DML meets the same rules, and gets the registry's times
SELECT regress.try($$INSERT INTO registry.associations (resource_type, resource_id, association_type, resource_name, resource_namespace, context, subject, lifecycle) VALUES ('topic','rid-3','value','assoc-raw','lkc-a1','.','assoc-orders-value','WEAK')$$);
SELECT regress.try($$INSERT INTO registry.associations (resource_type, resource_id, association_type, resource_name, resource_namespace, context, subject, lifecycle) VALUES ('topic','rid-3','value','assoc-raw','lkc-a1','.','assoc-orders-key','MAYBE')$$);
SELECT regress.try($$UPDATE registry.associations SET subject = 'assoc-orders-value' WHERE resource_id = 'rid-1' AND association_type = 'key'$$);
SELECT regress.try($$INSERT INTO registry.associations (resource_type, resource_id, association_type, resource_name, resource_namespace, context, subject, lifecycle) VALUES ('topic','rid-3','key','assoc-orders','lkc-a1','.','assoc-orders-key','WEAK')$$);
BEGIN;
SET LOCAL ROLE regress_assoc_writer;
INSERT INTO registry.associations (resource_type, resource_id, association_type, resource_name, resource_namespace, context, subject, lifecycle, created_at, updated_at) VALUES ('topic','rid-3','key','assoc-raw','lkc-a1','.','assoc-orders-key','WEAK', '2001-01-01', '2001-01-01');
SELECT resource_id, created_at = now() AS created_now, updated_at = now() AS updated_now FROM registry.associations WHERE resource_id = 'rid-3';
COMMIT;
-- a superuser's row with an earlier time is one a restore brings back: kept as it is
DELETE FROM registry.associations WHERE resource_id = 'rid-3';
SELECT regress.try($$INSERT INTO registry.associations (resource_type, resource_id, association_type, resource_name, resource_namespace, context, subject, lifecycle, created_at, updated_at) VALUES ('topic','rid-3','key','assoc-raw','lkc-a1','.','assoc-orders-key','WEAK', '2001-01-01 00:00+00', '2001-01-02 00:00+00')$$);
SELECT resource_id, created_at AT TIME ZONE 'UTC' AS created_at, updated_at AT TIME ZONE 'UTC' AS updated_at FROM registry.associations WHERE resource_id = 'rid-3';

-- an update (PUT) to STRONG is refused while the subject has another
-- association, then changes the lifecycle; an equivalent one writes nothing
SELECT regress.try($$SELECT registry.upsert_association('rid-1', '{"resourceName":"assoc-orders","resourceNamespace":"lkc-a1","associations":[{"subject":"assoc-orders-key","associationType":"key","lifecycle":"STRONG"}]}')$$);
DELETE FROM registry.associations WHERE resource_id = 'rid-3';
SELECT registry.upsert_association('rid-1', '{"resourceName":"assoc-orders","resourceNamespace":"lkc-a1","associations":[{"subject":"assoc-orders-key","associationType":"key","lifecycle":"STRONG"}]}');
SELECT max(id) AS before_same FROM registry.audit \gset
SELECT registry.upsert_association('rid-1', '{"resourceName":"assoc-orders","resourceNamespace":"lkc-a1","associations":[{"subject":"assoc-orders-key","associationType":"key"}]}') -> 'associations' AS same;
SELECT count(*) AS written FROM registry.audit WHERE id > :before_same;
SELECT regress.try($$SELECT registry.upsert_association('rid-1', '{"resourceName":"assoc-orders","resourceNamespace":"lkc-a1","resourceId":"rid-9","associations":[{"associationType":"key"}]}')$$);

-- a frozen association: its subject made with its schema, then never changed;
-- deleted only with cascade_lifecycle, which deletes its subject too
SELECT registry.create_association('{"resourceName":"assoc-frozen","resourceNamespace":"lkc-a1","resourceId":"rid-f","associations":[{"lifecycle":"STRONG","frozen":true,"schema":{"schema":"{\"type\":\"string\"}"}}]}') #- '{associations,0,schema,guid}';
SELECT regress.try($$SELECT registry.upsert_association('rid-f', '{"resourceName":"assoc-frozen","resourceNamespace":"lkc-a1","associations":[{"lifecycle":"WEAK"}]}')$$);
SELECT regress.try($$SELECT registry.delete_associations('rid-f')$$);
SELECT registry.delete_associations('rid-f', cascade_lifecycle => true);
SELECT count(*) AS frozen_subject_versions FROM registry.subject_versions WHERE context = '.lkc-a1';

-- a READONLY subject takes no association write, a raw one neither
SELECT registry.set_mode('READONLY', 'assoc-orders-key');
SELECT regress.try($$SELECT registry.upsert_association('rid-1', '{"resourceName":"assoc-orders","resourceNamespace":"lkc-a1","associations":[{"subject":"assoc-orders-key","associationType":"key","lifecycle":"WEAK"}]}')$$);
SELECT regress.try($$DELETE FROM registry.associations WHERE resource_id = 'rid-1' AND association_type = 'key'$$);
SELECT registry.delete_mode('assoc-orders-key');

-- a batch: each resource on its own, its result or its error
SELECT registry.mutate_associations('{"requests":[
	{"resourceName":"assoc-orders","resourceNamespace":"lkc-a1","resourceId":"rid-1","associations":[{"opType":"DELETE","associationType":"key"}]},
	{"resourceName":"assoc-b","resourceNamespace":"lkc-a1","resourceId":"rid-b","associations":[{"opType":"CREATE","subject":"assoc-nothing"}]}]}');
SELECT registry.batch_get_associations('{"requests":[{"resourceId":"rid-1"},{"resourceName":"assoc-orders","resourceNamespace":"-","associationTypes":["value"]},{"resourceId":"rid-none"}]}');
SELECT regress.try($$SELECT registry.batch_get_associations('{"requests":[]}')$$);
-- a NULL association type is no wildcard: 22004, nothing read or deleted
SELECT regress.try($$SELECT registry.associations_by_resource_id('rid-1', association_types => '{NULL}')$$);
SELECT regress.try($$SELECT registry.associations_by_subject('assoc-orders-value', NULL, '{value,NULL}')$$);
SELECT regress.try($$SELECT registry.associations_by_resource_name('assoc-orders', '-', NULL, '{NULL}')$$);
SELECT regress.try($$SELECT registry.delete_associations('rid-1', 'topic', '{NULL}', true)$$);
SELECT count(*) AS rid1_associations FROM registry.associations WHERE resource_id = 'rid-1';

-- a STRONG association deleted with cascade takes its subject along
SELECT registry.delete_associations('rid-1', 'topic', '{value}', true);
SELECT count(*) AS value_versions FROM registry.subject_versions WHERE subject = 'assoc-orders-value';

-- every write is in the audit trail, by the role that acted
SELECT operation, CASE WHEN role = current_user THEN '(superuser)' ELSE role END AS role, context, subject
  FROM registry.audit WHERE id > :mark AND operation LIKE 'association.%' ORDER BY id;
-- pg_dump keeps the table's rows
SELECT c.relname FROM pg_extension e, unnest(e.extconfig) AS t(oid) JOIN pg_class c ON c.oid = t.oid
 WHERE e.extname = 'registry' AND c.relname = 'associations';

DELETE FROM registry.associations;
SELECT registry.delete_subject('assoc-orders-key') IS NOT NULL AS deleted;
SELECT registry.delete_subject('assoc-orders-key', true) IS NOT NULL AS deleted;
DROP ROLE regress_assoc_writer, regress_assoc_reader;
