#!/usr/bin/env python3
"""Random Avro schema pairs for the differential oracle (run.sh).

Prints "id<TAB>schemaA<TAB>schemaB" lines: a random record A and a
mutation B of it (fields added or removed with and without defaults, type
promotions and incompatible changes, renames with aliases, enum symbols,
fixed sizes, union branches, namespaces, logical types, docs and custom
properties).  Usage: gen.py [COUNT [SEED]].

Features Avro 1.8.2 lacks or treats differently from 1.11 are not
generated: enum defaults (1.8.2 keeps "default" as a plain property and
ignores it in the check), invalid defaults, empty unions, the empty
namespace ("namespace":"" or ".Name": 1.8.2 lets types nested in it
inherit the outer namespace), and field aliases that repeat the field's
own name (1.11 throws on the double match; 1.8.2 does too, but only when
the record names match, as it returns at a name mismatch).  The one
verdict difference that cannot be avoided without losing coverage (1.11
reads a writer union with a non-union reader branch by branch, 1.8.2 only
a single-branch one) is tagged: the id ends in "~wunion" when some field
is a non-union in one schema and a union of two or more in the other.
Likewise "~ns" marks a namespace change: 1.11 matches named types on
their unqualified names, 1.8.2 on full names.
"""
import copy
import json
import random
import sys

PRIMS = ["boolean", "int", "long", "float", "double", "bytes", "string"]
PROMOTE = {"int": ["long", "float", "double"], "long": ["float", "double"],
           "float": ["double"], "string": ["bytes"], "bytes": ["string"]}
LOGICAL = [{"type": "int", "logicalType": "date"},
           {"type": "long", "logicalType": "timestamp-millis"},
           {"type": "long", "logicalType": "timestamp-micros"},
           {"type": "int", "logicalType": "time-millis"},
           {"type": "string", "logicalType": "uuid"},
           {"type": "bytes", "logicalType": "decimal", "precision": 9, "scale": 2}]
SYMBOLS = ["A", "B", "C", "D", "E"]

