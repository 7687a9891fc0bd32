"""``coderecall-mcp``: a thin MCP bridge from coding agents to a coderecalld.

::

    coderecall-mcp [--addr HOST:PORT] [--token T] [--timeout S]
                   [--transport stdio|http] [--host H] [--port N] [--catalog]

Eight read-only tools, each a call or three of ``coderecall.Client`` (the bridge never
touches the index itself): ``search_code``, ``locate_code``, ``find_symbol``, ``find_callers``,
``analyze_impact``, ``get_card``, ``read_symbol``, ``list_repos``. Answers are compact JSON (also sent as
structured content) with ``repo:path:start-end`` citations (call sites:
``repo:path:line``), each at most ``BUDGET_CHARS`` characters; what does not fit is
named in ``more`` with how many and how to ask for it (``offset=`` where the tool pages,
else a narrower filter the call does not already set; ``analyze_impact``: in ``cut``, its
deepest, least certain nodes left out first, ``coderecall._mcp_impact``). Daemon errors become tool errors
(``isError``) with the daemon's message; the bridge keeps running. A call the daemon
refuses as over its limits (``RESOURCE_EXHAUSTED``: its share of expensive requests, or
a caller's rate) is tried again after ``RETRY_WAITS_S`` before it is an error. A tool
call the client cancels (``notifications/cancelled``) cancels its daemon call, which
stops its work, and tries nothing again. An argument a tool does not take is an error
naming the ones it does (never silently ignored).

The daemon's address is ``--addr``, else ``$CODERECALL_ADDR``, else
``127.0.0.1:50551``; the bearer token ``--token``, else ``$CODERECALL_TOKEN``.
``--transport http`` serves streamable HTTP at ``http://HOST:PORT/mcp``.
``--catalog`` prints the tool catalog (what an agent loads into its context) and its
approximate size in tokens (characters / 4), then exits.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from collections.abc import Awaitable, Callable, Sequence
from importlib import metadata
from typing import Any

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.tools import Tool
from mcp_types import CallToolResult, TextContent, ToolAnnotations

from coderecall import _mcp_impact
from coderecall import _mcp_results as results
from coderecall._cancel import Cancellation
from coderecall._client import DEFAULT_ADDR, Client
from coderecall._errors import CodeRecallError, ResourceExhaustedError, UnavailableError
from coderecall.cli import ENV_ADDR, ENV_TOKEN, broken_pipe, resolve_addr

BUDGET_CHARS = results.BUDGET_CHARS
PROG = "coderecall-mcp"
#: Waits (seconds, each x 0.5-1.5 at random) before a call the daemon refused as over its
#: limits is tried again; then its refusal is the answer. An agent's parallel tool calls
#: (eight ``find_callers`` at once: four refused within 0.5 s, a newcomer) wait their turn
#: (the daemon admits half its workers' worth of expensive requests, each waiting 0.25 s).
RETRY_WAITS_S = (0.25, 0.5, 1.0)
#: The depth the daemon walks for ``analyze_impact``'s depth 0 (its ``impact.DEFAULT_DEPTH``).
IMPACT_DEPTH = 3
_READ_ONLY = ToolAnnotations(read_only_hint=True)
# Transport failures as grpc words them (connection refused, DNS, no route): the daemon
# is not there, as opposed to a daemon answering UNAVAILABLE because its store is down.
_UNREACHABLE = ("failed to connect", "connection refused", "dns resolution failed",
                "no route to host", "connect failed", "socket closed")


def build_server(client: Client) -> MCPServer:
    """The MCP server with the eight tools, answering through ``client``."""
    async def search_code(query: str, limit: int = 10, repo: str = "", language: str = "",
                          path_prefix: str = "", role: str = "") -> CallToolResult:
        """Hybrid (meaning + keyword) search for functions, classes and methods. Best first;
        an exact identifier in the query is pinned first. low_confidence: weak hits, rather
        say not found. role: source|test|docs|example|generated|vendored|config,
        comma-separated."""
        def run() -> dict[str, Any]:
            hits = client.search(query, limit=limit, repo=repo, language=language,
                                 path_prefix=path_prefix, role=role)
            head = {"low_confidence": hits.confidence_reason} if hits.low_confidence else {}
            return results.fit(head, "results", [results.symbol(h) for h in hits],
                               results.narrowing(hits, repo=repo, path_prefix=path_prefix,
                                                 language=language))
        return await _answer(run)

    async def locate_code(query: str, limit: int = 10, repo: str = "", role: str = "") -> CallToolResult:
        """Which files (and functions) a question, an issue text or a traceback is about,
        best file first. role as in search_code."""
        def run() -> dict[str, Any]:
            files = client.locate(query, limit=limit, repo=repo, role=role)
            head = {"low_confidence": files.confidence_reason} if files.low_confidence else {}
            return results.fit(head, "files", [results.located(f) for f in files],
                               results.narrow(repo=repo, last="a smaller limit"))
        return await _answer(run)

    async def find_symbol(name: str, prefix: bool = False, fuzzy: bool = False, repo: str = "",
                          offset: int = 0) -> CallToolResult:
        """Definitions named name or qualified name (Class.method; Go's Type.Method or
        (*Type).Method; Rust's Type::method; Java's Outer$Inner.method; Ruby's Class#method;
        PHP's Ns\\Class::method), case-insensitive, or module-qualified (pkg.Class, re-exports
        followed); source before tests and copies; prefix=true: names starting with name;
        fuzzy=true: also substrings and typos. offset: skip that many (paging)."""
        def run() -> dict[str, Any]:
            hits = client.find_symbols(name, repo=repo, prefix=prefix, limit=results.PAGE_ROWS,
                                       fuzzy=fuzzy, offset=offset)
            return results.page({}, [results.symbol(h) for h in hits], hits, "find_symbol")
        return await _answer(run)

    async def find_callers(name: str, repo: str = "", offset: int = 0) -> CallToolResult:
        """Call sites of a function or method: where, the calling symbol and confidence
        (resolved, inherited, override, reference: passed or stored, not called; name_only);
        a property says so; omitted_other_type: same-name calls on other types, left out.
        An overload as printed, Selector.select(String,Element), selects it (calls told
        apart by argument count). offset: skip that many (paging)."""
        def run() -> dict[str, Any]:
            sites = client.find_callers(name, repo=repo, limit=results.PAGE_ROWS, offset=offset)
            # the whole answer's counts first: page 2 of 43 name-only sites was read to learn
            # that it held nothing certain (gin's Context.Render)
            head: dict[str, Any] = {"by_confidence": sites.by_confidence} if sites.by_confidence else {}
            if sites.omitted_other_type:
                head["omitted_other_type"] = sites.omitted_other_type
            if note := results.earlier(sites):
                head["earlier"] = note
            if sites.hierarchy_cut:
                head["hierarchy_cut"] = True  # calls through further aliases or subclasses may be missing
            defined = client.find_symbols(name, repo=repo, limit=1) if not sites else []
            if not sites and not defined:
                # a typo reads as "nothing calls it" otherwise (as the CLI says)
                head["no_symbol"] = f"no symbol named {name!r} is indexed; try find_symbol with fuzzy=true"
            elif not sites and client.is_property(defined[0]):
                # no call sites of a property read as "unused" otherwise (as the CLI says)
                head["property"] = (f"{name!r} is a property, read and not called; its reads: "
                                    f"search_code with query '\".{defined[0].name}\"'")
            return results.page(head, [results.call_site(s) for s in sites], sites, "find_callers")
        return await _answer(run)

    async def analyze_impact(name: str, depth: int = 3, repo: str = "") -> CallToolResult:
        """Before changing a function: its callers, their callers... across repos, depth
        levels deep (d: level, max 10)."""
        def run() -> dict[str, Any]:
            found = client.analyze_impact(name, repo=repo, depth=depth)
            shown = _mcp_impact.impact(found, depth or IMPACT_DEPTH, repo)  # 0: the daemon's default
            if not found.callers and not client.find_symbols(name, repo=repo, limit=1):
                # a typo reads as "nothing calls it: safe to change" otherwise (a newcomer)
                shown = {"no_symbol": f"no symbol named {name!r} is indexed; try find_symbol with fuzzy=true",
                         **shown}
            return shown
        return await _answer(run)

    async def get_card(name: str, repo: str = "") -> CallToolResult:
        """One symbol at a glance: signature, docstring, bases, constructor, raises, source
        excerpt, methods of a class, up to 5 call sites. Several matches: candidates to
        narrow with repo, Class.method or an overload as printed, Class.method(String,int)."""
        return await _answer(lambda: results.card(client, name, repo))

    async def read_symbol(repo: str, path: str, start_line: int, end_line: int) -> CallToolResult:
        """Source lines start_line..end_line (1-based, inclusive) of a file at the indexed commit."""
        return await _answer(lambda: results.source(client, repo, path, start_line, end_line))

    async def list_repos() -> CallToolResult:
        """Indexed repositories: state, indexed commit, counts."""
        return await _answer(lambda: {"repos": [results.repo_row(r) for r in client.list_repos()]})

    tools = [_tool(fn) for fn in (search_code, locate_code, find_symbol, find_callers, analyze_impact, get_card,
                                  read_symbol, list_repos)]
    return MCPServer("coderecall", version=_version(), tools=tools, log_level="WARNING",
                     instructions="Code index: search before writing code; cite repo:path:lines.")


def _version() -> str:
    try:
        return metadata.version("coderecall")
    except metadata.PackageNotFoundError:  # running from a source tree
        return ""


class StrictTool(Tool):
    """A tool that refuses arguments it does not take: pydantic would drop them silently,
    and an agent passing ``limit`` to a tool without one would believe it was obeyed."""

    async def run(self, arguments: dict[str, Any], context: Any, convert_result: bool = False) -> Any:
        accepted = list(self.parameters.get("properties", {}))
        unknown = sorted(set(arguments) - set(accepted))
        if unknown:
            raise ToolError(f"INVALID_ARGUMENT: {self.name} takes no argument "
                            f"{', '.join(map(repr, unknown))}; it accepts: {', '.join(accepted) or 'none'}")
        return await super().run(arguments, context, convert_result=convert_result)


async def _answer(call: Callable[[], dict[str, Any]]) -> CallToolResult:
    """``call``'s payload as a tool result, its ``CodeRecallError`` as an error result.
    ``call`` blocks: it runs on a worker thread, under a cancellation that a cancel of the
    tool call cancels (the thread is left to end: its daemon call ends within moments)."""
    cancellation = Cancellation()
    try:
        return await anyio.to_thread.run_sync(cancellation.run, _retried, call, cancellation,
                                              abandon_on_cancel=True)
    except anyio.get_cancelled_exc_class():
        cancellation.cancel()
        raise


def _retried(call: Callable[[], dict[str, Any]], cancellation: Cancellation) -> CallToolResult:
    """``call`` as a tool result, tried again after ``RETRY_WAITS_S`` while the daemon is
    busy, unless ``cancellation`` is cancelled: then its refusal is the (unread) answer."""
    waits = list(RETRY_WAITS_S)
    while True:
        try:
            payload = call()
        except CodeRecallError as exc:
            # read-only calls: trying again changes nothing but the wait; a cancel ends it
            if (waits and isinstance(exc, ResourceExhaustedError) and _busy(exc)
                    and not cancellation.wait(waits.pop(0) * random.uniform(0.5, 1.5))):
                continue
            return CallToolResult(content=[TextContent(type="text", text=error_message(exc))],
                                  is_error=True)
        return CallToolResult(content=[TextContent(type="text", text=results.dumps(payload))],
                              structured_content=payload)


def _tool(fn: Callable[..., Awaitable[CallToolResult]]) -> Tool:
    tool = StrictTool.from_function(fn, description=" ".join((fn.__doc__ or "").split()),
                                    annotations=_READ_ONLY)
    # pydantic's "title" on the schema and every property repeats the names: tokens for
    # nothing. additionalProperties: false says up front what StrictTool enforces.
    return tool.model_copy(update={"parameters": {**_untitled(tool.parameters),
                                                  "additionalProperties": False}})


def _untitled(schema: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in schema.items() if k != "title"}
    if "properties" in out:
        out["properties"] = {name: _untitled(prop) for name, prop in out["properties"].items()}
    return out


def _busy(exc: ResourceExhaustedError) -> bool:
    """Whether the daemon refused a call for how busy it is (its limit of expensive
    requests, a caller's rate), which a later try may pass; not a bound of the call itself
    (an answer over the message size, an overlay over its files: a review saw a 5 MB read
    tried four times)."""
    return "running its limit of" in exc.details or exc.details.startswith("rate limit:")


def error_message(exc: CodeRecallError) -> str:
    """What the agent reads when a call fails: the daemon's message, or that it is down."""
    if isinstance(exc, UnavailableError) and any(w in exc.details.lower() for w in _UNREACHABLE):
        return f"coderecalld is not reachable at {exc.addr} (is it running?)"
    if isinstance(exc, UnavailableError):
        return str(exc)
    # the daemon names the CLI's command for the configured repos; a missing file or symbol
    # is no repo's fault, and got the list_repos hint too (a newcomer)
    details = exc.details.replace("(coderecall repos lists them)", "(list_repos lists them)")
    repo = exc.code == "NOT_FOUND" and "repo " in details and "list_repos" not in details
    return f"{exc.code}: {details}" + (" (list_repos shows what is indexed)" if repo else "")


async def catalog(server: MCPServer) -> list[dict[str, Any]]:
    """The tools as an MCP client lists them (``tools/list``), in wire form."""
    return [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in await server.list_tools()]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the bridge until the client disconnects (stdio) or it is interrupted (http)."""
    args = _parser().parse_args(argv)
    addr = resolve_addr(args.addr, None, os.environ)
    token = args.token or os.environ.get(ENV_TOKEN, "")
    with Client(addr, timeout_s=args.timeout, token=token) as client:
        server = build_server(client)
        if args.catalog:
            tools = anyio.run(catalog, server)
            try:
                print(json.dumps(tools, indent=1))
                sys.stdout.flush()  # a closed pipe fails here, not at the interpreter's exit
            except BrokenPipeError:  # `coderecall-mcp --catalog | head`
                return broken_pipe()
            size = len(json.dumps(tools, separators=(",", ":")))  # as sent
            print(f"{size} characters, ~{size // 4} tokens", file=sys.stderr)
        elif args.transport == "http":
            server.run("streamable-http", host=args.host, port=args.port)
        else:
            server.run("stdio")
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=PROG, description="MCP bridge to a coderecalld code index.")
    parser.add_argument("--addr", metavar="HOST:PORT",
                        help=f"daemon address (default: ${ENV_ADDR}, then {DEFAULT_ADDR})")
    parser.add_argument("--token", metavar="TOKEN", default="", help=f"bearer token (default: ${ENV_TOKEN})")
    parser.add_argument("--timeout", metavar="SECONDS", type=float, default=30.0,
                        help="per-call deadline (default: 30)")
    parser.add_argument("--transport", choices=("stdio", "http"), default="stdio",
                        help="stdio (default) or streamable HTTP")
    parser.add_argument("--host", default="127.0.0.1", help="HTTP bind address (default: 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="HTTP port (default: 8000)")
    parser.add_argument("--catalog", action="store_true", help="print the tool catalog and its size, then exit")
    return parser


if __name__ == "__main__":
    sys.exit(main())
