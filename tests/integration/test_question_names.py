"""A short question whose adjacent words spell a definition's name (``Query.compounds``):
"the run server command" names ``runserver``, a name no word of the question matches as a
term. On a real git fixture and the real embedded store, sparse side only (the lookup is
keyword-exact; the model would only blur which case fails without it)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from coderecalld.store import StoreFilter
from coderecalld.query import service, shape
from conformance_cases import indexed

FILES = {
    "tool/management.py": '''\
def runserver(addr, port):
    """Serve the application on a local address until interrupted."""
    return addr, port


def shell(addr):
    """Start an interactive shell: a server command to run checks on the server."""
    return addr


def check_server(addr):
    """Run the server checks: each server command runs a check of the server."""
    return addr
''',
    "tool/docs_commands.py": '''\
def describe_server(app):
    """The server command runs the server; run the server command to run a server."""
    return app


def describe_commands(app):
    """Every command: run a server command, run a shell command, run a check command."""
    return app
''',
    "tool/copies.py": '''\
def copyfile(src, dst):
    """Copy bytes."""
    return src, dst
''',
    "tool/other_copies.py": '''\
def copyfile(src, dst):
    """Copy bytes too."""
    return src, dst
''',
    # A private helper the question spells without its underscore, among chunks that
    # repeat the question's other words.
    "tool/matching.py": '''\
def _check_match(pattern, text):
    found = pattern.search(text)
    if found is None:
        raise AssertionError(f"Regex {pattern!r} did not find {text!r} in the string given"
                             " by the caller; its flags and groups are shown above")
    return found


def validate_pattern(pattern):
    """The validator checks a pattern: each match of the pattern, checked by the validator."""
    return pattern


def pattern_validator(pattern):
    """A validator of the match pattern: the validator checks every match and pattern."""
    return pattern


def describe_validator(pattern):
    """Where the validator checks: match, pattern, check of the validator's match."""
    return pattern


def match_checker(pattern):
    """The match checker: a validator that checks the pattern of every match."""
    return pattern


def checked_pattern(pattern):
    """A checked pattern: the validator's check of a match of the pattern."""
    return pattern
''',
    "tool/records.py": "".join(
        f"class Record{i}:\n    def to_dict(self):\n        return {{}}\n\n\n" for i in range(40))
    + "def from_dict(data):\n    return data\n\n\nclass Other:\n    def from_dict(self, data):\n        return data\n",
    # Methods a short question names as ``Class.method``: their chunks hold ``def fetch``,
    # never the text ``Vault.fetch``, among chunks that repeat the question's other words.
    "tool/vault.py": '''\
class Vault:
    def fetch(self, name):
        return self.items[name]

    def put(self, name, value):
        self.items[name] = value
''' + "".join(f'''

def guard_{i}(keys):
    """Reject keys outside the vault directory: vault keys outside the directory are rejected."""
    return [k for k in keys if k]
''' for i in range(6)),
    # A method a subclass only inherits: ``Frame.where`` is ``Shared.where``, though
    # ``where`` alone has two definitions.
    "tool/frames.py": '''\
class Shared:
    def where(self, cond):
        return [x for x in self.rows if cond(x)]


class Frame(Shared):
    def __init__(self, rows):
        self.rows = rows


class Index:  # another ``where``: the last part alone names two definitions
    def where(self, cond):
        return cond
''',
    # Overload stubs beside their implementation are one definition; a test's nested
    # helper and a class of another case are no definition of ``pkg.fail``/``tool.skip``.
    "tool/outcomes.py": '''\
from typing import overload


@overload
def expect(value: int) -> int: ...
@overload
def expect(value: str) -> str: ...
def expect(value):
    return value


class Skip:
    reason = ""
''',
    "tests/test_outcomes.py": '''\
def test_nested():
    def fail(message):
        raise AssertionError(message)
    fail("x")
''',
    "tests/test_management.py": '''\
def test_runserver(client):
    """The run server command serves."""
    assert client.get("/").status == 200
