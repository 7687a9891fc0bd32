"""``coderecall``: query a coderecalld from the shell.

::

    coderecall [--addr HOST:PORT] [--config FILE] [--timeout S] [--token T] COMMAND ...
      search QUERY [--limit K] [--repo R] [--language L] [--path-prefix P] [--path-glob G]
             [--kind K] [--mode hybrid|dense|sparse] [--session S] [--role R[,R]] [--json]
      locate QUERY [--repo R] [--limit K] [--functions N] [--role R[,R]] [--json]
      symbols NAME [--prefix] [--fuzzy] [--repo R] [--limit K] [--offset N] [--session S] [--json]
      callers NAME [--repo R] [--limit K] [--offset N] [--resolved] [--json]
      callees NAME [--repo R] [--limit K] [--offset N] [--json]
      card NAME [--repo R] [--budget TOKENS] [--json]
      read REPO PATH --lines START-END        (START- or START alone also work)
      repos [--json]
      sync NAME [--json]
      status [--watch [--follow]] [--repo R] [--json]
      impact NAME [--depth N] [--limit K] [--repo R] [--json]
      overlay PATH --repo R --session S [--path-in-repo P] [--ttl S] [--json]
      ask QUESTION [--repo R] [--limit K] [--json]

The daemon's address is ``--addr``, else ``$CODERECALL_ADDR``, else ``server.listen``
from the TOML file given by ``--config``, else ``127.0.0.1:50551``. ``--json`` prints a
JSON list of objects (one per result, every field of the result type; ``impact``,
``overlay`` and ``ask`` print one object). ``callers`` prints on stderr its whole answer's
count of sites per confidence (``65 call sites: 22 resolved, 43 name_only``), and in text
each site's file role after its confidence unless source (``name_only[test]``, one column; every
``--json`` site has its ``role``). ``search`` and ``locate`` print "low confidence:
REASON" on stderr when the daemon flags their answer as weak; ``symbols``, ``callers`` and
``callees`` print on stderr how many more results exist past ``--limit`` and the
``--offset`` that shows them, ``impact`` and ``card`` when a limit or the budget cut them.
A QUERY of ``-`` is read from stdin (a pasted issue, a trace). ``locate --json`` prints a
list, best file first, of ``{"repo", "path", "role", "score", "commit", "functions":
[{"qualified_name", "start_line", "end_line", "score"}]}``. The bearer token
is ``--token``, else ``$CODERECALL_TOKEN`` (prefer the variable: flags show in ``ps``).
Exit status: 0 on
success, 1 when nothing is found or the daemon answers with an error, 2 for usage errors,
3 when the daemon is busy (its limit of expensive requests), cannot be reached or ran out
of time: worth retrying after a short backoff, and never read as "nothing found".
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys
import time
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, replace
from typing import Any

from coderecall._client import DEFAULT_ADDR, Client
from coderecall._errors import (CodeRecallError, DeadlineExceededError, InvalidArgumentError, ResourceExhaustedError,
                               UnavailableError)
from coderecall._status import progress_row
from coderecall._types import CallSite, Card, Impact, IndexProgress, Page, RepoInfo, SymbolHit

PROG = "coderecall"
#: The daemon's largest line number (``ReadSymbol``); files never have that many lines.
MAX_LINE = 10_000_000
#: The daemon's largest page (``--limit``); larger ones are refused with this number.
MAX_LIMIT = 500
ENV_ADDR = "CODERECALL_ADDR"
ENV_TOKEN = "CODERECALL_TOKEN"


class UsageError(Exception):
    """A command line or config-file problem (exit status 2)."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI on ``argv`` (default ``sys.argv[1:]``); returns the exit status."""
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse already printed usage or help
        code = exc.code if isinstance(exc.code, int) else 2
        words = list(sys.argv[1:] if argv is None else argv)
        dashed = _unknown_dashed(parser, words) if code else ""
        if dashed:  # ``search --slurpfile``: a text that begins with a dash reads as an option
            command = next((w for w in words if w in _COMMANDS), "search")
            print(f"{PROG}: {dashed!r} is no option; to look it up, put '--' before it, after the "
                  f"options ({PROG} {command} [options] -- {dashed}) or pass it on stdin ('-')",
                  file=sys.stderr)
        return code
    try:
        addr = check_addr(resolve_addr(args.addr, args.config, os.environ))
        if args.timeout is None:  # a sync indexes; a query answers
            args.timeout = SYNC_TIMEOUT_S if args.command == "sync" else CALL_TIMEOUT_S
        if not (args.timeout > 0 and math.isfinite(args.timeout)):  # `inf` read as a deadline passed
            raise UsageError(f"--timeout: expected seconds > 0, got {args.timeout:g}")
        token = args.token or os.environ.get(ENV_TOKEN, "")
        with Client(addr, timeout_s=args.timeout, token=token) as client:
            status = args.run(client, args)
        sys.stdout.flush()  # a closed pipe fails here, inside the handler, not at exit
    except (UsageError, InvalidArgumentError) as exc:
        # the daemon refusing an argument as written (``--limit 900``: at most 500) is a
        # usage error too: retrying it changes nothing (a newcomer read exit 1 as "none")
        return _fail(str(exc), 2)
    except (ResourceExhaustedError, UnavailableError, DeadlineExceededError) as exc:
        return _fail(str(exc), RETRY_STATUS)
    except CodeRecallError as exc:
        return _fail(str(exc), 1)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # e.g. `coderecall search x | head`
        return broken_pipe()
    return status or 0


