"""File-level answers: which files (and which of their functions) a question is about.

``files`` ranks files from the chunk candidates of one search (``service.locate``): a
file's score is its best chunk's plus ``SPREAD`` times the sum of its next ``SUPPORT``
chunks' scores, so of two files with equally good best chunks the one another chunk also
matches comes first. (A file-level BM25 by per-term queries, summing each term's best chunk
per file, was measured too: 65-67 file Acc@5 at 300-540 ms per issue, no better.) Each file lists its best functions (function, method or class
chunks, best first, at most ``functions_per_file``). Pure: no store.
"""

from __future__ import annotations

import functools
import re
from contextvars import ContextVar

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import replace

from coderecalld.files import classify
from coderecalld.records import FileHit, FunctionHit, Hit, is_part, unparted

#: ``callees(repo, path, names)``: for each qualified name of ``names`` (functions of the
#: file), the same file's functions it calls, in call order, as (qualified name, start
#: line, end line) (``service._callees``).
Callees = Callable[[str, str, Sequence[str]], Mapping[str, Sequence[tuple[str, int, int]]]]

#: Weight of a file's supporting chunks, and how many count. On swe-lite-dev (89 issues,
#: sparse-led candidates) the grid SPREAD 0..1 x SUPPORT 1..10 was flat within 3 points of
#: file Acc@5 (61.8-69.7); 0.25 x 1 was best at @5 and near best at @1 (docs/retrieval.md
#: "Query shapes").
SPREAD = 0.25
SUPPORT = 1
#: Chunk kinds that answer "which function": a class counts (an edit in its body).
FUNCTION_KINDS = frozenset({"function", "method", "class", "constructor", "interface", "struct"})
#: Kind of a whole-module chunk: a file's top-level code (``index/chunk.py``).
MODULE_KIND = "module"
#: A docs page's heading chunk: a file with no function among its chunks lists its best
#: sections instead (``_functions``: a newcomer saw ``advanced.rst`` located with no place
#: in it, though search had found its ``#Proxies/SOCKS`` section).
SECTION_KIND = "section"
#: The kinds of ``FUNCTION_KINDS`` that are types: listed after the functions of a file.
TYPE_KINDS = frozenset({"class", "interface", "struct"})
#: Whether a type, or a declaration without a body, listed after a file's functions scores
#: at most the lowest of them (``_functions``).
LATER_KINDS_CAPPED = True
#: Functions listed per file by default (the MCP output budget: 10 files x 5 lines).
FUNCTIONS_PER_FILE = 5
#: The first file lists this many more: it is the one an agent opens first and the edit
#: site most often (file@1 ~55-62 % on the dev and held-out sets), and the function to
#: change is often a helper below the functions the text names (``separability_matrix``
#: -> ``_cstack``). Function@10 (every gold function among the first 10 listed, file by
#: file; ``issue_lab.py --dump`` answers recounted) with the first file listing 5 / 6 / 7 /
#: 8 / 9 / 10, the others 5: swe-lite-dev 50.0 / 51.3 / 51.3 / 53.8 / 53.8 / 51.3, pytest
#: release notes 49.1 / 49.1 / 50.9 / 50.9 / 51.9 / 50.9, sphinx's 40.0 / 40.0 / 41.1 /
#: 43.3 / 43.3 / 43.3 (``history_set.py``; the others at 3 instead: within 1 point).
FIRST_FILE_EXTRA = 3
#: ... unless the second file scores at least this share of the first's: of two files
#: nearly tied, the first is the edit site no more often than the second, and its extra
#: places pushed the second's functions out of an agent's first 10. Function@10 recounted
#: from the ``issue_lab.py --dump`` answers with the extra withheld at a tie of 0.99 / 0.98 /
#: 0.97 / 0.96 / 0.95 (never): swe-lite-dev 53.8 throughout (4 of 89 issues tie at 0.97);
#: pytest release notes 50.9 / 51.9 / 53.8 / 53.8 / 53.8 (50.9), sphinx 44.4 / 45.6 / 45.6 /
#: 45.6 / 45.6 (44.4), xarray 48.4 / 48.4 / 48.4 / 47.4 / 46.3 (47.4), flask 75.0 / 75.0 /
#: 75.0 / 75.0 / 74.3 (73.5).
FIRST_FILE_TIE = 0.97
#: The file-level lexical ranking's fusion with the chunks' (``fused``): reciprocal rank
#: constant and the lexical side's weight (measured: docs/retrieval.md "File-level terms").
LEXICAL_FILES_K = 30
LEXICAL_FILES_WEIGHT = 0.25
#: Weight of the files of the definitions a query names (``fused``'s ``named``, in the
#: order named) as a third ranking in the fusion; ``service.locate`` gives 0 to a query
#: that asks for a role (docs of a named function: the docs pages first). Sparse-only,
#: ``issue_lab.py --set locate.NAMED_FILES_WEIGHT=W``, file@1/5/10, function@10, at W 0 /
#: 0.5 / 1.0: seaborn release notes 55.8/86.0/97.7, 44.4 / 60.5/87.2/97.7, 48.1 / same as
#: 0.5; its subjects at 0 / 0.5: 60/81/91, 49.4 / 61/82/91, 50.6 (docs/retrieval.md
#: "Named definitions and assigned docs"). seaborn's ``lineplot`` was 8th of the files of
#: "Fixed a bug where :func:`lineplot` did not pass ``linestyle``": kept, not ranked.
NAMED_FILES_WEIGHT = 0.5
#: Files of the chunks' ranking that take part in the fusion (or the answer's limit, when
#: more): the first page. Its long tail let the file index's files in past an issue's
#: better ones (swe-lite-dev file@10 86.5 -> 84.3 with every candidate file).
LEXICAL_FILES_CHUNK_DEPTH = 10
#: Share of an answer's places (of ``limit``, rounded down) the file index's first files
#: always hold (``fused``'s ``kept``): a short text's 4 of 10 (2 of 5), an issue's 2 of 10.
#: The fusion alone never let a file the chunks missed into the answer (file@10 equal to the
#: chunks' on every set), below a plain file-level BM25 at @10 on sphinx / click / httpx.
#: Kept 0 / 1 / 2 / 3 / 4 of 10, file@10 (docs/retrieval.md "File-level terms"): sphinx
#: notes' short 83.1 / 84.3 / 85.4 / 87.6 / 88.8, click subjects 94.2 / 95.3 / 96.9 / 96.3 /
#: 96.9, httpx 90.8 / 91.6 / 90.8 / 90.8 / 91.6, swe-lite-dev titles 75.3 / 76.4 / 76.4 /
#: 76.4 / 76.4; long texts (swe-lite-dev issues) 86.5 / 86.5 / 86.5 / 84.3 / 84.3.
LEXICAL_FILES_KEPT = 0.4
LEXICAL_FILES_KEPT_LONG = 0.2
#: The first file's first function is followed by its first same-file callee, that
#: callee's first, ... up to this deep (``with_callees``): the issue names the entry point,
#: the fix is often in the private helper it delegates to, whose own words the issue lacks
#: (sympy's ``sqf_list`` -> ``_generic_factor_list`` -> ``_symbolic_factor_list``, listed
#: 3rd instead of 9th; ``convert_to`` -> ``_get_conversion_matrix_for_expr``, not among the
#: candidates at all). Function@10 (``issue_lab.py --set locate.CALLEE_CHAIN=N``), 0 / 1 /
#: 2 / 3: swe-lite-dev 53.8 / 55.1 / 56.4 / 56.4; pytest release notes 53.8 / - / 54.7;
#: flask's 75.0 / - / 75.7. Filling every file that lists fewer functions than it may with
#: its listed ones' callees was measured too and is not done: pytest 51.9, flask 75.0 (the
#: first file's callees took the second file's places among an agent's first ten).
CALLEE_CHAIN = 2
#: Characters of a definition's source the model reads (its chunk's ``embed_text``,
#: ``index/chunk.py`` ``DEFAULT_MAX_CHARS``): a nested function starting past them is text
#: the enclosing function's dense vector never saw (``read_past``).
EMBEDDED_CHARS = 2000
#: Levels of a nested function's qualified name read for its enclosing function
#: (``enclosing_names``: JS's ``dispatchXhrRequest.request.ontimeout`` is in
#: ``dispatchXhrRequest``; ``request`` is a variable, no symbol).
ENCLOSING_DEPTH = 3
#: Whether a file lists the function enclosing a nested one it lists (``_with_enclosing``).
ENCLOSING_LISTED = True
#: Kinds a nested function and the function enclosing it have (a method's parent is its
#: class, no function).
NESTING_KINDS = frozenset({"function", "method"})
#: Whether a located file reports its own evidence as its score (``evidence_scores``): its
#: chunks' aggregate (best + ``SPREAD`` x the next ``SUPPORT``; a role's penalty orders), in
#: the units a search hit's score has, never rising down the list. The fused rank score
#: that orders the files (``fused``) read 0.0403, 0.0391, ... in every answer, right or
#: wrong, on every issue (three newcomers in a row). Every mode and shape alike: where no
#: file-level fusion ran (a trace, identifiers, ``--mode sparse``), the ordering value, the
#: aggregate less a role's penalty, was reported instead (a test file of a trace at -0.1).
EVIDENCE_SCORES = True
#: A callee not among the candidates scores its caller's score times this (the list is
#: in the order above, not by score).
CALLEE_SHARE = 0.5
#: Lines a callee spans, at least, to be listed after its caller when the query's chunks
#: did not list it (cobra's "where are persistent flags merged into a subcommand" listed
#: ``DisplayName`` and ``Name``, three-line getters, before ``mergePersistentFlags``).
CALLEE_MIN_LINES = 4


