"""Compact, budgeted answers for the MCP bridge (``coderecall.mcp_server``).

Every tool answer is a small JSON object whose serialized form is at most
``BUDGET_CHARS`` characters. A list that does not fit is cut, and the object says
what was left out and how to ask for more in ``more``. Citations are
``repo:path:start-end`` for symbols and source, ``repo:path:line`` for call sites
(lines 1-based, inclusive).
"""

from __future__ import annotations

import json
from typing import Any

from coderecall._client import Client
from coderecall._errors import NotFoundError
from coderecall._types import CallSite, Impact, LocatedFile, RepoInfo, SymbolHit

# Hard cap on one tool answer, in characters of compact JSON (about 1,500 tokens at
# ~4 characters per token): enough for ~20 search hits or a 40-line excerpt, small
# enough that a few calls do not crowd an agent's context.
BUDGET_CHARS = 6000
# A signature or docstring longer than this is cut (with "…"): a hit is a pointer, the
# card and read_symbol give the full text.
FIELD_CHARS = 200
# get_card shows this many source lines, this many call sites, this many candidates.
CARD_SOURCE_LINES = 40
CARD_CALLERS = 5
CARD_DOC_CHARS = 1000
CLASS_KINDS = frozenset({"class", "interface", "struct", "enum", "trait"})


def dumps(payload: dict[str, Any]) -> str:
    """Compact JSON, as sent to the agent (and measured against the budget)."""
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":"))


def cite(repo: str, path: str, start: int, end: int | None = None) -> str:
    """``repo:path:start-end``, or ``repo:path:line`` when ``end`` is None."""
    return f"{repo}:{path}:{start}" if end is None else f"{repo}:{path}:{start}-{end}"


def _cut(text: str, limit: int = FIELD_CHARS) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def symbol(hit: SymbolHit) -> dict[str, Any]:
    """One symbol: citation, qualified name, kind, role unless source, signature and
    docstring (cut)."""
    row: dict[str, Any] = {"cite": cite(hit.repo, hit.path, hit.start_line, hit.end_line),
                           "name": hit.qualified_name, "kind": hit.kind}
    if hit.role and hit.role != "source":  # absent: source (most hits; tokens for nothing)
        row["role"] = hit.role
    if hit.signature:
        row["sig"] = _cut(hit.signature)
    if hit.docstring:
        row["doc"] = _cut(hit.docstring)
    return row


def located(file: LocatedFile) -> dict[str, Any]:
    """One located file: ``repo:path``, role, score (3 decimals) and its functions as
    ``name:start-end``."""
    return {"file": f"{file.repo}:{file.path}", "role": file.role, "score": round(file.score, 3),
            "functions": [f"{f.qualified_name}:{f.start_line}-{f.end_line}" for f in file.functions]}


def call_site(site: CallSite) -> dict[str, Any]:
    """One call: ``repo:path:line``, the calling symbol (``<module>`` at top level), the callee."""
    return {"cite": cite(site.repo, site.path, site.line), "caller": site.caller or "<module>",
            "callee": site.callee}


def repo_row(repo: RepoInfo) -> dict[str, Any]:
    """One repository: name, state, indexed commit (12 hex digits), counts, last error."""
    row: dict[str, Any] = {"name": repo.name, "state": repo.state, "commit": repo.indexed_commit[:12],
                           "files": repo.files, "symbols": repo.symbols}
    if repo.error:
        row["error"] = _cut(repo.error)
    return row


def fit(head: dict[str, Any], key: str, rows: list[dict[str, Any]], hint: str,
        unknown_rest: bool = False) -> dict[str, Any]:
    """``head`` plus as many of ``rows`` under ``key`` as fit in ``BUDGET_CHARS``.

    When rows are left out, ``more`` says how many (``N+`` when ``unknown_rest``: the
    daemon's limit was reached, so more may exist) and ``hint`` says how to narrow.
    """
    reserve = len(dumps(head)) + len(key) + len(hint) + 60  # the keys and the "more" note
    kept = prefix_fitting(rows, BUDGET_CHARS - reserve)
    payload = dict(head, **{key: kept})
    left = len(rows) - len(kept)
    if left or unknown_rest:
        payload["more"] = f"{left}{'+' if unknown_rest else ''} more results left out; {hint}"
    return payload


def prefix_fitting(rows: list[dict[str, Any]], budget: int) -> list[dict[str, Any]]:
    """The longest prefix of ``rows`` whose compact JSON list is at most ``budget`` characters."""
    size = 2  # []
    for i, row in enumerate(rows):
        size += len(dumps(row)) + 1
        if size > budget:
            return rows[:i]
    return rows


