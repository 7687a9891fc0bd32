"""``Client``: a blocking gRPC client for coderecalld returning plain dataclasses."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import fields
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

import grpc

from coderecall import _cancel
from coderecall._errors import (TOO_LARGE_PREFIX, CancelledError, InvalidArgumentError, NotFoundError,
                                PermissionDeniedError, from_rpc_error)
from coderecall._types import (
    Answer,
    CallSite,
    Card,
    Citation,
    Impact,
    ImpactNode,
    IndexProgress,
    LocatedFile,
    LocatedFiles,
    LocatedFunction,
    OverlayStatus,
    Page,
    RepoInfo,
    SearchResults,
    SourceText,
    SymbolHit,
)
from coderecall.v1 import coderecall_pb2 as pb
from coderecall.v1 import coderecall_pb2_grpc as pb_grpc

DEFAULT_ADDR = "127.0.0.1:50551"
#: A Python property's decorator line, or a JS/TS getter's signature.
_PROPERTY_LINE = re.compile(r"^\s*@(?:[\w.]+\.)?(?:property|cached_property|setter|getter)\b", re.MULTILINE)
_GETTER = re.compile(r"^(?:(?:public|private|protected|static|override)\s+)*get\s+[#\w$]")

_T = TypeVar("_T")


def _role_list(role: str | Sequence[str]) -> list[str]:
    """Role names from ``"test"``, ``"docs,example"`` or a sequence."""
    names = role.split(",") if isinstance(role, str) else list(role)
    return [n.strip() for n in names if n.strip()]


def _from_pb(message: Any, result_type: type[_T]) -> _T:
    # Result types mirror the proto messages field for field (tests/unit/test_convert.py).
    return result_type(**{f.name: getattr(message, f.name) for f in fields(result_type)})  # type: ignore[arg-type]


def _repo_from_pb(message: Any) -> RepoInfo:
    values = {f.name: getattr(message, f.name) for f in fields(RepoInfo)}
    values["languages"] = tuple((c.language, c.files) for c in message.languages)
    values["packages"] = tuple(message.packages)
    return RepoInfo(**values)


def _impact_node_from_pb(message: Any) -> ImpactNode:
    return ImpactNode(_from_pb(message.site, CallSite), message.depth,
                      tuple(_impact_node_from_pb(c) for c in message.children))


def _card_from_pb(message: Any) -> Card:
    values = {f.name: getattr(message, f.name) for f in fields(Card)}
    for name in ("bases", "init_params", "methods", "raises", "siblings", "others"):
        values[name] = tuple(values[name])
    values["callers"] = tuple(_from_pb(c, CallSite) for c in message.callers)
    return Card(**values)


class Client:
    """A connection to one coderecalld.

    Every method blocks for at most ``timeout_s`` seconds and raises a
    ``coderecall.CodeRecallError`` subclass on failure (``NotFoundError``,
    ``InvalidArgumentError``, ``UnavailableError`` when the daemon cannot be reached,
    ``DeadlineExceededError``, ...); a call under a ``Cancellation`` (its ``run``) ends
    with ``CancelledError`` when that is cancelled. A ``limit`` of 0 asks for the
    server's default; an empty ``repo`` means every repository in scope. Thread-safe; use
    as a context manager or call ``close()``.

    Args:
        addr: ``host:port`` of the daemon.
        timeout_s: per-call deadline in seconds.
        token: bearer token sent as ``authorization: Bearer <token>`` on every call
            (``UnauthenticatedError`` when the daemon requires one and it is missing/wrong).
        tls_ca_file: PEM CA bundle to verify the daemon's certificate; setting it (or a
            client certificate) switches the channel to TLS.
        tls_cert_file, tls_key_file: PEM client certificate and key, for a daemon that
            requires mutual TLS.
    """

    def __init__(self, addr: str = DEFAULT_ADDR, timeout_s: float = 30.0, *, token: str = "",
                 tls_ca_file: str = "", tls_cert_file: str = "", tls_key_file: str = "") -> None:
        self.addr = addr
        self.timeout_s = timeout_s
        self._metadata = (("authorization", f"Bearer {token}"),) if token else ()
        if tls_ca_file or tls_cert_file:
            credentials = grpc.ssl_channel_credentials(
                root_certificates=_read(tls_ca_file), private_key=_read(tls_key_file),
                certificate_chain=_read(tls_cert_file))
            self._channel = grpc.secure_channel(addr, credentials)
        else:
            self._channel = grpc.insecure_channel(addr)
        self._stub = pb_grpc.CodeRecallStub(self._channel)

    def __repr__(self) -> str:  # never shows the token
        return f"Client(addr={self.addr!r}, timeout_s={self.timeout_s!r})"

    def __enter__(self) -> Client:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """Close the channel; further calls fail."""
        self._channel.close()

    def search(
        self,
        query: str,
        limit: int = 10,
        repo: str = "",
        language: str = "",
        path_prefix: str = "",
        *,
        path_glob: str = "",
        kind: str = "",
        mode: str = "",
        session: str = "",
        role: str | Sequence[str] = "",
    ) -> SearchResults:
        """Hybrid search for symbols matching ``query``, best first, at most ``limit``.

        An identifier in ``query`` that names a symbol exactly is pinned first.
        ``language``, ``kind``, ``path_prefix`` and ``path_glob`` (fnmatch, ``*`` spans
        ``/``) narrow the results when non-empty. ``mode`` ``"dense"`` or ``"sparse"``
        asks one retriever alone (``""``/``"hybrid"``: both, fused). ``session`` also
        searches that session's uncommitted files (``index_overlay``; ``source ==
        "overlay"``), which replace their committed versions. ``role`` keeps only files of
        these roles (``"test"``, ``"docs,example"`` or a list; roles: source, test, docs,
        example, generated, vendored, config). Any query shape works: a question,
        identifiers, a string literal, a trace, a pasted issue (up to 500,000
        characters). The answer is a list with ``low_confidence`` and ``confidence_reason``
        attributes.
        """
        request = self._request(pb.SearchRequest,
            query=query, limit=limit, repo=repo, language=language, path_prefix=path_prefix,
            path_glob=path_glob, kind=kind, mode=mode, session=session, roles=_role_list(role),
        )
        response = self._call(self._stub.Search, request)
        return SearchResults([_from_pb(h, SymbolHit) for h in response.hits],
                             response.low_confidence, response.confidence_reason)

    def locate(self, query: str, limit: int = 10, repo: str = "", *,
               role: str | Sequence[str] = "", mode: str = "", functions: int = 0) -> LocatedFiles:
        """The files ``query`` is about (any shape: a question, identifiers, a pasted issue
        or a trace), best first, at most ``limit`` (0: 10, at most 100), each with its best
        ``functions`` functions (0: the daemon's default, 5). ``role`` and ``mode`` as in
        ``search``. The answer is a list of ``LocatedFile`` with ``low_confidence``,
        ``confidence_reason`` and ``shape`` attributes."""
        request = self._request(pb.LocateRequest, query=query, limit=limit, repo=repo,
                                roles=_role_list(role), mode=mode, functions=functions)
        response = self._call(self._stub.Locate, request)
        return LocatedFiles(
            [LocatedFile(f.repo, f.path, f.role, f.score,
                         tuple(_from_pb(fn, LocatedFunction) for fn in f.functions), f.commit)
             for f in response.files],
            response.low_confidence, response.confidence_reason, response.shape)

    def find_symbols(
        self, name: str, repo: str = "", prefix: bool = False, limit: int = 50, *,
        fuzzy: bool = False, session: str = "", offset: int = 0,
    ) -> Page:
        """Symbols whose name or qualified name equals ``name`` (case-insensitive), or
        starts with it when ``prefix``; at most ``limit`` (max 500) from ``offset`` on.
        ``fuzzy`` also finds substrings
        and small typos (``isEligableForRefund`` -> ``isEligibleForRefund``), ranked exact
        (with ``reexport``, ``scoped``, ``inherited``: the base's method a ``Class.method``
        names, and ``as_called``: what the calls written so resolve to, ``xr.concat``)
        > case_insensitive > prefix > substring > fuzzy (``hit.match``). ``session`` adds
        that session's uncommitted files. A ``Page`` of ``SymbolHit``: ``total``,
        ``truncated``, ``next_offset``, ``total_is_lower_bound`` (more match than ``total``
        counts, on no page: a longer name or prefix lists them)."""
        request = self._request(pb.FindSymbolsRequest, name=name, repo=repo, prefix=prefix, limit=limit,
                                fuzzy=fuzzy, session=session, offset=offset)
        response = self._call(self._stub.FindSymbols, request)
        page = _page([_from_pb(h, SymbolHit) for h in response.hits], response, offset)
        page.total_is_lower_bound = response.total_is_lower_bound
        return page

    def find_callers(self, name: str, repo: str = "", limit: int = 100, *, offset: int = 0) -> Page:
        """Call sites of ``name`` (bare ``send``, ``Client.send`` or module-qualified
        ``httpx.Client.send``) across every repository in scope: ``confidence ==
        "resolved"`` ones first (tied to the definition through imports, its module or its
        class, or the receiver's type), then ``"inherited"`` (called on a subclass),
        ``"override"`` (called through a base's method), ``"reference"`` (no call: named as a
        value there, a callback passed or stored) and ``"name_only"`` ones (only the
        last dotted segment matched, the receiver's type unknown). At most ``limit`` (max
        500) from ``offset`` on: a ``Page`` of ``CallSite`` whose ``total`` counts them all
        (``truncated``: ask again with ``offset=page.next_offset``) and whose
        ``omitted_other_type`` counts the calls left out as calls on another type (or in a
        repository that calls nothing of the definition's package);
        ``hierarchy_cut``: the daemon's lookups ran out before it followed the name's
        re-export aliases and class hierarchy whole (calls on the classes not reached are
        ``name_only``; calls of the methods it overrides may be missing);
        ``by_confidence``: the whole answer's call sites per confidence, most certain first
        (empty from an older daemon)."""
        request = self._request(pb.FindCallersRequest, name=name, repo=repo, limit=limit, offset=offset)
        response = self._call(self._stub.FindCallers, request)
        page = _page([_from_pb(s, CallSite) for s in response.sites], response, offset)
        page.omitted_other_type = response.omitted_other_type
        page.hierarchy_cut = response.hierarchy_cut
        page.by_confidence = {c.confidence: c.sites for c in response.by_confidence}
        return page

    def find_callees(self, name: str, repo: str = "", limit: int = 100, *, offset: int = 0) -> Page:
        """The calls made by the symbol ``name`` (named as in ``find_callers``), in source
        order; ``target`` is what each call resolves to (``""`` when only its name is known).
        A ``Page`` of ``CallSite``, as ``find_callers``."""
        request = self._request(pb.FindCalleesRequest, name=name, repo=repo, limit=limit, offset=offset)
        response = self._call(self._stub.FindCallees, request)
        return _page([_from_pb(s, CallSite) for s in response.sites], response, offset)

    def get_card(self, name: str, repo: str = "", budget_tokens: int = 800) -> Card:
        """The developer card of symbol ``name`` (named as in ``find_callers``): kind,
        signature, summary, constructor and methods of a class, raises, siblings, real call
        sites, file and repo purpose; trimmed to about ``budget_tokens`` tokens (4
        characters each). ``NotFoundError`` when no symbol in scope is named so."""
        request = self._request(pb.GetCardRequest, name=name, repo=repo, budget_tokens=budget_tokens)
        return _card_from_pb(self._call(self._stub.GetCard, request))

    def read_symbol(self, repo: str, path: str, start_line: int, end_line: int = 0) -> SourceText:
        """Lines ``start_line..end_line`` (1-based, inclusive; ``end_line`` 0 = to the end
        of the file) of ``path`` at the indexed commit."""
        request = self._request(pb.ReadSymbolRequest, 
            repo=repo, path=path, start_line=start_line, end_line=end_line
        )
        return _from_pb(self._call(self._stub.ReadSymbol, request), SourceText)

    def is_property(self, hit: SymbolHit) -> bool:
        """Whether the definition ``hit`` (from ``find_symbols``) is a property, read and not
        called, so that no call sites of it mean nothing: a Python one's decorator (read from
        its first four lines with ``read_symbol``), a JS/TS getter's signature. False when its
        source cannot be read (a note only: never raises ``NotFoundError`` or
        ``PermissionDeniedError``)."""
        if _GETTER.match(hit.signature):
            return True
        if hit.language != "python":
            return False
        try:
            head = self.read_symbol(hit.repo, hit.path, hit.start_line, min(hit.start_line + 3, hit.end_line))
        except (NotFoundError, InvalidArgumentError, PermissionDeniedError):
            return False
        return bool(_PROPERTY_LINE.search(head.text))

    def list_repos(self) -> list[RepoInfo]:
        """Every configured repository with its index state."""
        response = self._call(self._stub.ListRepos, pb.ListReposRequest())
        return [_repo_from_pb(r) for r in response.repos]

    def sync_repo(self, name: str) -> RepoInfo:
        """Fetch and re-index repository ``name`` now; its status afterwards. May take
        longer than a query: raise ``timeout_s`` for large repositories."""
        return _repo_from_pb(self._call(self._stub.SyncRepo, self._request(pb.SyncRepoRequest, name=name)))

    def watch_progress(self, repo: str = "", once: bool = False) -> Iterator[IndexProgress]:
        """Index-run progress: first the current state of ``repo`` (every repository in
        scope when ``""``), then one message per change (at most about 10 per second per
        repository) until the iterator's ``close()`` (safe from another thread) or the
        daemon stops. With ``once`` only
        the current states, within ``timeout_s``; without it the stream has no deadline.
        Errors (``NotFoundError`` for an unknown repo, ...) are raised by the iteration."""
        request = self._request(pb.WatchProgressRequest, repo=repo, once=once)
        call = self._stub.WatchProgress(request, timeout=self.timeout_s if once else None,
                                        metadata=self._metadata)
        return _ProgressStream(call, self.addr)

    def analyze_impact(self, name: str, repo: str = "", depth: int = 0, limit: int = 0) -> Impact:
        """Transitive callers of ``name`` (named as in ``find_callers``) as a tree:
        ``depth`` levels (0 = server default 3, max 10), at most ``limit`` nodes (0 = 200,
        max 2000), callers only in ``repo`` when given. Each node holds its call site
        (line, ``confidence``) and its own callers; recursion is cut."""
        request = self._request(pb.AnalyzeImpactRequest, name=name, repo=repo, depth=depth, limit=limit)
        response = self._call(self._stub.AnalyzeImpact, request)
        values = {f.name: getattr(response, f.name) for f in fields(Impact)}
        values["callers"] = tuple(_impact_node_from_pb(n) for n in response.callers)
        values["cut"] = tuple(response.cut)
        return Impact(**values)

    def index_overlay(self, repo: str, path: str, content: bytes, session: str,
                      ttl_s: int = 0) -> OverlayStatus:
        """Index ``content`` (a working-tree file's bytes) as ``repo``/``path`` for
        ``session`` only (1..128 of ``[A-Za-z0-9._-]``), until ``ttl_s`` seconds pass (0 =
        3600, max 86400). ``search``/``find_symbols`` with that session see it and no longer
        see the committed version. Empty ``content`` removes it. The session is private to
        the caller's token. ``InvalidArgumentError`` for content over the daemon's
        ``index.max_file_bytes`` (also when it exceeds the daemon's request size bound)."""
        request = self._request(pb.IndexOverlayRequest, repo=repo, path=path, content=content,
                                session=session, ttl_s=ttl_s)
        try:
            return _from_pb(self._call(self._stub.IndexOverlay, request), OverlayStatus)
        except InvalidArgumentError as exc:
            if not exc.details.startswith(TOO_LARGE_PREFIX):
                raise
            # The daemon's gRPC bound sits above index.max_file_bytes, so a request it
            # refuses unread holds a file the daemon would refuse anyway: say which limit.
            sizes = exc.details[len(TOO_LARGE_PREFIX):].split(" (", 1)[0]
            raise InvalidArgumentError(
                "INVALID_ARGUMENT", f"content: {len(content)} bytes, over the daemon's "
                f"index.max_file_bytes (the request was refused unread: {sizes})",
                self.addr) from None

    def ask(self, question: str, repo: str = "", limit: int = 0) -> Answer:
        """Evidence for ``question`` (``limit`` chunks, 0 = 8, max 50) and, if the daemon
        has a chat model configured, an answer citing only that evidence (``status``
        ``answered``); otherwise ``no_model``, ``insufficient_evidence`` or ``model_error``
        with the evidence. May take up to the daemon's ``ask.timeout_s``."""
        response = self._call(self._stub.Ask, self._request(pb.AskRequest, question=question,
                                                            repo=repo, limit=limit))
        values = {f.name: getattr(response, f.name) for f in fields(Answer)}
        values["citations"] = tuple(_from_pb(c, Citation) for c in response.citations)
        values["evidence"] = tuple(_from_pb(h, SymbolHit) for h in response.evidence)
        return Answer(**values)

    def _request(self, message: Callable[..., _T], **values: Any) -> _T:
        """Build a request message; a value protobuf cannot hold (a limit past 2**31,
        a wrong type) is the caller's error, raised before anything is sent."""
        try:
            return message(**values)
        except (ValueError, TypeError) as exc:
            raise InvalidArgumentError("INVALID_ARGUMENT", f"bad request field: {exc}",
                                       self.addr) from None

    def _call(self, method: Callable[..., _T], request: Any) -> _T:
        cancellation = _cancel.current()
        try:
            if cancellation is None:
                return method(request, timeout=self.timeout_s, metadata=self._metadata)
            # a future, which another thread's cancel() ends; a blocking call it could not
            return cancellation.result(lambda: method.future(  # type: ignore[attr-defined]
                request, timeout=self.timeout_s, metadata=self._metadata))
        except grpc.FutureCancelledError:
            raise CancelledError("CANCELLED", "the call was cancelled (Cancellation.cancel)",
                                 self.addr) from None
        except grpc.RpcError as exc:
            raise from_rpc_error(exc, self.addr) from None


class _ProgressStream(Iterator[IndexProgress]):
    """The iterator ``Client.watch_progress`` returns; ``close()`` (from any thread, or
    leaving a ``with`` block) ends the stream on the daemon too."""

    def __init__(self, call: Any, addr: str) -> None:
        self._call = call
        self._addr = addr
        self._closed = False

    def __next__(self) -> IndexProgress:
        try:
            return _from_pb(next(self._call), IndexProgress)
        except grpc.RpcError as exc:
            if self._closed and exc.code() is grpc.StatusCode.CANCELLED:
                raise StopIteration from None
            raise from_rpc_error(exc, self._addr) from None

    def close(self) -> None:
        """Cancel the stream; a ``next()`` in progress ends with ``StopIteration``."""
        self._closed = True
        self._call.cancel()

    def __enter__(self) -> _ProgressStream:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _page(items: list[Any], response: Any, offset: int) -> Page:
    """``items`` as a ``Page`` of ``response.total``. A daemon older than paging sends 0
    with items (a paging daemon never does): they are then all there is, as far as the
    client can tell."""
    return Page(items, response.total or (offset + len(items) if items else 0), offset)


def _read(path: str) -> bytes | None:
    return Path(path).read_bytes() if path else None
