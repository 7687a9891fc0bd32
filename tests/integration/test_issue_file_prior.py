"""An issue's chunk search orders chunks with their file's score (``service.FILE_PRIOR``),
end to end on a real git fixture and the real embedded store (sparse side: issues are
ranked lexical-first). The plain chunk order is asserted first (prior off), then the
shipped one: the file the whole issue points at keeps its chunks together above a lone
stronger-scoring chunk of another file, and every reported score is the chunk's own."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from coderecalld.query import locate as locating
from coderecalld.query import service
from coderecalld.records import Hit
from conformance_cases import indexed

FILES = {
    # Three chunks that each share some of the issue's words.
    "pkg/tokens.py": '''\
def split_tokens(text):
    """Split text into tokens; a quoted token stays whole."""
    return [t for t in text.split(" ") if t]


def read_quoted(text, start):
    """Read a quoted string token from its opening quote to its closing quote."""
    end = text.index('"', start + 1)
    return text[start + 1:end]


def unescape(token):
    """Undo an escape sequence inside a token."""
    return token.replace("\\\\\\\\", "\\\\")
''',
    # One chunk that repeats the words the issue says are fine.
    "pkg/style.py": '''\
def reindent(lines, width):
    """Indentation of output lines: the output indentation is fixed; the escape of a
    tab in the output becomes indentation; output indentation by spaces."""
    return [" " * width + line.lstrip() for line in lines]
''',
}

ISSUE = """\
Tokenizer drops the escape in quoted strings
When a quoted string holds an escape sequence, the tokenizer splits the quoted token and the
escape is lost. The indentation of the output is fine; only quoted tokens with an escape break.
"""


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("prior"), FILES) as d:
        yield d


def _page(daemon: Daemon) -> list[tuple[str, str, float]]:
    return [(h.path, h.qualified_name, h.score)
            for h in daemon.service.search(ISSUE, limit=4, repo="fx", mode="hybrid")]


def test_an_issue_keeps_the_chunks_of_its_file_above_a_lone_stronger_chunk(
        daemon: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as m:
        m.setattr(service, "FILE_PRIOR", {})
        m.setattr(service, "LOCATED_ORDER_SHAPES", frozenset())  # nor by locate's files
        plain = _page(daemon)
    assert [(p, q) for p, q, _ in plain] == [
        ("pkg/tokens.py", "read_quoted"), ("pkg/tokens.py", "unescape"),
        ("pkg/style.py", "reindent"), ("pkg/tokens.py", "split_tokens")]
    shipped = _page(daemon)
    assert [(p, q) for p, q, _ in shipped] == [
        ("pkg/tokens.py", "read_quoted"), ("pkg/tokens.py", "unescape"),
        ("pkg/tokens.py", "split_tokens"), ("pkg/style.py", "reindent")]
    # The prior orders, it does not rescore: each reported score is the chunk's own (the
    # plain page's, in score order) capped at the one above it (service._descending), so
    # the lone stronger chunk placed 4th shows the 3rd's score, not its higher own.
    own = {(p, q): score for p, q, score in plain}
    assert [score for _, _, score in plain] == sorted((score for _, _, score in plain), reverse=True)
    assert [score for _, _, score in shipped] == [own[(p, q)] for p, q, _ in shipped[:3]] + [shipped[2][2]]
    assert own[("pkg/style.py", "reindent")] > shipped[3][2]


def test_file_scores_are_locates_file_scores(daemon: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(service, "LEXICAL_FILES_DEPTH", 0)  # the chunks' file scores: no fused score
    hits = daemon.service.search(ISSUE, limit=4, repo="fx", mode="hybrid")
    best = {}
    for h in hits:
        best.setdefault(h.path, []).append(h.score)
    scores = locating.file_scores(
        [Hit(str(i), h.score, {"repo": h.repo, "path": h.path}) for i, h in enumerate(hits)])
    tokens = sorted(best["pkg/tokens.py"], reverse=True)
    assert scores[("fx", "pkg/tokens.py")] == pytest.approx(tokens[0] + locating.SPREAD * tokens[1])
    assert scores[("fx", "pkg/style.py")] == pytest.approx(best["pkg/style.py"][0])
    located = daemon.service.locate(ISSUE, limit=2, repo="fx")
    assert [f.path for f in located.files] == ["pkg/tokens.py", "pkg/style.py"]
    assert located.files[0].score == pytest.approx(scores[("fx", "pkg/tokens.py")], abs=1e-6)


def test_a_path_glob_is_applied_before_the_page_is_cut(daemon: Daemon) -> None:
    # The prior puts tokens.py's three chunks first; a glob naming the other file must
    # still find its chunk among the candidates, not filter an already cut page to nothing.
    hits = daemon.service.search(ISSUE, limit=2, repo="fx", mode="hybrid", path_glob="*/style.py")
    assert [(h.path, h.qualified_name) for h in hits] == [("pkg/style.py", "reindent")]


def test_a_session_overlay_keeps_the_order(daemon: Daemon) -> None:
    # Merging a session's overlay hits re-sorted every hit by raw score, undoing the
    # prior (and the role order): the merged page must keep the shipped order.
    daemon.service.index_overlay("fx", "pkg/unrelated.py", b"def answer():\n    return 42\n", "s1")
    hits = daemon.service.search(ISSUE, limit=4, repo="fx", mode="hybrid", session="s1")
    assert [(h.path, h.qualified_name) for h in hits] == [
        ("pkg/tokens.py", "read_quoted"), ("pkg/tokens.py", "unescape"),
        ("pkg/tokens.py", "split_tokens"), ("pkg/style.py", "reindent")]
