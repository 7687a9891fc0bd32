"""Prose in the code (a command's help text, an entry point documented at length) ranks
under the code doing the work for an issue, end to end on a real git fixture and the real
embedded store (issues are ranked lexical-first). ripgrep's ``app.rs`` (a function per
flag, its help text in string literals) led six of a newcomer's twelve issues, loguru's
``Logger.add`` (a 45 kB docstring) eight of sixteen: the reporter's words are the help's.
The plain behaviour is asserted first (no prose demotion), then the shipped one."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from coderecalld.index import chunk
from coderecalld.query import service
from conformance_cases import indexed

FILES = {
    # the help: every word of the issue, in string literals
    "cli/flags.py": '''\
def flag_replace(args):
    args.append(("replace", "r", "Replace every match with the given replacement text.", (
        "Replace every match with the replacement text when printing results. "
        "Capture group indices and names are supported in the replacement text; "
        "a group index followed by letters is read as a group name of digits and "
        "letters, so put the index in braces for the group followed by letters. "
        "The replacement never modifies a file: it only changes the printed lines.")))


def flag_count(args):
    args.append(("count", "c", "Only show the count of matching lines for each file.", ""))
''',
    # the work: few of the issue's words
    "printer/interpolate.py": '''\
def interpolate(captures, replacement, out):
    # interpolating the replacement text: each capture group, by its index or by its name
    # of letters and digits, is printed in its place
    i = 0
    while i < len(replacement):
        if replacement[i] == "$" and i + 1 < len(replacement):
            end = i + 1
            while end < len(replacement) and replacement[end].isalnum():
                end += 1
            name = replacement[i + 1:end]
            group = captures.get(int(name) if name.isdigit() else name)
            out.append(group or "")  # a missing group prints nothing
            i = end
        else:
            out.append(replacement[i])
            i += 1
    return out
''',
    "printer/lines.py": '''\
def print_line(line, out):
    out.append(line.rstrip("\\n"))
''',
}

ISSUE = """\
--replace with a capture group index followed by letters prints nothing for the group
When the replacement text has a capture group index followed by letters, e.g. `$1foo`,
the printed lines have the letters but the group is missing, and a group name of digits
followed by letters is read when interpolating the replacement.
```
$ echo 'abc' | tool 'a(b)c' --replace '$1x'
```
"""


@pytest.fixture(scope="module")
def prose_daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("prose"), FILES) as d:
        yield d


def test_a_help_text_ranks_under_the_code_doing_the_work_for_an_issue(prose_daemon: Daemon) -> None:
    """The help text of ``--replace`` holds more of the issue's words than the function
    interpolating the replacement; for an issue, its prose (string literals for most of
    it) costs it the first place. A question asking about the flag still finds the help."""
    with pytest.MonkeyPatch.context() as m:  # the plain behaviour: the help first
        m.setattr(service, "PROSE_PENALTY_LONG", 0.0)
        plain = prose_daemon.service.locate(ISSUE, limit=3, repo="fx")
        assert [f.path for f in plain.files][:2] == ["cli/flags.py", "printer/interpolate.py"]
        assert prose_daemon.service.search(ISSUE, limit=1, repo="fx")[0].path == "cli/flags.py"
    shipped = prose_daemon.service.locate(ISSUE, limit=3, repo="fx")
    assert [f.path for f in shipped.files][:2] == ["printer/interpolate.py", "cli/flags.py"]
    assert shipped.files[0].functions[0].qualified_name == "interpolate"
    assert prose_daemon.service.search(ISSUE, limit=1, repo="fx")[0].path == "printer/interpolate.py"
    # a short question is no issue: its words find the help
    assert prose_daemon.service.search("replacement text capture group names help", limit=1,
                                       repo="fx")[0].qualified_name == "flag_replace"


@pytest.mark.parametrize(("text", "share"), [
    ('f("ab")', 4 / 7),
    ('"""doc"""\nx', 9 / 11),  # a docstring is prose too
    ("x = y * 2\n", 0.0),
    ("c == '\"' || c == 'x'", 6 / 20),  # a quote in a char literal opens nothing
    ('s = "abc', 4 / 8),  # a literal the text cuts runs to its end
    ('s = "a\nb"\n', 5 / 10),  # across lines
    ("x = `a ${b}`;", 8 / 13),
    ("", 0.0),
])
def test_a_chunk_s_prose_share_is_its_string_literals(text: str, share: float) -> None:
    """``chunk.prose_share``: the share of a chunk's text in string literals of any
    quotes, a docstring too."""
    assert chunk.prose_share(text) == pytest.approx(share)


def test_a_help_text_the_title_names_keeps_its_place(prose_daemon: Daemon) -> None:
    """A title naming the prose chunk (or its owner) points at it: pytest's
    ``pytest.raises(match=...) ..`` and its documented ``raises``, seaborn's ``heatmap``
    (newcomers' issues): its score is the one it has with no prose demotion."""
    titled = "flag_replace: " + ISSUE

    def score(text: str) -> float:
        (flags,) = [f for f in prose_daemon.service.locate(text, limit=3, repo="fx").files if f.path == "cli/flags.py"]
        return flags.functions[0].score

    kept = score(titled)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(service, "PROSE_PENALTY_LONG", 0.0)
        assert score(titled) == kept
        m.setattr(service, "PROSE_PENALTY_LONG", 0.6)
        m.setattr(service, "PROSE_TITLED_KEPT", False)
        assert score(titled) < kept - 0.2