def files(hits: Iterable[Hit], limit: int, *, penalty: Callable[[dict], float] = lambda p: 0.0,
          functions_per_file: int = FUNCTIONS_PER_FILE, callees: Callees | None = None,
          bonus: Callable[[dict], float] | None = None,
          lexical: Sequence[Hit] = (),
          chunks_of: Callable[[str, str], list[Hit]] | None = None,
          lead: float = 0.0, kept: int = 0,
          named: Sequence[tuple[str, str]] = (),
          spans: Callable[[str, str, Sequence[str]], Mapping[str, Sequence[tuple[int, int]]]] | None = None,
          definitions: Callable[[str, str, Sequence[str]], list[Hit]] | None = None,
          named_weight: float | None = None,
          verbatim: Collection[tuple[str, str, int, str]] = (),
          ) -> list[FileHit]:
    """The top ``limit`` files of ``hits`` (chunks with payload ``repo``, ``path``, ``kind``,
    ``qualified_name``, ``start_line``, ``end_line``; any order), best first by the
    aggregate less ``penalty(payload)`` of the file's best chunk (roles:
    ``service.ROLE_PENALTY``). Ties keep first-seen order. Each reports its own evidence
    (``evidence_scores``, with ``EVIDENCE_SCORES``; else the value that ordered it), in every
    mode and query shape: scores never rise down the list. Each file lists its best
    ``functions_per_file`` functions, the first ``FIRST_FILE_EXTRA`` more (when
    ``functions_per_file`` > 0 and the second file scores under ``FIRST_FILE_TIE`` x the
    first's); with ``callees``, the first file's first function is followed by the
    same-file functions it calls (``with_callees``).
    ``bonus(payload)``: added to a chunk's score when ordering its file's functions only
    (the file's score is unchanged; a function's listed score includes it).

    ``lexical``: files, best first, from the file-level index (``Store.file_search``'s
    hits: payload ``repo``, ``path``, ``role``); when given, the files are ranked by
    ``fused`` (that ranking and this one by reciprocal ranks; without ``EVIDENCE_SCORES``
    each reports its fused score); a file only ``lexical`` names lists the functions of
    ``chunks_of(repo, path)`` (its chunks scored for the query; none without ``chunks_of``). The first file's extra
    places follow the chunk scores of the first two files (a file without chunks scores
    0). ``lead`` (0: never): the chunks' first file keeps the first place, with the best
    fused score, when the chunks' second file scores under ``lead`` times its score (it
    stands out: ``confidence.flat_files``). ``kept``: ``lexical``'s first ``kept`` files
    are always among the answer's, and so are ``named`` files, ``(repo, path)`` of the
    definitions the query names (``fused``). ``spans(repo, path, names)``: the whole
    definitions' (start line, end line) spans by qualified name (several where a file
    defines a name twice: the one holding the part is taken), for the functions listed only
    from a part of a long function (``name#part2``: its own lines, 706-820 of gin's
    ``findCaseInsensitivePathRec``, 703-950, were listed under the function's name); one
    call per file that needs it. ``definitions(repo, path, names)``: the chunks of those
    qualified names in that file, for the function enclosing a listed nested one that is
    not among the chunks (``_with_enclosing``); one call per file that needs it.
    ``verbatim``: the chunks, by (repo, path, start line, qualified name), that hold the
    message or literal the query quotes; each is listed first in its file, whatever its
    kind (werkzeug's ``BadRequest``, a class whose ``description`` holds "sent a request
    that this server could not understand", was no function, and its file listed eight
    others; a newcomer)."""
    candidates = list(hits)
    grouped = _grouped(candidates, penalty)
    ranked: list[tuple[float, tuple[str, str], list[Hit]]] = [
        (score, key, chunks) for key, (score, chunks, _) in grouped.items()]
    ranked.sort(key=lambda r: -r[0])
    evidence = {key: own for key, (_, _, own) in grouped.items()}
    own = [r[0] for r in ranked[:2]]
    roles = {(h.payload["repo"], h.payload["path"]): str(h.payload.get("role", ""))
             for h in lexical}
    if lexical:
        ranked, own = _with_lexical(ranked, list(roles), limit, chunks_of, lead, kept, named,
                                    named_weight)
    elif named:
        ranked = _keeping(ranked, named, limit)
    tied = len(own) > 1 and own[0] > 0 and own[1] >= FIRST_FILE_TIE * own[0]
    extra = FIRST_FILE_EXTRA if functions_per_file and not tied else 0
    out = []
    for i, (score, (repo, path), chunks) in enumerate(ranked[:limit]):
        role = str(chunks[0].payload.get("role", "")) if chunks else roles.get((repo, path), "")
        listed = functions_per_file + (extra if i == 0 else 0)
        if bonus is not None:
            chunks = sorted((replace(h, score=h.score + bonus(h.payload)) for h in chunks),
                            key=lambda h: -h.score)
        found = _functions(chunks, listed, None if definitions is None else (
            lambda names, r=repo, p=path: definitions(r, p, names)))
        if verbatim and listed:
            found = _holders_first(found, chunks, verbatim, listed)
        if not found and listed and chunks_of is not None and all(
                h.payload.get("kind") == "module" for h in chunks):
            # ranked by its module chunk alone (a docstring saying what the file is for):
            # its functions by the query's words, rather than none (marshmallow's
            # class_registry.py was located with no function for "how does a Nested field
            # resolve a schema given by name"; a newcomer)
            found = _functions(sorted(chunks_of(repo, path), key=lambda h: (-h.score, int(h.payload.get("start_line", 0)))),
                               listed)
        if not found and listed and chunks:
            # nothing of a kind listed (its top-level code alone, a file of type aliases or
            # constants; none of its functions holds the query's words): its best chunk, so
            # the answer still says where in the file to read (hono's types-only
            # ``client/types.ts`` led a question's answer with no line; a newcomer)
            p = chunks[0].payload
            found = (FunctionHit(unparted(p["qualified_name"]), int(p["start_line"]), int(p["end_line"]),
                                 round(chunks[0].score, 6)),)
        if spans is not None:
            found = _whole(found, chunks, lambda names, r=repo, p=path: spans(r, p, names))
        if callees is not None and found and i == 0 and CALLEE_CHAIN > 0:
            found = with_callees(found, lambda names, r=repo, p=path: callees(r, p, names))
        out.append(FileHit(repo=repo, path=path, role=role,
                           score=round(score, 6), functions=found))
    if EVIDENCE_SCORES:
        out = evidence_scores(out, evidence, {key: chunks for _, key, chunks in ranked[:limit]})
    return out


