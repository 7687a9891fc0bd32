"""Every conversion between ``coderecalld.records`` and ``coderecall.v1`` protobuf messages.

Records and messages share field names one to one (``tests/unit/test_convert.py`` checks
that the sets are equal), so each pair converts field by field, both directions.
Requests only decode: the daemon never builds a request.

Proto3 cannot tell an unset ``limit`` from 0, so 0 means "the domain's default": the
argument is left out of the call and ``CodeRecallApi``'s default applies. A negative
limit raises ``InvalidArgument``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import fields
from typing import Any, TypeVar

from google.protobuf.message import Message

from coderecall.v1 import coderecall_pb2 as pb
from coderecalld.errors import InvalidArgument
from coderecalld.progress import Progress
from coderecalld.records import (
    Answer,
    CallerHit,
    Card,
    Citation,
    FileHit,
    FunctionHit,
    Impact,
    ImpactNode,
    Located,
    OverlayStatus,
    RepoStatus,
    SourceText,
    SymbolHit,
)

_R = TypeVar("_R")
_M = TypeVar("_M", bound=Message)


def _to_pb(record: Any, message_type: type[_M]) -> _M:
    return message_type(**{f.name: getattr(record, f.name) for f in fields(record)})


def _from_pb(message: Message, record_type: type[_R]) -> _R:
    return record_type(**{f.name: getattr(message, f.name) for f in fields(record_type)})  # type: ignore[arg-type]


# --- records <-> messages ---------------------------------------------------------------


def symbol_hit_to_pb(hit: SymbolHit) -> pb.SymbolHit:
    """``SymbolHit`` record -> ``coderecall.v1.SymbolHit``."""
    return _to_pb(hit, pb.SymbolHit)


def symbol_hit_from_pb(message: pb.SymbolHit) -> SymbolHit:
    """``coderecall.v1.SymbolHit`` -> ``SymbolHit`` record."""
    return _from_pb(message, SymbolHit)


def caller_hit_to_pb(hit: CallerHit) -> pb.CallSite:
    """``CallerHit`` record -> ``coderecall.v1.CallSite``."""
    return _to_pb(hit, pb.CallSite)


def caller_hit_from_pb(message: pb.CallSite) -> CallerHit:
    """``coderecall.v1.CallSite`` -> ``CallerHit`` record."""
    return _from_pb(message, CallerHit)


def source_text_to_pb(source: SourceText) -> pb.ReadSymbolResponse:
    """``SourceText`` record -> ``coderecall.v1.ReadSymbolResponse``."""
    return _to_pb(source, pb.ReadSymbolResponse)


def source_text_from_pb(message: pb.ReadSymbolResponse) -> SourceText:
    """``coderecall.v1.ReadSymbolResponse`` -> ``SourceText`` record."""
    return _from_pb(message, SourceText)


def repo_status_to_pb(status: RepoStatus) -> pb.RepoInfo:
    """``RepoStatus`` record -> ``coderecall.v1.RepoInfo`` (languages as ``LanguageCount``)."""
    values = {f.name: getattr(status, f.name) for f in fields(status)}
    values["languages"] = [pb.LanguageCount(language=k, files=n) for k, n in status.languages]
    return pb.RepoInfo(**values)


def repo_status_from_pb(message: pb.RepoInfo) -> RepoStatus:
    """``coderecall.v1.RepoInfo`` -> ``RepoStatus`` record."""
    values = {f.name: getattr(message, f.name) for f in fields(RepoStatus)}
    values["languages"] = tuple((c.language, c.files) for c in message.languages)
    values["packages"] = tuple(message.packages)
    return RepoStatus(**values)


_CARD_LISTS = ("bases", "init_params", "methods", "raises", "siblings", "others")


def card_to_pb(card: Card) -> pb.Card:
    """``Card`` record -> ``coderecall.v1.Card``."""
    values = {f.name: getattr(card, f.name) for f in fields(card)}
    values["callers"] = [caller_hit_to_pb(c) for c in card.callers]
    return pb.Card(**values)


def card_from_pb(message: pb.Card) -> Card:
    """``coderecall.v1.Card`` -> ``Card`` record."""
    values = {f.name: getattr(message, f.name) for f in fields(Card)}
    values.update({name: tuple(getattr(message, name)) for name in _CARD_LISTS})
    values["callers"] = tuple(caller_hit_from_pb(c) for c in message.callers)
    return Card(**values)


# --- responses ----------------------------------------------------------------------------


def search_response(hits: Iterable[SymbolHit]) -> pb.SearchResponse:
    """Hits, in order, as a ``SearchResponse``, with ``low_confidence`` and its reason when
    ``hits`` carries them (a ``records.SearchHits``)."""
    return pb.SearchResponse(hits=[symbol_hit_to_pb(h) for h in hits],
                             low_confidence=bool(getattr(hits, "low_confidence", False)),
                             confidence_reason=str(getattr(hits, "confidence_reason", "")))


def _page(items: list[Any]) -> dict[str, Any]:
    """``total`` and ``truncated`` of a ``records.Page`` (a plain list: itself, complete)."""
    total = getattr(items, "total", None)
    return {"total": len(items) if total is None else total,
            "truncated": bool(getattr(items, "truncated", False))}


def find_symbols_response(hits: list[SymbolHit]) -> pb.FindSymbolsResponse:
    """Hits, in order, as a ``FindSymbolsResponse`` with the page's total (and whether it
    is a lower bound: ``records.Page.lower_bound``)."""
    return pb.FindSymbolsResponse(hits=[symbol_hit_to_pb(h) for h in hits], **_page(hits),
                                  total_is_lower_bound=bool(getattr(hits, "lower_bound", False)))


def find_callers_response(sites: list[CallerHit]) -> pb.FindCallersResponse:
    """Call sites, in order, as a ``FindCallersResponse`` with the page's total and the
    whole answer's count per confidence (``records.Page.by_confidence``)."""
    counts = [pb.ConfidenceCount(confidence=c, sites=n) for c, n in getattr(sites, "by_confidence", ())]
    return pb.FindCallersResponse(sites=[caller_hit_to_pb(s) for s in sites], **_page(sites),
                                  by_confidence=counts)


