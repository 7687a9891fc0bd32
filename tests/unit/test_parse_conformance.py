"""Conformance cases (copied from the shared suite) checked at the parse stage.

Each case's ``expected.json`` is read as written: every symbol and caller expectation on a
Python file is asserted, and its ``known_bad_behaviour`` values must not appear.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from coderecalld.parse import language_for, symbols
from coderecalld.records import ParsedFile, Symbol, SymbolKind

CASES = Path(__file__).resolve().parents[1] / "fixtures" / "conformance"
CASE_NAMES = [
    "01-multibyte-byte-offsets",
    "02-leading-blank-lines-shift",
    "04-utf8-bom",
    "06-python-decorated-defs-missing",
]
# Keys of an expected symbol that the parse stage answers for, plus bookkeeping keys.
SYMBOL_KEYS = {
    "path", "qualified_name", "kind", "start_line", "end_line", "start_byte", "start_char_offset",
    "docstring", "decorators", "signature_contains", "async", "name_char_col", "start_char_col",
    "aliases", "optional",
}
BOM = b"\xef\xbb\xbf"


def load(case: str) -> tuple[dict, dict[str, bytes], dict[str, ParsedFile]]:
    """expected.json, the Python blobs and their parses, keyed by repo-relative path."""
    root = CASES / case
    expected = json.loads((root / "expected.json").read_text("utf-8"))
    blobs = {
        path.relative_to(root / "repo").as_posix(): path.read_bytes()
        for path in sorted((root / "repo").rglob("*"))
        if path.is_file() and language_for(path.name) == "python"
    }
    return expected, blobs, {path: symbols(blob, "python") for path, blob in blobs.items()}


def only(parsed: ParsedFile, qualified_name: str) -> Symbol:
    found = [s for s in parsed.symbols if s.qualified_name == qualified_name]
    assert len(found) == 1, f"{qualified_name}: {len(found)} symbols"
    return found[0]


def char_col(blob: bytes, byte: int) -> int:
    """Code-point column of ``byte`` within its line; a BOM is not a character of line 1."""
    line_start = max(blob.rfind(b"\n", 0, byte) + 1, len(BOM) if blob.startswith(BOM) else 0)
    return len(blob[line_start:byte].decode("utf-8"))


@pytest.mark.parametrize("case", CASE_NAMES)
def test_expected_symbols(case: str) -> None:
    expected, blobs, parsed = load(case)
    checked = 0
    for want in expected["expect"]["symbols"]:
        if want["path"] not in parsed:
            continue
        assert set(want) <= SYMBOL_KEYS, set(want) - SYMBOL_KEYS
        blob, sym = blobs[want["path"]], only(parsed[want["path"]], want["qualified_name"])
        assert_symbol(blob, sym, want)
        checked += 1
    assert checked > 0


def assert_symbol(blob: bytes, sym: Symbol, want: dict) -> None:
    source = blob[sym.start_byte : sym.end_byte].decode("utf-8")
    assert (sym.kind.value, sym.start_line, sym.end_line) == (want["kind"], want["start_line"], want["end_line"])
    assert sym.name == want["qualified_name"].rsplit(".", 1)[-1]
    # Lines and bytes agree: the line of the first and of the last byte.
    assert blob.count(b"\n", 0, sym.start_byte) + 1 == sym.start_line
    assert blob.count(b"\n", 0, sym.end_byte - 1) + 1 == sym.end_line
    assert source.startswith(("def ", "async def ", "class ", "@"))
    if "start_byte" in want:
        assert sym.start_byte == want["start_byte"]
    if "start_char_offset" in want:
        assert len(blob[: sym.start_byte].decode("utf-8")) == want["start_char_offset"]
    if "docstring" in want:
        assert sym.docstring == want["docstring"]
    assert list(sym.decorators) == want.get("decorators", [])
    assert want.get("signature_contains", "") in sym.signature
    assert sym.is_async is want.get("async", False)
    if "start_char_col" in want:
        assert char_col(blob, sym.start_byte) == want["start_char_col"]
    if "name_char_col" in want:
        name_byte = sym.start_byte + blob[sym.start_byte : sym.end_byte].index(sym.name.encode())
        assert char_col(blob, name_byte) == want["name_char_col"]


@pytest.mark.parametrize("case", CASE_NAMES)
def test_expected_callers(case: str) -> None:
    expected, _blobs, parsed = load(case)
    checked = 0
    for entry in expected["expect"].get("callers", []):
        # Decorator references ("@traced" without a call) are a "should"; the parse stage
        # reports call expressions only.
        if entry.get("level") == "should":
            continue
        for site in entry["sites"]:
            if site["path"] not in parsed:
                continue
            caller = only(parsed[site["path"]], site["caller"])
            assert (entry["callee"], site["line"]) in {(c.name, c.line) for c in caller.call_sites}
            checked += 1
    assert checked > 0


@pytest.mark.parametrize("case", CASE_NAMES)
def test_known_bad_behaviour_absent(case: str) -> None:
    expected, _blobs, parsed = load(case)
    bad = expected.get("known_bad_behaviour", {})
    all_symbols = [s for p in parsed.values() for s in p.symbols]
    names = {s.name for s in all_symbols}
    for qualified_name, bad_name in bad.get("names", {}).items():
        assert bad_name not in names and qualified_name in {s.qualified_name for s in all_symbols}
    for qualified_name, bad_line in bad.get("start_lines", {}).items():
        assert bad_line not in {s.start_line for s in all_symbols if s.qualified_name == qualified_name}
    for qualified_name in bad.get("missing", []):
        assert qualified_name in {s.qualified_name for s in all_symbols}


def test_bom_invariants() -> None:
    _expected, blobs, parsed = load("04-utf8-bom")
    blob, pf = blobs["bom/first.py"], parsed["bom/first.py"]
    first = only(pf, "first")
    assert blob[first.start_byte : first.end_byte].decode("utf-8") == "def first():\n    return 1"
    for sym in pf.symbols:
        assert "\ufeff" not in sym.name + sym.signature + blob[sym.start_byte : sym.end_byte].decode("utf-8")
    assert not pf.has_errors


def test_multibyte_invariants() -> None:
    _expected, blobs, parsed = load("01-multibyte-byte-offsets")
    blob, pf = blobs["src/i18n_utils.py"], parsed["src/i18n_utils.py"]
    assert [s.name for s in pf.symbols] == ["BANNER", "normalize", "Größe", "größer_als", "toggle_pause",
                                            "is_paused"]
    banner = pf.symbols[0]
    assert (banner.kind, banner.start_line, banner.end_line) == (SymbolKind.CONSTANT, 5, 5)
    assert blob[banner.start_byte:banner.end_byte].decode("utf-8") == 'BANNER = "¡Hola, señor! — 你好 — 🎉🎉"'
    for sym in pf.symbols[1:]:
        source = blob[sym.start_byte : sym.end_byte].decode("utf-8")
        assert source.startswith(("def ", "class "))
        assert source.split("(")[0].split(":")[0].split()[-1] == sym.name
    assert pf.module_docstring == "Módulo de utilidades — ñandú."


def test_decorated_invariants() -> None:
    _expected, blobs, parsed = load("06-python-decorated-defs-missing")
    blob, pf = blobs["app/routes.py"], parsed["app/routes.py"]
    health = only(pf, "health_check")
    source = blob[health.start_byte : health.end_byte].decode("utf-8")
    assert source.startswith("@traced\n@functools.lru_cache(\n    maxsize=128,\n)\ndef health_check(")
    assert [s.qualified_name for s in pf.symbols] == [
        "traced", "traced.wrapper", "Point", "Point.norm", "Point.origin", "Point.from_pair",
        "health_check", "fetch_status",
    ]
