"""A Python value another file's function or method returned types the calls on it by the
function's declared result: rich's ``grid = Table.grid(..)`` then ``grid.add_row(..)`` (20
of ``Table.add_row``'s callers) and ``console = get_console()`` then ``console.print(..)``
were name-only (an audit). The index names such a receiver by the function
(``receivers.PRODUCED``: ``rich.table.Table.grid().add_row``), and the function's return
annotation (payload ``returns``; ``Self`` or its class's name in quotes) says which type
it is at query time; a function of no known result leaves its calls name-only
candidates, and never callers of a Python function of the method's name.

Each site is asserted by exact (path, line, caller, confidence)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from conformance_cases import Daemon, caller_rows, indexed
from coderecalld.store import StoreFilter

FILES = {
    "rich/__init__.py": '''from rich.console import Console


def get_console() -> "Console":
    return Console()


def make_thing():
    return Console()
''',
    "rich/console.py": '''class Console:
    def print(self, *objects):
        return objects


class Other:
    def print(self, *objects):
        return None
''',
    "rich/table.py": '''from typing import Optional


class Table:
    @classmethod
    def grid(cls, padding: int = 0) -> "Table":
        return cls()

    def add_row(self, *cells) -> Optional["Table"]:
        return self
''',
    "rich/log_render.py": '''from rich import get_console, make_thing
from rich.table import Table


def render(row):
    output = Table.grid(padding=1)
    output.add_row(*row)
    console = get_console()
    console.print(output)
    get_console().print("direct")
    thing = make_thing()
    thing.print("unknown")
''',
    "rich/printing.py": '''def print(*objects):
    return objects
''',
    "rich/aio.py": '''import typing

from rich import get_console
from rich.client import Client
from rich.table import Table


async def fetch_table() -> Table:
    return Table()


async def main():
    table = await fetch_table()
    table.add_row("a")


def flow() -> typing.Generator[int, str, None]:
    yield 1


def drive(console):
    steps = flow()
    steps.send("x")
    console.headers.get("y")


def streamed(client: Client):
    with client.stream() as table:
        table.add_row("z")
''',
    "rich/client.py": '''import contextlib
import typing

from rich.table import Table


class Client:
    def send(self, request):
        return request

    @contextlib.contextmanager
    def stream(self) -> typing.Iterator[Table]:
        yield Table()


def get(url):
    return url
''',
}


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("pyresults"), FILES) as d:
        yield d


def test_a_value_another_files_function_returned_types_its_calls(running: Daemon) -> None:
    assert caller_rows(running, "Table.add_row") == [("rich/aio.py", 14, "main", "resolved"),
                                                     # a @contextmanager method's value: what it yields
                                                     ("rich/aio.py", 29, "streamed", "resolved"),
                                                     ("rich/log_render.py", 7, "render", "resolved")]
    # `make_thing()` states no result: a candidate of every print method
    assert caller_rows(running, "Console.print") == [
        ("rich/log_render.py", 9, "render", "resolved"),
        ("rich/log_render.py", 10, "render", "resolved"),
        ("rich/log_render.py", 12, "render", "name_only"),
    ]
    assert caller_rows(running, "Other.print") == [("rich/log_render.py", 12, "render", "name_only")]
    # a Python function is called bare or through its module: no `x.print(..)` calls it
    assert caller_rows(running, "rich.printing.print") == []


def test_an_awaited_result_and_a_generator_are_typed(running: Daemon) -> None:
    """httpx's async tests: ``response = await client.get(..)`` then ``response.json()``
    were name-only (22 of ``Response.json``'s callers); a generator function's value
    (``flow = auth.sync_auth_flow(..)``, ``-> Generator[..]``) made ``flow.send(..)`` a
    name-only caller of ``Client.send``; an attribute's call (``console.headers.get(..)``)
    a name-only caller of the function ``httpx.get``."""
    assert caller_rows(running, "Client.send") == []
    assert caller_rows(running, "rich.client.get") == []


def test_a_python_functions_declared_result_is_in_its_payload(running: Daemon) -> None:
    found = {str(h.payload["fq_name"]): h.payload.get("returns", "")
             for h in running.store.find_any(StoreFilter(repo="fx"), "kind", ["function", "method"],
                                             limit=50, fields=("fq_name", "returns"))}
    assert found == {
        "rich.get_console": "rich.console.Console",
        "rich.make_thing": "",
        "rich.console.Console.print": "",
        "rich.console.Other.print": "",
        "rich.table.Table.grid": "rich.table.Table",
        "rich.table.Table.add_row": "rich.table.Table",
        "rich.log_render.render": "",
        "rich.printing.print": "",
        "rich.aio.fetch_table": "rich.table.Table",
        "rich.aio.main": "",
        "rich.aio.flow": "typing.Generator",
        "rich.aio.drive": "",
        "rich.client.Client.send": "",
        "rich.client.Client.stream": "rich.table.Table",
        "rich.aio.streamed": "",
        "rich.client.get": "",
    }


def test_callees_name_the_method_of_a_declared_result(running: Daemon) -> None:
    got = [(h.callee, h.target, h.confidence) for h in running.service.find_callees("render", repo="fx")
           if h.callee.endswith("print") or h.callee.endswith("add_row")]
    assert got == [("output.add_row", "rich.table.Table.add_row", "resolved"),
                   ("console.print", "rich.console.Console.print", "resolved"),
                   ("print", "rich.console.Console.print", "resolved"),  # get_console().print(..)
                   ("thing.print", "", "name_only")]  # make_thing() states no result
