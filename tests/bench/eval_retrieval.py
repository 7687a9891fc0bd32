"""Retrieval quality through the product: index a corpus as a git repo, query it over gRPC.

Reads a ``corpus.jsonl`` / ``queries*.jsonl`` / ``qrels*.tsv`` triple (the format of
``/work/shared/eval/cosqa-dev``: ``{"id", "code"}`` docs, ``{"id", "text"}`` queries,
``query_id<TAB>doc_id<TAB>relevance`` rows), writes each doc to ``docs/<id>.py`` in one
pygit2 commit, indexes it with the daemon (``Daemon.open`` + ``jobs.run_now``, dense
included), serves gRPC on a free loopback port and runs every query through
``coderecall.Client`` in each search mode (dense, sparse, hybrid).

    python tests/bench/eval_retrieval.py [--set DIR] [--work DIR] [--modes dense,sparse,hybrid]
                                         [--confidence [--features FILE]]

``--work`` keeps the repo, the data dir and its vector cache, so a re-run re-embeds only
chunks whose embedded text changed. Hits map back to doc ids by path; the first hit per doc
counts (a module chunk and a function chunk of the same file are one doc). Prints MRR@10,
nDCG@10 (graded gains, log2 discount; Järvelin & Kekäläinen 2002), Recall@1/5/10 and the
client-side query latency p50/p95 in milliseconds. Not a test: nothing here asserts.

``--confidence`` also measures Search's ``low_confidence`` flag over the queries (hybrid):
how often it is set when the top 10 holds a relevant doc and when it does not, the flag's
precision (flagged queries that really miss) and recall (missing queries that are
flagged), and the same for other thresholds replayed through ``confidence.confidence``
on each query's ``Features`` (taken in-process from ``Service.search``); ``--features``
writes those features, one JSON object per query, for calibration elsewhere.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections.abc import Iterable
from pathlib import Path

import pygit2
from coderecall import Client
from coderecalld.config import Config, EmbeddingConfig, IndexConfig, RepoConfig
from coderecalld.daemon import Daemon
from coderecalld.query import confidence
from coderecalld.server.app import build_server

sys.path.insert(0, str(Path(__file__).parent))
import issue_lab  # noqa: E402  (--with: the constant overrides of its --set)

DEFAULT_SET = Path("/work/shared/eval/cosqa-dev")
REPO = "eval"
MODES = ("dense", "sparse", "hybrid")
K = 10
AUTHOR = pygit2.Signature("Eval Harness", "eval@example.invalid", 1_700_000_000, 0)


def read_set(root: Path) -> tuple[dict[str, str], dict[str, str], dict[str, dict[str, int]]]:
    """(doc id -> code, query id -> text, query id -> {doc id: relevance > 0})."""
    corpus = {d["id"]: d["code"] for d in _jsonl(root / "corpus.jsonl")}
    queries = {q["id"]: q["text"] for f in sorted(root.glob("queries*.jsonl")) for q in _jsonl(f)}
    qrels: dict[str, dict[str, int]] = {}
    for f in sorted(root.glob("qrels*.tsv")):
        for line in f.read_text(encoding="utf-8").splitlines():
            parts = line.split("\t")
            if len(parts) == 3 and parts[2].strip().lstrip("-").isdigit() and int(parts[2]) > 0:
                qrels.setdefault(parts[0], {})[parts[1]] = int(parts[2])
    return corpus, {q: t for q, t in queries.items() if q in qrels}, qrels


def _jsonl(path: Path) -> Iterable[dict]:
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                yield json.loads(line)


def doc_path(doc_id: str) -> str:
    return f"docs/{doc_id}.py"


def write_repo(target: Path, corpus: dict[str, str]) -> str:
    """One commit holding every doc; reused as is when it already holds this corpus."""
    stamp = target / ".eval-corpus-size"
    if stamp.exists() and stamp.read_text() == str(len(corpus)):
        return str(pygit2.Repository(str(target)).head.target)
    repo = pygit2.init_repository(str(target), bare=False, initial_head="main")
    builder = repo.TreeBuilder()
    docs = repo.TreeBuilder()
    for doc_id, code in sorted(corpus.items()):
        docs.insert(f"{doc_id}.py", repo.create_blob(code.encode("utf-8")), pygit2.GIT_FILEMODE_BLOB)
    builder.insert("docs", docs.write(), pygit2.GIT_FILEMODE_TREE)
    commit = repo.create_commit("refs/heads/main", AUTHOR, AUTHOR, "corpus", builder.write(), [])
    stamp.write_text(str(len(corpus)))
    return str(commit)


def score(ranked: list[str], relevant: dict[str, int]) -> dict[str, float]:
    """MRR@10, nDCG@10, Recall@1/5/10 of one ranked doc list (already deduplicated)."""
    top = ranked[:K]
    rr = next((1.0 / (i + 1) for i, d in enumerate(top) if d in relevant), 0.0)
    dcg = sum((2 ** relevant[d] - 1) / math.log2(i + 2) for i, d in enumerate(top) if d in relevant)
    ideal = sorted(relevant.values(), reverse=True)[:K]
    idcg = sum((2 ** g - 1) / math.log2(i + 2) for i, g in enumerate(ideal))
    out = {"MRR@10": rr, "nDCG@10": dcg / idcg if idcg else 0.0}
    for k in (1, 5, 10):
        out[f"R@{k}"] = len(set(ranked[:k]) & relevant.keys()) / len(relevant)
    return out


def run_queries(client: Client, queries: dict[str, str], qrels: dict[str, dict[str, int]],
                mode: str, limit: int) -> tuple[dict[str, float], list[float], dict[str, list[str]]]:
    """Mean metrics, per-query latencies (ms) and the ranked doc ids of each query."""
    totals: dict[str, float] = {}
    latencies, runs = [], {}
    for qid, text in queries.items():
        start = time.perf_counter()
        hits = client.search(text, limit=limit, repo=REPO, mode=mode)
        latencies.append((time.perf_counter() - start) * 1000)
        ranked: list[str] = []
        for hit in hits:
            doc = hit.path.removeprefix("docs/").removesuffix(".py")
            if doc not in ranked:
                ranked.append(doc)
        runs[qid] = ranked
        for name, value in score(ranked, qrels[qid]).items():
            totals[name] = totals.get(name, 0.0) + value
    return {n: 100 * v / len(queries) for n, v in totals.items()}, latencies, runs


def confidence_rows(client: Client, daemon: Daemon, queries: dict[str, str],
                    qrels: dict[str, dict[str, int]], limit: int) -> list[dict]:
    """Per query: whether the top 10 holds a relevant doc, the served flag and reason, and
    the features the rule judged (hybrid search)."""
    rows = []
    daemon.service.full_features = True  # agreement measured for every query, for the replays
    for qid, text in queries.items():
        served = client.search(text, limit=limit, repo=REPO)
        docs = [h.path.removeprefix("docs/").removesuffix(".py") for h in served]
        ranked = list(dict.fromkeys(docs))[:K]
        features = daemon.service.search(text, limit=limit, repo=REPO).features
        rows.append({"id": qid, "hit10": bool(set(ranked) & qrels[qid].keys()),
                     "low": served.low_confidence, "reason": served.confidence_reason,
                     **features.as_dict()})
    return rows


def flag_quality(rows: list[dict], flags: list[bool]) -> tuple[float, float, float, int, int]:
    """(precision, recall, flag rate) of ``flags`` as a predictor of "no relevant doc in the
    top 10", in percent, and the flagged counts among hits and misses."""
    misses = [not r["hit10"] for r in rows]
    flagged_miss = sum(f and m for f, m in zip(flags, misses))
    flagged_hit = sum(f and not m for f, m in zip(flags, misses))
    flagged = flagged_miss + flagged_hit
    precision = 100 * flagged_miss / flagged if flagged else 0.0
    recall = 100 * flagged_miss / sum(misses) if any(misses) else 0.0
    return precision, recall, 100 * flagged / len(rows), flagged_hit, flagged_miss


