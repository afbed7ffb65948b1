-- The transactional outbox (README, "Payloads in SQL"): a trigger encodes the
-- business row with registry.encode() into an outbox table in the same
-- transaction, so an event exists exactly when its row does.
\set SHOW_CONTEXT never

SELECT registry.register_schema('outbox-orders-value', $${"type":"record","name":"Order","namespace":"shop",
	"fields":[{"name":"id","type":"long"},
	          {"name":"customer","type":"string"},
	          {"name":"total","type":{"type":"bytes","logicalType":"decimal","precision":12,"scale":2}},
	          {"name":"placed_at","type":{"type":"long","logicalType":"timestamp-micros"}},
	          {"name":"note","type":["null","string"],"default":null}]}$$) > 0 AS registered;

CREATE TABLE regress.orders (
	id bigint PRIMARY KEY,
	customer text NOT NULL,
	total numeric NOT NULL,
	placed_at timestamptz NOT NULL,
	note text
);
-- Debezium's outbox event router reads these columns by default
CREATE TABLE regress.outbox (
	id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
	aggregatetype text NOT NULL,
	aggregateid text NOT NULL,
	type text NOT NULL,
	payload bytea NOT NULL
);
CREATE FUNCTION regress.orders_to_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO regress.outbox (aggregatetype, aggregateid, type, payload)
	VALUES ('orders', NEW.id::text, TG_OP,
	        registry.encode('outbox-orders-value', to_jsonb(NEW)));
	RETURN NEW;
END $$;
CREATE TRIGGER orders_outbox AFTER INSERT OR UPDATE ON regress.orders
	FOR EACH ROW EXECUTE FUNCTION regress.orders_to_outbox();

SET TIME ZONE 'UTC';
INSERT INTO regress.orders VALUES (1, 'ada', 12.50, '2024-02-29 12:34:56.789123+00', NULL);
INSERT INTO regress.orders VALUES (2, 'grace', 0.05, '2024-03-01 00:00:00+00', 'gift');
UPDATE regress.orders SET total = 13.00 WHERE id = 1;
-- each event decodes to its row as it was then
SELECT aggregateid, type, registry.decode(payload) AS event
  FROM regress.outbox ORDER BY aggregateid, type;
-- the wire format: magic byte 0, then the id of the subject's latest version
SELECT DISTINCT (registry.wire_parse(payload)).schema_id = (registry.get_version('outbox-orders-value')).id AS latest_id,
       get_byte(payload, 0) AS magic
  FROM regress.outbox;

-- a rolled-back transaction leaves neither the row nor the event
BEGIN;
INSERT INTO regress.orders VALUES (3, 'linus', 1, now(), NULL);
ROLLBACK;
SELECT count(*) AS orders, (SELECT count(*) FROM regress.outbox) AS events FROM regress.orders;

