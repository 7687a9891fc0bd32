"""Precision and recall of FindCallers on real cross-repo code, and GetCard latency.

    python tests/bench/eval_callers.py [--symbols N]

Builds the cross-repo fixture (httpx -> httpcore -> h11, tests/crossrepo.py), indexes it
with dense vectors off, and compares ``Service.find_callers(module-qualified name)`` with
an independent reference computed by ``callers_reference`` (Python's ``ast``). Call sites
are compared as (repo, path, line). Reported separately for ``resolved`` and ``name_only``
answers; recall is over the reference. ``reference`` answers (a value naming the
definition, no call) are counted apart: the reference holds calls only. Symbols: the N most-called definitions that have
at least one caller in another file, cross-repo ones first.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

import callers_reference  # noqa: E402
import crossrepo  # noqa: E402
from conformance_cases import daemon  # noqa: E402

from coderecalld.config import RepoConfig  # noqa: E402


def reference() -> dict[str, set[tuple[str, str, int]]]:
    repos = {name: crossrepo.sources(package) for name, package in crossrepo.PACKAGES.items()}
    modules = callers_reference.load(repos)
    return callers_reference.calls(modules)


def pick(ref: dict[str, set[tuple[str, str, int]]], n: int) -> list[str]:
    def cross(name: str) -> bool:
        home = crossrepo.PACKAGES.get(name.split(".")[0], name.split(".")[0])
        return any(repo != home for repo, _, _ in ref[name])
    ranked = sorted(ref, key=lambda s: (not cross(s), -len(ref[s]), s))
    return ranked[:n]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--symbols", type=int, default=40)
    args = parser.parse_args()
    ref = reference()
    symbols = pick(ref, args.symbols)
    tmp = Path(tempfile.mkdtemp(prefix="eval-callers-"))
    repos = crossrepo.build(tmp / "src")
    with daemon(tmp, *(RepoConfig(n, str(p)) for n, p in repos.items())) as running:
        for name in repos:
            running.pipeline.index_repo(running.cfg.repo(name), with_dense=False)
        service = running.service
        tp = {"resolved": 0, "name_only": 0}
        answered = {"resolved": 0, "name_only": 0}
        references = 0  # values naming the definition (confidence "reference"): no calls, not judged
        found_total = ref_total = resolved_found = 0
        print(f"{'symbol':58} {'ref':>4} {'res':>4} {'res_ok':>6} {'name':>4} {'name_ok':>7}")
        for symbol in symbols:
            truth = ref[symbol]
            hits = service.find_callers(symbol, limit=500)
            got = {"resolved": set(), "name_only": set()}
            for h in hits:  # a call on a subclass is a resolved edge; an override candidate is not
                if h.confidence == "reference":
                    references += 1
                    continue
                got["resolved" if h.confidence in ("resolved", "inherited") else "name_only"].add(
                    (h.repo, h.path, h.line))
            for c in got:
                answered[c] += len(got[c])
                tp[c] += len(got[c] & truth)
            found_total += len((got["resolved"] | got["name_only"]) & truth)
            resolved_found += len(got["resolved"] & truth)
            ref_total += len(truth)
            print(f"{symbol[:58]:58} {len(truth):4} {len(got['resolved']):4} {len(got['resolved'] & truth):6} "
                  f"{len(got['name_only']):4} {len(got['name_only'] & truth):7}")
            for miss in sorted(truth - got["resolved"] - got["name_only"])[:3]:
                print("      missed", miss)
            for wrong in sorted(got["resolved"] - truth)[:3]:
                print("      wrong ", wrong)
        latencies = []
        for _ in range(5):
            for symbol in symbols:
                started = time.perf_counter()
                service.get_card(symbol)
                latencies.append(time.perf_counter() - started)
    print()
    print(f"symbols: {len(symbols)}, reference call sites: {ref_total}")
    for c in ("resolved", "name_only"):
        precision = tp[c] / answered[c] if answered[c] else float("nan")
        print(f"{c:9} answered {answered[c]:4}  precision {precision:.3f}")
    print(f"recall: resolved only {resolved_found / ref_total:.3f}, overall {found_total / ref_total:.3f}")
    print(f"references listed (values naming a definition, not calls; not in the reference): {references}")
    print(f"GetCard latency over {len(latencies)} calls: p50 {statistics.median(latencies) * 1000:.1f} ms, "
          f"p95 {sorted(latencies)[int(len(latencies) * 0.95)] * 1000:.1f} ms")


if __name__ == "__main__":
    main()
