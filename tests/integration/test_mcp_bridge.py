"""``coderecall-mcp`` for real: a live daemon on two pygit2-built repos, the bridge as a
subprocess, the official MCP client over stdio; every tool, its citations and its budget.

Dense vectors are off (lexical search answers the queries used here), which keeps the
module at a few seconds."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import pytest
from anyio.from_thread import BlockingPortal, start_blocking_portal
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp_types import CallToolResult

import coderecall
from coderecall.mcp_server import BUDGET_CHARS
from coderecalld.config import Config, EmbeddingConfig, IndexConfig, RepoConfig
from coderecalld.daemon import Daemon
from coderecalld.server.app import build_server
from gitfixtures import GitRepo
from integration.test_daemon_e2e import BILLING, CLI, MONEY
from slowapi import SlowApi, serving

LEDGER = '''\
def round_money(value):
    """Round half up to whole cents."""
    return int(value * 100 + 0.5) / 100


def settle(amount):
    return round_money(amount)
'''

ACCOUNT = "class Account:\n    @property\n    def balance(self):\n        return 0\n\n    def close(self):\n        return self.balance\n"
LONG = "def long_report():\n    total = 0\n" + "".join(f"    total += {i}\n" for i in range(57)) + "    return total\n"

ENTRIES = 120  # ledger_entry_000..119: more than one answer's budget holds
POSTS = 130  # journal_line_000..129 each call post(): more call sites than one answer holds
JOURNAL = "def post(amount):\n    return amount\n\n\n" + "".join(
    f"def journal_line_{i:03}():\n    return post({i})\n\n\n" for i in range(POSTS))
PAGES = 60  # Book.page_00..59: more methods than a card shows
BOOK = "class Book:\n    \"\"\"A bound ledger.\"\"\"\n\n" + "".join(
    f"    def page_{i:02}(self, amount, account):\n        return amount\n\n" for i in range(PAGES))
# overload stubs beside the implementation, and a class whose name a module's spells
# in another case (``Ledger.`` and ``ledger.money``)
CONVERT = """from typing import overload


@overload
def to_cents(value: int) -> int: ...
@overload
def to_cents(value: float) -> float: ...
def to_cents(value):
    \"\"\"Whole cents of an amount.\"\"\"
    return value * 100


class Ledger:
    def open(self):
        return to_cents(1)
