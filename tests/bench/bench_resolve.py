"""Benchmark: the resolve stage (``index.resolve.chunks``) on the standard library.

    python tests/bench/bench_resolve.py [--files N] [--repeat N]

Parses and chunks every ``.py`` file of the running interpreter's standard library (first
``--files``) once, then times ``resolve.chunks`` over all of them (best of ``--repeat``);
prints files, seconds for parse+chunk, seconds for resolve, and resolve's share. Run it
with another checkout first on ``PYTHONPATH`` for the figure before a change. Not a test.
"""

from __future__ import annotations

import argparse
import sysconfig
import time
from pathlib import Path

from coderecalld import parse
from coderecalld.errors import ParseError
from coderecalld.index import chunk, resolve


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--files", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    root = Path(sysconfig.get_paths()["stdlib"])
    paths = sorted(p for p in root.rglob("*.py") if "site-packages" not in p.parts)[: args.files]
    work = []
    start = time.perf_counter()
    for p in paths:
        blob = p.read_bytes()
        rel = str(p.relative_to(root))
        try:
            parsed = parse.symbols(blob, "python")
        except ParseError:
            continue
        work.append((chunk.chunks("stdlib", rel, blob, parsed), parsed, rel,
                     rel[:-3].replace("/", ".").removesuffix(".__init__")))
    parse_s = time.perf_counter() - start
    best = float("inf")
    for _ in range(args.repeat):
        start = time.perf_counter()
        for chunks, parsed, rel, module in work:
            resolve.chunks(chunks, parsed, rel, module)
        best = min(best, time.perf_counter() - start)
    print(f"files {len(work)}  parse+chunk {parse_s:.2f} s  resolve {best:.2f} s  "
          f"resolve share {best / (parse_s + best):.1%}")


if __name__ == "__main__":
    main()
