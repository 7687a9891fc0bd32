"""Evaluation: questions that ask for a symbol's callers, asked of search and locate.

    python tests/bench/eval_caller_questions.py [--symbols N] [--off]

"What calls `X`" is a question agents send (issue 21: "method callers"); search answers it
by placing the calling chunks (``Service._with_callers``, ``Query.callers``). Builds the
cross-repo fixture (httpx -> httpcore -> h11, tests/crossrepo.py) and takes its callers
from an independent reference (``callers_reference``: Python's ``ast``), not from the
product's call graph: symbols with 1-5 reference call sites outside tests, named by their
qualified name's last two parts (``Client.send``) or a function's name. Each is asked as
"what calls `X`" and "where is X used". Printed per template and in all: the share of
questions with a calling chunk (a hit whose file holds a reference call site within its
lines) in search's first 1 / 5, the share of reference calling chunks in search's first 10
(recall), and the share with a calling file in locate's first 5. ``--off`` runs with
``CALLER_INSERTS`` = 0 (the questions ranked by their words alone).
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

import callers_reference  # noqa: E402
import crossrepo  # noqa: E402
from conformance_cases import daemon  # noqa: E402

from coderecalld.config import RepoConfig  # noqa: E402
from coderecalld.query import service as service_mod  # noqa: E402

TEMPLATES = ("what calls `{}`", "where is {} used")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--symbols", type=int, default=60)
    parser.add_argument("--off", action="store_true", help="CALLER_INSERTS = 0")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    if args.off:
        service_mod.CALLER_INSERTS = 0
    repos_src = {name: crossrepo.sources(package) for name, package in crossrepo.PACKAGES.items()}
    ref = callers_reference.calls(callers_reference.load(repos_src))
    chosen = sorted(s for s, sites in ref.items()
                    if 1 <= len({x for x in sites if "test" not in x[1]}) <= 5 and "<" not in s)
    random.Random(args.seed).shuffle(chosen)
    # one question per asked name: a name two symbols share asks for neither's callers alone
    names: dict[str, list[str]] = {}
    for symbol in chosen:
        names.setdefault(".".join(symbol.split(".")[-2:]) if symbol.split(".")[-2][:1].isupper()
                         else symbol.split(".")[-1], []).append(symbol)
    asked = [(n, s[0]) for n, s in names.items() if len(s) == 1][:args.symbols]
    tmp = Path(tempfile.mkdtemp(prefix="eval-caller-questions-"))
    repos = crossrepo.build(tmp / "src")
    totals: dict[str, list[float]] = {}
    with daemon(tmp, *(RepoConfig(n, str(p)) for n, p in repos.items())) as running:
        for name in repos:  # the sparse side only (the fixture daemon has the model off)
            running.pipeline.index_repo(running.cfg.repo(name), with_dense=False)
        service = running.service
        for name, symbol in asked:
            sites = {x for x in ref[symbol] if "test" not in x[1]}
            for template in TEMPLATES:
                query = template.format(name)
                hits = service.search(query, limit=10)
                calling = [any(h.repo == r and h.path == p and h.start_line <= line <= h.end_line
                               for r, p, line in sites) for h in hits]
                covered = {(r, p, line) for r, p, line in sites for h in hits
                           if h.repo == r and h.path == p and h.start_line <= line <= h.end_line}
                files = {(r, p) for r, p, _ in sites}
                located = service.locate(query, limit=5)
                row = {"search@1": float(any(calling[:1])), "search@5": float(any(calling[:5])),
                       "recall@10": len(covered) / len(sites),
                       "locate@5": float(any((f.repo, f.path) in files for f in located.files))}
                for key, value in row.items():
                    totals.setdefault(f"{template.split()[0]} {key}", []).append(value)
                    totals.setdefault(f"all {key}", []).append(value)
    print(f"questions: {len(asked)} symbols x {len(TEMPLATES)} templates"
          f"{' (CALLER_INSERTS = 0)' if args.off else ''}")
    for key in sorted(totals):
        print(f"{key:22} {100 * sum(totals[key]) / len(totals[key]):5.1f}")


if __name__ == "__main__":
    main()
