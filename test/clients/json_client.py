"""JSON Schema with Debian's python3-confluent-kafka (1.7.0; its JSONSerializer
validates with python3-jsonschema): json_client.py DIR, after
`node json.mjs encode DIR`.

Registers the node clients' schema text as python's JSONSerializer does (its
own formatting: the same id), encodes a value for `node json.mjs decode DIR`
(DIR/json-python.hex), decodes the node clients' bytes with JSONDeserializer,
and checks SchemaRegistryClient calls on JSON schemas: get_schema, lookup,
compatibility, config, a schema with a reference."""
import json
import os
import sys

from pyhelp import URL, check, finish, expect_error

from confluent_kafka.schema_registry import SchemaRegistryClient, Schema, SchemaReference
from confluent_kafka.schema_registry.json_schema import JSONSerializer, JSONDeserializer
from confluent_kafka.serialization import SerializationContext, MessageField, SerializationError

d = sys.argv[1]
ids = json.load(open(os.path.join(d, "json-ids.json")))
values = json.load(open(os.path.join(d, "json-values.json")))
schema_text = open(os.path.join(d, "json-order.json")).read()
subject = open(os.path.join(d, "json-subject.txt")).read()
topic = subject[:-len("-value")]
order = json.loads(schema_text)
ctx = SerializationContext(topic, MessageField.VALUE)


def fresh():
    return SchemaRegistryClient({"url": URL})


def hexfile(name):
    return bytes.fromhex(open(os.path.join(d, name)).read().strip())


def t_serializer():
    ser = JSONSerializer(json.dumps(order, indent=3), fresh())
    buf = ser(values["python"], ctx)
    open(os.path.join(d, "json-python.hex"), "w").write(buf.hex())
    if buf[0] != 0 or int.from_bytes(buf[1:5], "big") != ids["order"]:
        return f"header {buf[:5].hex()}, want id {ids['order']}"
    if json.loads(buf[5:]) != values["python"]:
        return f"payload {buf[5:]!r}"


check("json python JSONSerializer registers its own formatting of the schema: same id", t_serializer)


def t_refuse():
    ser = JSONSerializer(schema_text, fresh())
    try:
        ser({"id": "x", "qty": "three"}, ctx)
    except SerializationError:
        return None
    return "no error"


check("json python JSONSerializer refuses a value the schema does not allow", t_refuse)


def decode(enc):
    def t():
        buf = hexfile(f"json-{enc}.hex")
        if int.from_bytes(buf[1:5], "big") != ids["order"]:
            return f"id {int.from_bytes(buf[1:5], 'big')}, want {ids['order']}"
        got = JSONDeserializer(schema_text)(buf, ctx)
        if got != values[enc]:
            return f"decoded {got!r}, want {values[enc]!r}"
    return t


for enc in ("kafkajs", "confluent"):
    check(f"json {enc} bytes -> python JSONDeserializer", decode(enc))


def t_get_schema():
    s = fresh().get_schema(ids["order"])
    if s.schema_type != "JSON" or json.loads(s.schema_str) != order:
        return f"{s.schema_type} {s.schema_str}"


check("json python get_schema(id): schema_type JSON", t_get_schema)


def t_lookup():
    r = fresh().lookup_schema(subject, Schema(schema_text, "JSON"))
    if r.schema_id != ids["order"] or r.version != 1:
        return f"{r.schema_id} v{r.version}"


check("json python lookup_schema", t_lookup)


def t_latest():
    r = fresh().get_latest_version(subject)
    if r.schema_id != ids["orderV2"] or r.version != 2 or r.schema.schema_type != "JSON":
        return f"{r.schema_id} v{r.version} {r.schema.schema_type}"


check("json python get_latest_version is v2", t_latest)


def t_compat():
    c = fresh()
    v3 = dict(order, properties=dict(order["properties"], coupon={"type": "string"}, extra={"type": "integer"}))
    bad = dict(order, properties=dict(order["properties"], price={"type": "string"}))
    if c.test_compatibility(subject, Schema(json.dumps(v3), "JSON")) is not True:
        return "a new optional property of a closed object is not compatible"
    if c.test_compatibility(subject, Schema(json.dumps(bad), "JSON")) is not False:
        return "a changed property type is compatible"


check("json python test_compatibility (compatible, incompatible)", t_compat)


def t_config():
    c = fresh()
    r = c.set_compatibility(subject_name=subject, level="FORWARD")
    if r != {"compatibility": "FORWARD"}:
        return f"set_compatibility answered {r!r}"
    if c.get_compatibility(subject) != "FORWARD":
        return "get_compatibility"
    # FORWARD: v2 must read the new schema's data; a new property of its
    # closed object it cannot
    v3 = dict(order, properties=dict(order["properties"], coupon={"type": "string"}, extra={"type": "integer"}))
    r = c.test_compatibility(subject, Schema(json.dumps(v3), "JSON"))
    c.set_compatibility(subject_name=subject, level="BACKWARD")
    if r is not False:
        return f"forward compatibility of a new property: {r}"


check("json python set_compatibility / get_compatibility / a FORWARD check", t_config)


def t_register_invalid():
    return expect_error(lambda: fresh().register_schema(subject + "-bad", Schema('{"type": "object", "properties": 5}', "JSON")),
                        422, 42201)


check("json python register an invalid JSON schema: 422 / 42201", t_register_invalid)


def t_reference():
    c = fresh()
    ref = SchemaReference(ids["addressId"], ids["addrSubject"], 1)
    person = {"$schema": "http://json-schema.org/draft-07/schema#", "title": "Person", "type": "object",
              "properties": {"name": {"type": "string"}, "home": {"$ref": ids["addressId"]}},
              "required": ["name", "home"]}
    sid = c.register_schema(subject + "-person", Schema(json.dumps(person), "JSON", [ref]))
    if sid != ids["person"]:
        return f"id {sid}, want {ids['person']} (the node clients' registration)"
    s = fresh().get_schema(sid)
    names = [(r.name, r.subject, r.version) for r in s.references]
    if names != [(ids["addressId"], ids["addrSubject"], 1)]:
        return f"references {names}"
    # 1.7.0's delete_subject(permanent=True) soft-deletes first, then hard-deletes
    c.delete_subject(subject + "-person", permanent=True)


check("json python register with a reference (SchemaReference): the same id as node's", t_reference)

def t_draft2020():
    text = open(os.path.join(d, "json-point.json")).read()
    pctx = SerializationContext(f"json-2020-{topic[len('json-'):]}", MessageField.VALUE)
    buf = JSONSerializer(text, fresh())(values["point"], pctx)
    if int.from_bytes(buf[1:5], "big") != ids["point"]:
        return f"id {int.from_bytes(buf[1:5], 'big')}, want {ids['point']} (node's registration of the same document)"
    node = hexfile("json-point.hex")
    if JSONDeserializer(text)(node, pctx) != values["point"]:
        return "node's bytes do not decode to the value"
    try:
        JSONSerializer(text, fresh())({"at": [1, 2, 3]}, pctx)
    except SerializationError:
        return None
    return "a third tuple item (items: false) was not refused"


check("json python draft 2020-12 (jsonschema's Draft202012Validator): same id, node's bytes, prefixItems", t_draft2020)

finish("json_client.py")
