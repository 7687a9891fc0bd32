"""Hypothesis fuzz: hostile request messages into every RPC through the servicer, and hostile
file contents through classify -> parse -> chunk -> redact. Zero internal errors allowed.

Request fuzz: every exception must be a domain error whose status is not INTERNAL (the one
table in ``server/errors.py``). Content fuzz: only ``CodeRecallError`` may escape (the
pipeline records those as a failed file); anything else is a crash. Runs are derandomized,
so the counts in ``FUZZ_COUNTS`` are the same on every run.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterator

import grpc
import pytest
from coderecall.v1 import coderecall_pb2 as pb
from coderecalld import parse
from coderecalld.auth import LOCAL, Principal, Role
from coderecalld.config import Config, EmbeddingConfig, IndexConfig, RepoConfig
from coderecalld.daemon import Daemon
from coderecalld.errors import CodeRecallError
from coderecalld.files import classify, redact
from coderecalld.index import chunk
from coderecalld.server.auth import as_principal
from coderecalld.server.errors import status_for
from coderecalld.server.servicer import CodeRecallServicer
from gitfixtures import GitRepo
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

#: Examples per RPC and per language; ``FUZZ_SCALE=10`` in the environment runs 10x as many.
SCALE = int(os.environ.get("FUZZ_SCALE", "1"))
REQUEST_EXAMPLES = 120 * SCALE
CONTENT_EXAMPLES = 30 * SCALE
FUZZ_COUNTS: Counter[str] = Counter()
FUZZ = settings(max_examples=REQUEST_EXAMPLES, deadline=None, derandomize=True, database=None,
                suppress_health_check=list(HealthCheck))

SOURCE = '''\
import os


class Store:
    """Keeps things."""

    def save(self, item):
        return os.path.join("a", item)


def load(name):
    return Store().save(name)
'''


@pytest.fixture(scope="module")
def servicer(tmp_path_factory: pytest.TempPathFactory) -> Iterator[CodeRecallServicer]:
    tmp = tmp_path_factory.mktemp("fuzz")
    git = GitRepo(tmp / "src")
    git.commit({"pkg/store.py": SOURCE, "README.md": "# fuzz\n", ".env": "A=1\n"}, "initial")
    cfg = Config(data_dir=tmp / "data", repos=(RepoConfig("acme/app", str(git.path), "main"),
                                               RepoConfig("other", str(git.path), "main")),
                 embedding=EmbeddingConfig(enabled=False), index=IndexConfig(sync_jitter_s=0))
    daemon = Daemon.open(cfg)
    for repo in cfg.repos:
        daemon.jobs.run_now(repo.name)
    try:
        yield CodeRecallServicer(daemon.service)
    finally:
        daemon.close()


PRINCIPALS = st.sampled_from([LOCAL, Principal("r", ("acme/*",), Role.READER),
                              Principal("none", ("x/*",), Role.READER)])
HOSTILE = st.sampled_from([
    "", " ", "\0", "acme/app", "other", "acme/*", "*", "..", "../..", "/etc/passwd", "%2e%2e/x",
    "pkg/store.py", "pkg/../pkg/store.py", "pkg\\store.py", ".env", "pkg/store.py\0", "a" * 10_001,
    "Store", "save", "os.path.join", "Store.save", "\u202e\ufeff", "' OR 1=1 --", "name:*",
])
TEXT = st.one_of(HOSTILE, st.text(st.characters(exclude_categories=("Cs",)), max_size=300),
                 st.text(max_size=12_000, alphabet="a./*\0%").map(lambda s: s))
INT32 = st.one_of(st.integers(-(2**31), 2**31 - 1), st.integers(-3, 1000))
BOOL = st.booleans()

REQUESTS = {
    "Search": st.builds(pb.SearchRequest, query=TEXT, limit=INT32, repo=TEXT, language=TEXT,
                        path_prefix=TEXT),
    "FindSymbols": st.builds(pb.FindSymbolsRequest, name=TEXT, repo=TEXT, prefix=BOOL, limit=INT32),
    "FindCallers": st.builds(pb.FindCallersRequest, name=TEXT, repo=TEXT, limit=INT32),
    "FindCallees": st.builds(pb.FindCalleesRequest, name=TEXT, repo=TEXT, limit=INT32),
    "GetCard": st.builds(pb.GetCardRequest, name=TEXT, repo=TEXT, budget_tokens=INT32),
    "ReadSymbol": st.builds(pb.ReadSymbolRequest, repo=TEXT, path=TEXT, start_line=INT32,
                            end_line=INT32),
    "ListRepos": st.just(pb.ListReposRequest()),
    "SyncRepo": st.builds(pb.SyncRepoRequest, name=TEXT),
}


@pytest.mark.parametrize("method", list(REQUESTS))
def test_fuzz_requests_never_internal(servicer: CodeRecallServicer, method: str) -> None:
    @FUZZ
    @given(request=REQUESTS[method], principal=PRINCIPALS)
    def run(request, principal) -> None:
        if method == "SyncRepo" and principal is LOCAL and request.name in ("acme/app", "other"):
            return  # a real sync per example would be slow and is tested elsewhere
        FUZZ_COUNTS[f"request:{method}"] += 1
        with as_principal(principal):
            try:
                getattr(servicer, method)(request, None)
            except Exception as exc:  # noqa: BLE001 - classifying every escape is the test
                code, _ = status_for(exc)
                assert code is not grpc.StatusCode.INTERNAL, repr(exc)

    run()
    assert FUZZ_COUNTS[f"request:{method}"] >= (1 if method == "ListRepos" else REQUEST_EXAMPLES // 2)


TOKENS = ["def ", "class ", "fn ", "func ", "function ", "(", ")", "{", "}", "[", "]", ":", ";",
          "\n", "    ", "\t", "=", "=>", "->", "'", '"', '"""', "`", "/*", "*/", "//", "#", "@",
          "x", "Foo", "self", "return ", "import ", "<T>", "\\", "\0", "\u00e9", "\ufeff",
          "-----BEGIN RSA PRIVATE KEY-----\n", "AKIA" + "Q3EGRT5YJ2CANAR1", "password = 'x1y2z3w4v5'"]