''',
}


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("compounds"), FILES) as d:
        yield d


QUESTION = "where is the run server command implemented"


def test_compounds_of_a_question() -> None:
    assert shape.analyze(QUESTION).compounds == (
        "run_server", "runserver", "server_command", "servercommand",
        "run_server_command", "runservercommand")
    assert shape.analyze("how do I make an archive").compounds == ("make_archive", "makearchive")
    assert shape.analyze("run_server(").compounds == ()  # an identifier is not a question
    # A code span or code word is a name already (``Query.symbols``) and breaks a run.
    for text in ("how does `app.test_client` keep cookies", "how does app.test_client keep cookies"):
        assert shape.analyze(text).compounds == ("keep_cookies", "keepcookies")


def test_the_definition_a_question_spells_is_on_the_first_page(
        daemon: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as m:
        m.setattr(service, "COMPOUND_RANK", 0)
        before = [h.qualified_name for h in daemon.service.search(QUESTION, limit=3, repo="fx")]
    assert "runserver" not in before
    hits = daemon.service.search(QUESTION, limit=3, repo="fx")
    assert [(h.qualified_name, h.match) for h in hits][2] == ("runserver", "name")
    assert hits[2].path == "tool/management.py" and hits[2].role == "source"
    assert [h.qualified_name for h in hits][:2] == before[:2]  # the rest keeps its order
    scores = [h.score for h in hits]
    assert scores == sorted(scores, reverse=True)  # the inserted hit takes the displaced score


def test_a_name_with_two_definitions_behind_a_common_one_inserts_nothing(daemon: Daemon) -> None:
    """40 to_dict definitions must not hide that from_dict has two (each name's own read)."""
    hits = daemon.service.search("convert records to dict from dict", limit=5, repo="fx")
    assert all(h.match != "name" for h in hits)


def test_an_ambiguous_compound_inserts_nothing(daemon: Daemon) -> None:
    hits = daemon.service.search("where do we copy file bytes", limit=5, repo="fx")
    assert all(h.match != "name" for h in hits)  # two copyfile definitions: neither


def test_a_compound_the_page_already_holds_moves_nothing(daemon: Daemon) -> None:
    hits = daemon.service.search("serve the application on a local address runserver", limit=5,
                                 repo="fx")
    assert [h.qualified_name for h in hits].count("runserver") == 1
    assert all(h.match != "name" for h in hits)


@pytest.mark.parametrize(("query", "low", "reason"), [
    ('"server-command"', True, "no indexed chunk holds 'server-command': these hits match its parts"),
    ("run_command", True, "no indexed chunk holds 'run_command': these hits match its parts"),
    ("proxy_set_header", True, "no results"),   # nothing matches at all
    ('"runserver"', False, ""),                 # held: its definition
    # a dotted name's parts may be written apart (``tool`` imported, ``runserver`` called):
    # its member alone is looked for; absent, it is said (a newcomer's ``Sinatra::Helpers#
    # websocket_upgrade!`` answered the Sinatra module at 0.89, unflagged)
    ("tool.runserver", False, ""),
    ("tool.run_command", True, "no indexed chunk holds 'run_command': these hits match its parts"),
    ("Tool::Helpers#run_command!", True, "no indexed chunk holds 'run_command': these hits match its parts"),
])
def test_a_literal_or_name_the_index_lacks_says_so(daemon: Daemon, query: str, low: bool,
                                                   reason: str) -> None:
    hits = daemon.service.search(query, limit=5, repo="fx")
    assert (hits.low_confidence, hits.confidence_reason) == (low, reason)
    if reason.startswith("no indexed chunk"):
        assert hits  # the partial matches are still answered


def test_a_literal_absent_from_a_narrowed_search_says_where_it_looked(daemon: Daemon) -> None:
    """The index holds ``check_server`` (``tool/management.py``); ``tool/docs_commands.py``
    holds only its words."""
    assert daemon.service.search("check_server", limit=5, repo="fx")[0].path == "tool/management.py"
    hits = daemon.service.search("check_server", limit=5, repo="fx", path_prefix="tool/docs")
    assert (hits.low_confidence, hits.confidence_reason) == (
        True, "no chunk in the searched paths, languages, kinds or roles holds 'check_server': "
              "these hits match its parts")


def test_a_glob_whose_match_lies_below_the_chunks_read_is_no_absence(
        daemon: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    """jq: ``search reduce --path-glob '*.y'`` said no chunk holds ``reduce``, while the
    grammar did: the chunks read for the word held it elsewhere first."""
    monkeypatch.setattr(service, "EVIDENCE_DEPTH", 1)  # the word's best holder alone is read
    holders = [h.payload["path"] for h in daemon.service.store.sparse_search(
        shape.evidence_vector("server"), StoreFilter(repos=("fx",)), 10)]
    lower = next(p for p in holders if p != holders[0])
    hits = daemon.service.search('"server"', limit=5, repo="fx", path_glob="*" + lower.rsplit("/", 1)[1])
    assert [h.path for h in hits][:1] == [lower]
    assert "holds 'server'" not in hits.confidence_reason


NAMED = "``Vault.fetch()`` and ``Vault.put()`` now reject keys outside the vault directory"


def test_the_definitions_a_question_names_as_code_are_on_the_first_page(
        daemon: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    assert shape.analyze(NAMED).symbols == ("Vault.fetch", "Vault.put")
    with monkeypatch.context() as m:
        m.setattr(service, "COMPOUND_RANK", 0)
        before = [h.qualified_name for h in daemon.service.search(NAMED, limit=5, repo="fx")]
    assert not {"Vault.fetch", "Vault.put"} & set(before)
    with monkeypatch.context() as m:
        m.setattr(service, "MEMBER_RANK", 0)  # every name from COMPOUND_RANK on
        hits = daemon.service.search(NAMED, limit=5, repo="fx")
    assert [(h.qualified_name, h.match) for h in hits][2:4] == [
        ("Vault.fetch", "name"), ("Vault.put", "name")]  # named first, placed first
    assert [h.qualified_name for h in hits][:2] == before[:2]
    assert [h.qualified_name for h in hits][4] == before[2]
    # the first, a method written with its class, is what the text is about: first
    hits = daemon.service.search(NAMED, limit=5, repo="fx")
    assert [(h.qualified_name, h.match) for h in hits] == [
        ("Vault.fetch", "name"), (before[0], "hybrid"), ("Vault.put", "name"),
        (before[1], "hybrid"), (before[2], "hybrid")]
    scores = [h.score for h in hits]
    assert scores == sorted(scores, reverse=True)
    located = daemon.service.locate(NAMED, limit=3, repo="fx")
    assert located.files[0].path == "tool/vault.py"
    assert {"Vault.fetch", "Vault.put"} <= {f.qualified_name for f in located.files[0].functions}


def test_a_member_named_past_the_subject_stays_below_the_questions_own_words(daemon: Daemon) -> None:
    """A member written after the question's subject ("why does vault guard call
    ``Vault.fetch``") is its context: placed at ``COMPOUND_RANK``, as before ``MEMBER_RANK``
    (a review: "why does warm call Cache.get" put ``Cache.get`` above ``warm``)."""
    hits = daemon.service.search("why does the vault guard call ``Vault.fetch`` for keys outside the directory",
                                 limit=5, repo="fx")
    assert [(h.qualified_name, h.match) for h in hits][2] == ("Vault.fetch", "name")


def test_a_named_type_stays_below_the_questions_own_words(daemon: Daemon) -> None:
    """A type's name written with its module (``tool.Vault``) is often the question's
    context, not its answer: placed at ``COMPOUND_RANK``, never first (rack's "what does
    Rack::Lint check in check_headers")."""
    hits = daemon.service.search("why does ``vault.Vault`` reject keys outside the vault directory",
                                 limit=5, repo="fx")
    assert [(h.qualified_name, h.match) for h in hits][2] == ("Vault", "name")


def test_a_named_method_a_class_inherits_is_its_bases(daemon: Daemon) -> None:
    hits = daemon.service.search("why does ``Frame.where`` reject keys outside the vault",
                                 limit=5, repo="fx")
    assert [(h.qualified_name, h.path, h.match) for h in hits][0] == (
        "Shared.where", "tool/frames.py", "name")


def test_an_overloaded_function_is_one_definition_its_implementation(
        daemon: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    # ``outcomes.expect``: three definitions (two @overload stubs); verbatim evidence off
    # (its word lookup finds the implementation too).
    monkeypatch.setattr(service, "MAX_EVIDENCE", 0)
    hits = daemon.service.search("why does `outcomes.expect` reject keys outside the vault directory",
                                 limit=5, repo="fx")
    placed = [(h.qualified_name, h.start_line, h.match) for h in hits if h.qualified_name == "expect"]
    assert placed == [("expect", 8, "name")]  # the implementation, not a stub
    assert hits[0].qualified_name == "expect"  # a function written with its module


@pytest.mark.parametrize("question", [
    "does ``pkg.fail`` reject keys outside the vault directory",   # a test's nested fail
    "does ``tool.skip`` reject keys outside the vault directory",   # the class Skip
])
def test_a_last_part_fallback_needs_the_name_and_its_owner(daemon: Daemon, question: str) -> None:
    hits = daemon.service.search(question, limit=5, repo="fx")
    assert all(h.match != "name" for h in hits)


def test_a_named_symbol_falls_back_to_its_last_part_and_skips_ambiguous_ones(
        daemon: Daemon) -> None:
    # ``vault.Vault.fetch`` (a module path before it) has no such qualified name: its last
    # part, ``fetch``, has one definition. ``copyfile`` has two: it names neither.
    hits = daemon.service.search("why does ``tool.vault.fetch`` reject keys outside the vault",
                                 limit=5, repo="fx")
    assert ("Vault.fetch", "name") in [(h.qualified_name, h.match) for h in hits]
    hits = daemon.service.search("why does ``copyfile`` reject keys outside the vault",
                                 limit=5, repo="fx")
    assert all(h.match != "name" for h in hits)


def test_a_bare_name_means_the_definition_whose_qualified_name_it_is(
        daemon: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    # ``from_dict``: a module-level function and ``Other.from_dict``. Written bare it means
    # the function (seaborn's ``lineplot``, not ``_RegressionPlotter.lineplot``); two
    # definitions by name alone named neither. Verbatim evidence off: its word lookup
    # finds ``def from_dict`` too.
    monkeypatch.setattr(service, "MAX_EVIDENCE", 0)
    question = "why does ``from_dict`` reject keys outside the vault directory"
    with monkeypatch.context() as m:
        m.setattr(service, "SYMBOL_QUALIFIED_FIRST", False)
        before = daemon.service.search(question, limit=5, repo="fx")
    assert all(h.match != "name" for h in before)
    hits = daemon.service.search(question, limit=5, repo="fx")
    assert [(h.qualified_name, h.path, h.start_line, h.match) for h in hits][2] == (
        "from_dict", "tool/records.py", 201, "name")
    assert daemon.service.locate(question, limit=3, repo="fx").files[0].path == "tool/records.py"
    # the method, written so, is the method; a bare name of two methods names neither
    hits = daemon.service.search("why does ``Other.from_dict`` reject keys outside the vault",
                                 limit=5, repo="fx")
    assert [(h.qualified_name, h.match) for h in hits][0] == ("Other.from_dict", "name")
    hits = daemon.service.search("why does ``where`` reject keys outside the vault",
                                 limit=5, repo="fx")
    assert all(h.match != "name" for h in hits)


PRIVATE = "where does the validator check the match pattern"


def test_a_compound_also_names_a_private_definition(
        daemon: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    assert "check_match" in shape.analyze(PRIVATE).compounds
    with monkeypatch.context() as m:
        m.setattr(service, "COMPOUND_RANK", 0)
        before = [h.qualified_name for h in daemon.service.search(PRIVATE, limit=3, repo="fx")]
    assert "_check_match" not in before
    hits = daemon.service.search(PRIVATE, limit=3, repo="fx")
    assert [(h.qualified_name, h.match, h.path) for h in hits][2] == (
        "_check_match", "name", "tool/matching.py")


def test_a_functions_overload_stubs_and_implementation_are_one_hit(daemon: Daemon) -> None:
    hits = daemon.service.search("expect value int str", limit=10, repo="fx")
    found = [(h.qualified_name, h.start_line) for h in hits if h.qualified_name == "expect"]
    assert found == [("expect", 8)]  # once, at the implementation's lines
    scores = [h.score for h in hits]
    assert scores == sorted(scores, reverse=True)


def test_a_name_in_capitals_pins_only_a_definition_spelt_so(tmp_path) -> None:
    """``WEB_CONCURRENCY`` is an environment variable the code reads, not the test fixture
    ``web_concurrency``: a capitals-only query pins a definition only as written (uvicorn,
    a newcomer); ``HTTPAdapter``-style names and lowercase queries still pin
    case-insensitively."""
    files = {
        "app/config.py": '''\
