"""Resolved call edges of FindCallers against jedi, on requests and flask (code nobody here wrote).

    python tests/bench/bench_callres.py --requests <git dir> --flask <git dir> [--out results.json]

The git dirs are bare clones (e.g. the ``fetch`` tool's github:psf/requests and
github:pallets/flask); their ``src/`` trees at HEAD become two repos, indexed with dense
vectors off. The reference: for every call in those files (Python's ``ast``), jedi's
``goto`` on the called name (``follow_imports``) gives the definition, kept when it is a
function or method of the corpus. Ours: for every function and method of the corpus,
``callgraph.callers(fq_name)``; a site labelled ``resolved`` or ``inherited`` is an edge to
that definition. A site is (repo, path, line, called name).

Reported per kind (method, function): reference edges, our edges, precision over our
edges whose site jedi resolves (to anything), recall over the reference's edges; the
share of name-only answers among all listed sites; and the sites a method's list holds
that jedi resolves to another definition, by label. jedi is a bench-only tool: install it
into the venv for this script (``pip install jedi``); it is in no dependency list. For the
figure before a change, put that checkout's ``daemon/`` first on ``PYTHONPATH``.
"""

from __future__ import annotations

import argparse
import ast
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

from conformance_cases import daemon  # noqa: E402
from gitfixtures import GitRepo  # noqa: E402

from coderecalld.auth import LOCAL  # noqa: E402
from coderecalld.config import RepoConfig  # noqa: E402
from coderecalld.query import callgraph  # noqa: E402

Site = tuple[str, str, int, str]  # repo, path, line, called name (last segment)
Def = tuple[str, str, int]  # repo, path, start line of the definition's name


def tree_files(git_dir: str, prefix: str = "src/") -> dict[str, str]:
    """Path -> text of the ``.py`` files under ``prefix`` at HEAD of a bare repo."""
    names = subprocess.run(["git", "--git-dir", git_dir, "ls-tree", "-r", "--name-only", "HEAD", prefix],
                           capture_output=True, text=True, check=True).stdout.split()
    return {n: subprocess.run(["git", "--git-dir", git_dir, "show", f"HEAD:{n}"], capture_output=True,
                              text=True, check=True).stdout for n in names if n.endswith(".py")}


def reference(root: Path, repos: dict[str, dict[str, str]]) -> dict[Site, Def]:
    """jedi's definition of every call site whose target is a function of the corpus."""
    import jedi

    # Only the corpus (and jedi's stdlib stubs): an installed copy of the same package in
    # site-packages would otherwise answer for it.
    project = jedi.Project(str(root), sys_path=[str(root / r / "src") for r in repos], smart_sys_path=False)
    defs = _def_lines(repos)
    out: dict[Site, Def] = {}
    for repo, files in repos.items():
        for path, text in files.items():
            script = jedi.Script(text, path=str(root / repo / path), project=project)
            for node in ast.walk(ast.parse(text)):
                if not isinstance(node, ast.Call):
                    continue
                func = node.func
                if isinstance(func, ast.Attribute):
                    name, line, col = func.attr, func.end_lineno, func.end_col_offset - len(func.attr)
                elif isinstance(func, ast.Name):
                    name, line, col = func.id, func.lineno, func.col_offset
                else:
                    continue
                try:
                    found = script.goto(line, col, follow_imports=True)
                except Exception:  # jedi's own failures: the site is unknown to the reference
                    continue
                for d in found:
                    target = _corpus_def(root, d, defs)
                    if target is not None:
                        out[(repo, path, node.lineno, name)] = target
                        break
                else:
                    if found:
                        out[(repo, path, node.lineno, name)] = ("", "", 0)  # resolved outside the corpus
    return out


def _def_lines(repos: dict[str, dict[str, str]]) -> dict[tuple[str, str, int], str]:
    """(repo, path, line of a def's name) -> "method"/"function" for every def of the corpus."""
    out = {}
    for repo, files in repos.items():
        for path, text in files.items():
            tree = ast.parse(text)
            parents = {c: p for p in ast.walk(tree) for c in ast.iter_child_nodes(p)}
            for node in ast.walk(tree):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    kind = "method" if isinstance(parents.get(node), ast.ClassDef) else "function"
                    out[(repo, path, node.lineno)] = kind
    return out


def _corpus_def(root: Path, d, defs: dict) -> Def | None:
    if d.module_path is None or d.type != "function":
        return None
    try:
        rel = Path(d.module_path).resolve().relative_to(root.resolve())
    except ValueError:
        return None
    repo, _, path = str(rel).partition("/")
    key = (repo, path, d.line)
    return key if key in defs else None