def evidence_scores(found: Sequence[FileHit], evidence: Mapping[tuple[str, str], float],
                    chunks: Mapping[tuple[str, str], Sequence[Hit]]) -> list[FileHit]:
    """``found`` (files in answer order) each scored by its own evidence: ``evidence``
    (the candidate chunks' aggregate by ``(repo, path)``, ``_grouped`` with no role
    penalty: the penalty orders, as a search page's does, and is no evidence), else for a file the
    candidates missed (only the file-level index ranked it) its ``chunks``' best score plus
    ``SPREAD`` x the next ``SUPPORT`` (0 with none); at most the score of the file above it,
    so scores never rise down the list. Units: a search hit's score (0..1 for words alone,
    more with structural evidence: a named definition, a traceback frame)."""
    out: list[FileHit] = []
    for f in found:
        key = (f.repo, f.path)
        own = evidence.get(key)
        if own is None:
            own = _aggregate(h.score for h in chunks.get(key, ()))
        if out:
            own = min(own, out[-1].score)
        out.append(replace(f, score=round(own, 6)))
    return out


def _keeping(ranked: list[tuple[float, tuple[str, str], list[Hit]]],
             named: Sequence[tuple[str, str]], limit: int,
             ) -> list[tuple[float, tuple[str, str], list[Hit]]]:
    """``ranked`` (best first) cut to ``limit`` with the files of ``named`` among them
    (``with_kept``): the order stays by score."""
    keys = set(with_kept([key for _, key, _ in ranked], named, limit))
    return [r for r in ranked if r[1] in keys]