import os


def workers_from_env(default):
    """How many workers to start."""
    return int(os.environ.get("WEB_CONCURRENCY", default))


def MAX_WORKERS():
    return 8


def _max_workers():
    return 4


class Json:
    """A JSON body."""
''',
        "tests/test_config.py": '''\
def web_concurrency(monkeypatch):
    monkeypatch.setenv("WEB_CONCURRENCY", "2")


def max_workers():
    return 1
''',
    }
    from conformance_cases import indexed
    with indexed(tmp_path, files) as d:
        hits = d.service.search("WEB_CONCURRENCY", limit=3, repo="fx")
        assert "exact" not in {h.match for h in hits}
        assert "workers_from_env" in [h.qualified_name for h in hits]
        # a definition spelt in capitals is pinned, and only it
        hits = d.service.search("MAX_WORKERS", limit=3, repo="fx")
        assert [(h.qualified_name, h.match) for h in hits if h.match == "exact"] == [("MAX_WORKERS", "exact")]
        # an underscore's constant too; a capitals-only word is a type's name (JSON: Json)
        hits = d.service.search("_MAX_WORKERS", limit=3, repo="fx")
        assert "exact" not in {h.match for h in hits}
        hits = d.service.search("JSON", limit=3, repo="fx")
        assert [(h.qualified_name, h.match) for h in hits if h.match == "exact"] == [("Json", "exact")]
        # written in lowercase, the fixture is the name asked for: pinned
        hits = d.service.search("web_concurrency", limit=3, repo="fx")
        assert ("web_concurrency", "exact") in [(h.qualified_name, h.match) for h in hits]


def test_a_compound_names_a_tests_definition_only_when_tests_are_asked(tmp_path) -> None:
    """"which function decides whether a file is collected as a test module": the words
    "test module" spell pytest's own test class ``TestModule`` (in ``testing/``), which was
    inserted at rank 3 (a newcomer). A test's or a docs page's definition is no compound's
    answer unless the question asks for that role."""
    files = {
        "src/collect.py": '''\
