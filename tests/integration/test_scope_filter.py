"""The scope condition is dropped only when it could hide nothing: every repo the embedded
store holds is in the caller's scope. A repo indexed, then removed from the config, stays
hidden; a narrower scope keeps its filter."""

from __future__ import annotations

from pathlib import Path

from conformance_cases import config, reopen
from coderecalld.auth import LOCAL, Principal, Role
from coderecalld.config import RepoConfig
from gitfixtures import GitRepo


def test_unscoped_only_when_the_store_holds_nothing_out_of_scope(tmp_path: Path) -> None:
    a, b = GitRepo(tmp_path / "a"), GitRepo(tmp_path / "b")
    a.commit({"pay/fx.py": "def convert_currency(amount, rate):\n    return amount * rate\n"})
    b.commit({"ops/dns.py": "def rotate_nameservers(zone):\n    return zone\n"})
    both = config(tmp_path, RepoConfig("a", str(a.path)), RepoConfig("b", str(b.path)))
    with reopen(both) as d:
        for repo in both.repos:
            d.pipeline.index_repo(repo, with_dense=False)
        flt = d.service._filter(LOCAL, "")
        assert (flt.repos, flt.repo) == ((), "")  # everything held is in scope
        assert [h.repo for h in d.service.search("rotate nameservers", limit=5)][:1] == ["b"]
        only_a = Principal("reader-a", ("a",), Role.READER)
        assert d.service._filter(only_a, "").repos == ("a",)  # a narrower scope keeps its filter
        assert d.service._filter(LOCAL, "b").repos == ("b",)
        assert all(h.repo == "a" for h in d.service.search("rotate nameservers", limit=5, principal=only_a))
    # b leaves the config; its points stay in the store and must stay invisible.
    with reopen(config(tmp_path, RepoConfig("a", str(a.path)))) as d:
        assert d.store.repos() == {"a", "b"}
        assert d.service._filter(LOCAL, "").repos == ("a",)
        assert all(h.repo == "a" for h in d.service.search("rotate nameservers", limit=5))
        assert d.service.find_symbols("rotate_nameservers") == []
