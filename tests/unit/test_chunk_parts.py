"""Oversized symbols: parts cut only where a statement starts, exact ranges, class context."""

from coderecalld import parse
from coderecalld.index import chunk, chunk_split
from coderecalld.records import Chunk

SOURCE = (
    'class Invoice(Base):\n'                   # 1
    '    """A customer invoice.\n'             # 2
    '\n'                                       # 3
    '    Totals and taxes."""\n'               # 4
    '\n'                                       # 5
    '    def total(self):\n'                   # 6
    '        x = [\n'                          # 7
    '            1,\n'                         # 8
    '        ]\n'                              # 9
    '        # about y\n'                      # 10
    '        y = """\n'                        # 11
    '        text at body indentation\n'       # 12
    '        """\n'                            # 13
    '        if x:\n'                          # 14
    '            a = audit(1)\n'               # 15
    '        else:\n'                          # 16
    '            a = 2\n'                      # 17
    '        @dec\n'                           # 18
    '        def inner():\n'                   # 19
    '            pass\n'                       # 20
    '        return (x +\r\n'                  # 21
    '                y)\n'                     # 22
).encode()


def table(chunks: list[Chunk]) -> list[tuple[str, str, int, int]]:
    return [(c.kind, c.qualified_name, c.start_line, c.end_line) for c in chunks]


def test_parts_start_at_body_statements_with_exact_ranges() -> None:
    chunks = chunk.chunks("r", "inv.py", SOURCE, parse.symbols(SOURCE, "python"), max_lines=5)
    assert table(chunks) == [
        ("class", "Invoice", 1, 22),  # 5 lines of its own: its method has chunks already
        ("method", "Invoice.total", 6, 22),  # 14 lines of its own (inner has 3)
        ("method", "Invoice.total#part2", 10, 13),  # comment goes with the statement below
        ("method", "Invoice.total#part3", 14, 17),  # never between `if` and `else`
        ("method", "Invoice.total#part4", 18, 22),  # never between decorator and def; nor in ( )
        ("function", "Invoice.total.inner", 18, 20),
        # no module chunk: nothing outside the class (chunk.chunks)
    ]
    for c in chunks:
        assert c.text == SOURCE[c.start_byte:c.end_byte].decode()
        assert c.start_line == 1 + SOURCE[:c.start_byte].count(b"\n")
        assert c.end_line - c.start_line == SOURCE[c.start_byte:c.end_byte].rstrip(b"\n").count(b"\n")
    part = chunks[2]
    assert part.text == ('        # about y\n        y = """\n'
                         '        text at body indentation\n        """\n')
    assert (part.name, part.docstring, part.call_sites, part.ordinal) == ("total#part2", "", (), 0)
    # Callers name the whole method, never a part: every call site stays on it.
    assert [s.name for s in chunks[1].call_sites] == ["audit", "dec"]  # inner's decorator: total's
    # The whole method embeds its first part only, under its class header.
    assert chunks[1].embed_text == (
        "class Invoice(Base): A customer invoice.\ndef total(self)\n"
        "def total(self):\n        x = [\n            1,\n        ]\n")
    assert chunks[4].embed_text.startswith(
        "class Invoice(Base): A customer invoice.\ndef total(self)\n        @dec\n")


def test_a_class_with_much_code_of_its_own_is_split() -> None:
    blob = ("class Config:\n    \"\"\"Settings.\"\"\"\n" + "".join(f"    k{i} = {i}\n" for i in range(8))
            + "    def f(self):\n        return 1\n").encode()
    chunks = chunk.chunks("r", "c.py", blob, parse.symbols(blob, "python"), max_lines=6)
    assert table(chunks) == [("class", "Config", 1, 12), ("class", "Config#part2", 7, 12),
                             ("method", "Config.f", 11, 12)]


def test_symbols_within_budget_are_not_split() -> None:
    chunks = chunk.chunks("r", "inv.py", SOURCE, parse.symbols(SOURCE, "python"))
    assert [c.qualified_name for c in chunks] == ["Invoice", "Invoice.total", "Invoice.total.inner"]
    assert chunks[1].embed_text.startswith(
        "class Invoice(Base): A customer invoice.\ndef total(self)\n")