def print_confidence(rows: list[dict]) -> None:
    """The served flag's quality, then a replay over other thresholds."""
    hits = sum(r["hit10"] for r in rows)
    p, r, rate, fh, fm = flag_quality(rows, [row["low"] for row in rows])
    print(f"\nlow_confidence over {len(rows)} queries ({hits} with a relevant doc in the top 10, "
          f"{len(rows) - hits} without):")
    print(f"  flagged {fh} of {hits} hits and {fm} of {len(rows) - hits} misses: precision {p:.1f}, "
          f"recall {r:.1f}, flag rate {rate:.1f} (MIN_TOP_SCORE {confidence.MIN_TOP_SCORE['hybrid']}, "
          f"MIN_TOP_SCORE_DISAGREE {confidence.MIN_TOP_SCORE_DISAGREE}, MIN_GAP {confidence.MIN_GAP})")
    print(f"  {'min_top':>8} {'disagree':>8} {'min_gap':>8} {'prec':>6} {'recall':>6} {'rate':>6}")
    features = [confidence.Features(**{k: v for k, v in row.items() if k in FIELDS}) for row in rows]
    for top in (0.40, 0.45, 0.50, 0.55, 0.60):
        for disagree in (0.0, 0.60, 0.65, 0.70):
            for gap in (0.0, 0.005, 0.02):
                flags = [confidence.confidence(f, min_top_score=top, min_top_disagree=disagree,
                                               min_gap=gap)[0] for f in features]
                p, r, rate, _, _ = flag_quality(rows, flags)
                print(f"  {top:8.2f} {disagree:8.2f} {gap:8.3f} {p:6.1f} {r:6.1f} {rate:6.1f}")


