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
                  "    @size.setter\n    def size(self, n):\n        self._n = n\n\n"
                  "    @size.deleter\n    def size(self):\n        del self._n\n",
    # no accessors (a review): a TS method named get/set and its overloads, a Python
    # if/else's two getters, a getter and setter with other members between them
    "lib/store.ts": "export class Store {\n  get(key: string): string;\n  get(key: number): string;\n"
                    "  get(key: any): string {\n    return String(key);\n  }\n"
                    "  set(key: string, v: string): void {}\n}\n",
    "pkg/cond.py": "if True:\n    @property\n    def maybe(self):\n        return 1\nelse:\n"
                   "    @property\n    def maybe(self):\n        return 2\n",
    "lib/wide.ts": "export class Wide {\n  get width(): number { return 1; }\n  a(): number { return 1; }\n"
                   "  b(): number { return 2; }\n  set width(v: number) {}\n}\n",
}


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("accessors"), FILES) as running:
        yield running


@pytest.mark.parametrize(("name", "rows"), [
    ("req.stale", [("lib/request.js", 3, 9, "function stale(); defineSetter(req, 'stale', function (value)")]),
    ("req.ip", [("lib/request.js", 12, 17, "get(); set(value)")]),
    ("Box.size", [("lib/box.ts", 2, 2, "get size(): number"),  # other() between: two rows
                  ("lib/box.ts", 4, 4, "set size(n: number)"),
                  ("pkg/box.py", 2, 12, "def size(self); def size(self, n); def size(self)")]),  # the deleter's too
    ("req.get", [("lib/request.js", 20, 22, "function header(name)")]),  # no accessor
])
def test_a_property_is_one_row_and_one_card(daemon: Daemon, name: str, rows: list[tuple[str, int, int, str]]) -> None:
    service = daemon.service
    hits = service.find_symbols(name, repo="fx")
    assert [(h.path, h.start_line, h.end_line, h.signature) for h in hits] == rows
    assert hits.total == len(rows)
    card = service.get_card(name, repo="fx", budget_tokens=2000)
    assert (card.path, card.start_line, card.end_line, card.signature) == rows[0][:4]
    assert card.definitions_total == len({p for p, *_ in rows})  # a file's other accessor is none


@pytest.mark.parametrize(("name", "rows"), [
    ("Store.get", [("lib/store.ts", 4, 6, "get(key: any): string"), ("lib/store.ts", 2, 2, "get(key: string): string"),
                   ("lib/store.ts", 3, 3, "get(key: number): string")]),
    ("Store.set", [("lib/store.ts", 7, 7, "set(key: string, v: string): void")]),
    ("maybe", [("pkg/cond.py", 2, 4, "def maybe(self)"), ("pkg/cond.py", 6, 8, "def maybe(self)")]),
    ("Wide.width", [("lib/wide.ts", 2, 2, "get width(): number"), ("lib/wide.ts", 5, 5, "set width(v: number)")]),
])
def test_no_pair_of_accessors_stays_rows(daemon: Daemon, name: str, rows: list[tuple[str, int, int, str]]) -> None:
    """A method named get/set, two getters of an if/else and accessors with members between
    them are rows of their own, none spanning another member (merged before: one row of
    3-6, one of 2-8 across the ``else:``, one of 2-5 across a() and b())."""
    hits = daemon.service.find_symbols(name, repo="fx")
    assert [(h.path, h.start_line, h.end_line, h.signature) for h in hits] == rows


def test_read_of_the_row_shows_both_accessors(daemon: Daemon) -> None:
    text = daemon.service.read_symbol("fx", "lib/request.js", 12, 17).text
    assert "get() {" in text and "set(value) {" in text
