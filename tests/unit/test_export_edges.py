"""Re-export edges: what ``points.export_edges`` writes and ``callgraph.aliases`` reads back
through the keyword index (a facet, no payload decoded), on the real embedded store."""

from __future__ import annotations

from pathlib import Path

from coderecalld.embed import sparse
from coderecalld.index import points
from coderecalld.query import callgraph
from coderecalld.records import PointRecord
from coderecalld.store import StoreFilter
from coderecalld.store.edge import EdgeStore
from storepoints import make_point


def test_edges_name_each_alias_a_binding_makes() -> None:
    exports = [("Client", "httpx._client.Client"), ("*", "httpx._types"), ("os", "os")]
    assert points.export_edges("httpx", ["@scope/httpx"], exports) == sorted([
        "httpx._client.Client httpx.Client", "httpx._client.Client @scope/httpx.Client",
        "httpx._types *httpx", "httpx._types *@scope/httpx",
        "os httpx.os", "os @scope/httpx.os",
    ])
    assert points.export_edges("", [], exports) == []  # no module name: nothing to alias
    assert points.export_edges("m", [], []) == []


def _module(repo: str, module: str, exports: list[tuple[str, str]]) -> PointRecord:
    record = make_point(module.rsplit(".", 1)[-1], repo=repo, path=module.replace(".", "/") + ".py",
                        qualified_name=module, kind="module")
    record.payload.update({
        "module": module, "fq_name": module, "fq_aliases": [],
        "exports": [list(e) for e in exports],
        "export_targets": sorted({t for _, t in exports}),
        "export_edges": points.export_edges(module, [], exports),
    })
    return record


def test_aliases_follow_every_importer_past_the_old_point_limit(tmp_path: Path) -> None:
    """2,500 modules re-export ``lib.core.Client`` (more than ``callgraph.FETCH_LIMIT``
    points, where reading module payloads used to stop); one of them is itself re-exported
    a round further, and one lives in a repo outside the scope."""
    n = callgraph.FETCH_LIMIT + 500
    with EdgeStore(tmp_path / "store", 4, "m", sparse.TOKENIZER_VERSION) as store:
        store.upsert([_module("org/app", f"app{i}.api", [("Client", "lib.core.Client")]) for i in range(n)])
        store.upsert([
            _module("org/app", "top", [("api", "app7.api")]),  # `from app7 import api`
            _module("org/app", "star", [("*", "lib.core")]),  # `from lib.core import *`
            _module("org/other", "hidden.api", [("Client", "lib.core.Client")]),
        ])
        found = callgraph.aliases(store, StoreFilter(repos=("org/app",)), {"lib.core.Client.send"})
    expected = ({"lib.core.Client.send", "star.Client.send", "top.api.Client.send"}
                | {f"app{i}.api.Client.send" for i in range(n)})
    assert found == expected


def test_facets_are_kept_until_the_store_is_written(tmp_path: Path) -> None:
    """``EdgeStore.facet_any`` answers from its cache until an upsert or a delete."""
    with EdgeStore(tmp_path / "store", 4, "m", sparse.TOKENIZER_VERSION) as store:
        store.upsert([_module("org/app", "a.api", [("Client", "lib.core.Client")])])
        calls: list[str] = []
        engine = store._run
        store._run = lambda what, call, **kw: (calls.append(what), engine(what, call, **kw))[1]  # type: ignore[method-assign]
        ask = lambda: store.facet_any(StoreFilter(), "export_edges", "export_targets",  # noqa: E731
                                      ["lib.core.Client", "lib.core"])
        assert ask() == {"lib.core.Client a.api.Client"}
        assert len(calls) == 2  # one facet per value
        assert ask() == {"lib.core.Client a.api.Client"} and len(calls) == 2  # cached
        store.upsert([_module("org/app", "b.api", [("C", "lib.core.Client"), ("*", "lib.core")])])
        assert ask() == {"lib.core.Client a.api.Client", "lib.core.Client b.api.C", "lib.core *b.api"}
        store.delete_file_except("org/app", "a/api.py", [])
        assert ask() == {"lib.core.Client b.api.C", "lib.core *b.api"}
        assert store.facet_any(StoreFilter(repo="org/other"), "export_edges", "export_targets",
                               ["lib.core"]) == set()  # another filter: its own entry