CONTENT = st.one_of(
    st.lists(st.sampled_from(TOKENS), max_size=200).map(lambda t: "".join(t).encode("utf-8")),
    st.text(max_size=2000).map(lambda s: s.encode("utf-8", "surrogatepass")),
    st.binary(max_size=2000),
)
EXTENSIONS = {lang: next(iter(ext for ext in ("py", "js", "ts", "tsx", "go", "rs", "java", "c", "cpp",
                                                "cs", "rb", "php", "kt", "scala", "swift", "sh")
                               if parse.language_for(f"f.{ext}") == lang), "txt")
              for lang in parse.supported_languages()}


@pytest.mark.parametrize("language", [*parse.supported_languages(), "text"])
def test_fuzz_contents_parse_chunk_redact(language: str) -> None:
    path = f"src/f.{EXTENSIONS.get(language, 'md')}"

    @settings(FUZZ, max_examples=CONTENT_EXAMPLES)
    @given(blob=CONTENT)
    def run(blob: bytes) -> None:
        FUZZ_COUNTS["content"] += 1
        verdict = classify.classify(path, blob, None if language == "text" else language, 1_000_000)
        try:
            if verdict.kind == "code":
                parsed = parse.symbols(blob, verdict.language)
                items = chunk.chunks("r", path, blob, parsed)
            elif verdict.kind == "text":
                items = chunk.text_chunks("r", path, blob)
            else:
                return
        except CodeRecallError:
            return  # recorded by the pipeline as a failed file, not a crash
        clean, _ = redact.chunks(items)
        assert len(clean) == len(items)
        assert all(c.text.count("\n") == i.text.count("\n") for c, i in zip(clean, items))

    run()


def test_fuzz_counts_reported() -> None:
    """Runs last in this module: the totals the issue asks to report."""
    requests = sum(v for k, v in FUZZ_COUNTS.items() if k.startswith("request:"))
    if not requests:
        pytest.skip("run with the fuzz tests above")
    assert requests >= 5 * REQUEST_EXAMPLES // 2 and FUZZ_COUNTS["content"] > 0
    print(f"fuzz inputs: {requests} requests, {FUZZ_COUNTS['content']} file contents; "
          f"{dict(sorted(FUZZ_COUNTS.items()))}")
