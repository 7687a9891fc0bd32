"""Conformance cases for JavaScript/TypeScript/TSX, Go, Java and Rust, checked at the parse stage.

Every symbol and caller value of the cases' ``expected.json`` that parsing answers for is
asserted, and the ``known_bad_behaviour`` values must not appear. Where the parse stage
speaks a different but equivalent vocabulary, the mapping is explicit:

* kinds ``constructor`` and ``trait_method`` are not ``SymbolKind`` values: both are ``method``;
* a caller's ``callee`` is the resolved symbol (``UserController.lookup``) while a call site
  is the callee as written (``this.lookup``), so their last segments are compared;
* ``aliases`` are spellings the query stage may also accept; parsing reports the first one.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from coderecalld.parse import language_for, symbols
from coderecalld.records import ParsedFile, Symbol

CASES = Path(__file__).resolve().parents[1] / "fixtures" / "conformance"
LANGUAGES = {"javascript", "typescript", "tsx", "go", "java", "rust"}
CASE_NAMES = [
    "04-utf8-bom",
    "07-ts-method-decorator-sibling",
    "08-tsx-arrow-components",
    "10-rust-impl-method-collision",
    "11-java-overloads-name-path",
]
KINDS = {"constructor": "method", "trait_method": "method"}
SYMBOL_KEYS = {
    "path", "qualified_name", "kind", "start_line", "end_line", "decorators", "annotations",
    "exported", "impl_trait", "overload_index", "aliases", "note",
}
_PARAMS = re.compile(r"\([^()]*\)$")


def load(case: str) -> tuple[dict, dict[str, bytes], dict[str, ParsedFile]]:
    """expected.json, and the blobs and parses of the case's files in our languages."""
    root = CASES / case
    expected = json.loads((root / "expected.json").read_text("utf-8"))
    blobs = {
        path.relative_to(root / "repo").as_posix(): path.read_bytes()
        for path in sorted((root / "repo").rglob("*"))
        if path.is_file() and language_for(path.name) in LANGUAGES
    }
    return expected, blobs, {path: symbols(blob, language_for(path)) for path, blob in blobs.items()}


def only(parsed: ParsedFile, qualified_name: str) -> Symbol:
    found = [s for s in parsed.symbols if s.qualified_name == qualified_name]
    assert len(found) == 1, f"{qualified_name}: {len(found)} symbols"
    return found[0]


def last_segment(qualified_name: str) -> str:
    """``<Beta as Greet>::hello`` -> ``hello``; ``demo.Repo.find(String,int)`` -> ``find``."""
    return re.split(r"::|\.", _PARAMS.sub("", qualified_name))[-1]


def in_our_languages(expected: dict) -> list[dict]:
    return [want for want in expected["expect"]["symbols"] if language_for(want["path"]) in LANGUAGES]


@pytest.mark.parametrize("case", CASE_NAMES)
def test_expected_symbols(case: str) -> None:
    expected, blobs, parsed = load(case)
    wanted = in_our_languages(expected)
    assert wanted
    for want in wanted:
        assert set(want) <= SYMBOL_KEYS, set(want) - SYMBOL_KEYS
        blob, sym = blobs[want["path"]], only(parsed[want["path"]], want["qualified_name"])
        assert (sym.kind.value, sym.start_line, sym.end_line) == (
            KINDS.get(want["kind"], want["kind"]), want["start_line"], want["end_line"])
        assert sym.name == last_segment(want["qualified_name"])
        # Lines and bytes agree: the line of the first and of the last byte.
        assert blob.count(b"\n", 0, sym.start_byte) + 1 == sym.start_line
        assert blob.count(b"\n", 0, sym.end_byte - 1) + 1 == sym.end_line
        assert list(sym.decorators) == want.get("decorators", want.get("annotations", []))
        assert_exported(blob, sym, want.get("exported"))
        if "impl_trait" in want:
            assert_impl(sym, want["impl_trait"])
        if "overload_index" in want:
            overloads = [s for s in parsed[want["path"]].symbols if (s.parent, s.name) == (sym.parent, sym.name)]
            assert overloads.index(sym) == want["overload_index"]


def assert_exported(blob: bytes, sym: Symbol, exported: bool | str | None) -> None:
    """An exported symbol's range starts at ``export`` (``export default`` for a default export)."""
    source = blob[sym.start_byte : sym.end_byte].decode("utf-8")
    if exported == "default":
        assert source.startswith("export default ")
    elif exported:
        assert source.startswith("export ") and not source.startswith("export default ")


def assert_impl(sym: Symbol, impl_trait: str | None) -> None:
    """A method of ``impl Trait for Type`` belongs to Type, and only its qualified name says Trait."""
    if impl_trait is None:
        assert sym.qualified_name == f"{sym.parent}::{sym.name}"
    else:
        assert sym.qualified_name == f"<{sym.parent} as {impl_trait}>::{sym.name}"
        assert sym.parent not in (impl_trait, impl_trait.rsplit("::", 1)[-1])


