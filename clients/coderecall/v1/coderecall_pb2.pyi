from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class SymbolHit(_message.Message):
    __slots__ = ("repo", "path", "language", "kind", "name", "qualified_name", "parent", "signature", "docstring", "start_line", "end_line", "start_byte", "end_byte", "commit", "score", "match", "snippet", "source", "id", "role")
    REPO_FIELD_NUMBER: _ClassVar[int]
    PATH_FIELD_NUMBER: _ClassVar[int]
    LANGUAGE_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    QUALIFIED_NAME_FIELD_NUMBER: _ClassVar[int]
    PARENT_FIELD_NUMBER: _ClassVar[int]
    SIGNATURE_FIELD_NUMBER: _ClassVar[int]
    DOCSTRING_FIELD_NUMBER: _ClassVar[int]
    START_LINE_FIELD_NUMBER: _ClassVar[int]
    END_LINE_FIELD_NUMBER: _ClassVar[int]
    START_BYTE_FIELD_NUMBER: _ClassVar[int]
    END_BYTE_FIELD_NUMBER: _ClassVar[int]
    COMMIT_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    MATCH_FIELD_NUMBER: _ClassVar[int]
    SNIPPET_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    repo: str
    path: str
    language: str
    kind: str
    name: str
    qualified_name: str
    parent: str
    signature: str
    docstring: str
    start_line: int
    end_line: int
    start_byte: int
    end_byte: int
    commit: str
    score: float
    match: str
    snippet: str
    source: str
    id: str
    role: str
    def __init__(self, repo: _Optional[str] = ..., path: _Optional[str] = ..., language: _Optional[str] = ..., kind: _Optional[str] = ..., name: _Optional[str] = ..., qualified_name: _Optional[str] = ..., parent: _Optional[str] = ..., signature: _Optional[str] = ..., docstring: _Optional[str] = ..., start_line: _Optional[int] = ..., end_line: _Optional[int] = ..., start_byte: _Optional[int] = ..., end_byte: _Optional[int] = ..., commit: _Optional[str] = ..., score: _Optional[float] = ..., match: _Optional[str] = ..., snippet: _Optional[str] = ..., source: _Optional[str] = ..., id: _Optional[str] = ..., role: _Optional[str] = ...) -> None: ...

class CallSite(_message.Message):
    __slots__ = ("repo", "path", "line", "caller", "callee", "commit", "text", "confidence", "target", "role")
    REPO_FIELD_NUMBER: _ClassVar[int]
    PATH_FIELD_NUMBER: _ClassVar[int]
    LINE_FIELD_NUMBER: _ClassVar[int]
    CALLER_FIELD_NUMBER: _ClassVar[int]
    CALLEE_FIELD_NUMBER: _ClassVar[int]
    COMMIT_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    CONFIDENCE_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    repo: str
    path: str
    line: int
    caller: str
    callee: str
    commit: str
    text: str
    confidence: str
    target: str
    role: str
    def __init__(self, repo: _Optional[str] = ..., path: _Optional[str] = ..., line: _Optional[int] = ..., caller: _Optional[str] = ..., callee: _Optional[str] = ..., commit: _Optional[str] = ..., text: _Optional[str] = ..., confidence: _Optional[str] = ..., target: _Optional[str] = ..., role: _Optional[str] = ...) -> None: ...

class LanguageCount(_message.Message):
    __slots__ = ("language", "files")
    LANGUAGE_FIELD_NUMBER: _ClassVar[int]
    FILES_FIELD_NUMBER: _ClassVar[int]
    language: str
    files: int
    def __init__(self, language: _Optional[str] = ..., files: _Optional[int] = ...) -> None: ...

