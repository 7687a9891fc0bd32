"""The architecture's import contracts (pyproject.toml ``[tool.importlinter]``) hold.

import-linter builds the import graph of ``coderecalld`` and ``coderecall`` and checks the
layer order (cli -> daemon -> server/ops -> query/index -> embed/store/parse/files ->
foundation -> config -> records/errors), that ``query`` and ``index`` never import each
other, and that no domain package imports grpc or the generated stubs.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_import_contracts_are_kept() -> None:
    exe = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or shutil.which("lint-imports")
    assert exe, "lint-imports (import-linter, a dev dependency) is not installed"
    run = subprocess.run([exe, "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "4 kept, 0 broken" in run.stdout, run.stdout
