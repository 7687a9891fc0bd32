"""Benchmark: a cold index against the raw embedding throughput of the same model, side by side.

Issue 10 asks that everything but the model hide behind it: a cold index of a repo should run
at >= 90% of what the model alone does on the same chunks. This script, in one process:

1. makes a git repo of ``--limit-files`` stdlib files (as ``bench_stdlib.py``) and runs a
   lexical-only index to learn the exact texts the pipeline will embed (their ``embed_text``);
2. **raw**: a fresh ``Embedder`` (empty vector cache) embeds those distinct texts, nothing else;
3. **cold index**: a fresh data dir, ``Daemon.open`` (model load not timed, as in 2), then one
   full index with dense vectors: mirror, parse, chunk, redact, sparse, store, embed;

and prints both rates in distinct embedded texts per second, their ratio, and the index's
seconds per stage. ``--json FILE`` also writes the figures (``plot_perf.py`` reads them).
Not a test: nothing here asserts a time. The 2 and 3 run one after the other on the same
machine, so a steady background load affects both alike; say what the load was.

    python tests/bench/bench_pipeline.py [--limit-files 40] [--json tests/bench/results/pipeline.json]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_stdlib import make_repo  # noqa: E402
from coderecalld.config import Config, EmbeddingConfig, IndexConfig, RepoConfig  # noqa: E402
from coderecalld.daemon import Daemon  # noqa: E402
from coderecalld.embed.local import Embedder  # noqa: E402

REPO = "stdlib"


def _config(data: Path, src: Path) -> Config:
    return Config(data_dir=data, repos=(RepoConfig(REPO, str(src)),),
                  embedding=EmbeddingConfig(), index=IndexConfig(sync_interval_s=3600))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit-files", type=int, default=40)
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="coderecall-pipe-"))
    try:
        files, size = make_repo(work / "src", args.limit_files, with_tests=False)
        lexical = Daemon.open(_config(work / "lexical", work / "src"))
        try:
            lexical.jobs.run_now(REPO, with_dense=False)
            texts = sorted({p.payload["embed_text"] for p in lexical.store.all_points(REPO)})
        finally:
            lexical.close()

        embedder = Embedder(EmbeddingConfig(), work / "raw-models")
        started = time.monotonic()
        embedder.embed(texts)
        raw_s = time.monotonic() - started

        cold = Daemon.open(_config(work / "cold", work / "src"))
        try:
            started = time.monotonic()
            report = cold.jobs.run_now(REPO, with_dense=True)
            index_s = time.monotonic() - started
        finally:
            cold.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    raw_rate, index_rate = len(texts) / raw_s, report.embedded / index_s
    result = {
        "files": files, "bytes": size, "chunks": report.chunks, "distinct_texts": len(texts),
        "embedded": report.embedded, "raw_s": raw_s, "index_s": index_s,
        "raw_texts_per_s": raw_rate, "index_texts_per_s": index_rate,
        "ratio": index_rate / raw_rate, "stages_s": dict(report.stages_s),
        "load_avg": os.getloadavg(),
    }
    print(f"{files} files, {report.chunks} chunks, {len(texts)} distinct embedded texts "
          f"(index embedded {report.embedded})")
    print(f"raw model      {raw_s:8.1f} s  {raw_rate:6.1f} texts/s")
    print(f"cold index     {index_s:8.1f} s  {index_rate:6.1f} texts/s  = {100 * result['ratio']:.0f}% of raw")
    print("stages: " + "  ".join(f"{k}={v:.1f}s" for k, v in sorted(report.stages_s.items())))
    print(f"load average {result['load_avg'][0]:.1f} {result['load_avg'][1]:.1f} {result['load_avg'][2]:.1f}")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
