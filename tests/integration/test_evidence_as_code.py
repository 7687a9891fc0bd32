"""An identifier the index holds only as an attribute (no symbol of its name) is evidence
a chunk should show as code: a chunk using it (``self.json_provider_class(self)``) is on
the first page even when another chunk's docstring names it and scores higher
(``Service._as_code``, ``_in_code``). Real git fixture, real embedded store, sparse side."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from coderecalld.query import service
from coderecalld.query.service import _CODE_TOKEN, _in_code
from conformance_cases import indexed

DOCUMENTED = "".join(f'''\
class Provider{i}:
    """A JSON provider. Set json_provider_class to use it: json_provider_class."""

    def dumps(self, obj):
        return str(obj)


''' for i in range(4))
FILES = {
    "pkg/provider.py": DOCUMENTED,
    "pkg/app.py": '''\
class App:
    def __init__(self, name):
        self.name = name
        self.config = {}
        self.views = {}
        self.json = self.json_provider_class(self)
        self.extensions = {}
        self.blueprints = {}
''',
}


def test_an_identifier_is_shown_where_code_uses_it(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    with indexed(tmp_path, FILES) as d:
        hits = d.service.search("json_provider_class", limit=3, repo="fx")
        monkeypatch.setattr(service, "_CODE_TOKEN", re.compile(r"(?!)"))
        prose_only = d.service.search("json_provider_class", limit=3, repo="fx")
    placed = [(h.path, h.qualified_name, h.match) for h in hits]
    # the docstrings' words score first; the chunk using it as code is placed
    assert ("pkg/app.py", "App.__init__", "evidence") in placed, placed
    assert sum(p[0] == "pkg/provider.py" for p in placed) == 2
    # as before: a docstring naming it held the token, nothing was placed
    assert all(h.path == "pkg/provider.py" for h in prose_only)


@pytest.mark.parametrize(("text", "held"), [
    ("        self.json = self.json_provider_class(self)", True),
    ("    json_provider_class: type = JSONProvider", True),
    ('    """Set json_provider_class to a subclass."""', False),
    ('    """The provider.\n\n    json_provider_class: a subclass.\n    """\n    x = 1', False),
    ('    """The provider."""\n    json_provider_class = 1', True),
    ("    # json_provider_class is read at start", False),
    ("    // jsonProviderClass is read at start", False),
    ("    self.json_provider_class_name = 1", False),  # another name
    ('    x = """a""" + json_provider_class', True),  # after a string whole on its line
    ('    """Doc."""; json_provider_class = 1', True),
    ('    """Doc\n    json_provider_class\n    """ + json_provider_class', True),  # after the close
    ("    *, json_provider_class=None", True),  # a keyword-only parameter, no comment
    ("     * json_provider_class in a block comment", False),
])
def test_a_token_in_code_is_not_one_in_prose(text: str, held: bool) -> None:
    token = "jsonProviderClass" if "jsonProviderClass" in text else "json_provider_class"
    assert _in_code(text, token) is held


def test_code_tokens_are_identifiers_as_code_writes_them() -> None:
    assert [t for t in ("json_provider_class", "SESSION_COOKIE_SAMESITE", "parseExpr", "session",
                        "Session", "X-Forwarded-For", "--lf") if _CODE_TOKEN.fullmatch(t)] == [
        "json_provider_class", "SESSION_COOKIE_SAMESITE", "parseExpr"]
    assert service.EVIDENCE_RANK >= 1


def test_a_query_that_is_one_identifier_lists_its_users_first_source_before_tests(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    files = {**FILES, "tests/test_app.py": '''\
def test_provider():
    app = object.__new__(type("A", (), {}))
    app.json_provider_class = dict
    assert app.json_provider_class is dict
'''}
    with indexed(tmp_path, files) as d:
        hits = d.service.search("json_provider_class", limit=30, repo="fx")
        monkeypatch.setattr(service, "HOLDERS_FIRST", False)
        before = d.service.search("json_provider_class", limit=30, repo="fx")
    # the chunks using it as code first, the source ones before the test's; then the
    # docstrings naming it (werkzeug's automatically_set_content_length answered a chunk of
    # its words first)
    assert [(h.path, h.qualified_name) for h in hits[:3]] == [
        ("pkg/app.py", "App.__init__"), ("pkg/app.py", "App"), ("tests/test_app.py", "test_provider")]
    assert {h.path for h in hits[3:]} == {"pkg/provider.py"}
    # as before: the docstrings' words above the test using it
    order = [h.qualified_name for h in before]
    assert order.index("Provider0") < order.index("test_provider")
