"""A definition of no name (C++'s anonymous ``enum : unsigned long long {..}``, as fmt's
``core.h`` has) is no symbol. Before, it was one of qualified name ``""``: the parent every
top-level symbol names, so walking up from a function to its enclosing templates found the
enum, then the enum itself, forever; indexing fmt never finished its first commit and
logged nothing (a newcomer found it with gdb). Real parse, real git fixture, real store."""

from __future__ import annotations

import threading
from pathlib import Path

from coderecalld.index.resolve_own import Own
from coderecalld.parse import symbols
from conformance_cases import indexed

HEADER = """\
#include "pool.h"

enum : unsigned long long { flag_bit = 1ULL << 62 };

void run(Pool& p, Buffer& b) {
  p.put(1);
  b.grow(2);
}
"""
POOL = """\
struct Pool {
  void put(int x);
};
"""


def test_an_anonymous_enum_is_no_symbol_and_its_values_are() -> None:
    parsed = symbols(HEADER.encode(), "cpp", "mini.h")
    assert [(str(s.kind), s.qualified_name, s.parent) for s in parsed.symbols] == [
        ("constant", "flag_bit", ""), ("function", "run", "")]


def test_a_file_with_an_anonymous_enum_is_indexed_and_its_calls_resolved(tmp_path: Path) -> None:
    """The sync ends (in a thread given 120 s: the old walk, from the function to the
    templates around it, never returned for ``b.grow``, whose type no file defines) and
    the call on the parameter of a known type resolves to the other header's method."""
    done: list[list[tuple[str, int, str]]] = []

    def sync() -> None:
        with indexed(tmp_path, {"include/mini.h": HEADER, "include/pool.h": POOL}) as running:
            done.append([(s.path, s.line, s.caller) for s in running.service.find_callers("Pool.put", limit=10)])

    worker = threading.Thread(target=sync, daemon=True)
    worker.start()
    worker.join(120)
    assert not worker.is_alive(), "indexing a C++ file with an anonymous enum did not end"
    assert done == [[("include/mini.h", 6, "run")]]


def test_the_type_of_a_local_beside_an_anonymous_enum_is_read_in_bounded_time() -> None:
    """``Own.site`` on ``p.put(1)`` (``Pool p`` a local) reads whether ``Pool`` is a
    template parameter around ``run``: the walk up its parents ended on the nameless enum,
    its own parent, and never returned (the newcomer's 8-line header, in a thread given
    30 s here)."""
    header = "enum : unsigned long long { flag_bit = 1ULL << 62 };\n\nstruct Pool { void put(int x); };\n\n" \
             "void run() {\n  Pool p;\n  p.put(1);\n}\n"
    parsed = symbols(header.encode(), "cpp", "mini.h")
    own = Own(parsed, dict(enumerate(header.split("\n"), 1)))
    (run,) = [s for s in parsed.symbols if s.qualified_name == "run"]
    found: list[str] = []
    worker = threading.Thread(target=lambda: found.extend(own.site(c, "run").receiver_type for c in run.call_sites),
                              daemon=True)
    worker.start()
    worker.join(30)
    assert not worker.is_alive(), "reading a local's type beside an anonymous enum did not end"
    assert found == ["Pool"]
