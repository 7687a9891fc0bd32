"""A question whose candidates are all examples still reaches the source (``service.
SOURCE_RESCUE``): typer's tutorials under ``docs_src/`` (hundreds of small scripts, each
making and running an app) filled a 100-hit page and never showed ``get_typer_from_module``,
first with ``--role source``; at ``--limit 200`` it was first, so the page depended on the
limit (a newcomer). A repo built the same way: one source module, 150 example scripts.
Indexed with the real model, asked through the client."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecall import Client
import livedaemon
from coderecalld.config import Config, EmbeddingConfig, IndexConfig, RepoConfig
from coderecalld.query import fusion, service
from gitfixtures import GitRepo

SOURCE = '''"""Run a script's application from the command line."""

import importlib
import sys


def find_app_in_module(module):
    """Return the application object defined at the top level of ``module``: the
    variable named ``app``, else the first value of the application class."""
    for name in ("app", "application", "main"):
        value = getattr(module, name, None)
        if value is not None:
            return value
    for value in vars(module).values():
        if type(value).__name__ == "App":
            return value
    return None


def load(path):
    sys.path.insert(0, ".")
    return find_app_in_module(importlib.import_module(path))
'''

EXAMPLE = '''import apptool

app = apptool.App()


@app.command()
def hello_{i}(name: str):
    """Say hello to NAME from the app in this script, tutorial step {i}."""
    print(f"Hello {{name}} from the app object of this python script")


if __name__ == "__main__":
    app()
'''
EXAMPLES = 150
QUESTION = "where does the apptool command find the app object inside a python script or module"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Client]:
    tmp_path = tmp_path_factory.mktemp("rescue")
    files = {"apptool/__init__.py": "", "apptool/cli.py": SOURCE}
    files.update({f"docs_src/step{i:03}/tutorial{i:03}.py": EXAMPLE.format(i=i) for i in range(EXAMPLES)})
    repo = GitRepo(tmp_path / "fixture")
    repo.commit(files, "initial")
    live = livedaemon.start(Config(data_dir=tmp_path / "data", repos=(RepoConfig("tool", str(repo.path), "main"),),
                                   embedding=EmbeddingConfig(threads=2),
                                   index=IndexConfig(sync_interval_s=3600, sync_jitter_s=0)))
    live.daemon.jobs.run_now("tool")  # the vectors
    try:
        yield live.client
    finally:
        live.close()


def test_a_page_of_examples_still_reaches_the_source(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    page = client.search(QUESTION, limit=10)
    assert [(h.path, h.qualified_name) for h in page[:1]] == [("apptool/cli.py", "find_app_in_module")]
    # the page does not depend on the limit (the examples tie: their order among them may)
    wide = client.search(QUESTION, limit=200)[:10]
    assert [(h.role, h.qualified_name if h.role == "source" else "") for h in page] == [
        (h.role, h.qualified_name if h.role == "source" else "") for h in wide]
    # the role filter finds it first too, and without the second reading the page lost it
    assert client.search(QUESTION, limit=1, role="source")[0].qualified_name == "find_app_in_module"
    # without the second reading, the fusion's sparse candidates (scored on both sides:
    # ``fusion.SPARSE_COSINES``) reach it too; without either, the page lost it
    monkeypatch.setattr(service, "SOURCE_RESCUE", False)
    assert "find_app_in_module" in [h.qualified_name for h in client.search(QUESTION, limit=10)]
    monkeypatch.setattr(fusion, "SPARSE_COSINES", False)
    assert "find_app_in_module" not in [h.qualified_name for h in client.search(QUESTION, limit=10)]
