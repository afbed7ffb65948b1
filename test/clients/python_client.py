"""confluent_kafka.schema_registry.SchemaRegistryClient against the registry."""
import json
import sys

from pyhelp import URL, RUN, ok, check, expect_error, finish  # noqa: F401

from confluent_kafka.schema_registry import SchemaRegistryClient, Schema
from confluent_kafka.schema_registry.error import SchemaRegistryError  # noqa: F401

USER = {
    "type": "record", "name": "PyUser", "namespace": "test.clients",
    "fields": [
        {"name": "id", "type": "long"},
        {"name": "name", "type": "string"},
        {"name": "email", "type": ["null", "string"], "default": None},
    ],
}
USER_V2 = dict(USER, fields=USER["fields"] + [{"name": "age", "type": "int", "default": 0}])
USER_BAD = dict(USER, fields=USER["fields"] + [{"name": "age", "type": "int"}])

schema = Schema(json.dumps(USER), "AVRO")
schema2 = Schema(json.dumps(USER_V2), "AVRO")
schema_bad = Schema(json.dumps(USER_BAD), "AVRO")
unknown = Schema(json.dumps({"type": "record", "name": "Nope", "fields": []}), "AVRO")

conf = {"url": URL}
client = SchemaRegistryClient(conf)
subject = f"python-{RUN}-value"
gone = f"python-gone-{RUN}"


def fresh():
    # the client caches ids and schemas: a fresh one really asks the server
    return SchemaRegistryClient(conf)


state = {}


def t_register():
    state["id"] = client.register_schema(subject, schema)
    if not isinstance(state["id"], int) or state["id"] <= 0:
        return f"id {state['id']!r}"


def t_register_again():
    got = fresh().register_schema(subject, schema)
    if got != state["id"]:
        return f"got {got}, want {state['id']}"


def t_get_schema():
    s = fresh().get_schema(state["id"])
    if json.loads(s.schema_str) != USER:
        return f"schema_str {s.schema_str}"
    if s.schema_type != "AVRO":
        return f"schema_type {s.schema_type}"


def t_latest():
    r = fresh().get_latest_version(subject)
    if (r.schema_id, r.version, r.subject) != (state["id"], 1, subject):
        return f"got id={r.schema_id} version={r.version} subject={r.subject}"
    if json.loads(r.schema.schema_str) != USER:
        return f"schema {r.schema.schema_str}"


def t_version():
    r = fresh().get_version(subject, 1)
    if (r.schema_id, r.version) != (state["id"], 1):
        return f"got id={r.schema_id} version={r.version}"


def t_lookup():
    r = fresh().lookup_schema(subject, schema)
    if (r.schema_id, r.version, r.subject) != (state["id"], 1, subject):
        return f"got id={r.schema_id} version={r.version} subject={r.subject}"


def t_compat_true():
    r = client.test_compatibility(subject, schema2)
    if r is not True:
        return f"got {r!r}"


def t_compat_false():
    r = client.test_compatibility(subject, schema_bad)
    if r is not False:
        return f"got {r!r}"


def t_compat_version():
    r = client.test_compatibility(subject, schema2, version=1)
    if r is not True:
        return f"got {r!r}"


def t_set_compat():
    r = client.set_compatibility(subject_name=subject, level="full")
    if r != {"compatibility": "FULL"}:
        return f"set_compatibility returned {r!r}"
    got = client.get_compatibility(subject)
    if got != "FULL":
        return f"get_compatibility returned {got!r}"
    r = client.set_compatibility(subject_name=subject, level="BACKWARD")
    if client.get_compatibility(subject) != "BACKWARD":
        return "could not set back to BACKWARD"


def t_global_compat():
    got = client.get_compatibility()
    if got not in ("NONE", "BACKWARD", "FORWARD", "FULL", "BACKWARD_TRANSITIVE",
                   "FORWARD_TRANSITIVE", "FULL_TRANSITIVE"):
        return f"got {got!r}"


def t_register_v2():
    state["id2"] = client.register_schema(subject, schema2)
    if not state["id2"] > state["id"]:
        return f"id {state['id2']}"
    v = fresh().get_versions(subject)
    if v != [1, 2]:
        return f"get_versions {v!r}"


def t_subjects():
    s = client.get_subjects()
    if subject not in s:
        return f"{subject} not in {s!r}"