#: Exit status of a request worth retrying (busy, unreachable, out of time).
RETRY_STATUS = 3


#: Exit status after stdout's reader went away: 128 + SIGPIPE (13), what a shell reports for
#: a program a closed pipe stopped (``set -o pipefail``). Not 1, "nothing found": an agent
#: read ``coderecall callers X | head -1`` failing with 1 as no callers (a newcomer).
BROKEN_PIPE_STATUS = 141


def broken_pipe() -> int:
    """Exit status after stdout's reader went away (``... | head``): stdout is pointed at
    /dev/null so the interpreter's final flush cannot raise again, and nothing is printed
    (the reader asked for no more); ``BROKEN_PIPE_STATUS``. Shared by ``coderecall-mcp``
    and ``coderecalld``."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):  # stdout is not a real file (tests capture it)
        pass
    return BROKEN_PIPE_STATUS


def check_addr(addr: str) -> str:
    """``addr`` if it is ``HOST:PORT`` with a port in 1..65535 (``[v6]:PORT`` too); raises
    ``UsageError`` otherwise (gRPC would silently use port 443 for a bare host)."""
    host, sep, port = addr.rpartition(":")
    if not sep or not host or not port.isdigit() or not 1 <= int(port) <= 65535:
        raise UsageError(f"--addr: expected HOST:PORT with a port in 1..65535, got {addr!r}")
    return addr


def resolve_addr(flag: str | None, config: str | None, environ: Mapping[str, str]) -> str:
    """The daemon address: ``flag``, else ``environ[CODERECALL_ADDR]``, else
    ``server.listen`` from the TOML file ``config`` (a wildcard host becomes loopback),
    else ``DEFAULT_ADDR``. Raises ``UsageError`` if ``config`` cannot be read."""
    if flag:
        return flag
    if environ.get(ENV_ADDR):
        return environ[ENV_ADDR]
    if config:
        listen = _config_listen(config)
        if listen:
            return _loopback(listen)
    return DEFAULT_ADDR


def _config_listen(path: str) -> str:
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise UsageError(f"cannot read config {path}: {exc}") from exc
    listen = data.get("server", {}).get("listen", "")
    if not isinstance(listen, str):
        raise UsageError(f"{path}: server.listen must be a string, got {listen!r}")
    return listen


def _loopback(listen: str) -> str:
    # A daemon listening on every interface is reached through loopback.
    host, sep, port = listen.rpartition(":")
    if host in ("", "0.0.0.0"):
        return f"127.0.0.1:{port}"
    if host in ("[::]", "::"):
        return f"[::1]:{port}"
    return listen


def _fail(message: str, status: int) -> int:
    print(f"{PROG}: error: {message}", file=sys.stderr)
    return status


# --- commands ---------------------------------------------------------------------------

ROLE_HELP = ("only files of these roles, comma-separated: source, test, docs, example, "
             "generated, vendored, config (default: all, source first)")


def _query(text: str) -> str:
    """The query argument, or stdin's whole text for ``-`` (read as UTF-8, the encoding
    of every request), as valid UTF-8 text: a byte
    that is no UTF-8 (a pasted log's stray ``\\xff``, read from stdin or given as an
    argument, which Python holds as a lone surrogate) becomes U+FFFD, so the rest of the
    paste is still asked (the request's UTF-8 encoding refused the whole query)."""
    if text == "-":
        stream = getattr(sys.stdin, "buffer", None)  # a test's StringIO has none
        raw = stream.read() if stream is not None else _utf8(sys.stdin.read())
    else:
        raw = _utf8(text)
    return raw.decode("utf-8", "replace")


def _utf8(text: str) -> bytes:
    """``text``'s UTF-8 bytes, a surrogate-escaped undecodable byte (U+DC80..U+DCFF) as the
    byte it stands for, any other lone surrogate as ``?``."""
    return _OTHER_SURROGATE.sub("?", text).encode("utf-8", "surrogateescape")


#: Lone surrogates that stand for no undecodable byte (``surrogateescape`` uses U+DC80..U+DCFF).
_OTHER_SURROGATE = re.compile("[\ud800-\udc7f\udd00-\udfff]")


def _search(client: Client, args: argparse.Namespace) -> int:
    hits = client.search(
        _query(args.query),
        limit=args.limit,
        repo=args.repo,
        language=args.language,
        path_prefix=args.path_prefix,
        path_glob=args.path_glob,
        kind=args.kind,
        mode=args.mode,
        session=args.session,
        role=args.role,
    )
    if hits.low_confidence and hits:  # none at all: said once, below
        print(f"low confidence: {hits.confidence_reason}", file=sys.stderr)
    _emit(hits, args.json, _symbol_rows)
    if any(c in args.path_glob for c in "*?[") and len(hits) < (args.limit or 10):
        # The daemon checks a glob over its best candidates only (hybrid: 200, one
        # retriever: 500): a short page may not be all that matches.
        print(f"coderecall: {len(hits)} hit{'' if len(hits) == 1 else 's'} matched --path-glob among the daemon's best "
              "candidates (200; 500 with --mode dense or sparse); a longer --path-prefix or a "
              "narrower query reaches past them", file=sys.stderr)
    if not hits and hits.confidence_reason.startswith("no word of"):
        return _found(hits, f"no hits: {hits.confidence_reason}")
    return _found(hits, "no hits" + (" (a filter may leave none: --repo, --language, --path-prefix, "
                                     "--path-glob, --kind, --role)" if _filtered(args) else ""))


def _filtered(args: argparse.Namespace) -> bool:
    """Whether a search narrowed its candidates by any filter flag."""
    return any(getattr(args, name, None) for name in
               ("repo", "language", "path_prefix", "path_glob", "kind", "role"))


def _locate(client: Client, args: argparse.Namespace) -> int:
    files = client.locate(_query(args.query), limit=args.limit, repo=args.repo, role=args.role,
                          functions=args.functions)
    if files.low_confidence and files:  # none at all: said once, below
        print(f"low confidence: {files.confidence_reason}", file=sys.stderr)
    if args.json:
        print(json.dumps([f.as_dict() for f in files], indent=2, ensure_ascii=False))
    else:
        for f in files:
            print(f"{f.score:7.3f}  {f.repo}  {f.path}  ({f.role})")
            for fn in f.functions:
                print(f"           {fn.start_line}-{fn.end_line}  {fn.qualified_name}")
    return _found(files, "no files found")


def _symbols(client: Client, args: argparse.Namespace) -> int:
    hits = client.find_symbols(args.name, repo=args.repo, prefix=args.prefix, limit=args.limit,
                               fuzzy=args.fuzzy, session=args.session, offset=args.offset)
    _emit(hits, args.json, _symbol_rows)
    note_cut(hits, "symbols")
    # symbols are definitions of functions, methods, types and modules: a constant, a
    # variable or a field (gin's ``BodyBytesKey``, ``Engine.RemoveExtraSlash``), or a name
    # defined where no grammar reads (jq's gen_binop, in parser.y) is in the index as text
    fuzzy = "" if args.fuzzy else "try --fuzzy; "
    return _found(hits, f"no symbol named {args.name!r} ({fuzzy}symbols are functions, methods, types "
                        f"and modules; a constant, variable or field, or a name in text no grammar "
                        f"parses, is found by {PROG} search {args.name!r})")


#: Confidences ``--resolved`` keeps: a call on a subclass that inherits the method is as
#: certain as a resolved one, and so is a value naming it (``reference``: a callback passed
#: on); ``override`` (a base's method, may dispatch) and ``name_only`` are not.
_CERTAIN = ("resolved", "inherited", "reference")


def _callers(client: Client, args: argparse.Namespace) -> int:
    page = client.find_callers(args.name, repo=args.repo, limit=args.limit, offset=args.offset)
    sites: list[CallSite] = page
    if args.resolved:  # the server sorts resolved sites first, so the limit keeps them all
        sites = [s for s in page if s.confidence in _CERTAIN]
    _emit(sites, args.json, _caller_rows)
    if page and page.by_confidence:  # a page past the end: note_cut's one note
        print(f"coderecall: {_counted(page.by_confidence)}", file=sys.stderr)
    if not args.resolved or len(sites) == len(page):  # else every resolved site is shown
        note_cut(page, "call sites")
    if page.omitted_other_type:
        print(f"coderecall: {page.omitted_other_type} calls of the same name on another type, passing an "
              "argument count it does not take, or in repos that call nothing of its package, left out",
              file=sys.stderr)
    if page.hierarchy_cut:
        print(f"coderecall: {args.name!r} has more aliases and subclasses than one request follows; "
              "calls on the classes it did not reach are listed as name-only, calls of the methods it "
              "overrides may be missing", file=sys.stderr)
    empty = f"no {'resolved ' if args.resolved else ''}call sites of {args.name!r}"
    if page and all(s.confidence == "name_only" for s in page) and not client.find_symbols(
            args.name, repo=args.repo, limit=1):
        # calls of a name nothing indexed defines (structlog's `callers get`: 29 dict
        # `.get`s, read as callers of some `get`): say what they are
        print(f"coderecall: no symbol named {args.name!r} is indexed: these are calls of the name, "
              "on receivers of any type", file=sys.stderr)
    defined = client.find_symbols(args.name, repo=args.repo, limit=1) if not page else []
    if not page and not defined:
        # a typo or a name the index does not define reads as "nothing calls it" otherwise
        # (httpie's ``callers Session.nosuch``: a newcomer)
        empty += f": no symbol of that name is indexed (try {PROG} symbols {args.name!r} --fuzzy)"
    elif not page and client.is_property(defined[0]):
        # rich's `callers Console.width`: "no call sites" read as unused, its 15 reads unseen
        empty += (f": it is a property, read and not called (its reads: {PROG} search "
                  f"'\".{defined[0].name}\"')")
    return _found(sites, empty)


def _callees(client: Client, args: argparse.Namespace) -> int:
    sites = client.find_callees(args.name, repo=args.repo, limit=args.limit, offset=args.offset)
    _emit(sites, args.json, _callee_rows)
    note_cut(sites, "calls")
    # a name several definitions have: their calls come together, each row's caller and
    # path say whose (httpie's three ``program``s were read as one function; attrs' function
    # ``evolve`` and method ``Attribute.evolve``, one file, too: newcomers)
    places = sorted({f"{s.repo}:{s.path}" if s.repo != sites[0].repo else s.path
                     for s in sites}) if sites else []
    callers = sorted({(s.repo, s.path, s.caller) for s in sites})
    if len(callers) > 1:
        named = [f"{c or '<module>'} ({p})" for _, p, c in callers]
        shown = ", ".join(named[:3]) + (f" and {len(named) - 3} more" if len(named) > 3 else "")
        print(f"coderecall: calls of the {len(callers)} definitions named {args.name!r} "
              f"({len(places)} file{'s' if len(places) > 1 else ''}) are listed together ({shown}); "
              "ask for one by its qualified or module-qualified name", file=sys.stderr)
    return _found(sites, f"no calls made by {args.name!r}")


def note_cut(page: Page, noun: str) -> None:
    """Say on stderr when ``page`` is not the whole answer: which part it is, of how many,
    and the ``--offset`` that continues (stdout keeps only results)."""
    more = (f"; more than {page.total} match, past every page (the lookup read its limit): "
            "a longer name or prefix, or --repo, lists them" if page.total_is_lower_bound else "")
    if page.truncated:
        shown = f"{page.offset + 1}-{page.next_offset}" if page else "none"
        larger = f" (or a larger --limit, up to {MAX_LIMIT})" if len(page) < MAX_LIMIT else ""
        print(f"coderecall: {noun} {shown} of {page.total} shown; more with --offset "
              f"{page.next_offset}{larger}{more}", file=sys.stderr)
    elif page.total and page.offset >= page.total:
        print(f"coderecall: --offset {page.offset} is past the last of {page.total} {noun}{more}",
              file=sys.stderr)
    elif more:
        print(f"coderecall: {noun} {page.offset + 1}-{page.next_offset} of {page.total} shown{more}",
              file=sys.stderr)


def _found(rows: Sequence[object], empty: str) -> int:
    """Exit status of a lookup, as grep's: 0 when something was found, else 1 with ``empty``
    on stderr (stdout keeps only results, ``[]`` under --json)."""
    if rows:
        return 0
    if isinstance(rows, Page) and rows.total and rows.offset >= rows.total:
        return 1  # ``note_cut`` said the offset is past the last of them: there are some
    print(f"coderecall: {empty}", file=sys.stderr)
    return 1


def _card(client: Client, args: argparse.Namespace) -> None:
    card = client.get_card(args.name, repo=args.repo, budget_tokens=args.budget)
    if args.json:
        print(json.dumps(asdict(card), indent=2, ensure_ascii=False))
    else:
        print(render_card(card))
    if card.truncated:
        print(f"coderecall: the card was trimmed to --budget {args.budget or 800} tokens (max 8000)",
              file=sys.stderr)


def _read(client: Client, args: argparse.Namespace) -> None:
    start, end = args.lines
    text = client.read_symbol(args.repo, args.path, start, end).text
    sys.stdout.write(text if not text or text.endswith("\n") else text + "\n")


def _repos(client: Client, args: argparse.Namespace) -> None:
    _emit(client.list_repos(), args.json, _repo_rows)


#: The deadline of a call, in seconds, unless ``--timeout`` says otherwise.
CALL_TIMEOUT_S = 30.0
#: The deadline of ``sync``, in seconds: it returns when the repository is fetched and
#: re-indexed, which takes minutes for a first index of a large one (Django's 4,579 files:
#: about 4 minutes with the model off; a newcomer's ``sync`` of pydantic ended in "Deadline
#: Exceeded" at 30 s while the daemon went on indexing).
SYNC_TIMEOUT_S = 3600.0


def _sync(client: Client, args: argparse.Namespace) -> int:
    """Exit 1 when the sync ended in error or did not end (``pending`` with a reason: the
    daemon stopped during it, "interrupted by shutdown", which exited 0 and let a script's
    ``sync && ..`` go on), the row saying why, so scripts can tell. Past the deadline the
    daemon goes on syncing: the error says so and how to follow it."""
    try:
        repo = client.sync_repo(args.name)
    except DeadlineExceededError as exc:
        raise DeadlineExceededError(exc.code, (
            f"{exc.details}; the daemon goes on syncing {args.name!r}: follow it with "
            f"'{PROG} status --watch {args.name}', or wait longer with --timeout"), exc.addr) from None
    _emit([repo], args.json, _repo_rows)
    return 1 if repo.state == "error" or (repo.state == "pending" and repo.error) else 0


def _status(client: Client, args: argparse.Namespace) -> None:
    if not args.watch:
        _emit(list(client.watch_progress(args.repo, once=True)), args.json, _progress_rows)
        return
    from coderecall._status import watch

    repos = [args.repo] if args.repo else repos_when_up(client)
    watch(client.watch_progress(args.repo), repos, follow=args.follow, as_json=args.json,
          tty=sys.stdout.isatty())


#: How long ``status --watch`` waits for a daemon that is not answering yet: ``serve`` binds
#: its port within about a second of its start (docs/operations.md "Start and stop"), so a
#: watch started beside it waits instead of failing with "connection refused".
WATCH_CONNECT_S = 10.0


def repos_when_up(client: Client, wait_s: float = WATCH_CONNECT_S,
                  sleep: Callable[[float], None] = time.sleep,
                  clock: Callable[[], float] = time.monotonic) -> list[str]:
    """The names of the repos ``client`` sees, retrying while the daemon is unavailable for
    up to ``wait_s`` seconds (every 0.2 s); ``UnavailableError`` after that."""
    end = clock() + wait_s
    while True:
        try:
            return [r.name for r in client.list_repos()]
        except UnavailableError:
            if clock() >= end:
                raise
            sleep(0.2)


#: The server's node cap (``query/impact.MAX_NODES``) and default (``DEFAULT_NODES``).
_IMPACT_MAX_NODES = 2000
_IMPACT_DEFAULT_NODES = 200
#: What may cut an impact tree, in the daemon's order (``records.ImpactCut``).
_IMPACT_CUTS = ("depth", "limit", "hierarchy", "time")


def _impact(client: Client, args: argparse.Namespace) -> int:
    # --resolved asks for the whole capped tree, then keeps its certain nodes up to --limit:
    # cut first, the name-only leaves the server lists took the places of resolved callers
    # (werkzeug's `impact _str_header_value --limit 30 --resolved` showed 8 of 13)
    limit = _IMPACT_MAX_NODES if args.resolved else args.limit
    result = client.analyze_impact(args.name, repo=args.repo, depth=args.depth, limit=limit)
    if args.resolved:
        result = first_nodes(resolved_only(result, args.depth or 3, limit), args.limit or _IMPACT_DEFAULT_NODES)
    if args.json:
        print(json.dumps(asdict(result), indent=2, ensure_ascii=False))
    else:
        print(render_impact(result))
    if result.truncated:
        print(f"coderecall: the tree was cut at {result.nodes} callers: "
              f"{impact_cut(result, args.depth or 3, args.limit or _IMPACT_DEFAULT_NODES)}", file=sys.stderr)
    return _found(result.callers, f"no {'resolved ' if args.resolved else ''}callers of {args.name!r}")


def impact_cut(result: Impact, depth: int, limit: int) -> str:
    """What cut ``result`` (its ``cut``: every limit when the daemon names none) and what
    shows more, for the note under a tree asked with ``depth`` and ``limit``."""
    flags = {"depth": f"--depth {depth} (max 10)", "limit": f"--limit {limit} (max {_IMPACT_MAX_NODES})"}
    past = [flags[c] for c in (result.cut or tuple(flags)) if c in flags]
    notes = [f"more exist past {' or '.join(past)}"] if past else []
    if "hierarchy" in result.cut:
        notes.append("the daemon's lookups of aliases and subclasses ran out (calls on the classes "
                     "it did not reach may be missing or name-only)")
    if "time" in result.cut:
        notes.append("the daemon's time for one tree ran out before the deepest callers' own callers "
                     "were asked (impact one of them for its subtree)")
    return "; ".join(notes)


def resolved_only(result: Impact, depth: int = 3, asked: int = _IMPACT_MAX_NODES) -> Impact:
    """``result`` less its ``name_only`` and ``override`` nodes (and what hangs below them),
    totals recounted (``_CERTAIN``: resolved, inherited and reference ones stay). Still
    ``truncated`` only where the cut can reach what is kept: the server's node cap
    (``asked``) was hit, or a kept node is at the ``depth`` limit (its callers unasked);
    a tree whose certain part ends above it is whole (mux's and bytes' ``impact
    --resolved`` of 0 callers said "cut at 0 callers: raise --depth")."""
    def keep(nodes: tuple) -> tuple:
        return tuple(replace(n, children=keep(n.children)) for n in nodes if n.site.confidence in _CERTAIN)

    kept = _recounted(result, keep(result.callers))
    deepest = max((n.depth for n in _nodes(kept.callers)), default=0)
    truncated = result.truncated and (result.nodes >= asked or deepest >= depth)
    return replace(kept, truncated=truncated, cut=result.cut if truncated else ())


def first_nodes(result: Impact, limit: int) -> Impact:
    """``result`` cut to its first ``limit`` nodes breadth first (every direct caller before
    any caller's caller, as the server cuts), ``truncated`` set when a node was dropped."""
    if result.nodes <= limit:
        return result
    kept: set[int] = set()
    level = list(result.callers)
    while level and len(kept) < limit:
        level = level[: limit - len(kept)]
        kept |= {id(n) for n in level}
        level = [c for n in level for c in n.children]

    def keep(nodes: tuple) -> tuple:
        return tuple(replace(n, children=keep(n.children)) for n in nodes if id(n) in kept)

    cut = {*result.cut, "limit"}
    return replace(_recounted(result, keep(result.callers)), truncated=True,
                   cut=tuple(c for c in _IMPACT_CUTS if c in cut))


def _nodes(nodes: tuple):
    """Every node of an impact tree, depth first."""
    for n in nodes:
        yield n
        yield from _nodes(n.children)


def _recounted(result: Impact, callers: tuple) -> Impact:
    sites = [n.site for n in _nodes(callers)]
    return replace(result, callers=callers, nodes=len(sites), repos_touched=len({s.repo for s in sites}),
                   files_touched=len({(s.repo, s.path) for s in sites}))


def _overlay(client: Client, args: argparse.Namespace) -> None:
    try:
        with open(args.path, "rb") as fh:
            content = fh.read()
    except OSError as exc:
        raise UsageError(f"cannot read {args.path}: {exc.strerror}") from None
    path_in_repo = args.path_in_repo or work_tree_path(args.path)
    status = client.index_overlay(args.repo, path_in_repo, content, args.session, ttl_s=args.ttl)
    if args.json:
        print(json.dumps(asdict(status), indent=2, ensure_ascii=False))
    elif status.skipped:
        print(f"{status.repo}:{status.path}: not indexed ({status.skipped})")
    else:
        print(f"{status.repo}:{status.path}: {status.symbols} symbols, {status.chunks} chunks for "
              f"session {status.session} until {_when(status.expires_unix_s)}")


def work_tree_path(path: str) -> str:
    """``path`` relative to the root of the git work tree that holds it (the nearest
    directory above it with a ``.git``), with ``/`` separators: the repository path an
    overlay stands for, wherever the command runs from. ``UsageError`` when no work tree
    holds it (an overlay is a working copy of a repository's file)."""
    full = os.path.realpath(path)
    root = os.path.dirname(full)
    while not os.path.exists(os.path.join(root, ".git")):
        parent = os.path.dirname(root)
        if parent == root:
            raise UsageError(f"{path} is outside any git work tree; run it on a file of the "
                             "repository's working copy, or name its path with --path-in-repo")
        root = parent
    return os.path.relpath(full, root).replace(os.sep, "/")


def _ask(client: Client, args: argparse.Namespace) -> None:
    result = client.ask(args.question, repo=args.repo, limit=args.limit)
    if args.json:
        print(json.dumps(asdict(result), indent=2, ensure_ascii=False))
        return
    print(result.answer if result.status == "answered" else f"({result.status})")
    cited = {c.id for c in result.citations}
    for hit in result.evidence:
        mark = "*" if hit.id in cited else " "
        print(f"{mark} [{hit.id}] {hit.repo}:{hit.path}:{hit.start_line}-{hit.end_line} {hit.qualified_name}")


# --- output -----------------------------------------------------------------------------


def _emit(items: list[Any], as_json: bool, rows: Callable[[list[Any]], list[tuple[str, ...]]]) -> None:
    if as_json:
        print(json.dumps([asdict(item) for item in items], indent=2, ensure_ascii=False))
        return
    table = rows(items)
    if not table:
        return
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]) - 1)]
    for row in table:
        cells = [cell.ljust(width) for cell, width in zip(row, widths)] + [row[-1]]
        print("  ".join(cells).rstrip())


