#!/usr/bin/env python3
"""Raw-socket HTTP checks of the registry's REST workers, for what curl
cannot send or measure: bad framing, slow senders, bodies held back,
thousands of idle connections, requests waiting on a lock.

    raw_http.py HOST PORT framing SUBJECT-PREFIX
    raw_http.py HOST PORT bodies MAX-BODY-SIZE
    raw_http.py HOST PORT pending BODY-SIZE WORKERS
    raw_http.py HOST PORT slow TIMEOUT-SECONDS
    raw_http.py HOST PORT idle COUNT SECONDS
    raw_http.py HOST PORT locks SUBJECT WRITERS SECONDS FIELD-PREFIX
    raw_http.py HOST PORT head

Each check prints "ok - ..." or "not ok - ... :: detail".  Every loop is
bounded in count and time; only the given (loopback) address is used.
"""
import http.client
import json
import re
import resource
import select
import socket
import sys
import threading
import time

HOST = sys.argv[1]
PORT = int(sys.argv[2])
CT = "application/vnd.schemaregistry.v1+json"


def report(name, good, detail=""):
    if good:
        print("ok - " + name, flush=True)
    else:
        print("not ok - %s :: %s" % (name, detail), flush=True)


def exchange(data, wait=3.0):
    """Send data, read until the server closes or `wait` seconds pass:
    (bytes received, closed by the server?, seconds taken)."""
    s = socket.create_connection((HOST, PORT), timeout=wait)
    t0 = time.time()
    try:
        s.sendall(data)
    except OSError:
        pass
    out = b""
    closed = False
    try:
        while time.time() - t0 < wait:
            s.settimeout(max(0.05, wait - (time.time() - t0)))
            b = s.recv(65536)
            if not b:
                closed = True
                break
            out += b
    except socket.timeout:
        pass
    except OSError:
        closed = True
    s.close()
    return out, closed, time.time() - t0


def head_of(out):
    """(status code, lower-cased header dict, body) of the first response."""
    head, _, body = out.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    try:
        code = int(lines[0].split(" ")[1])
    except (IndexError, ValueError):
        code = 0
    headers = {}
    for line in lines[1:]:
        k, _, v = line.partition(":")
        headers[k.strip().lower()] = v.strip()
    return code, headers, body


def confluent_error(body, code):
    try:
        j = json.loads(body.decode())
        return j.get("error_code") == code and isinstance(j.get("message"), str) \
            and sorted(j) == ["error_code", "message"]
    except ValueError:
        return False


def schema_body(name):
    schema = {"type": "record", "name": name, "fields": [{"name": "a", "type": "int"}]}
    return json.dumps({"schema": json.dumps(schema)}).encode()


def post(path, body, extra=b""):
    """A POST head with the usual headers (no Content-Length unless extra)."""
    return (b"POST " + path + b" HTTP/1.1\r\nHost: localhost\r\nContent-Type: " +
            CT.encode() + b"\r\n" + extra)


