"""Queries are embedded side by side (``embedding.query_sessions``), with the real model:
concurrent calls overlap and each gets its own text's vector."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest
from coderecalld.config import EmbeddingConfig
from coderecalld.embed.local import Embedder

QUERIES = [f"how to {verb} a {noun}" for verb in ("parse", "sort", "merge", "open", "hash")
           for noun in ("json file", "list of dicts", "url", "tar archive", "config", "date string")]


@pytest.fixture(scope="module")
def embedder(tmp_path_factory: pytest.TempPathFactory) -> Embedder:
    return Embedder(EmbeddingConfig(query_sessions=2), tmp_path_factory.mktemp("emb"))


def test_two_queries_run_at_once(embedder: Embedder) -> None:
    """Each session waits at a 2-party barrier before it embeds: with one session (or one
    lock) the second call could never arrive and the barrier would time out."""
    barrier = threading.Barrier(2, timeout=20)
    sessions = [embedder._query_pool.get(timeout=5) for _ in range(2)]  # Empty: fewer than 2
    originals = [s.query_embed for s in sessions]
    for session, original in zip(sessions, originals):
        session.query_embed = lambda texts, original=original: (barrier.wait(), original(texts))[1]
        embedder._query_pool.put(session)
    try:
        with ThreadPoolExecutor(2) as pool:
            got = list(pool.map(embedder.embed_query, QUERIES[:2]))
    finally:
        for session in sessions:
            del session.query_embed
    assert not barrier.broken
    assert [v.shape for v in got] == [(384,), (384,)]


def test_concurrent_queries_get_their_own_vectors(embedder: Embedder, tmp_path: Path) -> None:
    one = Embedder(EmbeddingConfig(query_sessions=1), tmp_path)
    sequential = [one.embed_query(q) for q in QUERIES]
    with ThreadPoolExecutor(8) as pool:
        concurrent = list(pool.map(embedder.embed_query, QUERIES))
    for q, a, b in zip(QUERIES, sequential, concurrent):
        assert float(np.dot(a, b)) == pytest.approx(1.0, abs=1e-5), q
        assert float(np.linalg.norm(b)) == pytest.approx(1.0, abs=1e-4)
    # Distinct texts, distinct vectors: no call got another's answer.
    sims = np.stack(concurrent) @ np.stack(concurrent).T
    assert (sims[~np.eye(len(QUERIES), dtype=bool)] < 0.999).all()


def test_execution_providers_are_configuration(tmp_path: Path) -> None:
    """``embedding.providers`` reaches the ONNX runtime: the CPU provider named explicitly
    gives the default's vectors; one the installed runtime lacks (no GPU build here) is a
    clear start-up error naming what is available."""
    from coderecalld.errors import EmbedError

    cpu = Embedder(EmbeddingConfig(providers=("CPUExecutionProvider",), query_sessions=1), tmp_path / "cpu")
    default = Embedder(EmbeddingConfig(query_sessions=1), tmp_path / "default")
    assert float(np.dot(cpu.embed_query(QUERIES[0]), default.embed_query(QUERIES[0]))) == pytest.approx(1.0, abs=1e-6)
    assert cpu.model_id == default.model_id
    with pytest.raises(EmbedError, match=r"CUDAExecutionProvider is not available. Available providers: .*"
                                         r"CPUExecutionProvider"):
        Embedder(EmbeddingConfig(providers=("CUDAExecutionProvider",)), tmp_path / "gpu")
