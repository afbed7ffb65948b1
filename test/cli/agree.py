#!/usr/bin/env python3
"""registry-check agrees with the server.

Every compatibility case the core unit tests check (logged by them to the
file RG_CASE_LOG names: reader, writer, their references) is run three times,
at BACKWARD, at FORWARD and at BACKWARD with the lints failing: through
registry-check --json, and through the
server (the writer registered in a subject of its own, then the reader sent
to POST /compatibility/subjects/{s}/versions?verbose=true through
registry.rest() in a database of its own).  Both must give the same answer,
or both must refuse a schema as invalid.

usage: agree.py CASES.jsonl REGISTRY_CHECK   (psql reaches the cluster by
PGHOST/PGPORT/PGUSER); prints TAP lines and "cli: N passed, M failed".
"""
import json
import os
import subprocess
import sys
import tempfile

# (level, lint) runs of every case
LEVELS = (("BACKWARD", None), ("FORWARD", None), ("BACKWARD", "FAIL"))
DB = "registry_agree"


def load_cases(path):
    seen, cases = set(), []
    with open(path) as f:
        for line in f:
            if line.strip() and line not in seen:
                seen.add(line)
                cases.append(json.loads(line))
    return cases


def q(s):
    """s as an SQL literal"""
    return "'" + s.replace("'", "''") + "'" if s is not None else "NULL"


def ref_bodies(case, i, side):
    """(subject, body) registrations of one side's references, and the
    references list the side's own schema gives"""
    regs, refs = [], []
    for k, (name, text) in enumerate(case[side + "_refs"]):
        subject = "agree-%d-%s-%d" % (i, side, k)
        body = {"schema": text, "schemaType": case["type"], "references": list(refs)}
        regs.append((subject, body))
        refs.append({"name": name, "subject": subject, "version": 1})
    return regs, refs


def server_sql(cases):
    """one SQL script: for each case and level, the server's answer as a
    JSON line [i, level, status, response]"""
    out = ["SET client_min_messages = warning;"]
    for i, c in enumerate(cases):
        subject = "agree-%d" % i
        out.append("SELECT registry.rest('PUT', '/config', NULL, '{\"compatibility\":\"NONE\"}');")
        for side in ("writer", "reader"):
            regs, _ = ref_bodies(c, i, side)
            for s, body in regs:
                out.append("SELECT registry.rest('POST', %s, NULL, %s);"
                           % (q("/subjects/%s/versions" % s), q(json.dumps(body))))
        _, wrefs = ref_bodies(c, i, "writer")
        _, rrefs = ref_bodies(c, i, "reader")
        wbody = {"schema": c["writer"], "schemaType": c["type"], "references": wrefs}
        rbody = {"schema": c["reader"], "schemaType": c["type"], "references": rrefs}
        out.append("SELECT json_build_array(%d, 'register', status, response)::text "
                   "FROM registry.rest('POST', %s, NULL, %s);"
                   % (i, q("/subjects/%s/versions" % subject), q(json.dumps(wbody))))
        for level, lint in LEVELS:
            config = {"compatibility": level}
            if lint:
                config["lint"] = lint
            out.append("SELECT registry.rest('PUT', %s, NULL, %s);"
                       % (q("/config/" + subject), q(json.dumps(config))))
            out.append("SELECT json_build_array(%d, %s, status, response)::text "
                       "FROM registry.rest('POST', %s, 'verbose=true', %s);"
                       % (i, q(run_name(level, lint)), q("/compatibility/subjects/%s/versions" % subject),
                          q(json.dumps(rbody))))
    return "\n".join(out) + "\n"


def run_name(level, lint):
    return level + (" lint " + lint if lint else "")


def server_answers(cases):
    psql = ["psql", "-qAtX", "-v", "ON_ERROR_STOP=0"]
    subprocess.run(psql + ["-d", "postgres", "-c", "DROP DATABASE IF EXISTS " + DB,
                           "-c", "CREATE DATABASE " + DB], check=True, capture_output=True)
    subprocess.run(psql + ["-d", DB, "-c", "CREATE EXTENSION registry"], check=True,
                   capture_output=True)
    run = subprocess.run(psql + ["-d", DB], input=server_sql(cases), text=True,
                         capture_output=True)
    answers = {}
    for line in run.stdout.splitlines():
        if line.startswith("["):
            i, what, status, response = json.loads(line)
            answers[(i, what)] = (status, response)
    subprocess.run(psql + ["-d", "postgres", "-c", "DROP DATABASE IF EXISTS " + DB],
                   capture_output=True)
    return answers


def cli_answer(tool, tmp, i, c, level, lint):
    """(exit status, parsed --json answer or None)"""
    def write(name, text):
        p = os.path.join(tmp, "%d-%s" % (i, name))
        with open(p, "w") as f:
            f.write(text)
        return p
    args = [tool, "--json", "-t", c["type"], "-l", level]
    if lint:
        args.append("--lint=" + lint)
    for k, (name, text) in enumerate(c["reader_refs"]):
        args += ["-r", "%s=%s" % (name, write("r%d" % k, text))]
    for k, (name, text) in enumerate(c["writer_refs"]):
        args += ["-R", "%s=%s" % (name, write("w%d" % k, text))]
    args += [write("reader", c["reader"]), write("writer", c["writer"])]
    run = subprocess.run(args, capture_output=True, text=True)
    try:
        return run.returncode, json.loads(run.stdout)
    except ValueError:
        return run.returncode, None


def main():
    cases = load_cases(sys.argv[1])
    tool = sys.argv[2]
    answers = server_answers(cases)
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for i, c in enumerate(cases):
            reg = answers.get((i, "register"))
            for level, lint in LEVELS:
                rc, mine = cli_answer(tool, tmp, i, c, level, lint)
                srv = answers.get((i, run_name(level, lint)))
                name = "%s case %d at %s" % (c["type"], i, run_name(level, lint))
                if reg is None or srv is None:
                    ok, why = False, "the server gave no answer"
                elif reg[0] != 200 or srv[0] != 200:
                    # a schema the server refuses is one registry-check refuses
                    ok = rc == 2 and (reg[0] == 422 or srv[0] == 422)
                    why = "server %s/%s, registry-check exit %d" % (reg[0], srv[0], rc)
                else:
                    theirs = json.loads(srv[1])
                    ok = rc in (0, 1) and mine == theirs and (rc == 0) == theirs["is_compatible"]
                    why = "server %s, registry-check (exit %d) %s" % (srv[1], rc, json.dumps(mine))
                if ok:
                    passed += 1
                    print("ok - %s" % name)
                else:
                    failed += 1
                    print("not ok - %s: %s" % (name, why[:2000]))
    print("cli: %d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