def find_callees_response(sites: list[CallerHit]) -> pb.FindCalleesResponse:
    """Call sites, in order, as a ``FindCalleesResponse`` with the page's total."""
    return pb.FindCalleesResponse(sites=[caller_hit_to_pb(s) for s in sites], **_page(sites))


def list_repos_response(repos: Iterable[RepoStatus]) -> pb.ListReposResponse:
    """Repository statuses, in order, as a ``ListReposResponse``."""
    return pb.ListReposResponse(repos=[repo_status_to_pb(r) for r in repos])


# --- requests -> CodeRecallApi keyword arguments -----------------------------------------


def _limit(value: int) -> dict[str, int]:
    if value < 0:
        raise InvalidArgument(f"limit must be >= 0 (0 means the server default), got {value}")
    return {"limit": value} if value else {}


def _set(**values: Any) -> dict[str, Any]:
    """The newer optional arguments that are set (an empty session, ``fuzzy`` false), so an
    implementation written before them still serves requests that do not use them."""
    return {k: v for k, v in values.items() if v}


def search_args(request: pb.SearchRequest) -> dict[str, Any]:
    """Keyword arguments for ``CodeRecallApi.search``. Raises ``InvalidArgument`` (limit < 0)."""
    return {
        "query": request.query,
        "repo": request.repo,
        "language": request.language,
        "path_prefix": request.path_prefix,
        "path_glob": request.path_glob,
        "kind": request.kind,
        "mode": request.mode,
        **_limit(request.limit),
        **_set(session=request.session, role=tuple(request.roles)),
    }


def locate_args(request: pb.LocateRequest) -> dict[str, Any]:
    """Keyword arguments for ``CodeRecallApi.locate``. Raises ``InvalidArgument`` (limit or
    functions < 0)."""
    if request.functions < 0:
        raise InvalidArgument(f"functions must be >= 0 (0 means the server default), got {request.functions}")
    return {
        "query": request.query,
        "repo": request.repo,
        "mode": request.mode,
        **_limit(request.limit),
        **_set(role=tuple(request.roles), functions=request.functions),
    }


