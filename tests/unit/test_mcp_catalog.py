"""The MCP bridge's tool catalog is pinned like a lockfile: every agent loads it into its
context, so a change of a name, a description or a schema is a reviewed change."""

from __future__ import annotations

import hashlib
import json
import threading
from typing import Any

import anyio
import pytest

from coderecall import (Cancellation, Client, InvalidArgumentError, NotFoundError, ResourceExhaustedError,
                        UnavailableError)
from coderecall import _mcp_results as results
from coderecall import mcp_server
from coderecall.mcp_server import build_server, catalog, error_message

# sha256 of the canonical JSON of [{name, description, inputSchema}] (see _pinned_hash).
# After a reviewed change: run `pytest tests/unit/test_mcp_catalog.py`, copy the new
# value from the failure message, and say in the commit why the catalog changed.
PINNED_SHA256 = "da00ad11f3cca8442495748c62159dd0105942c442329d2969ef81408d2b7a62"
MAX_TOKENS = 1500  # the target for the whole catalog, at ~4 characters per token


@pytest.fixture(scope="module")
def tools() -> list[dict[str, Any]]:
    with Client("127.0.0.1:1") as client:  # never called: listing tools needs no daemon
        return anyio.run(catalog, build_server(client))


def _pinned_hash(tools: list[dict[str, Any]]) -> str:
    pinned = [{"name": t["name"], "description": t["description"], "inputSchema": t["inputSchema"]}
              for t in tools]
    canonical = json.dumps(pinned, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


def test_catalog_is_pinned(tools: list[dict[str, Any]]) -> None:
    actual = _pinned_hash(tools)
    assert actual == PINNED_SHA256, (
        f"the MCP tool catalog changed (sha256 {actual}). Review the names, descriptions and "
        f"schemas (`coderecall-mcp --catalog`), then set PINNED_SHA256 in {__file__} to it.")


def test_catalog_is_small(tools: list[dict[str, Any]]) -> None:
    with Client("127.0.0.1:1") as client:
        instructions = build_server(client).instructions or ""
    chars = len(json.dumps(tools, separators=(",", ":"))) + len(instructions)
    assert chars // 4 < MAX_TOKENS
    assert [t["name"] for t in tools] == [
        "search_code", "locate_code", "find_symbol", "find_callers", "analyze_impact", "get_card", "read_symbol",
        "list_repos"]
    assert all("title" not in json.dumps(t["inputSchema"]) for t in tools)


def test_search_schema_optionals(tools: list[dict[str, Any]]) -> None:
    search = next(t for t in tools if t["name"] == "search_code")["inputSchema"]
    assert search["required"] == ["query"]
    assert search["properties"]["limit"] == {"default": 10, "type": "integer"}


class Refusing:
    """A client whose ``list_repos`` is refused as over the daemon's limits ``refusals``
    times, then answers."""

    def __init__(self, refusals: int) -> None:
        self.refusals = refusals
        self.calls = 0

    def list_repos(self) -> list[Any]:
        self.calls += 1
        if self.calls <= self.refusals:
            raise ResourceExhaustedError("RESOURCE_EXHAUSTED", "FindCallers: the server is running its "
                                         "limit of 4 expensive requests", "127.0.0.1:1")
        return []


@pytest.mark.parametrize("refusals, calls, error", [(0, 1, False), (3, 4, False), (4, 4, True)])
def test_a_refused_call_is_tried_again_before_it_is_an_error(monkeypatch: pytest.MonkeyPatch, refusals: int,
                                                             calls: int, error: bool) -> None:
    # an agent's parallel tool calls were refused within 0.5 s (a newcomer's stall trial)
    slept: list[float] = []
    monkeypatch.setattr(Cancellation, "wait", lambda self, timeout_s: slept.append(timeout_s) or False)
    client = Refusing(refusals)
    result = anyio.run(build_server(client).call_tool, "list_repos", {})  # type: ignore[arg-type]
    text = json.dumps(result, default=str)
    assert client.calls == calls and len(slept) == calls - 1
    assert all(0.5 * w <= s <= 1.5 * w for s, w in zip(slept, mcp_server.RETRY_WAITS_S))
    assert ("RESOURCE_EXHAUSTED: FindCallers: the server is running its limit" in text) is error


def test_a_cancel_ends_the_wait_between_tries_and_tries_nothing_again(monkeypatch: pytest.MonkeyPatch) -> None:
    # a tool call its agent gave up on waited out its tries on a worker thread, calling again
    monkeypatch.setattr(mcp_server, "RETRY_WAITS_S", (60.0, 60.0))
    client = Refusing(3)
    waiting, woke = threading.Event(), threading.Event()
    cancelled: list[bool] = []
    wait = Cancellation.wait

    def recorded(self: Cancellation, timeout_s: float) -> bool:
        waiting.set()
        cancelled.append(wait(self, timeout_s))
        woke.set()
        return cancelled[-1]

    monkeypatch.setattr(Cancellation, "wait", recorded)

    async def give_up() -> None:
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(build_server(client).call_tool, "list_repos", {})  # type: ignore[arg-type]
            assert await anyio.to_thread.run_sync(waiting.wait, 10)
            tasks.cancel_scope.cancel()

    anyio.run(give_up)
    assert woke.wait(20)  # a wait of 30-90 s, ended by the cancel
    assert cancelled == [True] and client.calls == 1


def test_a_call_over_its_own_bound_is_not_tried_again(monkeypatch: pytest.MonkeyPatch) -> None:
    # a 5 MB answer over the message size was tried four times (a review)
    client = Refusing(1)
    sized = ResourceExhaustedError("RESOURCE_EXHAUSTED", "Received message larger than max (5242880 vs. "
                                   "4194304)", "127.0.0.1:1")
    monkeypatch.setattr(client, "list_repos", lambda: (_ for _ in ()).throw(sized))
    monkeypatch.setattr(Cancellation, "wait", lambda self, timeout_s: pytest.fail("slept"))
    text = json.dumps(anyio.run(build_server(client).call_tool, "list_repos", {}), default=str)  # type: ignore[arg-type]
    assert "Received message larger than max" in text


def test_error_messages() -> None:
    refused = UnavailableError("UNAVAILABLE", "failed to connect to all addresses; last error: "
                               "UNKNOWN: ipv4:127.0.0.1:9: Failed to connect to remote host: "
                               "Connection refused", "127.0.0.1:9")
    assert error_message(refused) == "coderecalld is not reachable at 127.0.0.1:9 (is it running?)"
    store_down = UnavailableError("UNAVAILABLE", "vector store unavailable", "h:1")
    assert error_message(store_down) == "coderecalld at h:1 is unavailable: vector store unavailable"
    assert error_message(NotFoundError("NOT_FOUND", "unknown repo 'x'", "h:1")) == (
        "NOT_FOUND: unknown repo 'x' (list_repos shows what is indexed)")
    # the daemon's CLI hint becomes the tool's; a missing file is no repo's fault
    assert error_message(NotFoundError("NOT_FOUND", "repo 'y' is not configured; repos: a "
                                       "(coderecall repos lists them)", "h:1")) == (
        "NOT_FOUND: repo 'y' is not configured; repos: a (list_repos lists them)")
    assert error_message(NotFoundError("NOT_FOUND", "no file 'a.py' at the indexed commit", "h:1")) == (
        "NOT_FOUND: no file 'a.py' at the indexed commit")
    assert error_message(InvalidArgumentError("INVALID_ARGUMENT", "bad", "h:1")) == "INVALID_ARGUMENT: bad"


def test_fit_keeps_a_prefix_within_budget_and_says_what_is_left() -> None:
    rows = [{"cite": f"r:p.py:{i}-{i}", "name": "x" * 90} for i in range(200)]
    payload = results.fit({}, "results", rows, "narrow it")
    kept = len(payload["results"])
    assert payload["results"] == rows[:kept]
    assert len(results.dumps(payload)) <= results.BUDGET_CHARS
    assert len(results.dumps(results.fit({}, "results", rows[:kept + 1], "narrow it"))) <= results.BUDGET_CHARS
    assert payload["more"] == f"{200 - kept} more results left out; narrow it"
    assert results.fit({}, "results", rows[:3], "narrow it") == {"results": rows[:3]}


def test_main_resolves_addr_and_token(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    seen: list[tuple[str, str]] = []

    class Recording(Client):
        def __init__(self, addr: str, timeout_s: float = 30.0, *, token: str = "") -> None:
            seen.append((addr, token))
            super().__init__(addr, timeout_s)

    monkeypatch.setattr(mcp_server, "Client", Recording)
    assert mcp_server.main(["--catalog"]) == 0
    monkeypatch.setenv("CODERECALL_ADDR", "env-host:1")
    monkeypatch.setenv("CODERECALL_TOKEN", "env-token")
    assert mcp_server.main(["--catalog"]) == 0
    assert mcp_server.main(["--catalog", "--addr", "flag-host:2", "--token", "flag-token"]) == 0
    assert seen == [("127.0.0.1:50551", ""), ("env-host:1", "env-token"), ("flag-host:2", "flag-token")]
    out, err = capsys.readouterr()
    first, _ = json.JSONDecoder().raw_decode(out)  # three catalogs were printed
    assert first[0]["name"] == "search_code"
    assert err.endswith(" tokens\n")


def test_narrow_never_suggests_a_filter_already_set() -> None:
    assert results.narrow(repo="", path_prefix="", last="a narrower query") == (
        "call again with repo=, path_prefix= or a narrower query")
    assert results.narrow(repo="web", path_prefix="", last="a narrower query") == (
        "call again with path_prefix= or a narrower query")
    assert results.narrow(repo="web") == "narrow the question"


def test_schemas_forbid_unknown_arguments(tools: list[dict[str, Any]]) -> None:
    assert all(t["inputSchema"]["additionalProperties"] is False for t in tools)
    callers = next(t for t in tools if t["name"] == "find_callers")["inputSchema"]
    assert list(callers["properties"]) == ["name", "repo", "offset"]


def test_search_narrowing_names_only_filters_that_would_narrow() -> None:
    from coderecall import SymbolHit

    def hit(repo: str, path: str, language: str = "python") -> SymbolHit:
        return SymbolHit(repo, path, language, "function", "f", "f", "", "", "", 1, 2, 0, 9, "c", 1.0, "hybrid")

    spread = [hit("a", "x/m.py"), hit("b", "y/n.go", "go")]
    assert results.narrowing(spread, "", "", "") == (
        "call again with repo=, path_prefix=, language= or a narrower query")
    assert results.narrowing(spread, "a", "", "") == "call again with path_prefix=, language= or a narrower query"
    same = [hit("a", "x/m.py"), hit("a", "x/n.py")]
    assert results.narrowing(same, "", "", "") == "call again with a narrower query"


def test_a_line_longer_than_an_answer_is_cut_and_says_so() -> None:
    """A newcomer's ``read_symbol`` of an SVG of one 16,866-character line came back cut
    with "…", no ``more``, and cited ``1-1`` as if whole."""
    from coderecall import SourceText

    class Reading(Client):
        def read_symbol(self, repo: str, path: str, start_line: int = 1, end_line: int = 0) -> SourceText:
            return SourceText(repo, path, "c" * 40, 1, 2, "<svg " + "x" * 16_860 + ">\nshort\n")

    got = results.source(Reading("127.0.0.1:9"), "r", "img/a.svg", 1, 2, budget=3000)
    assert len(json.dumps(got, ensure_ascii=False, separators=(",", ":"))) <= 3000
    assert got["cite"] == "r:img/a.svg:1-1" and got["text"].endswith("…")
    assert got["more"] == ("lines 2-2 left out; call read_symbol again with start_line=2; "
                           "line 1 (16866 characters) is cut to fit: longer than one answer holds")
