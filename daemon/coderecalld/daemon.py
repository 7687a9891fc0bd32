"""Wires the daemon's parts from a ``Config``: ledger, embedder, store, pipeline, service, jobs."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from coderecalld import logs, metrics
from coderecalld.config import Config, EmbeddingConfig, StoreConfig
from coderecalld.embed import sparse
from coderecalld.embed.local import Embedder
from coderecalld.errors import ConfigError, EmbedError, StoreMismatch
from coderecalld.index.generation import (
    Generation,
    GuardedApi,
    ReadWriteLock,
    Rebuild,
    read_embedding_config,
    write_embedding_config,
)
from coderecalld.index.pipeline import Pipeline
from coderecalld.ops.jobs import Jobs
from coderecalld.progress import Progress, Registry
from coderecalld.query import overlay
from coderecalld.query.service import Service
from coderecalld.server.starting import starting_registry
from coderecalld.store import EdgeStore, Store, StoreIdentity
from coderecalld.store.edge import active_identity
from coderecalld.store.ledger import Ledger
from coderecalld.store.timed import TimedStore

#: Dense dimension recorded for a store built with embeddings disabled (all-MiniLM-L6-v2's).
DISABLED_DIM = 384


@dataclass
class Daemon:
    """Everything a running daemon holds. Build with ``Daemon.open(cfg)``; ``close()`` when done.

    ``api`` is what the gRPC server serves: ``service`` itself, or, while a ``rebuild`` of a
    new vector space runs (DESIGN.md decision 7, ``index/generation.py``), ``service`` wrapped so
    the generation switch never happens under a query. ``pipeline`` and ``jobs`` index the
    configured generation (the new one during a rebuild).
    """

    cfg: Config
    ledger: Ledger
    store: object
    embedder: Embedder | None
    pipeline: Pipeline
    service: Service
    jobs: Jobs
    rebuild: Rebuild | None = None
    api: object = None
    progress: Registry | None = None
    ops: Any = None  # httpserve.Ops of `serve`: /metrics and webhooks, closed first

    @property
    def overlay(self) -> overlay.Overlay | None:
        """The sessions' overlay store (IndexOverlay); None during a rebuild."""
        return self.service.overlay

    @classmethod
    def open(cls, cfg: Config, progress: Registry | None = None) -> Daemon:
        """Open (or create) the data dir's ledger, vector cache, model and store.

        When the configured vector space differs from the active collection's, the old
        collection keeps answering (with its own embedder) while the new one is built;
        see ``generation.Rebuild``. ``progress``: the registry ``serve`` already streams
        (``starting_registry``); a new one when omitted.

        Raises:
            EmbedError: the model cannot be loaded.
            StoreError: the store cannot be opened.
        """
        try:
            cfg.data_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ConfigError(f"data_dir: cannot create {cfg.data_dir}: {exc.strerror or exc}") from exc
        embedder = _embedder(cfg.embedding, cfg.data_dir)
        model_id = embedder.model_id if embedder else "none"
        root = cfg.data_dir / "store"
        old = _previous_generation(cfg, root, embedder)
        store, ledger_path = open_store(root, embedder.dim if embedder else DISABLED_DIM,
                                        model_id, sparse.TOKENIZER_VERSION, cfg.store,
                                        staging=old is not None)
        write_embedding_config(root / store.collection, cfg.embedding)
        store = TimedStore(store)  # coderecall_store_operation_duration_seconds{op}
        ledger = Ledger(ledger_path)
        pipeline = Pipeline(cfg, ledger, store, embedder)
        jobs = Jobs(cfg, pipeline)
        current = old or Generation(store, ledger, embedder)
        # Uncommitted files of sessions (IndexOverlay): their own shard, never the committed
        # store, in the vector space queries are embedded for. During a rebuild there is none
        # until the switch (the answering space changes then); ``Rebuild.on_switch`` opens it.
        overlays = None if old is not None else _overlays(cfg, pipeline, store, embedder)
        service = Service(cfg, current.ledger, current.store, current.embedder, sync=jobs.sync,
                          overlay=overlays)
        rebuild = None
        api: object = service
        if old is not None:
            lock = ReadWriteLock()
            rebuild = Rebuild(cfg, service, old, Generation(store, ledger, embedder), lock,
                              owns=jobs.shard.owns)
            rebuild.on_switch = lambda: setattr(service, "overlay",
                                                _overlays(cfg, pipeline, store, embedder))
            api = GuardedApi(service, lock)
            jobs.after_run = rebuild.maybe_switch
            logs.event("generation.rebuild_started", old=old.store.collection, new=store.collection)
        progress = _progress_registry(cfg, ledger, service, progress)
        metrics.watch(service, [r.name for r in cfg.repos], service.lag_s, service.pending_vectors,
                      phase=progress.phase)
        pipeline.progress = service.progress = progress
        logs.event("daemon.opened", data_dir=str(cfg.data_dir), model=model_id,
                   repos=len(cfg.repos))
        return cls(cfg, ledger, store, embedder, pipeline, service, jobs, rebuild, api, progress)

    def close(self) -> None:
        """End progress streams, stop jobs, flush and close the store(s) and the ledger(s)."""
        if self.ops is not None:
            self.ops.close()
        if self.progress is not None:
            self.progress.close()
        self.jobs.shutdown()
        metrics.unwatch(self.service)
        if self.rebuild is not None and not self.rebuild.switched:
            self.rebuild.old.close()
        if self.service.overlay is not None:
            self.service.overlay.close()
        self.store.close()
        self.ledger.close()


