#!/usr/bin/python3
"""Cross-check of test_protobuf_payload.c's expected bytes and JSON against
python3-protobuf (the reference implementation's Python binding).

The schemas of the C test are rebuilt here as descriptors (there is no
protoc to compile their text); each case's JSON value is parsed with
json_format and serialized deterministically, and must give the bytes the
C test expects after the message indexes; each decode case's bytes,
printed with the .proto names and every field, must give the JSON the C
test expects (as a value: key order aside).

Run: /usr/bin/python3 test/core/protobuf_payload_check.py
Last line: "protobuf oracle: N passed, M failed"; make test runs it.
"""
import json
import sys

from google.protobuf import descriptor_pb2, descriptor_pool, json_format
from google.protobuf import timestamp_pb2  # noqa: F401  (registers the file)

try:
    from google.protobuf.message_factory import GetMessageClass
except ImportError:  # older python3-protobuf
    from google.protobuf import message_factory

    def GetMessageClass(d):
        return message_factory.MessageFactory().GetPrototype(d)

F = descriptor_pb2.FieldDescriptorProto
OPT, REP, REQ = F.LABEL_OPTIONAL, F.LABEL_REPEATED, F.LABEL_REQUIRED


def field(msg, name, number, ftype, label=OPT, type_name=None, default=None,
          oneof=None, proto3_optional=False):
    f = msg.field.add(name=name, number=number, type=ftype, label=label)
    if type_name:
        f.type_name = type_name
    if default is not None:
        f.default_value = default
    if oneof is not None:
        f.oneof_index = oneof
    if proto3_optional:
        f.proto3_optional = True
    return f


def map_entry(msg, name, key_type, value_type, value_type_name=None):
    e = msg.nested_type.add(name=name)
    e.options.map_entry = True
    field(e, "key", 1, key_type)
    field(e, "value", 2, value_type, type_name=value_type_name)


def scalars_file():
    f = descriptor_pb2.FileDescriptorProto(name="scalars.proto", package="t",
                                           syntax="proto3")
    m = f.message_type.add(name="Scalars")
    for name, num, t in [("d", 1, F.TYPE_DOUBLE), ("f", 2, F.TYPE_FLOAT),
                         ("i64", 3, F.TYPE_INT64), ("u64", 4, F.TYPE_UINT64),
                         ("i32", 5, F.TYPE_INT32), ("f64", 6, F.TYPE_FIXED64),
                         ("f32", 7, F.TYPE_FIXED32), ("b", 8, F.TYPE_BOOL),
                         ("s", 9, F.TYPE_STRING), ("by", 10, F.TYPE_BYTES),
                         ("u32", 11, F.TYPE_UINT32), ("sf32", 12, F.TYPE_SFIXED32),
                         ("sf64", 13, F.TYPE_SFIXED64), ("si32", 14, F.TYPE_SINT32),
                         ("si64", 15, F.TYPE_SINT64)]:
        field(m, name, num, t)
    return f


def shapes_file():
    f = descriptor_pb2.FileDescriptorProto(name="shapes.proto", package="t.v1",
                                           syntax="proto3")
    m = f.message_type.add(name="Order")
    line = m.nested_type.add(name="Line")
    field(line, "sku", 1, F.TYPE_STRING)
    field(line, "qty", 2, F.TYPE_INT32)
    st = m.enum_type.add(name="Status")
    st.value.add(name="NEW", number=0)
    st.value.add(name="PAID", number=1)
    m.oneof_decl.add(name="payment")
    m.oneof_decl.add(name="_priority")
    map_entry(m, "TotalsEntry", F.TYPE_STRING, F.TYPE_INT32)
    map_entry(m, "ByPosEntry", F.TYPE_INT32, F.TYPE_MESSAGE, ".t.v1.Order.Line")
    field(m, "id", 1, F.TYPE_STRING)
    field(m, "lines", 2, F.TYPE_MESSAGE, REP, ".t.v1.Order.Line")
    field(m, "totals", 3, F.TYPE_MESSAGE, REP, ".t.v1.Order.TotalsEntry")
    field(m, "status", 4, F.TYPE_ENUM, type_name=".t.v1.Order.Status")
    field(m, "card", 5, F.TYPE_STRING, oneof=0)
    field(m, "account", 6, F.TYPE_INT64, oneof=0)
    field(m, "priority", 7, F.TYPE_INT32, oneof=1, proto3_optional=True)
    field(m, "codes", 8, F.TYPE_INT32, REP)
    field(m, "first", 9, F.TYPE_MESSAGE, type_name=".t.v1.Order.Line")
    field(m, "by_pos", 10, F.TYPE_MESSAGE, REP, ".t.v1.Order.ByPosEntry")
    r = f.message_type.add(name="Refund")
    field(r, "order_id", 1, F.TYPE_STRING)
    return f


