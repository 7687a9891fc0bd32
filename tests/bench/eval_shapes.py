"""Evaluation: every short query shape, per search mode, on a real index (issue 21).

CoSQA dev measures natural-language questions and swe-lite-dev pasted issues
(``eval_retrieval.py``, ``issue_lab.py``, ``bench_locate.py``); this measures the three short
shapes an agent also sends, with answers that are facts of the index itself, so no labels
are needed:

* ``identifier``: the name of a definition that exactly one chunk of the repo defines
  (``parse_expr``, ``_TR56``); right when that chunk is returned;
* ``literal``: a string literal of 12-60 characters taken from a chunk's text, quoted as
  an agent pastes it (``"Unrecognized QDP line"``); right when a returned chunk's text holds
  it verbatim;
* ``trace``: ``ErrorName: message`` built from a ``raise ErrorName("message")`` of a chunk;
  right when a returned chunk raises it (its text holds the message).

Queries are drawn with a fixed seed from the chunks of each repo (``--per-shape`` per
repo), asked through ``Service.search`` in modes hybrid, sparse and dense, and scored Acc@1
and Acc@5. Needs a data dir indexed with the real model (``--data``) and the bare repos it
mirrors, named ``owner+name`` (``--repos-dir``, as ``issue_lab.py`` makes them): chunk texts are
read from git (``Service.read_symbol``), as an agent would.

    python tests/bench/eval_shapes.py --data DATA --repos-dir /tmp/search-lab/swe/repos \
        --repos sympy,pylint [--per-shape 100]
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from collections import Counter
from pathlib import Path

from coderecalld.config import Config, EmbeddingConfig, IndexConfig, RepoConfig
from coderecalld.daemon import Daemon
from coderecalld.query import shape as shapes

MODES = ("hybrid", "sparse", "dense")
_LITERAL = re.compile(r"""(?<![\w'"])(["'])([A-Za-z][^"'\\\n{}%]{11,59})\1""")
_RAISE = re.compile(r"""raise\s+(\w*(?:Error|Exception))\(\s*f?(["'])([A-Za-z][^"'\\\n{}%]{11,80})\2""")


def text_of(daemon: Daemon, repo: str, payload: dict) -> str:
    try:
        return daemon.service.read_symbol(repo, payload["path"], int(payload["start_line"]),
                                          int(payload["end_line"])).text
    except Exception:  # noqa: BLE001 - a file the ledger no longer reads: no text
        return ""


def draw(daemon: Daemon, repo: str, per_shape: int, seed: int) -> list[tuple[str, str, str]]:
    """(shape, query, expected) triples of one repo: expected is a chunk id (identifier) or
    the verbatim text a returned chunk must hold (literal, trace)."""
    rng = random.Random(seed)
    points = daemon.service.store.all_points(repo)
    rng.shuffle(points)
    names = Counter(p.payload.get("name_lc") for p in points if p.payload.get("kind") in ("function", "method", "class"))
    out: list[tuple[str, str, str]] = []
    seen: set[str] = set()
    counts = Counter()

    def take(kind: str, shape: shapes.Shape, query: str, expected: str, key: str) -> None:
        """Keep one drawn query when its kind still needs some, ``key`` is new and the
        query is read as ``shape``."""
        if counts[kind] < per_shape and key not in seen and shapes.detect(query) is shape:
            out.append((kind, query, expected))
            counts[kind] += 1
            seen.add(key)

    for p in points:
        pay = p.payload
        if pay.get("role") not in ("source", None) or pay.get("kind") in ("section", "module"):
            continue
        text = text_of(daemon, repo, pay) if min(counts["literal"], counts["trace"]) < per_shape else ""
        name = str(pay.get("name", ""))
        if (pay.get("kind") in ("function", "method", "class") and names[pay.get("name_lc")] == 1
                and len(name) >= 4):
            take("identifier", shapes.Shape.IDENTIFIER, name, p.id, name)
        if m := _LITERAL.search(text):
            take("literal", shapes.Shape.LITERAL, f'"{m.group(2)}"', m.group(2), m.group(2))
        if m := _RAISE.search(text):
            take("trace", shapes.Shape.TRACE, f"{m.group(1)}: {m.group(3)}", m.group(3), m.group(3))
        if min(counts[s] for s in ("identifier", "literal", "trace")) >= per_shape:
            break
    return out


def right(daemon: Daemon, repo: str, hit, expected: str, kind: str) -> bool:
    if kind == "identifier":
        return hit.id == expected
    return expected in text_of(daemon, repo, {"path": hit.path, "start_line": hit.start_line,
                                               "end_line": hit.end_line})


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, required=True, help="a daemon data dir with dense vectors")
    ap.add_argument("--repos-dir", type=Path, required=True, help="bare repos named owner+name")
    ap.add_argument("--repos", default="sympy,pylint")
    ap.add_argument("--per-shape", type=int, default=100)
    ap.add_argument("--seed", type=int, default=21)
    ap.add_argument("--modes", default=",".join(MODES))
    ap.add_argument("--set", action="append", default=[],
                    help="MODULE.NAME=VALUE: override a constant of shape, anchors or service")
    args = ap.parse_args()
    from coderecalld.query import anchors, service
    modules = {"shape": shapes, "anchors": anchors, "service": service}
    for item in args.set:
        name, _, value = item.partition("=")
        module, _, name = name.rpartition(".")
        setattr(modules[module], name, type(getattr(modules[module], name))(value))
    repos = args.repos.split(",")
    urls = {d.name.split("+")[1]: str(d) for d in args.repos_dir.iterdir()}
    cfg = Config(data_dir=args.data, repos=tuple(RepoConfig(r, urls[r], "main") for r in repos),
                 embedding=EmbeddingConfig(threads=2),
                 index=IndexConfig(sync_interval_s=86400, sync_jitter_s=0))
    daemon = Daemon.open(cfg)
    table: dict[tuple[str, str], list[tuple[bool, bool]]] = {}
    try:
        for repo in repos:
            for kind, query, expected in draw(daemon, repo, args.per_shape, args.seed):
                for mode in args.modes.split(","):
                    hits = daemon.service.search(query, limit=5, repo=repo, mode=mode)
                    ok = [right(daemon, repo, h, expected, kind) for h in hits]
                    for key in ((kind, mode), (f"{repo}:{kind}", mode)):
                        table.setdefault(key, []).append((bool(ok[:1] and ok[0]), any(ok)))
    finally:
        daemon.close()
    print(f"{'shape':22} {'mode':7} {'n':>4} {'Acc@1':>6} {'Acc@5':>6}")
    for (kind, mode), vals in sorted(table.items()):
        n = len(vals)
        print(f"{kind:22} {mode:7} {n:4} {100 * sum(a for a, _ in vals) / n:6.1f} {100 * sum(b for _, b in vals) / n:6.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
