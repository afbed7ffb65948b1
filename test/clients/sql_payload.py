"""Payloads in SQL against the real clients' bytes: sql_payload.py FORMAT DIR,
run after the clients of that format wrote their bytes into DIR and before
the node clients decode the ones written here.

For every payload a client encoded (kafkajs, @confluentinc, python):
registry.decode(bytes) gives the value the client encoded, and
registry.encode() of that value under the same subject and version gives
the same bytes back (AVRO and PROTOBUF encodings are deterministic; JSON
text is compared as JSON).  Then SQL encodes the same values itself into
DIR/*-sql*.hex, which python's deserializers read here and the node
clients read in their decode step.

AVRO also covers logical types and a reference: a Payment record whose
total is a test.pay.Money record from another subject, with uuid,
timestamp-millis/-micros, date and decimal fields.  python3-avro (an
implementation of its own, with its own logical types) writes one and
reads SQL's."""
import base64
import datetime
import decimal
import io
import json
import os
import subprocess
import sys
import uuid

from pyhelp import RUN, check, finish, canon, uncanon, dumps

fmt, d = sys.argv[1], sys.argv[2]
DB = os.environ.get("PGDATABASE", "postgres")


def sql(query, **params):
    """One query through psql (psql variables carry the parameters, quoted
    by psql): its single value, or the error text as a RuntimeError."""
    args = ["psql", "-XAtq", "-v", "ON_ERROR_STOP=1", "-d", DB]
    for k, v in params.items():
        args += ["-v", f"{k}={v}"]
    r = subprocess.run(args, input=query, capture_output=True, text=True, timeout=60)
    if r.returncode != 0:
        raise RuntimeError(r.stderr.strip())
    return r.stdout.rstrip("\n")


def hexfile(name):
    p = os.path.join(d, name)
    return open(p).read().strip() if os.path.exists(p) else None


def decode(hx):
    return json.loads(sql("SELECT registry.decode(decode(:'b', 'hex'))", b=hx))


def reencode(subject, hx, message=None):
    """encode(subject, decode(bytes), the version of the bytes' id) as hex."""
    return sql("""SELECT encode(registry.encode(:'s', registry.decode(decode(:'b', 'hex')),
                      (SELECT v.version::text
                         FROM registry.schema_versions((registry.wire_parse(decode(:'b', 'hex'), :'p'::boolean)).schema_id, :'s') v
                        WHERE v.subject_name = :'s'),
                      NULLIF(:'m', '')), 'hex')""",
               s=subject, b=hx, p=str(fmt == "PROTOBUF").lower(), m=message or "")


def encode(subject, value, message=None, schema_id=None):
    """registry.encode() as hex: the latest version, or the subject's
    version of schema_id."""
    version = "'latest'" if schema_id is None else f"""(SELECT v.version::text
        FROM registry.schema_versions({int(schema_id)}, :'s') v WHERE v.subject_name = :'s')"""
    return sql(f"SELECT encode(registry.encode(:'s', :'v'::jsonb, {version}, NULLIF(:'m', '')), 'hex')",
               s=subject, v=json.dumps(value), m=message or "")


def same_bytes(subject, hx, message=None):
    back = reencode(subject, hx, message)
    if back != hx:
        return f"re-encoded {back}, want {hx}"


# --- AVRO ----------------------------------------------------------------
# The registry's JSON form of Avro values: bytes as base64, an optional
# value (["null", T]) unwrapped.
def avro_from_sql(v):
    """A decoded User in lib.mjs's canon() form."""
    v = dict(v)
    v["blob"] = {"$bytes": base64.b64decode(v["blob"]).hex()}
    if isinstance(v.get("email"), dict):
        return f"email still wrapped: {v['email']}"
    return canon(v)


def avro_to_sql(canon_value):
    v = dict(canon_value)
    v["blob"] = base64.b64encode(bytes.fromhex(v["blob"]["$bytes"])).decode()
    return v