class Gen:
    def __init__(self, rnd):
        self.r = rnd
        self.n = 0
        self.tags = set()
        self.named = []         # (full name, name as written) defined so far
        self.space = [None]     # enclosing namespaces while generating

    def fresh(self, prefix):
        self.n += 1
        return "%s%d" % (prefix, self.n)

    def prim(self):
        return self.r.choice(PRIMS)

    def typ(self, depth):
        """A random field type (JSON)."""
        k = self.r.random()
        if self.named and self.r.random() < 0.08:
            # a use of a named type defined earlier, by full or short name
            full, short = self.r.choice(self.named)
            return self.r.choice([full, short])
        if self.r.random() < 0.05:
            return {"type": self.prim(), "x-p": self.r.choice(["v", 2, None, [True]])}
        if k < 0.35:
            return self.prim()
        if k < 0.45:
            return copy.deepcopy(self.r.choice(LOGICAL))
        if k < 0.6:
            a, b = self.r.sample(PRIMS, 2)
            return self.r.choice([["null", a], [a, "null"], [a, b]])
        if k < 0.7:
            return self.define({"type": "enum", "name": self.fresh("E"),
                    "symbols": self.r.sample(SYMBOLS, self.r.randint(1, 4))})
        if k < 0.78:
            return {"type": "array", "items": self.prim()}
        if k < 0.85:
            return {"type": "map", "values": self.prim()}
        if k < 0.92:
            return self.define({"type": "fixed", "name": self.fresh("F"),
                    "size": self.r.choice([4, 8, 16])})
        if depth < 2:
            return self.record(depth + 1)
        return self.prim()

    def define(self, t):
        """Note named type t (maybe in a namespace of its own) for reuse."""
        if self.r.random() < 0.15:
            t["namespace"] = self.r.choice(["other.ns", "com.example"])
        ns = t.get("namespace", self.space[-1])
        if self.r.random() < 0.1:
            t["aliases"] = ["Old" + t["name"]]
        full = ns + "." + t["name"] if ns else t["name"]
        # the short name resolves only in the same namespace
        self.named.append((full, t["name"] if ns == self.space[-1] else full))
        return t

    def default_for(self, t):
        """A valid default for type t, or None when we do not make one."""
        if isinstance(t, list):
            return self.default_for(t[0])
        if isinstance(t, str) and t not in PRIMS + ["null"]:
            return None         # a named type used by name
        if isinstance(t, dict):
            tt = t["type"]
            if tt == "enum":
                return t["symbols"][0]
            if tt == "array":
                return [] if self.r.random() < 0.5 else [self.default_for(t["items"])]
            if tt == "map":
                return {} if self.r.random() < 0.5 else {"k": self.default_for(t["values"])}
            if tt == "fixed":
                return "x" * t["size"]
            if tt == "record":
                return None
            return self.default_for(tt)
        return {"null": None, "boolean": True, "int": 7, "long": 123456789012,
                "float": self.r.choice([1.5, 3, 1e10, -0.0]),
                "double": self.r.choice([-2.25, 5, 1e-7, 123456789.125]),
                "bytes": self.r.choice(["ab", "\u00ff\u0000"]),
                "string": self.r.choice(["hi", "h\u00e9 \u2603 \"q\" \\ \t"])}[t]

    def field(self, depth, name=None):
        f = {"name": name or self.fresh("f"), "type": self.typ(depth)}
        if self.r.random() < 0.3:
            d = self.default_for(f["type"])
            if d is not None or f["type"] == "null" or (
                    isinstance(f["type"], list) and f["type"][0] == "null"):
                f["default"] = d
        if self.r.random() < 0.1:
            f["doc"] = self.r.choice(["doc of ", "d\u00f6c \u00e9 "]) + f["name"]
        if self.r.random() < 0.05:
            f["x-fp"] = self.r.choice([1, "s", {"a": [1, None]}])
        if self.r.random() < 0.05:
            f["order"] = self.r.choice(["descending", "ignore"])
        return f

    def record(self, depth=0):
        rec = {"type": "record", "name": self.fresh("R")}
        if self.r.random() < (0.4 if depth == 0 else 0.15):
            rec["namespace"] = self.r.choice(["com.example", "org.x.y", "n1"])
        if depth > 0:
            self.define(rec)
        self.space.append(rec.get("namespace", self.space[-1]))
        if self.r.random() < 0.1:
            rec["doc"] = "a record"
        if self.r.random() < 0.1:
            rec["x-prop"] = self.r.choice(["v", 1, [1, 2], {"k": True}])
        rec["fields"] = [self.field(depth) for _ in range(self.r.randint(1, 5 - depth))]
        self.space.pop()
        return rec

    # ---- mutations of B (in place) ----

    def mut_type(self, t):
        """A changed version of field type t."""
        r = self.r
        if isinstance(t, str):
            k = r.random()
            if k < 0.4 and t in PROMOTE:
                return r.choice(PROMOTE[t])
            if k < 0.6:
                return r.choice([["null", t], [t, "null"], [t, self.prim()]])
            return self.prim()
        if isinstance(t, list):
            k = r.random()
            if k < 0.3 and len(t) > 1:
                u = list(t)
                u.pop(r.randrange(len(u)))
                return u
            if k < 0.6:
                extra = [p for p in PRIMS + ["null"] if p not in t]
                return t + [r.choice(extra)]
            if k < 0.8:
                return [self.mut_type(x) if isinstance(x, str) and x != "null" else x for x in t]
            return r.choice([b for b in t])
        tt = t["type"]
        t = copy.deepcopy(t)
        if tt == "enum":
            k = r.random()
            if k < 0.4 and len(t["symbols"]) > 1:
                t["symbols"].pop(r.randrange(len(t["symbols"])))
            elif k < 0.8:
                extra = [s for s in SYMBOLS if s not in t["symbols"]]
                if extra:
                    t["symbols"].append(r.choice(extra))
            else:
                old = t["name"]
                t["name"] = old + "x"
                if r.random() < 0.5:
                    t["aliases"] = [old]
        elif tt == "fixed":
            if r.random() < 0.5:
                t["size"] = t["size"] * 2
            else:
                old = t["name"]
                t["name"] = old + "x"
                if r.random() < 0.5:
                    t["aliases"] = [old]
        elif tt == "array":
            t["items"] = self.mut_type(t["items"])
        elif tt == "map":
            t["values"] = self.mut_type(t["values"])
        elif tt == "record":
            self.mutate_record(t)
        elif "logicalType" in t:
            if r.random() < 0.5:
                return t["type"]
            t["logicalType"] = "other-" + t["logicalType"]
        return t

    def mutate_record(self, rec):
        r = self.r
        for _ in range(r.randint(1, 3)):
            k = r.random()
            fields = rec["fields"]
            if k < 0.15 and len(fields) > 1:
                fields.pop(r.randrange(len(fields)))
            elif k < 0.35:
                f = self.field(2)
                if r.random() < 0.5:
                    d = self.default_for(f["type"])
                    if d is not None:
                        f["default"] = d
                fields.insert(r.randint(0, len(fields)), f)
            elif k < 0.6:
                f = r.choice(fields)
                f["type"] = self.mut_type(f["type"])
                f.pop("default", None)
                if r.random() < 0.3:
                    d = self.default_for(f["type"])
                    if d is not None:
                        f["default"] = d
            elif k < 0.72:
                f = r.choice(fields)
                old = f["name"]
                f["name"] = old + "_renamed"
                if r.random() < 0.7:
                    f["aliases"] = [old] + (["zz"] if r.random() < 0.2 else [])
            elif k < 0.8:
                f = r.choice(fields)
                if "default" in f:
                    del f["default"]
                else:
                    d = self.default_for(f["type"])
                    if d is not None:
                        f["default"] = d
            elif k < 0.87:
                old = rec["name"]
                rec["name"] = old + "New"
                if r.random() < 0.7:
                    ns = rec.get("namespace")
                    rec["aliases"] = [ns + "." + old if ns else old]
            elif k < 0.93:
                if "namespace" in rec:
                    del rec["namespace"]
                else:
                    rec["namespace"] = "changed.ns"
                self.tags.add("ns")
            else:
                rec["doc"] = "changed doc"
                r.choice(fields)["x-field-prop"] = "p"


