"""A file object from Python's own ``open`` is no project class: ``with open(p) as f:
f.write(..)`` was a name-only caller of every project method named ``write`` (session 34's
left-alone list), end to end on a real git fixture and the real embedded store."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from conformance_cases import indexed

FILES = {
    "pkg/out.py": '''\
import io


class Writer:
    def write(self, data):
        return data


def save(path, data):
    with open(path, "w") as f:
        f.write(data)
    handle = open(path, "a")
    handle.write(data)
    with io.open(path, "w") as g:
        g.write(data)
    out = Writer()
    out.write(data)


def dump(w, data):
    w.write(data)
''',
    "pkg/own.py": '''\
from pkg.out import Writer


def open(path) -> Writer:
    return Writer()


def keep(path, data):
    with open(path) as w:
        w.write(data)
    fresh = open(path)
    fresh.write(data)


def shadowed(open, data):
    with open("x") as h:
        h.write(data)
''',
    # a review: each binds its own `open`, which the builtin's type must not stand for
    "pkg/local.py": '''\
from pkg.out import Writer


def nested(p, data):
    def open(path) -> Writer:
        return Writer()

    with open(p) as w:
        w.write(data)


def rebound(p, data):
    global open
    open = Writer
    handle = open()
    handle.write(data)
''',
    "pkg/myopen.py": '''\
from pkg.out import Writer


def open(path) -> Writer:
    return Writer()
''',
    "pkg/starred.py": '''\
from pkg.myopen import *


def use(p, data):
    with open(p) as w:
        w.write(data)
''',
}


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("opened"), FILES) as running:
        yield running


def test_a_builtin_opens_file_is_another_type(daemon: Daemon) -> None:
    omitted: dict[str, int] = {}
    page = daemon.service.find_callers("Writer.write", repo="fx", omitted=omitted)
    assert sorted((c.path, c.line, c.caller, c.confidence) for c in page
                  if c.path in ("pkg/out.py", "pkg/own.py")) == [
        ("pkg/out.py", 17, "save", "resolved"),  # out = Writer()
        ("pkg/out.py", 21, "dump", "name_only"),  # an untyped parameter
        # the file's own `open` -> Writer: its result is a Writer, entered or assigned
        ("pkg/own.py", 10, "keep", "resolved"),
        ("pkg/own.py", 12, "keep", "resolved"),
        # a parameter named `open` is no builtin: its result is unknown
        ("pkg/own.py", 17, "shadowed", "name_only"),
    ]
    # f.write (with open), handle.write (open assigned), g.write (io.open)
    assert omitted["other_type"] == 3


def test_an_open_the_file_binds_is_no_builtins(daemon: Daemon) -> None:
    """A nested ``def open``, ``global open`` then ``open = ..``, and a ``*`` import that
    brings one: the calls stay candidates (a review found them dropped as another type)."""
    page = daemon.service.find_callers("Writer.write", repo="fx")
    listed = sorted((c.path, c.line, c.caller, c.confidence) for c in page
                    if c.path in ("pkg/local.py", "pkg/starred.py"))
    # candidates by name: which `open` each is, the index does not follow (a nested
    # function's result, a global rebound at run time, a name a * import may bring)
    assert listed == [("pkg/local.py", 9, "nested", "name_only"), ("pkg/local.py", 16, "rebound", "name_only"),
                      ("pkg/starred.py", 6, "use", "name_only")]