def pytest_collect_file(path, parent):
    """Decide whether a python file is collected, and build its collector."""
    return parent
''',
        "testing/test_collect.py": '''\
class TestModule:
    def test_import_error(self):
        assert 1
''',
        # an example's class is an answer (click's `ComplexCLI`; a review)
        "examples/complex/cli.py": '''\
class ComplexCLI:
    def list_commands(self, ctx):
        return sorted(ctx.folder)
''',
    }
    with indexed(tmp_path, files) as d:
        asked = "which function decides whether a python file is collected as a test module"
        assert "testmodule" in shape.analyze(asked).compounds
        hits = d.service.search(asked, limit=5, repo="fx")
        tests = d.service.search("which tests of the test module check import errors", limit=5, repo="fx")
        example = d.service.search("how does the complex cli load subcommands from a folder", limit=5, repo="fx")
    assert "ComplexCLI" in [h.qualified_name for h in example]
    assert all(h.match != "name" for h in hits)
    assert hits[0].qualified_name == "pytest_collect_file"
    assert any(h.qualified_name == "TestModule" for h in tests)


@pytest.mark.parametrize(("question", "absent"), [
    # the value is named as a thing the code holds: its absence is news
    ('how does the server command run "frobnicate"', True),
    # the value is an example of input the question asks about: its absence is expected
    ('what does the server command do with an unknown name like "frobnicate"', False),
    ('how is an invalid command such as `frobnicate` reported by the server', False),
])
def test_an_example_value_a_question_quotes_is_no_absent_name(daemon: Daemon, question: str,
                                                               absent: bool) -> None:
    """arrow's "what happens when an unsupported frame name like "fortnight" is passed to span"
    was flagged low, "no indexed chunk holds 'fortnight'", though its first hits answered it
    (a newcomer): a value given as an example of input (``shape.example_values``) is no name
    the index should hold."""
    hits = daemon.service.search(question, limit=5, repo="fx")
    assert hits.confidence_reason.startswith("no indexed chunk holds 'frobnicate'") is absent