def is_union(t):
    return isinstance(t, list)


def wunion(a, b):
    """Is some matching field a non-union on one side and a union of two
    or more branches on the other (at any depth)?"""
    if is_union(a) != is_union(b):
        u = a if is_union(a) else b
        return len(u) >= 2
    if is_union(a):
        return any(wunion(x, y) for x in a for y in b)
    if isinstance(a, dict) and isinstance(b, dict):
        if a.get("type") == "record" and b.get("type") == "record":
            for fa in a["fields"]:
                names = {fa["name"]} | set(fa.get("aliases", []))
                for fb in b["fields"]:
                    nb = {fb["name"]} | set(fb.get("aliases", []))
                    if names & nb and wunion(fa["type"], fb["type"]):
                        return True
            return False
        if a.get("type") == "array" and b.get("type") == "array":
            return wunion(a["items"], b["items"])
        if a.get("type") == "map" and b.get("type") == "map":
            return wunion(a["values"], b["values"])
    return False


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    rnd = random.Random(seed)
    for i in range(count):
        g = Gen(rnd)
        a = g.record()
        b = copy.deepcopy(a)
        g.mutate_record(b)
        if wunion(a, b):
            g.tags.add("wunion")
        tag = "".join("~" + t for t in sorted(g.tags))
        if rnd.random() < 0.5:
            a, b = b, a
        print("p%03d%s\t%s\t%s" % (i, tag, json.dumps(a, separators=(",", ":")),
                                   json.dumps(b, separators=(",", ":"))))


if __name__ == "__main__":
    main()
