"""A dotted name a package re-exports finds the definition it stands for even when a
module of the same letters in another case matches it: ``symbols marshmallow.Schema``
answered the module ``marshmallow.schema`` alone (a newcomer), though the class is what
every ``from marshmallow import Schema`` means. Real git fixture, real embedded store."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from conformance_cases import indexed

FILES = {
    "shop/__init__.py": "from shop.basket import Basket\n\n__all__ = ['Basket']\n",
    "shop/basket.py": '"""The basket module."""\n\n\nclass Basket:\n    def add(self, item):\n        return item\n',
    "shop/till.py": "\"\"\"The till: rings totals.\"\"\"\nrates = {\"std\": 0.2}\nfor name in list(rates):\n    rates[name.upper()] = rates[name]\n\n\ndef ring(total):\n    return total\n",
}


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("reexport"), FILES) as running:
        yield running


def _found(daemon: Daemon, name: str) -> list[tuple[str, str, str, str]]:
    return [(h.path, h.qualified_name, h.kind, h.match) for h in daemon.service.find_symbols(name, repo="fx")]


def test_the_reexported_class_comes_before_the_module_of_another_case(daemon: Daemon) -> None:
    assert _found(daemon, "shop.Basket") == [("shop/basket.py", "Basket", "class", "reexport"),
                                             ("shop/basket.py", "shop.basket", "module", "case_insensitive")]


def test_the_module_asked_in_its_own_case_is_the_answer(daemon: Daemon) -> None:
    """``shop.basket`` is the module: an exact match, no re-export looked for."""
    assert _found(daemon, "shop.basket") == [("shop/basket.py", "shop.basket", "module", "exact")]


def test_a_name_no_package_reexports_keeps_its_case_insensitive_match(daemon: Daemon) -> None:
    assert _found(daemon, "shop.Till") == [("shop/till.py", "shop.till", "module", "case_insensitive")]