class Card(_message.Message):
    __slots__ = ("repo", "path", "kind", "qualified_name", "module", "signature", "summary", "start_line", "end_line", "commit", "bases", "init_params", "methods", "raises", "siblings", "callers", "file_purpose", "repo_purpose", "truncated", "callers_total", "others", "definitions_total", "siblings_total")
    REPO_FIELD_NUMBER: _ClassVar[int]
    PATH_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    QUALIFIED_NAME_FIELD_NUMBER: _ClassVar[int]
    MODULE_FIELD_NUMBER: _ClassVar[int]
    SIGNATURE_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    START_LINE_FIELD_NUMBER: _ClassVar[int]
    END_LINE_FIELD_NUMBER: _ClassVar[int]
    COMMIT_FIELD_NUMBER: _ClassVar[int]
    BASES_FIELD_NUMBER: _ClassVar[int]
    INIT_PARAMS_FIELD_NUMBER: _ClassVar[int]
    METHODS_FIELD_NUMBER: _ClassVar[int]
    RAISES_FIELD_NUMBER: _ClassVar[int]
    SIBLINGS_FIELD_NUMBER: _ClassVar[int]
    CALLERS_FIELD_NUMBER: _ClassVar[int]
    FILE_PURPOSE_FIELD_NUMBER: _ClassVar[int]
    REPO_PURPOSE_FIELD_NUMBER: _ClassVar[int]
    TRUNCATED_FIELD_NUMBER: _ClassVar[int]
    CALLERS_TOTAL_FIELD_NUMBER: _ClassVar[int]
    OTHERS_FIELD_NUMBER: _ClassVar[int]
    DEFINITIONS_TOTAL_FIELD_NUMBER: _ClassVar[int]
    SIBLINGS_TOTAL_FIELD_NUMBER: _ClassVar[int]
    repo: str
    path: str
    kind: str
    qualified_name: str
    module: str
    signature: str
    summary: str
    start_line: int
    end_line: int
    commit: str
    bases: _containers.RepeatedScalarFieldContainer[str]
    init_params: _containers.RepeatedScalarFieldContainer[str]
    methods: _containers.RepeatedScalarFieldContainer[str]
    raises: _containers.RepeatedScalarFieldContainer[str]
    siblings: _containers.RepeatedScalarFieldContainer[str]
    callers: _containers.RepeatedCompositeFieldContainer[CallSite]
    file_purpose: str
    repo_purpose: str
    truncated: bool
    callers_total: int
    others: _containers.RepeatedScalarFieldContainer[str]
    definitions_total: int
    siblings_total: int
    def __init__(self, repo: _Optional[str] = ..., path: _Optional[str] = ..., kind: _Optional[str] = ..., qualified_name: _Optional[str] = ..., module: _Optional[str] = ..., signature: _Optional[str] = ..., summary: _Optional[str] = ..., start_line: _Optional[int] = ..., end_line: _Optional[int] = ..., commit: _Optional[str] = ..., bases: _Optional[_Iterable[str]] = ..., init_params: _Optional[_Iterable[str]] = ..., methods: _Optional[_Iterable[str]] = ..., raises: _Optional[_Iterable[str]] = ..., siblings: _Optional[_Iterable[str]] = ..., callers: _Optional[_Iterable[_Union[CallSite, _Mapping]]] = ..., file_purpose: _Optional[str] = ..., repo_purpose: _Optional[str] = ..., truncated: _Optional[bool] = ..., callers_total: _Optional[int] = ..., others: _Optional[_Iterable[str]] = ..., definitions_total: _Optional[int] = ..., siblings_total: _Optional[int] = ...) -> None: ...

class RepoInfo(_message.Message):
    __slots__ = ("name", "url", "branch", "indexed_commit", "files", "symbols", "chunks", "last_sync_unix_s", "state", "error", "purpose", "languages", "packages", "pending_vectors", "lag_s", "files_failed")
    NAME_FIELD_NUMBER: _ClassVar[int]
    URL_FIELD_NUMBER: _ClassVar[int]
    BRANCH_FIELD_NUMBER: _ClassVar[int]
    INDEXED_COMMIT_FIELD_NUMBER: _ClassVar[int]
    FILES_FIELD_NUMBER: _ClassVar[int]
    SYMBOLS_FIELD_NUMBER: _ClassVar[int]
    CHUNKS_FIELD_NUMBER: _ClassVar[int]
    LAST_SYNC_UNIX_S_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    PURPOSE_FIELD_NUMBER: _ClassVar[int]
    LANGUAGES_FIELD_NUMBER: _ClassVar[int]
    PACKAGES_FIELD_NUMBER: _ClassVar[int]
    PENDING_VECTORS_FIELD_NUMBER: _ClassVar[int]
    LAG_S_FIELD_NUMBER: _ClassVar[int]
    FILES_FAILED_FIELD_NUMBER: _ClassVar[int]
    name: str
    url: str
    branch: str
    indexed_commit: str
    files: int
    symbols: int
    chunks: int
    last_sync_unix_s: float
    state: str
    error: str
    purpose: str
    languages: _containers.RepeatedCompositeFieldContainer[LanguageCount]
    packages: _containers.RepeatedScalarFieldContainer[str]
    pending_vectors: int
    lag_s: float
    files_failed: int
    def __init__(self, name: _Optional[str] = ..., url: _Optional[str] = ..., branch: _Optional[str] = ..., indexed_commit: _Optional[str] = ..., files: _Optional[int] = ..., symbols: _Optional[int] = ..., chunks: _Optional[int] = ..., last_sync_unix_s: _Optional[float] = ..., state: _Optional[str] = ..., error: _Optional[str] = ..., purpose: _Optional[str] = ..., languages: _Optional[_Iterable[_Union[LanguageCount, _Mapping]]] = ..., packages: _Optional[_Iterable[str]] = ..., pending_vectors: _Optional[int] = ..., lag_s: _Optional[float] = ..., files_failed: _Optional[int] = ...) -> None: ...

