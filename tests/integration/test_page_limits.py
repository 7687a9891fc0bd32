"""A search page does not depend on ``--limit``: the first ``k`` hits of a page of ``limit``
are the page of ``k`` (``service.RANKED_FLOOR``). With the model on, a question the
hybrid order is unsure of is also ranked by its words alone and both orders are fused by
their ranks (``rank_fused``); when each order was read only ``limit`` deep, a hit the
lexical order ranked just past it lost its second vote on a short page, and 13 of 24
questions on loguru and hono had another first ten at ``--limit 10`` than at ``--limit
50`` (a newcomer). Real code (the interpreter's own ``argparse``, ``shlex`` and
``textwrap``), the real model, a real daemon: with the former depth (``max(limit, 10)``)
10 of these 16 questions' pages differed."""

from __future__ import annotations

import sysconfig
from collections.abc import Iterator
from pathlib import Path

import pytest

from coderecalld.config import Config, EmbeddingConfig, RepoConfig
from coderecalld.daemon import Daemon
from gitfixtures import GitRepo

MODULES = ("argparse.py", "shlex.py", "textwrap.py")
QUESTIONS = (
    "how does the parser print the usage message when an argument is missing",
    "how does shlex split a command line respecting quotes",
    "how are default values of arguments converted with their type function",
    "where does the parser read arguments from a file prefixed with a character",
    "how are subcommands dispatched to their own parser",
    "how are choices validated for an argument",
    "what happens when an option is given twice with the append action",
    "how are escape characters handled when quoting a string for a shell",
    "how does fill break long words across lines",
    "where is the version action printing the program version",
    "how are abbreviated long options matched to their full names",
    "how is a negative number told apart from an option flag",
)


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    root = tmp_path_factory.mktemp("limits")
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    repo = GitRepo(root / "std")
    repo.commit({f"lib/{name}": (stdlib / name).read_text(encoding="utf-8") for name in MODULES}, "initial")
    cfg = Config(data_dir=root / "data", repos=[RepoConfig("std", str(repo.path), "main")],
                 embedding=EmbeddingConfig(threads=2))
    daemon = Daemon.open(cfg)
    try:
        daemon.jobs.run_now("std")
        yield daemon
    finally:
        daemon.close()


def page(daemon: Daemon, question: str, limit: int) -> list[tuple[str, str, int]]:
    return [(h.path, h.qualified_name, h.start_line) for h in daemon.service.search(question, limit=limit, repo="std")]


@pytest.mark.parametrize("question", QUESTIONS)
def test_a_shorter_page_is_the_first_part_of_a_longer_one(running: Daemon, question: str) -> None:
    longest = page(running, question, 50)
    assert len(longest) == 50
    assert page(running, question, 10) == longest[:10]
    assert page(running, question, 5) == longest[:5]
