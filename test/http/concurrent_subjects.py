#!/usr/bin/env python3
"""CLIENTS HTTP clients, each registering into a subject of its own, send
the same SCHEMAS new Avro schemas in the same order, all clients released
together for each schema (a barrier), so the same new schema is inserted
by several transactions at once.  Every registration must answer 200, and
every client must get the same id for the same schema.

usage: concurrent_subjects.py URL SUBJECT-PREFIX [CLIENTS] [SCHEMAS]
Prints "ok - ..." / "not ok - ..." lines; exit status 0 if all passed.
"""
import http.client
import json
import sys
import threading
import urllib.parse

url = urllib.parse.urlsplit(sys.argv[1])
prefix = sys.argv[2]
clients = int(sys.argv[3]) if len(sys.argv) > 3 else 8
nschemas = int(sys.argv[4]) if len(sys.argv) > 4 else 50
host, port = url.hostname, url.port or 80
CT = "application/vnd.schemaregistry.v1+json"


def schema(k):
    """Record with k optional fields: each one new to the registry, and
    any two of them BACKWARD compatible."""
    fields = [{"name": "f%d" % i, "type": ["null", "long"], "default": None}
              for i in range(k + 1)]
    return json.dumps({"type": "record", "name": "Shared", "namespace": "http.race",
                       "fields": fields}, separators=(",", ":"))


barrier = threading.Barrier(clients, timeout=30)
ids = [dict() for _ in range(clients)]
failures = []
lock = threading.Lock()


def client(n):
    conn = http.client.HTTPConnection(host, port, timeout=30)
    path = "/subjects/%s/versions" % urllib.parse.quote("%s-%d" % (prefix, n), safe="")
    for k in range(nschemas):
        body = json.dumps({"schema": schema(k)})
        try:
            barrier.wait()
            conn.request("POST", path, body, {"Content-Type": CT})
            resp = conn.getresponse()
            data = resp.read().decode("utf-8", "replace")
        except Exception as e:  # a dropped connection or a broken barrier
            with lock:
                failures.append("client %d schema %d: %r" % (n, k, e))
            return
        if resp.status != 200:
            with lock:
                failures.append("client %d schema %d: HTTP %d %s" % (n, k, resp.status, data[:200]))
            continue
        ids[n][k] = json.loads(data)["id"]
    conn.close()


threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
for t in threads:
    t.start()
for t in threads:
    t.join(120)

ok = True
if failures:
    ok = False
    print("not ok - every registration answered 200 :: %d failures, first: %s"
          % (len(failures), failures[0]))
else:
    print("ok - every registration answered 200 (%d clients x %d schemas)" % (clients, nschemas))
disagree = [k for k in range(nschemas)
            if len({ids[n].get(k) for n in range(clients)}) != 1 or ids[0].get(k) is None]
if disagree:
    ok = False
    print("not ok - one id per schema across subjects :: %d schemas disagree, e.g. schema %d: %s"
          % (len(disagree), disagree[0], [ids[n].get(disagree[0]) for n in range(clients)]))
else:
    print("ok - one id per schema across subjects")
sys.exit(0 if ok else 1)
