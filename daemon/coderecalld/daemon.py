"""Wires the daemon's parts from a ``Config``: ledger, embedder, store, pipeline, service, jobs."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from coderecalld import logs, metrics, overlay, sparse
from coderecalld.config import Config
from coderecalld.embed import Embedder
from coderecalld.jobs import Jobs
from coderecalld.ledger import Ledger
from coderecalld.pipeline import Pipeline
from coderecalld.service import Service
from coderecalld.errors import ConfigError, StoreMismatch
from coderecalld.store import EdgeStore

#: Dense dimension recorded for a store built with embeddings disabled (all-MiniLM-L6-v2's).
DISABLED_DIM = 384


@dataclass
class Daemon:
    """Everything a running daemon holds. Build with ``Daemon.open(cfg)``; ``close()`` when done."""

    cfg: Config
    ledger: Ledger
    store: object
    embedder: Embedder | None
    pipeline: Pipeline
    service: Service
    jobs: Jobs
    overlay: overlay.Overlay | None = None

    @classmethod
    def open(cls, cfg: Config) -> Daemon:
        """Open (or create) the data dir's ledger, vector cache, model and store.

        Raises:
            EmbedError: the model cannot be loaded.
            StoreError: the store cannot be opened.
        """
        try:
            cfg.data_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ConfigError(f"data_dir: cannot create {cfg.data_dir}: {exc.strerror or exc}") from exc
        embedder = Embedder(cfg.embedding, cfg.data_dir / "models") if cfg.embedding.enabled else None
        model_id = embedder.model_id if embedder else "none"
        store, ledger_path = open_store(cfg.data_dir / "store", embedder.dim if embedder else DISABLED_DIM,
                                        model_id, sparse.TOKENIZER_VERSION)
        ledger = Ledger(ledger_path)
        pipeline = Pipeline(cfg, ledger, store, embedder)
        jobs = Jobs(cfg, pipeline)
        # Uncommitted files of sessions (IndexOverlay): their own shard, never this store.
        overlays = overlay.Overlay(overlay.open_store(cfg.data_dir / "overlay", store), pipeline.loose_file,
                                   embedder.embed if embedder else None, cfg.index.max_file_bytes)
        overlays.start()
        service = Service(cfg, ledger, store, embedder, sync=jobs.sync, overlay=overlays)
        metrics.watch(service, [r.name for r in cfg.repos], service.lag_s, service.pending_vectors)
        logs.event("daemon.opened", data_dir=str(cfg.data_dir), model=model_id,
                   repos=len(cfg.repos))
        return cls(cfg, ledger, store, embedder, pipeline, service, jobs, overlays)

    def close(self) -> None:
        """Stop jobs, flush and close the store and the ledger."""
        self.jobs.shutdown()
        metrics.unwatch(self.service)
        if self.overlay is not None:
            self.overlay.close()
        self.store.close()
        self.ledger.close()


def open_store(root: Path, dim: int, model_id: str, sparse_version: str) -> tuple[EdgeStore, Path]:
    """Open the store collection for this vector-space identity, and its ledger path.

    The ledger lives inside the collection directory: it records what *this* collection
    holds, so a new model (a new collection, DESIGN.md decision 7) starts from an empty
    ledger and is indexed from scratch, while the old collection stays untouched on disk.
    """
    try:
        store = EdgeStore(root, dim, model_id, sparse_version)
    except StoreMismatch as exc:
        logs.warn("store.identity_changed", detail=str(exc))
        store = EdgeStore(root, dim, model_id, sparse_version, staging=True)
        store.activate()
    return store, root / store.collection / "ledger.sqlite"
