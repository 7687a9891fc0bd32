"""Whether a message a query quotes lies in a string literal of a chunk or in prose
(query/service.py ``_in_prose``): a literal printing it whole is where it is raised, and
goes first. flask's "Working outside of application context" is a module's
``_no_app_msg = \"\"\"`` value over several lines: read as a docstring's prose, the module
holding it came third under two methods of ``ctx.py`` that do not (a newcomer). A
docstring's opening line and an attribute docstring (``X = 1`` then ``\"\"\"...\"\"\"``) are
prose (a review)."""

from __future__ import annotations

import re

import pytest

from coderecalld.query import service

MESSAGE = re.compile("Working outside")


@pytest.mark.parametrize(("text", "prose"), [
    # a triple-quoted value: assigned, raised, returned (its text on the lines below)
    ('import x\n_no_app_msg = """\\\nWorking outside of application context.\n"""\n', 0),
    ('def f():\n    raise RuntimeError(\n        """\n        Working outside\n        """\n    )\n', 0),
    ("def f():\n    return f'''\n    Working outside {x}\n    '''\n", 0),
    # a docstring's prose: a function's, a module's
    ('def f():\n    """Summary.\n\n    Working outside of things.\n    """\n', 1),
    ('"""Summary.\n\nWorking outside of things.\n"""\nimport x\n', 1),
    # a def line ending with a comment still opens a body (requests' cookies.py: a review)
    ('def keys(self) -> list[str]:  # type: ignore[override]\n    """Summary.\n\n    Working outside.\n    """\n', 1),
    # a docstring's opening line is prose too, not a literal (an odd count of quotes)
    ('def f():\n    """Working outside of things."""\n', 1),
    ("def f():\n    '''Working outside of things.\n    '''\n", 1),
    # an attribute docstring under a one-line assignment (Sphinx's): prose
    ('X = 1\n"""Working outside of things."""\n', 1),
    ('class C:\n    timeout: float = 5.0  # seconds\n    """\n    Working outside.\n    """\n', 1),
    # ... but a string an assignment continues onto is its value
    ('msg = (\n    """Working outside."""\n)\n', 0),
    ('msg = \\\n    """Working outside."""\n', 0),
    ('call(a,\n     """Working outside.""")\n', 0),
    # a triple-quoted string closed earlier on the line is no open quote
    ('x = """a""" + "Working outside"\n', 0),
    ('x = """a"""  # Working outside\n', 1),
    # one line: a literal, a comment
    ('x = "Working outside"\n', 0),
    ("# Working outside\n", 1),
    ("no such words\n", 1),
])
def test_a_message_in_a_triple_quoted_value_is_a_literal(text: str, prose: int) -> None:
    assert service._in_prose(text, MESSAGE) == prose