def _overlays(cfg: Config, pipeline: Pipeline, store: Store, embedder: Embedder | None) -> overlay.Overlay:
    """A started overlay (``query/overlay.py``) in the vector space of ``store`` and ``embedder``."""
    overlays = overlay.Overlay(overlay.open_store(cfg.data_dir / "overlay", store), pipeline.loose_file,
                               embedder.embed if embedder else None, cfg.index.max_file_bytes)
    overlays.start()
    return overlays


def _embedder(emb: EmbeddingConfig, data_dir: Path) -> Embedder | None:
    """The configured embedder: None (disabled), a remote endpoint, or the local model."""
    if not emb.enabled:
        return None
    if emb.endpoint:
        from coderecalld.embed.remote import RemoteEmbedder

        return RemoteEmbedder(emb, data_dir / "models")
    return Embedder(emb, data_dir / "models")


def _previous_generation(cfg: Config, root: Path, embedder: Embedder | None) -> Generation | None:
    """The active generation when its vector space differs from the configured one (a
    rebuild is due), opened with the embedder recorded for it; else None.

    An active collection whose embedding settings were not recorded, or whose model can no
    longer be loaded, answers sparse-only until the switch: never a query vector of another
    model against its vectors.
    """
    if cfg.store.backend == "server":
        from coderecalld.store.server import active_identity as server_active

        active = server_active(cfg.store)
    else:
        active = active_identity(root)
    wanted = StoreIdentity(embedder.model_id if embedder else "none",
                           embedder.dim if embedder else DISABLED_DIM, sparse.TOKENIZER_VERSION)
    if active is None or active.collection_name == wanted.collection_name:
        return None
    directory = root / active.collection_name
    recorded = read_embedding_config(directory)
    if recorded is not None and recorded.endpoint and recorded.endpoint == cfg.embedding.endpoint:
        recorded = replace(recorded, api_key=cfg.embedding.api_key)  # never written to disk
    old_embedder = None
    if recorded is not None and recorded.enabled:
        try:
            candidate = _embedder(recorded, cfg.data_dir)
            if candidate is not None and candidate.model_id == active.model_id:
                old_embedder = candidate
        except EmbedError as exc:
            logs.warn("generation.old_model_unavailable", error=str(exc))
    store, ledger_path = open_store(root, active.dense_dim, active.model_id, active.sparse_version,
                                    cfg.store)
    return Generation(TimedStore(store), Ledger(ledger_path), old_embedder)


def open_store(root: Path, dim: int, model_id: str, sparse_version: str,
               store_cfg: StoreConfig | None = None, staging: bool = False) -> tuple[Store, Path]:
    """Open the store collection for this vector-space identity, and its ledger path.

    The ledger lives inside the collection directory: it records what *this* collection
    holds, so a new model (a new collection, DESIGN.md decision 7) starts from an empty
    ledger, while the old collection stays untouched on disk. ``staging`` opens it without
    making it the active one (a rebuild; ``Rebuild`` activates it when complete). Without
    ``staging``, an active collection of another identity is replaced at once (logged).
    With ``store_cfg.backend == "server"`` the collection is on the Qdrant server (the
    alias names the active one) and ``root/<collection>/`` holds only this daemon's ledger.
    """
    def make(staging: bool) -> Store:
        if store_cfg is not None and store_cfg.backend == "server":
            from coderecalld.store.server import ServerStore  # qdrant-client: ~2 s to import

            return ServerStore.from_config(store_cfg, dim, model_id, sparse_version, staging=staging)
        options = {} if store_cfg is None else {"quantization": store_cfg.quantization,
                                                 "on_disk": store_cfg.on_disk}
        return EdgeStore(root, dim, model_id, sparse_version, staging=staging, **options)

    if staging:
        store = make(staging=True)
        return store, root / store.collection / "ledger.sqlite"
    try:
        store = make(staging=False)
    except StoreMismatch as exc:
        logs.warn("store.identity_changed", detail=str(exc))
        store = make(staging=True)
        store.activate()
    return store, root / store.collection / "ledger.sqlite"


def _progress_registry(cfg: Config, ledger: Ledger, service: Service,
                       registry: Registry | None) -> Registry:
    """The daemon's progress registry (``registry`` when given): a repo nothing reported
    yet shows its ledger state, phase ``idle``."""
    def initial(name: str) -> Progress:
        row = ledger.repo(name)
        return Progress(name, state=str(row.state) if row else "pending",
                        pending_vectors=service.pending_vectors(name))
    registry = registry or starting_registry(cfg)
    registry.set_initial(initial)
    return registry