def _one_line(text: str) -> str:
    return " ".join(text.split())


#: Match kinds a symbols row names beside its kind: the name was not matched as written
#: (in Go, ``execute`` is another method than ``Execute``; a newcomer read the JSON only).
_NOTED_MATCHES = frozenset({"case_insensitive", "inherited", "prefix", "substring", "fuzzy", "as_called"})


def _symbol_rows(hits: list[SymbolHit]) -> list[tuple[str, ...]]:
    return [
        (f"{h.path}:{h.start_line}-{h.end_line}", h.qualified_name,
         f"({h.kind}; {h.match})" if h.match in _NOTED_MATCHES else f"({h.kind})", _one_line(h.signature))
        for h in hits
    ]


def _counted(by_confidence: Mapping[str, int]) -> str:
    """A ``find_callers`` answer's sites per confidence, as a note: ``"65 call sites: 22
    resolved, 43 name_only"`` (the daemon's order, most certain first)."""
    total = sum(by_confidence.values())
    return (f"{total} call site{'s' if total != 1 else ''}: "
            + ", ".join(f"{n} {c}" for c, n in by_confidence.items()))


def _caller_rows(sites: list[CallSite]) -> list[tuple[str, ...]]:
    # a calling file's role beside the confidence when it is not source: a test's or a
    # vendored copy's call reads otherwise as the library's own use
    return [(s.repo, f"{s.path}:{s.line}", s.caller or "<module>",
             (s.confidence or "-") + (f"[{s.role}]" if s.role not in ("", "source") else ""),
             s.text or f"-> {s.callee}")
            for s in sites]


