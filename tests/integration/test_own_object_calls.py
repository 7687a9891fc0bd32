"""``self.m()`` in a class that neither defines ``m`` nor has a base of its file that does is
a call on that class's object: an attribute holding a callable (attrs' validators'
``self.validator(inst, attr, value)`` was a name-only caller of ``_CountingAttr.validator``),
or a method of a class mixing it in. ``callers`` judges it by the asked method's class
hierarchy: left out for an unrelated class, a candidate for a class below it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from conformance_cases import Daemon, indexed

SOURCE = (
    "class Counting:\n"
    "    def validator(self, meth):\n"
    "        return meth\n\n\n"
    "class Optional:\n"
    "    def __init__(self, validator):\n"
    "        self.validator = validator\n\n"
    "    def __call__(self, inst, attr, value):\n"
    "        return self.validator(inst, attr, value)\n\n\n"
    "class Mixin:\n"
    "    def run(self):\n"
    "        return self.save()\n\n\n"
    "class Model(Mixin):\n"
    "    def save(self):\n"
    "        return 1\n\n\n"
    "def use(c: Counting):\n"
    "    return c.validator(len)\n"
)


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("own-object"), {"pkg/v.py": SOURCE}) as d:
        yield d


def test_an_attribute_call_on_an_unrelated_class_is_left_out(running: Daemon) -> None:
    omitted: dict[str, int] = {}
    sites = [(s.line, s.confidence) for s in running.service.find_callers("Counting.validator", omitted=omitted)]
    assert (sites, omitted) == ([(25, "resolved")], {"other_type": 1})


def test_a_mixins_call_of_a_method_below_it_stays_a_candidate(running: Daemon) -> None:
    assert [(s.line, s.caller, s.confidence) for s in running.service.find_callers("Model.save")] == [
        (16, "Mixin.run", "name_only")]
