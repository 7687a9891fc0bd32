"""An issue whose reproduction is a tutorial's code: the example file holds its every word
and scored twice the source (typer's issue 11: ``docs_src/parameter_types/enum/
tutorial003.py`` 1.000 against ``core.py``'s 0.471), and the 0.5 role penalty left six
example chunks leading search's page, the source off it (a newcomer). At 1.0 the source
leads. Real git fixture, real store (issues are ranked lexical-first)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from coderecalld.query import service
from conformance_cases import indexed

EXAMPLE = '''from enum import Enum
from typing import List

import clitool


class Food(str, Enum):
    food_1 = "Eggs"
    food_2 = "Bacon"


def main(groceries: List[Food] = clitool.Option([Food.food_1, Food.food_2])):
    print(f"Buying groceries: {', '.join([f.value for f in groceries])}")


if __name__ == "__main__":
    clitool.run(main)
'''

FILES = {
    "clitool/__init__.py": "",
    "clitool/core.py": '''def default_string(obj, default):
    """The default shown in the help: an enum member's value, a list joined."""
    if isinstance(default, list):
        return ", ".join(str(v) for v in default)
    return str(default)
''',
    "clitool/params.py": "def Option(default=None, help=None):\n    return default\n",
    # source the issue's words reach a little: below the example's copy by more than 0.5
    "clitool/help.py": "".join(f'''def help_part_{i}(text):
    """Part {i} of the help text shown for an option."""
    return text
''' for i in range(6)),
    "docs_src/enum/tutorial003.py": EXAMPLE,
    "docs_src/enum/tutorial004.py": EXAMPLE.replace("Eggs", "Ham"),
}

ISSUE = ("Help shows Food.food_1 instead of the enum value for a list of enums default\n\n"
         "For a list of Enum options the help shows the member names as the default:\n\n"
         f"```python\n{EXAMPLE}```\n\nThe default string should show the values, Eggs and Bacon.\n")


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("copied"), FILES) as daemon:
        yield daemon


def _roles(daemon: Daemon) -> list[str]:
    return [h.role for h in daemon.service.search(ISSUE, limit=10, repo="fx")]


def test_a_reproduction_copied_from_an_example_answers_source_first(running: Daemon,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    roles = _roles(running)
    assert roles[:8] == ["source"] * 8  # Option, default_string, six help parts
    with monkeypatch.context() as m:  # half the penalty: the copies come before the source
        m.setattr(service, "ROLE_PENALTY_LONG", {**service.ROLE_PENALTY_LONG, "example": 0.5})
        assert _roles(running)[:8] != ["source"] * 8