class SearchRequest(_message.Message):
    __slots__ = ("query", "limit", "repo", "language", "path_prefix", "path_glob", "kind", "mode", "session", "roles")
    QUERY_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    REPO_FIELD_NUMBER: _ClassVar[int]
    LANGUAGE_FIELD_NUMBER: _ClassVar[int]
    PATH_PREFIX_FIELD_NUMBER: _ClassVar[int]
    PATH_GLOB_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    SESSION_FIELD_NUMBER: _ClassVar[int]
    ROLES_FIELD_NUMBER: _ClassVar[int]
    query: str
    limit: int
    repo: str
    language: str
    path_prefix: str
    path_glob: str
    kind: str
    mode: str
    session: str
    roles: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, query: _Optional[str] = ..., limit: _Optional[int] = ..., repo: _Optional[str] = ..., language: _Optional[str] = ..., path_prefix: _Optional[str] = ..., path_glob: _Optional[str] = ..., kind: _Optional[str] = ..., mode: _Optional[str] = ..., session: _Optional[str] = ..., roles: _Optional[_Iterable[str]] = ...) -> None: ...

class SearchResponse(_message.Message):
    __slots__ = ("hits", "low_confidence", "confidence_reason")
    HITS_FIELD_NUMBER: _ClassVar[int]
    LOW_CONFIDENCE_FIELD_NUMBER: _ClassVar[int]
    CONFIDENCE_REASON_FIELD_NUMBER: _ClassVar[int]
    hits: _containers.RepeatedCompositeFieldContainer[SymbolHit]
    low_confidence: bool
    confidence_reason: str
    def __init__(self, hits: _Optional[_Iterable[_Union[SymbolHit, _Mapping]]] = ..., low_confidence: _Optional[bool] = ..., confidence_reason: _Optional[str] = ...) -> None: ...

class LocateRequest(_message.Message):
    __slots__ = ("query", "limit", "repo", "roles", "mode", "functions")
    QUERY_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    REPO_FIELD_NUMBER: _ClassVar[int]
    ROLES_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    FUNCTIONS_FIELD_NUMBER: _ClassVar[int]
    query: str
    limit: int
    repo: str
    roles: _containers.RepeatedScalarFieldContainer[str]
    mode: str
    functions: int
    def __init__(self, query: _Optional[str] = ..., limit: _Optional[int] = ..., repo: _Optional[str] = ..., roles: _Optional[_Iterable[str]] = ..., mode: _Optional[str] = ..., functions: _Optional[int] = ...) -> None: ...

class LocatedFunction(_message.Message):
    __slots__ = ("qualified_name", "start_line", "end_line", "score")
    QUALIFIED_NAME_FIELD_NUMBER: _ClassVar[int]
    START_LINE_FIELD_NUMBER: _ClassVar[int]
    END_LINE_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    qualified_name: str
    start_line: int
    end_line: int
    score: float
    def __init__(self, qualified_name: _Optional[str] = ..., start_line: _Optional[int] = ..., end_line: _Optional[int] = ..., score: _Optional[float] = ...) -> None: ...

