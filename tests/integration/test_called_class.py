"""A class an issue's code calls runs its constructor: when the prose speaks of building
an object, the name's definition bonus goes to the constructor too
(``anchors.CALLED_CLASS_CONSTRUCTORS``), and a name with a capital
that a class spells exactly is not the lower-case methods of other classes
(``anchors.CAPITALISED_NAMES_CASED``). swe-lite-dev's sympy 16988 ("Intersection should
remove duplicates", ``>>> Intersection({1},{1},{x})``) listed ``Intersection.__new__``, the
fix, 34th of its file: geometry's nine ``intersection`` methods had made the name no
evidence at all. Real git fixture, real embedded store, sparse side."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from coderecalld.query import anchors, shape
from conformance_cases import indexed

SETS = '''\
class Set:
    """A set of elements."""

    def union(self, other):
        return Union(self, other)


class Union(Set):
    """The union of sets."""

    def __new__(cls, *args):
        return object.__new__(cls)


class Intersection(Set):
    """The intersection of sets: the elements every argument holds."""

    def __new__(cls, *args, evaluate=True):
        args = list(args)
        return object.__new__(cls)

    def _handle_finite_sets(self, args):
        """Remove duplicates of finite sets and the duplicates of their elements."""
        seen = []
        for duplicate in args:
            if duplicate not in seen:
                seen.append(duplicate)
        return seen

    def zero(self):
        """The empty set: what an intersection with nothing in common gives."""
        return EmptySet()

    def is_empty(self):
        return not self._handle_finite_sets([])


class EmptySet(Set):
    """The set of no elements."""
'''

PARSER_TS = '''\
export class Parser {
  private strict: boolean;

  constructor(options: { strict?: boolean } = {}) {
    this.strict = false;
  }

  parse(text: string): string[] {
    // strict parsing refuses unknown tokens in the text
    return text.split(" ").filter((token) => token.length > 0);
  }
}
'''


def _shape(i: int) -> str:
    return f'''\
class Shape{i}:
    """A plane figure."""

    def intersection(self, other):
        """The points this figure and another share."""
        return []
'''


FILES = {"pkg/sets.py": SETS, "web/parser.ts": PARSER_TS,
         **{f"pkg/geometry/shape{i}.py": _shape(i) for i in range(anchors.DEFINITION_MAX_FILES + 1)}}

ISSUE = """\
Intersection should remove duplicates

```python
>>> Intersection({1},{1},{x})
EmptySet()
>>> Intersection({1},{x})
{1}
```
The answer should be the same with duplicates present; they should be removed at the
outset of instantiation, before the finite sets are handled.
"""
# the same report, the class only printed by the session, never typed
PRINTED = """\
Sets with duplicates are wrong

```
In [1]: s = union_of({1}, {1})
In [2]: s.intersect({x})
Out[2]: Intersection({1},{1},{x})
```
The answer should be the same with duplicates present; they should be removed at the
outset of instantiation, before the finite sets are handled.
"""
TS_ISSUE = """\
Parser ignores the strict option

```ts
const parser = new Parser({ strict: true });
parser.parse("a ? b");  // returns ["a", "?", "b"], expected an error for "?"
```
The option passed to the constructor is never stored: parsing is never strict.
"""
# a reproducer building the object it uses, its prose about another method
BUILT = """\
Intersection drops duplicates in the wrong place

```python
>>> s = Intersection({1},{1},{x})
>>> s._handle_finite_sets([{1}, {1}])
[{1}]
```
Handling finite sets should keep the duplicates of elements until the end.
"""


@pytest.fixture(scope="module")
def sets(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("called-class"), FILES) as running:
        yield running


def _functions(daemon: Daemon, text: str, path: str) -> dict[str, float]:
    """The functions ``locate`` lists for ``path``, by qualified name, with their scores."""
    located = daemon.service.locate(text, limit=10, repo="fx", functions=50)
    return {f.qualified_name: f.score for f in located.files if f.path == path for f in f.functions}


def _bonus(text: str, name: str) -> float:
    """``name``'s bonus on its one defining file (a title's name's weighs more)."""
    asked = shape.analyze(text)
    titled = asked.names.index(name) < asked.title_names
    return anchors.DEFINITION_WEIGHT * (anchors.TITLE_FACTOR if titled else 1.0)


