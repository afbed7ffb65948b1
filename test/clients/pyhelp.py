"""Shared helpers for the Python client tests (Debian's python3-confluent-kafka)."""
import json
import os
import sys
import traceback

URL = os.environ.get("REGISTRY_URL", "http://127.0.0.1:18081")
RUN = os.environ.get("RUN_ID", str(os.getpid()))

_passed = 0
_failed = 0


def ok(name, cond, detail=None):
    global _passed, _failed
    if cond:
        _passed += 1
        print(f"ok - {name}", flush=True)
    else:
        _failed += 1
        print(f"not ok - {name}" + (f": {detail}" if detail is not None else ""), flush=True)
    return bool(cond)


def check(name, fn):
    """Run fn; None or True passes, False or a string fails (the string
    says why), an exception fails with its text."""
    try:
        r = fn()
    except Exception as e:  # noqa: BLE001 - any failure is a failed check
        return ok(name, False, describe(e))
    if r is None or r is True:
        return ok(name, True)
    return ok(name, False, None if r is False else r)


def describe(e):
    from confluent_kafka.schema_registry.error import SchemaRegistryError
    if isinstance(e, SchemaRegistryError):
        return (f"SchemaRegistryError(http_status_code={e.http_status_code}, "
                f"error_code={e.error_code}, message={e.error_message!r})")
    tb = traceback.format_exception_only(type(e), e)
    return "".join(tb).strip().replace("\n", " | ")


def expect_error(fn, status, codes):
    """fn must raise SchemaRegistryError with this HTTP status and one of
    these Confluent error codes."""
    from confluent_kafka.schema_registry.error import SchemaRegistryError
    if isinstance(codes, int):
        codes = (codes,)
    try:
        r = fn()
    except SchemaRegistryError as e:
        if e.http_status_code != status or e.error_code not in codes:
            return f"want http {status} error_code {'/'.join(map(str, codes))}, got {describe(e)}"
        return None
    except Exception as e:  # noqa: BLE001
        return f"want SchemaRegistryError, got {describe(e)}"
    return f"no error, got {r!r}"


def finish(label):
    print(f"# {label}: {_passed} ok, {_failed} not ok", flush=True)
    sys.exit(1 if _failed else 0)


def canon(v):
    """The JSON form lib.mjs's canon() gives: bytes as {"$bytes": hex},
    keys sorted."""
    if v is None:
        return None
    if isinstance(v, (bytes, bytearray)):
        return {"$bytes": bytes(v).hex()}
    if isinstance(v, (list, tuple)):
        return [canon(x) for x in v]
    if isinstance(v, dict):
        return {k: canon(v[k]) for k in sorted(v)}
    return v


def uncanon(v):
    """The inverse of canon(): {"$bytes": hex} back to bytes."""
    if isinstance(v, list):
        return [uncanon(x) for x in v]
    if isinstance(v, dict):
        if set(v) == {"$bytes"}:
            return bytes.fromhex(v["$bytes"])
        return {k: uncanon(x) for k, x in v.items()}
    return v


def dumps(v):
    return json.dumps(canon(v), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


HERE = os.path.dirname(os.path.abspath(__file__))
