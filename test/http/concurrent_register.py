#!/usr/bin/env python3
"""8 HTTP clients register the same 50 mutually BACKWARD-compatible Avro
schemas into one subject, each in its own order, over keep-alive
connections (http.client, one connection per client).  Afterwards the
subject must have versions 1..50 without a gap, 50 distinct ids, and every
client must have received the same id for the same schema.

usage: concurrent_register.py URL SUBJECT [CLIENTS] [SCHEMAS]
Prints "ok - ..." / "not ok - ..." lines; exit status 0 if all passed.
"""
import http.client
import json
import random
import sys
import threading
import urllib.parse

url = urllib.parse.urlsplit(sys.argv[1])
subject = sys.argv[2]
clients = int(sys.argv[3]) if len(sys.argv) > 3 else 8
nschemas = int(sys.argv[4]) if len(sys.argv) > 4 else 50
host, port = url.hostname, url.port or 80
quoted = urllib.parse.quote(subject, safe="")
CT = "application/vnd.schemaregistry.v1+json"


def schema(k):
    """Record with one required field and k optional fields with defaults:
    any two of these can read each other's data (BACKWARD both ways)."""
    fields = [{"name": "id", "type": "long"}]
    fields += [{"name": "opt%d" % i, "type": ["null", "string"], "default": None}
               for i in range(1, k + 1)]
    return json.dumps({"type": "record", "name": "Conc", "namespace": "http.test",
                       "fields": fields}, separators=(",", ":"))


schemas = [schema(k) for k in range(nschemas)]
results = [dict() for _ in range(clients)]   # schema index -> id
errors = []
lock = threading.Lock()


def request(conn, method, path, body=None):
    headers = {"Accept": CT}
    if body is not None:
        headers["Content-Type"] = CT
    conn.request(method, path, body=body, headers=headers)
    r = conn.getresponse()
    return r.status, r.read()


def client(n):
    order = list(range(nschemas))
    random.Random(1000 + n).shuffle(order)
    conn = http.client.HTTPConnection(host, port, timeout=30)
    try:
        for k in order:
            body = json.dumps({"schema": schemas[k]})
            try:
                status, data = request(conn, "POST", "/subjects/%s/versions" % quoted, body)
            except (OSError, http.client.HTTPException) as e:
                # the connection broke: note it, reconnect, go on
                with lock:
                    errors.append("client %d schema %d: %r" % (n, k, e))
                conn.close()
                conn = http.client.HTTPConnection(host, port, timeout=30)
                continue
            if status != 200:
                with lock:
                    errors.append("client %d schema %d: HTTP %d %s"
                                  % (n, k, status, data[:300].decode("utf-8", "replace")))
                continue
            results[n][k] = json.loads(data)["id"]
    finally:
        conn.close()


threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
for t in threads:
    t.start()
for t in threads:
    t.join(120)
hung = [i for i, t in enumerate(threads) if t.is_alive()]

failed = 0


def check(ok, name, detail=""):
    global failed
    if ok:
        print("ok - " + name)
    else:
        failed += 1
        print("not ok - " + name + (" :: " + detail if detail else ""))


check(not hung, "concurrency: every client finished within 120 s", "hung: %r" % hung)
check(not errors, "concurrency: %d clients x %d registrations all answered 200" % (clients, nschemas),
      "; ".join(errors[:5]) + (" (+%d more)" % (len(errors) - 5) if len(errors) > 5 else ""))

# same id for the same schema in every client
disagree = []
for k in range(nschemas):
    ids = {results[n].get(k) for n in range(clients)} - {None}
    if len(ids) > 1:
        disagree.append((k, sorted(ids)))
check(not disagree, "concurrency: every client got the same id for the same schema",
      "schema index -> ids: %r" % disagree[:5])

conn = http.client.HTTPConnection(host, port, timeout=30)
status, data = request(conn, "GET", "/subjects/%s/versions" % quoted)
versions = json.loads(data) if status == 200 else None
check(versions == list(range(1, nschemas + 1)),
      "concurrency: versions are exactly 1..%d" % nschemas, "HTTP %d %r" % (status, versions))

by_version = {}
for v in (versions or []):
    status, data = request(conn, "GET", "/subjects/%s/versions/%d" % (quoted, v))
    if status == 200:
        d = json.loads(data)
        by_version[v] = (d["id"], d["schema"])
ids = [i for i, _ in by_version.values()]
check(len(ids) == nschemas and len(set(ids)) == nschemas,
      "concurrency: %d distinct ids over the %d versions" % (nschemas, nschemas),
      "%d versions read, %d distinct ids" % (len(ids), len(set(ids))))

# the id each client received is the id the registry looks the schema up as
mismatch = []
stored_ids = set(ids)
for k in range(nschemas):
    got = {results[n].get(k) for n in range(clients)} - {None}
    status, data = request(conn, "POST", "/subjects/%s" % quoted, json.dumps({"schema": schemas[k]}))
    found = json.loads(data).get("id") if status == 200 else None
    if found is None or found not in stored_ids or got != {found}:
        mismatch.append((k, sorted(got), found))
check(not mismatch, "concurrency: ids returned to clients match the registry's lookup of each schema",
      "schema index, ids returned, id looked up: %r" % mismatch[:5])
conn.close()
sys.exit(1 if failed else 0)