def framing(prefix):
    """Framing that could smuggle a request: 400 (501 for an unknown transfer
    coding) with a Confluent error body, and the connection closed."""
    p = prefix.encode()
    body = schema_body("Smuggle")
    chunked = b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body)
    cases = [
        ("two different Content-Length headers", 400,
         post(b"/subjects/" + p + b"-cl2/versions", body,
              b"Content-Length: %d\r\nContent-Length: %d\r\n\r\n" % (len(body), len(body) + 5)) + body),
        ("Content-Length with Transfer-Encoding: chunked", 400,
         post(b"/subjects/" + p + b"-clte/versions", body,
              b"Content-Length: %d\r\nTransfer-Encoding: chunked\r\n\r\n" % len(chunked)) + chunked),
        ("NUL byte in the request line", 400,
         post(b"/subjects/" + p + b"-nul\x00x/versions", body,
              b"Content-Length: %d\r\n\r\n" % len(body)) + body),
        ("HTTP/1.1 without Host", 400,
         b"POST /subjects/" + p + b"-nohost/versions HTTP/1.1\r\nContent-Type: " + CT.encode() +
         b"\r\nContent-Length: %d\r\n\r\n" % len(body) + body),
        ("two Host headers", 400,
         b"GET /subjects HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n"),
        ("unknown Transfer-Encoding (gzip)", 501,
         post(b"/subjects/" + p + b"-gzip/versions", body,
              b"Transfer-Encoding: gzip\r\n\r\n") + body),
        ("Transfer-Encoding: gzip, chunked", 501,
         post(b"/subjects/" + p + b"-gzch/versions", body,
              b"Transfer-Encoding: gzip, chunked\r\n\r\n") + chunked),
    ]
    for name, want, data in cases:
        # a second, valid request pipelined behind: it must not be answered
        out, closed, took = exchange(data + b"GET /subjects HTTP/1.1\r\nHost: a\r\n\r\n")
        code, headers, rest = head_of(out)
        responses = len(re.findall(rb"HTTP/1\.1 [0-9]{3} ", out))
        report("%s -> %d, Confluent error body, Connection: close, socket closed, "
               "the pipelined request not answered" % (name, want),
               code == want and confluent_error(re.split(rb"HTTP/1\.1 [0-9]{3} ", rest)[0], want) and
               headers.get("connection") == "close" and closed and responses == 1,
               "status %d, closed %s after %.1fs, %d responses: %r" %
               (code, closed, took, responses, out[:300]))
    # the sound forms still work, on one kept-alive connection
    ok = (post(b"/subjects/" + p + b"-ok", body, b"Content-Length: %d\r\n\r\n" % len(body)) + body +
          post(b"/subjects/" + p + b"-ok", body, b"Transfer-Encoding: chunked\r\n\r\n") + chunked +
          b"GET /subjects?subjectPrefix=" + p + b"&deleted=true HTTP/1.1\r\nHost: a\r\n\r\n")
    out, closed, took = exchange(ok, wait=2)
    codes = [int(x) for x in re.findall(rb"HTTP/1\.1 ([0-9]{3}) ", out)]
    report("Content-Length, chunked and a query on one connection: 404, 404, 200, kept open",
           codes == [404, 404, 200] and not closed, "codes %s, closed %s: %r" % (codes, closed, out[:300]))


def bodies(max_body):
    """A declared body over the limit is refused at once, before it is sent."""
    big = max_body + 1024 * 1024
    for name, extra in (("with Expect: 100-continue", b"Expect: 100-continue\r\n"), ("without Expect", b"")):
        out, closed, took = exchange(post(b"/subjects/big/versions", b"",
                                          b"Content-Length: %d\r\n%s\r\n" % (big, extra)), wait=5)
        code, headers, rest = head_of(out)
        report("Content-Length %d %s, no body sent: 413 within 2 s, no 100 Continue, closed" % (big, name),
               code == 413 and took < 2 and b"100 Continue" not in out and confluent_error(rest, 413) and
               headers.get("connection") == "close" and closed,
               "status %d after %.1fs, closed %s: %r" % (code, took, closed, out[:200]))
    # chunked: the limit is applied as the body streams in
    s = socket.create_connection((HOST, PORT), timeout=10)
    s.sendall(post(b"/subjects/big", b"", b"Transfer-Encoding: chunked\r\n\r\n"))
    chunk = b"x" * 65536
    sent = 0
    t0 = time.time()
    try:
        while sent <= max_body and time.time() - t0 < 10:
            s.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            sent += len(chunk)
        s.sendall(b"0\r\n\r\n")
        out = b""
        while time.time() - t0 < 10:
            b = s.recv(65536)
            if not b:
                break
            out += b
            if b"\r\n\r\n" in out and out.endswith(b"}"):
                break
    except OSError as e:
        out = b"error %s" % str(e).encode()
    s.close()
    code, headers, rest = head_of(out)
    report("chunked body of %d bytes over the limit -> 413" % sent, code == 413 and confluent_error(rest, 413),
           "status %d: %r" % (code, out[:200]))


