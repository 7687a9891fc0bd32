"""JS/TS names as hono writes them, end to end on a real git fixture and the real embedded
store: a ``#private`` method is its own symbol (``symbols``, ``card``, ``callers``,
``callees``), never the public method of the same name; a runtime global's member
(``JSON.parse``) is no call of the repository's ``parse``; a call of a call's result
(``compose(fns)(ctx)``) is one call of ``compose``, not two; a member call written as
code (``c.json``) finds the methods of that name, flagged (the receiver's type is a guess).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from conformance_cases import indexed

FILES = {
    "src/context.ts": '''\
export class Context {
  newResponse(body: string): Response {
    return this.#newResponse(body)
  }
  #newResponse(body: string, init?: number): Response {
    return new Response(body, { status: init ?? this.#status(), headers: this.#headers() })
  }
  #headers(): Record<string, string> {
    return {}
  }
  #status(): number {
    return 200
  }
  json(obj: unknown): Response {
    return this.#newResponse(JSON.stringify(obj))
  }
  text(s: string): Response {
    return this.newResponse(s)
  }
}
''',
    "src/cookie.ts": '''\
export const parse = (cookie: string): Record<string, string> => {
  return {}
}
export const read = (raw: string) => {
  const fromJson = JSON.parse(raw)
  return parse(raw)
}
''',
    "src/compose.ts": '''\
export const compose = (fns: Function[]) => (ctx: unknown) => ctx
export const run = (fns: Function[], ctx: unknown) => compose(fns)(ctx)
''',
    # one name, one definition per runtime adapter
    "src/adapter/bun/conninfo.ts": "export const getConnInfo = (c: unknown) => ({ remote: 'bun' })\n",
    "src/adapter/deno/conninfo.ts": "export const getConnInfo = (c: unknown) => ({ remote: 'deno' })\n",
    "src/adapter/node/conninfo.ts": "export const getConnInfo = (c: unknown) => ({ remote: 'node' })\n",
}


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("ts-private"), FILES) as running:
        yield running


@pytest.mark.parametrize("name", ["Context.#newResponse", "#newResponse"])
def test_a_private_method_is_its_own_symbol(daemon: Daemon, name: str) -> None:
    service = daemon.service
    assert [(h.qualified_name, h.start_line) for h in service.find_symbols(name, repo="fx")] == [
        ("Context.#newResponse", 5)]
    card = service.get_card(name, repo="fx")
    assert (card.qualified_name, card.start_line) == ("Context.#newResponse", 5)
    assert sorted((c.caller, c.line, c.confidence) for c in service.find_callers(name, repo="fx")) == [
        ("Context.json", 15, "resolved"), ("Context.newResponse", 3, "resolved")]
    # a private method's own calls of private methods resolve too
    assert [(c.callee, c.line, c.target) for c in service.find_callees(name, repo="fx")] == [
        ("Response", 6, ""), ("this.#status", 6, "src/context.Context.#status"),
        ("this.#headers", 6, "src/context.Context.#headers")]


def test_a_private_methods_qualified_name_is_pinned(daemon: Daemon) -> None:
    hits = daemon.service.search("Context.#newResponse", limit=3, repo="fx")
    assert (hits[0].qualified_name, hits[0].match, hits.low_confidence) == ("Context.#newResponse", "exact", False)


def test_the_public_method_of_the_same_name_keeps_its_own_callers(daemon: Daemon) -> None:
    service = daemon.service
    assert [(c.caller, c.line, c.confidence) for c in service.find_callers("Context.newResponse", repo="fx")] == [
        ("Context.text", 18, "resolved")]
    assert [(c.callee, c.line) for c in service.find_callees("Context.newResponse", repo="fx")] == [
        ("this.#newResponse", 3)]


def test_a_runtime_globals_member_is_no_caller(daemon: Daemon) -> None:
    found = [(c.caller, c.line, c.confidence) for c in daemon.service.find_callers("parse", repo="fx")]
    assert found == [("read", 6, "resolved")]  # not JSON.parse on line 5


def test_a_curried_call_is_one_call(daemon: Daemon) -> None:
    found = [(c.caller, c.line, c.confidence) for c in daemon.service.find_callers("compose", repo="fx")]
    assert found == [("run", 2, "resolved")]


def test_a_member_call_as_code_writes_it_finds_the_methods_of_its_name(daemon: Daemon) -> None:
    hits = daemon.service.search("c.json", limit=3, repo="fx")
    assert [(h.qualified_name, h.match) for h in hits][:1] == [("Context.json", "name")]
    assert hits.low_confidence
    # "definitions": chi's `rctx.URLParam` answered the function `URLParam` too (a reviewer)
    assert hits.confidence_reason == ("no definition is named 'c.json': the first hits are the definitions "
                                      "named 'json' (the type of 'c' is not known)")
    # a name the index defines is exact, and confident
    hits = daemon.service.search("Context.json", limit=3, repo="fx")
    assert (hits[0].qualified_name, hits[0].match, hits.low_confidence) == ("Context.json", "exact", False)
    # a member no method is named stays a search of its words
    assert all(h.match != "name" for h in daemon.service.search("c.nothing_here", limit=3, repo="fx"))


def test_a_card_of_one_of_several_definitions_names_the_others(daemon: Daemon) -> None:
    card = daemon.service.get_card("getConnInfo", repo="fx")
    assert (card.path, card.definitions_total) == ("src/adapter/bun/conninfo.ts", 3)
    assert card.others == ("fx:src/adapter/deno/conninfo.ts:1 getConnInfo",
                           "fx:src/adapter/node/conninfo.ts:1 getConnInfo")
    single = daemon.service.get_card("Context.json", repo="fx")
    assert (single.definitions_total, single.others) == (1, ())
