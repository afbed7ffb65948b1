#!/usr/bin/env python3
"""Random JSON Schema documents for the stored-form oracle (json_run.sh).

Prints "id<TAB>document" lines.  Each document is a valid schema whose
free-form places (default, const, enum, examples, unknown keywords) hold
random JSON values, written the way people and tools write JSON: numbers
in every lexical form (exponents, trailing zeros, negative zero, huge
integers, tiny fractions), strings with escapes (\\u forms, surrogate
pairs, \\/, control characters) and raw UTF-8, random whitespace and the
odd duplicate key, so that the stored form (key order, number text,
escaping) and the normalized form (sorted keys) are both exercised.

    json_gen.py COUNT SEED
"""
import random
import sys

NUMBERS = [
    "0", "-0", "1", "-1", "10", "1.0", "-1.0", "0.0", "-0.0", "1.50",
    "1e3", "1E3", "1e+3", "1E-3", "1.5e10", "1.50E+10", "2e-7", "0.0000001",
    "0.000001", "0.00001234", "123456789012345678901234567890",
    "-123456789012345678901234567890", "9223372036854775807",
    "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
    "2147483647", "2147483648", "4294967296", "3.141592653589793238462643",
    "1e21", "1e22", "100e-2", "0e0", "0E-5", "12.3400", "5e-324",
    "1.7976931348623157e308", "0.1", "0.30000000000000004",
    "1e-400", "4.9e-325", "NaN", "Infinity", "-Infinity", "+Infinity",
]
# Left out: numbers beyond the range of a double (1E400).  Debian's
# Jackson 2.14 turns them into "Infinity"; how the Jackson of Confluent
# 8.x reads them is not checked here; our core keeps them as exact
# decimals (1E+400).

# what may follow the document: Jackson reads one value and ignores the rest
TRAILERS = ["", "", "", "", " ", "\n", " x", " // c", " /* c */", " }", " {\"a\":1}", " ,"]

ASTRAL = ["\U0001F600", "\U00010000", "\U0010FFFF", "\U0001D11E"]
SPECIAL = ["\u0000", "\u0001", "\u001f", "\u007f", "\u0080", "\u00e9",
           "\u2028", "\u2029", "\ufeff", "\uffff", "\u00ff", "\u4e2d",
           "\"", "\\", "/", "\b", "\f", "\n", "\r", "\t", " "]


def rand_number(rnd):
    if rnd.random() < 0.7:
        return rnd.choice(NUMBERS)
    whole = str(rnd.randint(0, 10 ** rnd.randint(1, 25)))
    text = ("-" if rnd.random() < 0.3 else "") + whole
    if rnd.random() < 0.5:
        text += "." + str(rnd.randint(0, 10 ** rnd.randint(1, 12))).rjust(
            rnd.randint(1, 6), "0")
    if rnd.random() < 0.4:
        text += rnd.choice("eE") + rnd.choice(["", "+", "-"]) + \
            str(rnd.randint(0, 30))
    return text


def rand_char(rnd):
    r = rnd.random()
    if r < 0.5:
        return chr(rnd.randint(0x20, 0x7e))
    if r < 0.75:
        return rnd.choice(SPECIAL)
    if r < 0.85:
        return rnd.choice(ASTRAL)
    return chr(rnd.choice([rnd.randint(0xa0, 0xd7ff), rnd.randint(0xe000, 0xfffd)]))


def write_char(rnd, ch):
    """One character as JSON text: raw where allowed, else (or by chance) escaped."""
    o = ord(ch)
    short = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f",
             "\n": "\\n", "\r": "\\r", "\t": "\\t"}
    if ch in short and (ch in '"\\' or o < 0x20):
        return short[ch]
    if o < 0x20 or rnd.random() < 0.15:
        if o > 0xffff:
            v = o - 0x10000
            hi, lo = 0xd800 + (v >> 10), 0xdc00 + (v & 0x3ff)
            return "\\u%04x\\u%04X" % (hi, lo)
        return ("\\u%04x" if rnd.random() < 0.5 else "\\u%04X") % o
    if ch == "/" and rnd.random() < 0.5:
        return "\\/"
    return ch


