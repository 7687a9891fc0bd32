"""Benchmark: fuzzy symbol lookup time by name length (issue 19: it was exponential).

Builds an embedded store of ``--names`` camelCase names (2-7 words of a code vocabulary,
plus one target per length), then for each length times ``fuzzy.candidates`` + ``judge``
(the whole fuzzy path of ``Service.find_symbols`` below the gRPC layer) on a 2-edit typo of
that length's target, and says whether the target was found. Prints ms (min / median of
``--repeat``) and the candidates read. Not a test: nothing here asserts a time.

    python tests/bench/bench_fuzzy.py [--names 20000] [--repeat 5] [--lengths 8,12,17]

The code before (``git archive d2c1719 daemon | tar -x -C /tmp/old``, then
``PYTHONPATH=/tmp/old/daemon:clients``) runs the same script for comparison.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from codenames import WORDS, camel, random_name  # noqa: E402

from coderecalld.embed import sparse
from coderecalld.query import fuzzy
from coderecalld.records import PointRecord
from coderecalld.store import EdgeStore, StoreFilter

LENGTHS = (8, 12, 17, 21, 23, 26, 28, 40, 60, 200, 1000)


def target(rng: random.Random, length: int) -> str:
    out = ""
    while len(out) < length:
        out = camel([rng.choice(WORDS) for _ in range(length // 3 + 2)])
    return out[:length]


def typo(name: str) -> str:
    """Two edits: a swap of two letters near a third, a deletion near two thirds."""
    at, cut = len(name) // 3, 2 * len(name) // 3
    swapped = name[:at] + name[at + 1] + name[at] + name[at + 2:]
    return swapped[:cut] + swapped[cut + 1:]


def point(name: str) -> PointRecord:
    payload = {"repo": "r", "path": "m.py", "language": "python", "kind": "function",
               "name": name, "qualified_name": name, "name_lc": name.lower(),
               "qualified_name_lc": name.lower(), "name_trigrams": fuzzy.name_trigrams(name),
               "start_line": 1, "end_line": 2, "start_byte": 0, "end_byte": 10}
    return PointRecord(str(uuid.uuid5(uuid.NAMESPACE_URL, name)), payload, sparse.vector(name))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--names", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--lengths", default=",".join(map(str, LENGTHS)),
                        help="comma-separated name lengths (the code before issue 19 took "
                             "minutes and GBs from 28 on: run it with 8,12,17,21)")
    args = parser.parse_args()
    rng = random.Random(19)
    names: set[str] = set()
    while len(names) < args.names:
        names.add(random_name(rng))
    targets = {n: target(rng, n) for n in LENGTHS}
    targets = {n: targets[n] for n in map(int, args.lengths.split(","))}
    with tempfile.TemporaryDirectory() as tmp, \
            EdgeStore(Path(tmp) / "s", 4, "m", sparse.TOKENIZER_VERSION) as store:
        points = [point(n) for n in sorted(names | set(targets.values()))]
        for i in range(0, len(points), 1000):
            store.upsert(points[i:i + 1000])
        flt = StoreFilter(repos=("r",))
        print(f"{len(points)} names; a 2-edit typo of a name of each length (1 edit under 6)")
        print(f"{'length':>6} {'min ms':>8} {'median ms':>9} {'candidates':>10}  found")
        for length, name in targets.items():
            query = typo(name) if length >= 6 else name[:-1] + "x"
            took = []
            for _ in range(args.repeat):
                started = time.perf_counter()
                found = fuzzy.candidates(store.find_overlap, flt, query)
                judged = {h.payload["name"]: fuzzy.judge(query, h.payload) for h in found}
                took.append(time.perf_counter() - started)
            hit = judged.get(name) is not None
            print(f"{length:>6} {min(took) * 1000:>8.1f} {statistics.median(took) * 1000:>9.1f} "
                  f"{len(found):>10}  {'yes' if hit else 'NO'}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
