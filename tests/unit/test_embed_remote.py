"""RemoteEmbedder against a real HTTP server on loopback (tests/embedserver.py)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from coderecalld import config
from coderecalld.config import EmbeddingConfig, Secret
from coderecalld.embed.remote import MAX_ATTEMPTS, RemoteEmbedder, endpoint_url, remote_model_id
from coderecalld.errors import ConfigError, EmbedError
from coderecalld.index.generation import read_embedding_config, write_embedding_config
from embedserver import EmbedServer


def _length_vector(text: str) -> list[float]:
    return [float(len(text)), 1.0, 0.0, 0.0]


def _open(srv: EmbedServer, tmp_path: Path, kind: str = "openai", sleeps: list | None = None,
          **kw: object) -> RemoteEmbedder:
    cfg = EmbeddingConfig(endpoint=srv.url, endpoint_kind=kind, model="acme-embed", **kw)
    out = [] if sleeps is None else sleeps
    return RemoteEmbedder(cfg, tmp_path / "models", backoff_base_s=0.25, sleep=out.append)


def test_openai_request_body_auth_and_rows_ordered_by_index(tmp_path: Path) -> None:
    with EmbedServer(vector=_length_vector, reverse=True) as srv:
        emb = _open(srv, tmp_path, api_key=Secret("sk-test-123"))
        vectors = emb.embed(["abc", "a"])
    probe, call = srv.seen
    assert probe.body == {"model": "acme-embed", "input": ["probe"]}
    assert call.path == "/v1/embeddings"
    assert call.body == {"model": "acme-embed", "input": ["a", "abc"]}  # sorted by length
    assert call.headers["Authorization"] == "Bearer sk-test-123"
    # [3, 1, 0, 0] / sqrt(10) for "abc", [1, 1, 0, 0] / sqrt(2) for "a": rows came reversed.
    assert np.allclose(vectors[0], [3 / math.sqrt(10), 1 / math.sqrt(10), 0, 0])
    assert np.allclose(vectors[1], [1 / math.sqrt(2), 1 / math.sqrt(2), 0, 0])
    assert vectors[0].dtype == np.float32 and emb.dim == 4


def test_tei_request_body_and_no_auth_header_without_key(tmp_path: Path) -> None:
    with EmbedServer(vector=_length_vector) as srv:
        emb = _open(srv, tmp_path, kind="tei")
        vector = emb.embed_query("hello")
    assert [s.path for s in srv.seen] == ["/embed", "/embed"]
    assert srv.seen[1].body == {"inputs": ["hello"]}
    assert "Authorization" not in srv.seen[1].headers
    assert np.allclose(vector, np.array([5, 1, 0, 0]) / math.sqrt(26))


def test_batches_split_by_batch_size(tmp_path: Path) -> None:
    with EmbedServer(vector=_length_vector) as srv:
        emb = _open(srv, tmp_path, batch_size=2)
        emb.embed(["eeeee", "a", "ccc", "bb", "dddd"])
    assert [s.body["input"] for s in srv.seen[1:]] == [["a", "bb"], ["ccc", "dddd"], ["eeeee"]]


def test_retries_503_with_backoff_then_succeeds(tmp_path: Path) -> None:
    sleeps: list[float] = []
    with EmbedServer(vector=_length_vector) as srv:
        emb = _open(srv, tmp_path, sleeps=sleeps)
        srv.fail_next += [(503, "overloaded", {}), (503, "overloaded", {})]
        vector = emb.embed(["xy"])[0]
    assert len(srv.seen) == 1 + 3
    assert sleeps == [0.25, 0.5]
    assert np.allclose(vector, np.array([2, 1, 0, 0]) / math.sqrt(5))


def test_429_retry_after_is_honoured(tmp_path: Path) -> None:
    sleeps: list[float] = []
    with EmbedServer(vector=_length_vector) as srv:
        emb = _open(srv, tmp_path, sleeps=sleeps)
        srv.fail_next.append((429, "slow down", {"Retry-After": "3"}))
        emb.embed(["xy"])
    assert sleeps == [3.0]


def test_gives_up_after_max_attempts(tmp_path: Path) -> None:
    sleeps: list[float] = []
    with EmbedServer(vector=_length_vector) as srv:
        emb = _open(srv, tmp_path, sleeps=sleeps)
        srv.fail_next += [(502, "bad gateway", {})] * MAX_ATTEMPTS
        with pytest.raises(EmbedError, match=r"HTTP 502 .*bad gateway.*gave up after 5 attempts"):
            emb.embed(["xy"])
    assert len(srv.seen) == 1 + MAX_ATTEMPTS
    assert sleeps == [0.25, 0.5, 1.0, 2.0]


def test_401_fails_at_once_with_a_clear_message_and_no_key(tmp_path: Path) -> None:
    with EmbedServer(vector=_length_vector) as srv:
        srv.fail_next.append((401, '{"error": "invalid api key"}', {}))
        with pytest.raises(EmbedError) as info:
            _open(srv, tmp_path, api_key=Secret("sk-secret-999"))
    message = str(info.value)
    assert f"{srv.url}/v1/embeddings" in message and "HTTP 401" in message
    assert "invalid api key" in message and "check embedding.api_key" in message
    assert "sk-secret-999" not in message
    assert len(srv.seen) == 1


def test_refused_connection_is_retried_then_reported(tmp_path: Path) -> None:
    with EmbedServer() as srv:
        url = srv.url  # closed on exit: nothing listens there any more
    sleeps: list[float] = []
    cfg = EmbeddingConfig(endpoint=url, model="m")
    with pytest.raises(EmbedError, match="gave up after 5 attempts"):
        RemoteEmbedder(cfg, tmp_path, backoff_base_s=0.25, sleep=sleeps.append)
    assert len(sleeps) == MAX_ATTEMPTS - 1


def test_wrong_number_of_rows_is_an_error(tmp_path: Path) -> None:
    with EmbedServer(vector=_length_vector) as srv:
        emb = _open(srv, tmp_path, kind="tei")
        srv.fail_next.append((200, json.dumps([[1.0, 2.0]]), {}))
        with pytest.raises(EmbedError, match="expected 2 vectors of one size, got 1 rows"):
            emb.embed(["a", "b"])


def test_cached_text_makes_no_request_even_in_a_new_embedder(tmp_path: Path) -> None:
    with EmbedServer(vector=_length_vector) as srv:
        first = _open(srv, tmp_path).embed(["same text"])[0]
        assert len(srv.seen) == 2  # probe + one batch
        again = _open(srv, tmp_path)
        assert np.array_equal(again.embed(["same text", "same text"])[0], first)
    assert len(srv.seen) == 3  # only the second embedder's probe


def test_model_id_names_kind_model_host_and_cut(tmp_path: Path) -> None:
    with EmbedServer(vector=_length_vector) as srv:
        emb = _open(srv, tmp_path, kind="tei", dimensions=2)
        port = srv.url.rsplit(":", 1)[1]
        assert emb.model_id == f"remote:tei:acme-embed@127.0.0.1:{port}#dim2"
        assert emb.dim == 2
        assert np.allclose(emb.embed(["abc"])[0], np.array([3, 1]) / math.sqrt(10))


def test_endpoint_url_appends_the_kind_path_only_without_a_path() -> None:
    assert endpoint_url("http://tei:8080", "tei") == "http://tei:8080/embed"
    assert endpoint_url("https://api.example.com/", "openai") == "https://api.example.com/v1/embeddings"
    assert endpoint_url("https://x.example/openai/deployments/d/embeddings?v=1", "openai") == \
        "https://x.example/openai/deployments/d/embeddings?v=1"
    cfg = EmbeddingConfig(endpoint="https://user:pw@api.example.com/v1/embeddings", model="m")
    assert remote_model_id(cfg) == "remote:openai:m@api.example.com"


def test_config_keys_secret_and_validation(tmp_path: Path) -> None:
    toml = tmp_path / "c.toml"
    toml.write_text('[embedding]\nendpoint = "http://tei:8080"\nendpoint_kind = "tei"\ntimeout_s = 5\n')
    cfg = config.load(toml, env={"CODERECALL_EMBEDDING__API_KEY": "k-42"})
    assert (cfg.embedding.endpoint, cfg.embedding.endpoint_kind, cfg.embedding.timeout_s) == \
        ("http://tei:8080", "tei", 5.0)
    assert isinstance(cfg.embedding.api_key, Secret) and cfg.embedding.api_key == "k-42"
    assert "k-42" not in repr(cfg)
    write_embedding_config(tmp_path, cfg.embedding)
    assert "k-42" not in (tmp_path / "embedding.json").read_text()
    assert read_embedding_config(tmp_path).endpoint == "http://tei:8080"
    with pytest.raises(ConfigError, match="embedding.endpoint_kind: expected 'openai' or 'tei', got 'grpc'"):
        config.load(None, env={"CODERECALL_EMBEDDING__ENDPOINT_KIND": "grpc"})
    with pytest.raises(ConfigError, match="embedding.endpoint: expected an http"):
        config.load(None, env={"CODERECALL_EMBEDDING__ENDPOINT": "tei:8080"})
    with pytest.raises(ConfigError, match="embedding.timeout_s: must be > 0"):
        config.load(None, env={"CODERECALL_EMBEDDING__TIMEOUT_S": "0"})


def test_prefixes_go_before_queries_and_documents_and_name_the_space(tmp_path: Path) -> None:
    query_prefix = "Represent this query for searching relevant code: "
    with EmbedServer(vector=_length_vector) as srv:
        emb = _open(srv, tmp_path, query_prefix=query_prefix, document_prefix="passage: ")
        emb.embed(["def f(): pass"])
        query = emb.embed_query("where is f")
        plain = _open(srv, tmp_path / "plain", query_prefix=query_prefix)
    probe, documents, asked = srv.seen[:3]
    assert probe.body["input"] == [query_prefix + "probe"]
    assert documents.body["input"] == ["passage: def f(): pass"]
    assert asked.body["input"] == [query_prefix + "where is f"]
    # the vector is the prefixed text's (the server's vector is the text's length)
    n = len(query_prefix + "where is f")
    assert n == 60 and np.allclose(query, np.array([n, 1, 0, 0]) / math.sqrt(n ** 2 + 1))
    port = srv.url.rsplit(":", 1)[1]
    # a document prefix makes another vector space; a query prefix does not
    assert emb.model_id == f"remote:openai:acme-embed@127.0.0.1:{port}#doc" + \
        __import__("hashlib").sha256(b"passage: ").hexdigest()[:8]
    assert plain.model_id == f"remote:openai:acme-embed@127.0.0.1:{port}"


def test_prefixes_need_an_endpoint() -> None:
    for key in ("QUERY_PREFIX", "DOCUMENT_PREFIX"):
        with pytest.raises(ConfigError, match=f"embedding.{key.lower()}: applies to embedding.endpoint"):
            config.load(None, env={f"CODERECALL_EMBEDDING__{key}": "query: "})
    cfg = config.load(None, env={"CODERECALL_EMBEDDING__ENDPOINT": "http://tei:8080",
                                 "CODERECALL_EMBEDDING__QUERY_PREFIX": "query: "})
    assert cfg.embedding.query_prefix == "query: "