def proto2_file():
    f = descriptor_pb2.FileDescriptorProto(name="p2.proto", package="p2",
                                           syntax="proto2")
    k = f.enum_type.add(name="Kind")
    k.value.add(name="GUEST", number=0)
    k.value.add(name="ADMIN", number=1)
    m = f.message_type.add(name="User")
    field(m, "name", 1, F.TYPE_STRING, REQ)
    field(m, "age", 2, F.TYPE_INT32, default="18")
    field(m, "lang", 3, F.TYPE_STRING, default="en")
    field(m, "kind", 4, F.TYPE_ENUM, type_name=".p2.Kind", default="ADMIN")
    return f


def sale_file():
    f = descriptor_pb2.FileDescriptorProto(name="sale.proto", package="shop",
                                           syntax="proto3")
    f.dependency.append("google/protobuf/timestamp.proto")
    m = f.message_type.add(name="Sale")
    field(m, "at", 2, F.TYPE_MESSAGE, type_name=".google.protobuf.Timestamp")
    return f


pool = descriptor_pool.Default()
for fd in (scalars_file(), shapes_file(), proto2_file(), sale_file()):
    pool.Add(fd)


def cls(name):
    return GetMessageClass(pool.FindMessageTypeByName(name))


# (message, JSON value, expected hex after the message indexes) from the C test
ENCODE = [
    ("t.Scalars", '{"i32": 150}', "289601"),
    ("t.Scalars", '{"i32": -1}', "28ffffffffffffffffff01"),
    ("t.Scalars", '{"si32": -1, "si64": "-2"}', "70017803"),
    ("t.Scalars", '{"s": "h\\u00e9", "by": "AAE=", "b": true}', "40014a0368c3a952020001"),
    ("t.Scalars", '{"d": 1.5, "f": -2, "f64": "1", "f32": 1, "sf32": -1, "sf64": "-1"}',
     "09000000000000f83f15000000c0310100000000000000" "3d01000000" "65ffffffff"
     "69ffffffffffffffff"),
    ("t.Scalars", '{"i64": "9223372036854775807", "u64": 18446744073709551615, '
     '"u32": 4294967295}', "18ffffffffffffffff7f20ffffffffffffffffff0158ffffffff0f"),
    ("t.v1.Order", '{"codes": [1, 2], "totals": {"b": 2, "a": 1}}',
     "1a050a016110011a050a0162100242020102"),
    ("t.v1.Order", '{"status": 1, "account": "5"}', "20013005"),
    ("t.v1.Refund", '{"order_id": "o1"}', "0a026f31"),
    ("t.v1.Order.Line", '{"sku": "a"}', "0a0161"),
    ("shop.Sale", '{"at": "2024-02-29T12:00:00Z"}', "120608c0e381af06"),
    ("p2.User", '{"name": "A", "age": 0}', "0a01411000"),
]

# (message, hex after the indexes, JSON the C test expects)
DECODE = [
    ("t.v1.Order", "",
     '{"id":"","lines":[],"totals":{},"status":"NEW","codes":[],"by_pos":{}}'),
    ("t.v1.Order", "0a026f3112050a0161100212001a050a016110011a050a016210022001"
     "2a016338004203010203" "4a00" "5207080712030a017a",
     '{"id":"o1","lines":[{"sku":"a","qty":2},{"sku":"","qty":0}],'
     '"totals":{"a":1,"b":2},"status":"PAID","codes":[1,2,3],'
     '"first":{"sku":"","qty":0},"by_pos":{"7":{"sku":"z","qty":0}},'
     '"card":"c","priority":0}'),
    ("t.v1.Order", "1a050a016110011a050a01611002",
     '{"id":"","lines":[],"totals":{"a":2},"status":"NEW","codes":[],"by_pos":{}}'),
    ("p2.User", "0a0141", '{"name":"A","age":18,"lang":"en","kind":"ADMIN"}'),
]


def main():
    passed = failed = 0

    def check(ok, what, detail=""):
        nonlocal passed, failed
        if ok:
            passed += 1
            print("ok %d - %s" % (passed + failed, what))
        else:
            failed += 1
            print("not ok %d - %s" % (passed + failed, what))
            if detail:
                print("#   " + detail)

    for name, value, want in ENCODE:
        msg = cls(name)()
        json_format.Parse(value, msg)
        got = msg.SerializeToString(deterministic=True).hex()
        check(got == want, "encode %s %s" % (name, value), "got %s, want %s" % (got, want))

    for name, hexbytes, want in DECODE:
        msg = cls(name)()
        msg.ParseFromString(bytes.fromhex(hexbytes))
        got = json_format.MessageToJson(msg, preserving_proto_field_name=True,
                                        including_default_value_fields=True)
        check(json.loads(got) == json.loads(want), "decode %s %s" % (name, hexbytes[:16]),
              "got %s, want %s" % (got, want))

    print("protobuf oracle: %d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
