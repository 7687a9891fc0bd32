"""``coderecall.v1.CodeRecall`` servicer: decode the request, call ``CodeRecallApi``, encode.

Nothing else happens here. The caller's principal comes from ``auth.AuthInterceptor`` and
is passed to every domain call. Exceptions propagate to ``errors.ErrorInterceptor``, which
turns them into status codes.
"""

from __future__ import annotations

from collections.abc import Iterator

import grpc
from coderecall.v1 import coderecall_pb2 as pb
from coderecall.v1 import coderecall_pb2_grpc as pb_grpc

from coderecalld.query.api import CodeRecallApi
from coderecalld.server import convert
from coderecalld.server.auth import current_principal


class CodeRecallServicer(pb_grpc.CodeRecallServicer):
    """Serves ``coderecall.v1.CodeRecall`` over ``api``."""

    def __init__(self, api: CodeRecallApi) -> None:
        self._api = api

    def Search(self, request: pb.SearchRequest, context: grpc.ServicerContext) -> pb.SearchResponse:
        hits = self._api.search(**convert.search_args(request), principal=current_principal())
        return convert.search_response(hits)

    def Locate(self, request: pb.LocateRequest, context: grpc.ServicerContext) -> pb.LocateResponse:
        located = self._api.locate(**convert.locate_args(request), principal=current_principal())
        return convert.located_to_pb(located)

    def FindSymbols(
        self, request: pb.FindSymbolsRequest, context: grpc.ServicerContext
    ) -> pb.FindSymbolsResponse:
        hits = self._api.find_symbols(**convert.find_symbols_args(request),
                                       principal=current_principal())
        return convert.find_symbols_response(hits)

    def FindCallers(
        self, request: pb.FindCallersRequest, context: grpc.ServicerContext
    ) -> pb.FindCallersResponse:
        omitted: dict[str, int] = {}
        sites = self._api.find_callers(**convert.find_callers_args(request),
                                        principal=current_principal(), omitted=omitted)
        response = convert.find_callers_response(sites)
        response.omitted_other_type = omitted.get("other_type", 0)
        response.hierarchy_cut = bool(omitted.get("hierarchy_cut"))
        return response

    def FindCallees(
        self, request: pb.FindCalleesRequest, context: grpc.ServicerContext
    ) -> pb.FindCalleesResponse:
        sites = self._api.find_callees(**convert.find_callees_args(request),
                                        principal=current_principal())
        return convert.find_callees_response(sites)

    def GetCard(self, request: pb.GetCardRequest, context: grpc.ServicerContext) -> pb.Card:
        card = self._api.get_card(**convert.get_card_args(request), principal=current_principal())
        return convert.card_to_pb(card)

    def ReadSymbol(
        self, request: pb.ReadSymbolRequest, context: grpc.ServicerContext
    ) -> pb.ReadSymbolResponse:
        source = self._api.read_symbol(**convert.read_symbol_args(request), principal=current_principal())
        return convert.source_text_to_pb(source)

    def ListRepos(
        self, request: pb.ListReposRequest, context: grpc.ServicerContext
    ) -> pb.ListReposResponse:
        return convert.list_repos_response(self._api.list_repos(principal=current_principal()))

    def SyncRepo(self, request: pb.SyncRepoRequest, context: grpc.ServicerContext) -> pb.RepoInfo:
        status = self._api.sync_repo(**convert.sync_repo_args(request), principal=current_principal())
        return convert.repo_status_to_pb(status)

    def WatchProgress(
        self, request: pb.WatchProgressRequest, context: grpc.ServicerContext
    ) -> Iterator[pb.IndexProgress]:
        # Not a generator: the principal is read (and a bad repo refused) while the auth
        # interceptor's context is current; the stream runs after this returns.
        stream = self._api.watch_progress(**convert.watch_progress_args(request),
                                          principal=current_principal(), alive=context.is_active)
        cancel = getattr(stream, "cancel", None)
        if cancel is not None:
            context.add_callback(cancel)  # the client went away: end the stream now
        return (convert.progress_to_pb(p) for p in stream)

    def AnalyzeImpact(
        self, request: pb.AnalyzeImpactRequest, context: grpc.ServicerContext
    ) -> pb.AnalyzeImpactResponse:
        result = self._api.analyze_impact(**convert.analyze_impact_args(request),
                                          principal=current_principal())
        return convert.impact_to_pb(result)

    def IndexOverlay(
        self, request: pb.IndexOverlayRequest, context: grpc.ServicerContext
    ) -> pb.IndexOverlayResponse:
        status = self._api.index_overlay(**convert.index_overlay_args(request),
                                         principal=current_principal())
        return convert.overlay_status_to_pb(status)

    def Ask(self, request: pb.AskRequest, context: grpc.ServicerContext) -> pb.AskResponse:
        return convert.answer_to_pb(self._api.ask(**convert.ask_args(request), principal=current_principal()))