def t_soft_delete():
    r = client.delete_subject(subject)
    if r != [1, 2]:
        return f"got {r!r}"
    if subject in client.get_subjects():
        return "still listed by get_subjects"
    # consumers must still read old messages: ids stay resolvable
    s = fresh().get_schema(state["id"])
    if json.loads(s.schema_str) != USER:
        return f"get_schema(id) after soft delete: {s.schema_str}"


def t_permanent_delete():
    fresh().register_schema(gone, schema)
    # python's delete_subject(permanent=True) sends the soft delete then
    # DELETE ?permanent=true
    r = client.delete_subject(gone, permanent=True)
    if r != [1]:
        return f"got {r!r}"
    if gone in client.get_subjects():
        return "still listed by get_subjects"


check("python register_schema", t_register)
check("python register_schema again returns the same id", t_register_again)
check("python get_schema(id)", t_get_schema)
check("python get_latest_version", t_latest)
check("python get_version(subject, 1)", t_version)
check("python lookup_schema", t_lookup)
check("python lookup_schema of an unknown schema: SchemaRegistryError 404 / 40403",
      lambda: expect_error(lambda: fresh().lookup_schema(subject, unknown), 404, 40403))
check("python lookup_schema under an unknown subject: SchemaRegistryError 404 / 40401",
      lambda: expect_error(lambda: fresh().lookup_schema(f"nosuch-{RUN}", schema), 404, 40401))
check("python get_schema of an unknown id: 404 / 40403",
      lambda: expect_error(lambda: fresh().get_schema(999999999), 404, 40403))
check("python get_latest_version of an unknown subject: 404 / 40401",
      lambda: expect_error(lambda: fresh().get_latest_version(f"nosuch-{RUN}"), 404, 40401))
check("python get_version of an unknown version: 404 / 40402",
      lambda: expect_error(lambda: fresh().get_version(subject, 42), 404, 40402))
check("python test_compatibility (compatible) is True", t_compat_true)
check("python test_compatibility (incompatible) is False", t_compat_false)
check("python test_compatibility(version=1) is True", t_compat_version)
# error_code 40901 in current Confluent, 409 before it: the status is what counts
check("python register_schema incompatible: SchemaRegistryError 409",
      lambda: expect_error(lambda: fresh().register_schema(subject, schema_bad), 409, (409, 40901)))
check("python register_schema invalid Avro: 422 / 42201",
      lambda: expect_error(lambda: fresh().register_schema(subject, Schema('{"type":"record","name":"X"}', "AVRO")),
                           422, 42201))
check("python set_compatibility / get_compatibility (subject)", t_set_compat)
check("python get_compatibility (global)", t_global_compat)
check("python set_compatibility with an invalid level: 422 / 42203",
      lambda: expect_error(lambda: client.set_compatibility(subject_name=subject, level="sideways"), 422, 42203))
check("python register v2 / get_versions", t_register_v2)
check("python get_subjects", t_subjects)
check("python delete_subject (soft)", t_soft_delete)
check("python get_versions after soft delete: 404 / 40401",
      lambda: expect_error(lambda: fresh().get_versions(subject), 404, 40401))
check("python delete_subject(permanent=True)", t_permanent_delete)
check("python get_versions after permanent delete: 404 / 40401",
      lambda: expect_error(lambda: fresh().get_versions(gone), 404, 40401))

def t_delete_version():
    s = f"python-ver-{RUN}"
    c = fresh()
    c.register_schema(s, schema)
    c.register_schema(s, schema2)
    r = c.delete_version(s, 2)
    if r != 2:
        return f"delete_version returned {r!r}"
    v = fresh().get_versions(s)
    if v != [1]:
        return f"get_versions after delete_version {v!r}"
    c.delete_subject(s, permanent=True)


def t_odd_subject():
    s = f"py odd {RUN}/é?&%-value"
    c = fresh()
    sid = c.register_schema(s, schema)
    r = fresh().get_latest_version(s)
    if (r.subject, r.schema_id) != (s, sid):
        return f"get_latest_version subject={r.subject!r} id={r.schema_id}"
    if s not in c.get_subjects():
        return f"{s!r} not in get_subjects"
    if fresh().lookup_schema(s, schema).schema_id != sid:
        return "lookup_schema id differs"
    if c.get_versions(s) != [1]:
        return f"get_versions {c.get_versions(s)!r}"
    c.delete_subject(s, permanent=True)


check("python delete_version", t_delete_version)
check("python subject that needs URL encoding (space, slash, unicode)", t_odd_subject)

finish("python_client.py")
