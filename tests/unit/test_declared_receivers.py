"""Python receivers typed by what the source declares (index/receivers.py): a class-body
annotation or an annotated ``self.a: T = ..`` types ``self.a`` and ``obj.a`` whatever else
is assigned to it; a loop over a value annotated ``Sequence[T]`` (``list``, ``Iterable``,
``set``, ``tuple[T, ...]``) binds a ``T``; ``Type[X]`` is the class ``X`` itself; a
classmethod's ``cls(..)`` and ``self.__class__(..)`` build its class. Two newcomers: pypa/
packaging's ``Pylock.select`` (``env_marker.evaluate``, ``package.marker.evaluate``) and
arrow's ``self.type.fromdatetime(..)``, ``cls(..).shift(..)`` and ``floor.shift(..)`` were
name-only callers."""

from __future__ import annotations

from coderecalld import parse
from coderecalld.index import chunk, resolve

SOURCE = b'''from dataclasses import dataclass
from typing import NamedTuple, Optional, Sequence, Type, Union

from .arrow import Arrow
from .markers import Marker


# a NamedTuple's fields are class-body annotations too
class Package(NamedTuple):
    name: str
    marker: Optional[Marker] = None


@dataclass
class Lock:
    environments: Union[Sequence[Marker], None] = None
    packages: Sequence[Package] = ()
    extras: tuple[Marker, ...] = ()
    pairs: tuple[Marker, Package] = ()

    def select(self, env):
        if self.environments is not None:
            for env_marker in self.environments:
                env_marker.evaluate(env)
        for index, package in enumerate(self.packages):
            if package.marker and not package.marker.evaluate(env):
                continue
        for extra in self.extras:
            extra.evaluate(env)
        for pair in self.pairs:
            pair.evaluate(env)


def pick(markers: list[Marker], named: Optional[Sequence["Marker"]] = None):
    for m in markers:
        m.evaluate({})
    for n in reversed(named):
        n.evaluate({})
    chosen: set[Package] = set()
    for p in chosen:
        p.marker.evaluate({})
    for item in markers.copy():
        item.evaluate({})


class Requirement:
    def __init__(self, parsed):
        self.marker: Marker | None = None
        if parsed:
            self.marker = Marker.__new__(Marker)

    def check(self):
        return self.marker.evaluate({})


class Factory:
    type: Type[Arrow]

    def __init__(self, type: Type[Arrow] = Arrow) -> None:
        self.type = type

    def get(self, dt):
        self.type.fromdatetime(dt)
        return self.type(dt)


class Stamp:
    @classmethod
    def range(cls, values):
        return cls(*values).shift(days=1)

    def span(self, exact):
        floor = self
        if not exact:
            floor = self.__class__(1)
            floor = floor.shift(days=-1)
        ceil = floor.shift(days=1)
        return floor, ceil

    def shift(self, **kwargs) -> "Stamp":
        return self


class TestStamp:
    def test_shift(self, cls):
        cls(1).shift()


class Validator:
    def __get__(self, instance, owner):
        return ""


class Metadata:
    author: Validator[str | None] = Validator()

    def upper(self):
        return self.author.upper()
'''


def chunks_of() -> list:
    path = "pkg/lock.py"
    parsed = parse.symbols(SOURCE, "python")
    return resolve.chunks(chunk.chunks("r", path, SOURCE, parsed), parsed, path, "pkg.lock")


def targets() -> dict[str, list[tuple[int, str, str]]]:
    return {c.qualified_name: [(s.line, s.name, s.target) for s in c.call_sites] for c in chunks_of()}


def test_a_loop_over_a_declared_sequence_binds_its_items() -> None:
    got = targets()
    assert got["Lock.select"] == [
        (24, "env_marker.evaluate", "pkg.markers.Marker.evaluate"),  # Union[Sequence[Marker], None]
        (25, "enumerate", "builtins.enumerate"),
        (26, "package.marker.evaluate", "pkg.markers.Marker.evaluate"),  # a field of the item's class
        (29, "extra.evaluate", "pkg.markers.Marker.evaluate"),  # tuple[Marker, ...]
        (31, "pair.evaluate", ""),  # tuple[Marker, Package]: each item its own type
    ]
    assert got["pick"] == [
        (36, "m.evaluate", "pkg.markers.Marker.evaluate"),  # a parameter's list[Marker]
        (37, "reversed", "builtins.reversed"),
        (38, "n.evaluate", "pkg.markers.Marker.evaluate"),  # Optional[Sequence["Marker"]]
        (39, "set", "builtins.set"),
        (41, "p.marker.evaluate", "pkg.markers.Marker.evaluate"),  # a local's set[Package]
        (42, "markers.copy", "builtins.list.copy"),
        (43, "item.evaluate", ""),  # a call's value: its items unknown
    ]


def test_an_annotated_attribute_keeps_its_declared_type() -> None:
    got = targets()
    # `self.marker: Marker | None = None`, then `self.marker = Marker.__new__(Marker)`
    assert got["Requirement.check"] == [(53, "self.marker.evaluate", "pkg.markers.Marker.evaluate")]
    # a descriptor of this file declares no attribute type: `__get__` gives the value
    assert got["Metadata.upper"] == [(98, "self.author.upper", "")]
    module = next(c for c in chunks_of() if c.kind == "module")
    typed = dict(module.instances)
    assert typed["Requirement.marker"] == "pkg.markers.Marker"
    assert typed["Package.marker"] == "pkg.markers.Marker"
    assert typed["Factory.type"] == "pkg.arrow.Arrow"  # the class: its methods are the calls on it
    assert "Metadata.author" not in typed


def test_a_class_itself_and_its_own_constructions() -> None:
    got = targets()
    # `Type[Arrow]`: a classmethod called on the class; calling it constructs one
    assert got["Factory.get"] == [(63, "self.type.fromdatetime", "pkg.arrow.Arrow.fromdatetime"),
                                  (64, "self.type", "pkg.arrow.Arrow")]
    assert got["Stamp.range"] == [(70, "shift", "pkg.lock.Stamp.shift"), (70, "cls", "pkg.lock.Stamp")]
    # `floor = self`, `= self.__class__(..)`, `= floor.shift(..)`: a Stamp each time
    assert got["Stamp.span"] == [(75, "self.__class__", "pkg.lock.Stamp"),
                                 (76, "floor.shift", "pkg.lock.Stamp.shift"),
                                 (77, "floor.shift", "pkg.lock.Stamp.shift")]
    # a test's parameter named `cls` is a value, not the test class
    assert got["TestStamp.test_shift"] == [(86, "shift", ""), (86, "cls", "")]
