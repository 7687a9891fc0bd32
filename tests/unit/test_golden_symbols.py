"""Golden symbol tables: every file under tests/fixtures/languages/<language>/ is parsed and
compared with tests/golden/symbols/<language>.json.

Regenerate only on purpose, then review the diff like code:

    pytest tests/unit/test_golden_symbols.py --update-goldens
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from coderecalld import parse

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures" / "languages"
GOLDEN = ROOT / "golden" / "symbols"
LANGUAGES = sorted(p.name for p in FIXTURES.iterdir() if p.is_dir())


def table(language: str) -> dict[str, list[dict]]:
    """``{relative path: [symbol rows]}`` for one language's fixtures; rows hold every field
    the index stores for a symbol, so any change in extraction shows up in the diff."""
    out: dict[str, list[dict]] = {}
    for path in sorted((FIXTURES / language).rglob("*")):
        if not path.is_file():
            continue
        rel = path.relative_to(FIXTURES / language).as_posix()
        lang = parse.language_for(path.name)
        assert lang == language, f"{rel}: extension selects {lang!r}, fixture dir is {language!r}"
        blob = path.read_bytes()
        parsed = parse.symbols(blob, lang)
        out[rel] = [{
            "kind": str(s.kind), "name": s.name, "qualified_name": s.qualified_name,
            "parent": s.parent, "signature": s.signature, "docstring": s.docstring,
            "start_line": s.start_line, "end_line": s.end_line,
            "start_byte": s.start_byte, "end_byte": s.end_byte,
            "calls": [[c.name, c.line] for c in s.call_sites],
        } for s in parsed.symbols]
        for row in out[rel]:  # ranges must be self-consistent before they are compared
            text = blob[row["start_byte"]:row["end_byte"]].decode()
            assert text.count("\n") == row["end_line"] - row["start_line"], (rel, row["qualified_name"])
    return out


@pytest.mark.parametrize("language", LANGUAGES)
def test_golden_symbols(language: str, request: pytest.FixtureRequest) -> None:
    got = table(language)
    golden = GOLDEN / f"{language}.json"
    if request.config.getoption("--update-goldens"):
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(json.dumps(got, indent=1, ensure_ascii=False) + "\n")
    assert golden.exists(), f"no golden for {language}; run with --update-goldens and review it"
    assert got == json.loads(golden.read_text())


def test_every_supported_language_has_a_fixture() -> None:
    assert sorted(parse.supported_languages()) == LANGUAGES