@pytest.mark.parametrize("case", CASE_NAMES)
def test_expected_callers(case: str) -> None:
    expected, _blobs, parsed = load(case)
    checked = 0
    for entry in expected["expect"].get("callers", []):
        # Every "should" is met too: JSX references (<Row />), calls inside Rust macro token
        # trees, Java method references (this::find).
        for site in entry["sites"]:
            if site["path"] not in parsed:
                continue
            caller = only(parsed[site["path"]], site["caller"])
            sites = {(c.short_name, c.line) for c in caller.call_sites}
            assert (last_segment(entry["callee"]), site["line"]) in sites, (entry["callee"], site)
            checked += 1
    assert checked > 0


def test_04_util_ts_has_no_bom_in_its_symbols() -> None:
    _expected, blobs, parsed = load("04-utf8-bom")
    blob, pf = blobs["bom/util.ts"], parsed["bom/util.ts"]
    assert blob.startswith(b"\xef\xbb\xbf") and not pf.has_errors
    first = only(pf, "first")
    assert first.start_byte == 3
    assert blob[first.start_byte : first.end_byte].decode("utf-8") == "export function first(): number {\n  return 1;\n}"
    for sym in pf.symbols:
        assert "\ufeff" not in sym.name + sym.signature + blob[sym.start_byte : sym.end_byte].decode("utf-8")


def test_07_decorators_stay_with_their_method() -> None:
    expected, blobs, parsed = load("07-ts-method-decorator-sibling")
    blob, pf = blobs["src/user.controller.ts"], parsed["src/user.controller.ts"]
    for qualified_name, bad_line in expected["known_bad_behaviour"]["start_lines"].items():
        assert only(pf, qualified_name).start_line != bad_line
    get_user, create_user = only(pf, "UserController.getUser"), only(pf, "UserController.createUser")
    assert blob[get_user.start_byte : get_user.end_byte].decode().startswith('@Get("/:id")\n  @Auth("reader")\n  getUser(')
    # The parameter decorator @Body() (line 13) is inside createUser, not one of its decorators.
    assert "@Body() body" in blob[create_user.start_byte : create_user.end_byte].decode()


def test_08_grammar_per_extension() -> None:
    expected, blobs, parsed = load("08-tsx-arrow-components")
    assert {path: language_for(path) for path in blobs} == expected["expect"]["grammar"]
    assert {path: int(pf.has_errors) for path, pf in parsed.items()} == expected["expect"]["parse_errors"]
    names = {s.qualified_name for pf in parsed.values() for s in pf.symbols}
    assert set(expected["known_bad_behaviour"]["tags_query_without_variable_declarator"]) <= names
    # The mis-pairings the case warns about really do break: the test above is not vacuous.
    assert symbols(blobs["src/Banner.tsx"], "typescript").has_errors
    assert symbols(blobs["src/legacy-cast.ts"], "tsx").has_errors
    for pf in parsed.values():  # every file yields at least one symbol
        assert pf.symbols


def test_10_rust_impl_methods_belong_to_the_type() -> None:
    expected, _blobs, parsed = load("10-rust-impl-method-collision")
    pf = parsed["src/greet.rs"]
    qualified = [s.qualified_name for s in pf.symbols]
    assert len(qualified) == len(set(qualified))  # known bad: "file::hello emitted twice"
    assert [s.qualified_name for s in pf.symbols if s.name == "hello"] == [
        "Greet::hello", "Alpha::hello", "<Beta as Greet>::hello",
    ]
    for parent, members in expected["expect"]["members"].items():
        assert [s.name for s in pf.symbols if s.parent == parent] == members
    bad_parents = {"fmt": ("Display", "fmt::Display"), "default": ("Default",), "<Beta as Greet>::hello": ("Greet",)}
    assert bad_parents.keys() == expected["known_bad_behaviour"]["trait_as_parent"].keys()
    for key, bad in bad_parents.items():
        for sym in pf.symbols:
            if key in (sym.name, sym.qualified_name):
                assert sym.parent not in bad


def lookup(parsed: ParsedFile, query: str) -> list[Symbol]:
    """Symbols whose qualified name ends with ``query`` at a segment boundary; without a
    parameter list in ``query``, every overload matches."""
    def key(sym: Symbol) -> str:
        return sym.qualified_name if "(" in query else _PARAMS.sub("", sym.qualified_name)
    return [s for s in parsed.symbols if key(s) == query or key(s).endswith("." + query)]


def test_11_java_overloads_never_collide() -> None:
    expected, _blobs, parsed = load("11-java-overloads-name-path")
    pf = parsed["src/main/java/demo/repo/UserRepo.java"]
    for want in expected["expect"]["lookups"]:
        found = lookup(pf, want["query"])
        assert len(found) == want["expect_count"], want
        if want.get("expect_distinct_ids"):
            assert len({s.qualified_name for s in found}) == len(found)
        if "expect_start_line" in want:
            assert found[0].start_line == want["expect_start_line"]
    run = only(pf, "demo.repo.UserRepo.warmer().<anonymous Runnable>.run()")
    assert run.parent == "demo.repo.UserRepo.warmer().<anonymous Runnable>"
    assert not lookup(pf, "UserRepo.run")
    # Every printed qualified name resolves to exactly that symbol.
    for sym in pf.symbols:
        assert lookup(pf, sym.qualified_name) == [sym]
