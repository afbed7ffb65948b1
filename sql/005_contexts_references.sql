-- Contexts (per-context ids) and schema references.
\set SHOW_CONTEXT never
SELECT * FROM registry.split_subject(':.team-a:orders');
SELECT * FROM registry.split_subject('orders');
SELECT * FROM registry.split_subject(':.:orders');
SELECT * FROM registry.split_subject(':team-b:orders');
SELECT * FROM registry.split_subject(':.team-a:');

-- ids are per context: each context's first schema is id 1
SELECT registry.register_schema(':.team-a:orders', '"string"') AS a1,
       registry.register_schema(':.team-b:orders', '"bytes"') AS b1;
SELECT registry.register_schema(':.team-a:users', '"bytes"') AS a2;
SELECT context FROM registry.contexts ORDER BY context;
SELECT * FROM registry.subjects() WHERE subjects LIKE ':%' ORDER BY 1;
SELECT * FROM registry.subjects(':.team-a:');
SELECT schema, subject, version FROM registry.schema_by_id(2, ':.team-a:');
-- as Confluent: a qualified subject that does not use the id finds nothing
SELECT regress.try($$SELECT registry.schema_by_id(2, ':.team-a:x')$$);
SELECT regress.try($$SELECT registry.schema_by_id(2, ':.team-b:x')$$);
-- the same content in two contexts: two ids, one per context
SELECT registry.register_schema(':.team-b:users', '"bytes"') AS b_bytes;
SELECT subject, version, id FROM registry.get_version(':.team-a:users', 'latest');
SELECT subject, version, id FROM registry.lookup_schema(':.team-b:users', '"bytes"');

-- references: a named type defined in another subject
SELECT registry.register_schema('r-money', '{"type":"fixed","name":"Money","namespace":"fin","size":16}');
SELECT registry.register_schema('r-line',
	'{"type":"record","name":"Line","namespace":"fin","fields":[{"name":"price","type":"Money"}]}',
	'AVRO', '[{"name":"fin.Money","subject":"r-money","version":1}]') AS line_id \gset
-- the stored form names the referenced type, it does not inline it
SELECT schema, refs FROM registry.schema_by_id(:line_id);
-- a reference to "latest" (-1) is pinned to the concrete version
SELECT registry.register_schema('r-order',
	'{"type":"record","name":"Order","namespace":"fin","fields":[{"name":"lines","type":{"type":"array","items":"Line"}},{"name":"total","type":"Money"}]}',
	'AVRO', '[{"name":"fin.Money","subject":"r-money","version":-1},{"name":"fin.Line","subject":"r-line","version":1}]') AS order_id \gset
SELECT refs FROM registry.schema_by_id(:order_id);
SELECT name, ref_subject, ref_version FROM registry.schema_references WHERE schema_id = :order_id ORDER BY position;
SELECT * FROM registry.referenced_by('r-money', '1');
SELECT * FROM registry.referenced_by('r-line', 'latest');
-- without the reference the type is unknown
SELECT regress.try($$SELECT registry.register_schema('r-bad', '{"type":"record","name":"X","namespace":"fin","fields":[{"name":"m","type":"Money"}]}')$$);
-- same text, same references: same id; other references: another identity
SELECT registry.register_schema('r-line2',
	'{"type":"record","name":"Line","namespace":"fin","fields":[{"name":"price","type":"Money"}]}',
	'AVRO', '[{"name":"fin.Money","subject":"r-money","version":1}]') = :line_id AS same_id;
-- compatibility follows referenced types: Money's size is part of the check
SELECT registry.register_schema('r-money2', '{"type":"fixed","name":"Money","namespace":"fin","size":8}');
SELECT unnest(messages) FROM registry.check_compatibility('r-line',
	'{"type":"record","name":"Line","namespace":"fin","fields":[{"name":"price","type":"Money"}]}',
	'AVRO', '[{"name":"fin.Money","subject":"r-money2","version":1}]', verbose => true);
-- lookup with references
SELECT subject, version, id = :line_id AS same FROM registry.lookup_schema('r-line',
	'{"type":"record","name":"Line","namespace":"fin","fields":[{"name":"price","type":"Money"}]}',
	'AVRO', '[{"name":"fin.Money","subject":"r-money","version":1}]');
