"""A Python function is called bare or through its module (which the file's imports
resolve), never on another object: httpx's ``callers httpx.get`` listed 171 name-only
``.get(..)`` calls of dicts, ``**kwargs`` and other objects beside its 6 real calls, and
``impact`` followed them into unrelated functions. Literals, ``**kwargs`` and ``*args``
type their names as the builtin classes they are."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from conformance_cases import Daemon, indexed

FILES = {
    "pkg/__init__.py": "from ._api import get\n",
    "pkg/_api.py": "def get(url, **kwargs):\n    hooks = kwargs.get(\"hooks\")\n    return url, hooks\n",
    "pkg/_models.py": (
        "class Response:\n"
        "    def __init__(self, status):\n"
        "        self.status = status\n\n"
        "    def reason(self):\n"
        "        error_types = {\n"
        "            4: \"Client error\",\n"
        "        }\n"
        "        return error_types.get(self.status // 100)\n"),
    "tests/test_api.py": (
        "import pkg\n\n\n"
        "def test_get(options):\n"
        "    pkg.get(\"http://a\")\n"
        "    options.get(\"timeout\")\n"),
}


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("module-functions"), FILES) as d:
        yield d


def test_a_functions_callers_are_its_bare_and_module_calls(running: Daemon) -> None:
    omitted: dict[str, int] = {}
    sites = [(s.path, s.line, s.confidence) for s in running.service.find_callers("pkg.get", omitted=omitted)]
    # `kwargs.get` (a dict), `error_types.get` (a dict literal), `options.get` (unknown object)
    assert (sites, omitted) == ([("tests/test_api.py", 5, "resolved")], {"other_type": 3})


def test_impact_of_a_function_does_not_fan_out_through_other_objects_calls(running: Daemon) -> None:
    found = running.service.analyze_impact("pkg.get")
    assert [(n.site.caller, n.site.confidence) for n in found.callers] == [("test_get", "resolved")]
