"""C and C++ conditional compilation that splits braces between branches (jq's
``jv_print.c``, ``builtin.c``): the functions after it keep their own ranges and names."""

from __future__ import annotations

from coderecalld.parse import symbols

# jv_dump_term's shape: an else-branch opened under one #ifdef and closed under the next.
SPLIT = b"""static void dump(double d, int flags) {
  switch (kind(d)) {
  case NUMBER:
    if (is_nan(d)) {
      dump(0, flags);
    } else {
#ifdef USE_DECNUM
      const char *literal = literal_of(d);
      if (literal) {
        put_str(literal);
      } else {
#endif
        put_str(format(d));
      }
#ifdef USE_DECNUM
    }
#endif
    break;
  case STRING:
    put_str("s");
    break;
  }
}

void dumpf(double d, FILE *f) {
  dump(d, 0);
}

void show(double d) {
  dumpf(d, stderr);
}
"""

# builtin.c's shape: an initializer splicing a header and defining a macro; a C++ guard.
TABLE = b"""#ifdef __cplusplus
extern "C" {
#endif
#define CFUNC(f, name) {f, name},
#define LIBM(name) CFUNC(f_ ## name, #name)

struct entry { void *f; const char *name; };

static const struct entry table[] = {
#include "libm.h"
  CFUNC(f_negate, "_negate"),
#define BINOP(name) CFUNC(f_ ## name, "_" #name)
BINOPS
#undef BINOP
};

struct point {
  int x;
#define POINT_ORIGIN(p) ((p).x == 0)
  int y;
};

static int last(int n) {
  return n - 1;
}

int bind_builtins(int b) {
  return last(b);
}
#ifdef __cplusplus
}
#endif
"""

# jv_dtoa.c's shape: a branch that begins with `else` after an #endif.
ELSE_AFTER_ENDIF = b"""double strtod_(const char *s, int e) {
  double rv = 0;
  if (e > 0) {
#ifdef VAX
    rv = vax(rv);
#else
    rv = scale(rv, e);
#endif
    }
#ifndef Inaccurate_Divide
  else if (e < 0) {
    rv = divide(rv, e);
    }
#endif
  return rv;
}

double after(double x) {
  return strtod_("1", 0) + x;
}
"""


def _table(blob: bytes) -> dict[str, tuple[str, int, int]]:
    return {s.qualified_name: (str(s.kind), s.start_line, s.end_line) for s in symbols(blob, "c").symbols}


def test_braces_split_across_ifdefs_end_where_the_function_ends() -> None:
    found = _table(SPLIT)
    # (read as written, dump ran to the file's end and held the other two)
    assert found == {"dump": ("function", 1, 23), "dumpf": ("function", 25, 27),
                     "show": ("function", 29, 31)}
    parsed = symbols(SPLIT, "c")
    calls = {s.qualified_name: sorted(c.name for c in s.call_sites) for s in parsed.symbols}
    # the first branch is read as compiled: its calls are dump's; the texts are the blob's
    assert calls["dump"] == ["dump", "format", "is_nan", "kind", "literal_of", "put_str", "put_str",
                             "put_str"]
    assert calls["dumpf"] == ["dump"] and calls["show"] == ["dumpf"]
    dump = next(s for s in parsed.symbols if s.name == "dump")
    assert SPLIT[dump.start_byte:dump.end_byte].count(b"#ifdef USE_DECNUM") == 2


def test_directives_inside_an_initializer_and_a_cplusplus_guard() -> None:
    found = _table(TABLE)
    assert found["CFUNC"] == ("function", 4, 4) and found["LIBM"] == ("function", 5, 5)
    assert found["last"] == ("function", 23, 25)
    assert found["bind_builtins"] == ("function", 27, 29)
    # a macro defined inside a struct body stays a symbol (only an initializer's are read past)
    assert found["point"] == ("struct", 17, 21) and found["point.POINT_ORIGIN"][1:] == (19, 19)
    assert "BINOP" not in found


def test_a_statement_is_never_a_function() -> None:
    found = _table(ELSE_AFTER_ENDIF)
    assert found == {"strtod_": ("function", 1, 16), "after": ("function", 18, 20)}
    assert not [n for n in found if n.split(".")[-1] in {"if", "else"}]


MACROS = b"""#define token(p, ch) \\
   (((p)->flags & STREAMING) ? stream_token((p), (ch)) : parse_token((p), (ch)))
#define TRY(x) do { int msg__ = (x); if (msg__) return msg__; } while (0)
#define APPLY(f, v) f(v) + p->method(v) + s.field(v) + sizeof(v)

static int scan(struct parser *p, char ch) {
  TRY(token(p, ch));
  return 0;
}
"""


def test_a_function_like_macros_body_calls_what_it_names() -> None:
    """jq's ``token`` macro is ``parse_token``'s only caller: the grammar keeps a macro's
    body as text, and ``callers parse_token`` answered none."""
    parsed = symbols(MACROS, "c")
    calls = {s.qualified_name: [(c.name, c.line) for c in s.call_sites] for s in parsed.symbols}
    assert calls["token"] == [("stream_token", 2), ("parse_token", 2)]
    # no keyword, parameter (f), member (p->method, s.field) or sizeof is a call
    assert calls["TRY"] == [] and calls["APPLY"] == []
    assert calls["scan"] == [("TRY", 7), ("token", 7)]


# jv_dtoa.c's shape: balanced branches that continue a statement across their directives
# (`else if` and `else` after the `#endif` of an `if`'s group).
CONTINUED = b"""static int scan(int c) {
  if (c > 9) {
    c = 1;
  }
#ifndef X
  else if (c == 1) {
    c = 2;
  }
#endif
#ifdef Y
  else
#endif
  {
    c = 3;
  }
  return c;
}
"""


def test_every_groups_first_branch_when_one_error_still_swallows_lines(monkeypatch) -> None:
    """Balanced groups are read whole first (their variants are all definitions); only when
    one error still spans ``SWALLOWED_LINES`` (jv_dtoa.c: its whole file) is every group
    read as its first branch, if that error then shrinks."""
    import coderecalld.parse as parse

    assert symbols(CONTINUED, "c").has_errors  # a one-line error: read as written
    monkeypatch.setattr(parse, "SWALLOWED_LINES", 1)
    parsed = symbols(CONTINUED, "c")
    assert not parsed.has_errors
    assert [(s.name, s.start_line, s.end_line) for s in parsed.symbols] == [("scan", 1, 17)]
