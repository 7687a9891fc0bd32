"""What the MCP bridge keeps when an answer does not fit, for real: a live daemon on a
pygit2-built repo shaped as gin's binding (a decoder, three binders, a context method, a
handler, and many tests calling them, some by name only), the bridge as a subprocess, the
official MCP client over stdio.

An agent-workflow trial on gin: ``analyze_impact decodeJSON`` lost whole branches of
direct callers to 30-39 test leaves of an earlier branch, its hints contradicted each
other, and ``find_callers Context.Render`` hid that its second page held only name-only
sites."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from coderecall import Client
from coderecalld.config import Config, EmbeddingConfig, IndexConfig, RepoConfig
from coderecalld.daemon import Daemon
from coderecalld.server.app import build_server
from gitfixtures import GitRepo
from integration.test_mcp_bridge import Bridge, bridge

BINDING = '''\
class Binding:
    def decode_json(self, body):
        return body

    def bind_body(self, body):
        return self.decode_json(body)

    def bind_query(self, query):
        return self.decode_json(query)

    def bind_form(self, form):
        return self.decode_json(form)
'''

CONTEXT = '''\
from web.binding import Binding


class Context:
    def should_bind_body_with(self, body):
        return Binding().bind_body(body)

    def handle_form(self, form):
        return Binding().bind_form(form)

    def render(self, view):
        return view


def serve(form):
    return Context().handle_form(form)


def handler(body):
    return Context().should_bind_body_with(body)
'''

BODY_TESTS, ANY_TESTS, QUERY_TESTS, SHOULD_TESTS, MAYBE_TESTS = 25, 15, 5, 10, 10


def _tests(count: int, name: str, call: str) -> str:
    return "".join(f"def test_{name}_{i:02}(client):\n    return {call}\n\n\n" for i in range(count))


# resolved calls from tests (depth 2 under bind_body and bind_query, depth 3 under
# should_bind_body_with) and name-only ones (an untyped receiver's method of the same name)
TEST_BINDING = ("from web.binding import Binding\nfrom web.context import Context\n\n\n"
                + _tests(BODY_TESTS, "body", "Binding().bind_body(b'')")
                + _tests(ANY_TESTS, "any", "client.bind_body(b'')")
                + _tests(QUERY_TESTS, "query", "Binding().bind_query('q')")
                + _tests(SHOULD_TESTS, "should", "Context().should_bind_body_with(b'')")
                + _tests(MAYBE_TESTS, "maybe", "client.should_bind_body_with(b'')"))

RENDERED, VIEWED = 20, 60  # render's resolved and name-only sites: more than one answer holds
TEST_RENDER = ("from web.context import Context\n\n\n" + _tests(RENDERED, "render", "Context().render(client)")
               + _tests(VIEWED, "view", "client.render(None)"))


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Bridge, Client]]:
    tmp_path = tmp_path_factory.mktemp("fit")
    web = GitRepo(tmp_path / "web")
    web.commit({"web/__init__.py": "", "web/binding.py": BINDING, "web/context.py": CONTEXT,
                "tests/test_binding.py": TEST_BINDING, "tests/test_render.py": TEST_RENDER}, "initial")
    cfg = Config(data_dir=tmp_path / "data", repos=(RepoConfig("web", str(web.path), "main"),),
                 embedding=EmbeddingConfig(enabled=False),
                 index=IndexConfig(sync_interval_s=3600, sync_jitter_s=0))
    daemon = Daemon.open(cfg)
    daemon.jobs.run_now("web")
    server, port = build_server(daemon.service, "127.0.0.1:0")
    server.start()
    try:
        with bridge(f"127.0.0.1:{port}", tmp_path / "bridge.err") as running, \
                Client(f"127.0.0.1:{port}") as client:
            yield running, client
    finally:
        server.stop(0).wait()
        daemon.close()


@pytest.fixture(scope="module")
def mcp(served: tuple[Bridge, Client]) -> Bridge:
    return served[0]


@pytest.fixture(scope="module")
def client(served: tuple[Bridge, Client]) -> Client:
    return served[1]


def test_the_daemon_counts_every_page_per_confidence(client: Client) -> None:
    """FindCallers ranks every site before it pages: each page carries the whole answer's
    count per confidence, most certain first, and each site its file's role."""
    late = client.find_callers("Context.render", limit=5, offset=70)
    assert [s.caller for s in late] == [f"test_view_{i:02}" for i in range(50, 55)]
    assert list(late.by_confidence.items()) == [("resolved", RENDERED), ("name_only", VIEWED)]
    body = client.find_callers("Binding.bind_body")
    assert list(body.by_confidence.items()) == [("resolved", 1 + BODY_TESTS), ("name_only", ANY_TESTS)]
    assert [(s.caller, s.role) for s in body[:2]] == [("Context.should_bind_body_with", "source"),
                                                     ("test_body_00", "test")]


