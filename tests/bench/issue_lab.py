"""Lexical-side lab for issue-shaped queries on swe-lite-dev: query variants and file ranking.

Indexes each instance's repository at its ``base_commit`` through the daemon with dense
embeddings off (instances in commit-time order, so each sync re-indexes only what changed),
then ranks chunks with the sparse retriever for each query variant and reports file
Acc@1/5/10 and function Acc@10 (README's strict form), plus ``Service.locate`` when
present. Not a test; for tuning query analysis (``query/shape.py``) and file aggregation
without the dense model (2 cores embed ~14 chunks/s: sympy alone would take most of an hour).

    python tests/bench/issue_lab.py [--work DIR] [--balanced] [--repos sympy,astropy,pylint]

Needs mirrors of the instances' repos (``fetch github:sympy/sympy`` ...) under --mirrors.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from pathlib import Path

import pygit2
from coderecalld.config import Config, EmbeddingConfig, IndexConfig, RepoConfig
from coderecalld.daemon import Daemon
from coderecalld import logs
from coderecalld.embed import sparse
from dataclasses import replace

from coderecalld.files import classify
from coderecalld.query import anchors, service
from coderecalld.query import frames as stack
from coderecalld.query import locate as locating
from coderecalld.query import shape
from coderecalld.records import SparseVector
from coderecalld.store import StoreFilter

sys.path.insert(0, str(Path(__file__).parent))
import bench_locate  # noqa: E402  (the BM25 baseline, shared)

SET = Path("/work/shared/eval/swe-lite-dev/instances.jsonl")
FIELDS = ("repo", "path", "qualified_name", "kind", "start_line", "end_line")


def working_repo(work: Path, mirrors: Path, name: str) -> Path:
    """``WORK/repos/owner+name``: a bare repo borrowing the objects of ``name``'s mirror
    (``MIRRORS/owner+name/repo``, git alternates: nothing copied), made on first use."""
    bare = work / "repos" / name.replace("/", "+")
    if not bare.exists():
        pygit2.init_repository(str(bare), bare=True)
        mirror = mirrors / name.replace("/", "+") / "repo"
        (bare / "objects" / "info").mkdir(parents=True, exist_ok=True)
        (bare / "objects" / "info" / "alternates").write_text(str(mirror / "objects") + "\n")
    return bare


#: The modules whose constants ``--set`` and ``--vs-set`` name (no MODULE: shape).
SET_MODULES = {"shape": shape, "anchors": anchors, "service": service, "locate": locating, "frames": stack}


#: Hits of the chunk-ordered search page a ``--dump`` keeps per instance.
DUMP_PAGE = 50


def add_sets(ap: argparse.ArgumentParser) -> None:
    """The ``--set`` option ``apply_sets`` reads."""
    ap.add_argument("--set", action="append", default=[],
                    help="[MODULE.]NAME=VALUE: override a constant of query/shape.py (no MODULE), "
                         "anchors, service or locate (e.g. TITLE_BOOST=3, anchors.PATH_WEIGHT=0.5)")


def apply_sets(items: list[str]) -> None:
    """Apply ``--set [MODULE.]NAME=VALUE`` overrides to the query layer's constants
    (MODULE: shape, the default, anchors, service or locate; a tuple from comma-separated
    floats (or names, when the constant holds names: ``LEXICAL_FILES_ROLES=source,docs``; empty:
    ``()``), a set of query shapes from comma-separated shape names (``LEXICAL_FIRST=
    literal,text``), a per-shape table updated from ``shape:float`` pairs
    (``LONG_DENSE_WEIGHT=text:0.3``, ``ROLE_PENALTY=docs:0.3``), else the constant's own type from VALUE)."""
    for item in items:
        name, _, value = item.partition("=")
        module, _, name = name.rpartition(".")
        target = SET_MODULES[module or "shape"]
        current = getattr(target, name)
        kind = type(current)
        if kind is frozenset:
            setattr(target, name, frozenset(shape.Shape(v) for v in value.split(",") if v))
        elif kind is dict:
            pairs = (v.partition(":") for v in value.split(",") if v)
            key = type(next(iter(current)))  # a query shape, or a role's name
            setattr(target, name, {**current, **{key(k): float(w) for k, _, w in pairs}})
        elif kind is tuple and current and isinstance(current[0], str):  # names: roles
            setattr(target, name, tuple(v for v in value.split(",") if v))
        elif kind is bool:
            setattr(target, name, value.lower() in ("1", "true", "yes"))
        else:
            setattr(target, name, tuple(float(v) for v in value.split(",") if v) if kind is tuple
                    else kind(value))


def swapped_sets(items: list[str]) -> tuple[dict, dict]:
    """The constants ``--vs-set`` items name, as ``(before, after)`` maps of
    ``(module, name) -> value``: ``after`` holds what ``apply_sets(items)`` sets them to."""
    keys = [(m or "shape", n) for m, _, n in (i.partition("=")[0].rpartition(".") for i in items)]
    before = {k: getattr(SET_MODULES[k[0]], k[1]) for k in keys}
    apply_sets(items)
    after = {k: getattr(SET_MODULES[k[0]], k[1]) for k in keys}
    put_sets(before)
    return before, after


def put_sets(values: dict) -> None:
    """Set the constants of a ``swapped_sets`` map."""
    for (m, n), v in values.items():
        setattr(SET_MODULES[m], n, v)


def vector(pairs) -> SparseVector:
    merged: dict[int, float] = {}
    for term, w in pairs:
        i = sparse.term_index(term)
        merged[i] = max(merged.get(i, 0.0), w)
    idx = tuple(sorted(merged))
    return SparseVector(idx, tuple(merged[i] for i in idx))


def variants(text: str) -> dict[str, SparseVector]:
    q = shape.analyze(text)
    code = [(t, w) for t, w in q.terms if w >= shape.WEIGHT_CODE]
    title = shape.analyze(text.strip().split("\n")[0]).terms
    return {
        "plain": sparse.query_vector(text),
        "shape": vector(q.terms),
        "shape_flat": vector((t, 1.0) for t, _ in q.terms),
        "code_only": vector(code or q.terms),
        "title_only": vector(title),
        "title_x2": vector([(t, w * (2.0 if t in dict(title) else 1.0)) for t, w in q.terms]),
    }


def is_test(path: str) -> bool:
    parts = path.split("/")
    name = parts[-1]
    return any(p in ("tests", "test", "testing") for p in parts[:-1]) or name.startswith("test_") \
        or name.endswith("_test.py") or name == "conftest.py"


def files_of(hits, drop_tests=False) -> list[str]:
    out: list[str] = []
    for h in hits:
        p = h.payload["path"]
        if drop_tests and (is_test(p) or not p.endswith(".py")):
            continue
        if p not in out:
            out.append(p)
    return out


def funcs_of(hits) -> list[str]:
    out: list[str] = []
    for h in hits:
        k = f"{h.payload['path']}::{h.payload['qualified_name']}"
        if k not in out:
            out.append(k)
    return out


def present_tree(repo: pygit2.Repository, tree: pygit2.Tree, drop: re.Pattern | None = None,
                 prefix: str = "") -> pygit2.Oid:
    """``tree`` without the blobs the mirror lacks (a ``fetch``-ed snapshot leaves its
    largest files out): the daemon's fetch would fail on them ("object not found").
    Paths ``drop`` matches (``re.match`` on the whole path) are left out too."""
    builder = repo.TreeBuilder()
    changed = False
    for entry in tree:
        path = prefix + entry.name
        if drop is not None and drop.match(path):
            changed = True
        elif entry.type_str == "tree":
            sub = present_tree(repo, repo[entry.id], drop, path + "/")
            changed |= sub != entry.id
            builder.insert(entry.name, sub, entry.filemode)
        elif entry.id in repo.odb:
            builder.insert(entry.name, entry.id, entry.filemode)
        else:
            changed = True
    return builder.write() if changed else tree.id


def main() -> int:
    # the daemon's warnings and errors with their fields (``index.file_failed``'s path and
    # error: a newcomer saw the bare event name six times, its files unknown)
    logs.configure(level="warning")
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", type=Path, default=Path("/tmp/search-lab/swe"))
    ap.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    ap.add_argument("--balanced", action="store_true")
    ap.add_argument("--repos", default="sympy,astropy,pylint")
    ap.add_argument("--instances", type=Path, default=SET,
                    help="instances JSONL in the swe-lite-dev schema (default: the dev split)")
    ap.add_argument("--limit", type=int, default=100)
    ap.add_argument("--snapshot", action="store_true",
                    help="index each repo once, at its latest base_commit, and ask every instance "
                         "of it there (fast tuning loop; a few gold files may differ)")
    ap.add_argument("--functions", type=int, default=5, help="functions per located file")
    ap.add_argument("--grid", action="store_true", help="file aggregation grid (SPREAD, SUPPORT, penalty)")
    ap.add_argument("--dump", type=Path,
                    help="write each instance's locate answer (files, with up to 50 functions "
                         "each), its shape, search's first 50 hits in the chunks' own order "
                         "(not by located files), gold and, with --bm25, the baseline's first "
                         "50 files as JSONL, for offline function-listing and fusion studies")
    ap.add_argument("--features", type=Path, help="write hybrid search features per instance (JSONL)")
    ap.add_argument("--no-sync", action="store_true", help="with --snapshot: use the index as is")
    ap.add_argument("--data", type=Path, help="the daemon's data dir (default WORK/data)")
    ap.add_argument("--dense", action="store_true",
                    help="with --data: the model on (a data dir indexed with it); adds search in "
                         "modes dense and sparse beside hybrid")
    ap.add_argument("--dense-weight", type=float, help="service.LONG_DENSE_WEIGHT for issues and traces")
    ap.add_argument("--drop", type=re.compile, metavar="REGEX",
                    help="leave the paths this matches (from their start) out of the indexed tree, "
                         "e.g. a changelog holding a history set's notes verbatim at a snapshot")
    ap.add_argument("--bm25", action="store_true",
                    help="also rank files by bench_locate's file-level BM25 baseline (same commit), "
                         "and print locate and bm25 per repository")
    ap.add_argument("--vs-set", action="append", default=[],
                    help="like --set, for a second search and locate per instance (reported as "
                         "search-vs and locate-vs), to compare two query-time settings on one "
                         "index in one run")
    add_sets(ap)
    args = ap.parse_args()
    apply_sets(args.set)
    vs_before, vs_after = swapped_sets(args.vs_set)
    rows = [json.loads(line) for line in args.instances.read_text().splitlines() if line.strip()]
    wanted = args.repos.split(",")
    rows = [r for r in rows if r["repo"].split("/")[1] in wanted and (r["in_balanced_subset"] or not args.balanced)]
    rows.sort(key=lambda r: (r["repo"], r["created_at"]))
    args.work.mkdir(parents=True, exist_ok=True)
    repos = sorted({r["repo"] for r in rows})
    cfgs = []
    for name in repos:
        bare = working_repo(args.work, args.mirrors, name)
        cfgs.append(RepoConfig(name.split("/")[1], str(bare), "main"))
    if args.dense_weight is not None:
        service.LONG_DENSE_WEIGHT = {k: args.dense_weight for k in service.LONG_DENSE_WEIGHT}
    cfg = Config(data_dir=args.data or args.work / "data", repos=tuple(cfgs),
                 embedding=EmbeddingConfig(enabled=bool(args.data and args.dense)),
                 index=IndexConfig(sync_interval_s=86400, sync_jitter_s=0))
    daemon = Daemon.open(cfg)
    totals: dict[str, list[float]] = {}
    lat: dict[str, list[float]] = {}
    latest = {}
    for r in rows:
        latest[r["repo"]] = r["base_commit"]  # rows are in created_at order per repo
    synced: set[str] = set()
    bm25: dict[str, bench_locate.Bm25Files] = {}
    feats: list[dict] = []
    dumped: list[dict] = []
    try:
        for r in rows:
            short = r["repo"].split("/")[1]
            t0 = time.perf_counter()
            if not (args.snapshot and (args.no_sync or short in synced)):
                bare = pygit2.Repository(str(args.work / "repos" / r["repo"].replace("/", "+")))
                commit = latest[r["repo"]] if args.snapshot else r["base_commit"]
                # A parentless commit of the tree: fetching the real one would walk (and need)
                # all its history, which a snapshot mirror may lack.
                sig = pygit2.Signature("lab", "lab@example.invalid", 1_700_000_000, 0)
                tree = present_tree(bare, bare.get(commit).peel(pygit2.Tree), args.drop)
                snap = bare.create_commit(None, sig, sig, f"snapshot of {commit}", tree, [])
                bare.references.create("refs/heads/main", snap, force=True)
                daemon.jobs.run_now(short)
                synced.add(short)
            took = time.perf_counter() - t0
            flt = StoreFilter(repos=(short,))
            gold_file = r["gold_nontest_files"][0]
            gold_funcs = set(r["gold_functions"])
            line = [f"{r['instance_id']:28} sync {took:5.1f}s"]
            for name, vec in variants(r["query"]).items():
                t1 = time.perf_counter()
                hits = daemon.service.store.sparse_search(vec, flt, args.limit, fields=FIELDS)
                lat.setdefault(name, []).append(1000 * (time.perf_counter() - t1))
                for tag, files in ((name, files_of(hits)), (name + "-nt", files_of(hits, True))):
                    for k in (1, 5, 10):
                        totals.setdefault(f"{tag} file@{k}", []).append(float(gold_file in files[:k]))
                if gold_funcs:
                    totals.setdefault(f"{name} func@10", []).append(float(gold_funcs <= set(funcs_of(hits)[:10])))
                line.append(f"{name}:{(files_of(hits).index(gold_file) + 1) if gold_file in files_of(hits) else '-'}")
            if args.grid:
                pool = daemon.service.store.sparse_search(vector(shape.analyze(r["query"]).terms), flt, 300,
                                                          fields=FIELDS)
                top = pool[0].score if pool else 1.0
                pool = [replace(h, score=h.score / top) for h in pool]
                for spread in (0.0, 0.25):
                    for support in (1, 3):
                        for pen in (0.0, 0.1, 0.2, 0.3, 0.5, 1.0):
                            locating.SPREAD, locating.SUPPORT = spread, support
                            ranked = locating.files(pool, 10, penalty=lambda p, pen=pen: pen if classify.role(p["path"]) != "source" else 0.0)
                            fl = [f.path for f in ranked]
                            for k in (1, 5, 10):
                                totals.setdefault(f"grid s{spread} n{support} p{pen} file@{k}", []).append(float(gold_file in fl[:k]))
            t1 = time.perf_counter()
            for mode in (("dense", "sparse") if args.dense else ()):
                only = daemon.service.search(r["query"], limit=10, repo=short, mode=mode)
                files = list(dict.fromkeys(h.path for h in only))
                for k in (1, 5, 10):
                    totals.setdefault(f"search-{mode} file@{k}", []).append(float(gold_file in files[:k]))
                    totals.setdefault(f"{short}: search-{mode} file@{k}", []).append(float(gold_file in files[:k]))
                line.append(f"{mode}:{(files.index(gold_file) + 1) if gold_file in files else '-'}")
            served = daemon.service.search(r["query"], limit=10, repo=short)
            lat.setdefault("search", []).append(1000 * (time.perf_counter() - t1))
            files = list(dict.fromkeys(h.path for h in served))
            line.append(f"search:{(files.index(gold_file) + 1) if gold_file in files else '-'}")
            for k in (1, 5, 10):
                totals.setdefault(f"search file@{k}", []).append(float(gold_file in files[:k]))
                totals.setdefault(f"{short}: search file@{k}", []).append(float(gold_file in files[:k]))
            if gold_funcs:
                fn = list(dict.fromkeys(f"{h.path}::{h.qualified_name}" for h in served))
                totals.setdefault("search func@10", []).append(float(gold_funcs <= set(fn[:10])))
            if vs_after:  # search under the other constants too (``search-vs``)
                put_sets(vs_after)
                other = daemon.service.search(r["query"], limit=10, repo=short)
                put_sets(vs_before)
                ofiles = list(dict.fromkeys(h.path for h in other))
                for scope in ("", f"{short}: "):
                    for k in (1, 5, 10):
                        totals.setdefault(f"{scope}search-vs file@{k}", []).append(float(gold_file in ofiles[:k]))
                if gold_funcs:
                    ofn = list(dict.fromkeys(f"{h.path}::{h.qualified_name}" for h in other))
                    totals.setdefault("search-vs func@10", []).append(float(gold_funcs <= set(ofn[:10])))
                line.append(f"search-vs:{(ofiles.index(gold_file) + 1) if gold_file in ofiles else '-'}")
            feats.append({"id": r["instance_id"], "hit5": gold_file in files[:5],
                          "low": served.low_confidence, **served.features.as_dict()})
            if hasattr(daemon.service, "locate"):
                t1 = time.perf_counter()
                located = daemon.service.locate(r["query"], limit=10, repo=short, functions=args.functions)
                lat.setdefault("locate", []).append(1000 * (time.perf_counter() - t1))
                files = [f.path for f in located.files]
                for k in (1, 5, 10):
                    totals.setdefault(f"locate file@{k}", []).append(float(gold_file in files[:k]))
                if gold_funcs:
                    fn = [f"{f.path}::{x.qualified_name}" for f in located.files for x in f.functions]
                    totals.setdefault("locate func@10", []).append(float(gold_funcs <= set(fn[:10])))
                line.append(f"locate:{(files.index(gold_file) + 1) if gold_file in files else '-'}")
                if vs_after:
                    put_sets(vs_after)
                    other = daemon.service.locate(r["query"], limit=10, repo=short, functions=args.functions)
                    put_sets(vs_before)
                    ofiles = [f.path for f in other.files]
                    ofn = [f"{f.path}::{x.qualified_name}" for f in other.files for x in f.functions]
                    for scope in ("", f"{short}: "):
                        for k in (1, 5, 10):
                            totals.setdefault(f"{scope}locate-vs file@{k}", []).append(float(gold_file in ofiles[:k]))
                        if gold_funcs:
                            totals.setdefault(f"{scope}locate-vs func@10", []).append(
                                float(gold_funcs <= set(ofn[:10])))
                    line.append(f"vs:{(ofiles.index(gold_file) + 1) if gold_file in ofiles else '-'}")
                if args.dump:
                    wide = daemon.service.locate(r["query"], limit=10, repo=short, functions=50)
                    # search's page by its chunks alone (an issue's page not ordered by
                    # the located files), for offline studies of that order
                    ordered = service.LOCATED_ORDER_SHAPES
                    service.LOCATED_ORDER_SHAPES = frozenset()
                    try:
                        chunks = daemon.service.search(r["query"], limit=DUMP_PAGE, repo=short)
                    finally:
                        service.LOCATED_ORDER_SHAPES = ordered
                    dumped.append({"id": r["instance_id"], "gold_file": gold_file,
                                   "gold_functions": sorted(gold_funcs), "files": [
                                       [f.path, f.score, [[x.qualified_name, x.score] for x in f.functions]]
                                       for f in wide.files],
                                   "shape": located.shape,
                                   "chunk_page": [[h.path, h.qualified_name] for h in chunks]})
                for k in (1, 5, 10):
                    totals.setdefault(f"{short}: locate file@{k}", []).append(float(gold_file in files[:k]))
                if gold_funcs:
                    totals.setdefault(f"{short}: locate func@10", []).append(float(gold_funcs <= set(fn[:10])))
            if args.bm25:
                if r["repo"] not in bm25:
                    bm25[r["repo"]] = bench_locate.Bm25Files(pygit2.Repository(
                        str(args.work / "repos" / r["repo"].replace("/", "+"))))
                commit = latest[r["repo"]] if args.snapshot else r["base_commit"]
                files = bm25[r["repo"]].rank(commit, r["query"])
                for scope in ("", f"{short}: "):
                    for k in (1, 5, 10):
                        totals.setdefault(f"{scope}bm25 file@{k}", []).append(float(gold_file in files[:k]))
                line.append(f"bm25:{(files.index(gold_file) + 1) if gold_file in files else '-'}")
                if dumped and dumped[-1]["id"] == r["instance_id"]:
                    dumped[-1]["bm25"] = files[:50]  # the baseline's first 50 files, for fusion studies
            print(" ".join(line), flush=True)
    finally:
        daemon.close()
    if args.dump:
        args.dump.write_text("".join(json.dumps(d) + "\n" for d in dumped))
    if args.features:
        args.features.write_text("".join(json.dumps(f) + "\n" for f in feats))
    print(f"\n{len(rows)} instances ({', '.join(repos)})")
    for key in sorted(totals):
        vals = totals[key]
        print(f"{key:24} {100 * sum(vals) / len(vals):6.1f}  (n={len(vals)})")
    for key, vals in lat.items():
        print(f"latency {key:12} p50 {statistics.median(vals):6.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
