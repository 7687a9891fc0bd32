"""A property's getter and setter are one member in ``symbols`` and ``card``: express's
``defineGetter(req, 'stale', ..)`` beside a ``defineSetter``, ``Object.defineProperty(req,
'ip', {get() {..}, set(v) {..}})``, a TS class's ``get x()`` + ``set x(v)`` and Python's
``@property`` + ``@x.setter`` were two rows of one name, and the card showed the getter
alone (a review). One row, lines spanning the accessors (``read`` of them shows each),
signatures joined in source order. Real git fixture, real store."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from conformance_cases import indexed

REQUEST = """\
var req = Object.create(null);

defineGetter(req, 'stale', function stale(){
  return !this.fresh;
});

defineSetter(req, 'stale', function (value) {
  this.fresh = !value;
});

Object.defineProperty(req, 'ip', {
  get() {
    return this.socket.remoteAddress;
  },
  set(value) {
    this._ip = value;
  },
});

req.get = function header(name) {
  return this.headers[name];
};

function defineGetter(obj, name, getter) {
  Object.defineProperty(obj, name, {get: getter});
}

function defineSetter(obj, name, setter) {
  Object.defineProperty(obj, name, {set: setter});
}
"""
FILES = {
    "lib/request.js": REQUEST,
    "lib/box.ts": "export class Box {\n  get size(): number { return this._n; }\n  other(): void {}\n"
                  "  set size(n: number) { this._n = n; }\n}\n",
    "pkg/__init__.py": "",
    "pkg/box.py": "class Box:\n    @property\n    def size(self):\n        return self._n\n\n"
                  "    @size.setter\n    def size(self, n):\n        self._n = n\n",
}


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("accessors"), FILES) as running:
        yield running


@pytest.mark.parametrize(("name", "rows"), [
    ("req.stale", [("lib/request.js", 3, 9, "function stale(); defineSetter(req, 'stale', function (value)")]),
    ("req.ip", [("lib/request.js", 12, 17, "get(); set(value)")]),
    ("Box.size", [("lib/box.ts", 2, 4, "get size(): number; set size(n: number)"),
                  ("pkg/box.py", 2, 8, "def size(self); def size(self, n)")]),
    ("req.get", [("lib/request.js", 20, 22, "function header(name)")]),  # no accessor
])
def test_a_property_is_one_row_and_one_card(daemon: Daemon, name: str, rows: list[tuple[str, int, int, str]]) -> None:
    service = daemon.service
    hits = service.find_symbols(name, repo="fx")
    assert [(h.path, h.start_line, h.end_line, h.signature) for h in hits] == rows
    assert hits.total == len(rows)
    card = service.get_card(name, repo="fx", budget_tokens=2000)
    assert (card.path, card.start_line, card.end_line, card.signature) == rows[0][:4]
    assert card.definitions_total == len(rows)  # the other accessor is no "other definition"


def test_read_of_the_row_shows_both_accessors(daemon: Daemon) -> None:
    text = daemon.service.read_symbol("fx", "lib/request.js", 12, 17).text
    assert "get() {" in text and "set(value) {" in text