"""
HELPERS = "".join(
    f'def ledger_entry_{i:03}(amount: float, account: str) -> float:\n'
    f'    """Book ledger entry number {i:03} against an account."""\n'
    f'    return amount\n\n' for i in range(ENTRIES))


@dataclass
class Bridge:
    portal: BlockingPortal
    session: ClientSession
    daemon_addr: str

    def call(self, tool: str, **arguments: Any) -> CallToolResult:
        return self.portal.call(self.session.call_tool, tool, arguments)

    def ok(self, tool: str, **arguments: Any) -> dict[str, Any]:
        result = self.call(tool, **arguments)
        assert not result.is_error, result.content
        text = result.content[0].text  # type: ignore[union-attr]
        assert len(text) <= BUDGET_CHARS
        assert json.loads(text) == result.structured_content
        return result.structured_content or {}

    def error(self, tool: str, **arguments: Any) -> str:
        result = self.call(tool, **arguments)
        assert result.is_error
        return result.content[0].text  # type: ignore[union-attr]


BRIDGE = str(Path(sys.executable).with_name("coderecall-mcp"))  # the console script


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def listening(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0


@contextmanager
def bridge(addr: str, err: Path) -> Iterator[Bridge]:
    # The MCP client passes only a few "safe" variables on: name the client code under test,
    # or the bridge would import whichever copy is installed.
    params = StdioServerParameters(command=BRIDGE, args=["--addr", addr],
                                   env={"PYTHONPATH": str(Path(coderecall.__file__).parents[1])})
    with ExitStack() as stack:
        portal = stack.enter_context(start_blocking_portal())
        errlog = stack.enter_context(err.open("w"))
        read, write = stack.enter_context(portal.wrap_async_context_manager(stdio_client(params, errlog)))
        session = stack.enter_context(portal.wrap_async_context_manager(ClientSession(read, write)))
        portal.call(session.initialize)
        yield Bridge(portal, session, addr)


@pytest.fixture(scope="module")
def mcp(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Bridge]:
    tmp_path = tmp_path_factory.mktemp("mcp")
    shop = GitRepo(tmp_path / "shop")
    shop.commit({"app/__init__.py": "", "app/money.py": MONEY, "app/billing.py": BILLING,
                 "app/cli.py": CLI}, "initial")
    ledger = GitRepo(tmp_path / "ledger")
    ledger.commit({"ledger/money.py": LEDGER, "ledger/entries.py": HELPERS, "ledger/long.py": LONG, "ledger/account.py": ACCOUNT,
                   "ledger/journal.py": JOURNAL, "ledger/book.py": BOOK, "ledger/convert.py": CONVERT},
                  "initial")
    cfg = Config(data_dir=tmp_path / "data",
                 repos=(RepoConfig("shop", str(shop.path), "main"), RepoConfig("ledger", str(ledger.path), "main")),
                 embedding=EmbeddingConfig(enabled=False),
                 index=IndexConfig(sync_interval_s=3600, sync_jitter_s=0))
    daemon = Daemon.open(cfg)
    for repo_cfg in cfg.repos:
        daemon.jobs.run_now(repo_cfg.name)
    server, port = build_server(daemon.service, "127.0.0.1:0")
    server.start()
    try:
        with bridge(f"127.0.0.1:{port}", tmp_path / "bridge.err") as running:
            yield running
    finally:
        server.stop(0).wait()
        daemon.close()


def test_lists_the_eight_tools(mcp: Bridge) -> None:
    tools = mcp.portal.call(mcp.session.list_tools).tools
    assert [t.name for t in tools] == [
        "search_code", "locate_code", "find_symbol", "find_callers", "analyze_impact", "get_card", "read_symbol",
        "list_repos"]
    assert all(t.annotations and t.annotations.read_only_hint for t in tools)


def test_search_code_cites_ranges(mcp: Bridge) -> None:
    answer = mcp.ok("search_code", query="compute_refund", limit=3, repo="shop")
    assert answer["results"][0] == {
        "cite": "shop:app/billing.py:16-18", "name": "compute_refund", "kind": "function",
        "sig": "def compute_refund(invoice: Invoice, percent: float) -> float",
        "doc": "Refund a percentage of an invoice's total to the customer."}
    scoped = mcp.ok("search_code", query="refund", path_prefix="app/cli")
    assert sorted((r["cite"], r["kind"]) for r in scoped["results"]) == [
        ("shop:app/cli.py:4-6", "function")]  # its module holds only an import: nothing to search


def test_locate_code_answers_files_with_functions(mcp: Bridge) -> None:
    answer = mcp.ok("locate_code", query="compute_refund gives the wrong total\n"
                    "Refunding 50 percent of an invoice returns the full amount.", repo="shop")
    first = answer["files"][0]
    assert first["file"] == "shop:app/billing.py" and first["role"] == "source"
    assert any(f.startswith("compute_refund:16-18") for f in first["functions"])


def test_find_symbol_exact_prefix_and_budget(mcp: Bridge) -> None:
    assert mcp.ok("find_symbol", name="invoice.TOTAL")["results"] == [{
        "cite": "shop:app/billing.py:10-13", "name": "Invoice.total", "kind": "method",
        "sig": "def total(self) -> float", "doc": "Sum of all invoice lines."}]
    prefixed = mcp.ok("find_symbol", name="Invoice", prefix=True)
    assert [r["name"] for r in prefixed["results"]] == ["Invoice", "Invoice.__init__", "Invoice.total"]
    assert "more" not in prefixed
    many = mcp.ok("find_symbol", name="ledger_entry_", prefix=True)
    kept = len(many["results"])
    assert 10 < kept < 50
    assert many["more"] == f"{ENTRIES - kept} more of {ENTRIES} left out; call find_symbol again with offset={kept}"
    names = [r["name"] for r in many["results"]]
    while "more" in many:  # the offset it names reaches every one of them
        many = mcp.ok("find_symbol", name="ledger_entry_", prefix=True, offset=len(names))
        names += [r["name"] for r in many["results"]]
    assert names == [f"ledger_entry_{i:03}" for i in range(ENTRIES)]
    assert mcp.ok("find_symbol", name="no_such_symbol") == {"results": []}


def test_find_callers_across_repos(mcp: Bridge) -> None:
    answer = mcp.ok("find_callers", name="round_money")
    assert sorted(answer["results"], key=lambda r: r["cite"]) == [
        {"cite": "ledger:ledger/money.py:7", "caller": "settle", "callee": "round_money",
         "confidence": "resolved"},
        {"cite": "shop:app/billing.py:13", "caller": "Invoice.total", "callee": "round_money",
         "confidence": "resolved"},
        {"cite": "shop:app/billing.py:18", "caller": "compute_refund", "callee": "round_money",
         "confidence": "resolved"},
    ]
    only_ledger = mcp.ok("find_callers", name="round_money", repo="ledger")
    assert [r["cite"] for r in only_ledger["results"]] == ["ledger:ledger/money.py:7"]


def test_find_callers_pages_with_offset(mcp: Bridge) -> None:
    first = mcp.ok("find_callers", name="post", repo="ledger")
    kept = len(first["results"])
    assert 10 < kept < POSTS
    # repo is set already: the way on is the offset, never "call again with repo=".
    assert first["more"] == f"{POSTS - kept} more of {POSTS} left out; call find_callers again with offset={kept}"
    callers = [r["caller"] for r in first["results"]]
    answer = first
    while "more" in answer:
        answer = mcp.ok("find_callers", name="post", repo="ledger", offset=len(callers))
        callers += [r["caller"] for r in answer["results"]]
    assert callers == [f"journal_line_{i:03}" for i in range(POSTS)]
    # a page past the end says how many there are: an empty list alone read as "none"
    assert mcp.ok("find_callers", name="post", offset=POSTS) == {
        "by_confidence": {"resolved": POSTS}, "results": [], "more": f"offset={POSTS} is past the last of {POSTS}; call find_callers again with a "
                               "smaller offset"}
    # a name no symbol has says so, as the CLI does
    assert mcp.ok("find_callers", name="noSuchThing") == {
        "no_symbol": "no symbol named 'noSuchThing' is indexed; try find_symbol with fuzzy=true", "results": []}
    # a property nothing calls says it is read, and how to find its reads (as the CLI
    # does: rich's Console.width); a method nothing calls gets no such note
    assert mcp.ok("find_callers", name="Account.balance") == {
        "property": "'Account.balance' is a property, read and not called; its reads: "
                    "search_code with query '\".balance\"'", "results": []}
    assert mcp.ok("find_callers", name="Account.close") == {"results": []}


def test_unknown_arguments_are_errors_naming_the_accepted_ones(mcp: Bridge) -> None:
    assert mcp.error("find_callers", name="post", limit=5) == (
        "INVALID_ARGUMENT: find_callers takes no argument 'limit'; it accepts: name, repo, offset")
    assert mcp.error("list_repos", verbose=True) == (
        "INVALID_ARGUMENT: list_repos takes no argument 'verbose'; it accepts: none")
    assert mcp.error("search_code", query="x", page=2, lang="py") == (
        "INVALID_ARGUMENT: search_code takes no argument 'lang', 'page'; it accepts: query, limit, "
        "repo, language, path_prefix, role")


def test_search_hint_suggests_only_filters_that_narrow(mcp: Bridge) -> None:
    """The hits span both repos and several directories, all Python: repo= and path_prefix=
    would narrow them, language= would not; a filter already set is never suggested."""
    wide = mcp.ok("search_code", query="amount account round money", limit=100)
    assert {r["cite"].split(":")[0] for r in wide["results"]} == {"shop", "ledger"}
    assert wide["more"].endswith(" more results left out; call again with repo=, path_prefix= or a "
                                 "narrower query")
    scoped = mcp.ok("search_code", query="amount account round money", limit=100, repo="ledger")
    assert scoped["more"].endswith(" more results left out; call again with a narrower query")


def test_analyze_impact_says_where_it_was_cut(mcp: Bridge) -> None:
    cut = mcp.ok("analyze_impact", name="round_money", depth=1)
    assert (cut["nodes"], cut["truncated"]) == (3, True)
    assert cut["cut"] == "callers exist past depth 1; call again with depth=2"  # one call, not three


def test_analyze_impact_flattens_the_tree(mcp: Bridge) -> None:
    assert mcp.ok("analyze_impact", name="compute_refund") == {
        "nodes": 1, "repos": 1, "files": 1,
        "callers": [{"d": 1, "cite": "shop:app/cli.py:6", "caller": "main", "confidence": "resolved"}]}
    deep = mcp.ok("analyze_impact", name="round_money", depth=2)
    assert [(r["d"], r["cite"], r["caller"]) for r in deep["callers"]] == [
        (1, "ledger:ledger/money.py:7", "settle"),
        (1, "shop:app/billing.py:13", "Invoice.total"),
        (1, "shop:app/billing.py:18", "compute_refund"),
        (2, "shop:app/cli.py:6", "main")]
    assert (deep["nodes"], deep["repos"], deep["files"], "truncated" in deep) == (4, 2, 3, False)


def test_find_symbol_fuzzy(mcp: Bridge) -> None:
    assert mcp.ok("find_symbol", name="compute_refnd")["results"] == []
    typo = mcp.ok("find_symbol", name="compute_refnd", fuzzy=True)
    assert [r["name"] for r in typo["results"]] == ["compute_refund"]


def test_get_card_of_a_function(mcp: Bridge) -> None:
    card = mcp.ok("get_card", name="compute_refund")
    assert card["symbol"] == {
        "cite": "shop:app/billing.py:16-18", "name": "compute_refund", "kind": "function",
        "sig": "def compute_refund(invoice: Invoice, percent: float) -> float",
        "doc": "Refund a percentage of an invoice's total to the customer."}
    assert card["source"]["cite"] == "shop:app/billing.py:16-18"
    assert card["source"]["text"] == "".join(BILLING.splitlines(keepends=True)[15:18])
    assert card["callers"] == [{"cite": "shop:app/cli.py:6", "caller": "main", "callee": "compute_refund",
         "confidence": "resolved"}]
    assert "methods" not in card


def test_get_card_of_a_class_lists_methods(mcp: Bridge) -> None:
    card = mcp.ok("get_card", name="Invoice")
    assert card["symbol"]["cite"] == "shop:app/billing.py:4-13"
    # From the daemon's GetCard: the constructor's parameters and the file's other symbols.
    assert card["profile"]["init"] == ["lines"]
    assert card["profile"]["siblings"] == ["compute_refund"]
    assert card["methods"] == [
        {"cite": "shop:app/billing.py:7-8", "name": "Invoice.__init__", "sig": "def __init__(self, lines)"},
        {"cite": "shop:app/billing.py:10-13", "name": "Invoice.total", "sig": "def total(self) -> float"}]
    assert card["callers"] == [{"cite": "shop:app/cli.py:5", "caller": "main", "callee": "Invoice",
         "confidence": "resolved"}]
    assert card["source"]["text"].startswith("class Invoice:\n")


def test_get_card_says_what_it_left_out(mcp: Bridge) -> None:
    card = mcp.ok("get_card", name="Book")
    kept = len(card["methods"])
    assert 5 < kept < PAGES
    assert [m["name"] for m in card["methods"]] == [f"Book.page_{i:02}" for i in range(kept)]
    assert card["methods_more"] == (f"{PAGES - kept} more methods: find_symbol(name='Book.', "
                                    f"prefix=true, offset={kept})")
    rest = mcp.ok("find_symbol", name="Book.", prefix=True, offset=kept)
    assert rest["results"][0]["name"] == f"Book.page_{kept:02}"
    assert card["profile"]["more"] == ("profile trimmed to fit; the whole file: read_symbol("
                                       "repo='ledger', path='ledger/book.py', start_line=1, end_line=0)")


def test_get_card_ambiguous_lists_candidates(mcp: Bridge) -> None:
    answer = mcp.ok("get_card", name="round_money")
    assert sorted(c["cite"] for c in answer["candidates"]) == [
        "ledger:ledger/money.py:1-3", "shop:app/money.py:4-6"]
    narrowed = mcp.ok("get_card", name="round_money", repo="ledger")
    assert narrowed["symbol"]["doc"] == "Round half up to whole cents."
    assert narrowed["callers"][0]["cite"] == "ledger:ledger/money.py:7"


def test_get_card_of_an_overloaded_function_is_its_implementations(mcp: Bridge) -> None:
    # click's `Context.invoke`: three definitions of one name, candidates however narrowed
    for name in ("to_cents", "ledger.convert.to_cents"):
        card = mcp.ok("get_card", name=name)
        assert card["symbol"]["cite"] == "ledger:ledger/convert.py:8-10", name
        assert card["symbol"]["doc"] == "Whole cents of an amount."
        assert card["callers"] == [{"cite": "ledger:ledger/convert.py:15", "caller": "Ledger.open",
                                    "callee": "to_cents", "confidence": "resolved"}]


def test_get_card_of_a_class_lists_its_own_members_only(mcp: Bridge) -> None:
    # `Ledger.` also finds `ledger.money`.. (case-insensitive): no "more methods" of those
    card = mcp.ok("get_card", name="Ledger")
    assert card["methods"] == [{"cite": "ledger:ledger/convert.py:14-15", "name": "Ledger.open",
                                "sig": "def open(self)"}]
    assert "methods_more" not in card


def test_analyze_impact_of_an_unknown_name_says_so(mcp: Bridge) -> None:
    # an empty tree read as "safe to change" (a newcomer)
    typo = mcp.ok("analyze_impact", name="round_mony")
    assert typo == {"no_symbol": "no symbol named 'round_mony' is indexed; try find_symbol with fuzzy=true",
                    "nodes": 0, "repos": 0, "files": 0, "callers": []}
    assert "no_symbol" not in mcp.ok("analyze_impact", name="settle")  # defined, never called
    # depth 0 is the daemon's default, 3: the cut names the depth walked
    assert mcp.ok("analyze_impact", name="round_money", depth=0)["callers"] == mcp.ok(
        "analyze_impact", name="round_money", depth=3)["callers"]


def test_get_card_source_excerpt_is_cut_at_40_lines(mcp: Bridge) -> None:
    card = mcp.ok("get_card", name="long_report")
    assert card["symbol"]["cite"] == "ledger:ledger/long.py:1-60"
    assert card["source"]["cite"] == "ledger:ledger/long.py:1-40"
    assert card["source"]["text"] == "".join(LONG.splitlines(keepends=True)[:40])
    assert card["source"]["more"] == "lines 41-60 left out; call read_symbol with start_line=41"
    assert card["callers"] == []


def test_read_symbol_and_its_budget(mcp: Bridge) -> None:
    answer = mcp.ok("read_symbol", repo="shop", path="app/billing.py", start_line=16, end_line=18)
    assert answer["cite"] == "shop:app/billing.py:16-18"
    assert answer["text"] == "".join(BILLING.splitlines(keepends=True)[15:18])
    total = ENTRIES * 4
    big = mcp.ok("read_symbol", repo="ledger", path="ledger/entries.py", start_line=1, end_line=total)
    last = int(big["cite"].rsplit("-", 1)[1])
    assert 10 < last < total
    assert big["text"] == "".join(HELPERS.splitlines(keepends=True)[:last])
    assert big["more"] == (f"lines {last + 1}-{total} left out; call read_symbol again "
                           f"with start_line={last + 1}")


def test_list_repos(mcp: Bridge) -> None:
    repos = {r["name"]: r for r in mcp.ok("list_repos")["repos"]}
    assert set(repos) == {"shop", "ledger"}
    assert (repos["shop"]["state"], repos["shop"]["files"], len(repos["shop"]["commit"])) == ("ready", 4, 12)


def test_daemon_errors_are_tool_errors_and_the_bridge_lives_on(mcp: Bridge) -> None:
    message = mcp.error("search_code", query="refund", repo="elsewhere")
    assert message == ("NOT_FOUND: repo 'elsewhere' is not configured; repos: ledger, shop "
                       "(list_repos lists them)")  # not the CLI's `coderecall repos`
    missing = mcp.error("read_symbol", repo="shop", path="app/nothing.py", start_line=1, end_line=2)
    assert missing.startswith("NOT_FOUND: ") and "list_repos" not in missing
    assert mcp.error("read_symbol", repo="shop", path="app/money.py", start_line=5, end_line=2).startswith(
        "INVALID_ARGUMENT: ")
    assert mcp.error("get_card", name="no_such_symbol").startswith("NOT_FOUND: no symbol named 'no_such_symbol'")
    assert mcp.ok("list_repos")["repos"]  # still answering


def test_a_cancelled_tool_call_cancels_its_daemon_call(tmp_path: Path) -> None:
    """An agent that gives up on a tool call (its MCP client sends notifications/cancelled)
    ends the daemon's work on it: the bridge's thread stayed in the blocking gRPC call, and
    an expensive worker ran on for an answer nobody read (a stall hunt: an analyze_impact
    of a hub name, 5-35 s)."""
    api = SlowApi()
    with serving(api) as addr, bridge(addr, tmp_path / "bridge.err") as running:
        async def give_up() -> None:
            async with anyio.create_task_group() as tasks:
                tasks.start_soon(running.session.call_tool, "find_callers", {"name": "hub"})
                assert await anyio.to_thread.run_sync(api.started.wait, 10)
                tasks.cancel_scope.cancel()

        running.portal.call(give_up)
        assert api.ended_event.wait(5)  # not at release, nor at the bridge's 30 s deadline
        assert api.ended == ["Cancelled"]
        # the one expensive slot is free again, and the bridge answers on
        api.release.set()
        assert running.ok("find_callers", name="hub") == {
            "no_symbol": "no symbol named 'hub' is indexed; try find_symbol with fuzzy=true", "results": []}
    assert api.ended == ["Cancelled", "done"]


def test_dead_daemon_is_reported_not_reachable(tmp_path: Path) -> None:
    addr = f"127.0.0.1:{free_port()}"
    with bridge(addr, tmp_path / "bridge.err") as dead:
        assert dead.error("list_repos") == f"coderecalld is not reachable at {addr} (is it running?)"
        assert dead.error("get_card", name="x") == f"coderecalld is not reachable at {addr} (is it running?)"


def test_streamable_http_transport(mcp: Bridge, tmp_path: Path) -> None:
    port = free_port()
    with (tmp_path / "http.err").open("w") as errlog:
        proc = subprocess.Popen([BRIDGE, "--addr", mcp.daemon_addr, "--transport", "http", "--port", str(port)],
                                stdin=subprocess.DEVNULL, stdout=errlog, stderr=errlog)
    try:
        deadline = time.monotonic() + 20
        while not listening(port):
            assert proc.poll() is None and time.monotonic() < deadline, (tmp_path / "http.err").read_text()
            time.sleep(0.1)

        async def list_repos() -> CallToolResult:
            async with streamable_http_client(f"http://127.0.0.1:{port}/mcp") as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    return await session.call_tool("list_repos", {})

        result = mcp.portal.call(list_repos)
        assert not result.is_error
        assert sorted(r["name"] for r in (result.structured_content or {})["repos"]) == ["ledger", "shop"]
    finally:
        proc.terminate()
        proc.wait(timeout=10)