MONEY = {"type": "record", "name": "Money", "namespace": "test.pay", "fields": [
    {"name": "amount", "type": {"type": "bytes", "logicalType": "decimal", "precision": 12, "scale": 2}},
    {"name": "currency", "type": "string"}]}
PAYMENT = {"type": "record", "name": "Payment", "namespace": "test.pay", "fields": [
    {"name": "id", "type": {"type": "string", "logicalType": "uuid"}},
    {"name": "at", "type": {"type": "long", "logicalType": "timestamp-millis"}},
    {"name": "micros", "type": {"type": "long", "logicalType": "timestamp-micros"}},
    {"name": "day", "type": {"type": "int", "logicalType": "date"}},
    {"name": "total", "type": "test.pay.Money"},
    {"name": "note", "type": ["null", "string"], "default": None}]}
PAY_JSON = {"id": "0b5e6a4c-8d7f-4e2a-9c1b-3f2e1d0c9b8a", "at": "2024-02-29T12:34:56.789Z",
            "micros": "2024-02-29T12:34:56.789123Z", "day": "2024-02-29",
            "total": {"amount": 12345.67, "currency": "EUR"}, "note": "first"}
UTC = datetime.timezone.utc
PAY_PY = {"id": str(uuid.UUID(PAY_JSON["id"])),
          "at": datetime.datetime(2024, 2, 29, 12, 34, 56, 789000, tzinfo=UTC),
          "micros": datetime.datetime(2024, 2, 29, 12, 34, 56, 789123, tzinfo=UTC),
          "day": datetime.date(2024, 2, 29),
          "total": {"amount": decimal.Decimal("12345.67"), "currency": "EUR"}, "note": "first"}


def payment_schema():
    """Payment with Money inlined: what python3-avro reads and writes."""
    import avro.schema
    full = dict(PAYMENT)
    full["fields"] = [dict(f, type=MONEY) if f["name"] == "total" else f for f in PAYMENT["fields"]]
    return avro.schema.parse(json.dumps(full))


def register_payment():
    """Money and Payment registered in SQL, Payment referring to Money."""
    money_subject, pay_subject = f"pay-money-{RUN}", f"pay-{RUN}-value"
    sql("SELECT registry.register_schema(:'s', :'t')", s=money_subject, t=json.dumps(MONEY))
    refs = json.dumps([{"name": "test.pay.Money", "subject": money_subject, "version": 1}])
    pid = sql("SELECT registry.register_schema(:'s', :'t', 'AVRO', :'r')",
              s=pay_subject, t=json.dumps(PAYMENT), r=refs)
    return pay_subject, int(pid)


def avro_checks():
    subject = f"cross-{RUN}-value"
    want = {enc: json.load(open(os.path.join(d, f"value-{enc}.json")))
            for enc in ("kafkajs", "confluent", "python")}
    for enc in ("kafkajs", "confluent", "python"):
        hx = hexfile(f"{enc}.hex")

        def t_decode(hx=hx, enc=enc):
            if hx is None:
                return f"no {enc}.hex (the {enc} encode failed)"
            got = avro_from_sql(decode(hx))
            if got != want[enc]:
                return f"decoded {dumps(got)}, want {dumps(want[enc])}"
        check(f"sql avro registry.decode of {enc} bytes", t_decode)
        check(f"sql avro registry.encode(decode({enc} bytes)): the same bytes",
              lambda hx=hx: "no bytes" if hx is None else same_bytes(subject, hx))

    # SQL encodes; the python deserializer reads it (node reads it in cross.mjs)
    value = dict(want["python"], name="ünïcødé from-sql", email="from-sql@example.org")
    open(os.path.join(d, "value-sql.json"), "w").write(json.dumps(value))

    def t_sql_encode():
        open(os.path.join(d, "sql.hex"), "w").write(encode(subject, avro_to_sql(value)))
    check("sql avro registry.encode of a User", t_sql_encode)

    def t_python_reads():
        import fastavro_shim
        fastavro_shim.install()
        from confluent_kafka.schema_registry import SchemaRegistryClient
        from confluent_kafka.schema_registry.avro import AvroDeserializer
        from confluent_kafka.serialization import SerializationContext, MessageField
        from pyhelp import URL
        hx = hexfile("sql.hex")
        if hx is None:
            return "no sql.hex"
        back = AvroDeserializer(SchemaRegistryClient({"url": URL}))(
            bytes.fromhex(hx), SerializationContext(f"cross-{RUN}", MessageField.VALUE))
        if canon(back) != value:
            return f"decoded {dumps(back)}, want {dumps(value)}"
    check("sql avro SQL bytes -> python AvroDeserializer", t_python_reads)

    payment_checks()