def _callee_rows(sites: list[CallSite]) -> list[tuple[str, ...]]:
    return [(f"{s.path}:{s.line}", s.callee, f"-> {s.target}" if s.target else "(unresolved)") for s in sites]


def render_card(card: Card) -> str:
    """A card as terminal text: a title line, the signature and summary, then labelled
    sections (only those with content)."""
    where = f"{card.repo}: {card.path}:{card.start_line}-{card.end_line}"
    lines = [f"{card.kind} {card.qualified_name}   ({where})"]
    if card.module:
        lines.append(f"  import: {card.module}")
    lines += [f"  {_one_line(card.signature)}"] if card.signature else []
    lines += [f"  {card.summary}"] if card.summary else []
    sections = [("bases", list(card.bases)), ("init", list(card.init_params)), ("methods", list(card.methods)),
                ("raises", [", ".join(card.raises)] if card.raises else []),
                ("siblings", [", ".join(card.siblings) + (f" (and {card.siblings_total - len(card.siblings)} more)"
                                                          if card.siblings_total > len(card.siblings) else "")]
                 if card.siblings else []),
                ("file", [card.file_purpose] if card.file_purpose else []),
                ("repo", [card.repo_purpose] if card.repo_purpose else [])]
    for label, values in sections:
        for i, value in enumerate(values):
            lines.append(f"  {(label + ':') if i == 0 else '':<10}{_one_line(value)}")
    if card.callers:
        more = card.callers_total - len(card.callers)
        lines.append(f"  called from ({len(card.callers)} of {card.callers_total}; `coderecall callers "
                     f"{card.qualified_name} --repo {card.repo}` lists them):" if more > 0 else "  called from:")
        for c in card.callers:
            lines.append(f"    {c.repo}  {c.path}:{c.line}  {c.caller or '<module>'}  [{c.confidence}]")
            lines.append(f"        {c.text}")
    if card.definitions_total > 1:
        shown = len(card.others)
        lines.append(f"  also named so ({card.definitions_total - 1} other definition"
                     f"{'s' if card.definitions_total > 2 else ''}; `coderecall symbols "
                     f"{card.qualified_name.rsplit('.', 1)[-1]}` lists them{'' if shown + 1 >= card.definitions_total else f', {shown} shown'}):")
        lines += [f"    {other}" for other in card.others]
    if card.truncated:
        lines.append("  (trimmed to the token budget; raise --budget for more)")
    return "\n".join(lines)


