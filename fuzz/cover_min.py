#!/usr/bin/env python3
"""Shrinks fuzz/corpus/<target>/ to a greedy set cover of its coverage edges.

`cargo fuzz cmin` keeps every file that adds a new feature in size order,
which leaves thousands of files here. This runs libFuzzer's merge on each
file alone with edge-only features (-use_counters=0) to get that file's
feature set from the merge control file, then keeps the fewest files (greedy: most new features
first, smaller file on ties) whose union covers every feature. The target
must be built first: `cargo fuzz build -s none <target>`.

Usage: python3 cover_min.py <target> [<target> ...]   (from fuzz/)
"""

import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
BIN = os.path.join(HERE, "target", "x86_64-unknown-linux-gnu", "release")


def file_features(binary, path, tmp):
    """The edge features one input reaches (a one-file libFuzzer merge: its
    control file lists every feature of the first file it runs)."""
    control = os.path.join(tmp, "control")
    one = os.path.join(tmp, "one")
    out = os.path.join(tmp, "out")
    for d in (one, out):
        shutil.rmtree(d, ignore_errors=True)
        os.mkdir(d)
    if os.path.exists(control):
        os.remove(control)  # libFuzzer would resume from an old one
    shutil.copy(path, one)
    subprocess.run(
        [binary, "-merge=1", "-use_counters=0", f"-merge_control_file={control}", out, one],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    with open(control) as f:
        for line in f:
            parts = line.split()
            if parts and parts[0] == "FT":
                return set(map(int, parts[2:]))
    return set()


def features(binary, corpus):
    """{path: set(features)} for every file of `corpus`."""
    with tempfile.TemporaryDirectory() as tmp:
        return {
            os.path.join(corpus, name): file_features(binary, os.path.join(corpus, name), tmp)
            for name in sorted(os.listdir(corpus))
        }


def cover(sets):
    left = set().union(*sets.values()) if sets else set()
    chosen = []
    while left:
        best = max(sets, key=lambda p: (len(sets[p] & left), -os.path.getsize(p)))
        gain = sets[best] & left
        if not gain:
            break
        chosen.append(best)
        left -= gain
    return chosen


def main():
    for target in sys.argv[1:]:
        corpus = os.path.join(HERE, "corpus", target)
        before = os.listdir(corpus)
        before_bytes = sum(os.path.getsize(os.path.join(corpus, p)) for p in before)
        sets = features(os.path.join(BIN, target), corpus)
        chosen = cover(sets)
        keep = tempfile.mkdtemp(prefix=f"cover-{target}-")
        for p in chosen:
            shutil.copy2(p, keep)
        shutil.rmtree(corpus)
        shutil.move(keep, corpus)
        after_bytes = sum(os.path.getsize(os.path.join(corpus, p)) for p in os.listdir(corpus))
        total = len(set().union(*sets.values())) if sets else 0
        print(
            f"{target}: {len(before)} files / {before_bytes} B -> "
            f"{len(chosen)} files / {after_bytes} B covering {total} features"
        )


if __name__ == "__main__":
    main()