def ours(svc, defs: dict[tuple[str, str, int], str]) -> tuple[dict[Site, Def], list, list[float], dict[Site, str]]:
    """Our resolved/inherited edges, every listed site with its label, seconds of each
    ``callers`` call, and every call site's stored target."""
    flt = svc._filter(LOCAL, "")
    points = [h.payload for kind in ("method", "function")
              for h in svc.store.find(flt, "kind", kind, limit=100_000)]
    edges: dict[Site, Def] = {}
    listed: list[tuple[Site, str, Def]] = []
    spent: list[float] = []
    # Overloads share a module-qualified name: the last one (the implementation) is the one
    # jedi names, and the one asked about.
    last: dict[str, dict] = {}
    for p in sorted(points, key=lambda p: p["start_line"]):
        last[f'{p["repo"]} {p["fq_name"]}'] = p
    for p in last.values():
        key = (p["repo"], p["path"], _def_line(p))
        if key not in defs:
            continue
        start = time.perf_counter()
        found = callgraph.callers(svc.store, flt, p["fq_name"])
        spent.append(time.perf_counter() - start)
        for site, label in found:
            s = (site.hit.payload["repo"], site.hit.payload["path"], site.line, site.short)
            listed.append((s, label, key))
            if label in (callgraph.RESOLVED, "inherited"):
                edges[s] = key
    targets = {(p["repo"], p["path"], int(c["line"]), c["name"].rsplit(".", 1)[-1]): c.get("target", "")
               for h in svc.store.find(flt, "language", "python", limit=100_000) for p in [h.payload]
               for c in p.get("call_sites", [])}
    return edges, listed, spent, targets


def _def_line(p: dict) -> int:
    """The line of a definition's ``def`` keyword (its start line is its first decorator's)."""
    text = p.get("snippet", "")
    for i, line in enumerate(text.split("\n")):
        if line.lstrip().startswith(("def ", "async def ")):
            return int(p["start_line"]) + i
    return int(p["start_line"])


def score(ref: dict[Site, Def], mine: dict[Site, Def], listed, defs, targets: dict[Site, str]) -> dict:
    out = {}
    for kind in ("method", "function"):
        r = {s: d for s, d in ref.items() if d[0] and defs.get(d) == kind}
        m = {s: d for s, d in mine.items() if defs.get(d) == kind}
        judged = {s: d for s, d in m.items() if s in ref}
        correct = sum(1 for s, d in judged.items() if ref[s] == d)
        hit = sum(1 for s, d in r.items() if m.get(s) == d)
        out[kind] = {"reference_edges": len(r), "our_edges": len(m), "judged": len(judged),
                     "precision": round(correct / len(judged), 3) if judged else None,
                     "recall": round(hit / len(r), 3) if r else None,
                     "wrong": sorted([list(s) + list(d) + list(ref[s]) for s, d in judged.items()
                                      if ref[s] != d])[:20],
                     "missed": sorted([[*s, *d, targets.get(s, "?")] for s, d in r.items()
                                       if m.get(s) != d])[:60]}
    labels = Counter(label for _, label, _ in listed)
    out["labels"] = dict(labels)
    out["name_only_share"] = round(labels["name_only"] / max(1, sum(labels.values())), 3)
    other = Counter(label for s, label, d in listed
                    if defs.get(d) == "method" and s in ref and ref[s][0] and ref[s] != d)
    out["method_sites_jedi_puts_elsewhere"] = dict(other)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--requests", required=True)
    ap.add_argument("--flask", required=True)
    ap.add_argument("--out", default="")
    args = ap.parse_args()
    repos = {"requests": tree_files(args.requests), "flask": tree_files(args.flask)}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "src"
        for repo, files in repos.items():
            for path, text in files.items():
                (root / repo / path).parent.mkdir(parents=True, exist_ok=True)
                (root / repo / path).write_text(text)
        start = time.perf_counter()
        ref = reference(root, repos)
        ref_s = time.perf_counter() - start
        defs = _def_lines(repos)
        configs = []
        for repo, files in repos.items():
            GitRepo(Path(tmp) / "git" / repo).commit(files)
            configs.append(RepoConfig(repo, str(Path(tmp) / "git" / repo)))
        with daemon(Path(tmp), *configs) as d:
            for repo in repos:
                d.pipeline.index_repo(d.cfg.repo(repo), with_dense=False)
            mine, listed, spent, targets = ours(d.service, defs)
    result = score(ref, mine, listed, defs, targets)
    result["reference_seconds"] = round(ref_s, 1)
    result["callers_ms_p50"] = round(statistics.median(spent) * 1000, 2)
    result["callers_ms_p95"] = round(sorted(spent)[int(len(spent) * 0.95)] * 1000, 2)
    result["definitions_asked"] = len({d for _, _, d in listed})
    print(json.dumps(result, indent=1))
    if args.out:
        Path(args.out).write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
