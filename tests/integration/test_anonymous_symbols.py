"""A definition of no name (C++'s anonymous ``enum : unsigned long long {..}``, as fmt's
``core.h`` has) is no symbol. Before, it was one of qualified name ``""``: the parent every
top-level symbol names, so walking up from a function to its enclosing templates found the
enum, then the enum itself, forever; indexing fmt never finished its first commit and
logged nothing (a newcomer found it with gdb). Real parse, real git fixture, real store."""

from __future__ import annotations

import threading
from pathlib import Path

from coderecalld.parse import symbols
from conformance_cases import indexed

HEADER = """\
enum : unsigned long long { flag_bit = 1ULL << 62 };

struct Pool { void put(int x); };

void run() {
  Pool p;
  p.put(1);
}
"""


def test_an_anonymous_enum_is_no_symbol_and_its_values_are() -> None:
    parsed = symbols(HEADER.encode(), "cpp", "mini.h")
    assert [(str(s.kind), s.qualified_name, s.parent) for s in parsed.symbols] == [
        ("constant", "flag_bit", ""), ("struct", "Pool", ""), ("function", "run", "")]


def test_a_file_with_an_anonymous_enum_is_indexed_and_its_calls_resolved(tmp_path: Path) -> None:
    """The sync ends (in a thread given 120 s: the old walk never returned) and the call
    on the declared local resolves to the struct's method."""
    done: list[list[tuple[str, int, str]]] = []

    def sync() -> None:
        with indexed(tmp_path, {"include/mini.h": HEADER}) as running:
            done.append([(s.path, s.line, s.caller) for s in running.service.find_callers("Pool.put", limit=10)])

    worker = threading.Thread(target=sync, daemon=True)
    worker.start()
    worker.join(120)
    assert not worker.is_alive(), "indexing a C++ file with an anonymous enum did not end"
    assert done == [[("include/mini.h", 7, "run")]]
