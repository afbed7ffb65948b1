#!/usr/bin/env python3
"""A cheap request does not wait behind long ones.  SLOW clients, each on a
keep-alive connection of its own, send a long compatibility check at once
(a change at the root of a union of 3,000 records, each holding the one
before: the checker walks pairs of them until its budget, 42201, as in
test/tap/t/080_cancel.pl); once one of them runs, another client asks GET
/schemas/ids/{id} on a new connection.  With as many slow clients as HTTP
workers or more, every worker has a long request on one of its
connections, so an HTTP worker that ran them itself would answer the GET
only after one of them.  The test asserts orderings, not times: the GET is
answered before the first check is, and took less than half as long as
the shortest check.

usage: long_requests.py URL SUBJECT [SLOW [DATABASE]]
(psql, with the PG* environment, looks for the checks in pg_stat_activity)
Prints "ok - ..." / "not ok - ... :: detail" lines.
"""
import http.client
import json
import subprocess
import sys
import threading
import time
import urllib.parse

url = urllib.parse.urlsplit(sys.argv[1])
subject = sys.argv[2]
slow = int(sys.argv[3]) if len(sys.argv) > 3 else 4
database = sys.argv[4] if len(sys.argv) > 4 else "postgres"
RECORDS = 3000
host, port = url.hostname, url.port or 80
CT = "application/vnd.schemaregistry.v1+json"


def chain(leaf_type):
    records = [{"type": "record", "name": "R0", "fields": [{"name": "a", "type": leaf_type}]}]
    for i in range(1, RECORDS):
        records.append({"type": "record", "name": "R%d" % i,
                        "fields": [{"name": "f", "type": "R%d" % (i - 1)}]})
    return json.dumps(records, separators=(",", ":"))


def call(method, path, body=None, conn=None):
    own = conn is None
    if own:
        conn = http.client.HTTPConnection(host, port, timeout=120)
    headers = {"Content-Type": CT} if body is not None else {}
    conn.request(method, path, body, headers)
    resp = conn.getresponse()
    data = resp.read()
    if own:
        conn.close()
    return resp.status, data


def report(ok, name, detail=""):
    print(("ok - %s" % name) if ok else ("not ok - %s :: %s" % (name, detail)), flush=True)


quoted = urllib.parse.quote(subject, safe="")
st, data = call("POST", "/subjects/%s/versions" % quoted, json.dumps({"schema": chain("int")}))
if st != 200:
    report(False, "the chain of 1,500 records is registered", "%d %s" % (st, data[:200]))
    sys.exit(1)
st, data = call("POST", "/subjects/%s-small/versions" % quoted, json.dumps({"schema": '"string"'}))
small_id = json.loads(data)["id"]
call("GET", "/schemas/ids/%d" % small_id)

check_body = json.dumps({"schema": chain("long")})
check_path = "/compatibility/subjects/%s/versions/latest?verbose=true" % quoted
results = [None] * slow
conns = [http.client.HTTPConnection(host, port, timeout=120) for _ in range(slow)]
for c in conns:
    c.connect()
started = threading.Barrier(slow + 1, timeout=30)


def slow_client(n):
    started.wait()
    t0 = time.monotonic()
    try:
        st, data = call("POST", check_path, check_body, conns[n])
    except Exception as e:  # noqa: BLE001 - reported as a failure
        st, data = 0, str(e).encode()
    results[n] = (st, data, t0, time.monotonic())


threads = [threading.Thread(target=slow_client, args=(n,)) for n in range(slow)]
for t in threads:
    t.start()
started.wait()
# until a check runs (a backend reports it in pg_stat_activity)
running = "0"
for _ in range(200):
    running = subprocess.run(
        ["psql", "-XAtq", "-d", database, "-c",
         "SELECT count(*) FROM pg_stat_activity WHERE state = 'active' "
         "AND query LIKE 'POST /compatibility/%'"],
        capture_output=True, text=True).stdout.strip()
    if running not in ("", "0"):
        break
    time.sleep(0.025)
print("# %s checks running when the GET was sent" % running, flush=True)
g0 = time.monotonic()
gst, gdata = call("GET", "/schemas/ids/%d" % small_id)
g1 = time.monotonic()
for t in threads:
    t.join(180)

report(gst == 200 and json.loads(gdata).get("schema") == '"string"',
       "GET /schemas/ids/{id} answered 200 while %d long checks ran" % slow, "%d %s" % (gst, gdata[:200]))
done = [r for r in results if r is not None]
bad = [r for r in done if r[0] not in (200, 422)]
report(len(done) == slow and not bad, "each of the %d long checks was answered (200 or 422)" % slow,
       "%d answered, %s" % (len(done), [(r[0], r[1][:120]) for r in bad]))
if not done:
    sys.exit(1)
first = min(r[3] for r in done)
shortest = min(r[3] - r[2] for r in done)
print("# GET %.1f ms; first check answered %.1f ms after the GET was sent; shortest check %.1f ms"
      % ((g1 - g0) * 1000, (first - g0) * 1000, shortest * 1000), flush=True)
report(g1 < first, "the GET was answered before any of the long checks",
       "GET answered at +%.1f ms, the first check at +%.1f ms" % ((g1 - g0) * 1000, (first - g0) * 1000))
report((g1 - g0) < shortest / 2, "the GET took less than half as long as the shortest check",
       "GET %.1f ms, shortest check %.1f ms" % ((g1 - g0) * 1000, shortest * 1000))