FIELDS = {f for f in confidence.Features.__dataclass_fields__}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", type=Path, default=DEFAULT_SET, help="dir with corpus/queries/qrels")
    parser.add_argument("--work", type=Path, default=Path("/tmp/coderecall-eval"),
                        help="persistent work dir (repo, data dir, vector cache)")
    parser.add_argument("--modes", default=",".join(MODES))
    parser.add_argument("--limit", type=int, default=30, help="hits asked per query (>= 10: "
                        "several chunks of one doc collapse into one)")
    parser.add_argument("--runs", type=Path, help="write each mode's ranked doc ids here (JSON)")
    parser.add_argument("--confidence", action="store_true",
                        help="measure the low_confidence flag (precision/recall) and replay thresholds")
    parser.add_argument("--features", type=Path, help="with --confidence: write per-query features (JSONL)")
    parser.add_argument("--with", dest="overrides", action="append", default=[], metavar="[MODULE.]NAME=VALUE",
                        help="override a query-layer constant, as issue_lab.py's --set (repeatable)")
    args = parser.parse_args(argv)
    issue_lab.apply_sets(args.overrides)

    corpus, queries, qrels = read_set(args.set)
    args.work.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    write_repo(args.work / "repo", corpus)
    cfg = Config(data_dir=args.work / "data", repos=(RepoConfig(REPO, str(args.work / "repo"), "main"),),
                 embedding=EmbeddingConfig(threads=2),
                 index=IndexConfig(sync_interval_s=3600, sync_jitter_s=0))
    daemon = Daemon.open(cfg)
    try:
        daemon.jobs.run_now(REPO)
        status = daemon.service.list_repos()[0]
        print(f"indexed {status.files} files, {status.chunks} chunks, state {status.state} "
              f"in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
        server, port = build_server(daemon.service, "127.0.0.1:0")
        server.start()
        client = Client(f"127.0.0.1:{port}", timeout_s=60)
        try:
            print(f"{args.set.name}: {len(corpus)} docs, {len(queries)} queries")
            print(f"{'mode':8} {'nDCG@10':>8} {'MRR@10':>8} {'R@1':>6} {'R@5':>6} {'R@10':>6} "
                  f"{'p50 ms':>7} {'p95 ms':>7}")
            all_runs = {}
            for mode in args.modes.split(","):
                metrics, lat, all_runs[mode] = run_queries(client, queries, qrels, mode, args.limit)
                print(f"{mode:8} {metrics['nDCG@10']:8.1f} {metrics['MRR@10']:8.1f} "
                      f"{metrics['R@1']:6.1f} {metrics['R@5']:6.1f} {metrics['R@10']:6.1f} "
                      f"{statistics.median(lat):7.1f} {percentile(lat, 0.95):7.1f}", flush=True)
            if args.runs:
                args.runs.write_text(json.dumps(all_runs))
            if args.confidence:
                rows = confidence_rows(client, daemon, queries, qrels, args.limit)
                print_confidence(rows)
                if args.features:
                    args.features.write_text("".join(json.dumps(r) + "\n" for r in rows))
        finally:
            client.close()
            server.stop(0).wait()
    finally:
        daemon.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