def render_impact(result: Impact) -> str:
    """An impact tree as terminal text: one indented line per caller
    (``repo path:line caller [confidence]``), then the totals."""
    lines = [f"callers of {result.name}:"]
    stack = [(node, 1) for node in reversed(result.callers)]
    while stack:
        node, indent = stack.pop()
        s = node.site
        lines.append(f"{'  ' * indent}{s.repo}  {s.path}:{s.line}  {s.caller or '<module>'}  [{s.confidence}]")
        stack.extend((child, indent + 1) for child in reversed(node.children))
    lines.append(f"{result.nodes} callers in {result.files_touched} files of {result.repos_touched} repos"
                 + (f"; truncated ({', '.join(result.cut or ('depth', 'limit'))})" if result.truncated else ""))
    return "\n".join(lines)


def _repo_rows(repos: list[RepoInfo]) -> list[tuple[str, ...]]:
    return [
        (
            r.name,
            r.state,
            r.indexed_commit[:12] or "-",
            f"{r.files} files indexed" + (f" ({r.files_failed} failed)" if r.files_failed else ""),
            f"{r.symbols} symbols",
            f"{r.chunks} chunks",
            f"{r.pending_vectors} pending vectors",
            f"lag {r.lag_s:.0f}s",
            _when(r.last_sync_unix_s),
            _one_line(r.error),
        )
        for r in repos
    ]


