#!/usr/bin/env python3
"""Scores `extract` on the labelled public corpus (fixtures/transcripts/public/).

Usage: scripts/score_public_corpus.py --raw DIR [--split dev|heldout|fresh|fresh2|all]
       [--bin target/debug/active-status] [-v]

DIR holds the transcripts as `<id>.<ext>` (scripts/fetch_public_corpus.sh
fetches them from SOURCES.tsv). Each transcript is read by `extract
--transcript FILE --format json` against an empty vault.

A candidate matches a label when, after lowercasing and dropping `*`, `_` and
backticks: the label's anchor (a verbatim phrase of the transcript) is part of
the candidate or the candidate part of the anchor; or at least 60 % of the
anchor's words (character pairs for text without spaces) are in the candidate;
or the candidate and the label's text share half of their words (Jaccard).
Recall counts required labels matched (each label by one candidate at most);
precision counts candidates matching any label, required or optional; a
negative control passes with no candidate at all. `--top K` also reports the
precision of each session's K most certain candidates, ranked as the capture
ranks them over its cap (last request, agent todo, summary, message, hand-off;
transcript order within a rank).
"""
import argparse, json, os, re, subprocess, sys, tempfile
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
PUBLIC = os.path.join(HERE, "..", "fixtures", "transcripts", "public")


def norm(s):
    s = re.sub(r"[*_`]", "", s.lower())
    return " ".join(s.split())


def words(s):
    return set(w for w in re.split(r"[^\w]+", s) if w)


def pairs(s):
    s = re.sub(r"\s+", "", s)
    return set(s[i:i + 2] for i in range(len(s) - 1))


def matches(label, cand):
    c = norm(cand)
    a = norm(label.get("anchor", ""))
    if a and (a in c or (len(c.split()) >= 3 and c in a)):
        return True
    if a:
        aw = words(a)
        if len(aw) >= 3 and len(aw & words(c)) >= 0.6 * len(aw):
            return True
        if not a.isascii():
            ap = pairs(a)
            if ap and len(ap & pairs(c)) >= 0.6 * len(ap):
                return True
    t = words(norm(label["text"]))
    cw = words(c)
    return bool(t | cw) and len(t & cw) >= 0.5 * len(t | cw)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--raw", required=True)
    ap.add_argument("--split", default="dev", choices=["dev", "heldout", "fresh", "fresh2", "all"])
    ap.add_argument("--bin", default=os.path.join(HERE, "..", "target", "debug", "active-status"))
    ap.add_argument("-v", action="store_true", help="list misses and extras")
    ap.add_argument("--top", type=int, default=3, help="K of the top-K precision")
    ap.add_argument("--by-rule", action="store_true",
                    help="candidates right and wrong per origin and keyword")
    args = ap.parse_args()
    vault = tempfile.mkdtemp(prefix="vault-")
    os.makedirs(os.path.join(vault, ".agents"))
    per = defaultdict(lambda: [0, 0, 0, 0, 0, 0])  # req, found, cands, right, neg, neg_hit
    rules = defaultdict(lambda: [0, 0, 0])  # candidates, right, required labels found
    top = [0, 0]  # top-K candidates, right
    rank = {"last-request": 0, "agent-todo": 1, "summary": 2, "message": 3, "handoff": 4}
    with open(os.path.join(PUBLIC, "labels.jsonl")) as f:
        sessions = [json.loads(l) for l in f if l.strip()]
    for s in sessions:
        if args.split != "all" and s["split"] != args.split:
            continue
        files = [n for n in os.listdir(args.raw) if n.rsplit(".", 1)[0] == s["id"]]
        if not files:
            print(f"{s['id']}: no transcript in {args.raw}", file=sys.stderr)
            continue
        path = os.path.join(args.raw, files[0])
        out = subprocess.run([args.bin, "--root", vault, "extract", "--transcript", path,
                              "--format", "json"], capture_output=True, text=True)
        if out.returncode != 0:
            print(f"{s['id']}: exit {out.returncode}: {out.stderr.strip()}", file=sys.stderr)
            cands, kinds, origins = [], [], []
        else:
            found = json.loads(out.stdout)["candidates"]
            cands = [c["text"] for c in found]
            origins = [c["origin"] for c in found]
            kinds = [f"{c['origin']}: {re.sub(r'[0-9]+', 'N', c['keyword'])}" for c in found]
        p = per[s["format"]]
        req = [l for l in s["followups"] if l["kind"] == "required"]
        used = set()
        for l in req:
            hit = next((i for i, c in enumerate(cands) if i not in used and matches(l, c)), None)
            if hit is None:
                if args.v:
                    print(f"  {s['id']}: missed [{l['shape']}] {l['text']!r}")
            else:
                used.add(hit)
        right = [i for i, c in enumerate(cands) if i in used or any(matches(l, c) for l in s["followups"])]
        if args.v:
            for i, c in enumerate(cands):
                if i not in right:
                    print(f"  {s['id']}: extra {c[:120]!r}")
        best = sorted(range(len(cands)), key=lambda i: (rank.get(origins[i], 5), i))[:args.top]
        top[0] += len(best)
        top[1] += sum(i in right for i in best)
        for i, k in enumerate(kinds):
            rules[k][0] += 1
            rules[k][1] += i in right
            rules[k][2] += i in used
        p[0] += len(req)
        p[1] += len(used)
        p[2] += len(cands)
        p[3] += len(right)
        if s["negative"]:
            p[4] += 1
            p[5] += bool(cands)
    tot = [sum(v[i] for v in per.values()) for i in range(6)]
    print(f"split {args.split}: format | recall | precision | negatives with a candidate")
    for name, v in sorted(per.items()) + [("total", tot)]:
        rec = f"{100 * v[1] / v[0]:.0f}% ({v[1]}/{v[0]})" if v[0] else "-"
        pre = f"{100 * v[3] / v[2]:.0f}% ({v[3]}/{v[2]})" if v[2] else "-"
        print(f"  {name:10} | {rec:14} | {pre:14} | {v[5]}/{v[4]}")
    if top[0]:
        print(f"  top-{args.top} precision: {100 * top[1] / top[0]:.0f}% ({top[1]}/{top[0]})")
    if args.by_rule:
        print("rule (origin: keyword) | candidates | right | required found")
        for k, (n, r, f) in sorted(rules.items(), key=lambda kv: -(kv[1][0] - kv[1][1])):
            print(f"  {k[:50]:50} | {n:3} | {r:3} | {f:3}")


if __name__ == "__main__":
    main()