def source(client: Client, repo: str, path: str, start_line: int, end_line: int,
           budget: int = BUDGET_CHARS) -> dict[str, Any]:
    """Lines ``start_line..end_line`` of ``path``, cut at a line boundary to fit ``budget``."""
    text = client.read_symbol(repo, path, start_line, end_line)
    lines = text.text.splitlines(keepends=True)
    payload: dict[str, Any] = {"cite": cite(repo, path, text.start_line, text.end_line),
                               "commit": text.commit[:12], "text": text.text}
    kept = len(lines)
    while len(dumps(payload)) > budget and kept > 1:
        kept = kept * 9 // 10
        last = text.start_line + kept - 1
        payload["cite"] = cite(repo, path, text.start_line, last)
        payload["text"] = "".join(lines[:kept])
        payload["more"] = (f"lines {last + 1}-{text.end_line} left out; call read_symbol "
                           f"again with start_line={last + 1}")
    over = len(dumps(payload)) - budget
    if over > 0:  # one huge line (minified code): cut inside it
        payload["text"] = payload["text"][: max(0, len(payload["text"]) - over - 1)] + "…"
    return payload


def _profile(client: Client, hit: SymbolHit) -> dict[str, Any]:
    """What only the daemon's GetCard knows: bases, constructor parameters, raised
    exceptions, siblings, and the file's and repo's one-line purpose (empty fields left out)."""
    server = client.get_card(hit.qualified_name, repo=hit.repo, budget_tokens=300)
    rows = {"bases": list(server.bases), "init": list(server.init_params),
            "raises": list(server.raises), "siblings": list(server.siblings)[:10],
            "file": _cut(server.file_purpose), "repo_purpose": _cut(server.repo_purpose)}
    return {k: v for k, v in rows.items() if v}


def card(client: Client, name: str, repo: str = "") -> dict[str, Any]:
    """The card of symbol ``name``: the symbol (FindSymbols), its ``profile`` from the
    daemon's GetCard (bases, constructor, raises, siblings, purposes), its call sites
    (FindCallers) and a source excerpt (ReadSymbol), all within ``BUDGET_CHARS``.

    Several matches without one exact qualified-name match give ``candidates`` instead.
    Raises ``NotFoundError`` when nothing matches, and whatever the client raises.
    """
    hits = client.find_symbols(name, repo=repo, limit=20)
    if not hits:
        raise NotFoundError("NOT_FOUND", f"no symbol named {name!r}; try search_code", client.addr)
    exact = [h for h in hits if h.qualified_name == name]
    if len(hits) > 1 and len(exact) != 1:
        return fit({}, "candidates", [symbol(h) for h in hits], "narrow with repo= or a qualified "
                   "name (Class.method), or read one with read_symbol", unknown_rest=len(hits) == 20)
    hit = exact[0] if exact else hits[0]
    head = symbol(hit)
    if hit.docstring:  # the card shows the first paragraph, up to a budget share
        head["doc"] = _cut(hit.docstring, CARD_DOC_CHARS)
    extra: dict[str, Any] = {}
    if hit.kind in CLASS_KINDS:
        methods = client.find_symbols(f"{hit.qualified_name}.", repo=hit.repo, prefix=True, limit=50)
        rows = [{"cite": cite(m.repo, m.path, m.start_line, m.end_line), "name": m.qualified_name,
                 "sig": _cut(m.signature, 120)} for m in methods]
        extra["methods"] = prefix_fitting(rows, BUDGET_CHARS // 3)
        if len(rows) > len(extra["methods"]):
            extra["methods_more"] = (f"{len(rows) - len(extra['methods'])} more methods: "
                                     f"find_symbol(name={hit.qualified_name + '.'!r}, prefix=true)")
    sites = client.find_callers(hit.name, limit=CARD_CALLERS + 1)
    extra["callers"] = [call_site(s) for s in sites[:CARD_CALLERS]]
    if len(sites) > CARD_CALLERS:
        extra["callers_more"] = f"more call sites: find_callers(name={hit.name!r})"
    payload: dict[str, Any] = {"symbol": head}
    profile = _profile(client, hit)
    if profile:
        payload["profile"] = profile
    end = min(hit.end_line, hit.start_line + CARD_SOURCE_LINES - 1)
    rest = BUDGET_CHARS - len(dumps({**payload, **extra})) - 120  # 120: the key and a "more" note
    if rest > 200:
        excerpt = source(client, hit.repo, hit.path, hit.start_line, end, budget=rest)
        last = int(excerpt["cite"].rsplit("-", 1)[1])
        if last < hit.end_line:
            excerpt["more"] = (f"lines {last + 1}-{hit.end_line} left out; call read_symbol "
                               f"with start_line={last + 1}")
        payload["source"] = excerpt
    return {**payload, **extra}


def impact(result: Impact) -> dict[str, Any]:
    """An impact tree flattened depth first: one row per caller with its depth ``d`` (1 =
    calls the symbol), ``repo:path:line`` and ``confidence``; totals in the head."""
    head: dict[str, Any] = {"nodes": result.nodes, "repos": result.repos_touched,
                            "files": result.files_touched}
    if result.truncated:
        head["truncated"] = True
    rows = []
    stack = list(reversed(result.callers))
    while stack:
        node = stack.pop()
        s = node.site
        rows.append({"d": node.depth, "cite": cite(s.repo, s.path, s.line),
                     "caller": s.caller or "<module>", "confidence": s.confidence})
        stack.extend(reversed(node.children))
    return fit(head, "callers", rows, "call again with a smaller depth or with repo=")
