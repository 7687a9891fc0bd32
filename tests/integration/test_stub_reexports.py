"""A package with ``.pyi`` stubs beside its modules (attrs' layout): a public name means
the implementation the runtime ``__init__.py`` re-exports, never the stub's signature, and
the stub's own imports (``from attr import asdict as asdict`` in ``attrs/__init__.pyi``,
where the runtime binds ``attr._next_gen.asdict``) merge no two functions.

A newcomer on attrs: ``symbols attrs.asdict`` and ``card attrs.asdict`` answered the stub
of another function (``attr.asdict``, with parameters the real one lacks); ``callers
attrs.fields --resolved`` had none of its 7 source callers; ``callers attrs.asdict``
listed 40 calls of ``attr.asdict`` as resolved. A module-level alias (``s = attributes =
attrs``, ``_attrs = attrs``) is another name of the function: ``@attr.s`` calls ``attrs``."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from conformance_cases import Daemon, indexed

FILES = {
    "src/attr/__init__.py": ("from ._funcs import asdict\nfrom ._make import attrs, fields\n\n"
                             "s = attributes = attrs\n"),
    "src/attr/__init__.pyi": (
        "def asdict(inst, recurse: bool = ..., dict_factory: type = ...) -> dict: ...\n"
        "def fields(cls: type) -> tuple: ...\n"),
    "src/attr/_make.py": (
        "def fields(cls):\n    return cls.__attrs_attrs__\n\n\n"
        "def attrs(maybe_cls=None):\n    return maybe_cls\n\n\n"
        "_attrs = attrs\n\n\n"
        "def make_class():\n    return _attrs(None)\n"),
    "src/attr/_funcs.py": (
        "from ._make import fields\n\n\n"
        "def asdict(inst, recurse=True, dict_factory=dict):\n"
        "    return dict_factory((a, getattr(inst, a)) for a in fields(inst.__class__))\n"),
    "src/attr/_next_gen.py": (
        "from . import _funcs\n\n\n"
        "def asdict(inst, *, recurse=True):\n"
        "    return _funcs.asdict(inst, recurse=recurse)\n"),
    "src/attrs/__init__.py": "from attr import fields\nfrom attr._next_gen import asdict\n",
    "src/attrs/__init__.pyi": "from attr import fields as fields\nfrom attr import asdict as asdict\n",
    "tests/test_funcs.py": "from attr import asdict\n\n\ndef test_old():\n    asdict(1)\n",
    "tests/test_make.py": ("import attr\n\n\n@attr.s\nclass C:\n    pass\n\n\n"
                           "def test_alias():\n    attr.attributes(C)\n"),
    "tests/test_next_gen.py": (
        "import attrs\n\n\n"
        "def test_new():\n"
        "    attrs.asdict(1)\n"
        "    attrs.fields(int)\n"),
}


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("stubs"), FILES) as d:
        yield d


def _sites(d: Daemon, name: str) -> list[tuple[str, int, str]]:
    return [(s.path, s.line, s.confidence) for s in d.service.find_callers(name, limit=500)]


def test_a_public_name_means_the_implementation_the_runtime_reexports(running: Daemon) -> None:
    assert [(h.path, h.start_line) for h in running.service.find_symbols("attrs.asdict")][:1] == [
        ("src/attr/_next_gen.py", 4)]
    # the stub defines `attr.asdict` itself: the implementation first, the stub after it
    assert [(h.path, h.start_line) for h in running.service.find_symbols("attr.asdict")] == [
        ("src/attr/_funcs.py", 4), ("src/attr/__init__.pyi", 1)]
    assert (running.service.get_card("attrs.asdict").path, running.service.get_card("attr.asdict").path) == (
        "src/attr/_next_gen.py", "src/attr/_funcs.py")


def test_callers_of_a_public_name_are_its_implementations_and_no_others(running: Daemon) -> None:
    assert _sites(running, "attrs.asdict") == [("tests/test_next_gen.py", 5, "resolved")]
    assert _sites(running, "attr.asdict") == [
        ("src/attr/_next_gen.py", 5, "resolved"), ("tests/test_funcs.py", 5, "resolved")]
    assert _sites(running, "attrs.fields") == [
        ("src/attr/_funcs.py", 5, "resolved"), ("tests/test_next_gen.py", 6, "resolved")]


def test_a_module_level_alias_is_another_name_of_the_function(running: Daemon) -> None:
    assert _sites(running, "attr._make.attrs") == [
        ("src/attr/_make.py", 13, "resolved"),  # `_attrs(None)`, `_attrs = attrs` in its module
        ("tests/test_make.py", 4, "resolved"),  # `@attr.s`
        ("tests/test_make.py", 10, "resolved")]  # `attr.attributes(C)`
    assert [(h.path, h.start_line, h.match) for h in running.service.find_symbols("attr.s")] == [
        ("src/attr/_make.py", 5, "reexport")]
