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

DROP TABLE regress.orders, regress.outbox;
DROP FUNCTION regress.orders_to_outbox();
RESET TIME ZONE;
