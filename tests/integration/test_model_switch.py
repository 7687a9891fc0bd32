"""Conformance case 28 (embedding model switch) and the kind it stands for: any change of the
vector space (model, dimension, max length, sparse tokenizer) builds a new generation in the
background while queries keep using the old one with its own embedder, then switches at once.

Model A is the default all-MiniLM-L6-v2 (384-d). Model B is the same network truncated to
256 dimensions (``embedding.dimensions``): a real, different vector space of another size.
Model C keeps 384 dimensions but a 128-token max length: an equal dimension that must still
never share a collection with A.
"""

from __future__ import annotations

import threading
from dataclasses import replace
from pathlib import Path

import pytest
from coderecalld.config import Config, EmbeddingConfig, IndexConfig, RepoConfig
from coderecalld.daemon import Daemon
from coderecalld.embed import sparse
from coderecalld.store.edge import active_identity
from conformance_cases import build, expected

CASE28 = "28-embedding-model-switch"
REPO = "billing"
pytestmark = pytest.mark.slow


def _config(data: Path, src: Path, emb: EmbeddingConfig) -> Config:
    return Config(data_dir=data, repos=(RepoConfig(REPO, str(src)),), embedding=emb,
                  index=IndexConfig(sync_interval_s=3600, sync_jitter_s=0))


def _top1(running: Daemon, query: str) -> str:
    hits = [h for h in running.api.search(query, limit=5) if h.kind != "module"]
    return hits[0].name


def _dense_sizes(running: Daemon) -> set[int]:
    return {len(p.dense) if p.dense is not None else 0 for p in running.store.all_points(REPO)}


