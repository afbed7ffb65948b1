#!/usr/bin/env python3
"""A stand-in registry for registry-migrate's DEK registry test: an empty
schema registry (no subjects) that serves Confluent's DEK registry routes
(/dek-registry/v1/keks, .../deks, .../versions?algorithm=) from memory, or
answers 404 there with --no-dek.  GET /_state answers its KEKs and DEKs.

    dek_mock.py PORT [--no-dek] [--seed]   (--seed: start with KEKs and DEKs)
"""
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, unquote, urlsplit

PORT = int(sys.argv[1])
NO_DEK = "--no-dek" in sys.argv
KEKS = {}
DEKS = {}  # (kek, subject, algorithm, version) -> dek

if "--seed" in sys.argv:
    for name, shared, deleted in (("k1", False, False), ("k2", True, True)):
        KEKS[name] = {"name": name, "kmsType": "aws-kms", "kmsKeyId": "arn:" + name,
                      "kmsProps": {"region": "eu"}, "doc": "d", "shared": shared,
                      "deleted": deleted, "ts": 1}
    for key, deleted in ((("k1", "orders-value", "AES256_GCM", 1), False),
                         (("k1", "orders-value", "AES256_GCM", 2), True),
                         (("k1", "orders-value", "AES128_GCM", 1), False),
                         (("k2", "users-value", "AES256_SIV", 1), False)):
        DEKS[key] = {"kekName": key[0], "subject": key[1], "algorithm": key[2],
                     "version": key[3], "encryptedKeyMaterial": "bWF0ZXJpYWw" + str(key[3]),
                     "deleted": deleted, "ts": 1}


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def answer(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def route(self, method):
        url = urlsplit(self.path)
        q = parse_qs(url.query)
        deleted = q.get("deleted", ["false"])[0] == "true"
        alg = q.get("algorithm", ["AES256_GCM"])[0]
        parts = [unquote(p) for p in url.path.strip("/").split("/")]
        body = None
        if method == "POST":
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if parts == ["_state"]:
            return self.answer(200, {"keks": KEKS, "deks": ["/".join(map(str, k)) + ("/deleted" if v["deleted"] else "")
                                                        for k, v in sorted(DEKS.items())]})
        if parts[:2] != ["dek-registry", "v1"]:
            if method == "GET" and parts == ["contexts"]:
                return self.answer(200, ["."])
            if method == "GET" and parts == ["subjects"]:
                return self.answer(200, [])
            if method == "GET" and parts == ["config"]:
                return self.answer(200, {"compatibilityLevel": "BACKWARD"})
            if method == "GET" and parts == ["mode"]:
                return self.answer(200, {"mode": "READWRITE"})
            return self.answer(404, {"error_code": 40401, "message": "not found"})
        if NO_DEK:
            return self.answer(404, {"error_code": 404, "message": "HTTP 404 Not Found"})
        p = parts[2:]
        if p == ["keks"] and method == "GET":
            return self.answer(200, sorted(n for n, k in KEKS.items() if deleted or not k["deleted"]))
        if p == ["keks"] and method == "POST":
            if body["name"] in KEKS:
                return self.answer(409, {"error_code": 40972, "message": "exists"})
            KEKS[body["name"]] = dict(body, deleted=False, ts=2)
            return self.answer(200, KEKS[body["name"]])
        if len(p) == 2 and p[0] == "keks":
            kek = KEKS.get(p[1])
            if kek is None or (kek["deleted"] and not deleted and method == "GET"):
                return self.answer(404, {"error_code": 40470, "message": "no kek"})
            if method == "DELETE":
                kek["deleted"] = True
                return self.answer(204, None)
            return self.answer(200, kek)
        if len(p) == 3 and p[2] == "deks":
            if method == "POST":
                key = (p[1], body["subject"], body.get("algorithm", "AES256_GCM"), body.get("version", 1))
                if key in DEKS:
                    return self.answer(409, {"error_code": 40972, "message": "exists"})
                DEKS[key] = {"kekName": p[1], "subject": key[1], "algorithm": key[2], "version": key[3],
                             "encryptedKeyMaterial": body["encryptedKeyMaterial"], "deleted": False, "ts": 2}
                return self.answer(200, DEKS[key])
            return self.answer(200, sorted({k[1] for k, v in DEKS.items()
                                            if k[0] == p[1] and (deleted or not v["deleted"])}))
        if len(p) == 5 and p[2] == "deks" and p[4] == "versions":
            return self.answer(200, sorted(k[3] for k, v in DEKS.items()
                                           if k[:3] == (p[1], p[3], alg) and (deleted or not v["deleted"])))
        if len(p) == 6 and p[2] == "deks" and p[4] == "versions":
            dek = DEKS.get((p[1], p[3], alg, int(p[5])))
            if dek is None:
                return self.answer(404, {"error_code": 40470, "message": "no dek"})
            if method == "DELETE":
                dek["deleted"] = True
                return self.answer(204, None)
            return self.answer(200, dek)
        return self.answer(404, {"error_code": 404, "message": "HTTP 404 Not Found"})

    def do_GET(self):
        self.route("GET")

    def do_POST(self):
        self.route("POST")

    def do_DELETE(self):
        self.route("DELETE")


ThreadingHTTPServer(("127.0.0.1", PORT), Handler).serve_forever()