def payment_checks():
    import avro.io
    state = {}

    def t_register():
        state["subject"], state["id"] = register_payment()
    if not check("sql avro register Money and Payment (a reference) in SQL", t_register):
        return
    subject, sid = state["subject"], state["id"]
    header = b"\x00" + sid.to_bytes(4, "big")
    schema = payment_schema()

    def t_encode():
        hx = encode(subject, PAY_JSON)
        state["hex"] = hx
        open(os.path.join(d, "sql-payment.hex"), "w").write(hx)
        open(os.path.join(d, "sql-payment.json"), "w").write(json.dumps({"subject": subject, "id": sid}))
        if not hx.startswith(header.hex()):
            return f"header {hx[:10]}, want {header.hex()}"
    if not check("sql avro registry.encode of a Payment (uuid, timestamps, date, decimal, a reference)", t_encode):
        return

    def t_python_reads():
        raw = bytes.fromhex(state["hex"])[5:]
        back = avro.io.DatumReader(schema).read(avro.io.BinaryDecoder(io.BytesIO(raw)))
        if back != PAY_PY:
            return f"python3-avro read {back!r}, want {PAY_PY!r}"
        out = io.BytesIO()
        avro.io.DatumWriter(schema).write(back, avro.io.BinaryEncoder(out))
        if out.getvalue() != raw:
            return f"python3-avro writes {out.getvalue().hex()}, SQL wrote {raw.hex()}"
    check("sql avro SQL Payment bytes -> python3-avro: the same values, and it writes the same bytes", t_python_reads)

    def t_python_writes():
        out = io.BytesIO()
        value = dict(PAY_PY, note=None, total={"amount": decimal.Decimal("-0.05"), "currency": "USD"})
        avro.io.DatumWriter(schema).write(value, avro.io.BinaryEncoder(out))
        hx = (header + out.getvalue()).hex()
        got = decode(hx)
        want = dict(PAY_JSON, note=None, total={"amount": -0.05, "currency": "USD"})
        if got != want:
            return f"decoded {json.dumps(got, sort_keys=True)}, want {json.dumps(want, sort_keys=True)}"
        return same_bytes(subject, hx)
    check("sql avro python3-avro Payment bytes -> registry.decode, and encode gives them back", t_python_writes)