def located_to_pb(located: Located) -> pb.LocateResponse:
    """``Located`` record -> ``coderecall.v1.LocateResponse``."""
    return pb.LocateResponse(
        files=[pb.LocatedFile(repo=f.repo, path=f.path, role=f.role, score=f.score, commit=f.commit,
                              functions=[_to_pb(fn, pb.LocatedFunction) for fn in f.functions])
               for f in located.files],
        low_confidence=located.low_confidence, confidence_reason=located.confidence_reason,
        shape=located.shape)


def located_from_pb(message: pb.LocateResponse) -> Located:
    """``coderecall.v1.LocateResponse`` -> ``Located`` record."""
    return Located(
        files=tuple(FileHit(repo=f.repo, path=f.path, role=f.role, score=f.score, commit=f.commit,
                            functions=tuple(_from_pb(fn, FunctionHit) for fn in f.functions))
                    for f in message.files),
        low_confidence=message.low_confidence, confidence_reason=message.confidence_reason,
        shape=message.shape)


def find_symbols_args(request: pb.FindSymbolsRequest) -> dict[str, Any]:
    """Keyword arguments for ``CodeRecallApi.find_symbols``. Raises ``InvalidArgument`` (limit < 0)."""
    return {
        "name": request.name,
        "repo": request.repo,
        "prefix": request.prefix,
        **_limit(request.limit),
        **_set(fuzzy=request.fuzzy, session=request.session, **_offset(request.offset)),
    }


def _offset(value: int) -> dict[str, int]:
    if value < 0:
        raise InvalidArgument(f"offset: {value} < 0 (0 is the first item)")
    return {"offset": value} if value else {}


def find_callers_args(request: pb.FindCallersRequest) -> dict[str, Any]:
    """Keyword arguments for ``CodeRecallApi.find_callers``. Raises ``InvalidArgument``
    (limit or offset < 0)."""
    return {"name": request.name, "repo": request.repo, **_limit(request.limit),
            **_offset(request.offset)}


def find_callees_args(request: pb.FindCalleesRequest) -> dict[str, Any]:
    """Keyword arguments for ``CodeRecallApi.find_callees``. Raises ``InvalidArgument``
    (limit or offset < 0)."""
    return {"name": request.name, "repo": request.repo, **_limit(request.limit),
            **_offset(request.offset)}


def get_card_args(request: pb.GetCardRequest) -> dict[str, Any]:
    """Keyword arguments for ``CodeRecallApi.get_card``; a budget of 0 is the domain's default.
    Raises ``InvalidArgument`` for a negative budget."""
    if request.budget_tokens < 0:
        raise InvalidArgument(f"budget_tokens must be >= 0, got {request.budget_tokens}")
    budget = {"budget_tokens": request.budget_tokens} if request.budget_tokens else {}
    return {"name": request.name, "repo": request.repo, **budget}


def read_symbol_args(request: pb.ReadSymbolRequest) -> dict[str, Any]:
    """Keyword arguments for ``CodeRecallApi.read_symbol`` (line checks are the domain's)."""
    return {
        "repo": request.repo,
        "path": request.path,
        "start_line": request.start_line,
        "end_line": request.end_line,
    }


def sync_repo_args(request: pb.SyncRepoRequest) -> dict[str, Any]:
    """Keyword arguments for ``CodeRecallApi.sync_repo``."""
    return {"name": request.name}


def progress_to_pb(progress: Progress) -> pb.IndexProgress:
    """``progress.Progress`` record -> ``coderecall.v1.IndexProgress``."""
    return _to_pb(progress, pb.IndexProgress)


def progress_from_pb(message: pb.IndexProgress) -> Progress:
    """``coderecall.v1.IndexProgress`` -> ``progress.Progress`` record."""
    return _from_pb(message, Progress)


def watch_progress_args(request: pb.WatchProgressRequest) -> dict[str, Any]:
    """Keyword arguments for ``CodeRecallApi.watch_progress``."""
    return {"repo": request.repo, "once": request.once}