class LocatedFile(_message.Message):
    __slots__ = ("repo", "path", "role", "score", "functions", "commit")
    REPO_FIELD_NUMBER: _ClassVar[int]
    PATH_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    FUNCTIONS_FIELD_NUMBER: _ClassVar[int]
    COMMIT_FIELD_NUMBER: _ClassVar[int]
    repo: str
    path: str
    role: str
    score: float
    functions: _containers.RepeatedCompositeFieldContainer[LocatedFunction]
    commit: str
    def __init__(self, repo: _Optional[str] = ..., path: _Optional[str] = ..., role: _Optional[str] = ..., score: _Optional[float] = ..., functions: _Optional[_Iterable[_Union[LocatedFunction, _Mapping]]] = ..., commit: _Optional[str] = ...) -> None: ...

class LocateResponse(_message.Message):
    __slots__ = ("files", "low_confidence", "confidence_reason", "shape")
    FILES_FIELD_NUMBER: _ClassVar[int]
    LOW_CONFIDENCE_FIELD_NUMBER: _ClassVar[int]
    CONFIDENCE_REASON_FIELD_NUMBER: _ClassVar[int]
    SHAPE_FIELD_NUMBER: _ClassVar[int]
    files: _containers.RepeatedCompositeFieldContainer[LocatedFile]
    low_confidence: bool
    confidence_reason: str
    shape: str
    def __init__(self, files: _Optional[_Iterable[_Union[LocatedFile, _Mapping]]] = ..., low_confidence: _Optional[bool] = ..., confidence_reason: _Optional[str] = ..., shape: _Optional[str] = ...) -> None: ...

class FindSymbolsRequest(_message.Message):
    __slots__ = ("name", "repo", "prefix", "limit", "fuzzy", "session", "offset")
    NAME_FIELD_NUMBER: _ClassVar[int]
    REPO_FIELD_NUMBER: _ClassVar[int]
    PREFIX_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    FUZZY_FIELD_NUMBER: _ClassVar[int]
    SESSION_FIELD_NUMBER: _ClassVar[int]
    OFFSET_FIELD_NUMBER: _ClassVar[int]
    name: str
    repo: str
    prefix: bool
    limit: int
    fuzzy: bool
    session: str
    offset: int
    def __init__(self, name: _Optional[str] = ..., repo: _Optional[str] = ..., prefix: _Optional[bool] = ..., limit: _Optional[int] = ..., fuzzy: _Optional[bool] = ..., session: _Optional[str] = ..., offset: _Optional[int] = ...) -> None: ...

class FindSymbolsResponse(_message.Message):
    __slots__ = ("hits", "total", "truncated", "total_is_lower_bound")
    HITS_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    TRUNCATED_FIELD_NUMBER: _ClassVar[int]
    TOTAL_IS_LOWER_BOUND_FIELD_NUMBER: _ClassVar[int]
    hits: _containers.RepeatedCompositeFieldContainer[SymbolHit]
    total: int
    truncated: bool
    total_is_lower_bound: bool
    def __init__(self, hits: _Optional[_Iterable[_Union[SymbolHit, _Mapping]]] = ..., total: _Optional[int] = ..., truncated: _Optional[bool] = ..., total_is_lower_bound: _Optional[bool] = ...) -> None: ...

class FindCallersRequest(_message.Message):
    __slots__ = ("name", "repo", "limit", "offset")
    NAME_FIELD_NUMBER: _ClassVar[int]
    REPO_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    OFFSET_FIELD_NUMBER: _ClassVar[int]
    name: str
    repo: str
    limit: int
    offset: int
    def __init__(self, name: _Optional[str] = ..., repo: _Optional[str] = ..., limit: _Optional[int] = ..., offset: _Optional[int] = ...) -> None: ...

class FindCallersResponse(_message.Message):
    __slots__ = ("sites", "total", "truncated", "omitted_other_type", "hierarchy_cut", "by_confidence")
    SITES_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    TRUNCATED_FIELD_NUMBER: _ClassVar[int]
    OMITTED_OTHER_TYPE_FIELD_NUMBER: _ClassVar[int]
    HIERARCHY_CUT_FIELD_NUMBER: _ClassVar[int]
    BY_CONFIDENCE_FIELD_NUMBER: _ClassVar[int]
    sites: _containers.RepeatedCompositeFieldContainer[CallSite]
    total: int
    truncated: bool
    omitted_other_type: int
    hierarchy_cut: bool
    by_confidence: _containers.RepeatedCompositeFieldContainer[ConfidenceCount]
    def __init__(self, sites: _Optional[_Iterable[_Union[CallSite, _Mapping]]] = ..., total: _Optional[int] = ..., truncated: _Optional[bool] = ..., omitted_other_type: _Optional[int] = ..., hierarchy_cut: _Optional[bool] = ..., by_confidence: _Optional[_Iterable[_Union[ConfidenceCount, _Mapping]]] = ...) -> None: ...

