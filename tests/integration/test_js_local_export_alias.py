"""A JS/TS module's own definition exported under another name (``export { Hono as
HonoBase }``) is that definition: hono's ``class Hono extends HonoBase`` (``src/hono.ts``)
had no known base, so the 952 ``app.request(..)`` calls on its apps were left out of
``callers Hono.request`` as calls on another type (a newcomer). ``export { f as default }``
is the module's default export the same way.

Each site is asserted by exact (path, line, caller, confidence)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from conformance_cases import Daemon, caller_rows, indexed

FILES = {
    "src/hono-base.ts": """class Hono<E extends Env = Env> {
  use: MiddlewareHandlerInterface<E>

  constructor() {
    this.use = (arg1: string, ...handlers: H[]) => {
      return this
    }
  }

  request(path: string) {
    return path
  }
}

function other() {
  return 1
}

export { Hono as HonoBase, other as default }
""",
    "src/hono.ts": """import { HonoBase } from './hono-base'

export class Hono<E extends Env = Env> extends HonoBase<E> {
  constructor() {
    super()
  }
}
""",
    "src/hono.test.ts": """import { Hono } from './hono'
import make from './hono-base'

describe('request', () => {
  it('answers', () => {
    const app = new Hono()
    app.request('/')
    make()
    app.use('*', logger)
  })
})
""",
    "src/other.ts": """export class Client {
  request(path: string) {
    return path
  }
}
""",
}


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("jsalias"), FILES) as d:
        yield d


def test_a_modules_definition_exported_under_another_name_is_a_base(running: Daemon) -> None:
    assert caller_rows(running, "src/hono-base.Hono.request") == [
        ("src/hono.test.ts", 7, "request.answers", "inherited")]
    # the call is on a Hono, no caller of another class's method of the name
    assert caller_rows(running, "Client.request") == []


def test_a_member_its_constructor_assigns_is_called_on_the_class(running: Daemon) -> None:
    """hono's ``app.use(..)``: ``this.use = (..) => ..`` in ``Hono``'s constructor had no
    definition, so ``callers Hono.use`` listed every ``use(..)`` name-only."""
    assert caller_rows(running, "src/hono-base.Hono.use") == [
        ("src/hono.test.ts", 9, "request.answers", "inherited")]


def test_export_as_default_is_the_default_export(running: Daemon) -> None:
    assert caller_rows(running, "src/hono-base.other") == [("src/hono.test.ts", 8, "request.answers", "resolved")]


RUNTIME_FILES = {
    "src/router/trie-router/router.ts": """export class TrieRouter {
  add(method: string, path: string) {
    return path
  }
}
""",
    "src/router/trie-router/node.ts": """import { TrieRouter } from './router'

export function insert(router: TrieRouter, path: string) {
  const possibleKeys = new Set<string>()
  possibleKeys.add(path)
  router.add('GET', path)
  return possibleKeys
}

export async function fetchIt(res: Response, other) {
  other.add('GET', 'x')
  return res.json()
}
""",
    "src/context.ts": """export class Context {
  json(object: unknown) {
    return object
  }
}
""",
}


def test_a_value_of_a_runtime_class_calls_no_projects_method(tmp_path_factory: pytest.TempPathFactory) -> None:
    """hono: ``possibleKeys = new Set<string>()`` then ``possibleKeys.add(..)`` were 13
    name-only callers of ``TrieRouter.add``; ``res: Response`` then ``res.json()`` 313 of
    ``Context.json``. A value of a class of the runtime the file neither imports nor
    defines is of no project's class; one of unknown type stays a candidate."""
    with indexed(tmp_path_factory.mktemp("jsruntime"), RUNTIME_FILES) as d:
        add = caller_rows(d, "TrieRouter.add")
        json_ = caller_rows(d, "Context.json")
    assert add == [("src/router/trie-router/node.ts", 6, "insert", "resolved"),
                   ("src/router/trie-router/node.ts", 11, "fetchIt", "name_only")]
    assert json_ == []
