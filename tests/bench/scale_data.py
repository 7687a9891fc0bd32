"""Data for the scale benchmarks: a base set of real chunks, and synthetic near-duplicates.

Base set: every other file of the interpreter's standard library (``bench_stdlib.make_repo``:
``Lib/`` less test suites, ``idlelib``, ``lib2to3`` and ``site-packages``; about 10,000 chunks,
a third of an hour of model time on 2 idle cores) in a one-commit git repo, indexed by
the daemon itself (``Daemon.open`` + ``Jobs.run_now``: the real parser, chunker, sparse
tokenizer and model, dense vectors included). Every point of that store (payload, sparse and
dense vector) is then pickled to ``<work>/base/points.pkl``; later runs load that file and
never run the model again (the daemon's vector cache under ``<work>/base/data`` also stays).

Synthetic points (``synthetic``): copy ``k`` of a base point lives in repo ``synth-<k>``
(4 digits) at the same path; every defined and called name gets the suffix ``_s<k>`` on its
last dotted segment (``urlsplit`` -> ``urlsplit_s0042``, ``JSONDecoder.decode`` ->
``JSONDecoder.decode_s0042``), so lookups of a synthetic name are as selective as those of a
real one; the id is ``points.point_id`` of the new repo; the sparse vector is the original's;
the dense vector is the original plus gaussian noise (``SIGMA`` per dimension), L2-normalised
again (cosine to the original about 0.93 at 384 dimensions).
"""

from __future__ import annotations

import json
import pickle
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_stdlib import make_repo  # noqa: E402
from coderecalld.config import Config, RepoConfig  # noqa: E402
from coderecalld.index import points as points_mod
from coderecalld.records import PointRecord  # noqa: E402

#: Standard deviation of the noise added to each dense component of a synthetic copy.
SIGMA = 0.02
BASE_REPO = "stdlib"


@dataclass(frozen=True, slots=True)
class BaseSet:
    """The real points and how they were made."""

    points: list[PointRecord]
    model_id: str
    index_s: float
    files: int


def upgrade(payload: dict) -> dict:
    """The fields a payload written under an older ``points.PAYLOAD_VERSION`` lacks and that
    follow from fields it has (4: ``export_edges``, from ``module``, ``fq_aliases`` and
    ``exports``); ``{}`` when it has them. What the daemon's one-off re-index would write,
    without re-parsing: a cached base set and built stores stay usable."""
    if "export_edges" in payload:
        return {}
    exports = [tuple(e) for e in payload.get("exports", [])]
    return {"export_edges": points_mod.export_edges(payload.get("module", ""),
                                                    payload.get("fq_aliases", []), exports)}


def upgrade_store(store: object) -> int:
    """Add ``upgrade``'s fields to every module point of an open ``EdgeStore`` built from an
    older base set (only module chunks carry exports); returns the points changed. Points
    with the same new fields are set in one engine call (the copies of a module share
    them)."""
    import qdrant_edge as qe

    flt = qe.Filter(must=[qe.FieldCondition(key="kind", match=qe.MatchValue("module"))])
    groups: dict[str, list[str]] = {}
    offset = None
    while True:
        request = qe.ScrollRequest(offset=offset, limit=4096, filter=flt, with_payload=True)
        records, offset = store._run("upgrade scroll", lambda shard: shard.scroll(request))
        for r in records:
            new = upgrade(dict(r.payload))
            if new:
                groups.setdefault(json.dumps(new, sort_keys=True), []).append(str(r.id))
        if offset is None:
            break
    for fields, ids in groups.items():
        op = qe.UpdateOperation.set_payload(ids, json.loads(fields))
        store._run("upgrade set", lambda shard: shard.update(op))
    store.flush()
    return sum(len(ids) for ids in groups.values())


def daemon_config(data: Path, work: Path) -> Config:
    """The config of a daemon over ``data``, a data dir ``bench_scale.build`` made under
    ``work``: its repos (``built.json``), each mirrored from the base set's stdlib repo."""
    repos = json.loads((data / "built.json").read_text())["repos"]
    stdlib = str(work / "base" / "stdlib")
    return Config(data_dir=data, repos=tuple(RepoConfig(r, stdlib, "main") for r in repos))