-- a row the schema cannot carry (a total of 13 digits, the schema's decimal
-- has 12) is refused with its event: nothing is written
-- (the detail names the schema's id, which depends on the tests before)
SELECT split_part(regress.try($$INSERT INTO regress.orders VALUES (4, 'ken', 12345678901.23, now(), NULL)$$),
	E'\n', 1) AS refused;
SELECT count(*) AS orders, (SELECT count(*) FROM regress.outbox) AS events FROM regress.orders;

-- ---------------------------------------------------------------------------
-- CloudEvents: the same outbox publishing CloudEvents 1.0 envelopes
-- ---------------------------------------------------------------------------
CREATE TABLE regress.ce_outbox (seq serial PRIMARY KEY, event jsonb NOT NULL);
CREATE FUNCTION regress.orders_to_ce() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO regress.ce_outbox (event)
	VALUES (registry.cloudevent('outbox-orders-value', to_jsonb(NEW), 'shop.order.' || lower(TG_OP),
	        '/shop/orders', extensions => jsonb_build_object('correlationid', 'c-' || NEW.id, 'tenantid', 7)));
	RETURN NEW;
END $$;
CREATE TRIGGER orders_ce AFTER INSERT ON regress.orders
	FOR EACH ROW EXECUTE FUNCTION regress.orders_to_ce();
SET registry.public_url = 'https://registry.example.com/';
INSERT INTO regress.orders VALUES (5, 'barbara', 7.25, '2024-04-01 08:00:00+00', NULL);
-- the envelope: its attributes, the data_base64 of the wire-format message,
-- the schema named where the registry serves it
SELECT event->>'specversion' AS specversion, event->>'type' AS type, event->>'source' AS source,
       event->>'datacontenttype' AS datacontenttype,
       event->>'dataschema' = 'https://registry.example.com/schemas/ids/' ||
           (registry.get_version('outbox-orders-value')).id AS dataschema_names_the_id,
       event->>'id' ~ '^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$' AS uuid_v4,
       event->>'time' ~ '^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$'
           AND (event->>'time')::timestamptz BETWEEN now() - interval '10 minutes' AND now() AS rfc3339_time,
       event->'correlationid' AS correlationid, event->'tenantid' AS tenantid,
       decode(event->>'data_base64', 'base64') =
           registry.encode('outbox-orders-value', (SELECT to_jsonb(o) FROM regress.orders o WHERE id = 5)) AS data_is_the_encoded_row
  FROM regress.ce_outbox;
-- and back: the value of the envelope
SELECT registry.cloudevent_data(event) AS value FROM regress.ce_outbox;
-- two events never share an id
SELECT count(DISTINCT registry.cloudevent('outbox-orders-value', to_jsonb(o), 't', 's')->>'id') AS ids
  FROM regress.orders o;
-- JSON Schema: the value itself as data, checked on the way in and out
SELECT registry.register_schema('ce-json', '{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}', 'JSON') > 0 AS registered;
SELECT e->'data' AS data, e->>'datacontenttype' AS datacontenttype, e ? 'data_base64' AS has_base64,
       registry.cloudevent_data(e) AS value
  FROM registry.cloudevent('ce-json', '{"n": 3}', 't', 's') AS e;
SELECT split_part(regress.try($$SELECT registry.cloudevent('ce-json', '{"n": "x"}', 't', 's')$$), E'\n', 1) AS refused;
SELECT split_part(regress.try($$SELECT registry.cloudevent_data(jsonb_set(registry.cloudevent('ce-json', '{"n": 3}', 't', 's'), '{data}', '{"n": 1.5}'))$$), E'\n', 1) AS refused;
-- a subject of another context names it in the dataschema
SELECT registry.register_schema(':.ce:json', '{"type":"string"}', 'JSON') > 0 AS registered;
SELECT e->>'dataschema' LIKE 'https://registry.example.com/schemas/ids/%?subject=%3A.ce%3Ajson' AS names_the_context,
       registry.cloudevent_data(e) AS value
  FROM registry.cloudevent(':.ce:json', '"hello"', 't', 's') AS e;
-- an event without data
SELECT e ? 'data' OR e ? 'data_base64' OR e ? 'dataschema' AS has_data, registry.cloudevent_data(e) IS NULL AS no_value
  FROM registry.cloudevent('ce-json', NULL, 't', 's') AS e;
-- bad input: 22023, nothing else
SELECT regress.try($$SELECT registry.cloudevent('ce-json', '{"n":1}', '', 's')$$);
SELECT regress.try($$SELECT registry.cloudevent('ce-json', '{"n":1}', 't', 's', extensions => '{"Tenant":1}')$$);
SELECT regress.try($$SELECT registry.cloudevent('ce-json', '{"n":1}', 't', 's', extensions => '{"type":"x"}')$$);
SELECT regress.try($$SELECT registry.cloudevent('ce-json', '{"n":1}', 't', 's', extensions => '{"ratio":0.5}')$$);
SELECT regress.try($$SELECT registry.cloudevent('ce-json', '{"n":1}', 't', 's', extensions => '[1]')$$);
SELECT regress.try($$SELECT registry.cloudevent_data('{"specversion":"0.3","data":1}')$$);
SELECT regress.try($$SELECT registry.cloudevent_data('{"specversion":"1.0","data":1,"dataschema":"urn:x"}')$$);
SELECT regress.try($$SELECT registry.cloudevent_data('{"specversion":"1.0","data_base64":"!!"}')$$);
RESET registry.public_url;

DROP TABLE regress.orders, regress.outbox, regress.ce_outbox;
DROP FUNCTION regress.orders_to_outbox(), regress.orders_to_ce();
RESET TIME ZONE;