class ConfidenceCount(_message.Message):
    __slots__ = ("confidence", "sites")
    CONFIDENCE_FIELD_NUMBER: _ClassVar[int]
    SITES_FIELD_NUMBER: _ClassVar[int]
    confidence: str
    sites: int
    def __init__(self, confidence: _Optional[str] = ..., sites: _Optional[int] = ...) -> None: ...

class FindCalleesRequest(_message.Message):
    __slots__ = ("name", "repo", "limit", "offset")
    NAME_FIELD_NUMBER: _ClassVar[int]
    REPO_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    OFFSET_FIELD_NUMBER: _ClassVar[int]
    name: str
    repo: str
    limit: int
    offset: int
    def __init__(self, name: _Optional[str] = ..., repo: _Optional[str] = ..., limit: _Optional[int] = ..., offset: _Optional[int] = ...) -> None: ...

class FindCalleesResponse(_message.Message):
    __slots__ = ("sites", "total", "truncated")
    SITES_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    TRUNCATED_FIELD_NUMBER: _ClassVar[int]
    sites: _containers.RepeatedCompositeFieldContainer[CallSite]
    total: int
    truncated: bool
    def __init__(self, sites: _Optional[_Iterable[_Union[CallSite, _Mapping]]] = ..., total: _Optional[int] = ..., truncated: _Optional[bool] = ...) -> None: ...

class GetCardRequest(_message.Message):
    __slots__ = ("name", "repo", "budget_tokens")
    NAME_FIELD_NUMBER: _ClassVar[int]
    REPO_FIELD_NUMBER: _ClassVar[int]
    BUDGET_TOKENS_FIELD_NUMBER: _ClassVar[int]
    name: str
    repo: str
    budget_tokens: int
    def __init__(self, name: _Optional[str] = ..., repo: _Optional[str] = ..., budget_tokens: _Optional[int] = ...) -> None: ...

class ReadSymbolRequest(_message.Message):
    __slots__ = ("repo", "path", "start_line", "end_line")
    REPO_FIELD_NUMBER: _ClassVar[int]
    PATH_FIELD_NUMBER: _ClassVar[int]
    START_LINE_FIELD_NUMBER: _ClassVar[int]
    END_LINE_FIELD_NUMBER: _ClassVar[int]
    repo: str
    path: str
    start_line: int
    end_line: int
    def __init__(self, repo: _Optional[str] = ..., path: _Optional[str] = ..., start_line: _Optional[int] = ..., end_line: _Optional[int] = ...) -> None: ...

class ReadSymbolResponse(_message.Message):
    __slots__ = ("repo", "path", "commit", "start_line", "end_line", "text")
    REPO_FIELD_NUMBER: _ClassVar[int]
    PATH_FIELD_NUMBER: _ClassVar[int]
    COMMIT_FIELD_NUMBER: _ClassVar[int]
    START_LINE_FIELD_NUMBER: _ClassVar[int]
    END_LINE_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    repo: str
    path: str
    commit: str
    start_line: int
    end_line: int
    text: str
    def __init__(self, repo: _Optional[str] = ..., path: _Optional[str] = ..., commit: _Optional[str] = ..., start_line: _Optional[int] = ..., end_line: _Optional[int] = ..., text: _Optional[str] = ...) -> None: ...

class ListReposRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListReposResponse(_message.Message):
    __slots__ = ("repos",)
    REPOS_FIELD_NUMBER: _ClassVar[int]
    repos: _containers.RepeatedCompositeFieldContainer[RepoInfo]
    def __init__(self, repos: _Optional[_Iterable[_Union[RepoInfo, _Mapping]]] = ...) -> None: ...

class SyncRepoRequest(_message.Message):
    __slots__ = ("name",)
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    def __init__(self, name: _Optional[str] = ...) -> None: ...

