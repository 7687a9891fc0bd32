"""Compact, budgeted answers for the MCP bridge (``coderecall.mcp_server``).

Every tool answer is a small JSON object whose serialized form is at most
``BUDGET_CHARS`` characters. A list that does not fit is cut, and the object says
what was left out and how to ask for more in ``more``. Citations are
``repo:path:start-end`` for symbols and source, ``repo:path:line`` for call sites
(lines 1-based, inclusive).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from coderecall._client import Client
from coderecall._errors import NotFoundError
from coderecall._types import CallSite, LocatedFile, Page, RepoInfo, SymbolHit

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
CARD_SIBLINGS = 10
CARD_DOC_CHARS = 1000
CLASS_KINDS = frozenset({"class", "interface", "struct", "enum", "trait"})
NAME_ONLY = "name_only"  # the least certain confidence of a call site, ranked last
# Rows a paging tool (find_symbol, find_callers) asks the daemon for per call: more than
# one answer's budget holds, so the budget, not this, usually ends a page.
PAGE_ROWS = 100


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
    """One call: ``repo:path:line``, the calling symbol (``<module>`` at top level), the
    callee and how sure the index is that it calls the definition asked for
    (``resolved``, ``inherited``, ``override``, ``reference``: named as a value there, or
    ``name_only``)."""
    return {"cite": cite(site.repo, site.path, site.line), "caller": site.caller or "<module>",
            "callee": site.callee, "confidence": site.confidence}


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


def narrow(last: str = "", **filters: str) -> str:
    """How to narrow a call: ``call again with`` each of ``filters`` not set yet (``repo=``
    is never suggested to a call that already names a repo), then ``last``."""
    ways = [f"{name}=" for name, value in filters.items() if not value] + ([last] if last else [])
    if not ways:
        return "narrow the question"
    return "call again with " + (ways[0] if len(ways) == 1 else ", ".join(ways[:-1]) + " or " + ways[-1])


def narrowing(hits: list[SymbolHit], repo: str, path_prefix: str, language: str) -> str:
    """``narrow`` for a search: only the filters that are not set and would really narrow
    these ``hits`` (``repo=`` when they span repos, ``language=`` several languages,
    ``path_prefix=`` several directories), then a narrower query."""
    def spans(values: set[str], given: str) -> str:
        return given or ("" if len(values) > 1 else "one")  # non-empty: not suggested

    return narrow(repo=spans({h.repo for h in hits}, repo),
                  path_prefix=spans({h.path.rpartition("/")[0] for h in hits}, path_prefix),
                  language=spans({h.language for h in hits}, language), last="a narrower query")


def page(head: dict[str, Any], rows: list[dict[str, Any]], items: Page, tool: str) -> dict[str, Any]:
    """``head`` plus as many ``rows`` (one per item of the daemon's page ``items``) as fit in
    ``BUDGET_CHARS``; when the answer holds more (cut by the budget or by the daemon's
    page), ``more`` says how many of the ``total`` and the ``offset`` that continues (and,
    for call sites, when all of them matched by name only)."""
    reserve = len(dumps(head)) + len(tool) + 110  # "results", "more" and its words
    kept = prefix_fitting(rows, BUDGET_CHARS - reserve)
    payload = dict(head, results=kept)
    next_offset = items.offset + len(kept)
    left = items.total - next_offset
    beyond = ("; more match past every page (the lookup read its limit): a longer name or a repo lists them"
              if items.total_is_lower_bound else "")
    if left > 0:
        # the daemon ranks name-only sites last: past the others, the rest is all name-only
        rest = " (all name_only)" if items.by_confidence and next_offset >= _not_name_only(items) else ""
        payload["more"] = (f"{left} more of {items.total} left out{rest}; call {tool} again with "
                           f"offset={next_offset}{beyond}")
    elif items.total and not items and items.offset >= items.total:
        # an empty page past the end is no "none": say how many there are (it was read as
        # nothing found; a newcomer)
        payload["more"] = (f"offset={items.offset} is past the last of {items.total}; call {tool} "
                           f"again with a smaller offset{beyond}")
    elif beyond:
        payload["more"] = beyond[2:]
    return payload


def _not_name_only(items: Page) -> int:
    return sum(n for confidence, n in items.by_confidence.items() if confidence != NAME_ONLY)


def earlier(sites: Page) -> str:
    """For a ``find_callers`` page past the first whose sites all matched by name only: that
    the others, ranked first by the daemon, were on earlier pages, and how many of each
    (``""`` for any other page, or when the daemon did not count them)."""
    others = {c: n for c, n in sites.by_confidence.items() if c != NAME_ONLY}
    if not sites or not sites.offset or sites[0].confidence != NAME_ONLY or not others:
        return ""
    counts = ", ".join(f"{n} {c}" for c, n in others.items())
    return (f"every site from offset {sites.offset} on matched by name only; the {sum(others.values())} "
            f"others ({counts}) were on earlier pages: offset=0")


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
    if len(dumps(payload)) > budget:  # one huge line (minified code): cut inside it, and say so
        last = text.start_line + kept - 1  # (a newcomer read a cut 16,866-character line as whole)
        cut = (f"line {last} ({len(lines[kept - 1].rstrip(chr(10)))} characters) is cut to fit: "
               f"longer than one answer holds") if lines else "the text is cut to fit"
        payload["more"] = f"{payload['more']}; {cut}" if "more" in payload else cut
        over = len(dumps(payload)) - budget
        payload["text"] = payload["text"][: max(0, len(payload["text"]) - over - 1)] + "…"
    return payload


def _profile(client: Client, hit: SymbolHit) -> dict[str, Any]:
    """What only the daemon's GetCard knows: bases, constructor parameters, raised
    exceptions, siblings, and the file's and repo's one-line purpose (empty fields left out)."""
    server = client.get_card(hit.qualified_name, repo=hit.repo, budget_tokens=300)
    rows: dict[str, Any] = {
        "bases": list(server.bases), "init": list(server.init_params), "raises": list(server.raises),
        "siblings": list(server.siblings)[:CARD_SIBLINGS], "file": _cut(server.file_purpose),
        "repo_purpose": _cut(server.repo_purpose)}
    if server.truncated or len(server.siblings) > CARD_SIBLINGS:  # say so, and where the rest is
        rows["more"] = (f"profile trimmed to fit; the whole file: read_symbol(repo={hit.repo!r}, "
                        f"path={hit.path!r}, start_line=1, end_line=0)")
    return {k: v for k, v in rows.items() if v}


#: Members a class's card reads (one keyword lookup); past them its "more" counts every
#: symbol the case-insensitive prefix finds.
CARD_MEMBERS = 200


def card(client: Client, name: str, repo: str = "") -> dict[str, Any]:
    """The card of symbol ``name``: the symbol (FindSymbols), its ``profile`` from the
    daemon's GetCard (bases, constructor, raises, siblings, purposes), its call sites
    (FindCallers) and a source excerpt (ReadSymbol), all within ``BUDGET_CHARS``.

    Several matches without one exact qualified-name match give ``candidates`` instead,
    unless they are a type and its constructors, or one method's overloads (``_meant``):
    that card, the others in ``also_named``.
    Raises ``NotFoundError`` when nothing matches, and whatever the client raises.
    """
    page = client.find_symbols(name, repo=repo, limit=20)
    if not page:
        raise NotFoundError("NOT_FOUND", f"no symbol named {name!r}; try search_code", client.addr)
    hits = _one_per_definition(page)
    total = page.total - (len(page) - len(hits))
    exact = [h for h in hits if h.qualified_name == name]
    meant = _meant(hits) if len(hits) > 1 and len(exact) != 1 and total == len(hits) else None
    if meant is not None:
        exact = [meant]
    if len(hits) > 1 and len(exact) != 1:
        rows = [symbol(h) for h in hits]
        shown = fit({}, "candidates", rows, "")
        if total > len(shown["candidates"]):  # say how many, and what narrows
            shown["more"] = (f"{total - len(shown['candidates'])} more of {total} left "
                             f"out; {narrow(repo=repo, last='a qualified name (Class.method)')}, or "
                             "find_symbol pages through them all")
        return shown
    hit = exact[0] if exact else hits[0]
    head = symbol(hit)
    if hit.docstring:  # the card shows the first paragraph, up to a budget share
        head["doc"] = _cut(hit.docstring, CARD_DOC_CHARS)
    extra: dict[str, Any] = {}
    if meant is not None:  # the type's constructors, or the method's other overloads
        extra["also_named"] = [f"{cite(h.repo, h.path, h.start_line, h.end_line)} {h.qualified_name}"
                               for h in hits if h is not hit]
    if hit.kind in CLASS_KINDS:
        members = client.find_symbols(f"{hit.qualified_name}.", repo=hit.repo, prefix=True, limit=CARD_MEMBERS)
        # the lookup ignores case: ``Starlette.`` also found the package's ``starlette.*``
        # modules, and "43 more methods" of a class of ten (a newcomer)
        methods = [m for m in members if m.qualified_name.startswith(f"{hit.qualified_name}.")]
        rows = [{"cite": cite(m.repo, m.path, m.start_line, m.end_line), "name": m.qualified_name,
                 "sig": _cut(m.signature, 120)} for m in methods]
        extra["methods"] = prefix_fitting(rows, BUDGET_CHARS // 3)
        kept = len(extra["methods"])
        if members.truncated or len(methods) > kept:
            after = members.index(methods[kept - 1]) + 1 if kept else 0  # in the lookup's order
            more = (f"{len(methods) - kept} more methods" if not members.truncated else
                    f"{members.total - after} more symbols named so (any case)")
            extra["methods_more"] = (f"{more}: find_symbol(name={hit.qualified_name + '.'!r}, "
                                     f"prefix=true, offset={after})")
    # Asked by qualified name (``Session.close``), as the daemon's own card does: the bare
    # name would list every ``.close()`` of every class.
    sites = client.find_callers(hit.qualified_name, limit=CARD_CALLERS)
    extra["callers"] = [call_site(s) for s in sites]
    if sites.truncated:
        extra["callers_more"] = (f"{sites.total - len(sites)} more of {sites.total} call sites: "
                                 f"find_callers(name={hit.qualified_name!r}, offset={len(sites)})")
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


def _meant(hits: Sequence[SymbolHit]) -> SymbolHit | None:
    """The one definition ``hits`` (every match of a name, several) mean when they are one
    type and its own constructors (Java's ``org.jsoup.safety.Cleaner`` and
    ``..Cleaner.Cleaner(Safelist)``: the type), or the overloads of one method, told apart
    by their parameter lists only (``HtmlTreeBuilder.process(Token)`` and
    ``process(Token,HtmlTreeBuilderState)``: the longest, as the daemon's card takes it);
    else None. ``get_card Cleaner`` listed two candidates and took an agent a second call
    (a newcomer)."""
    bare = {h.qualified_name: _PARAMETERS.sub("", h.qualified_name) for h in hits}
    types = [h for h in hits if h.kind in CLASS_KINDS]
    if len(types) == 1:
        own = types[0].qualified_name
        constructor = f"{own}.{own.rpartition('.')[2]}"
        if all(h is types[0] or bare[h.qualified_name] == constructor for h in hits):
            return types[0]
    if not types and len({(h.repo, h.path, bare[h.qualified_name]) for h in hits}) == 1:
        return max(hits, key=lambda h: h.end_line - h.start_line)
    return None


#: A Java or C# method's parameter list closing its qualified name (``process(Token)``).
_PARAMETERS = re.compile(r"\([^()]*\)$")


def _one_per_definition(hits: Sequence[SymbolHit]) -> list[SymbolHit]:
    """``hits`` with one hit per definition: of those sharing a repository, a file and a
    qualified name, the widest (an ``@overload`` stub's one line beside the implementation:
    click's ``Context.invoke`` had three and no card, however narrowed; a newcomer)."""
    widest: dict[tuple[str, str, str], SymbolHit] = {}
    for h in hits:
        key = (h.repo, h.path, h.qualified_name)
        if key not in widest or h.end_line - h.start_line > widest[key].end_line - widest[key].start_line:
            widest[key] = h
    return [h for h in hits if widest[(h.repo, h.path, h.qualified_name)] is h]
