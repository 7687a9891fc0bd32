"""The dense backlog's stop and scope (issue 19), with a fake embedder and store: a stop
lands between two model batches and keeps what was embedded; only configured repos are
embedded; progress counts vectors per group."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from coderecalld.config import Config, RepoConfig
from coderecalld.index.pipeline import EMBED_GROUP, Pipeline
from coderecalld.progress import Registry
from coderecalld.records import Hit


class Store:
    """Points without a dense vector, per repo; ``set_dense`` fills them."""

    def __init__(self, missing: dict[str, int]) -> None:
        self.missing = {repo: {f"{repo}-{i:04d}": "x" * (i % 7 + 1) for i in range(n)}
                        for repo, n in missing.items()}
        self.writes: list[int] = []

    def missing_dense(self, limit: int, repos: tuple[str, ...]) -> list[Hit]:
        hits = [Hit(pid, 0.0, {"embed_text": text}) for repo in repos
                for pid, text in self.missing.get(repo, {}).items()]
        return hits[:limit]

    def set_dense(self, vectors: dict[str, list[float]]) -> None:
        self.writes.append(len(vectors))
        for points in self.missing.values():
            for pid in vectors:
                points.pop(pid, None)

    def count_missing_dense(self, repo: str = "", flt: object = None) -> int:
        return len(self.missing.get(repo, {}))


class Embedder:
    """8 texts per model batch; calls ``during(n)`` after its n-th batch."""

    model_id = "fake"
    batch_size = 8

    def __init__(self, during=lambda n: None) -> None:  # type: ignore[no-untyped-def]
        self.batches = 0
        self.during = during

    def embed(self, texts: list[str]) -> list[np.ndarray]:
        assert len(texts) <= self.batch_size  # the pipeline hands it one model batch at a time
        self.batches += 1
        self.during(self.batches)
        return [np.ones(4, dtype=np.float32) for _ in texts]


def _pipeline(store: Store, embedder: Embedder, repos: tuple[str, ...]) -> Pipeline:
    cfg = Config(data_dir=Path("/nonexistent"), repos=tuple(RepoConfig(r, f"/src/{r}") for r in repos))
    pipeline = Pipeline(cfg, None, store, embedder)  # type: ignore[arg-type]
    pipeline.progress = Registry(min_interval_s=0.0)
    return pipeline


def test_a_stop_lands_between_model_batches_and_keeps_what_was_embedded():
    store = Store({"a": 200})
    embedder = Embedder()
    pipeline = _pipeline(store, embedder, ("a",))
    embedder.during = lambda n: pipeline.stop() if n == 11 else None  # in the second group
    assert pipeline.embed_backlog() == 88  # 11 batches of 8: the 11th finishes, no 12th starts
    assert store.writes == [EMBED_GROUP, 88 - EMBED_GROUP]  # the part-group is written too
    assert embedder.batches == 11 and store.count_missing_dense("a") == 112


def test_only_configured_repos_are_embedded_and_progress_counts_vectors():
    store = Store({"kept": 70, "dropped": 30})
    pipeline = _pipeline(store, Embedder(), ("kept",))
    assert pipeline.embed_backlog() == 70
    assert store.count_missing_dense("dropped") == 30  # never a model run for it
    assert pipeline.embed_backlog(repos=()) == 0
    store.missing["kept"] = {f"k{i}": "y" for i in range(20)}
    seen = []
    pipeline.progress.embedding = lambda repo, done, pending: seen.append((repo, done, pending))  # type: ignore[method-assign]
    assert pipeline.embed_repo("kept") == 20
    assert seen == [("kept", 0, 20), ("kept", 20, 0)]
    assert pipeline.embed_repo("kept") == 0  # nothing left: no phase change
    assert len(seen) == 2