class AnalyzeImpactRequest(_message.Message):
    __slots__ = ("name", "repo", "depth", "limit")
    NAME_FIELD_NUMBER: _ClassVar[int]
    REPO_FIELD_NUMBER: _ClassVar[int]
    DEPTH_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    name: str
    repo: str
    depth: int
    limit: int
    def __init__(self, name: _Optional[str] = ..., repo: _Optional[str] = ..., depth: _Optional[int] = ..., limit: _Optional[int] = ...) -> None: ...

class ImpactNode(_message.Message):
    __slots__ = ("site", "depth", "children")
    SITE_FIELD_NUMBER: _ClassVar[int]
    DEPTH_FIELD_NUMBER: _ClassVar[int]
    CHILDREN_FIELD_NUMBER: _ClassVar[int]
    site: CallSite
    depth: int
    children: _containers.RepeatedCompositeFieldContainer[ImpactNode]
    def __init__(self, site: _Optional[_Union[CallSite, _Mapping]] = ..., depth: _Optional[int] = ..., children: _Optional[_Iterable[_Union[ImpactNode, _Mapping]]] = ...) -> None: ...

class AnalyzeImpactResponse(_message.Message):
    __slots__ = ("name", "callers", "nodes", "repos_touched", "files_touched", "truncated", "cut")
    NAME_FIELD_NUMBER: _ClassVar[int]
    CALLERS_FIELD_NUMBER: _ClassVar[int]
    NODES_FIELD_NUMBER: _ClassVar[int]
    REPOS_TOUCHED_FIELD_NUMBER: _ClassVar[int]
    FILES_TOUCHED_FIELD_NUMBER: _ClassVar[int]
    TRUNCATED_FIELD_NUMBER: _ClassVar[int]
    CUT_FIELD_NUMBER: _ClassVar[int]
    name: str
    callers: _containers.RepeatedCompositeFieldContainer[ImpactNode]
    nodes: int
    repos_touched: int
    files_touched: int
    truncated: bool
    cut: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, name: _Optional[str] = ..., callers: _Optional[_Iterable[_Union[ImpactNode, _Mapping]]] = ..., nodes: _Optional[int] = ..., repos_touched: _Optional[int] = ..., files_touched: _Optional[int] = ..., truncated: _Optional[bool] = ..., cut: _Optional[_Iterable[str]] = ...) -> None: ...

class IndexOverlayRequest(_message.Message):
    __slots__ = ("repo", "path", "content", "session", "ttl_s")
    REPO_FIELD_NUMBER: _ClassVar[int]
    PATH_FIELD_NUMBER: _ClassVar[int]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    SESSION_FIELD_NUMBER: _ClassVar[int]
    TTL_S_FIELD_NUMBER: _ClassVar[int]
    repo: str
    path: str
    content: bytes
    session: str
    ttl_s: int
    def __init__(self, repo: _Optional[str] = ..., path: _Optional[str] = ..., content: _Optional[bytes] = ..., session: _Optional[str] = ..., ttl_s: _Optional[int] = ...) -> None: ...

class IndexOverlayResponse(_message.Message):
    __slots__ = ("repo", "path", "session", "symbols", "chunks", "expires_unix_s", "skipped")
    REPO_FIELD_NUMBER: _ClassVar[int]
    PATH_FIELD_NUMBER: _ClassVar[int]
    SESSION_FIELD_NUMBER: _ClassVar[int]
    SYMBOLS_FIELD_NUMBER: _ClassVar[int]
    CHUNKS_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_UNIX_S_FIELD_NUMBER: _ClassVar[int]
    SKIPPED_FIELD_NUMBER: _ClassVar[int]
    repo: str
    path: str
    session: str
    symbols: int
    chunks: int
    expires_unix_s: float
    skipped: str
    def __init__(self, repo: _Optional[str] = ..., path: _Optional[str] = ..., session: _Optional[str] = ..., symbols: _Optional[int] = ..., chunks: _Optional[int] = ..., expires_unix_s: _Optional[float] = ..., skipped: _Optional[str] = ...) -> None: ...

class AskRequest(_message.Message):
    __slots__ = ("question", "repo", "limit")
    QUESTION_FIELD_NUMBER: _ClassVar[int]
    REPO_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    question: str
    repo: str
    limit: int
    def __init__(self, question: _Optional[str] = ..., repo: _Optional[str] = ..., limit: _Optional[int] = ...) -> None: ...

