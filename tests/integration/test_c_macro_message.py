"""A C macro's message (``shape._STRING_LITERAL``): a literal may continue over a line's end
``\\`` (Rust's messages), but the quote of a character literal ``'"'`` on a macro's
continued line opens none: it paired with the next line's quote and the macro's template
was lost (a review). Real git fixture, real embedded store."""
from __future__ import annotations

import pytest

from conformance_cases import indexed

EMIT = r'''#include <stdio.h>

#define EMIT_FIELD(out, v, f) \
    putc('"', out); \
    fprintf(out, "value %s is out of range for field %s", v, f); \
    putc('"', out)

void emit_all(FILE *out, const char *v, const char *f) {
    EMIT_FIELD(out, v, f);
}
'''

OTHER = r'''#include <stdio.h>

/* Report a value that is out of range for a field of the record. */
void report_range(const char *field, int value) {
    printf("range check for field %s: value %d\n", field, value);
}
'''


@pytest.fixture(scope="module")
def daemon(tmp_path_factory):
    with indexed(tmp_path_factory.mktemp("rev17lit"), {"src/emit.c": EMIT, "src/report.c": OTHER}) as running:
        yield running


def test_the_macros_template_prints_the_message(daemon):
    hits = daemon.service.search("value 42 is out of range for field width", limit=3, repo="fx")
    print("\nMESSAGE", [(h.path, h.qualified_name, h.match) for h in hits])
    assert (hits[0].qualified_name, hits[0].match) == ("EMIT_FIELD", "evidence")
