"""Evaluation: ``callers`` against hand-labelled call sites, in the languages whose receiver
types the index reads only within a file (C#, Swift, Ruby, PHP, C++; index/resolve_own).

    python tests/bench/eval_caller_labels.py [--labels tests/bench/callers/audit.jsonl]
        [--work DIR] [--mirrors /work/.mirror] [--misses]

``callers/audit.jsonl`` (a callers audit, 2026-12-03): one row per query, ``{"repo",
"commit", "query", "sites": [[path, line, label], ...]}``, written by reading every
occurrence of the query's name in the repository at ``commit`` (Polly, Alamofire, sinatra,
guzzle, fmt) and deciding from the code whether it can reach the definition: ``T`` a true
call (on the class, a subclass not overriding it, a base or interface it implements,
``super``/``base``, bare or ``self`` in the class; a constructor's: its class's
constructions), ``F:<cause>`` another definition's (``field-typed``, ``local-call``,
``own-scope``...), ``X`` no call (a definition, a comment), ``U`` a receiver no reading can
type (neither right nor wrong). Lines are the unit: two calls on one line count once.

Each repository is indexed at its commit with dense vectors off (a data dir under
``--work``, kept between runs), every query answered by ``Service.find_callers`` (limit
500), and printed per query and per language: true calls (the ``T`` lines), answered, true
positives, false positives (answered ``F``/``X`` lines), false negatives, precision and
recall, and the answers' confidences; then the median and largest ``find_callers`` time
(ms, in-process, the index warm after the first queries). Needs the mirrors (``fetch github:App-vNext/Polly``
...). Not a test: nothing asserts.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

import pygit2
from coderecalld.config import Config, EmbeddingConfig, IndexConfig, RepoConfig
from coderecalld.daemon import Daemon

sys.path.insert(0, str(Path(__file__).parent))
import issue_lab  # noqa: E402  (the working repos, shared)

LANGUAGES = {"App-vNext/Polly": "C#", "Alamofire/Alamofire": "Swift", "sinatra/sinatra": "Ruby",
             "guzzle/guzzle": "PHP", "fmtlib/fmt": "C++"}


def prepare(work: Path, mirrors: Path, rows: list[dict]) -> Daemon:
    """A daemon over one working bare repo per repository of ``rows`` at its commit,
    indexed lexical-only (callers read no vectors)."""
    cfgs = []
    for name, commit in {r["repo"]: r["commit"] for r in rows}.items():
        bare = issue_lab.working_repo(work, mirrors, name)
        repo = pygit2.Repository(str(bare))
        repo.references.create("refs/heads/main", repo.revparse_single(commit).id, force=True)
        cfgs.append(RepoConfig(name.split("/")[1], str(bare), "main"))
    cfg = Config(data_dir=work / "data", repos=tuple(cfgs), embedding=EmbeddingConfig(enabled=False),
                 index=IndexConfig(sync_interval_s=86400, sync_jitter_s=0))
    daemon = Daemon.open(cfg)
    for c in cfgs:
        daemon.jobs.run_now(c.name)
    return daemon


def score(row: dict, answered: set[tuple[str, int]]) -> Counter:
    """Counts of one query: ``truth``, ``tp``, ``fn``, ``fp`` (see the module docstring)."""
    out: Counter = Counter()
    for path, line, label in row["sites"]:
        hit = (path, int(line)) in answered
        if label.startswith("T"):
            out["truth"] += 1
            out["tp" if hit else "fn"] += 1
        elif label.startswith(("F", "X")) and hit:
            out["fp"] += 1
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--labels", type=Path, default=Path(__file__).parent / "callers" / "audit.jsonl")
    ap.add_argument("--work", type=Path, default=Path("/tmp/caller-labels"))
    ap.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    ap.add_argument("--misses", action="store_true", help="print each query's wrong and missed lines")
    args = ap.parse_args()
    rows = [json.loads(line) for line in args.labels.read_text().splitlines() if line.strip()]
    daemon = prepare(args.work, args.mirrors, rows)
    totals: dict[str, Counter] = defaultdict(Counter)
    took: list[float] = []
    try:
        for row in rows:
            start = time.perf_counter()
            found = list(daemon.service.find_callers(row["query"], repo=row["repo"].split("/")[1], limit=500))
            took.append((time.perf_counter() - start) * 1000)
            answered = {(c.path, c.line) for c in found}
            counts = score(row, answered)
            language = LANGUAGES.get(row["repo"], row["repo"])
            totals[language] += counts
            confidences = dict(Counter(c.confidence for c in found))
            print(f"{language:6} {row['query']:50} true={counts['truth']:4} answered={len(answered):4} "
                  f"TP={counts['tp']:4} FP={counts['fp']:4} FN={counts['fn']:4} {confidences}")
            if args.misses:
                for path, line, label in row["sites"]:
                    hit = (path, int(line)) in answered
                    if hit != label.startswith("T") and not label.startswith("U"):
                        print(f"    {'FP' if hit else 'FN'} {path}:{line} {label}")
    finally:
        daemon.close()
    everything: Counter = Counter()
    for language, c in sorted(totals.items()):
        everything += c
        print(f"{language:6} precision {c['tp'] / max(1, c['tp'] + c['fp']):.2f} recall "
              f"{c['tp'] / max(1, c['truth']):.2f}  TP={c['tp']} FP={c['fp']} FN={c['fn']}")
    c = everything
    print(f"all    precision {c['tp'] / max(1, c['tp'] + c['fp']):.2f} recall "
          f"{c['tp'] / max(1, c['truth']):.2f}  TP={c['tp']} FP={c['fp']} FN={c['fn']}")
    print(f"find_callers ms: median {statistics.median(took):.1f}, max {max(took):.1f} ({len(took)} queries)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