class Citation(_message.Message):
    __slots__ = ("id", "repo", "path", "start_line", "end_line", "qualified_name")
    ID_FIELD_NUMBER: _ClassVar[int]
    REPO_FIELD_NUMBER: _ClassVar[int]
    PATH_FIELD_NUMBER: _ClassVar[int]
    START_LINE_FIELD_NUMBER: _ClassVar[int]
    END_LINE_FIELD_NUMBER: _ClassVar[int]
    QUALIFIED_NAME_FIELD_NUMBER: _ClassVar[int]
    id: str
    repo: str
    path: str
    start_line: int
    end_line: int
    qualified_name: str
    def __init__(self, id: _Optional[str] = ..., repo: _Optional[str] = ..., path: _Optional[str] = ..., start_line: _Optional[int] = ..., end_line: _Optional[int] = ..., qualified_name: _Optional[str] = ...) -> None: ...

class AskResponse(_message.Message):
    __slots__ = ("status", "answer", "citations", "evidence", "dropped_citations", "model")
    STATUS_FIELD_NUMBER: _ClassVar[int]
    ANSWER_FIELD_NUMBER: _ClassVar[int]
    CITATIONS_FIELD_NUMBER: _ClassVar[int]
    EVIDENCE_FIELD_NUMBER: _ClassVar[int]
    DROPPED_CITATIONS_FIELD_NUMBER: _ClassVar[int]
    MODEL_FIELD_NUMBER: _ClassVar[int]
    status: str
    answer: str
    citations: _containers.RepeatedCompositeFieldContainer[Citation]
    evidence: _containers.RepeatedCompositeFieldContainer[SymbolHit]
    dropped_citations: int
    model: str
    def __init__(self, status: _Optional[str] = ..., answer: _Optional[str] = ..., citations: _Optional[_Iterable[_Union[Citation, _Mapping]]] = ..., evidence: _Optional[_Iterable[_Union[SymbolHit, _Mapping]]] = ..., dropped_citations: _Optional[int] = ..., model: _Optional[str] = ...) -> None: ...

class WatchProgressRequest(_message.Message):
    __slots__ = ("repo", "once")
    REPO_FIELD_NUMBER: _ClassVar[int]
    ONCE_FIELD_NUMBER: _ClassVar[int]
    repo: str
    once: bool
    def __init__(self, repo: _Optional[str] = ..., once: _Optional[bool] = ...) -> None: ...

class IndexProgress(_message.Message):
    __slots__ = ("repo", "state", "phase", "commit", "files_done", "files_total", "chunks_done", "pending_vectors", "started_unix_s", "updated_unix_s", "error", "vectors_done", "eta_s", "phase_started_unix_s")
    REPO_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    COMMIT_FIELD_NUMBER: _ClassVar[int]
    FILES_DONE_FIELD_NUMBER: _ClassVar[int]
    FILES_TOTAL_FIELD_NUMBER: _ClassVar[int]
    CHUNKS_DONE_FIELD_NUMBER: _ClassVar[int]
    PENDING_VECTORS_FIELD_NUMBER: _ClassVar[int]
    STARTED_UNIX_S_FIELD_NUMBER: _ClassVar[int]
    UPDATED_UNIX_S_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    VECTORS_DONE_FIELD_NUMBER: _ClassVar[int]
    ETA_S_FIELD_NUMBER: _ClassVar[int]
    PHASE_STARTED_UNIX_S_FIELD_NUMBER: _ClassVar[int]
    repo: str
    state: str
    phase: str
    commit: str
    files_done: int
    files_total: int
    chunks_done: int
    pending_vectors: int
    started_unix_s: float
    updated_unix_s: float
    error: str
    vectors_done: int
    eta_s: float
    phase_started_unix_s: float
    def __init__(self, repo: _Optional[str] = ..., state: _Optional[str] = ..., phase: _Optional[str] = ..., commit: _Optional[str] = ..., files_done: _Optional[int] = ..., files_total: _Optional[int] = ..., chunks_done: _Optional[int] = ..., pending_vectors: _Optional[int] = ..., started_unix_s: _Optional[float] = ..., updated_unix_s: _Optional[float] = ..., error: _Optional[str] = ..., vectors_done: _Optional[int] = ..., eta_s: _Optional[float] = ..., phase_started_unix_s: _Optional[float] = ...) -> None: ...