# --- impact, overlays, answers --------------------------------------------------------------


def _nonnegative(field: str, value: int) -> dict[str, int]:
    if value < 0:
        raise InvalidArgument(f"{field} must be >= 0 (0 means the server default), got {value}")
    return {field: value} if value else {}


def analyze_impact_args(request: pb.AnalyzeImpactRequest) -> dict[str, Any]:
    """Keyword arguments for ``CodeRecallApi.analyze_impact``; 0 depth/limit is the domain's
    default. Raises ``InvalidArgument`` for a negative one."""
    return {"name": request.name, "repo": request.repo, **_nonnegative("depth", request.depth),
            **_limit(request.limit)}


def index_overlay_args(request: pb.IndexOverlayRequest) -> dict[str, Any]:
    """Keyword arguments for ``CodeRecallApi.index_overlay``. Raises ``InvalidArgument``
    for a negative TTL."""
    return {"repo": request.repo, "path": request.path, "content": bytes(request.content),
            "session": request.session, **_nonnegative("ttl_s", request.ttl_s)}


def ask_args(request: pb.AskRequest) -> dict[str, Any]:
    """Keyword arguments for ``CodeRecallApi.ask``. Raises ``InvalidArgument`` (limit < 0)."""
    return {"question": request.question, "repo": request.repo, **_limit(request.limit)}


def impact_node_to_pb(node: ImpactNode) -> pb.ImpactNode:
    """``ImpactNode`` record (and its subtree) -> ``coderecall.v1.ImpactNode``."""
    return pb.ImpactNode(site=caller_hit_to_pb(node.site), depth=node.depth,
                         children=[impact_node_to_pb(c) for c in node.children])


def impact_node_from_pb(message: pb.ImpactNode) -> ImpactNode:
    """``coderecall.v1.ImpactNode`` -> ``ImpactNode`` record (and its subtree)."""
    return ImpactNode(caller_hit_from_pb(message.site), message.depth,
                      tuple(impact_node_from_pb(c) for c in message.children))


def impact_to_pb(result: Impact) -> pb.AnalyzeImpactResponse:
    """``Impact`` record -> ``coderecall.v1.AnalyzeImpactResponse``."""
    values = {f.name: getattr(result, f.name) for f in fields(result)}
    values["callers"] = [impact_node_to_pb(n) for n in result.callers]
    return pb.AnalyzeImpactResponse(**values)


def impact_from_pb(message: pb.AnalyzeImpactResponse) -> Impact:
    """``coderecall.v1.AnalyzeImpactResponse`` -> ``Impact`` record."""
    values = {f.name: getattr(message, f.name) for f in fields(Impact)}
    values["callers"] = tuple(impact_node_from_pb(n) for n in message.callers)
    values["cut"] = tuple(message.cut)
    return Impact(**values)


def overlay_status_to_pb(status: OverlayStatus) -> pb.IndexOverlayResponse:
    """``OverlayStatus`` record -> ``coderecall.v1.IndexOverlayResponse``."""
    return _to_pb(status, pb.IndexOverlayResponse)


def overlay_status_from_pb(message: pb.IndexOverlayResponse) -> OverlayStatus:
    """``coderecall.v1.IndexOverlayResponse`` -> ``OverlayStatus`` record."""
    return _from_pb(message, OverlayStatus)


def answer_to_pb(result: Answer) -> pb.AskResponse:
    """``Answer`` record -> ``coderecall.v1.AskResponse``."""
    values = {f.name: getattr(result, f.name) for f in fields(result)}
    values["citations"] = [_to_pb(c, pb.Citation) for c in result.citations]
    values["evidence"] = [symbol_hit_to_pb(h) for h in result.evidence]
    return pb.AskResponse(**values)


def answer_from_pb(message: pb.AskResponse) -> Answer:
    """``coderecall.v1.AskResponse`` -> ``Answer`` record."""
    values = {f.name: getattr(message, f.name) for f in fields(Answer)}
    values["citations"] = tuple(_from_pb(c, Citation) for c in message.citations)
    values["evidence"] = tuple(symbol_hit_from_pb(h) for h in message.evidence)
    return Answer(**values)