def test_a_statement_bigger_than_the_budget_stays_whole() -> None:
    body = "    a = 1\n    table = {\n" + "        'k': 1,\n" * 30 + "    }\n    return table\n"
    blob = ("def f():\n" + body).encode()
    chunks = chunk.chunks("r", "t.py", blob, parse.symbols(blob, "python"), max_lines=10)
    # the one-line `return table` after it is no part of its own (``TAIL_MIN_LINES``)
    assert table(chunks)[:3] == [("function", "f", 1, 35), ("function", "f#part2", 3, 35)]


def test_a_short_last_part_moves_its_cut_up_or_joins_the_part_before() -> None:
    body = "".join(f"    x{i} = {i}\n" for i in range(23)) + "    return x0\n"
    blob = ("def f():\n" + body).encode()
    chunks = chunk.chunks("r", "t.py", blob, parse.symbols(blob, "python"), max_lines=12)
    # packed greedily: 2-12, 13-23, 24-25 (two lines); the last cut moves up to leave four
    assert table(chunks)[:4] == [("function", "f", 1, 25), ("function", "f#part2", 13, 21),
                                 ("function", "f#part3", 22, 25)]
    assert chunk_split.TAIL_MIN_LINES == 4


def test_chars_budget_splits_too() -> None:
    blob = ("def f():\n" + "    x = '" + "a" * 300 + "'\n" * 1 + "    y = 2\n" * 2).encode()
    chunks = chunk.chunks("r", "t.py", blob, parse.symbols(blob, "python"), max_chunk_chars=200)
    # Greedy: part 2 starts at the first cut the 300-character line allows, then fits.
    assert table(chunks) == [("function", "f", 1, 4), ("function", "f#part2", 3, 4)]


JS = '''function f(a) {
  const x = {
    a: 1,
  };
  // comment about the branch
  if (a) {
    g(`multi
line } {`);
  } else {
    h();
  }
  foo
    .bar();
  return x;
}'''.split("\n")


def test_brace_language_cuts() -> None:
    # Rows (0-based) directly inside a block: not inside the template string, not at `} else {`,
    # not at a `.bar()` continuation; the comment row moves with its statement.
    assert sorted(chunk_split._with_comments(JS, chunk_split._brace_cuts(JS, "javascript"),
                                              "javascript")) == [1, 2, 4, 6, 9, 11, 13]
    # Body-level rows (brace depth 1) win over the nested ones when both fit.
    assert chunk_split.part_starts(JS, "javascript", 7, 10_000) == [4, 11]
    assert chunk_split.part_starts(JS, "javascript", 6, 10_000) == [4, 9]
    rust = ["fn f<'a>(x: &'a str) -> &'a str {", "    let c = '{';", "    let d = x;", "    d", "}"]
    assert sorted(chunk_split._brace_cuts(rust, "rust")) == [1, 2, 3]


RUBY = '''def run(items)
  # don't { count
  total = items.map { |x|
    x * 2
  }
  if total
    puts total
  end
  log(
    total)
  total
end'''.split("\n")


def test_indentation_language_cuts() -> None:
    # Ruby has no {} bodies: rows outside every bracket and indented past `def`; `#` comments
    # (with a quote in them) are comments; `end` closes, never starts, a statement.
    cuts = chunk_split._with_comments(RUBY, chunk_split._brace_cuts(RUBY, "ruby"), "ruby")
    assert cuts == {1: (0, 2), 5: (0, 2), 6: (0, 4), 8: (0, 2), 10: (0, 2)}
    # packed [5, 10]: the last part (`total`, `end`) too short, joined to the one before
    assert chunk_split.part_starts(RUBY, "ruby", 5, 10_000) == [5]
    bash = ["deploy() {", "  # it's fine", "  local x=1", '  echo "$x }"', "}"]
    assert chunk_split._with_comments(bash, chunk_split._brace_cuts(bash, "bash"), "bash") == {
        1: (1, 2), 3: (1, 2)}


def test_a_long_functions_calls_and_references_stay_on_its_whole_chunk() -> None:
    """httpx's ``callers trace`` listed one reference twice, as ``main`` and ``main#part2``:
    a part carried its symbol's references (its calls never)."""
    body = "".join(f"    x{i} = {i}\n" for i in range(20)) + "    run(callback=trace)\n"
    blob = ("def trace():\n    pass\n\n\ndef f():\n" + body).encode()
    chunks = chunk.chunks("r", "t.py", blob, parse.symbols(blob, "python"), max_lines=12)
    held = [(c.qualified_name, [r.name for r in c.references], [s.name for s in c.call_sites])
            for c in chunks if c.qualified_name.startswith("f")]
    assert held == [("f", ["trace"], ["run"]), ("f#part2", [], [])]
