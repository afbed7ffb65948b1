-- Config and mode hierarchies: subject, else context, else global, else the default.
\set SHOW_CONTEXT never

-- compatibility: defaults, then global, context and subject levels
SELECT registry.get_compatibility() AS global, registry.get_compatibility('m-a') AS subject;
SELECT regress.try($$SELECT registry.get_compatibility('m-a', default_to_global => false)$$);
SELECT registry.set_compatibility('full');
SELECT registry.get_compatibility('m-a') AS inherits_global;
SELECT registry.set_compatibility('FORWARD', ':.ctx1:');
SELECT registry.get_compatibility(':.ctx1:m-a') AS inherits_context, registry.get_compatibility('m-a') AS default_context;
SELECT registry.set_compatibility('NONE', ':.ctx1:m-a');
SELECT registry.get_compatibility(':.ctx1:m-a') AS own, registry.get_compatibility(':.ctx1:m-a', false) AS own_only;
SELECT registry.delete_compatibility(':.ctx1:m-a');
SELECT registry.get_compatibility(':.ctx1:m-a');
SELECT regress.try($$SELECT registry.delete_compatibility('never-configured')$$);
SELECT regress.try($$SELECT registry.set_compatibility('BACKWARDS', 'm-a')$$);
SELECT regress.try($$SELECT registry.set_compatibility(NULL, 'm-a')$$);
SELECT registry.delete_compatibility(':.ctx1:');
SELECT registry.delete_compatibility();
SELECT registry.get_compatibility();
SELECT count(*) AS config_rows FROM registry.config;

-- modes
SELECT registry.get_mode(), registry.get_mode('m-a');
SELECT regress.try($$SELECT registry.get_mode('m-a', false)$$);
SELECT regress.try($$SELECT registry.set_mode('READ_WRITE')$$);
SELECT regress.try($$SELECT registry.set_mode('FORWARD', 'm-a')$$);
SELECT registry.register_schema('m-a', '"int"');
SELECT registry.register_schema('m-b', '"int"');

-- READONLY registry: no new subjects, no new versions, no deletes, no config changes
SELECT registry.set_mode('READONLY');
SELECT regress.try($$SELECT registry.register_schema('m-new', '"string"')$$);
SELECT regress.try($$SELECT registry.register_schema('m-a', '"long"')$$);
SELECT regress.try($$SELECT registry.delete_subject('m-a')$$);
SELECT regress.try($$SELECT registry.delete_version('m-a', '1')$$);
SELECT regress.try($$SELECT registry.set_compatibility('NONE')$$);
SELECT regress.try($$SELECT registry.set_compatibility('NONE', 'm-a')$$);
-- ... but the exact schema the subject already has answers with its id
SELECT registry.register_schema('m-a', '{"type":"int"}');
-- reads and compatibility tests still work
SELECT (registry.get_version('m-a', 'latest')).version AS readable_version;
SELECT (registry.check_compatibility('m-a', '"long"')).is_compatible;
-- a subject set READWRITE stays writable in a READONLY registry
SELECT registry.set_mode('READWRITE', 'm-b');
SELECT registry.get_mode('m-b'), registry.get_mode('m-a'), registry.get_mode('m-new');
SELECT registry.register_schema('m-b', '"long"') > 0 AS registered;
SELECT regress.try($$SELECT registry.register_schema('m-a', '"long"')$$);
-- READONLY_OVERRIDE refuses as READONLY does
SELECT registry.set_mode('READONLY_OVERRIDE', 'm-b');
SELECT regress.try($$SELECT registry.register_schema('m-b', '"double"')$$);
SELECT registry.set_mode('READWRITE');
SELECT registry.delete_mode('m-b');

-- a READONLY subject in a READWRITE registry
SELECT registry.set_mode('READONLY', 'm-a');
SELECT regress.try($$SELECT registry.register_schema('m-a', '"long"')$$);
SELECT registry.register_schema('m-c', '"long"') > 0 AS other_subjects_writable;
SELECT registry.delete_mode('m-a');

-- a context-level mode applies to its subjects only
SELECT registry.set_mode('READONLY', ':.ctx2:');
SELECT regress.try($$SELECT registry.register_schema(':.ctx2:x', '"int"')$$);
SELECT registry.register_schema(':.ctx3:x', '"int"');
SELECT registry.delete_mode(':.ctx2:');

-- IMPORT: only over a scope without live subjects (unless forced); explicit ids and versions
SELECT regress.try($$SELECT registry.set_mode('IMPORT')$$);
SELECT registry.set_mode('IMPORT', 'm-import');
SELECT regress.try($$SELECT registry.register_schema('m-import', '"string"')$$);
SELECT * FROM registry.register_schema_version('m-import', '"string"', id => 100, version => 5);
SELECT * FROM registry.register_schema_version('m-import', '{"type":"record","name":"Z","fields":[{"name":"z","type":"int"}]}', id => 101, version => 7);
-- no compatibility check in IMPORT (string -> record)
SELECT * FROM registry.versions('m-import');
-- the id of other content cannot be taken over
SELECT regress.try($$SELECT registry.register_schema('m-import', '"bytes"', id => 100, version => 8)$$);
-- an id outside IMPORT mode is refused
SELECT regress.try($$SELECT registry.register_schema('m-a', '"bytes"', id => 300)$$);
SELECT registry.delete_mode('m-import');
-- ids continue above the imported ones
SELECT registry.register_schema('m-after-import', '"float"') > 101 AS above_import;
-- forcing IMPORT over live subjects
SELECT registry.set_mode('IMPORT', force => true);
SELECT registry.get_mode('m-a');
SELECT registry.set_mode('READWRITE');
SELECT registry.delete_mode();
SELECT count(*) AS mode_rows FROM registry.modes;