def pending(size, workers):
    """registry.http_max_body_memory holds one body of `size` per worker: of
    six uploads held open, at most one per worker is taken, the others get
    503 at once; the taken ones complete once their bodies are sent."""
    body = json.dumps({"schema": "\"string\"", "pad": "x" * (size - 40)}).encode()
    body = body[:size - 2] + b"\"}" if len(body) > size else body + b" " * (size - len(body))
    held = []
    refused = 0
    other = []
    for i in range(6):
        s = socket.create_connection((HOST, PORT), timeout=5)
        s.sendall(post(b"/subjects/pending-%d" % i, b"", b"Content-Length: %d\r\n\r\n" % size) + body[:size // 2])
        s.settimeout(0.7)
        try:
            out = s.recv(65536)
        except socket.timeout:
            out = None
        if out is None:
            held.append(s)
            continue
        code, headers, rest = head_of(out)
        if code == 503 and confluent_error(rest, 503) and headers.get("connection") == "close":
            refused += 1
        else:
            other.append(out[:200])
        s.close()
    report("six uploads of %d bytes held open: %d taken (1..%d), %d refused with 503 before their bodies" %
           (size, len(held), workers, refused),
           1 <= len(held) <= workers and refused == 6 - len(held) and not other,
           "taken %d, refused %d, other answers %r" % (len(held), refused, other))
    codes = []
    for s in held:
        s.settimeout(5)
        try:
            s.sendall(body[size // 2:])
            code, _, _ = head_of(s.recv(65536))
        except OSError:
            code = 0
        codes.append(code)
        s.close()
    report("the taken uploads are answered once sent (lookup of a new subject -> 404)",
           codes and all(c == 404 for c in codes), "codes %s" % codes)
    out, closed, took = exchange(post(b"/subjects/pending-after", b"", b"Content-Length: %d\r\n\r\n" % size) + body)
    code, _, _ = head_of(out)
    report("their memory is released: a new upload of the same size is taken (404)", code == 404,
           "status %d: %r" % (code, out[:200]))


def slow_send(preamble, data, step, limit):
    """Send preamble at once, then data a byte every `step` seconds:
    (received, closed by the server?, seconds, bytes of data sent)."""
    s = socket.create_connection((HOST, PORT), timeout=limit)
    s.sendall(preamble)
    s.setblocking(False)
    t0 = time.time()
    out = b""
    closed = False
    i = 0
    while time.time() - t0 < limit and not closed:
        if i < len(data):
            try:
                s.send(data[i:i + 1])
                i += 1
            except OSError:
                closed = True
                break
        end = time.time() + step
        while time.time() < end:
            try:
                b = s.recv(4096)
                if not b:
                    closed = True
                    break
                out += b
            except BlockingIOError:
                time.sleep(0.02)
            except OSError:
                closed = True
                break
    s.close()
    return out, closed, time.time() - t0, i


def slow(timeout):
    """A request whose head or body trickles in past registry.http_request_timeout
    gets 408 and is closed; an idle keep-alive connection is not cut by it."""
    limit = timeout + 4
    head = b"GET /subjects HTTP/1.1\r\nHost: localhost\r\nX-Slow: " + b"x" * 200 + b"\r\n\r\n"
    out, closed, took, sent = slow_send(b"", head, 0.25, limit)
    code, _, rest = head_of(out)
    report("head sent a byte every 0.25 s: 408 and closed after ~%d s" % timeout,
           code == 408 and confluent_error(rest, 408) and closed and timeout - 0.5 <= took <= timeout + 2,
           "status %d, closed %s after %.1fs, %d bytes sent: %r" % (code, closed, took, sent, out[:200]))
    body = schema_body("Slow")
    out, closed, took, sent = slow_send(
        post(b"/subjects/slow-body", body, b"Content-Length: %d\r\n\r\n" % len(body)), body, 0.25, limit)
    code, _, rest = head_of(out)
    report("body sent a byte every 0.25 s: 408 and closed after ~%d s" % timeout,
           code == 408 and confluent_error(rest, 408) and closed and took <= timeout + 2,
           "status %d, closed %s after %.1fs, %d bytes sent: %r" % (code, closed, took, sent, out[:200]))
    # keep-alive: a request, idle past the timeout, then another request
    s = socket.create_connection((HOST, PORT), timeout=5)
    s.sendall(b"GET /subjects HTTP/1.1\r\nHost: localhost\r\n\r\n")
    first = s.recv(65536)
    time.sleep(timeout + 1)
    try:
        s.sendall(b"GET /config HTTP/1.1\r\nHost: localhost\r\n\r\n")
        second = s.recv(65536)
    except OSError as e:
        second = b"error " + str(e).encode()
    s.close()
    report("an idle keep-alive connection past the timeout still serves its next request",
           head_of(first)[0] == 200 and head_of(second)[0] == 200,
           "first %r, second %r" % (first[:60], second[:100]))


def idle(count, seconds):
    """Open `count` connections and hold them `seconds`, sending nothing."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < count + 64:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, count + 256), hard))
    socks = []
    t0 = time.time()
    try:
        for _ in range(count):
            s = socket.socket()
            s.setblocking(False)
            try:
                s.connect((HOST, PORT))
            except BlockingIOError:
                pass
            socks.append(s)
    except OSError as e:
        print("# could not open more than %d sockets: %s" % (len(socks), e), flush=True)
    poller = select.poll()
    byfd = {}
    for s in socks:
        poller.register(s, select.POLLOUT)
        byfd[s.fileno()] = s
    connected = 0
    waiting = len(socks)
    while waiting and time.time() - t0 < 5:
        for fd, _ in poller.poll(500):
            poller.unregister(fd)
            waiting -= 1
            if byfd[fd].getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) == 0:
                connected += 1
    print("# %d of %d idle connections established in %.1f s" % (connected, count, time.time() - t0), flush=True)
    print("connected %d" % connected, flush=True)
    time.sleep(max(0, seconds - (time.time() - t0)))
    for s in socks:
        s.close()
    print("closed", flush=True)


def timed(method, path, body=None, timeout=10):
    t0 = time.time()
    try:
        c = http.client.HTTPConnection(HOST, PORT, timeout=timeout)
        c.request(method, path, body=body, headers={"Content-Type": CT})
        r = c.getresponse()
        data = r.read()
        c.close()
        return r.status, data, time.time() - t0
    except OSError as e:
        return 0, str(e).encode(), time.time() - t0


def locks(subject, writers, seconds, tag):
    """While a SQL session holds the subject's row lock for `seconds`:
    `writers` registrations wait, reads on new connections (any worker)
    answer quickly.  Prints the registrations' outcomes for the caller."""
    results = [None] * writers

    def register(i):
        schema = {"type": "record", "name": "L", "fields": [{"name": "a", "type": "int"},
                                                            {"name": "%s%d" % (tag, i), "type": "int", "default": 0}]}
        results[i] = timed("POST", "/subjects/%s/versions" % subject,
                           json.dumps({"schema": json.dumps(schema)}), timeout=seconds + 20)

    threads = [threading.Thread(target=register, args=(i,)) for i in range(writers)]
    for t in threads:
        t.start()
    time.sleep(0.3)
    reads = []
    t0 = time.time()
    while time.time() - t0 < seconds - 1.5 and len(reads) < 2000:
        for path in ("/subjects", "/config", "/mode"):
            reads.append(timed("GET", path, timeout=5))
    slowest = max(r[2] for r in reads) if reads else 99
    bad = [r for r in reads if r[0] != 200]
    report("%d reads (GET /subjects, /config, /mode, new connections) while %d registrations wait: "
           "all 200, slowest %.0f ms (limit 1000 ms)" % (len(reads), writers, slowest * 1000),
           reads and not bad and slowest < 1.0,
           "%d not 200 (%r), slowest %.2fs" % (len(bad), bad[:2], slowest))
    for t in threads:
        t.join(seconds + 25)
    for r in results:
        if r is None:
            print("result 0 0.0 none", flush=True)
        else:
            try:
                code = json.loads(r[1].decode()).get("error_code", 0)
            except (ValueError, AttributeError):
                code = 0
            print("result %d %.2f %d" % (r[0], r[2], code), flush=True)


def head():
    """HEAD is GET without a body; a route without GET stays 405."""
    for path, want in ((b"/subjects", 200), (b"/config", 200), (b"/compatibility/subjects/x/versions", 405)):
        out, closed, took = exchange(b"HEAD " + path + b" HTTP/1.1\r\nHost: localhost\r\n\r\n"
                                     b"GET /subjects HTTP/1.1\r\nHost: localhost\r\n\r\n", wait=1.5)
        code, headers, rest = head_of(out)
        report("HEAD %s -> %d without a body (the next response follows at once)" % (path.decode(), want),
               code == want and rest.startswith(b"HTTP/1.1 200"),
               "status %d, after the head: %r" % (code, rest[:80]))


if __name__ == "__main__":
    cmd = sys.argv[3]
    args = sys.argv[4:]
    if cmd == "framing":
        framing(args[0])
    elif cmd == "bodies":
        bodies(int(args[0]))
    elif cmd == "pending":
        pending(int(args[0]), int(args[1]))
    elif cmd == "slow":
        slow(int(args[0]))
    elif cmd == "idle":
        idle(int(args[0]), float(args[1]))
    elif cmd == "locks":
        locks(args[0], int(args[1]), float(args[2]), args[3])
    elif cmd == "head":
        head()
    else:
        sys.exit("unknown check " + cmd)
