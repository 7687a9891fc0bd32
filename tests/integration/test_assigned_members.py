"""A method a class binds by assignment in its body overrides its base's: requests-cache's
``class CachedSession(Session): get = _cached_get``. ``Sub.get`` was no symbol, so a search
naming it pinned ``Base.get`` (``callgraph.inherited_definition``), as did ``symbols``,
``card`` and ``callers`` (a review). The assignment is the class's member (a value
symbol at its line), also for a subclass that inherits it. Real git fixture, real store."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from conformance_cases import indexed

FILES = {
    "lib/__init__.py": "",
    "lib/base.py": '''\
class Base:
    def get(self, url):
        """Fetch the url over the network."""
        return url
''',
    "lib/cached.py": '''\
from lib.base import Base


def _cached_get(self, url):
    """Fetch the url from the cache, else over the network."""
    return url


class Sub(Base):
    get = _cached_get
    name = "cached"
    Model = Base


class SubSub(Sub):
    pass


def use(s: Sub):
    s.get("a")
    Sub().get("c")
''',
    # the base in the same file (a review: both calls were Base's, none Sub's)
    "lib/one.py": '''\
class OneBase:
    def get(self, url):
        return url


def _cached_get(self, url):
    return url


class OneSub(OneBase):
    get = _cached_get


def use(s: OneSub):
    s.get("a")
    OneSub().get("c")
''',
}


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("assigned"), FILES) as running:
        yield running


@pytest.mark.parametrize(("asked", "match"), [("Sub.get", "exact"), ("SubSub.get", "inherited")])
def test_the_assignment_is_the_member(daemon: Daemon, asked: str, match: str) -> None:
    service = daemon.service
    assert [(h.qualified_name, h.kind, h.start_line, h.match) for h in service.find_symbols(asked, repo="fx")] == [
        ("Sub.get", "variable", 10, match)]
    card = service.get_card(asked, repo="fx")
    assert (card.qualified_name, card.path, card.start_line, card.signature) == (
        "Sub.get", "lib/cached.py", 10, "get = _cached_get")
    hits = service.search(asked, limit=3, repo="fx")  # the name pinned first
    assert (hits[0].qualified_name, hits[0].start_line, hits[0].match) == ("Sub.get", 10, "exact")
    assert "Base.get" not in [h.qualified_name for h in hits if h.match == "exact"]


def test_calls_on_the_class_are_the_members(daemon: Daemon) -> None:
    assert [(s.line, s.confidence) for s in daemon.service.find_callers("Sub.get", repo="fx")] == [
        (20, "resolved"), (21, "resolved")]
    assert list(daemon.service.find_callers("Base.get", repo="fx")) == []


def test_only_a_function_like_value_is_a_member(daemon: Daemon) -> None:
    # a string, a class: class attributes, not methods (no symbols, as before)
    assert list(daemon.service.find_symbols("Sub.name", repo="fx")) == []
    assert list(daemon.service.find_symbols("Sub.Model", repo="fx")) == []


def test_calls_on_the_class_are_the_members_with_the_base_in_its_file(daemon: Daemon) -> None:
    assert [(s.line, s.confidence) for s in daemon.service.find_callers("OneSub.get", repo="fx")] == [
        (15, "resolved"), (16, "resolved")]
    assert list(daemon.service.find_callers("OneBase.get", repo="fx")) == []


@pytest.mark.parametrize(("asked", "methods"), [
    ("OneSub", ("get = _cached_get",)), ("Sub", ("get = _cached_get",)),
    ("SubSub", ("get = _cached_get  # from Sub",))])
def test_the_card_lists_the_assignment_among_its_methods(daemon: Daemon, asked: str, methods: tuple[str, ...]) -> None:
    assert daemon.service.get_card(asked, repo="fx").methods == methods