def test_a_called_class_lists_its_constructor_with_the_name_s_bonus(
        sets: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    on = _functions(sets, ISSUE, "pkg/sets.py")
    monkeypatch.setattr(anchors, "CALLED_CLASS_CONSTRUCTORS", False)
    off = _functions(sets, ISSUE, "pkg/sets.py")
    assert on["Intersection.__new__"] == pytest.approx(off["Intersection.__new__"] + _bonus(ISSUE, "Intersection"),
                                                       abs=1e-3)
    assert list(on).index("Intersection.__new__") < list(off).index("Intersection.__new__")
    # another class's constructor, and the class's other methods, gain nothing
    assert on["Union.__new__"] == pytest.approx(off["Union.__new__"], abs=1e-6)
    assert on["Intersection.zero"] == pytest.approx(off["Intersection.zero"], abs=1e-6)


def test_a_capitalised_name_is_not_the_lower_case_methods_of_other_classes(
        sets: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ten files define ``intersection`` in some case, more than ``DEFINITION_MAX_FILES``:
    counted so, the class's name was no evidence, and its constructor gained nothing."""
    on = _functions(sets, ISSUE, "pkg/sets.py")
    monkeypatch.setattr(anchors, "CAPITALISED_NAMES_CASED", False)
    off = _functions(sets, ISSUE, "pkg/sets.py")
    assert on["Intersection.__new__"] == pytest.approx(off["Intersection.__new__"] + _bonus(ISSUE, "Intersection"),
                                                       abs=1e-3)


def test_a_class_a_session_only_printed_is_no_call(sets: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    """``Out[2]: Intersection(..)`` is a value's printed form: the constructor keeps its
    score."""
    on = _functions(sets, PRINTED, "pkg/sets.py")
    monkeypatch.setattr(anchors, "CALLED_CLASS_CONSTRUCTORS", False)
    assert _functions(sets, PRINTED, "pkg/sets.py") == on


def test_a_class_called_by_a_reproducer_speaking_of_no_construction_names_no_constructor(
        sets: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every reproducer builds the objects it uses: the bonus went to the constructor of
    every called class and took the first place from the method fixed (packaging's
    ``Requirement.__hash__``, a newcomer's issues)."""
    assert not anchors._speaks_of_construction(BUILT) and anchors._speaks_of_construction(ISSUE)
    on = _functions(sets, BUILT, "pkg/sets.py")
    monkeypatch.setattr(anchors, "CALLED_CLASS_CONSTRUCTORS", False)
    assert _functions(sets, BUILT, "pkg/sets.py") == on


def test_new_calls_a_typescript_class_s_constructor(sets: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    on = _functions(sets, TS_ISSUE, "web/parser.ts")
    monkeypatch.setattr(anchors, "CALLED_CLASS_CONSTRUCTORS", False)
    off = _functions(sets, TS_ISSUE, "web/parser.ts")
    # named ``parser`` first (``const parser = new Parser(..)``): called as the class spells it
    assert shape.analyze(TS_ISSUE).names[0] == "parser"
    assert on["Parser.constructor"] == pytest.approx(off["Parser.constructor"] + _bonus(TS_ISSUE, "parser"), abs=1e-3)
    assert on["Parser.parse"] == pytest.approx(off["Parser.parse"], abs=1e-6)


@pytest.mark.parametrize(("text", "name", "called"), [
    (">>> Intersection({1},{x})", "Intersection", True),
    ("p = new Parser({strict: true})", "Parser", True),
    ("s = Stream.new(io)", "Stream", True),
    ("x = sympy.Intersection(a, b)", "Intersection", False),  # another module's, maybe
    ("class Intersection(Set):", "Intersection", False),  # a definition's head
    ("def Intersection(a):", "Intersection", False),
    ("the Intersection of two sets", "Intersection", False),
    (">>> s.intersect(t)\nIntersection({1}, {2})", "Intersection", False),  # printed by the session
    ("In [3]: W*milli\nOut[3]: watt*Prefix(milli, m, -3, 10)", "Prefix", False),
    ("x = Prefix(1)\n\n>>> y\nPrefix(2)", "Prefix", True),  # typed in a run of no prompt
])
def test_instantiated(text: str, name: str, called: bool) -> None:
    assert anchors._instantiated(anchors._typed(text), name) is called
