"""registry.encode / registry.decode in SQL against Confluent's Python
AvroSerializer and AvroDeserializer: a message the Python client writes
decodes in SQL to the registry's JSON form of the value, and a message SQL
writes decodes in Python to the same value.  SQL runs through psql (PGHOST,
PGPORT and PGUSER as make test sets them)."""
import base64
import json
import subprocess

import fastavro_shim
from pyhelp import URL, RUN, check, finish

backend = fastavro_shim.install()
print(f"# python Avro backend: {backend}", flush=True)

from confluent_kafka.schema_registry import SchemaRegistryClient, Schema  # noqa: E402
from confluent_kafka.schema_registry.avro import AvroSerializer, AvroDeserializer  # noqa: E402
from confluent_kafka.serialization import SerializationContext, MessageField  # noqa: E402

topic = f"sqlpay-{RUN}"
subject = f"{topic}-value"
ctx = SerializationContext(topic, MessageField.VALUE)
schema_str = json.dumps({
    "type": "record", "name": "Payment", "namespace": "shop", "fields": [
        {"name": "id", "type": "long"},
        {"name": "who", "type": "string"},
        {"name": "note", "type": ["null", "string"], "default": None},
        {"name": "raw", "type": "bytes"},
        {"name": "amount", "type": "double"},
        {"name": "kind", "type": {"type": "enum", "name": "Kind", "symbols": ["CARD", "CASH"]}},
        {"name": "tags", "type": {"type": "array", "items": "string"}},
        {"name": "attrs", "type": {"type": "map", "values": "int"}},
    ]})
value = {"id": 9007199254740993, "who": "Zo\u00e9", "note": "first", "raw": b"\x00\x01\xff",
         "amount": 12.25, "kind": "CASH", "tags": ["a", "b"], "attrs": {"x": -1}}
# the same value in the registry's JSON form (bytes as base64)
value_json = dict(value, raw=base64.b64encode(value["raw"]).decode())

client = SchemaRegistryClient({"url": URL})
client.register_schema(subject, Schema(schema_str, "AVRO"))


def sql(query, *args):
    """One value from psql (-At), args bound as psql variables."""
    cmd = ["psql", "-qAtX", "-v", "ON_ERROR_STOP=1", "-d", "postgres"]
    for i, a in enumerate(args):
        cmd += ["-v", f"a{i}={a}"]
    out = subprocess.run(cmd, input=query, capture_output=True, text=True, timeout=60)
    if out.returncode != 0:
        raise RuntimeError(out.stderr.strip())
    return out.stdout.strip()


def t_python_to_sql():
    ser = AvroSerializer(client, schema_str, conf={"auto.register.schemas": False})
    msg = ser(value, ctx)
    got = json.loads(sql("SELECT registry.decode(decode(:'a0', 'hex'))", msg.hex()))
    if got != value_json:
        return f"SQL decoded {got}, want {value_json}"


def t_sql_to_python():
    msg = bytes.fromhex(sql("SELECT encode(registry.encode(:'a0', :'a1'::jsonb), 'hex')",
                            subject, json.dumps(value_json)))
    got = AvroDeserializer(client)(msg, ctx)
    if got != value:
        return f"python decoded {got!r}, want {value!r}"


check(f"python AvroSerializer bytes -> registry.decode [{backend}]", t_python_to_sql)
check(f"registry.encode bytes -> python AvroDeserializer [{backend}]", t_sql_to_python)
finish("payload_python.py")
