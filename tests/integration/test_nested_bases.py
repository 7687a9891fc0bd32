"""A class a function defines reads its base names in that function first, as Python does:
``class Handler`` at the top of a file and again inside ``make()``, then ``class
Sub(Handler)`` in ``make()``: ``Sub``'s ``self.finish()`` was listed for the top-level
``Handler.finish`` (a review of session 34). End to end on a real git fixture and the real
embedded store."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from conformance_cases import indexed

FILES = {"pkg/web.py": '''\
class Handler:
    def finish(self):
        return 1


class Top(Handler):
    def go(self):
        return self.finish()


def make():
    class Handler:
        def finish(self):
            return 2

    class Sub(Handler):
        def go(self):
            return self.finish()

    def use():
        sub = Sub()
        return sub.finish()

    return Sub, use


def build():
    class Handler:
        def finish(self):
            return 3

    class Outer:
        class Inner(Handler):
            def go(self):
                return self.finish()

    return Outer
'''}


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("nested_bases"), FILES) as running:
        yield running


def test_a_nested_classs_base_is_the_one_its_function_defines(daemon: Daemon) -> None:
    nested = sorted((c.line, c.caller, c.confidence, c.target)
                    for c in daemon.service.find_callers("make.Handler.finish", repo="fx"))
    assert nested == [(18, "make.Sub.go", "resolved", "pkg.web.make.Handler.finish"),
                      (22, "make.use", "resolved", "pkg.web.make.Handler.finish")]
    omitted: dict[str, int] = {}
    top = sorted((c.line, c.caller, c.confidence) for c in daemon.service.find_callers(
        "pkg.web.Handler.finish", repo="fx", omitted=omitted))
    assert top == [(8, "Top.go", "resolved")]  # a top-level class still reads the top level
    assert omitted["other_type"] == 3
    # a class statement in a class body inside a function: the function's class (a review)
    inner = [(c.line, c.caller, c.confidence) for c in daemon.service.find_callers("build.Handler.finish", repo="fx")]
    assert inner == [(35, "build.Outer.Inner.go", "resolved")]