def with_kept(order: list[tuple[str, str]], must: Sequence[tuple[str, str]], limit: int,
          ) -> list[tuple[str, str]]:
    """``order`` cut to ``limit`` keys with the first ``limit`` - 1 of ``must`` that it
    holds among them, each in place of the lowest other; ``order``'s order kept."""
    held = set(order)
    wanted = set(list(dict.fromkeys(key for key in must if key in held))[:max(limit - 1, 0)])
    room = set([key for key in order if key not in wanted][:limit - len(wanted)])
    return [key for key in order if key in wanted or key in room]


def _with_lexical(ranked: list[tuple[float, tuple[str, str], list[Hit]]],
                  lexical: list[tuple[str, str]], limit: int,
                  chunks_of: Callable[[str, str], list[Hit]] | None, lead: float, kept: int,
                  named: Sequence[tuple[str, str]] = (), named_weight: float | None = None,
                  ) -> tuple[list[tuple[float, tuple[str, str], list[Hit]]], list[float]]:
    """``files``' fusion step: ``fused``'s first ``limit`` files, the chunks' first file
    kept first (with the best fused score) when the chunks' second scores under ``lead``
    times it, ``lexical``'s first ``kept`` and ``named`` always among them, and the chunk
    scores of the new first two (0 for a file without chunks)."""
    aggregate = {key: score for score, key, _ in ranked}
    own = [r[0] for r in ranked[:2]]
    # it stands out on the chunks: an issue's structural evidence, mostly
    first = ranked[0][1] if len(own) > 1 and own[1] < lead * own[0] else None
    out = fused(ranked, lexical, limit, chunks_of, kept=kept, first=first, named=named,
                named_weight=named_weight)
    return out, [aggregate.get(r[1], 0.0) for r in out[:2]]


def fused(ranked: Sequence[tuple[float, tuple[str, str], list[Hit]]],
          lexical: Sequence[tuple[str, str]], limit: int,
          chunks_of: Callable[[str, str], list[Hit]] | None = None,
          *, k: int | None = None, weight: float | None = None, kept: int = 0,
          first: tuple[str, str] | None = None, named: Sequence[tuple[str, str]] = (),
          named_weight: float | None = None,
          ) -> list[tuple[float, tuple[str, str], list[Hit]]]:
    """The files of ``ranked`` (by chunks, best first), ``lexical`` (file-level BM25,
    best first) and ``named`` (the files of the definitions the query names, in the order
    named) ranked by weighted reciprocal rank fusion: ``1 / (k + r_chunks) + weight /
    (k + r_lexical) + named_weight / (k + r_named)``, ranks 1-based, a list a file is
    missing from adds nothing; ties keep the chunk ranking's order. ``named_weight``
    defaults to ``NAMED_FILES_WEIGHT`` (0: named files are kept, not ranked). The first ``limit`` as ``(fused score, key, chunks)``, a
    file only ``lexical`` holds with ``chunks_of(repo, path)`` (``[]`` without it).
    ``k`` and ``weight`` default to ``LEXICAL_FILES_K`` and ``LEXICAL_FILES_WEIGHT``.

    ``first``: this file (when ranked at all) takes the first place with the best fused
    score. ``kept``: the first ``kept`` files of ``lexical`` are always in the answer, and
    so are the files of ``named`` (those of the definitions the query names), at most
    ``limit`` - 1 of them in all, ``named`` first; one the fusion leaves out takes the
    place of the lowest other (a named file's fused score counts its chunk rank at any
    depth; scores never rise down the list)."""
    k = LEXICAL_FILES_K if k is None else k
    weight = LEXICAL_FILES_WEIGHT if weight is None else weight
    named_weight = NAMED_FILES_WEIGHT if named_weight is None else named_weight
    chunks = {key: found for _, key, found in ranked}
    score: dict[tuple[str, str], float] = {}
    for i, (_, key, _) in enumerate(ranked[:max(limit, LEXICAL_FILES_CHUNK_DEPTH)]):
        score[key] = 1.0 / (k + i + 1)
    for i, key in enumerate(lexical):
        score[key] = score.get(key, 0.0) + weight / (k + i + 1)
    at = {key: i for i, (_, key, _) in enumerate(ranked)}
    for key in named:
        if key not in score:
            score[key] = 1.0 / (k + at[key] + 1) if key in at else 0.0
    for i, key in enumerate(named):
        score[key] += named_weight / (k + i + 1)
    order = sorted(score, key=lambda key: -score[key])
    if first is not None and first in score and order[0] != first:
        score[first] = score[order[0]]
        order = [first, *(key for key in order if key != first)]
    order = _spread(with_kept(order, [*named, *lexical[:kept]], limit), lexical[:kept], limit)
    out = []
    for key in order:
        found = chunks.get(key)
        if found is None:
            found = sorted(chunks_of(*key), key=lambda h: -h.score) if chunks_of else []
        # a kept file moved up scores no more than the one above it
        out.append((min(score[key], out[-1][0]) if out else score[key], key, found))
    return out