def base_set(work: Path, stride: int = 2) -> BaseSet:
    """Load ``<work>/base/points.pkl``, or index every ``stride``-th stdlib file (sorted
    order) with the real model and write it."""
    cache = work / "base" / "points.pkl"
    if cache.exists():
        with cache.open("rb") as fh:
            base = pickle.load(fh)
        for p in base.points:
            p.payload.update(upgrade(p.payload))
        return base
    from coderecalld.config import Config, RepoConfig
    from coderecalld.daemon import Daemon

    repo_dir = work / "base" / "stdlib"
    files, _ = make_repo(repo_dir, 0, False, stride) if not repo_dir.exists() else (0, 0)
    cfg = Config(data_dir=work / "base" / "data",
                 repos=(RepoConfig(BASE_REPO, str(repo_dir), "main"),))
    daemon = Daemon.open(cfg)
    try:
        started = time.monotonic()
        report = daemon.jobs.run_now(BASE_REPO, with_dense=True)
        index_s = time.monotonic() - started
        pts = daemon.store.all_points(BASE_REPO)
        model_id = daemon.embedder.model_id
    finally:
        daemon.close()
    # a point with no sparse terms is never searched and never embedded: a constant, a
    # variable, an import-only module chunk (``points.searchable``)
    missing = sum(p.dense is None and bool(p.sparse.indices) for p in pts)
    if missing:
        raise SystemExit(f"base set: {missing} points without a dense vector ({report.error})")
    base = BaseSet(pts, model_id, index_s, files or report.files_seen)
    tmp = cache.with_suffix(".tmp")
    with tmp.open("wb") as fh:
        pickle.dump(base, fh, protocol=pickle.HIGHEST_PROTOCOL)
    tmp.replace(cache)
    return base


def _suffixed(dotted: str, suffix: str) -> str:
    """``dotted`` with ``suffix`` on its last segment (``a.b`` -> ``a.b_s0001``); ``""`` stays."""
    return f"{dotted}{suffix}" if dotted else dotted


def synth_repo(k: int) -> str:
    """Name of the ``k``-th synthetic repo: ``synth-0001``."""
    return f"synth-{k:04d}"


def synth_name(name: str, k: int) -> str:
    """The ``k``-th copy's name for a base name."""
    return _suffixed(name, f"_s{k:04d}")


def _payload(p: dict, k: int) -> dict:
    sfx = f"_s{k:04d}"
    out = dict(p)
    out["repo"] = synth_repo(k)
    for key in ("name", "qualified_name", "fq_name"):
        out[key] = _suffixed(p.get(key, ""), sfx)
    out["name_lc"] = out["name"].lower()
    out["qualified_name_lc"] = out["qualified_name"].lower()
    out["name_tokens"] = f"{p.get('name_tokens', '')} s{k:04d}".strip()
    out["fq_aliases"] = [_suffixed(a, sfx) for a in p.get("fq_aliases", [])]
    out["calls"] = [_suffixed(c, sfx) for c in p.get("calls", [])]
    out["call_targets"] = [_suffixed(t, sfx) for t in p.get("call_targets", [])]
    out["call_sites"] = [{**s, "name": _suffixed(s["name"], sfx), "target": _suffixed(s.get("target", ""), sfx)}
                         for s in p.get("call_sites", [])]
    out.pop("export_edges", None)  # the copy's own, from its suffixed fq_aliases
    out.update(upgrade(out))
    return out


def synthetic(base: list[PointRecord], k: int, rng: np.random.Generator) -> Iterator[PointRecord]:
    """Copy ``k`` (1-based) of every base point with a dense vector (a constant or an
    import-only module chunk has none), in base order (see the module docstring)."""
    base = [p for p in base if p.dense is not None]
    dense = np.asarray([p.dense for p in base], dtype=np.float32)
    noisy = dense + rng.normal(0.0, SIGMA, dense.shape).astype(np.float32)
    noisy /= np.linalg.norm(noisy, axis=1, keepdims=True)
    for p, vec in zip(base, noisy):
        payload = _payload(p.payload, k)
        pid = points_mod.point_id(payload["repo"], payload["path"], payload["qualified_name"],
                                  int(payload.get("ordinal", 0)))
        yield PointRecord(id=pid, payload=payload, sparse=p.sparse, dense=tuple(vec.tolist()))


def points_for(base: list[PointRecord], size: int, seed: int = 0) -> Iterator[list[PointRecord]]:
    """``size`` points in chunks of one repo each: the base set (cut to ``size`` if larger),
    then synthetic copies 1, 2, ... (the last one cut) until ``size`` points were yielded."""
    rng = np.random.default_rng(seed)
    yield base[:size]
    left, k = size - min(size, len(base)), 0
    while left > 0:
        k += 1
        batch = list(synthetic(base[:left], k, rng))
        left -= len(batch)
        yield batch


def repos_for(base_len: int, size: int) -> list[str]:
    """Repo names a store of ``size`` points holds (``points_for``'s order)."""
    copies = max(0, -(-(size - base_len) // base_len))
    return [BASE_REPO, *(synth_repo(k) for k in range(1, copies + 1))]
