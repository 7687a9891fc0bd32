"""Benchmark: parse throughput of ``coderecalld.parse.symbols`` on real code nobody here wrote.

Parses every ``.py`` file of the running interpreter's standard library (``sysconfig``'s
``stdlib`` path, site-packages left out), then, per other supported language, every file of
that language found under site-packages. Files are read into memory first, so the figures
are parse + symbol extraction only (no git, no chunking, no I/O).

    python tests/bench/bench_parse.py [--repeat N] [--no-site-packages]

Prints, per language: files, MB, symbols, seconds, files/s, MB/s, symbols/s (best of
``--repeat`` runs). Not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import sysconfig
import time
from collections import defaultdict
from pathlib import Path

from coderecalld import parse
from coderecalld.errors import ParseError


def stdlib_files() -> list[Path]:
    root = Path(sysconfig.get_paths()["stdlib"])
    return sorted(p for p in root.rglob("*.py") if "site-packages" not in p.parts and p.is_file())


def site_package_files() -> dict[str, list[Path]]:
    """Files of each supported language other than Python under site-packages."""
    by_language: dict[str, list[Path]] = defaultdict(list)
    for path in sorted(Path(sysconfig.get_paths()["purelib"]).rglob("*")):
        language = parse.language_for(path.name) if path.is_file() else None
        if language and language != "python":
            by_language[language].append(path)
    return by_language


def run(language: str, blobs: list[bytes], repeat: int) -> tuple[float, int, int]:
    """(best seconds, symbols, files that raised) for parsing every blob once."""
    best, symbols, failed = float("inf"), 0, 0
    for _ in range(repeat):
        symbols = failed = 0
        started = time.perf_counter()
        for blob in blobs:
            try:
                symbols += len(parse.symbols(blob, language).symbols)
            except ParseError:  # not UTF-8 (a few stdlib test files on purpose)
                failed += 1
        best = min(best, time.perf_counter() - started)
    return best, symbols, failed


def report(label: str, blobs: list[bytes], seconds: float, symbols: int, failed: int) -> None:
    mb = sum(map(len, blobs)) / 1e6
    print(f"{label:<22} {len(blobs):>6} files {mb:>7.1f} MB {symbols:>7} symbols {seconds:>6.2f} s | "
          f"{len(blobs) / seconds:>7.0f} files/s {mb / seconds:>5.2f} MB/s "
          f"{symbols / seconds:>7.0f} symbols/s  ({failed} not UTF-8)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-site-packages", action="store_true")
    args = parser.parse_args()
    sets = {"python (stdlib)": ("python", stdlib_files())}
    if not args.no_site_packages:
        for language, paths in site_package_files().items():
            sets[f"{language} (site-packages)"] = (language, paths)
    for label, (language, paths) in sets.items():
        blobs = [p.read_bytes() for p in paths]
        run(language, blobs[:20], 1)  # warm-up: grammar load, query compile
        report(label, blobs, *run(language, blobs, args.repeat))


if __name__ == "__main__":
    main()