def rand_string(rnd, maxlen=8):
    return "".join(rand_char(rnd) for _ in range(rnd.randint(0, maxlen)))


def quote(rnd, s):
    return '"' + "".join(write_char(rnd, c) for c in s) + '"'


def ws(rnd):
    return rnd.choice(["", "", "", " ", "\n", "\t", "  ", "\r\n"])


def rand_value(rnd, depth):
    r = rnd.random()
    if depth > 3 or r < 0.35:
        return rnd.choice(["null", "true", "false", rand_number(rnd),
                           rand_number(rnd), quote(rnd, rand_string(rnd))])
    if r < 0.65:
        items = [rand_value(rnd, depth + 1) for _ in range(rnd.randint(0, 4))]
        return "[" + ws(rnd) + ("," + ws(rnd)).join(items) + ws(rnd) + "]"
    return rand_object(rnd, depth, [])


def rand_object(rnd, depth, fixed):
    """An object: fixed (key, text) members first, then random ones."""
    members = list(fixed)
    for _ in range(rnd.randint(0, 4)):
        members.append((rand_string(rnd, 5), rand_value(rnd, depth + 1)))
    if members and rnd.random() < 0.1:
        k, _ = rnd.choice(members)
        members.append((k, rand_value(rnd, depth + 1)))
    rnd.shuffle(members)
    parts = [ws(rnd) + quote(rnd, k) + ws(rnd) + ":" + ws(rnd) + v
             for k, v in members]
    return "{" + ",".join(parts) + ws(rnd) + "}"


def rand_schema(rnd, depth):
    """A schema object whose free-form keywords hold random values."""
    fixed = []
    kind = rnd.choice(["object", "string", "number", "array", None])
    if kind:
        fixed.append(("type", '"%s"' % kind))
    if rnd.random() < 0.6:
        fixed.append(("default", rand_value(rnd, depth + 1)))
    if rnd.random() < 0.3:
        fixed.append(("const", rand_value(rnd, depth + 1)))
    if rnd.random() < 0.3:
        vals = [rand_value(rnd, depth + 1) for _ in range(rnd.randint(1, 4))]
        fixed.append(("enum", "[" + ",".join(vals) + "]"))
    if rnd.random() < 0.4:
        fixed.append(("x-" + rand_string(rnd, 4), rand_value(rnd, depth + 1)))
    if rnd.random() < 0.3:
        fixed.append(("title", quote(rnd, rand_string(rnd))))
    if kind == "number" and rnd.random() < 0.5:
        fixed.append(("maximum", rand_number(rnd)))
    if kind == "object" and depth < 3:
        props = [(rand_string(rnd, 6), rand_schema(rnd, depth + 1))
                 for _ in range(rnd.randint(0, 4))]
        seen = {}
        for k, v in props:
            seen[k] = v
        body = ",".join(ws(rnd) + quote(rnd, k) + ":" + ws(rnd) + v
                        for k, v in seen.items())
        fixed.append(("properties", "{" + body + "}"))
    # random members go only where they are free-form: wrap the schema
    # itself without random extra keys
    members = list(fixed)
    rnd.shuffle(members)
    parts = [ws(rnd) + quote(rnd, k) + ws(rnd) + ":" + ws(rnd) + v
             for k, v in members]
    return "{" + ",".join(parts) + ws(rnd) + "}"


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    rnd = random.Random(seed)
    out = sys.stdout
    for i in range(count):
        doc = rand_schema(rnd, 0) + rnd.choice(TRAILERS)
        # a line per document: raw newlines inside the text are whitespace
        # only (strings escape theirs), so fold them into spaces
        doc = doc.replace("\r\n", " ").replace("\n", " ").replace("\r", " ")
        out.write("j%d\t%s\n" % (i, doc))


if __name__ == "__main__":
    sys.stdout.reconfigure(encoding="utf-8", errors="surrogatepass")
    main()
