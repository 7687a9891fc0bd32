"""Honest limits against a live daemon (issue 19): every answer cut by a limit says how much
more exists and how to get it; every limit is named in the error that enforces it; the
edges (oversized overlays, paths outside a work tree, line ranges, broken pipes) answer
with a clear message instead of a transport error or a traceback.

Dense vectors are off: every question here is answered by names and call sites."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import livedaemon
import pytest
from coderecall import InvalidArgumentError, Page
from coderecall import cli as client_cli
from coderecalld.config import Config, EmbeddingConfig, IndexConfig, RepoConfig
from gitfixtures import GitRepo

CALLERS = 101  # one more than FindCallers' default page (100)
TARGET = "def blueprint_route(rule):\n    \"\"\"Register a route.\"\"\"\n    return rule\n"
# 101 callers of app.core.blueprint_route, spread over 11 files so their order (path, line) is known.
CALLER_FILES = {
    f"app/views{f:02}.py": "from app.core import blueprint_route\n\n\n" + "".join(
        f"def view_{f:02}_{i}():\n    return blueprint_route('/{f}/{i}')\n\n\n"
        for i in range(10 if f < 10 else 1))
    for f in range(11)
}
MANY_CALLS = "from app.core import blueprint_route\n\n\ndef setup_all():\n" + "".join(
    f"    blueprint_route('/setup/{i}')\n" for i in range(30)) + "    return None\n"


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[livedaemon.Live]:
    tmp = tmp_path_factory.mktemp("limits")
    repo = GitRepo(tmp / "web")
    repo.commit({"app/__init__.py": "", "app/core.py": TARGET, "app/setup.py": MANY_CALLS,
                 # two definitions of one name (httpie's three ``program``s)
                 "tools/__init__.py": "", "tools/a.py": "def build():\n    return sorted([2, 1])\n",
                 "tools/b.py": "def build():\n    return list(range(3))\n",
                 "README.md": "# web\n\n" + "A small web framework whose purpose line is long " * 8 + "\n",
                 **CALLER_FILES})
    cfg = Config(data_dir=tmp / "data", repos=(RepoConfig("web", str(repo.path), "main"),),
                 embedding=EmbeddingConfig(enabled=False),
                 index=IndexConfig(sync_interval_s=3600, sync_jitter_s=0))
    running = livedaemon.start(cfg)
    running.repo_path = repo.path  # type: ignore[attr-defined]
    try:
        yield running
    finally:
        running.close()


def cli(live: livedaemon.Live, capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = client_cli.main(["--addr", live.addr, *argv])
    out, err = capsys.readouterr()
    return code, out, err


# --- every cut is said ----------------------------------------------------------------------


def test_callers_page_says_total_and_the_rest_is_reachable(live: livedaemon.Live) -> None:
    first = live.client.find_callers("view_target_never_defined")  # nothing: a complete empty page
    assert (list(first), first.total, first.truncated) == ([], 0, False)
    page = live.client.find_callers("blueprint_route", repo="web")
    assert isinstance(page, Page)
    total = CALLERS + 30
    assert (len(page), page.total, page.truncated, page.next_offset) == (100, total, True, 100)
    rest = live.client.find_callers("blueprint_route", repo="web", offset=page.next_offset)
    assert (len(rest), rest.total, rest.truncated, rest.offset) == (total - 100, total, False, 100)
    seen = {(s.path, s.line) for s in [*page, *rest]}
    assert len(seen) == total  # no site twice, none lost between the pages
    past = live.client.find_callers("blueprint_route", offset=1000)
    assert (list(past), past.total, past.truncated) == ([], total, False)


def test_callers_cli_notes_the_cut_on_stderr(live: livedaemon.Live, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(live, capsys, "callers", "blueprint_route")
    assert code == 0
    assert len(out.splitlines()) == 100
    counts = "coderecall: 131 call sites: 131 resolved\n"  # the whole answer's, on every page
    assert err == (counts + "coderecall: call sites 1-100 of 131 shown; more with --offset 100 "
                   "(or a larger --limit, up to 500)\n")
    code, out, err = cli(live, capsys, "callers", "blueprint_route", "--offset", "100")
    assert (code, len(out.splitlines()), err) == (0, 31, counts)
    code, out, err = cli(live, capsys, "callers", "blueprint_route", "--limit", "500")
    assert (code, len(out.splitlines()), err) == (0, 131, counts)
    code, out, err = cli(live, capsys, "callers", "blueprint_route", "--offset", "200")
    # one note: there are call sites, none past the offset (it also said "no call sites of
    # 'blueprint_route'", a contradiction; a newcomer)
    assert (code, out, err) == (1, "", "coderecall: --offset 200 is past the last of 131 call sites\n")
    code, out, err = cli(live, capsys, "callers", "no_such_function", "--offset", "100")
    assert (code, out, err) == (1, "", "coderecall: no call sites of 'no_such_function': no symbol of that "
                                       "name is indexed (try coderecall symbols 'no_such_function' --fuzzy)\n")


def test_callees_and_symbols_pages(live: livedaemon.Live, capsys: pytest.CaptureFixture[str]) -> None:
    callees = live.client.find_callees("setup_all", limit=10)
    assert (len(callees), callees.total, callees.truncated) == (10, 30, True)
    symbols = live.client.find_symbols("view_", prefix=True, limit=40)
    assert (len(symbols), symbols.total, symbols.truncated) == (40, CALLERS, True)
    middle = live.client.find_symbols("view_", prefix=True, limit=40, offset=40)
    tail = live.client.find_symbols("view_", prefix=True, limit=40, offset=80)
    assert (len(tail), tail.truncated) == (CALLERS - 80, False)
    assert len({h.name for h in [*symbols, *middle, *tail]}) == CALLERS
    code, _, err = cli(live, capsys, "symbols", "view_", "--prefix", "--limit", "40")
    assert (code, err) == (0, "coderecall: symbols 1-40 of 101 shown; more with --offset 40 "
                              "(or a larger --limit, up to 500)\n")
    code, _, err = cli(live, capsys, "callees", "setup_all", "--limit", "10", "--offset", "25")
    assert (code, err) == (0, "")


def test_a_symbols_total_cut_by_the_lookups_read_says_so(live: livedaemon.Live, capsys: pytest.CaptureFixture[str],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A prefix matching more names than a lookup reads (``MAX_LIMIT``; 90 here, 101 match)
    pages what it read as the whole answer unless the page says more match: sphinx's 828
    names under `_` were paged to their end, 270 more on no page (a newcomer)."""
    from coderecall import _mcp_results
    from coderecalld.query import service

    monkeypatch.setattr(service, "MAX_LIMIT", 90)
    first = live.client.find_symbols("view_", prefix=True, limit=40)
    assert (first.total, first.truncated, first.total_is_lower_bound) == (90, True, True)
    last = live.client.find_symbols("view_", prefix=True, limit=40, offset=80)
    assert (len(last), last.truncated, last.total_is_lower_bound) == (10, False, True)
    code, _, err = cli(live, capsys, "symbols", "view_", "--prefix", "--limit", "40", "--offset", "80")
    assert (code, err) == (0, "coderecall: symbols 81-90 of 90 shown; more than 90 match, past every "
                              "page (the lookup read its limit): a longer name or prefix, or --repo, lists them\n")
    more = _mcp_results.page({}, [{"n": h.name} for h in last], last, "find_symbol")["more"]
    assert more == "more match past every page (the lookup read its limit): a longer name or a repo lists them"
    monkeypatch.setattr(service, "MAX_LIMIT", 101)  # exactly as many as match: the whole answer
    whole = live.client.find_symbols("view_", prefix=True, limit=40, offset=80)
    assert (whole.total, whole.total_is_lower_bound) == (101, False)
    narrower = live.client.find_symbols("view_01", prefix=True, limit=40)
    assert (narrower.total, narrower.total_is_lower_bound) == (10, False)  # view_01_0 .. view_01_9
    assert "more than" not in cli(live, capsys, "symbols", "view_01", "--prefix")[2]


