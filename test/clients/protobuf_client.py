"""PROTOBUF with Debian's python3-confluent-kafka (1.7.0) and python3-protobuf:
protobuf_client.py DIR, after `node protobuf.mjs encode DIR`.

The message classes come from DIR/protos.binpb (the FileDescriptorSet buf
compiled from proto/*.proto), added to a descriptor pool: what a generated
_pb2 module does, without protoc.  Checks SchemaRegistryClient calls with
.proto text, ProtobufDeserializer on the node serializer's bytes, and
ProtobufSerializer (which sends base64 FileDescriptorProtos as the schema);
writes DIR/pb-python-Order.hex for `node protobuf.mjs decode DIR`."""
import json
import os
import sys

from pyhelp import URL, RUN, check, finish, expect_error, HERE

from confluent_kafka.schema_registry import SchemaRegistryClient, Schema, SchemaReference
from confluent_kafka.schema_registry.protobuf import ProtobufSerializer, ProtobufDeserializer
from confluent_kafka.serialization import SerializationContext, MessageField
from google.protobuf import descriptor_pb2, descriptor_pool, json_format, message_factory

d = sys.argv[1]
ids = json.load(open(os.path.join(d, "pb-ids.json")))
values = json.load(open(os.path.join(d, "pb-values.json")))


def text(name):
    return open(os.path.join(HERE, "proto", name)).read()


def note(s):
    print(f"# note: {s}", flush=True)


def fresh():
    return SchemaRegistryClient({"url": URL})


# message classes from the compiled descriptors
fds = descriptor_pb2.FileDescriptorSet()
fds.ParseFromString(open(os.path.join(d, "protos.binpb"), "rb").read())
pool = descriptor_pool.DescriptorPool()
for f in fds.file:
    pool.Add(f)
factory = message_factory.MessageFactory(pool)


def cls(name):
    return factory.GetPrototype(pool.FindMessageTypeByName(name))


Order = cls("test.clients.shop.Order")
Refund = cls("test.clients.shop.Refund")
Line = cls("test.clients.shop.Order.Line")
Invoice = cls("test.clients.billing.Invoice")


def as_json(m):
    return json.loads(json.dumps(json_format.MessageToDict(m), sort_keys=True))


def want(name):
    return json.loads(json.dumps(values[name], sort_keys=True))


shop = Schema(text("shop.proto"), "PROTOBUF")
py_subject = f"pb-python-{RUN}-value"


# --- SchemaRegistryClient with .proto text --------------------------------
def t_register():
    sid = fresh().register_schema(py_subject, shop)
    if sid != ids["shop"]:
        return f"got {sid}, want {ids['shop']} (the id the node clients got)"


def t_get_schema():
    s = fresh().get_schema(ids["shop"])
    if s.schema_type != "PROTOBUF":
        return f"schema_type {s.schema_type!r}"
    if "message Refund" not in s.schema_str:
        return f"schema_str {s.schema_str!r}"


def t_lookup():
    r = fresh().lookup_schema(py_subject, shop)
    if (r.schema_id, r.version, r.subject) != (ids["shop"], 1, py_subject):
        return f"got id={r.schema_id} version={r.version} subject={r.subject}"
    if r.schema.schema_type != "PROTOBUF":
        return f"schema_type {r.schema.schema_type!r}"


def t_latest():
    r = fresh().get_latest_version(py_subject)
    if (r.schema_id, r.schema.schema_type) != (ids["shop"], "PROTOBUF"):
        return f"got id={r.schema_id} schema_type={r.schema.schema_type}"


def t_compat():
    c = fresh()
    c.set_compatibility(subject_name=py_subject, level="BACKWARD")
    bad = Schema(text("shop.proto").replace("string reason = 2;", "int32 reason = 2;"), "PROTOBUF")
    ok_ = Schema(text("shop.proto").replace("bool partial = 4;", "bool partial = 4;\n  string note = 5;"), "PROTOBUF")
    r1, r2 = c.test_compatibility(py_subject, ok_), c.test_compatibility(py_subject, bad)
    if (r1, r2) != (True, False):
        return f"compatible change -> {r1!r}, string->int32 -> {r2!r}"


def t_references():
    s = Schema(text("invoice.proto"), "PROTOBUF",
               [SchemaReference("common.proto", ids["commonSubject"], 1)])
    sub = f"pb-python-inv-{RUN}-value"
    sid = fresh().register_schema(sub, s)
    if sid != ids["invoice"]:
        return f"got {sid}, want {ids['invoice']}"
    got = fresh().get_schema(sid)
    refs = [(r.name, r.subject, r.version) for r in got.references]
    if refs != [("common.proto", ids["commonSubject"], 1)]:
        return f"references {refs!r}"
    if fresh().lookup_schema(sub, s).schema_id != sid:
        return "lookup_schema id differs"


check("pb python register_schema PROTOBUF (.proto text): the node clients' id", t_register)
check("pb python get_schema(id): schema_type PROTOBUF", t_get_schema)
check("pb python lookup_schema PROTOBUF", t_lookup)
check("pb python get_latest_version PROTOBUF", t_latest)
check("pb python test_compatibility: add field True, string -> int32 False", t_compat)
check("pb python register_schema with a reference (common.proto) / get_schema references", t_references)
check("pb python register_schema of an invalid .proto: 422 / 42201",
      lambda: expect_error(lambda: fresh().register_schema(py_subject, Schema("message {", "PROTOBUF")), 422, 42201))


