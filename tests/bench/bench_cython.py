"""Benchmark: how much of a Cython code base ``parse.symbols`` reads (``parse/cython.py``).

For every ``.pyx``, ``.pxd`` and ``.pxi`` file under ROOT (an sdist's tree, e.g. scikit-learn's
from PyPI, or a checkout), counts the definition lines a regular expression finds (``def``,
``cdef``/``cpdef`` with a parameter list, ``cdef class``: an upper bound, ``.pxd`` prototypes
included, which are no symbols), the functions, methods and classes the Python grammar finds
in the blob as is, and those it finds in the masked copy, with the syntax error nodes of both
parses. Checks that every masked copy keeps the blob's length and line count.

    python tests/bench/bench_cython.py ROOT [--files]

Not a test: nothing here asserts a figure.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from tree_sitter import Node, Parser

from coderecalld.parse import registry, symbols
from coderecalld.parse.cython import EXTENSIONS, masked

DEFINITION = re.compile(rb"(?m)^[ \t]*(?:(?:cdef|cpdef)\b[^\n=]*?\b\w+[ \t]*\([^\n]*|def[ \t]+\w+[ \t]*\([^\n]*"
                        rb"|cdef[ \t]+(?:public[ \t]+)?class[ \t]+\w+[^\n]*)$")
KINDS = ("function", "method", "class")


def errors(node: Node) -> int:
    """ERROR and missing nodes under ``node``."""
    count, stack = 0, [node]
    while stack:
        n = stack.pop()
        count += n.type == "ERROR" or n.is_missing
        stack.extend(n.children)
    return count


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("root", type=Path)
    ap.add_argument("--files", action="store_true", help="one line per file")
    args = ap.parse_args()
    parser = Parser(registry.language("python"))
    files = sorted(p for p in args.root.rglob("*") if p.suffix in EXTENSIONS and p.is_file())
    total = [0, 0, 0, 0, 0]
    for path in files:
        blob = path.read_bytes()
        copy = masked(blob)
        assert len(copy) == len(blob) and copy.count(b"\n") == blob.count(b"\n"), path
        row = [len(DEFINITION.findall(blob)),
               sum(s.kind.value in KINDS for s in symbols(blob, "python", "plain.py").symbols),
               sum(s.kind.value in KINDS for s in symbols(blob, "python", path.name).symbols),
               errors(parser.parse(blob).root_node), errors(parser.parse(copy).root_node)]
        total = [a + b for a, b in zip(total, row)]
        if args.files:
            print(f"{path.relative_to(args.root)}: lines {row[0]}, plain {row[1]}, masked {row[2]}, "
                  f"errors {row[3]} -> {row[4]}")
    print(f"{len(files)} files: definition lines {total[0]}, found as Python {total[1]}, "
          f"found masked {total[2]}; error nodes {total[3]} -> {total[4]}")


if __name__ == "__main__":
    main()