def test_a_query_of_no_searchable_word_says_so(live: livedaemon.Live, capsys: pytest.CaptureFixture[str]) -> None:
    # packaging's `"~="`: "no hits (a filter may leave none: --repo, ..)" blamed the filters
    hits = live.client.search('"~="', repo="web")
    assert list(hits) == [] and hits.confidence_reason == (
        "no word of '\"~=\"' is searchable: punctuation and stop words are not indexed; "
        "search for the words around it")
    code, _, err = cli(live, capsys, "search", '"~="', "--repo", "web")
    assert (code, err) == (1, "coderecall: no hits: no word of '\"~=\"' is searchable: punctuation and "
                              "stop words are not indexed; search for the words around it\n")
    code, _, err = cli(live, capsys, "search", "nothing like it here zzqx", "--repo", "web")
    assert code == 1 and "is searchable" not in err  # words no chunk holds: another answer


def test_callees_of_a_name_two_definitions_have_say_so(live: livedaemon.Live,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(live, capsys, "callees", "build")
    assert code == 0 and len(out.splitlines()) == 3  # sorted; list, range
    assert err == ("coderecall: calls of the 2 definitions named 'build' (2 files) are listed together "
                   "(build (tools/a.py), build (tools/b.py)); ask for one by its qualified or "
                   "module-qualified name\n")
    code, out, err = cli(live, capsys, "callees", "tools.a.build")
    assert (code, len(out.splitlines()), err) == (0, 1, "")


def test_a_short_glob_search_says_where_it_looked(live: livedaemon.Live,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(live, capsys, "search", "register a route", "--path-glob", "*/core.py")
    assert code == 0 and out.startswith("app/core.py:1-3")
    # One chunk: core.py holds one definition and nothing else, so no module chunk.
    assert err.endswith("coderecall: 1 hit matched --path-glob among the daemon's best candidates "
                        "(200; 500 with --mode dense or sparse); a longer --path-prefix or a narrower "
                        "query reaches past them\n")
    code, out, err = cli(live, capsys, "search", "register a route", "--path-glob", "app/core.py")
    assert "--path-glob" not in err  # no wildcard: an exact path, nothing to miss


def test_card_counts_every_caller(live: livedaemon.Live, capsys: pytest.CaptureFixture[str]) -> None:
    card = live.client.get_card("blueprint_route")
    assert (len(card.callers), card.callers_total) == (5, CALLERS + 30)
    code, out, _ = cli(live, capsys, "card", "blueprint_route")
    assert code == 0
    assert ("  called from (5 of 131; `coderecall callers blueprint_route --repo web` lists them):"
            in out.splitlines())


def test_impact_cut_is_said(live: livedaemon.Live, capsys: pytest.CaptureFixture[str]) -> None:
    result = live.client.analyze_impact("blueprint_route", limit=50)
    assert (result.nodes, result.truncated, result.cut) == (50, True, ("limit",))  # over gRPC
    code, _, err = cli(live, capsys, "impact", "blueprint_route", "--limit", "50")
    assert code == 0
    assert err == "coderecall: the tree was cut at 50 callers: more exist past --limit 50 (max 2000)\n"


# --- every limit is named in its error ------------------------------------------------------


@pytest.mark.parametrize(("call", "message"), [
    (lambda c: c.find_callers("x", limit=900), "limit: 900 > 500 (the maximum)"),
    (lambda c: c.search("x", limit=501), "limit: 501 > 500 (the maximum)"),
    (lambda c: c.find_symbols("x", limit=501), "limit: 501 > 500 (the maximum)"),
    (lambda c: c.analyze_impact("x", depth=11), "depth: 11 > 10 (the maximum)"),
    (lambda c: c.analyze_impact("x", limit=2001), "limit: 2001 > 2000 (the maximum)"),
    (lambda c: c.get_card("x", budget_tokens=9000), "budget_tokens: 9000 > 8000 (the maximum)"),
    (lambda c: c.ask("x", limit=51), "limit: 51 > 50 (the maximum)"),
    (lambda c: c.find_callers("x", offset=-1), "offset: -1 < 0 (0 is the first item)"),
    (lambda c: c.search("q" * 500_001), "query: 500001 characters, longer than 500000 (the maximum)"),
    (lambda c: c.ask("q" * 10_001), "question: 10001 characters, longer than 10000 (the maximum)"),
    (lambda c: c.find_symbols("n" * 1_001), "name: 1001 characters, longer than 1000 (the maximum)"),
    (lambda c: c.find_symbols(".".join(["a"] * 65)), "name: 65 dotted segments, more than 64 (the maximum)"),
    (lambda c: c.find_callers("::".join(["a"] * 300)), "name: 300 dotted segments, more than 64 (the maximum)"),
    (lambda c: c.index_overlay("web", "a.py", b"x", "s", ttl_s=90_000), "ttl_s: 90000 > 86400 (the maximum)"),
    # the model is off here: a dense answer was "no hits", read as nothing relevant
    *[(lambda c, call=call: call(c), "mode: dense needs the embedding model, and this daemon runs without it "
       "([embedding] enabled = false); use hybrid or sparse")
      for call in (lambda c: c.search("x", mode="dense"), lambda c: c.locate("x", mode="dense"))],
])
def test_limits_are_named_in_errors(live: livedaemon.Live, call, message: str) -> None:
    with pytest.raises(InvalidArgumentError) as info:
        call(live.client)
    assert info.value.details == message


def test_a_request_over_the_message_bound_is_refused_as_written(live: livedaemon.Live,
                                                                capsys: pytest.CaptureFixture[str],
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A 3 MB paste met gRPC's message bound: "SERVER: Received message larger than max
    (3000016 vs. 2065536)", a RESOURCE_EXHAUSTED the CLI exits 3 on ("worth retrying"); no
    retry can pass it (a newcomer). It is an invalid argument that says which bound."""
    from coderecalld.server.app import request_limit_bytes
    bound = request_limit_bytes(IndexConfig().max_file_bytes)
    with pytest.raises(InvalidArgumentError) as info:
        live.client.search("y" * 3_000_000)
    sent = int(info.value.details.split(" bytes")[0].rsplit(" ", 1)[1].replace(",", ""))
    assert 3_000_000 < sent < 3_000_100
    assert info.value.details == (
        f"the request is {sent:,} bytes, over the {bound:,} a coderecalld message may hold (a query is "
        "read up to 500,000 characters: send the issue's text, not whole logs)")
    monkeypatch.setattr(sys, "stdin", __import__("io").StringIO("y" * 3_000_000))
    code, _, err = cli(live, capsys, "locate", "-")
    assert code == 2
    assert f"over the {bound:,} a coderecalld message may hold" in err


# --- line ranges: one rule, the maximum named -------------------------------------------------


def test_line_ranges_follow_one_rule(live: livedaemon.Live, capsys: pytest.CaptureFixture[str]) -> None:
    lines = TARGET.count("\n")
    for end in (lines + 1, 10_000_000):  # past the end of the file: read to its end
        text = live.client.read_symbol("web", "app/core.py", 1, end)
        assert (text.end_line, text.text) == (lines, TARGET)
    with pytest.raises(InvalidArgumentError) as info:
        live.client.read_symbol("web", "app/core.py", 1, 99_999_999)
    assert info.value.details == "lines: end_line 99999999 > 10000000 (the maximum line number)"
    with pytest.raises(InvalidArgumentError) as info:
        live.client.read_symbol("web", "app/core.py", 3, 2)
    assert info.value.details == "lines: end_line 2 < start_line 3"
    with pytest.raises(InvalidArgumentError) as info:
        live.client.read_symbol("web", "app/core.py", 4, 0)
    assert info.value.details == "lines: start_line 4 > 3, the last line of app/core.py"
    code, out, err = cli(live, capsys, "read", "web", "app/core.py", "--lines", "1-10000000")
    assert (code, out) == (0, TARGET)
    code, out, err = cli(live, capsys, "read", "web", "app/core.py", "--lines", "1-99999999")
    assert code == 2 and out == ""
    assert "line 99999999 > 10000000 (the maximum line number)" in err


# --- overlays: size and place -----------------------------------------------------------------


def test_oversized_overlay_names_index_max_file_bytes(live: livedaemon.Live) -> None:
    limit = live.daemon.cfg.index.max_file_bytes
    assert limit == 1_000_000
    with pytest.raises(InvalidArgumentError) as info:  # read by the daemon, refused by its check
        live.client.index_overlay("web", "app/big.py", b"#" * (limit + 1), "s1")
    assert info.value.details == "content: 1000001 bytes, over index.max_file_bytes (1000000)"
    with pytest.raises(InvalidArgumentError) as info:  # 1 MiB + 1: once gRPC's own refusal
        live.client.index_overlay("web", "app/big.py", b"#" * ((1 << 20) + 1), "s1")
    assert info.value.details == "content: 1048577 bytes, over index.max_file_bytes (1000000)"
    with pytest.raises(InvalidArgumentError) as info:  # past the request bound: refused unread
        live.client.index_overlay("web", "app/big.py", b"#" * (3 << 20), "s1")
    assert info.value.details.startswith("content: 3145728 bytes, over the daemon's index.max_file_bytes "
                                         "(the request was refused unread: ")
    assert info.value.details.endswith(" bytes, over the 2,065,536 a coderecalld message may hold)")
    assert live.client.list_repos()[0].state == "ready"  # still serving


def test_overlay_path_is_taken_from_the_work_tree(live: livedaemon.Live, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    work = live.repo_path  # type: ignore[attr-defined]
    edited = work / "app" / "core.py"
    edited.write_text(TARGET + "\n\ndef overlay_only():\n    return 1\n")
    monkeypatch.chdir(work / "app")  # a subdirectory: the path is still app/core.py
    code, out, err = cli(live, capsys, "overlay", "core.py", "--repo", "web", "--session", "s2", "--json")
    assert code == 0, err
    assert '"path": "app/core.py"' in out
    outside = tmp_path / "loose.py"
    outside.write_text("def loose():\n    return 1\n")
    code, out, err = cli(live, capsys, "overlay", str(outside), "--repo", "web", "--session", "s2")
    assert (code, out) == (2, "")
    assert err == (f"coderecall: error: {outside} is outside any git work tree; run it on a file of "
                   "the repository's working copy, or name its path with --path-in-repo\n")


# --- repo purpose: cut at a word --------------------------------------------------------------


def test_repo_purpose_is_cut_at_a_word(live: livedaemon.Live) -> None:
    purpose = live.client.list_repos()[0].purpose
    sentence = "A small web framework whose purpose line is long"
    # 392 characters of README, at most 200 kept: four sentences and the "A" of the fifth
    # (the next word would pass 199), then the ellipsis.
    assert purpose == " ".join([sentence] * 4) + " A…"


# --- broken pipes: no traceback from any of the three commands --------------------------------


def _closed_stdout(*argv: str) -> subprocess.CompletedProcess[str]:
    """Run ``argv`` with a stdout pipe whose reader is already gone (``cmd | head`` after
    head exited): its first write fails with EPIPE."""
    read, write = os.pipe()
    os.close(read)
    try:
        env = {k: v for k, v in os.environ.items() if not k.startswith("CODERECALL_")}
        return subprocess.run(argv, stdout=write, stderr=subprocess.PIPE, text=True, env=env,
                              timeout=120, check=False)
    finally:
        os.close(write)


def test_broken_pipes_end_quietly(live: livedaemon.Live) -> None:
    python = sys.executable
    runs = [
        _closed_stdout(python, "-m", "coderecall.mcp_server", "--catalog"),
        _closed_stdout(python, "-m", "coderecall.cli", "--addr", live.addr, "callers", "blueprint_route"),
        _closed_stdout(python, "-m", "coderecalld.cli", "symbols",
                       str(live.repo_path / "app" / "setup.py")),  # type: ignore[attr-defined]
    ]
    # 128 + SIGPIPE, never 1 ("nothing found": a newcomer read `callers X | head -1` so)
    assert [(r.returncode, r.stderr) for r in runs] == [(141, ""), (141, ""), (141, "")]


@pytest.mark.parametrize("call", [
    lambda c: c.find_symbols(".get"), lambda c: c.find_symbols("..."), lambda c: c.find_callers("Session."),
    lambda c: c.get_card("Session."), lambda c: c.analyze_impact("a..b"), lambda c: c.find_symbols(".", prefix=True),
])
def test_an_empty_name_segment_is_named_in_the_error(live: livedaemon.Live, call) -> None:
    """Not the store's internal "find fq_name: empty value" (a newcomer's finding)."""
    with pytest.raises(InvalidArgumentError) as info:
        call(live.client)
    assert info.value.details.startswith("name: empty segment in ")


def test_a_prefix_lookup_of_a_class_s_members_keeps_its_trailing_dot(live: livedaemon.Live) -> None:
    assert live.client.find_symbols("blueprint_route.", prefix=True) == []  # a function: no members