# --- wire format ------------------------------------------------------------
ctx = SerializationContext(ids["topic"], MessageField.VALUE)


def read_hex(name):
    p = os.path.join(d, f"pb-confluent-{name}.hex")
    return bytes.fromhex(open(p).read().strip()) if os.path.exists(p) else None


def t_decode_order():
    b = read_hex("Order")
    if b is None:
        return "no pb-confluent-Order.hex (the node encode failed)"
    m = ProtobufDeserializer(Order)(b, ctx)
    if as_json(m) != want("Order"):
        return f"decoded {as_json(m)}, want {want('Order')}"


check("pb confluent (node) Order bytes -> python ProtobufDeserializer", t_decode_order)

# 1.7.0 reads and writes message indexes as unsigned varints (fixed in
# confluent-kafka-python 1.8.2, use.deprecated.format): only the first
# top-level message, index byte 0, agrees with the Confluent format.
for name, c in (("Refund", Refund), ("Order.Line", Line)):
    b = read_hex(name)
    if b is None:
        continue
    try:
        r = as_json(ProtobufDeserializer(c)(b, ctx))
    except Exception as e:  # noqa: BLE001
        r = f"error {e}"
    note(f"python 1.7.0 ProtobufDeserializer({name}) of {b[5:8].hex()}... (Confluent indexes): {r}; want {want(name)}")


def t_serialize_order():
    # auto.register.schemas True registers base64(FileDescriptorProto); a
    # second serializer with auto.register.schemas False looks it up
    # (POST /subjects/{s}) and must find the same id
    t = f"pb-python-ser-{RUN}"
    c = SerializationContext(t, MessageField.VALUE)
    m = json_format.ParseDict(values["Order"], Order())
    b = ProtobufSerializer(Order, fresh(), {"auto.register.schemas": True})(m, c)
    sid = int.from_bytes(b[1:5], "big")
    if b[0] != 0 or b[5] != 0:
        return f"bytes {b[:8].hex()}, want 00, id, 00 ..."
    if sid != ids["shop"]:
        return f"the base64 FileDescriptorProto of shop.proto registered as id {sid}, the .proto text has id {ids['shop']}"
    b2 = ProtobufSerializer(Order, fresh(), {"auto.register.schemas": False})(m, c)
    if b2 != b:
        return f"lookup gave {b2[:8].hex()}, register gave {b[:8].hex()}"
    if fresh().get_schema(sid).schema_type != "PROTOBUF":
        return "get_schema schema_type is not PROTOBUF"
    open(os.path.join(d, "pb-python-Order.hex"), "w").write(b.hex())


def t_serialize_lookup_text():
    # auto.register.schemas False against the subject the .proto text was
    # registered under (t_register): the base64 FileDescriptorProto the
    # serializer sends is the same schema
    c = SerializationContext(f"pb-python-{RUN}", MessageField.VALUE)
    m = json_format.ParseDict(values["Order"], Order())
    b = ProtobufSerializer(Order, fresh(), {"auto.register.schemas": False})(m, c)
    sid = int.from_bytes(b[1:5], "big")
    if sid != ids["shop"]:
        return f"serialized with id {sid}, the .proto text has id {ids['shop']}"
    if fresh().get_versions(py_subject) != [1]:
        return f"versions {fresh().get_versions(py_subject)}"


def t_serialize_refs():
    # auto.register.schemas True with imports: registers each imported file
    # (common.proto) under the subject named after it, then the main one
    t = f"pb-python-auto-{RUN}"
    ser = ProtobufSerializer(Invoice, fresh(), {"auto.register.schemas": True})
    m = json_format.ParseDict(values["Invoice"], Invoice())
    b = ser(m, SerializationContext(t, MessageField.VALUE))
    back = ProtobufDeserializer(Invoice)(b, SerializationContext(t, MessageField.VALUE))
    if as_json(back) != want("Invoice"):
        return f"decoded {as_json(back)}"
    latest = fresh().get_latest_version(f"{t}-value")
    if latest.schema.schema_type != "PROTOBUF" or latest.schema_id != int.from_bytes(b[1:5], "big"):
        return f"latest {latest.schema_id} {latest.schema.schema_type}"


check("pb python ProtobufSerializer(Order): auto.register.schemas True, then False (lookup of base64 FileDescriptorProto)",
      t_serialize_order)
check("pb python ProtobufSerializer(Order), auto.register.schemas False, against the .proto text's subject: its id",
      t_serialize_lookup_text)
check("pb python ProtobufSerializer(Invoice), auto.register.schemas True (registers common.proto as a reference)",
      t_serialize_refs)
try:
    b = ProtobufSerializer(Refund, fresh(), {"auto.register.schemas": False})._msg_index
    note(f"python 1.7.0 ProtobufSerializer(Refund) writes message indexes {bytes(b).hex()} (Confluent: 0202)")
except Exception as e:  # noqa: BLE001
    note(f"python ProtobufSerializer(Refund): {e}")

finish("protobuf_client.py")