# --- PROTOBUF --------------------------------------------------------------
def pb_checks():
    from google.protobuf import descriptor_pb2, descriptor_pool, json_format, message_factory
    fds = descriptor_pb2.FileDescriptorSet()
    fds.ParseFromString(open(os.path.join(d, "protos.binpb"), "rb").read())
    pool = descriptor_pool.DescriptorPool()
    for f in fds.file:
        pool.Add(f)
    factory = message_factory.MessageFactory(pool)
    ids = json.load(open(os.path.join(d, "pb-ids.json")))
    values = json.load(open(os.path.join(d, "pb-values.json")))
    subject = ids["subject"]

    def msg(name, js):
        """A proto3 JSON value as a message (either field-name form)."""
        m = factory.GetPrototype(pool.FindMessageTypeByName(f"test.clients.shop.{name}"))()
        json_format.Parse(json.dumps(js), m)
        return m

    sources = [(f"pb-confluent-{n}.hex", n) for n in ("Order", "Refund", "Order.Line")]
    sources.append(("pb-python-Order.hex", "Order"))
    for file, name in sources:
        hx = hexfile(file)

        def t_decode(hx=hx, name=name, file=file):
            if hx is None:
                return f"no {file}"
            got = decode(hx)
            if msg(name, got) != msg(name, values[name]):
                return f"decoded {json.dumps(got)}, want {json.dumps(values[name])}"
        check(f"sql protobuf registry.decode of {file}", t_decode)

        def t_same(hx=hx, name=name, file=file):
            if hx is None:
                return f"no {file}"
            if name == "Order":
                # a map's entries may be written in any order: compare values
                back = reencode(subject, hx, f"test.clients.shop.{name}")
                if decode(back) != decode(hx) or back[:12] != hx[:12]:
                    return f"re-encoded {back}, want the value of {hx}"
                return None
            return same_bytes(subject, hx, f"test.clients.shop.{name}")
        check(f"sql protobuf registry.encode(decode({file})): the same payload", t_same)

    for name in ("Order", "Order.Line"):
        def t_sql_encode(name=name):
            hx = encode(subject, values[name], f"test.clients.shop.{name}")
            open(os.path.join(d, f"pb-sql-{name}.hex"), "w").write(hx)
            raw = bytes.fromhex(hx)
            want_idx = "00" if name == "Order" else "040000"
            if raw[0] != 0 or int.from_bytes(raw[1:5], "big") != ids["shop"] or raw[5:5 + len(want_idx) // 2].hex() != want_idx:
                return f"header {hx[:16]}, want 00, id {ids['shop']}, indexes {want_idx}"
            m = factory.GetPrototype(pool.FindMessageTypeByName(f"test.clients.shop.{name}"))()
            m.ParseFromString(raw[5 + len(want_idx) // 2:])
            if m != msg(name, values[name]):
                return f"python3-protobuf parses {json_format.MessageToJson(m)}"
        check(f"sql protobuf registry.encode of {name}: header, indexes, python3-protobuf parses it", t_sql_encode)


# --- JSON --------------------------------------------------------------------
def json_checks():
    ids = json.load(open(os.path.join(d, "json-ids.json")))
    values = json.load(open(os.path.join(d, "json-values.json")))
    subject = open(os.path.join(d, "json-subject.txt")).read()
    for enc in ("kafkajs", "confluent", "python"):
        hx = hexfile(f"json-{enc}.hex")

        def t_decode(hx=hx, enc=enc):
            if hx is None:
                return f"no json-{enc}.hex"
            got = decode(hx)
            if got != values[enc]:
                return f"decoded {json.dumps(got)}, want {json.dumps(values[enc])}"
            back = reencode(subject, hx)
            if back[:10] != hx[:10] or json.loads(bytes.fromhex(back)[5:]) != values[enc]:
                return f"re-encoded {back}"
        check(f"sql json registry.decode of {enc} bytes, and encode of the value", t_decode)

    def t_sql_encode():
        value = dict(values["python"])
        hx = encode(subject, value, schema_id=ids["order"])
        open(os.path.join(d, "json-sql.hex"), "w").write(hx)
        values["sql"] = value
        open(os.path.join(d, "json-values.json"), "w").write(json.dumps(values))
        if int.from_bytes(bytes.fromhex(hx)[1:5], "big") != ids["order"]:
            return f"header {hx[:10]}, want id {ids['order']}"
    check("sql json registry.encode of an order", t_sql_encode)

    def t_refused():
        try:
            encode(subject, {"id": "not a number"})
        except RuntimeError as e:
            return None if "ERROR" in str(e) else str(e)
        return "a value the schema refuses was encoded"
    check("sql json registry.encode refuses a value the schema does not allow", t_refused)


{"AVRO": avro_checks, "PROTOBUF": pb_checks, "JSON": json_checks}[fmt]()
finish(f"sql_payload.py {fmt}")