def _spread(order: list[tuple[str, str]], kept: Sequence[tuple[str, str]], limit: int,
            ) -> list[tuple[str, str]]:
    """``order`` (the answer's files, by score) with the ``j``-th of ``kept`` (the
    file-level ranking's first files) moved up to place ceil(``j * limit / len(kept)``),
    never the first, when it is lower (for 4 kept of 10: 3, 5, 8, 10): the kept files
    spread over the page rather than at its end, so that its first places hold their share
    too (the 10-file page's first 5 held none of the four kept; a page of 5 kept 2 among
    its 5, so ``--limit 5`` answered other files than the first 5 of 10; ``locate`` now
    ranks 10 and cuts)."""
    held = [key for key in kept if key in order]
    if not held:
        return order
    out = list(order)
    for j, key in enumerate(held, 1):
        deadline = max(2, -(-j * limit // len(held)))  # ceil; the first place stays the fusion's
        at = out.index(key)
        if at >= deadline:
            out.insert(deadline - 1, out.pop(at))
    return out


def with_callees(found: tuple[FunctionHit, ...],
                 callees: Callable[[Sequence[str]], Mapping[str, Sequence[tuple[str, int, int]]]],
                 *, chain: int = CALLEE_CHAIN) -> tuple[FunctionHit, ...]:
    """``found`` (one file's functions, best first) with its first function's first
    same-file callee right after it, that callee's first after it, ... ``chain`` deep (a
    callee of fewer than ``CALLEE_MIN_LINES`` lines not listed already is passed over:
    a getter, ``Name()``, says nothing of where the work is);
    one listed further down moves up with its score, one not listed scores
    ``CALLEE_SHARE`` x its caller's and the last listed gives it its place (as many
    functions as ``found``). ``callees(names)``: qualified name -> its callees as
    (qualified name, start, end), called at most ``chain`` times."""
    out = list(found)
    head = out[0]
    for _ in range(chain):
        at = out.index(head) + 1
        above = {f.qualified_name for f in out[:at]}
        listed = {f.qualified_name for f in out}
        nxt = next((c for c in callees([head.qualified_name]).get(head.qualified_name, ())
                    if c[0] not in above and (c[0] in listed or c[2] - c[1] + 1 >= CALLEE_MIN_LINES)), None)
        if nxt is None:
            break
        held = next((f for f in out if f.qualified_name == nxt[0]), None)
        out = [f for f in out if f is not held]
        head = held or FunctionHit(nxt[0], nxt[1], nxt[2], round(head.score * CALLEE_SHARE, 6))
        out.insert(at, head)
    return tuple(out[:len(found)])


def file_scores(hits: Iterable[Hit], *, penalty: Callable[[dict], float] = lambda p: 0.0,
                ) -> dict[tuple[str, str], float]:
    """Each file's score as ``files`` ranks it, by ``(repo, path)``: its best chunk's
    score plus ``SPREAD`` times its next ``SUPPORT`` chunks', less ``penalty`` of the best."""
    return {key: score for key, (score, _, _) in _grouped(hits, penalty).items()}


def _grouped(hits: Iterable[Hit], penalty: Callable[[dict], float],
             ) -> dict[tuple[str, str], tuple[float, list[Hit], float]]:
    """``hits`` by ``(repo, path)``: the file's score, its chunks, best first, and its own
    evidence (the score before any penalty: ``evidence_scores``). The
    file's score is its chunks' (best + ``SPREAD`` x the next ``SUPPORT``) less its least
    penalised chunk's penalty (all chunks of most files share their file's role); a chunk
    penalised more than that (a Rust source file's ``#[cfg(test)]`` tests, role test:
    axum's ``json.rs`` listed eight tests and not ``json_content_type``) is ordered and
    listed the difference lower, at 0 at least, and counts in full for its file's score
    (its file is where the code it tests is; a review saw a weak test hit lower its file)."""
    grouped: dict[tuple[str, str], list[Hit]] = {}
    for hit in hits:
        grouped.setdefault((hit.payload["repo"], hit.payload["path"]), []).append(hit)
    out: dict[tuple[str, str], tuple[float, list[Hit], float]] = {}
    for key, chunks in grouped.items():
        costs = [penalty(h.payload) for h in chunks]
        floor = min(costs)
        score = _aggregate(h.score for h in chunks)
        chunks = [replace(h, score=max(h.score - (cost - floor), 0.0)) if cost > floor else h
                  for h, cost in zip(chunks, costs)]
        chunks.sort(key=lambda h: -h.score)
        out[key] = (score - floor, chunks, score)
    return out


def _aggregate(scores: Iterable[float]) -> float:
    """A file's score from its chunks' ``scores``: the best plus ``SPREAD`` times the sum of
    the next ``SUPPORT``; 0 for none."""
    raw = sorted(scores, reverse=True)
    return raw[0] + SPREAD * sum(raw[1:1 + SUPPORT]) if raw else 0.0


def _functions(chunks: list[Hit], limit: int,
               definitions: Callable[[Sequence[str]], list[Hit]] | None = None,
               ) -> tuple[FunctionHit, ...]:
    """The best ``limit`` distinct functions among one file's chunks (already best first):
    functions, methods and constructors first, then those declared without a body and
    implemented nowhere among the chunks (``is_stub``: gson's abstract ``Adapter.readField``
    was listed second, its implementations not at all), then types (``TYPE_KINDS``) in the
    places left: a whole class (``Session``, 500 lines) names no edit site and took the places of
    the methods an issue is about (swe-lite-dev function@10 44.9 -> 47.4, types listed last).
    A function with ``@overload`` stubs among the chunks is listed at its implementation's
    lines when that chunk is among them too (with the best score of any of them). A part of
    a long function (``name#part2``, ``index/chunk.py``) is listed as the function itself:
    at the whole function's lines when its whole chunk is among the chunks, else at the
    part's (``files`` then asks its ``spans`` for the whole's; a part named no symbol an
    agent can look up, and took a second place for one function). A file whose best chunk
    is its top-level code (``MODULE_KIND``) and that lists no function lists that chunk
    before its types. A file with none of those (a docs page) lists its best sections
    (``SECTION_KIND``) instead."""
    implemented: dict[str, Hit] = {}
    for h in reversed(chunks):  # best last: the best chunk of a name wins
        if not is_stub(h.payload) and not is_part(h.payload["qualified_name"]):
            implemented[h.payload["qualified_name"]] = h
    seen: dict[str, FunctionHit] = {}
    callables = FUNCTION_KINDS - TYPE_KINDS
    for kinds, bodyless in ((callables, False), (callables, True), (TYPE_KINDS, None)):
        if (bodyless is None and not seen and limit and chunks and chunks[0].payload.get("kind") == MODULE_KIND
                and any(h.payload.get("kind") in TYPE_KINDS for h in chunks)):
            # the file's top-level code is its best chunk and no function is listed: say so
            # before its types (flask's globals.py, ranked by the module-level message
            # ``_no_app_msg``, listed two one-line type stubs under ``TYPE_CHECKING``; a
            # newcomer)
            p = chunks[0].payload
            seen[p["qualified_name"]] = FunctionHit(p["qualified_name"], int(p["start_line"]),
                                                    int(p["end_line"]), round(chunks[0].score, 6))
        for hit in chunks:
            p = hit.payload
            name = unparted(p["qualified_name"])
            if p.get("kind") not in kinds or name in seen:
                continue
            if bodyless is not None and bodyless != (is_stub(p) and name not in implemented):
                continue  # a declaration without a body after the implementations
            if len(seen) >= limit:
                break
            where = implemented.get(name, hit).payload
            score = round(hit.score, 6)
            if bodyless is not False and seen and LATER_KINDS_CAPPED:
                # listed after the callables by kind, not by score: no higher than the
                # one above (a named class, 1.08, raised the 29 methods above it to its
                # score with ``functions=30``: ``service._non_rising``; a newcomer)
                score = min(score, min(f.score for f in seen.values()))
            seen[name] = FunctionHit(name, int(where["start_line"]), int(where["end_line"]), score)
    if ENCLOSING_LISTED:
        seen = _with_enclosing(seen, chunks, limit, definitions)
    if not seen:  # a docs page: its best sections, where in it to read
        for hit in chunks:
            p = hit.payload
            if p.get("kind") == SECTION_KIND and p["qualified_name"] not in seen and len(seen) < limit:
                seen[p["qualified_name"]] = FunctionHit(p["qualified_name"], int(p["start_line"]),
                                                        int(p["end_line"]), round(hit.score, 6))
    return tuple(seen.values())


def _holders_first(found: tuple[FunctionHit, ...], chunks: list[Hit],
                   verbatim: Collection[tuple[str, str, int, str]], limit: int) -> tuple[FunctionHit, ...]:
    """``found`` (one file's listed functions) with the chunks among ``chunks`` that
    ``verbatim`` names first, in their order (a type or a module chunk too, at its own
    lines and score), at most ``limit`` in all."""
    front: list[FunctionHit] = []
    for h in chunks:
        p = h.payload
        key = (str(p.get("repo", "")), str(p.get("path", "")), int(p.get("start_line", 0)),
               str(p.get("qualified_name", "")))
        name = unparted(key[3])
        if key in verbatim and name not in {f.qualified_name for f in front}:
            front.append(next((f for f in found if f.qualified_name == name), None) or FunctionHit(
                name, int(p["start_line"]), int(p["end_line"]), round(h.score, 6)))
    if not front:
        return found
    names = {f.qualified_name for f in front}
    return tuple([*front, *(f for f in found if f.qualified_name not in names)][:limit])


def _with_enclosing(seen: dict[str, FunctionHit], chunks: list[Hit], limit: int,
                    definitions: Callable[[Sequence[str]], list[Hit]] | None = None,
                    ) -> dict[str, FunctionHit]:
    """``seen`` (one file's listed functions by name, best first) with the function
    enclosing the first listed nested one (``enclosing``) right after it, moved up or
    listed (with its score) in the last one's place; unchanged when none or when it is
    listed above already. One not among ``chunks`` is read by ``definitions(names)`` (axios's
    ``Axios._request`` was no candidate of "how are the interceptors chained"), once."""
    order = list(seen.values())
    by_name = {}
    for h in chunks:
        by_name.setdefault(h.payload.get("qualified_name"), h)
    asked = False
    for i, f in enumerate(order):
        nested = by_name.get(f.qualified_name)
        outer = enclosing(chunks, nested) if nested is not None else None
        if (outer is None and nested is not None and definitions is not None and not asked
                and nested.payload.get("kind") in NESTING_KINDS and nested.payload.get("parent")):
            asked = True
            outer = enclosing(definitions(enclosing_names(f.qualified_name)), nested)
        if outer is None:
            continue
        name = str(outer.payload["qualified_name"])
        if name in [g.qualified_name for g in order[:i]]:
            return seen
        listed = next((g for g in order if g.qualified_name == name), None)
        rest = [g for g in order[i + 1:] if g is not listed]
        moved = listed or FunctionHit(name, int(outer.payload["start_line"]),
                                      int(outer.payload["end_line"]), f.score)
        if i + 1 >= limit:  # the last one listed: no place after it
            return seen
        order = [*order[:i + 1], moved, *rest][:limit]
        return {g.qualified_name: g for g in order}
    return seen


def enclosing_names(qualified: str) -> list[str]:
    """The names that may enclose ``qualified`` (a nested function's qualified name),
    nearest first, at most ``ENCLOSING_DEPTH``: ``a.b.c`` -> ``["a.b", "a"]``; a part's
    ``#partN`` is left out first."""
    parts = unparted(qualified).split(".")
    return [".".join(parts[:k]) for k in range(len(parts) - 1, 0, -1)][:ENCLOSING_DEPTH]


def read_past(outer: dict, inner: dict) -> bool:
    """Whether the chunk payload ``inner`` (a nested function, payload ``start_byte``)
    starts past the first ``EMBEDDED_CHARS`` of ``outer``'s (the function enclosing it):
    its lines are no part of what the enclosing function was embedded from, so a question
    matching them finds the nested function and not the one holding it (axios's 136-line
    ``Axios._request`` chains its interceptors in two nested callbacks at its end)."""
    return int(inner.get("start_byte") or 0) - int(outer.get("start_byte") or 0) > EMBEDDED_CHARS


def enclosing(chunks: list[Hit], nested: Hit) -> Hit | None:
    """The function among ``chunks`` (one file's) enclosing ``nested`` (a nested function's
    chunk) when ``nested`` starts past what it was embedded from (``read_past``), else None:
    the nearest of ``enclosing_names`` whose byte range holds it (an overload's stub has
    the implementation's name)."""
    p = nested.payload
    if p.get("kind") not in NESTING_KINDS or not p.get("parent"):
        return None
    names = enclosing_names(str(p["qualified_name"]))
    held = [h for h in chunks if h.payload.get("kind") in NESTING_KINDS
            and h.payload.get("qualified_name") in names and holds(h.payload, p)]
    if not held:
        return None
    outer = min(held, key=lambda h: names.index(h.payload["qualified_name"]))
    return outer if read_past(outer.payload, p) else None


def holds(outer: dict, inner: dict) -> bool:
    """Whether the chunk payload ``outer``'s byte range (``start_byte``, ``end_byte``)
    holds ``inner``'s, a smaller one; False when either lacks them."""
    try:
        start, end = int(outer["start_byte"]), int(outer["end_byte"])
        first, last = int(inner["start_byte"]), int(inner["end_byte"])
    except (KeyError, TypeError, ValueError):
        return False
    return start <= first and last <= end and (start, end) != (first, last)


def _whole(found: tuple[FunctionHit, ...], chunks: list[Hit],
           spans: Callable[[Sequence[str]], Mapping[str, Sequence[tuple[int, int]]]],
           ) -> tuple[FunctionHit, ...]:
    """``found`` with each function listed from a part only (no whole chunk of its name
    among ``chunks``) at the lines of the definition ``spans(names)`` gives it that holds
    the part's lines, and each listed from ``@overload`` stubs only (no implementation
    among ``chunks``) at its last definition's lines, the implementation the stubs
    precede (arrow's ``api.get`` was listed at a stub's lines, 41-58, in 22 of 28 answers,
    its implementation at 83-86; a newcomer). Unchanged where no definition does."""
    names = {h.payload["qualified_name"] for h in chunks}
    parted = {unparted(n) for n in names if is_part(n)} - names  # parts, no whole chunk
    overloads = {h.payload["qualified_name"] for h in chunks if is_overload(h.payload)}
    overloads -= {h.payload["qualified_name"] for h in chunks if not is_stub(h.payload)}
    need = [f.qualified_name for f in found if f.qualified_name in parted | overloads]
    if not need:
        return found
    lines = spans(need)
    out = []
    for f in found:
        defined = lines.get(f.qualified_name, ())
        if f.qualified_name in overloads:
            whole = max(defined, default=None)
        else:
            whole = next((span for span in defined if span[0] <= f.start_line and f.end_line <= span[1]), None)
        out.append(replace(f, start_line=whole[0], end_line=whole[1]) if whole else f)
    return tuple(out)


def prose_share(payload: dict) -> float:
    """The share of a chunk's text inside string literals, 0..1 (payload ``prose``, from
    ``index.chunk.prose_share`` at index time; 0.0 for a chunk indexed before it)."""
    return float(payload.get("prose") or 0.0)


def is_overload(payload: dict) -> bool:
    """A Python ``@overload`` stub (``is_stub``'s decorator rule): a decorator line
    ``@overload``, ``@typing.overload`` or ``@t.overload`` before the ``def`` of its snippet."""
    return bool(_OVERLOAD.search(str(payload.get("snippet", "")).split("def ", 1)[0]))


def is_stub(payload: dict) -> bool:
    """``_stub`` of the payload fields it reads, cached (a page's ordering reads it for each
    of its 100 candidates in each ranking: ~550 reads a fused search). ``abstract``: a
    body that only raises ``NotImplementedError`` counts (``ABSTRACT_STUBS``, unless the
    query asks for it: ``NOT_IMPLEMENTED_ASKED``), read at each call."""
    return _stub(str(payload.get("path", "")), payload.get("kind"), payload.get("language"),
                 payload.get("start_line"), payload.get("end_line"), str(payload.get("snippet", "")),
                 ABSTRACT_STUBS and not NOT_IMPLEMENTED_ASKED.get())


@functools.lru_cache(maxsize=1 << 14)
def _stub(path: str, kind: object, language: object, start_line: object, end_line: object,
          snippet: str, abstract: bool) -> bool:
    """A signature without behaviour: a chunk of a declaration file (``declares_only``), a
    Python ``@overload`` stub (a decorator line ``@overload``, ``@typing.overload`` or
    ``@t.overload`` before its ``def`` in the chunk's snippet), beside the implementation
    of the same name, or a method or function declared without a body in a braced language
    (its snippet ends with ``;`` and opens no ``{``: Java's and C#'s abstract and interface
    methods, Rust's trait signatures, C++'s pure virtuals; gson's abstract
    ``BoundField.readIntoField``, two lines, was first for an issue its implementation is
    about), or (TypeScript, Go) a one-line method without a body (an interface's: hono's
    ``ClientResponse.json`` came before ``Context.json``). ``@overload(...)`` (numba's
    implementations) and ``@overloaded_op`` are not stubs."""
    if declares_only(path):
        return True
    if (kind in CALLABLE_KINDS and language not in _UNBRACED
            and snippet.rstrip().endswith(";") and "{" not in snippet):
        return True
    if (kind in CALLABLE_KINDS and language in _SIGNATURE_LINES and start_line == end_line
            and "{" not in snippet and "=>" not in snippet):
        return True  # an interface's method: ``json(): Promise<T>`` (TS), ``Read(p []byte) ...`` (Go)
    if is_overload({"snippet": snippet}):
        return True
    return (abstract and kind in CALLABLE_KINDS
            and language == "python"
            and _abstract_body(snippet, int(end_line or 0) - int(start_line or 0)))


#: A Python function whose body only raises ``NotImplementedError`` (or, under
#: ``@abstractmethod``, is ``...`` or ``pass``) is a stub (``is_stub``): drf's
#: ``BaseContentNegotiation.select_renderer`` came before ``DefaultContentNegotiation``'s
#: implementation in search and locate (a newcomer).
ABSTRACT_STUBS = True
#: Set for a request whose query speaks of what is not implemented (``service``): the raise
#: is the answer, no stub (drf's pasted ``NotImplementedError: `create()` must be
#: implemented.`` lost ``BaseSerializer.create`` raising it from locate's list; a review).
NOT_IMPLEMENTED_ASKED: ContextVar[bool] = ContextVar("not_implemented_asked", default=False)
_DOCSTRING = re.compile(r'^\s*[rRuUbBfF]*("""|\'\'\')[\s\S]*?\1\s*$|^\s*[rRuUbBfF]*("|\')[^\n]*\2\s*$', re.MULTILINE)
_NOT_IMPLEMENTED = re.compile(r"^raise\s+NotImplementedError\b")


def _abstract_body(snippet: str, span: int) -> bool:
    """Whether a Python function's snippet (decorators, ``def``, body) has a body that only
    raises ``NotImplementedError``, or under ``@abstractmethod`` is ``...`` or ``pass``
    (a docstring aside); a function of more lines than its snippet holds is none."""
    head, sep, rest = snippet.partition("def ")
    if not sep or span >= 12:
        return False
    lines = rest.split("\n")
    # the signature may run over lines: the body starts after the line ending with ':'
    at = next((i for i, line in enumerate(lines) if line.rstrip().endswith(":")), None)
    if at is None:
        return False
    body = "\n".join(lines[at + 1:])
    body = _DOCSTRING.sub("", body, count=1).strip() if body.lstrip().startswith(('"', "'", "r", "u", "b", "f")) else body.strip()
    if not body or "\n" in body.strip():
        return False
    if _NOT_IMPLEMENTED.match(body):
        return True
    return body in ("...", "pass") and "abstractmethod" in head


def declares_shape(payload: dict) -> bool:
    """Whether a chunk's file only declares shapes (payload ``declares``: a TypeScript file
    of interfaces and types, ``chunk.declares_only``)."""
    return bool(payload.get("declares"))


def declares_only(path: str) -> bool:
    """Whether ``path`` is a declaration file (``classify.declaration_file``). Its
    definitions are signatures; the behaviour an issue is about is in the implementation
    (numpy's ``lib/_arraypad_impl.pyi`` was second for 11 of 12 issues about its ``.py``)."""
    return classify.declaration_file(path)


#: Kinds of a function or method chunk (a stub's; ``anchors._at_line``'s).
CALLABLE_KINDS = frozenset({"method", "function"})
#: Languages whose definitions have no braces (a ``;`` ends no Python signature).
_UNBRACED = frozenset({"python", "ruby", "bash"})
#: Languages whose interface methods are one line without a ``;`` or a body.
_SIGNATURE_LINES = frozenset({"typescript", "tsx", "go"})
_OVERLOAD = re.compile(r"^[ \t]*@(?:typing\.|t\.)?overload[ \t]*$", re.MULTILINE)


#: A directory naming a release of versioned docs (``v1.7``, ``version-2.0``, ``3.x``),
#: and the names of its moving copies (``dev``, ``latest``); Docusaurus keeps
#: ``versioned_docs/version-2.0/``, jq ``docs/content/manual/v1.7/``.
_RELEASE = re.compile(r"(?i)^(?:v|version-?|release-?)?\d+(?:[._-]\d+)*(?:[._-]x)?$")
_MOVING = frozenset({"dev", "latest", "stable", "next", "current", "nightly", "unreleased"})


def older_copies(paths: Sequence[tuple[str, str, str]]) -> dict[int, int | None]:
    """Another release's copies of a docs file among ``paths`` ((repo, path, role), best
    first): docs paths that differ only in directories naming releases (``_RELEASE``, or
    ``_MOVING`` beside one) when at least one of those is a numbered release. Each file is
    answered from its newest release on the list (a moving name, ``dev``, before any
    number; then the highest), in the places its first-listed release held (as many as
    the newest has there, in order): index -> the index whose
    entry takes its place there, or None to drop it; indexes not mentioned stay. The
    other releases' copies took an answer's places (jq: four releases of one manual
    section were a question's first four hits, its source fifth; then its oldest, v1.5,
    answered)."""
    keyed: dict[tuple[str, str], list[tuple[int, tuple[str, ...]]]] = {}
    for i, (repo, path, role) in enumerate(paths):
        if role != "docs":
            continue
        parts = path.split("/")
        releases = tuple(p for p in parts[:-1] if _names_release(p))
        if releases:
            key = "/".join("*" if _names_release(p) else p for p in parts)
            keyed.setdefault((repo, key), []).append((i, releases))
    out: dict[int, int | None] = {}
    for rows in keyed.values():
        numbered = any(_RELEASE.match(p) for _, releases in rows for p in releases)
        if not numbered or len({releases for _, releases in rows}) < 2:
            continue
        newest = max((releases for _, releases in rows), key=_newness)
        kept = [i for i, releases in rows if releases == newest]
        # the places the first-listed release held, in order, each given the newest's next
        places = [i for i, releases in rows if releases == rows[0][1]][:len(kept)]
        out.update({i: None for i, _ in rows})
        out.update(zip(places, kept))
    return out


def _names_release(directory: str) -> bool:
    """Whether ``directory`` names a release (``v1.7``) or a moving copy (``dev``)."""
    return bool(_RELEASE.match(directory)) or directory.lower() in _MOVING


def _newness(releases: tuple[str, ...]) -> tuple[int, tuple[int, ...]]:
    """How new a release's directories say it is: a moving name (``dev``) newest, then by
    version number."""
    if any(p.lower() in _MOVING for p in releases):
        return 1, ()
    return 0, tuple(int(n) for p in releases for n in re.findall(r"\d+", p))