def _progress_rows(items: list[IndexProgress]) -> list[tuple[str, ...]]:
    return [progress_row(p) for p in items]


def _when(unix_s: float) -> str:
    if unix_s <= 0:
        return "never"
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(unix_s))


# --- argument parsing -------------------------------------------------------------------


def _line_range(text: str) -> tuple[int, int]:
    """``START-END``, ``START-`` (to the end of the file) or ``START`` (one line); the
    daemon's rule: 1 <= START <= END <= ``MAX_LINE`` (an END past the file reads to its end)."""
    start, sep, end = text.partition("-")
    if not start.isdigit() or (end and not end.isdigit()):
        raise argparse.ArgumentTypeError(f"expected START-END (1-based line numbers), got {text!r}")
    first, last = int(start), (int(end) if end else 0) if sep else int(start)
    for value in (first, last):
        if value > MAX_LINE:
            raise argparse.ArgumentTypeError(f"line {value} > {MAX_LINE} (the maximum line number)")
    if first < 1 or (last and last < first):
        raise argparse.ArgumentTypeError(f"expected 1 <= START <= END, got {text!r}")
    return first, last


def _non_negative(text: str) -> int:
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {text!r}")
    return int(text)


#: The commands that look a text up (the hint names the one given, else ``search``).
_COMMANDS = ("search", "locate", "symbols", "callers", "callees", "card", "impact", "ask")


