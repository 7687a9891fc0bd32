"""Parse repairs of one language's grammar gaps (parse/__init__.py): a broken top-level
declaration that swallows the rest of a file is blanked and the file read again."""

from __future__ import annotations

from coderecalld import parse


HONO_FACTORY = b"""import type { Env } from '../../types'

export interface CreateHandlersInterface<E extends Env, P extends string> {
  <I extends Input = {}, R extends HandlerResponse<any> = any, E2 extends Env = E>(
    handler1: H<E2, P, I, R>
  ): [H<E2, P, I, R>]

  // handler x2
  <
    I extends Input = {},
    I2 extends Input = I,
    R extends HandlerResponse<any> = any,
    E2 extends Env = E,
  >(
    handler1: H<E2, P, I, R>,
    handler2: H<E2, P, I2, R>
  ): [H<E2, P, I, R>, H<E2, P, I2, R>]
}

export class Factory<E extends Env = Env> {
  initApp?: InitApp<E>

  constructor(init?: { initApp?: InitApp<E> }) {
    this.initApp = init?.initApp
  }

  createApp = (options?: HonoOptions<E>): Hono<E> => {
    const app = new Hono<E>(options)
    if (this.initApp) {
      this.initApp(app)
    }
    return app
  }
}

export const createMiddleware = <E extends Env = any>(middleware: MiddlewareHandler<E>) => middleware
"""


def test_a_ts_declaration_whose_error_swallows_the_file_is_blanked() -> None:
    """hono's ``helper/factory/index.ts``: the grammar reads no multi-line generic call
    signature in an interface, and its error swallowed the rest of the file (``Factory``,
    ``createFactory``, ``createMiddleware`` lost; ``if``, ``return`` and ``const`` were
    functions). The broken interface is blanked, the rest read at the blob's offsets."""
    got = parse.symbols(HONO_FACTORY, "typescript", "src/helper/factory/index.ts")
    assert [(s.kind.value, s.qualified_name, s.start_line, s.end_line) for s in got.symbols] == [
        ("class", "Factory", 20, 34), ("method", "Factory.constructor", 23, 25),
        ("method", "Factory.createApp", 27, 33), ("function", "createMiddleware", 36, 36)]
    factory = got.symbols[0]
    assert HONO_FACTORY[factory.start_byte:factory.end_byte].startswith(b"export class Factory<E")


def test_a_ts_class_with_one_bad_line_keeps_its_symbols() -> None:
    """An error that stays inside its declaration swallows nothing: the class is kept."""
    body = "".join(f"  m{i}() {{\n    return {i}\n  }}\n" for i in range(8))
    src = f"export class Big {{\n{body}  bad(: {{\n  }}\n}}\n\nexport function after() {{}}\n".encode()
    got = parse.symbols(src, "typescript", "src/big.ts")
    names = [s.qualified_name for s in got.symbols]
    assert got.has_errors and names == ["Big", *(f"Big.m{i}" for i in range(8)), "after"]


HONO_TYPES = b"""export interface HandlerInterface<
  E extends Env = Env,
  M extends string = string,
  S extends Schema = BlankSchema,
  BasePath extends string = '/',
  CurrentPath extends string = BasePath,
> {
  // app.get(handler)
  <
    P extends string = CurrentPath,
    I extends Input = BlankInput,
    R extends HandlerResponse<any> = any,
    E2 extends Env = E,
  >(
    handler: H<E2, P, I, R>
  ): HonoBase<
    IntersectNonAnyTypes<[E, E2]>,
    S & ToSchema<M, P, I, MergeTypedResponse<R>>,
    BasePath,
    CurrentPath
  >

  // app.get(handler x2)
  <
    P extends string = CurrentPath,
    I extends Input = BlankInput,
    I2 extends Input = I,
    R extends HandlerResponse<any> = any,
    E2 extends Env = E,
    E3 extends Env = IntersectNonAnyTypes<[E, E2]>,
    M1 extends H<E2, P, I> = H<E2, P, I>,
  >(
    ...handlers: [H<E2, P, I> & M1, H<E3, P, I2, R>]
  ): HonoBase<
    IntersectNonAnyTypes<[E, E2, E3]>,
    S & ToSchema<M, P, I2, MergeTypedResponse<R> | MergeMiddlewareResponse<M1>>,
    BasePath,
    CurrentPath
  >

  // app.get(path, handler)
  <
    P extends string,
    MergedPath extends MergePath<BasePath, P>,
}

export type Schema = { a: string }

export type TypedResponse<T> = { data: T }

interface Get<E extends Env> {
  <Key extends keyof E['Variables']>(key: Key): E['Variables'][Key]
}
"""


def test_a_ts_declaration_read_as_many_pieces_is_blanked_when_more_is_read() -> None:
    """hono's ``types.ts``: its call-signature interfaces were read as hundreds of small
    errors, and 34 declarations after them (``Schema``, ``TypedResponse``,
    ``ValidationTargets``) were lost; blanked, the rest is read. The reading of the most
    definitions wins: a declaration read in part (``context.ts``' ``Get``) is kept."""
    got = parse.symbols(HONO_TYPES, "typescript", "src/types.ts")
    assert [s.qualified_name for s in got.symbols] == ["Schema", "TypedResponse", "Get"]
    schema = got.symbols[0]
    assert HONO_TYPES[schema.start_byte:schema.end_byte] == b"export type Schema = { a: string }"