def test_aliases_skip_bindings_no_import_reaches(tmp_path: Path) -> None:
    """A module binding a package it lies under (``import pkg.sub as s`` in
    ``pkg.sub.mod``) aliases the package, not every name under it; a test module's binding
    aliases what it binds, not the names under it (sympy's tests' ``from sympy import
    Basic``: ``sympify`` had 107,000 aliases, ``callers Basic.subs`` ran past the deadline);
    re-exports and module objects are followed as before."""
    with EdgeStore(tmp_path / "store", 4, "m", sparse.TOKENIZER_VERSION) as store:
        store.upsert([
            _module("r", "pkg.sub.mod", [("s", "pkg.sub")]),  # nested under its target
            _module("r", "pkg.sub.tests.test_core", [("f", "pkg.sub.core.f"), ("C", "pkg.sub.core.C")]),
            _module("r", "app.api", [("core", "pkg.sub.core")]),  # a module object
            _module("r", "top", [("api", "app.api")]),  # and that module object's module
            _module("r", "pkg.init", [("f", "pkg.sub.core.f")]),  # a re-export
            _module("r", "shim", [("f", "pkg.init.f")]),  # and its re-export, a round on
        ])
        flt = StoreFilter(repos=("r",))
        assert callgraph.aliases(store, flt, {"pkg.sub.core.f"}) == {
            "pkg.sub.core.f", "app.api.core.f", "top.api.core.f", "pkg.init.f", "shim.f",
            "pkg.sub.tests.test_core.f"}
        assert callgraph.aliases(store, flt, {"pkg.sub.core.C"}) == {
            "pkg.sub.core.C", "app.api.core.C", "top.api.core.C", "pkg.sub.tests.test_core.C"}
        assert callgraph.aliases(store, flt, {"pkg.sub.core.C.m"}) == {
            "pkg.sub.core.C.m", "app.api.core.C.m", "top.api.core.C.m"}
        assert callgraph.aliases(store, flt, {"pkg.sub"}) == {"pkg.sub", "pkg.sub.mod.s"}


def test_a_lookup_budget_cuts_the_aliases_and_says_so(tmp_path: Path) -> None:
    """Within ``callgraph.budget``, the keyword lookups of one request are counted: past
    ``HIERARCHY_LOOKUPS`` the rest are not asked (shortest names first) and ``cut`` is set."""
    with EdgeStore(tmp_path / "store", 4, "m", sparse.TOKENIZER_VERSION) as store:
        store.upsert([_module("r", f"app{i}.api", [("Client", "lib.core.Client")]) for i in range(20)])
        flt = StoreFilter(repos=("r",))
        whole = callgraph.aliases(store, flt, {"lib.core.Client"})
        with callgraph.budget(callgraph.Lookups(left=100)) as roomy:
            assert callgraph.aliases(store, flt, {"lib.core.Client"}) == whole
        with callgraph.budget(callgraph.Lookups(left=2)) as tight:
            found = callgraph.aliases(store, flt, {"lib.core.Client"})
    assert len(whole) == 21 and not roomy.cut
    # the first round's two prefixes are paid for; the next round's are not
    assert tight.cut and found == whole
    assert roomy.left < 100 and tight.left == 0


def test_many_modules_importing_a_module_for_use_give_no_names_under_it(
        tmp_path: Path, monkeypatch) -> None:
    """django: every module's ``from django.db import models`` gave each name under it one
    more alias (``X.models.GeneratedField``: 8,000 of one class), whose prefixes spent the
    request's lookup budget, and ``callers`` said calls may be missing on complete answers
    (a newcomer). Past ``USED_ALIASES_MAX`` such names in a round they are left out, the
    module's own alias and a re-export under another name stay, and nothing is cut; a few
    are followed as before (``from app7 import api``, above)."""
    monkeypatch.setattr(callgraph, "USED_ALIASES_MAX", 5)
    with EdgeStore(tmp_path / "store", 4, "m", sparse.TOKENIZER_VERSION) as store:
        store.upsert([_module("org/app", f"app{i}.views", [("core", "lib.core")]) for i in range(8)])
        store.upsert([_module("org/app", "lib", [("Client", "lib.core.Client")])])  # a re-export
        with callgraph.budget() as spent:
            found = callgraph.aliases(store, StoreFilter(repos=("org/app",)), {"lib.core.Client.send"})
        assert not spent.cut
        assert found == {"lib.core.Client.send", "lib.Client.send"}
        assert callgraph.aliases(store, StoreFilter(repos=("org/app",)), {"lib.core"}) == (
            {"lib.core"} | {f"app{i}.views.core" for i in range(8)})
    # five importers: followed as before
    with EdgeStore(tmp_path / "few", 4, "m", sparse.TOKENIZER_VERSION) as store:
        store.upsert([_module("org/app", f"app{i}.views", [("core", "lib.core")]) for i in range(5)])
        assert callgraph.aliases(store, StoreFilter(repos=("org/app",)), {"lib.core.Client"}) == (
            {"lib.core.Client"} | {f"app{i}.views.core.Client" for i in range(5)})