@pytest.fixture(scope="module")
def case(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    root = tmp_path_factory.mktemp("c28")
    build(CASE28, root)
    return root, expected(CASE28)["expect"]


def test_switch_to_another_dimension_keeps_old_answers_until_complete(case, tmp_path: Path) -> None:
    root, expect = case
    data, src = tmp_path / "data", root / "repo"
    model_a, model_b = EmbeddingConfig(), EmbeddingConfig(dimensions=256)
    searches = expect["after_switch"]["search"]

    a = Daemon.open(_config(data, src, model_a))
    try:
        assert a.rebuild is None
        a.jobs.run_now(REPO)
        id_a = a.store.identity
        assert (id_a.dense_dim, _dense_sizes(a)) == (384, {384})
        for s in searches:
            assert _top1(a, s["query"]) == s["top1"]
    finally:
        a.close()

    b = Daemon.open(_config(data, src, model_b))
    try:
        # Detected at start, not by Qdrant refusing an upsert: a rebuild, old still active.
        assert b.rebuild is not None and not b.rebuild.switched
        assert active_identity(data / "store") == id_a
        assert b.service.store.identity == id_a and b.service.embedder.dim == 384
        assert b.store.identity.dense_dim == 256 and b.store.collection != id_a.collection_name
        # Lexical pass only: the new generation still waits for vectors, so no switch, and
        # queries are embedded with model A for A's collection (no dimension error).
        b.jobs.run_now(REPO, with_dense=False)
        assert not b.rebuild.switched
        assert b.rebuild.blocker() == "2 points wait for dense vectors"  # 2 functions, no modules
        for s in searches:
            assert _top1(b, s["query"]) == s["top1"]
    finally:
        b.close()

    # A restart mid-rebuild resumes the new generation from its own ledger.
    b2 = Daemon.open(_config(data, src, model_b))
    try:
        assert b2.rebuild is not None and b2.service.store.identity == id_a
        report = b2.jobs.run_now(REPO)  # nothing changed in git; the dense backlog completes
        assert (report.files_changed, report.embedded) == (0, 2)
        assert b2.rebuild.switched
        assert active_identity(data / "store") == b2.store.identity
        assert b2.service.store is b2.store and b2.service.embedder is b2.embedder
        assert _dense_sizes(b2) == {256}
        models = {p.payload["embedding_model"] for p in b2.store.all_points(REPO)}
        assert models == {b2.embedder.model_id} and "#dim256" in b2.embedder.model_id
        for s in searches:
            assert _top1(b2, s["query"]) == s["top1"]
    finally:
        b2.close()

    # Once switched, a restart with model B is an ordinary start.
    b3 = Daemon.open(_config(data, src, model_b))
    try:
        assert b3.rebuild is None and b3.service.store.identity.dense_dim == 256
    finally:
        b3.close()


def test_same_dimension_other_model_is_a_new_collection_fully_reembedded(case, tmp_path: Path) -> None:
    root, _ = case
    data, src = tmp_path / "data", root / "repo"
    a = Daemon.open(_config(data, src, EmbeddingConfig()))
    try:
        a.jobs.run_now(REPO)
        id_a = a.store.identity
    finally:
        a.close()
    c = Daemon.open(_config(data, src, EmbeddingConfig(max_tokens=128)))
    try:
        assert c.rebuild is not None
        assert c.store.identity.dense_dim == id_a.dense_dim == 384
        assert c.store.collection != id_a.collection_name
        report = c.jobs.run_now(REPO)
        # Every chunk embedded again by model C: A's vectors are never reused across spaces.
        assert report.embedded == report.chunks == 2
        assert c.rebuild.switched
        assert {p.payload["embedding_model"] for p in c.store.all_points(REPO)} == {c.embedder.model_id}
    finally:
        c.close()


def test_queries_during_the_switch_never_fail(case, tmp_path: Path) -> None:
    root, expect = case
    data, src = tmp_path / "data", root / "repo"
    a = Daemon.open(_config(data, src, EmbeddingConfig()))
    try:
        a.jobs.run_now(REPO)
    finally:
        a.close()
    b = Daemon.open(_config(data, src, EmbeddingConfig(dimensions=256)))
    errors: list[BaseException] = []
    answers: list[str] = []
    stop = threading.Event()

    def hammer() -> None:
        while not stop.is_set():
            try:
                answers.append(_top1(b, "reverse a card payment"))
            except BaseException as exc:  # noqa: BLE001 - the test records any failure
                errors.append(exc)
                return

    threads = [threading.Thread(target=hammer) for _ in range(3)]
    try:
        for t in threads:
            t.start()
        b.jobs.run_now(REPO)
        assert b.rebuild.switched
        before = len(answers)
        while len(answers) < before + 10 and not errors:  # some queries after the switch too
            threading.Event().wait(0.01)
    finally:
        stop.set()
        for t in threads:
            t.join()
        b.close()
    assert errors == []
    assert set(answers) == {"refund_payment"} and len(answers) >= 10


def test_sparse_tokenizer_change_rebuilds_the_sparse_vectors(case, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    root, _ = case
    data, src = tmp_path / "data", root / "repo"
    off = EmbeddingConfig(enabled=False)
    a = Daemon.open(_config(data, src, off))
    try:
        a.jobs.run_now(REPO)
        old = a.store.identity
    finally:
        a.close()
    monkeypatch.setattr(sparse, "TOKENIZER_VERSION", sparse.TOKENIZER_VERSION + "-next")
    b = Daemon.open(_config(data, src, off))
    try:
        assert b.rebuild is not None and b.store.identity.sparse_version.endswith("-next")
        assert b.service.find_symbols("refund_payment")[0].path == "billing/refund.py"  # old answers
        report = b.jobs.run_now(REPO)
        assert report.files_indexed == 2 and b.rebuild.switched
        assert active_identity(data / "store").sparse_version == old.sparse_version + "-next"
        assert len(b.store.all_points(REPO)) == 2  # two functions (files of definitions only: no module chunks)
    finally:
        b.close()


def test_unusable_old_model_answers_sparse_only_until_the_switch(case, tmp_path: Path) -> None:
    root, _ = case
    data, src = tmp_path / "data", root / "repo"
    a = Daemon.open(_config(data, src, EmbeddingConfig()))
    try:
        a.jobs.run_now(REPO)
        collection = a.store.collection
    finally:
        a.close()
    (data / "store" / collection / "embedding.json").unlink()  # e.g. made by an older release
    b = Daemon.open(_config(data, src, replace(EmbeddingConfig(), dimensions=128)))
    try:
        assert b.rebuild is not None and b.service.embedder is None
        hits = b.api.search("refund_payment", limit=3)
        assert hits[0].name == "refund_payment"
    finally:
        b.close()
