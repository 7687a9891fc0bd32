"""TypeScript calls on values typed by declarations: a ``new`` expression's class (``new
Hono().basePath(..)``), a method's declared result (``route(..): Hono<..>``, a ``this``
result) followed along a chain, in the file or another (``app.route(..).route(..)`` on a
subclass inheriting the method), a getter's declared result (``get req(): HonoRequest``:
``c.req.query(..)``), and names declared together with annotations (``let one: Hono, two:
Hono``) assigned later. hono's ~80 such calls were name-only callers (a callers trial).
Each site is asserted by exact (path, line, caller, confidence)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from conformance_cases import Daemon, caller_rows, indexed

FILES = {
    "src/hono-base.ts": """class Hono<E extends Env = Env, S = {}> {
  routes: string[] = []

  route<SubPath extends string>(
    path: SubPath,
    app: Hono<E, S>
  ): Hono<E, MergeSchema<S, SubPath> | S> {
    return this
  }

  basePath<SubPath extends string>(path: SubPath): Hono<E, S> {
    return this.#clone()
  }

  #clone(): Hono<E, S> {
    return new Hono<E, S>()
  }

  use(path: string): this {
    return this
  }

  mount(path: string): Hono<E, S> {
    return this.use(path).route(path, new Hono())
  }
}

export { Hono as HonoBase }
""",
    "src/hono.ts": """import { HonoBase } from './hono-base'

export class Hono<E extends Env = Env> extends HonoBase<E> {
  constructor() {
    super()
  }
}
""",
    "src/request.ts": """export class HonoRequest<P = string> {
  query(key: string): string {
    return key
  }
}
""",
    "src/context.ts": """import { HonoRequest } from './request'

export class Context<P = string> {
  #req: HonoRequest<P> | undefined

  get req(): HonoRequest<P, I['out']> {
    return this.#req ?? new HonoRequest()
  }

  param(): string {
    return this.req.query('p')
  }
}
""",
    "src/app.test.ts": """import { Hono } from './hono'
import type { Context } from './context'

describe('app', () => {
  let one: Hono, two: Hono

  beforeEach(() => {
    one = new Hono()
    two = new Hono()
  })

  it('mounts', () => {
    one.route('/two', two)
    const app = new Hono().basePath('/api')
    app.route('/a', one).route('/b', two)
    const chained = new Hono()
      .basePath('/v1')
      .route('/c', one)
      .route('/d', two)
  })

  it('reads', () => {
    const read = (c: Context) => c.req.query('name')
    const other = (c: any) => c.req.query('name')
    return [read, other]
  })
})
""",
}


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("tschains"), FILES) as d:
        yield d


def test_a_new_expression_and_declared_results_type_a_chain(running: Daemon) -> None:
    assert caller_rows(running, "Hono.basePath") == [
        ("src/app.test.ts", 14, "app.mounts", "inherited"),
        ("src/app.test.ts", 17, "app.mounts", "inherited"),
    ]


def test_a_method_declaring_its_class_types_the_next_call(running: Daemon) -> None:
    # `route` of src/hono-base.ts's Hono: `one.route` on a `let one: Hono` is the
    # subclass's; a call after a base's method (`basePath`, `route`, `use`'s `this`), in this
    # file or the base's, is the base's (its declared result), also on `app`, bound to one
    assert caller_rows(running, "Hono.route") == [
        ("src/app.test.ts", 13, "app.mounts", "inherited"),
        ("src/app.test.ts", 15, "app.mounts", "resolved"),
        ("src/app.test.ts", 15, "app.mounts", "resolved"),
        ("src/app.test.ts", 18, "app.mounts", "resolved"),
        ("src/app.test.ts", 19, "app.mounts", "resolved"),
        ("src/hono-base.ts", 24, "Hono.mount", "resolved"),
    ]


def test_a_getter_declared_result_types_its_reads(running: Daemon) -> None:
    # `c.req.query(..)` on a `c: Context` of another file, and `this.req.query(..)` in it;
    # an untyped `c` stays a candidate
    assert caller_rows(running, "HonoRequest.query") == [
        ("src/app.test.ts", 23, "app.reads.read", "resolved"),
        ("src/app.test.ts", 24, "app.reads.other", "name_only"),
        ("src/context.ts", 11, "Context.param", "resolved"),
    ]