def test_find_callers_says_its_confidences_first_and_where_the_certain_sites_are(mcp: Bridge) -> None:
    first = mcp.ok("find_callers", name="Context.render")
    assert list(first)[0] == "by_confidence"  # at the top: the whole answer, every page
    assert first["by_confidence"] == {"resolved": RENDERED, "name_only": VIEWED}
    kept = len(first["results"])
    assert RENDERED < kept < RENDERED + VIEWED
    assert [r["confidence"] for r in first["results"]] == ["resolved"] * RENDERED + ["name_only"] * (kept - RENDERED)
    assert first["more"] == (f"{RENDERED + VIEWED - kept} more of {RENDERED + VIEWED} left out (all name_only); "
                             f"call find_callers again with offset={kept}")
    rest = mcp.ok("find_callers", name="Context.render", offset=kept)
    assert list(rest) == ["by_confidence", "earlier", "results"]
    assert rest["earlier"] == (f"every site from offset {kept} on matched by name only; the {RENDERED} others "
                               f"({RENDERED} resolved) were on earlier pages: offset=0")
    assert [r["caller"] for r in rest["results"]] == [f"test_view_{i:02}" for i in range(kept - RENDERED, VIEWED)]
    # a page that starts with certain sites, or an answer that is all name-only, needs no such note
    assert "earlier" not in mcp.ok("find_callers", name="Context.render", offset=RENDERED - 1)
    assert mcp.ok("find_callers", name="Binding.bind_body")["by_confidence"] == {
        "resolved": 1 + BODY_TESTS, "name_only": ANY_TESTS}



def names(prefix: str, count: int, start: int = 0) -> list[str]:
    return [f"test_{prefix}_{i:02}" for i in range(start, count)]


def test_analyze_impact_cut_to_fit_keeps_every_branch_and_drops_the_deepest_tests_first(mcp: Bridge) -> None:
    """72 nodes do not fit: depth 3 loses its name-only tests, then its last resolved ones;
    every direct caller's branch stays (bind_form -> handle_form -> serve, last in the tree,
    went first when the tree was cut in order), and the note names the call that shows
    what was left out."""
    deep = mcp.ok("analyze_impact", name="Binding.decode_json", depth=3)
    assert [(r["d"], r["caller"]) for r in deep["callers"] if r["d"] == 1] == [
        (1, "Binding.bind_body"), (1, "Binding.bind_query"), (1, "Binding.bind_form")]
    assert [r["caller"] for r in deep["callers"]] == [
        "Binding.bind_body", "Context.should_bind_body_with", "handler", *names("should", 8),
        *names("body", BODY_TESTS), *names("any", ANY_TESTS),
        "Binding.bind_query", *names("query", QUERY_TESTS),
        "Binding.bind_form", "Context.handle_form", "serve"]
    left = SHOULD_TESTS - 8 + MAYBE_TESTS
    assert (deep["nodes"], deep["truncated"]) == (72, True)
    assert deep["cut"] == (
        f"{left} of 72 nodes left out to fit ({left} in tests, {MAYBE_TESTS} name_only), the deepest first: "
        f"depths 1-2 are whole; for the {left} under 'Context.should_bind_body_with': call analyze_impact with "
        "name='Context.should_bind_body_with', depth=1")
    assert "more" not in deep  # one place says what was cut
    # the call it names shows every node left out
    subtree = mcp.ok("analyze_impact", name="Context.should_bind_body_with", depth=1)
    assert [r["caller"] for r in subtree["callers"]] == [
        "handler", *names("should", SHOULD_TESTS), *names("maybe", MAYBE_TESTS)]
    assert "truncated" not in subtree  # nothing calls them


def test_analyze_impact_that_fits_suggests_the_next_depth_only_then(mcp: Bridge) -> None:
    """Depth 2 fits whole and the daemon's depth cut it: one larger depth, and nothing else
    (at depth 2 the trial's answer suggested depth=1, two nodes)."""
    shallow = mcp.ok("analyze_impact", name="Binding.decode_json", depth=2)
    assert len(shallow["callers"]) == shallow["nodes"] == 3 + 1 + BODY_TESTS + ANY_TESTS + QUERY_TESTS + 1
    assert (shallow["truncated"], shallow["cut"]) == (True, "callers exist past depth 2; call again with depth=3")
    assert "more" not in shallow
