"""Python side of the cross-client test: python_cross.py DIR
encodes DIR/value-python.json with AvroSerializer (auto.register.schemas
False: it looks the schema up) into DIR/python.hex, and decodes the node
clients' DIR/kafkajs.hex and DIR/confluent.hex with AvroDeserializer."""
import json
import os
import sys

import fastavro_shim
from pyhelp import URL, RUN, check, finish, canon, uncanon, dumps

backend = fastavro_shim.install()
print(f"# python Avro backend: {backend}", flush=True)

from confluent_kafka.schema_registry import SchemaRegistryClient  # noqa: E402
from confluent_kafka.schema_registry.avro import AvroSerializer, AvroDeserializer  # noqa: E402
from confluent_kafka.serialization import SerializationContext, MessageField  # noqa: E402

d = sys.argv[1]
topic = f"cross-{RUN}"
ctx = SerializationContext(topic, MessageField.VALUE)
schema_str = open(os.path.join(d, "schema.json")).read()
tag = "" if backend == "fastavro" else f" [{backend}]"


def expected(enc):
    return json.load(open(os.path.join(d, f"value-{enc}.json")))


def t_encode():
    ser = AvroSerializer(SchemaRegistryClient({"url": URL}), schema_str,
                         conf={"auto.register.schemas": False})
    buf = ser(uncanon(expected("python")), ctx)
    if buf[0] != 0:
        return f"magic {buf[0]}"
    open(os.path.join(d, "python.hex"), "w").write(buf.hex())


check(f"cross encode with python AvroSerializer (auto.register.schemas False){tag}", t_encode)

de = AvroDeserializer(SchemaRegistryClient({"url": URL}))
for enc in ("kafkajs", "confluent"):
    def t_decode(enc=enc):
        p = os.path.join(d, f"{enc}.hex")
        if not os.path.exists(p):
            return f"no {enc}.hex (the {enc} encode failed)"
        back = canon(de(bytes.fromhex(open(p).read().strip()), ctx))
        want = expected(enc)
        if back != want:
            return f"decoded {dumps(back)}, want {json.dumps(want, sort_keys=True)}"
    check(f"cross {enc} bytes -> python AvroDeserializer decode{tag}", t_decode)

finish("python_cross.py")
