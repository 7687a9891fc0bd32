"""Benchmark: query analysis (``query/shape.analyze``) on hostile pastes, which must stay
linear in their length: a paste is analysed before any deadline can stop it, so a
quadratic pattern holds a daemon thread for minutes (issue 21's stalls: a line-start
``\\s*`` over 600 lines of spaces, 16 s; ``_BANNER`` over a line of 200,000 spaces, 400 s;
``_PATH`` from every ``-`` of ``a-a-a-...``, 100,000 pairs held search past its 30 s
deadline). Not a test: nothing here asserts a time; the figures go in the notes.

Two sets, each timed once per text (``--size`` characters, default 100,000), and
``TEMPLATES`` (a message template against a message crafted to backtrack):

* ``named``: the inputs that stalled, and kin (whitespace lines, runs of ``a-``, ``a.``,
  base64, repeated Go and V8 frames, banners, long code spans);
* ``pairs``: every two-character unit of a hostile alphabet repeated to ``--size``
  characters, behind no prefix, a title line and an error line (``--pairs`` to run it; 2,187
  texts, several minutes).

    python tests/bench/bench_hostile_queries.py [--size 100000] [--pairs]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from coderecalld.query import shape

ALPHABET = ["a", "-", ".", "/", "_", ":", "(", ")", " ", "\n", "'", '"', "`", "@", "A", "1",
            "<", ">", "[", "=", ",", "\\", "*", "\t", "|", "#", "$"]


def named(size: int) -> dict[str, str]:
    """Hostile texts of about ``size`` characters, by name."""
    def fill(unit: str, prefix: str = "title\n") -> str:
        return prefix + unit * (size // len(unit))
    return {
        "spaces line": fill(" ") + "\nb",
        "space lines": fill(" " * 299 + "\n") + "ValueError: end",
        "blank lines": fill("\n") + "ValueError: end",
        "a- run": fill("a-"),
        "a. error line": fill("a.", "title\nTypeError: "),
        "base64url": fill("Zm9v-_"),
        "one word": fill("a"),
        "go frames": fill("main.f(0x1)\n\t/go/pkg/mod/x.com/m@v1.2.3/a.go:12 +0x1d\n"),
        "v8 frames": fill("    at A.b [as c] (/app/node_modules/x/lib/a.js:1:2)\n"),
        "banner lines": fill('Python 3.9 (default, Jun 28 2021)\nType "help", "copyright"\n'),
        "code span": "title\n`" + " " * size + "<a>`",
        "parens": fill("a("),
        "at spaces": "x\n    at x" + " " * size + " (a.js:1:1)",
        # an error line alone is a trace up to shape.ERROR_LINE_MAX_CHARS: its message's
        # patterns cost O(words^2) had it no cut (12 s, a review)
        "error line quotes": "ValueError: bad value for the field of the form: '" + "a'" * 990,
        "error line json": "ValueError: Could not decode the body: {" + '"k":1,' * 330 + "}",
        # a review, fifteenth session: each backtracked or copied quadratically
        "rust panics": fill("panicked at '"),  # frames.RUST_PANIC: 5.6 s at 200,000
        "deep path": "Crash loading config\nThe file " + "a/" * (size // 2) + "x.py fails.",  # 28 s
        "deep frame": 'Traceback (most recent call last):\n  File "' + "a/" * (size // 2)
                      + 'x.py", line 3, in load\nValueError: bad config\n',
        # links (``shape._delinked``): one long one, and many short ones
        "deep link": "title\nsee https://a" + "/a" * (size // 2) + " there",
        "many links": fill("http://x.y/#a "),
        # environment report lines (``shape._REPORT``)
        "version lines": fill("numpy==1.21.0\n"),
        "version-like runs": fill("a 1." + "1." * 98 + "x\n"),
    }


#: Message templates against messages crafted to backtrack (``shape.template_words``, run
#: per candidate chunk at search time): one regular expression per template took 22 s for
#: 138 characters of ``a.`` against ``"{x} a {y} a {z} a {w} b"`` (a review); ``Printed``
#: matches piece by piece.
TEMPLATES = {
    "four values, a. run": ('raise ValueError(f"{x} a {y} a {z} a {w} b")', "b w w " + "a." * 100),
    "four values, a run": ('raise ValueError(f"{x} a {y} a {z} a {w} b")', "a " * 100),
    "two values, quotes": ('raise ValueError(f"{x!r} is not {y!r} at all")', "'a' is not " * 20),
}


def pairs(size: int) -> dict[str, str]:
    """Every two-character unit of ``ALPHABET`` behind three prefixes."""
    out = {}
    for a in ALPHABET:
        for b in ALPHABET:
            for prefix in ("", "title\n", "title\nTypeError: "):
                out[f"{prefix!r}+{a + b!r}"] = prefix + (a + b) * (size // 2)
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", type=int, default=100_000)
    ap.add_argument("--pairs", action="store_true")
    args = ap.parse_args()
    texts = named(args.size) | (pairs(args.size) if args.pairs else {})
    took = {}
    for name, text in texts.items():
        start = time.perf_counter()
        shape.analyze(text.strip() or "x")
        took[name] = 1000 * (time.perf_counter() - start)
    for name, (source, message) in TEMPLATES.items():
        start = time.perf_counter()
        shape.template_words(source, message)
        took[f"template: {name}"] = 1000 * (time.perf_counter() - start)
    for name, ms in sorted(took.items(), key=lambda kv: -kv[1])[:15]:
        print(f"{ms:9.1f} ms  {name}")
    print(f"{len(took)} texts of ~{args.size:,} characters: median {statistics.median(took.values()):.1f} ms, "
          f"max {max(took.values()):.1f} ms (load {os.getloadavg()[0]:.1f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