def _unknown_dashed(parser: argparse.ArgumentParser, argv: list[str]) -> str:
    """The first word of ``argv`` that begins with a dash and is no option of the CLI or
    any of its commands (``--slurpfile``), else ``""``; nothing after a ``--``."""
    known = set(parser._option_string_actions)
    for action in parser._subparsers._group_actions if parser._subparsers else ():
        for sub in getattr(action, "choices", {}).values():
            known |= set(sub._option_string_actions)
    for word in argv:
        if word == "--":
            return ""
        if word.startswith("-") and word != "-" and word.split("=", 1)[0] not in known:
            return word
    return ""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=PROG, description="Query a coderecalld code index.")
    parser.add_argument("--addr", metavar="HOST:PORT", help=f"daemon address (default: ${ENV_ADDR}, "
                        f"then server.listen from --config, then {DEFAULT_ADDR})")
    parser.add_argument("--config", metavar="FILE", help="coderecalld TOML config to read server.listen from")
    parser.add_argument("--timeout", metavar="SECONDS", type=float, default=None,
                        help=f"per-call deadline (default: {CALL_TIMEOUT_S:g}; `sync`: {SYNC_TIMEOUT_S:g})")
    parser.add_argument("--token", metavar="TOKEN", default="",
                        help=f"bearer token (default: ${ENV_TOKEN})")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    search = commands.add_parser("search", help="hybrid search for symbols")
    search.add_argument("query", help="question, identifiers, issue text or trace; '-' reads stdin")
    search.add_argument("--limit", type=_non_negative, default=10, help="max hits (default: 10, max 500)")
    search.add_argument("--repo", default="")
    search.add_argument("--language", default="")
    search.add_argument("--path-prefix", default="")
    search.add_argument("--path-glob", default="", help="fnmatch glob over paths ('*' spans '/')")
    search.add_argument("--kind", default="", help="only this symbol kind, e.g. function")
    search.add_argument("--mode", choices=("hybrid", "dense", "sparse"), default="hybrid",
                        help="both retrievers fused (default) or one alone")
    search.add_argument("--session", default="", help="also search this session's overlay files")
    search.add_argument("--role", default="", help=ROLE_HELP)
    search.set_defaults(run=_search)

    locate = commands.add_parser("locate", help="the files (and functions) a question or issue is about")
    locate.add_argument("query", help="question, identifiers, issue text or trace; '-' reads stdin")
    locate.add_argument("--repo", default="")
    locate.add_argument("--limit", type=_non_negative, default=10, help="max files (default: 10)")
    locate.add_argument("--functions", type=_non_negative, default=0,
                        help="functions listed per file, the first file 3 more unless the second "
                             "nearly ties it (default: the daemon's, 5)")
    locate.add_argument("--role", default="", help=ROLE_HELP)
    locate.set_defaults(run=_locate)

    symbols = commands.add_parser("symbols", help="find symbols by name")
    symbols.add_argument("name")
    symbols.add_argument("--prefix", action="store_true", help="match names starting with NAME")
    symbols.add_argument("--fuzzy", action="store_true", help="also substrings and small typos")
    symbols.add_argument("--session", default="", help="also this session's overlay files")
    symbols.add_argument("--repo", default="")
    symbols.add_argument("--limit", type=_non_negative, default=50, help="max hits (default: 50, max 500)")
    symbols.add_argument("--offset", type=_non_negative, default=0, help="skip this many hits (paging)")
    symbols.set_defaults(run=_symbols)

    callers = commands.add_parser("callers", help="find call sites of a function or method")
    callers.add_argument("name")
    callers.add_argument("--repo", default="")
    callers.add_argument("--limit", type=_non_negative, default=100,
                         help="max call sites (default: 100, max 500)")
    callers.add_argument("--offset", type=_non_negative, default=0, help="skip this many call sites (paging)")
    callers.add_argument("--resolved", action="store_true",
                         help="only calls tied to the definition (drop name-only matches)")
    callers.set_defaults(run=_callers)

    callees = commands.add_parser("callees", help="list the calls a function or method makes")
    callees.add_argument("name")
    callees.add_argument("--repo", default="")
    callees.add_argument("--limit", type=_non_negative, default=100,
                         help="max call sites (default: 100, max 500)")
    callees.add_argument("--offset", type=_non_negative, default=0, help="skip this many calls (paging)")
    callees.set_defaults(run=_callees)

    card = commands.add_parser("card", help="a symbol's developer card: signature, usage, callers")
    card.add_argument("name")
    card.add_argument("--repo", default="")
    card.add_argument("--budget", type=_non_negative, default=800, metavar="TOKENS",
                      help="approximate size cap in tokens (default: 800, max 8000)")
    card.set_defaults(run=_card)

    read = commands.add_parser("read", help="print source lines at the indexed commit")
    read.add_argument("repo")
    read.add_argument("path")
    read.add_argument("--lines", type=_line_range, required=True, metavar="START-END",
                      help="1-based, inclusive; END past the file's end, or 0, reads to the end; "
                      f"line numbers up to {MAX_LINE:,}")
    read.set_defaults(run=_read)

    repos = commands.add_parser("repos", help="list repositories and their index state")
    repos.set_defaults(run=_repos)

    sync = commands.add_parser("sync", help="fetch and re-index one repository now")
    sync.add_argument("name")
    # also after the command, as the README writes it (`sync NAME --timeout S` was refused)
    sync.add_argument("--timeout", metavar="SECONDS", type=float, default=argparse.SUPPRESS,
                      help=f"deadline of the sync (default: {SYNC_TIMEOUT_S:g})")
    sync.set_defaults(run=_sync)

    status = commands.add_parser("status", help="index progress per repository")
    status.add_argument("--repo", default="")
    status.add_argument("--watch", action="store_true",
                        help="follow progress until every repository is ready or idle")
    status.add_argument("--follow", action="store_true", help="with --watch: never exit on idle")
    status.set_defaults(run=_status)

    impact = commands.add_parser("impact", help="transitive callers of a symbol, as a tree")
    impact.add_argument("name")
    impact.add_argument("--repo", default="", help="only callers in this repository")
    impact.add_argument("--depth", type=_non_negative, default=0, help="levels (default: 3, max 10)")
    impact.add_argument("--limit", type=_non_negative, default=0, help="max nodes (default: 200, max 2000)")
    impact.add_argument("--resolved", action="store_true",
                        help="only resolved, inherited and reference callers (of the whole tree, up to 2000 nodes; then --limit)")
    impact.set_defaults(run=_impact)

    overlay = commands.add_parser("overlay", help="index an uncommitted local file for one session")
    overlay.add_argument("path", metavar="PATH", help="the local file to send")
    overlay.add_argument("--repo", required=True)
    overlay.add_argument("--session", required=True)
    overlay.add_argument("--path-in-repo", default="",
                         help="its repository-relative path (default: PATH relative to the root "
                         "of the git work tree that holds it)")
    overlay.add_argument("--ttl", type=_non_negative, default=0, metavar="SECONDS",
                         help="expiry (default: 3600, max 86400)")
    overlay.set_defaults(run=_overlay)

    ask = commands.add_parser("ask", help="evidence for a question, and a cited answer if a model is set")
    ask.add_argument("question")
    ask.add_argument("--repo", default="")
    ask.add_argument("--limit", type=_non_negative, default=0, help="evidence chunks (default: 8, max 50)")
    ask.set_defaults(run=_ask)

    for sub in (search, locate, symbols, callers, callees, repos, sync, status):
        sub.add_argument("--json", action="store_true", help="print a JSON list of objects")
    for sub in (card, impact, overlay, ask):
        sub.add_argument("--json", action="store_true", help="print a JSON object")
    return parser


if __name__ == "__main__":
    sys.exit(main())
