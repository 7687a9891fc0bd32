"""Receiver types of Python method calls, read from one file's source at index time.

The resolve stage asks ``Receivers.target(site, owner)`` for a call such as ``app.route``
or ``self.session.get`` that imports and top-level names did not bind; the answer is
``<class>.<method>`` with the class module-qualified (``flask.app.Flask.route``), or ``""``.
The class need not define the method: the query side (``query/callgraph``) follows the
class's bases (``base_targets``), in other files and repos, to the definition it inherits.

What types a name, inside the calling function (nested functions also see their
enclosing functions' names), each read from the source lines of that scope:

* a parameter annotation (``def f(self, app: Flask)``; ``Optional[X]``, ``X | None`` and
  quoted names count as ``X``);
* ``x = C(...)`` where ``C`` is a class (this file's, or an imported CapWords name),
  ``cls(...)`` inside a class, or a function or method of this file whose return
  annotation (or reST ``:rtype:``) names a class: return types are followed one level;
* ``x: C`` and ``x: C = ...``; ``with C(...) as x``;
* ``self.a = C(...)`` / ``self.a: C`` in any method of the class or of a same-file base
  (``self.a.m()``), and ``a: C`` in the class body (a dataclass's, attrs' or NamedTuple's
  field); an attribute declared so has its declared type whatever else is assigned to it;
* ``for x in xs`` (also ``enumerate(xs)``, ``reversed(xs)``) where ``xs``, a name or an
  attribute, is declared ``Sequence[C]``, ``list[C]``, ``Iterable[C]``, ``set[C]`` or
  ``tuple[C, ...]`` (``| None`` unwrapped);
* ``xs[i]`` (and ``x = xs[i]``) where ``xs``, a name or an attribute, is declared
  ``list[C]``/``Sequence[C]`` (``C``), ``dict[K, C]``/``Mapping``/``defaultdict`` (``C``) or
  ``tuple[A, C]`` (``C`` at ``[1]``), subscripts chained and attributes after them
  (``subscript_type``);
* each name of a tuple assignment of as many values (``errors, seen = [], {}``), as each
  value alone would bind it;
* ``Type[C]`` / ``type[C]``: the class ``C`` itself (``CLASS_OBJECT``): a call on it is
  ``C``'s method, calling it constructs a ``C``, as a classmethod's ``cls(..)`` and
  ``self.__class__(..)`` do;
* ``super().m()`` / ``super(C, self).m()``: the first base (``class C(B)``) -> ``B.m``; a
  builtin one (``class C(list)``) -> ``builtins.list.m`` (the query side follows the MRO
  past a first base that lacks ``m``: ``callgraph.super_targets``).

A name bound more than once to different or unknown things (a plain parameter, ``for x
in``, ``x = y[0]`` of an undeclared ``y``) has no type: flow is not followed, so a name is
typed only where every binding agrees. Text-based on purpose: the lines are already in memory, and the parse
stage (tree-sitter, bench_parse.py) is not touched.
"""

from __future__ import annotations

import bisect
import builtins
import re
from collections.abc import Mapping

from coderecalld.parse.headers import top_level
from coderecalld.records import RETURNED, CallSite, Symbol, SymbolKind, unparted

_NAME = r"[A-Za-z_]\w*"
_NAME_RE = re.compile(_NAME)
_ASSIGN = re.compile(rf"^\s*({_NAME})\s*(?::\s*([^=]+?))?\s*=(?!=)\s*(.*?)\s*$")
_SELF_ASSIGN = re.compile(rf"^\s*self\.({_NAME})\s*(?::\s*([^=]+?))?\s*=(?!=)\s*(.*?)\s*$")
_DECLARE = re.compile(rf"^\s*({_NAME})\s*:\s*([^=]+?)\s*$")
#: A keyword argument on its own line of a call (``    env=env,``; PEP 8 writes an
#: assignment with spaces around ``=``): read as ``env = env,`` it untyped httpie's
#: ``env: Environment`` for the rest of ``raw_main`` (a newcomer).
#: A ``@contextmanager`` or ``@asynccontextmanager`` decorator (``contextlib.`` or not).
_CONTEXT_MANAGER = re.compile(r"^@(?:[\w.]+\.)?(?:async)?contextmanager\b")
#: ``Alias = pkg.Class`` on its own (``class_aliases``).
_CLASS_ALIAS = re.compile(rf"^\s*({_NAME})\s*=\s*({_NAME}(?:\.{_NAME})*)\s*$")
_KEYWORD_ARGUMENT = re.compile(rf"^\s*{_NAME}=(?!=)\S")
_WITH = re.compile(rf"([\w.]+)\((?:[^()]|\([^()]*\))*\)\s+as\s+({_NAME})")
_AS = re.compile(rf"\bas\s+({_NAME})")
#: A ``for`` statement's targets (``async for`` too).
FOR_STATEMENT = re.compile(r"^\s*(?:async\s+)?for\s+(.+?)\s+in\b")
#: A whole ``for`` header: its targets and the value iterated (``_loop_item``).
_FOR_IN = re.compile(r"^\s*(?:async\s+)?for\s+(.+?)\s+in\s+(.+?)\s*:\s*$")
_DOTTED = re.compile(rf"{_NAME}(?:\.{_NAME})*")
#: ``a, b = ..``, ``(a, b) = ..``; never a call's keyword argument after a positional one
#: (uvicorn's ``ChangeReload(config, target=server.run)`` bound ``config`` untyped there,
#: and ``config.bind_socket()`` in the next ``elif`` branch was name-only; a newcomer).
_TUPLE = re.compile(r"^\s*((?:(?!\w\s*\()[\w\s,*()\[\]])+?,[\w\s,*()\[\]]*?)\s*=(?!=)")
_CALL = re.compile(r"^([\w.]+)\s*\(")
_RTYPE = re.compile(r":rtype:\s*([\w.]+)")
_RETURN = re.compile(r"->\s*(.+?)\s*:?\s*$")
#: A return annotation whose value ``with`` enters as its first type argument
#: (``returns``'s ``entered``): httpie's ``@contextmanager`` tests yielding a ``Session``
#: (``-> Iterator[Session]``) typed ``with ... as s`` as an ``Iterator`` and left its
#: ``s.save()`` calls out as calls on another type (a newcomer).
_ENTERED = re.compile(r"^(?:(?:t|typing|typing_extensions|collections\.abc|contextlib)\.)?"
                      r"(?:Iterator|Generator|AsyncIterator|AsyncGenerator|ContextManager|"
                      r"AbstractContextManager|AsyncContextManager)\[(.*)\]$")
_WRAPPERS = re.compile(r"^(?:(?:t|typing|typing_extensions)\.)?(?:Optional|Final|ClassVar|Annotated)\[(.*)\]$")
#: ``Union[A, B]`` (typer's ``obj: Union[click.Command, click.Group]`` typed ``obj.get_usage``
#: as ``typing.Union.get_usage``, a newcomer): read as ``A | B``.
_UNION = re.compile(r"^(?:(?:t|typing|typing_extensions)\.)?Union\[(.*)\]$")
#: A subscripted type, ``Type[Arrow]``, ``Sequence[Marker]``: its name and its arguments.
_SUBSCRIPTED = re.compile(r"^([A-Za-z_][\w.]*)\[(.*)\]$")
#: A name annotated with a class itself, ``type: Type[Arrow]``, ``c: Optional[type[C]]``.
_CLASS_VALUED = re.compile(r"(\w+)\s*:\s*(?:[\w.]+\[)*(?:[\w.]*\.)?[Tt]ype\[")
#: Containers whose iteration gives their one type argument (``tuple`` only as ``tuple[T,
#: ...]``): packaging's ``for env_marker in self.environments`` of a dataclass field
#: ``environments: Sequence[Marker] | None`` called ``Marker.evaluate`` name-only (a newcomer).
_CONTAINERS = ("Sequence", "MutableSequence", "List", "list", "Iterable", "Iterator", "Collection",
               "AbstractSet", "Set", "set", "FrozenSet", "frozenset", "MutableSet", "Tuple", "tuple")
#: Generic aliases whose subscript gives their one type argument (``item_annotation``).
_SEQUENCES = ("Sequence", "MutableSequence", "List", "list")
#: Generic aliases whose subscript gives their second type argument, the value's.
_MAPPINGS = ("Mapping", "MutableMapping", "Dict", "dict", "DefaultDict", "defaultdict", "OrderedDict", "ChainMap")
#: A subscripted value: a dotted head, one or more subscripts (none nested), then attributes
#: (``xs[0]``, ``self._release_ranges[-1].tokens``, ``stack[-1][1]``).
_SUBSCRIPT_PARTS = (r"[A-Za-z_][\w.]*", r"(?:\[[^\[\]]*\])+", r"(?:\.[A-Za-z_]\w*)*")
SUBSCRIPT_VALUE = re.compile("^({})({})({})$".format(*_SUBSCRIPT_PARTS))
#: The same value unanchored and ungrouped, as a call's receiver (``resolve._subscripted_receivers``).
SUBSCRIPTED = "".join(_SUBSCRIPT_PARTS)
#: Modules whose names ``_typing_name`` accepts for a generic alias (``collections`` for
#: ``defaultdict`` and ``OrderedDict``).
_TYPING_MODULES = ("typing", "typing_extensions", "collections.abc", "collections")
#: Builtins a loop reads through to the iterated value (``for i, m in enumerate(xs)``).
_THROUGH = re.compile(r"^(enumerate|reversed)\((.*)\)$")
_SUPER = r"super\(\s*(?:{_NAME}\s*,\s*{_NAME})?\s*\)\.{method}\s*\("
#: A ``with`` statement whose first call is left open on its line (``_with_above``).
_WITH_OPEN = re.compile(r"^\s*(?:async\s+)?with\s+[\w.]+\((?:[^()]|\([^()]*\))*$")
#: Lines above an ``as`` a multi-line ``with`` call may open (``_with_above``).
WITH_SPAN = 12
#: A string literal's opening: its prefix (``f``, ``b``, ``rb``) and quote.
_STRING_LITERAL = re.compile(r"^([rRbBuUfF]{0,2})[\"']")
#: The class of what the builtin ``open(..)`` (or ``io.open``) returns, unshadowed: a file
#: object, whose ``write``/``read``/``close`` reach no project method. Python's ``open``
#: returns ``io.TextIOWrapper`` in text mode and a buffered or raw ``io`` object in binary
#: mode; callee alone does not tell which, so the text mode's class stands for all of them
#: (``with open(p) as f: f.write(..)`` was a name-only caller of every ``write``).
OPENED_FILE = "io.TextIOWrapper"
#: A line binding the name ``open`` somewhere in a file (``_builtin_open``).
_OPEN_BOUND = re.compile(r"\b(?:def|class)\s+open\b|\bglobal\b.*\bopen\b|\bas\s+open\b"
                         r"|(?:^|[\s,(])open\s*(?::[^=]+)?=(?!=)")
#: Builtin types an annotation may name: a call on one is known not to reach a project's method.
_BUILTIN_TYPES = frozenset("bool bytearray bytes dict float frozenset int list set str tuple".split())
#: Every class Python's ``builtins`` holds (``object``, ``dict``, ``ValueError``, ...): a
#: base written so, unshadowed, is no class of the project (``_super``).
_BUILTIN_CLASSES = frozenset(name for name, value in vars(builtins).items() if isinstance(value, type))
#: ``isinstance(x, C):`` ending an ``if`` line: the name (group 1) and the class (group 2).
_CLASS_TEST = r"isinstance\(\s*([A-Za-z_]\w*)\s*,\s*([A-Za-z_][\w.]*)\s*\)\s*:\s*(?:#.*)?$"
#: A block entered on one class test alone: ``if isinstance(x, C):`` (or ``elif``).
_ISINSTANCE = re.compile(rf"^\s*(?:if|elif)\s+{_CLASS_TEST}")
#: ``if not isinstance(x, C):``, a guard: ``_guarded`` reads its block.
_NOT_ISINSTANCE = re.compile(rf"^\s*if\s+not\s+{_CLASS_TEST}")
#: ``assert isinstance(x, C)`` (a message after it allowed): ``x`` is a ``C`` below it.
_ASSERT_ISINSTANCE = re.compile(
    r"^\s*assert\s+isinstance\(\s*([A-Za-z_]\w*)\s*,\s*([A-Za-z_][\w.]*)\s*\)\s*(?:,.*)?$")
#: A statement that leaves its block: what follows a guard's block is not reached through it.
_LEAVES = re.compile(r"(?:return|raise|continue|break)\b")
#: A value's keywords outside brackets and strings (``_alternatives``).
_VALUE_KEYWORD = re.compile(r"[ \t](or|if|else|and|not|lambda|for|in|is|yield|await)(?=[ \t(\[{\"'])")
#: A value opening with one of these is no choice of alternatives (``yield q or C()``).
_LEADING_KEYWORD = re.compile(r"(?:yield|lambda|not|await)\b")
#: An operator or a comma outside brackets: an alternative that compares, computes or
#: builds a tuple (``a == b or C()``, ``a, b or C()``) is no value of one class.
_VALUE_OPERATOR = re.compile(r"[=!<>]=|[<>+\-*/%|&^@~,]")
#: A condition that only tests a name for ``None`` or truth: ``y if y is not None else C()``
#: has ``y`` a ``C``-or-untyped default (``hasattr(y, "read")`` duck-types it instead).
_NONE_TEST = re.compile(r"(?:not\s+)?([A-Za-z_]\w*)(?:\s+is(?:\s+not)?\s+None)?")
#: Annotations that type no class: typing's forms and abstract types (``Any``,
#: ``Callable``, ``Mapping``: a project's class may implement one, starlette's ``Headers``
#: is a ``Mapping``), ``collections.abc``'s, ``abc``'s and ``object``. typing's concrete
#: aliases (``List``, ``IO``, ``BinaryIO``, ``Pattern``, ``Generator``: a generator
#: function's value, httpx's ``flow.send(response)`` was a name-only caller of
#: ``Client.send``) still type their calls.
_ANY_TYPING = frozenset("""
Any Callable Type Literal TypeVar Protocol Awaitable Coroutine Iterable Iterator AsyncIterable
AsyncIterator Mapping MutableMapping Sequence MutableSequence
Collection Container AbstractSet MutableSet Hashable Sized Reversible KeysView ItemsView
ValuesView MappingView ContextManager AsyncContextManager SupportsInt SupportsFloat
SupportsAbs SupportsBytes SupportsIndex SupportsRound SupportsComplex Union Optional Annotated
ClassVar Final Generic Self Never NoReturn LiteralString TypeAlias ParamSpec Concatenate
TypeGuard""".split())


def _any_value(fq: str) -> bool:
    """Whether the annotation's class ``fq`` types no class (``_ANY_TYPING``)."""
    head, _, name = fq.rpartition(".")
    return (fq == "builtins.object" or head in ("collections.abc", "abc")
            or (head in ("typing", "typing_extensions") and name in _ANY_TYPING))
_FUNCTION_KINDS = (SymbolKind.FUNCTION, SymbolKind.METHOD)
#: Decorators that make a method an attribute of its return type.
_PROPERTIES = frozenset({"property", "cached_property"})
#: Prefixes a receiver that is an attribute of another file's class (``"\x1fpkg.C.attr"``, a
#: control character no name holds): its type is unknown here, the query side may know it.
ATTRIBUTE = "\x1f"
#: Prefixes a call target whose receiver is exactly the target's class, never a subclass
#: (Java's ``JsonReader r = new JsonReader(..)``: ``receivers_java.exact``): the call runs
#: no override of the method (``CallSite.exact``).
EXACT = "\x1d"
#: Prefixes a call target that is only its receiver's type (Rust's ``src.freeze()`` on a
#: ``src: BytesMut`` whose file defines no ``freeze``): ``CallSite.receiver_type``.
TYPED = "\x1c"
#: Marks a name bound to something untyped (it then has no type in that scope).
UNKNOWN = "?"
#: Bases that declare no attribute of a class (``_inherited_attr``).
_NO_BASES = frozenset({"object", "Generic", "Protocol", "ABC", "NamedTuple", "TypedDict", "Enum", "Exception"})
#: Prefixes a value that is a class itself, not an instance of it (``type: Type[Arrow]``,
#: arrow's ``self.type.fromdatetime(..)``): a method called on it is the class's (a
#: classmethod), calling it constructs the class (``self.type(..)`` is no ``__call__``).
#: Only ``Receivers`` holds it: every answer it gives out is the class (``instance``).
CLASS_OBJECT = "\x1e"
#: A pytest fixture's decorator (``@pytest.fixture``, ``@pytest.fixture(scope="module")``,
#: ``@fixture``).
_FIXTURE = re.compile(r"^@(?:pytest\.)?fixture\b")
#: The name a fixture is requested by, when its decorator gives one (``name="cr"``).
_FIXTURE_NAME = re.compile(r"\bname\s*=\s*[\"']([A-Za-z_]\w*)[\"']")
#: A ``return C(..)`` or ``yield C(..)`` line: the value a fixture produces, constructed.
_PRODUCED = re.compile(r"^\s*(?:return|yield)\s+([A-Za-z_][\w.]*)\s*\(")
#: A ``return x`` or ``yield x`` line: a fixture producing a name it bound (flask's ``app =
#: Flask(..)``, ``app.config.update(..)``, ``return app``).
_PRODUCED_NAME = re.compile(r"^\s*(?:return|yield)\s+([A-Za-z_]\w*)\s*(?:#.*)?$")
#: The module pytest reads fixtures from for a test that requests one its own file does not
#: define: a test's parameter of no type is ``conftest.<name>()``, the value of fixture
#: ``<name>`` of some ``conftest.py`` (which one is the query side's to say: a fixture
#: stores the class it produces, payload ``returns``). click's 386 ``runner.invoke(..)``
#: calls on its conftest's ``runner`` (``return CliRunner()``) were name-only callers of
#: ``CliRunner.invoke``.
CONFTEST = "conftest"
#: Ends a receiver that is another file's function's result (``rich.get_console()``,
#: ``rich.table.Table.grid()``: ``x = get_console()`` then ``x.print(..)`` targets
#: ``rich.get_console().print``) or a fixture's value (``conftest.runner()``): the marker
#: a Go function's result ends with too, ``records.RETURNED``, which the query side reads;
#: the function's declared result (payload ``returns``) types it at query time.
PRODUCED = RETURNED
#: Parameters pytest passes no fixture of a conftest: the object and the class, and
#: ``request``, pytest's own (its ``request.param`` is no project's value).
_NOT_FIXTURES = frozenset({"self", "cls", "request"})


class Receivers:
    """Receiver types of one Python file; see the module docstring. ``table`` is the file's
    import table, ``top`` its top-level names, ``lines`` line number -> source text."""

    def __init__(self, module: str, table: Mapping[str, str], symbols: Mapping[str, Symbol],
                 top: set[str], lines: Mapping[int, str]) -> None:
        self.module, self.table, self.symbols, self.top, self.lines = module, table, symbols, top, lines
        self._children = children(symbols)
        self._scopes: dict[str, dict[str, str]] = {}
        # function -> name -> its bindings in line order: (line, indentation, class or "")
        self._events: dict[str, dict[str, list[tuple[int, int, str]]]] = {}
        self._attrs: dict[str, dict[str, str]] = {}
        self._assigned: dict[str, set[str]] = {}
        self._declared: dict[str, dict[str, list[str]]] = {}  # function -> name -> annotations
        self._annotations: dict[str, dict[str, list[str]]] = {}  # class -> attribute -> annotations
        self._class_names: frozenset[str] | None = None
        self._fixtures: dict[str, str] | None = None  # request name -> class
        self._fixture_values: dict[str, str] = {}  # fixture's qualified name -> class
        self._statement_cache: dict[str, list[tuple[int, str]]] = {}
        self._statement_index: dict[str, dict[int, str]] = {}
        self._open_bound: bool | None = None  # whether the file binds `open` anywhere

    # --- types of expressions ---------------------------------------------------------

    def class_of(self, expr: str, annotation: bool = False) -> str:
        """The module-qualified class a type expression names (``"Flask"``, ``Optional[x.C]``,
        ``C | None``), ``""`` if none: a class of this file or an imported CapWords name; in an
        ``annotation`` any imported name (``socket.socket``) or builtin type (``builtins.str``)."""
        expr = unwrapped(expr)
        held = _SUBSCRIPTED.match(expr) if annotation and "[" in expr else None
        if held and self._typing_name(held.group(1), ("Type", "type")):
            # `type: Type[Arrow]`: the class itself (``CLASS_OBJECT``)
            inner = self.class_of(held.group(2), True)
            return f"{CLASS_OBJECT}{inner}" if inner and not inner.startswith(CLASS_OBJECT) else ""
        expr = expr.strip().strip("'\"").split("[", 1)[0].strip()
        if not re.fullmatch(rf"{_NAME}(\.{_NAME})*", expr):
            return ""
        head, _, rest = expr.partition(".")
        local = self.symbols.get(expr)
        if head in self.top:
            return f"{self.module}.{expr}" if local is not None and local.kind is SymbolKind.CLASS else ""
        if head in self.table and (annotation or expr.rsplit(".", 1)[-1].lstrip("_")[:1].isupper()):
            found = ".".join(filter(None, [self.table[head], rest]))
            # `Any`, `Callable`, an abstract `Mapping`: any value, no class (starlette's
            # `value: typing.Any` made `value.lower()` a call of `typing.Any.lower`)
            return "" if _any_value(found) else found
        return f"builtins.{expr}" if annotation and expr in _BUILTIN_TYPES else ""

    def _typing_name(self, written: str, names: tuple[str, ...]) -> bool:
        """Whether ``written`` (``Sequence``, ``typing.Type``, ``t.List``, ``list``) is one of
        ``names`` of typing or ``collections.abc`` as the file imports it (``_TYPING_MODULES``),
        or a lower-case builtin of ``names`` the file does not shadow; never a class of the file."""
        head, _, rest = written.partition(".")
        if head in self.top:
            return False
        if head in self.table:
            module, _, name = ".".join(filter(None, [self.table[head], rest])).rpartition(".")
            return module in _TYPING_MODULES and name in names
        return not rest and head in names and head.islower()  # `list[T]`, `type[X]`

    def element_class(self, annotation: str) -> str:
        """The class iterating a value annotated ``annotation`` gives: ``T`` of ``Sequence[T]``,
        ``list[T]``, ``Iterable[T]``, ``set[T]``, ``tuple[T, ...]`` (``_CONTAINERS``; ``| None``
        and ``Optional`` unwrapped), as ``class_of`` reads an annotation; else ``""``."""
        found = _SUBSCRIPTED.match(unwrapped(annotation))
        if not found or not self._typing_name(found.group(1), _CONTAINERS):
            return ""
        args = [a.strip() for a in split_params(f"({found.group(2)})")]
        pair = found.group(1).rpartition(".")[2] in ("tuple", "Tuple")
        if len(args) != (2 if pair else 1) or (pair and args[1] != "..."):
            return ""  # `tuple[A, B]`: each item its own type
        return self.class_of(args[0], True)

    def element_type(self, expr: str, owner: str) -> str:
        """The class iterating ``expr`` in ``owner`` gives, by the annotation declaring it
        (``element_class``): a name's (a parameter's, ``xs: list[T] = ..``) in the function
        binding it, an attribute's (``self.packages``, ``lock.packages``) in its class of
        this file (``_attr_annotations``); ``""`` if none or they disagree."""
        head, dot, attr = expr.rpartition(".")
        if dot:
            cls = self._local_class(instance(self.expr_type(head, owner)))
            annotations = self._attr_annotation(cls, attr) if cls else []
        else:
            annotations = self._name_annotations(attr, owner)
        found = {self.element_class(a) for a in annotations}
        return found.pop() if len(found) == 1 else ""

    def item_annotation(self, annotation: str, index: str) -> str:
        """The annotation of ``value[index]`` for a value annotated ``annotation``, as a type
        checker reads it: a sequence's (``list[T]``, ``Sequence[T]``: ``_SEQUENCES``) ``T``,
        a mapping's (``dict[K, V]``, ``Mapping``, ``defaultdict``: ``_MAPPINGS``) ``V``,
        ``tuple[T, ...]``'s ``T`` and ``tuple[A, B]``'s at a literal integer ``index``
        (``-1`` counts from the end); ``""`` for a slice, another generic or a bare name."""
        found = _SUBSCRIPTED.match(unwrapped(annotation))
        if not found or ":" in index:
            return ""
        generic = found.group(1)
        args = [a.strip() for a in split_params(f"({found.group(2)})")]
        if self._typing_name(generic, _SEQUENCES):
            return args[0] if len(args) == 1 else ""
        if self._typing_name(generic, _MAPPINGS):
            return args[1] if len(args) == 2 else ""
        if not self._typing_name(generic, ("Tuple", "tuple")):
            return ""
        if len(args) == 2 and args[1] == "...":
            return args[0]
        at = index.strip()
        return args[int(at)] if re.fullmatch(r"-?\d+", at) and -len(args) <= int(at) < len(args) else ""

    def subscript_type(self, expr: str, owner: str) -> str:
        """The class of a subscripted value (``SUBSCRIPT_VALUE``) in ``owner``: its head's
        declared annotation (a name's in the function binding it, an attribute's in its class
        of this file, as ``element_type`` reads them), each subscript's item
        (``item_annotation``), then its attributes as ``expr_type`` walks them. black's
        ``self._release_ranges[-1].tokens.append(..)`` of ``_release_ranges:
        list[ReleaseRange]`` (``tokens: list[Any]``) is ``list.append``, no name-only call of
        ``Line.append``. ``""`` when a step is unknown or the head's annotations disagree."""
        found = SUBSCRIPT_VALUE.match(expr.strip())
        if not found:
            return ""
        head, dot, attr = found.group(1).rpartition(".")
        if dot:
            cls = self._local_class(instance(self.expr_type(head, owner)))
            annotations = self._attr_annotation(cls, attr) if cls else []
        else:
            annotations = self._name_annotations(attr, owner)
            if annotations and self._rebound(attr, owner):
                return ""  # bound otherwise too (`for xs in rows`, `except .. as xs`): unknown
        indexes = re.findall(r"\[([^\[\]]*)\]", found.group(2))
        classes = set()
        for annotation in set(annotations):
            for index in indexes:
                annotation = self.item_annotation(annotation, index)
            classes.add(self.class_of(annotation, True) if annotation else "")
        if len(classes) != 1:
            return ""
        return self._walk(classes.pop(), found.group(3).split(".")[1:])

    def _rebound(self, name: str, owner: str) -> bool:
        """Whether the function binding ``name`` around ``owner`` also binds it without an
        annotation: a loop's or an ``as`` target, a plain, tuple or walrus assignment (a
        declared ``xs: list[C]`` that ``for xs in rows`` binds again holds another item
        type; a review). Read only for a subscripted call's head."""
        sym = self._binder(name, owner)
        if sym is None:
            return False
        n = re.escape(name)
        again = re.compile(rf"^\s*(?:async\s+)?for\s+(?:[\w\s,(]*[\s,(])?{n}\b[\w\s,)]*\bin\b"
                           rf"|\bas\s+{n}\b|\b{n}\s*:=|^\s*(?:[\w\s,(]*,\s*)?{n}\s*(?:,[\w\s,)]*)?=(?!=)")
        return any(again.search(line) for _, line in self._statement_lines(sym) if name in line)

    def _binder(self, name: str, owner: str) -> Symbol | None:
        """The function of ``owner`` (or one around it) that binds ``name``, else None."""
        scope = owner.split("#", 1)[0]
        while scope:
            sym = self.symbols.get(scope)
            if sym is None:
                return None
            if sym.kind in _FUNCTION_KINDS and name in self._bindings(sym):
                return sym
            scope = sym.parent
        return None

    def _name_annotations(self, name: str, owner: str) -> list[str]:
        """The annotations of ``name`` in the function of ``owner`` (or around it) binding it."""
        sym = self._binder(name, owner)
        return self._declared.get(sym.qualified_name, {}).get(name, []) if sym is not None else []

    def _class_valued(self) -> frozenset[str]:
        """Names this file annotates with a class itself (``type: Type[Arrow]``, ``cls_:
        Optional[type[C]]``), read once: only a call of one of these names is asked whether
        it constructs (``call_type``), reading no attribute types of the others (a class's
        attributes read while its own are being read are partial)."""
        if self._class_names is None:
            self._class_names = frozenset(m.group(1) for line in self.lines.values() if "ype[" in line
                                          for m in _CLASS_VALUED.finditer(line))
        return self._class_names

    def _local_class(self, fq: str) -> str:
        """``fq``'s qualified name in this file when it is a class of this file, else ``""``."""
        prefix = self.module + "."
        qn = fq[len(prefix):] if fq.startswith(prefix) else ""
        sym = self.symbols.get(qn)
        return qn if sym is not None and sym.kind is SymbolKind.CLASS else ""

    def returns(self, fn: Symbol, cls_fq: str = "", entered: bool = False) -> str:
        """The class ``fn``'s return annotation (else its ``:rtype:``) names; ``Self`` is
        ``cls_fq``; ``entered`` (its value entered by ``with``): what an ``Iterator[X]``, a
        ``Generator[X, ..]`` (a ``@contextmanager``) or a ``ContextManager[X]`` gives, ``X``."""
        found = _RETURN.search(fn.signature.split(")")[-1]) if "->" in fn.signature else None
        expr = found.group(1) if found else ""
        if not expr:
            rtype = _RTYPE.search("\n".join(line for _, line in self._all_lines(fn)))
            expr = rtype.group(1) if rtype else ""
        if entered and (inner := _ENTERED.match(expr.strip().strip("'\"").strip())):
            expr = split_params(f"({inner.group(1)})")[0]
        if expr.strip("'\" ").rsplit(".", 1)[-1] == "Self":
            return cls_fq
        found = self.class_of(expr, True)
        return "" if found.startswith(CLASS_OBJECT) else found  # `-> Type[X]`: not followed

    def call_type(self, callee: str, owner: str, entered: bool = False) -> str:
        """The class of the value ``callee(...)`` returns inside ``owner``: a constructed class,
        ``cls(...)``, or a function/method of this file with an annotated return type (with
        ``entered``, as ``with`` enters it: ``returns``)."""
        cls = self.enclosing_class(owner)
        if callee == "cls":  # a classmethod's, not a local bound so (`cls = self._wrapper or C`)
            own = cls and (self.class_parameter(owner) or not self.binds("cls", owner))
            return f"{self.module}.{cls}" if own else ""
        if callee == "self.__class__":  # arrow's `floor = self.__class__(..)`, then `floor.shift(..)`
            return f"{self.module}.{cls}" if cls else ""
        if callee.rpartition(".")[2] in self._class_valued():
            held = self.expr_type(callee, owner)  # `self.type(..)` of `type: Type[Arrow]`: an Arrow
            if held.startswith(CLASS_OBJECT):
                return instance(held)
        direct = self.class_of(callee)
        if direct:
            return direct
        if self._builtin_open(callee, owner):
            return OPENED_FILE
        head, _, rest = callee.rpartition(".")
        nested = "" if head else nested_definition(self.symbols, owner, callee, (SymbolKind.CLASS,))
        if nested:
            return f"{self.module}.{nested}"
        if not head:
            fn = self.symbols.get(callee)
            if callee in self.top:  # unless a parameter or local of `owner` shadows it
                own = fn is not None and fn.kind in _FUNCTION_KINDS and not self.binds(callee, owner)
                return self.returns(fn, entered=entered) if own else ""
            # an imported function: its declared result, read at query time (``PRODUCED``)
            imported = self.table.get(callee, "")
            return f"{imported}{PRODUCED}" if imported and not self.binds(callee, owner) else ""
        receiver = instance(self.expr_type(head, owner))
        local = self._local_class(receiver)
        fn = self._find_method(local, rest) if local else None
        if fn is not None:
            return self.returns(fn, receiver, entered)
        if local:
            return ""  # this file's class says
        # (entered by `with`: a @contextmanager's declared result is what it yields,
        # `declared_results`; a context manager class's `__enter__` is mostly itself)
        # another file's function or method: its declared result, read at query time
        # (rich's `grid = Table.grid(..)` then `grid.add_row(..)`, `console = get_console()`)
        cls = self.class_of(head) if not receiver else ""
        owner_fq = receiver if receiver and not receiver.startswith(ATTRIBUTE) else cls or (
            self.table[head] if head in self.table else "")
        return f"{owner_fq}.{rest}{PRODUCED}" if owner_fq and not owner_fq.endswith(PRODUCED) else ""

    def expr_type(self, expr: str, owner: str, line: int | None = None) -> str:
        """The class of a dotted expression (``self``, ``app``, ``self.session``) in ``owner``
        (at ``line``: ``name_type``)."""
        parts = expr.split(".")
        head = parts[0]
        cls = self.enclosing_class(owner)
        if head in ("self", "cls") and cls:
            fq = f"{self.module}.{cls}"
        else:
            fq = self.name_type(head, owner, line)
        return self._walk(fq, parts[1:])

    def _walk(self, fq: str, attrs: list[str]) -> str:
        """The class of attribute chain ``attrs`` read from a value of class ``fq``."""
        for i, attr in enumerate(attrs, 1):
            fq = instance(fq)  # an attribute of a class itself: its class's as an instance's
            if fq.endswith(PRODUCED):
                # an attribute of another file's result, a step of its chain: a property
                # states its result as a method does (httpx's `server.url.copy_with(..)`
                # on its conftest fixture: `TestServer.url -> httpx.URL`); the query side
                # follows each step's declared result (`callgraph.chained`), a plain
                # attribute's is unknown
                fq = f"{fq}.{attr}{PRODUCED}"
                continue
            local = self._local_class(fq)
            if not local and fq and not fq.startswith(ATTRIBUTE) and i == len(attrs):
                # An attribute of a class of another file: its type is that file's to say
                # (``instance_edges``); the target names the attribute (``AppContext.app.m``).
                return f"{ATTRIBUTE}{fq}.{attr}"
            found = self.attr_type(local, attr) if local else ""
            if not found and local and i == len(attrs) and self._inherited_attr(local, attr):
                # one this file's class does not bind, nor its bases here, but another
                # file's base may declare: that file says (pytest's ``Session(nodes.Collector)``
                # calling ``self.config.getoption(..)``, ``config: Config`` on ``Node``)
                return f"{ATTRIBUTE}{fq}.{attr}"
            fq = found
            if not fq:
                return ""
        return fq

    # --- bindings ---------------------------------------------------------------------

    def name_type(self, name: str, owner: str, line: int | None = None) -> str:
        """The class bound to ``name`` in ``owner``'s function or an enclosing one. At a
        ``line`` of ``owner``'s own body, the binding nearest above it decides when every
        line from there down to ``line`` stays in its block (``_reaching``: ``url =
        URL(..)`` then ``url = url.replace(..)``, ``headers = Headers(..)`` then ``headers =
        MutableHeaders(..)``: starlette's calls on them were name-only); else every binding
        of the function must agree."""
        scope = owner.split("#", 1)[0]
        first = True
        while scope:
            sym = self.symbols.get(scope)
            if sym is None:
                return ""
            if sym.kind in _FUNCTION_KINDS:
                found = self._bindings(sym).get(name)
                reaching = (self._reaching(sym, name, line) if first and line is not None
                            and (found is not None or name in self._events.get(scope, {})) else None)
                # a name only narrowed here (a parameter `x=None`, never bound) has events only
                found = found if reaching is None else reaching
                if found is not None:
                    return "" if found == UNKNOWN else found
            first = False
            scope = sym.parent
        return ""

    def _reaching(self, fn: Symbol, name: str, line: int) -> str | None:
        """The class (``""``: untyped) of the binding of ``name`` nearest above ``line`` in
        ``fn`` when no line between them (``line`` included) is indented less than it (the
        block it is in was not left: no ``else`` branch, no loop's end), else ``None``."""
        events = [e for e in self._events.get(fn.qualified_name, {}).get(name, ()) if e[0] < line]
        if not events:
            return None
        at, indent, fq = events[-1]
        for i in range(at + 1, line + 1):
            text = self.lines.get(i, "")
            stripped = text.strip()
            if stripped and not stripped.startswith("#") and len(text) - len(text.lstrip()) < indent:
                return None
        return fq

    def binds(self, name: str, owner: str) -> bool:
        """Whether function ``owner`` (or one around it) binds ``name`` in its body or its
        parameters: then a module-level or imported ``name`` is not what it calls (flask's
        test ``app = MyFlask(..)`` resolved ``app.test_client`` through a function-local
        ``from blueprintapp import app`` elsewhere in the file; a fixture's own ``app = ..``
        through the module's ``def app()``). Lines are read only when one holds ``name``."""
        sym = self.symbols.get(owner.split("#", 1)[0])
        while sym is not None and sym.kind in _FUNCTION_KINDS:
            if any(p[0] == name for p in _params(sym.signature)):  # `x=None` too: no binding
                return True
            if (any(name in self.lines.get(i, "") for i in range(sym.start_line, sym.end_line + 1))
                    and name in self._bindings(sym)):
                return True
            sym = self.symbols.get(sym.parent)
        return False

    def is_parameter(self, name: str, owner: str) -> bool:
        """Whether ``name`` is a parameter of function ``owner`` or of a function around it
        (a pytest test's ``app`` names its fixture's value, not the module's ``def app()``)."""
        sym = self.symbols.get(owner.split("#", 1)[0])
        while sym is not None and sym.kind in _FUNCTION_KINDS:
            if any(p[0] == name for p in _params(sym.signature)):
                return True
            sym = self.symbols.get(sym.parent)
        return False

    def class_parameter(self, owner: str) -> bool:
        """Whether ``cls`` in ``owner`` is the first parameter of the method around it (a
        classmethod's, ``__new__``'s), its class: a later parameter named so is a value
        (attrs' tests take a parametrized ``cls``: ``cls(1, 2).__lt__(42)`` was a call of
        the test class's ``__lt__``)."""
        sym = self.symbols.get(owner.split("#", 1)[0])
        while sym is not None and sym.kind in _FUNCTION_KINDS:
            params = _params(sym.signature)
            if any(p[0] == "cls" for p in params):
                return (sym.kind is SymbolKind.METHOD and params[0][0] == "cls"
                        and not any(d.strip().startswith("@staticmethod") for d in sym.decorators))
            sym = self.symbols.get(sym.parent)
        return False

    def attr_type(self, cls: str, attr: str, depth: int = 8) -> str:
        """The class of ``self.<attr>`` in class ``cls`` of this file (its bases of this file
        searched in order when it binds none)."""
        if cls not in self._attrs:
            self._attrs[cls] = {}  # as in _bindings: no recursion through its own lines
            self._attrs[cls].update(self._class_attrs(cls))
        found = self._attrs[cls].get(attr)
        if found is not None:
            return "" if found == UNKNOWN else found
        for base in self._file_bases(cls, depth):
            found = self.attr_type(base, attr, depth - 1)
            if found:
                return found
        return ""

    def _inherited_attr(self, cls: str, attr: str, depth: int = 8) -> bool:
        """Whether ``self.<attr>`` of class ``cls`` of this file may be declared by a base of
        another file: neither ``cls`` nor its bases of this file bind it (``attr_type`` read
        them first) and one of them names a base that is no class of this file (nor
        ``object``, ``Generic[..]``, ``Protocol``)."""
        if depth <= 0 or attr in self._attrs.get(cls, {}):
            return False
        sym = self.symbols.get(cls)
        named = bases(sym.signature) if sym is not None else []
        if any(b not in self.symbols and b.rpartition(".")[2] not in _NO_BASES for b in named):
            return True
        return any(self._inherited_attr(b, attr, depth - 1) for b in self._file_bases(cls, depth))

    def _file_bases(self, cls: str, depth: int) -> list[str]:
        """The bases of class ``cls`` that are classes of this file, in order (none at ``depth``
        0), by Python's scoping (``file_base``): ``class Handler`` at the top and again in
        ``make()``, then ``class Sub(Handler)`` in ``make()``: ``Sub``'s ``self.finish()``
        was the top-level ``Handler``'s (a review)."""
        sym = self.symbols.get(cls)
        if sym is None or not depth:
            return []
        return [local for b in bases(sym.signature)
                if (local := file_base(self.symbols, sym.parent, b, sym.start_line))]

    def _bindings(self, fn: Symbol) -> dict[str, str]:
        if fn.qualified_name not in self._scopes:
            # Registered before it is filled: a binding read while reading the scope's own
            # lines (``q = p.get()``) sees the bindings of the lines above it, no recursion.
            out: dict[str, str] = {}
            self._scopes[fn.qualified_name] = out
            events: dict[str, list[tuple[int, int, str]]] = {}
            self._events[fn.qualified_name] = events
            stars = _stars(fn.signature)
            for name, annotation, default in _params(fn.signature):
                starred = _STARRED.get(stars.get(name, ""), "")
                if starred:  # `**kwargs` is a dict, `*args` a tuple
                    self._bind(out, name, starred, (fn.start_line, -1, events))
                elif annotation:
                    self._declared.setdefault(fn.qualified_name, {}).setdefault(name, []).append(annotation)
                    self._bind(out, name, self.class_of(annotation, True), (fn.start_line, -1, events))
                elif not default and name in self.fixtures() and name != fn.name:
                    # pytest passes a test its fixture's value: `def test_x(cr)` of a
                    # `@pytest.fixture def cr(): return ConsoleRenderer(..)` (structlog's 14
                    # `cr(..)` calls were no callers of `ConsoleRenderer.__call__`)
                    self._bind(out, name, self.fixtures()[name], (fn.start_line, -1, events))
                elif not default and name not in _NOT_FIXTURES and self._requests_fixtures(fn):
                    # a fixture of no fixture of this file: a conftest's (``CONFTEST``)
                    self._bind(out, name, f"{CONFTEST}.{name}{PRODUCED}", (fn.start_line, -1, events))
                elif default != "None":  # `x=None`, then `if x is None: x = C()`: a C
                    self._bind(out, name, "", (fn.start_line, -1, events))
            for i, line in self._statement_lines(fn):
                self._read_line(line, fn.qualified_name, out, (i, len(line) - len(line.lstrip()), events))
        return self._scopes[fn.qualified_name]

    @staticmethod
    def _bind(out: dict[str, str], name: str, fq: str,
              at: tuple[int, int, dict[str, list[tuple[int, int, str]]]] | None) -> None:
        """``bind``, and the binding recorded in line order (``at``: line, indentation, the
        function's events) for ``_reaching``."""
        bind(out, name, fq)
        if at is not None:
            Receivers._record(at, name, fq, at[1])

    @staticmethod
    def _record(at: tuple[int, int, dict[str, list[tuple[int, int, str]]]], name: str, fq: str,
                indent: int) -> None:
        """An event of ``name`` at ``at``'s line, for the block indented ``indent``
        (``_reaching``), kept in line order, a deeper block's before a shallower one's on
        one line: a guard's event on its block's last line (``_guarded``) is recorded before
        the block's own bindings are read. Lines come in order, so it goes last but there."""
        bisect.insort(at[2].setdefault(name, []), (at[0], indent, fq), key=_event_order)

    def _read_line(self, line: str, owner: str, out: dict[str, str],
                   at: tuple[int, int, dict[str, list[tuple[int, int, str]]]] | None = None) -> None:
        if at is not None and "assert isinstance(" in line and (asserted := _ASSERT_ISINSTANCE.match(line)):
            # below it (the assert raises otherwise) the name is a `C`, as a type checker
            # reads it: an event at its line (``_reaching``), no binding of the function
            # (starlette's `request = kwargs.get(..)`, `assert isinstance(request,
            # Request)`, then `request.url_for(..)`: left out as another type's; a newcomer)
            name, cls = asserted.group(1), self.class_of(asserted.group(2))
            sym = self.symbols.get(owner)
            # a type the name has already is at least as narrow (`x = Child()`, `x: Child`,
            # then `assert isinstance(x, Base)`: still a Child; a review)
            known = any(fq and not fq.endswith(PRODUCED) and not fq.startswith(ATTRIBUTE)
                        for line, _, fq in at[2].get(name, ()) if line < at[0]) or (
                sym is not None and any(p[0] == name and p[1] for p in _params(sym.signature)))
            if cls and not known:
                self._record(at, name, cls, at[1])
            return
        if "=" not in line and ":" not in line and " as " not in line and "for " not in line:
            return  # binds nothing (most calls, returns): no pattern needs to run
        guard = _NOT_ISINSTANCE.match(line) if at is not None and "not isinstance(" in line else None
        if guard:
            self._guarded(guard.group(1), guard.group(2), owner, at)
            return
        narrowed = _ISINSTANCE.match(line) if at is not None and "isinstance(" in line else None
        if narrowed:
            # `if isinstance(x, C):` types `x` as a `C` in its block only: an event at the
            # block's indentation (``_reaching``), no binding of the function (typer's
            # calls inside such a block were calls of another type)
            following = next((t for t in (self.lines.get(at[0] + k, "") for k in range(1, 4)) if t.strip()), "")
            indent = len(following) - len(following.lstrip())
            cls = self.class_of(narrowed.group(2))
            if cls and indent > at[1]:
                self._record(at, narrowed.group(1), cls, indent)
            return
        assign = _ASSIGN.match(line)
        if assign:
            name, annotation, value = assign.groups()
            if value.strip() == "None" and not annotation:
                return  # `x = None`, then `x = C()`: a C (httpie's `downloader`, a newcomer)
            if not annotation and (value.endswith(",") or _KEYWORD_ARGUMENT.match(line)):
                return  # `env=env,` on its own line of a call: an argument, no binding
            if annotation:
                self._declared.setdefault(owner, {}).setdefault(name, []).append(annotation)
            self._bind(out, name, self._value_type(annotation, value, owner), at)
            return
        declare = _DECLARE.match(line)
        if declare and not line.rstrip().endswith(":"):
            self._declared.setdefault(owner, {}).setdefault(declare.group(1), []).append(declare.group(2))
            self._bind(out, declare.group(1), self.class_of(declare.group(2), True), at)
            return
        typed_with = {m.group(2): m.group(1) for m in _WITH.finditer(line)} if " as " in line else {}
        if " as " in line and not typed_with and at is not None:
            typed_with = self._with_above(line, at[0])
        for m in _AS.finditer(line) if " as " in line else ():
            callee = typed_with.get(m.group(1))
            self._bind(out, m.group(1), self.call_type(callee, owner, entered=True) if callee else "", at)
        loop = FOR_STATEMENT.match(line)
        tup = _TUPLE.match(line) if not loop else None
        item = self._loop_item(line, owner) if loop else ("", "")
        values = _unpacked(tup.group(1), line[tup.end():]) if tup else []
        for found in (loop, tup):
            for i, name in enumerate(_NAME_RE.findall(found.group(1)) if found else ()):
                fq = item[1] if name == item[0] else self._value_type(None, values[i], owner) if values else ""
                self._bind(out, name, fq, at)

    def _guarded(self, name: str, written: str, owner: str,
                 at: tuple[int, int, dict[str, list[tuple[int, int, str]]]]) -> None:
        """``if not isinstance(name, C):`` (line ``at``) whose block, with no ``else`` or
        ``elif``, ends leaving it (``return``, ``raise``, ``continue``, ``break``) or binding
        ``name`` to a ``C``: after the block ``name`` is a ``C`` on every path, an event at
        the ``if``'s indentation on the block's last line (``_reaching``). Django's ``if not
        isinstance(lookup, Prefetch): lookup = Prefetch(lookup)`` left ``lookup.add_prefix(..)``
        below it a name-only call; ``if not isinstance(other, C): return NotImplemented``
        guards most ``__eq__``."""
        cls = self.class_of(written)
        sym = self.symbols.get(owner)
        if not cls or sym is None:
            return
        line, indent, events = at
        block: list[tuple[int, int, str]] = []  # (line, indentation, text) of the block's lines
        for k in range(line + 1, sym.end_line + 1):
            text = self.lines.get(k, "")
            stripped = text.strip()
            if not stripped or stripped.startswith("#"):
                continue
            depth = len(text) - len(text.lstrip())
            if depth <= indent:
                if depth == indent and re.match(r"(?:else|elif)\b", stripped):
                    return  # the other branch: either class after the whole statement
                break
            block.append((k, depth, stripped))
        if not block:
            return
        starts = self._statement_texts(sym)  # no line continuing a statement, no comment
        last = next((starts[k].strip() for k, depth, text in reversed(block) if depth == block[0][1] and k in starts
                     and not text.startswith((")", "]", "}"))), "")
        assign = _ASSIGN.match(last)
        if not (_LEAVES.match(last) or assign and assign.group(1) == name
                and self._value_type(assign.group(2), assign.group(3), owner) == cls):
            return
        self._record((block[-1][0], indent, events), name, cls, indent)

    def _loop_item(self, line: str, owner: str) -> tuple[str, str]:
        """(name, class) of the item a ``for`` line binds from a value whose annotation says
        what it holds (``element_type``): ``for m in self.environments:``, ``for i, p in
        enumerate(self.packages):``, ``reversed(xs)``; ``("", "")`` otherwise."""
        found = _FOR_IN.match(line)
        if not found:
            return "", ""
        names, iterated = found.group(1).strip().strip("()"), found.group(2).strip()
        through = _THROUGH.match(iterated)
        if through and (through.group(1) in self.top or through.group(1) in self.table):
            return "", ""  # the file's own `enumerate`
        if through:
            args = split_params(f"({through.group(2)})")
            iterated = args[0].strip() if through.group(1) == "reversed" or len(args) <= 2 else ""
        targets = [n.strip() for n in names.split(",")]
        wanted = 2 if through and through.group(1) == "enumerate" else 1
        if len(targets) != wanted or not _NAME_RE.fullmatch(targets[-1]) or not _DOTTED.fullmatch(iterated):
            return "", ""
        return targets[-1], self.element_type(iterated, owner)

    def _with_above(self, line: str, at: int) -> dict[str, str]:
        """``as``-name -> callee of a ``with`` whose call spans lines and ends on ``line``
        (line ``at``): ``with Client(\n    transport=t,\n) as client:`` (httpx's
        ``_api.request``: ``client.request(..)`` was a name-only call), the call opened at
        most ``WITH_SPAN`` lines above, written whole from there (``_WITH``)."""
        for k in range(at - 1, max(at - WITH_SPAN, 0), -1):
            text = self.lines.get(k, "")
            if _WITH_OPEN.match(text):
                joined = " ".join(self.lines.get(i, "").strip() for i in range(k, at)) + " " + line.strip()
                return {m.group(2): m.group(1) for m in _WITH.finditer(joined)}
            if not text.strip() or text.rstrip().endswith(":"):
                return {}  # a blank line or a block's header: no `with` is open
        return {}

    def _value_type(self, annotation: str | None, value: str, owner: str) -> str:
        if annotation:
            return self.class_of(annotation, True)
        # `response = await client.get(..)`: the coroutine's declared result (httpx's async
        # tests: 22 of `Response.json`'s callers were name-only)
        value = value[6:].lstrip() if value.startswith("await ") else value
        either = _alternatives(value) if " " in value else None
        if either is not None:
            return self._either_type(either, owner)
        if re.fullmatch(rf"{_NAME}(\.{_NAME})*", value):  # `self.app = app`: the name's type
            return self.expr_type(value, owner)
        literal = self._literal_type(value)
        if literal:
            return literal
        if "[" in value and SUBSCRIPT_VALUE.match(value):  # `tokens = self._ranges[-1].tokens`
            return self.subscript_type(value, owner)
        call = _CALL.match(value)
        if call and not whole_call(value, call.end() - 1):
            return self._constructed_result(value, call, owner)
        if call and self._cast(call.group(1)):
            # `handler = cast(RequestHandler, self)`: the type it names (tornado's auth mixins)
            args = split_params(value[call.end() - 1:])
            return self.class_of(args[0].strip().strip("'\""), True) if len(args) == 2 else ""
        return self.call_type(call.group(1), owner) if call else ""

    def _either_type(self, either: tuple[list[str], str], owner: str) -> str:
        """The class of a value that is one of ``either``'s alternatives (``_alternatives``):
        the one class every typed alternative has, ``None`` aside. An untyped alternative is
        passed over in ``a or C()`` (a default: Django's ``self._query = query or
        sql.Query(self.model)`` left ``self._query.add_q(..)`` name-only), and in ``a if
        cond else C()`` only when it is a bare name ``cond`` reads (``y if y is not None
        else C()``); any other untyped alternative makes the value untyped."""
        parts, condition = either
        known = set()
        for part in parts:
            if part == "None":
                continue
            found = self._value_type(None, part, owner)
            if found:
                known.add(found)
            elif condition and not ((tested := _NONE_TEST.fullmatch(condition)) and tested.group(1) == part):
                return ""  # `y if hasattr(y, "read") else C(y)`: `y` may be any reader
        return known.pop() if len(known) == 1 else ""

    def _builtin_open(self, callee: str, owner: str) -> bool:
        """Whether ``callee`` is Python's own ``open``: ``open`` this file neither defines nor
        imports nor binds anywhere (a nested ``def open``, a ``class open``, ``global open``,
        ``open = ..``, ``as open``, or a ``*`` import that may bring one: ``_OPEN_BOUND``) and
        ``owner`` does not bind, or ``io.open`` of ``import io``. A review found each of those
        typed as a file, and a project's real caller dropped."""
        if callee == "open":
            if self._open_bound is None:
                self._open_bound = any("open" in line and _OPEN_BOUND.search(line) or "import *" in line
                                       for line in self.lines.values())
            return ("open" not in self.top and "open" not in self.table and not self._open_bound
                    and not self.binds("open", owner))
        return callee == "io.open" and self.table.get("io", "") == "io"

    def _cast(self, callee: str) -> bool:
        """Whether ``callee`` names ``typing.cast`` here (``cast`` imported from ``typing``,
        ``typing.cast``, ``t.cast`` of ``import typing as t``)."""
        head, _, last = callee.rpartition(".")
        if last != "cast":
            return False
        if not head:
            return self.table.get("cast", "") in ("typing.cast", "typing_extensions.cast")
        return self.table.get(head, head) in ("typing", "typing_extensions")

    def _constructed_result(self, value: str, call: re.Match[str], owner: str) -> str:
        """The class of ``C(..).m(..)``'s value, a method called on a construction written on
        one line: ``m``'s declared result (this file's class's, ``returns``; another file's,
        read at query time: ``PRODUCED``). tornado's ``stream = await
        TCPClient().connect(..)`` (``-> IOStream``) made ``stream.write(..)`` a name-only
        call (a newcomer). ``""`` for anything else (``C(a) + 1``, a call's call)."""
        close = _closing(value, call.end() - 1)
        method = _METHOD_CALL.match(value, close + 1) if close > 0 else None
        if method is None or not whole_call(value, method.end() - 1):
            return ""
        cls = self.call_type(call.group(1), owner)
        if not cls or cls.startswith((ATTRIBUTE, CLASS_OBJECT)) or cls.endswith(PRODUCED):
            return ""
        local = self._local_class(cls)
        fn = self._find_method(local, method.group(1)) if local else None
        if fn is not None:
            return self.returns(fn, cls)
        return "" if local else f"{cls}.{method.group(1)}{PRODUCED}"

    def _literal_type(self, value: str) -> str:
        """The builtin class of a literal value (``{..}`` a dict, or a set without ``:``;
        ``[..]`` a list; a string ``str``, ``b".."`` ``bytes``) or of a call of a builtin
        type (``dict(..)``) the file does not shadow, else ``""``: httpx's ``error_types =
        {..}`` then ``error_types.get(..)`` was a name-only caller of ``httpx.get``."""
        head = value[:1]
        if head == "{":
            return "builtins.dict" if value == "{" or ":" in value or value == "{}" else "builtins.set"
        if head == "[":
            return "builtins.list"
        string = _STRING_LITERAL.match(value)
        if string:
            return "builtins.bytes" if "b" in string.group(1).lower() else "builtins.str"
        call = _CALL.match(value)
        name = call.group(1) if call else ""
        if (name in _BUILTIN_TYPES and name not in self.top and name not in self.table
                and whole_call(value, call.end() - 1)):
            return f"builtins.{name}"
        return ""

    def class_attributes(self) -> dict[str, str]:
        """``Class.attr`` -> class for every attribute of a class of this file whose type is
        known here (``self.app = app`` with ``app: Flask``; ``a: C`` in the class body)."""
        out = {}
        for sym in self.symbols.values():
            if sym.kind is SymbolKind.CLASS:
                for attr in self._class_attrs(sym.qualified_name):
                    fq = instance(self.attr_type(sym.qualified_name, attr, 0))
                    if fq and not fq.startswith(ATTRIBUTE):
                        out[f"{sym.qualified_name}.{attr}"] = fq
        return out

    def fixtures(self) -> dict[str, str]:
        """This file's pytest fixtures of a known class: the name a test requests it by ->
        the class of the value (``fixture_classes``), read once. A fixture of another file
        (a ``conftest.py``'s) is not known here: a test's parameter it would be is
        ``conftest.<name>()`` (``CONFTEST``)."""
        if self._fixtures is None:
            self._fixtures = {}
            # constructed values first: a fixture returning a name it bound reads its scope,
            # whose parameters may request the others (`def client(app)`)
            for names in (False, True):
                for sym in self.symbols.values():
                    found = "" if sym.qualified_name in self._fixture_values else self._fixture_class(sym, names)
                    if found:
                        self._fixture_values[sym.qualified_name] = found
                        named = next((m.group(1) for d in sym.decorators if (m := _FIXTURE_NAME.search(d))), "")
                        self._fixtures.setdefault(named or sym.name, found)
        return self._fixtures

    def class_aliases(self) -> dict[str, dict[str, str]]:
        """Each function's local names bound once to a class (``_Segment = Segment``, a
        micro-optimisation rich writes in 12 functions, then ``_Segment.line()`` and
        ``_Segment(..)``) or to a method of a known class (a bound method: ``append =
        segments.append``, ``fca = Attribute.from_counting_attr``, ``emit = self.emit``,
        then ``append(x)``, ``fca(..)``: attrs' one call of ``from_counting_attr`` and rich's
        hot loops' were calls of nothing): function qualified name -> name -> the class or
        the method, as its own imports are (``resolve.local_import_scopes``). A name bound
        twice is none, and so is a method alias the function never calls or reads an
        attribute of (``x = self.obj`` is no method)."""
        out: dict[str, dict[str, str]] = {}
        for fn in self.symbols.values():
            if fn.kind not in _FUNCTION_KINDS:
                continue
            bound: dict[str, list[str]] = {}
            methods: set[str] = set()
            statements = self._statement_lines(fn)
            for no, line in statements:
                assign = _ASSIGN.match(line)
                if assign:
                    alias = _CLASS_ALIAS.match(line)
                    found = self.class_of(alias.group(2)) if alias else ""
                    if alias and not found and "." in alias.group(2):
                        found = self._bound_method(alias.group(2), fn.qualified_name, no)
                        if found:
                            methods.add(assign.group(1))
                    bound.setdefault(assign.group(1), []).append(found)
            found = {name: classes[0] for name, classes in bound.items() if len(classes) == 1 and classes[0]
                     and not (name in methods and not _bound_call(name, self._all_lines(fn)))}
            if found:
                out[fn.qualified_name] = found
        return out

    def _all_lines(self, fn: Symbol) -> list[tuple[int, str]]:
        """Every line of ``fn``'s text, its nested functions' and continued lines too."""
        return [(no, self.lines.get(no, "")) for no in range(fn.start_line, fn.end_line + 1)]

    def _bound_method(self, expr: str, owner: str, line: int) -> str:
        """The method a dotted ``expr`` (``Attribute.from_counting_attr``, ``self.emit``,
        ``segments.append``) names when its receiver is a class or a value of a known class
        and the method is that class's (or, of another file's class, a name written as a
        method is); ``""`` otherwise (an attribute of a class of this file that no method
        is, a receiver of unknown type)."""
        head, _, name = expr.rpartition(".")
        cls = self.class_of(head) or instance(self.expr_type(head, owner, line))
        if not cls or cls.startswith(ATTRIBUTE) or cls.endswith(PRODUCED):
            return ""
        local = self._local_class(cls)
        method = self._find_method(local, name) if local else None
        if local and (method is None or _is_property(method)):
            return ""  # `x = self.obj`, `width = self.width`: an attribute, a property's value
        return self.method_target(cls, name)

    def declared_results(self) -> dict[str, str]:
        """Qualified name of each function and method of this file -> the class its return
        annotation (or ``:rtype:``) names, ``Self`` its class (``Chunk.returns``), for
        those naming one: a call of it in another file types its result at query time
        (``PRODUCED``); a ``conftest.py``'s fixtures the class they produce
        (``fixture_classes``)."""
        out = {}
        for sym in self.symbols.values():
            if sym.kind in _FUNCTION_KINDS:
                owner = self.enclosing_class(sym.qualified_name)
                # a @contextmanager's value is what it yields (httpx's `with
                # client.stream(..) as response`: `-> Iterator[Response]`, a Response)
                entered = any(_CONTEXT_MANAGER.search(d) for d in sym.decorators)
                found = self.returns(sym, f"{self.module}.{owner}" if owner else "", entered)
                if found and not found.endswith(PRODUCED):
                    out[sym.qualified_name] = found
        return out

    def fixture_classes(self) -> dict[str, str]:
        """Qualified name of each top-level pytest fixture of this file -> the class of the
        value it produces (``fixtures``' rule), for those of a known class: a
        ``conftest.py``'s are stored (``Chunk.returns``) for the tests that request them."""
        self.fixtures()
        return dict(self._fixture_values)

    def _statement_texts(self, sym: Symbol) -> dict[int, str]:
        """``_statement_lines`` of ``sym`` by line number, built once per definition (each of
        its guards reads them, ``_guarded``)."""
        found = self._statement_index.get(sym.qualified_name)
        if found is None:
            found = self._statement_index[sym.qualified_name] = dict(self._statement_lines(sym))
        return found

    def _statement_lines(self, sym: Symbol) -> list[tuple[int, str]]:
        """``sym``'s own statement lines (``_statements``), read once per definition: a
        function's bindings and its class aliases read the same lines."""
        found = self._statement_cache.get(sym.qualified_name)
        if found is None:
            found = self._statement_cache[sym.qualified_name] = _statements(self._own_numbered(sym))
        return found

    def _fixture_class(self, sym: Symbol, names: bool = True) -> str:
        """The class of the value top-level fixture ``sym`` produces: its return annotation,
        else the one class every ``return``/``yield`` of it constructs (``return
        dev.ConsoleRenderer(colors=False)``) or a name it bound to one (``app = Flask(..)``
        .. ``return app``, unless not ``names``); ``""`` for no fixture or none known."""
        if sym.parent or sym.kind not in _FUNCTION_KINDS or not any(_FIXTURE.match(d) for d in sym.decorators):
            return ""
        # a generator fixture's value is what it yields (httpx's `def server() ->
        # Iterator[TestServer]`, `yield from serve_in_thread(server)`)
        found = self.returns(sym, entered=True)
        if found:
            return "" if found.endswith(PRODUCED) else found
        built = set()
        for i in range(sym.start_line, sym.end_line + 1):
            line = self.lines.get(i, "")
            if m := _PRODUCED.match(line):
                built.add(self.class_of(m.group(1)))
            elif m := _PRODUCED_NAME.match(line):
                if not names:
                    return ""  # read on the second pass
                built.add(self.name_type(m.group(1), sym.qualified_name, i))
        found = built.pop() if len(built) == 1 else ""
        found = "" if found.startswith(CLASS_OBJECT) else found  # a class, not an instance
        # another conftest fixture's value, `def client(app): return app`: not followed
        return "" if found.endswith(PRODUCED) else found

    def _requests_fixtures(self, fn: Symbol) -> bool:
        """Whether pytest passes fixtures to ``fn``'s parameters: a test function or method
        (``test*``) or a fixture, in a test module (``test_*.py``, ``*_test.py``) or a
        ``conftest.py``."""
        leaf = self.module.rpartition(".")[2]
        if not (leaf.startswith("test_") or leaf.endswith("_test") or leaf == CONFTEST):
            return False
        return fn.name.startswith("test") or any(_FIXTURE.match(d) for d in fn.decorators)

    def module_types(self) -> dict[str, str]:
        """Module-level names with an annotated type (``current_app: FlaskProxy = ...``):
        name -> class. Read from unindented lines outside definitions."""
        skip = {i for s in self.symbols.values() if not s.parent for i in range(s.start_line, s.end_line + 1)}
        out: dict[str, str] = {}
        for i in sorted(self.lines):
            line = self.lines[i]
            if i in skip or not line[:1].isalpha() and line[:1] != "_":
                continue
            found = _ASSIGN.match(line) or _DECLARE.match(line)
            if found and found.group(2):
                bind(out, found.group(1), self.class_of(found.group(2), True))
        return {k: instance(v) for k, v in out.items() if v != UNKNOWN}

    def assigned(self, cls: str, name: str) -> bool:
        """Whether a method of class ``cls`` of this file assigns ``self.<name> = ..``: then
        ``self.<name>(..)`` calls what the attribute holds, never a base's method of that
        name (httpx's ``ASGITransport``: ``self.app(..)`` was "resolved" to
        ``AsyncBaseTransport.app``, which does not exist)."""
        if cls not in self._assigned:
            names: set[str] = set()
            self._assigned[cls] = {m.group(1) for _, m in self._self_assignments(cls)}
        return name in self._assigned[cls]

    def method_alias(self, cls: str, name: str) -> str:
        """The module-qualified method of class ``cls`` (this file's) that every ``self.<name>
        = self.<method>`` of its methods binds, when they bind one and the same method and no
        other value (``self.dispatch = self._dispatch_sync``; attrs' ``_add_method_dunders``,
        bound to ``_add_method_dunders_safe`` or ``_unsafe`` by a condition, is neither);
        ``""`` otherwise. A property is no method."""
        values = {m.group(3).strip() for _, m in self._self_assignments(cls) if m.group(1) == name}
        if len(values) != 1:
            return ""
        bound = re.fullmatch(rf"self\.({_NAME})", values.pop())
        method = self._find_method(cls, bound.group(1)) if bound else None
        if method is None or _is_property(method):
            return ""
        return f"{self.module}.{method.qualified_name}"

    def _self_assignments(self, cls: str) -> list[tuple[Symbol, re.Match[str]]]:
        """Each ``self.<attr> = ..`` (``_SELF_ASSIGN``) of the methods of class ``cls``, with
        its method, in line order."""
        out = []
        for child in self._children.get(cls, ()):
            if child.kind in _FUNCTION_KINDS:
                for i in range(child.start_line, child.end_line + 1):
                    line = self.lines.get(i, "")
                    m = _SELF_ASSIGN.match(line) if "self." in line else None
                    if m:
                        out.append((child, m))
        return out

    def _attr_annotation(self, cls: str, attr: str, depth: int = 8) -> list[str]:
        """The annotations declaring ``attr`` in class ``cls`` of this file
        (``_attr_annotations``), else in its first same-file base declaring it."""
        found = self._attr_annotations(cls).get(attr)
        if found:
            return found
        for base in self._file_bases(cls, depth):
            found = self._attr_annotation(base, attr, depth - 1)
            if found:
                return found
        return []

    def _attr_annotations(self, cls: str) -> dict[str, list[str]]:
        """Attribute -> the annotations declaring it in class ``cls`` of this file, read once:
        ``a: C`` or ``a: C = ..`` in the class body (a dataclass's, attrs' or a NamedTuple's
        field), ``self.a: C = ..`` in its methods."""
        found = self._annotations.get(cls)
        if found is None:
            found = self._annotations[cls] = {}
            sym = self.symbols.get(cls)
            for _, line in self._statement_lines(sym) if sym is not None else ():
                declare = _DECLARE.match(line) or _ASSIGN.match(line)
                if declare and declare.group(2):
                    found.setdefault(declare.group(1), []).append(declare.group(2))
            for _, m in self._self_assignments(cls):
                if m.group(2):
                    found.setdefault(m.group(1), []).append(m.group(2))
        return found

    def _class_attrs(self, cls: str) -> dict[str, str]:
        """Attribute -> class of each attribute class ``cls`` of this file types: the
        annotations declaring it (``_attr_annotations``) when it has any, as a type checker
        reads them (packaging's ``self.marker: Marker | None = None`` then ``self.marker =
        Marker.__new__(Marker)`` left ``req.marker.evaluate()`` name-only), else every
        ``self.a = ..`` of its methods agreeing (``bind``); a property's declared result."""
        out: dict[str, str] = {}
        sym = self.symbols.get(cls)
        if sym is None:
            return out
        declared = self._attr_annotations(cls)
        for attr, annotations in declared.items():
            for annotation in annotations:
                fq = self.class_of(annotation, True)
                local = self._local_class(fq)
                # a descriptor of this file (`author: _Validator[str | None] = _Validator()`,
                # packaging's Metadata): reading it gives what its `__get__` returns
                bind(out, attr, "" if local and self._find_method(local, "__get__") else fq)
        assigned: dict[str, list[re.Match[str]]] = {}
        for child, m in self._self_assignments(cls):
            assigned.setdefault(child.qualified_name, []).append(m)
        for child in self._children.get(cls, ()):
            if child.kind not in _FUNCTION_KINDS:
                continue
            found = self._property_type(child, cls)
            if found:
                bind(out, child.name, found)
            for m in assigned.get(child.qualified_name, ()):
                name, _, value = m.groups()
                if name not in declared:
                    bind(out, name, self._value_type(None, value, child.qualified_name))
        return out

    def _property_type(self, method: Symbol, cls: str) -> str:
        """The class a property ``method`` of ``cls`` returns (``""``: none, or not a
        property): ``@property def cookies(self) -> Cookies`` makes ``self.cookies`` a
        Cookies (httpx's ``self.cookies.extract_cookies(response)`` stayed name-only). A
        setter (``@cookies.setter``) shares the getter's qualified name and hides it: the
        getter's ``def`` line above it says the type."""
        decorators = [d.lstrip("@").strip() for d in method.decorators]
        if _is_property(method):
            return self.returns(method, f"{self.module}.{cls}")
        if not any(d == f"{method.name}.setter" or d == f"{method.name}.deleter" for d in decorators):
            return ""
        sym = self.symbols.get(cls)
        getter = re.compile(rf"^\s*def\s+{re.escape(method.name)}\(\s*self\s*\)\s*->\s*(.+?)\s*:\s*$")
        for i in range(method.start_line - 1, sym.start_line if sym is not None else 0, -1):
            found = getter.match(self.lines.get(i, ""))
            if found:
                return self.class_of(found.group(1), True)
        return ""

    def _own_numbered(self, sym: Symbol) -> list[tuple[int, str]]:
        """(line number, text) of the body lines of ``sym`` less those of the definitions
        nested in it (its header, decorators and a signature over several lines included,
        is not read: ``app: Flask,`` there is a parameter, typed by ``_params``)."""
        skip = {i for c in self._children.get(sym.qualified_name, ())
                for i in range(c.start_line, c.end_line + 1)}
        return [(i, self.lines.get(i, "")) for i in range(self._body_start(sym), sym.end_line + 1) if i not in skip]

    def _body_start(self, sym: Symbol) -> int:
        """The first line after ``sym``'s header (``def``/``class`` up to its ``:``)."""
        depth, seen = 0, False
        for i in range(sym.start_line, sym.end_line + 1):
            line = self.lines.get(i, "").split("#", 1)[0].rstrip()
            seen = seen or line.lstrip().startswith(("def ", "async def ", "class "))
            depth += sum(line.count(c) for c in "([{") - sum(line.count(c) for c in ")]}")
            if seen and depth <= 0 and line.endswith(":"):
                return i + 1
        return sym.start_line

    # --- classes and methods ----------------------------------------------------------

    def enclosing_class(self, owner: str) -> str:
        sym = self.symbols.get(owner.split("#", 1)[0])
        while sym is not None and sym.parent:
            parent = self.symbols.get(sym.parent)
            if parent is not None and parent.kind is SymbolKind.CLASS:
                return parent.qualified_name
            sym = parent
        return ""

    def _find_method(self, cls: str, name: str, depth: int = 8) -> Symbol | None:
        found = self._find_member(cls, name, depth)
        return found if found is not None and found.kind in _FUNCTION_KINDS else None

    def _find_member(self, cls: str, name: str, depth: int = 8) -> Symbol | None:
        """The method ``name`` of class ``cls`` or of its first same-file base defining it, or
        the name its body binds by assignment (``get = _cached_get``: a variable symbol
        hiding a further base's method; a review found ``s.get(..)`` on ``Sub`` a call of the
        same file's ``Base.get``)."""
        found = self.symbols.get(f"{cls}.{name}")
        if found is not None and (found.kind in _FUNCTION_KINDS or found.kind is SymbolKind.VARIABLE):
            return found
        for base in self._file_bases(cls, depth):
            found = self._find_member(base, name, depth - 1)
            if found is not None:
                return found
        return None

    def method_target(self, cls_fq: str, name: str) -> str:
        """``<class>.<name>``, or the same-file base that defines ``name`` when ``cls_fq`` is
        a class of this file that does not (``_method``'s rule for ``self``); a class body's
        assignment of the name defines it (``_find_member``)."""
        local = self._local_class(cls_fq)
        found = self._find_member(local, name) if local else None
        return f"{self.module}.{found.qualified_name}" if found is not None else f"{cls_fq}.{name}"

    # --- the hook -----------------------------------------------------------------------

    def target(self, site: CallSite, owner: str) -> str:
        """The target of ``site`` in ``owner`` from a receiver type, ``""`` if none is known."""
        if not owner:
            return ""
        head, dot, method = site.name.rpartition(".")
        if not dot:
            return self._super(site, owner)
        receiver = instance(self.expr_type(head, owner, site.line))
        return self.method_target(receiver, method) if receiver else ""

    def _super(self, site: CallSite, owner: str) -> str:
        """``super().m()``: the name written is ``m``; the line says it was called on super()."""
        line = self.lines.get(site.line, "")
        if "super(" not in line or not re.search(_SUPER.format(_NAME=_NAME, method=re.escape(site.name)), line):
            return ""
        cls = self.enclosing_class(owner)
        sym = self.symbols.get(cls)
        written = bases(sym.signature) if sym is not None else []
        if not written:
            return ""
        base = self.class_of(written[0])
        if not base and all(w in _BUILTIN_CLASSES and w not in self.top and w not in self.table for w in written):
            # `class Row(list)`: `super().__getitem__(i)` is the builtin's, no project
            # method's (django's were name-only callers of `QuerySet.__getitem__`; a
            # newcomer); every base a builtin: `class Row(dict, Mixin)`'s may reach the
            # mixin's (a review)
            base = f"builtins.{written[0]}"
        return self.method_target(base, site.name) if base else ""


def instance(fq: str) -> str:
    """``fq`` without the ``CLASS_OBJECT`` mark: the class whose methods a call on it reaches."""
    return fq[1:] if fq.startswith(CLASS_OBJECT) else fq


def unwrapped(expr: str) -> str:
    """The type a written annotation holds besides ``None``: ``Optional[X]``, ``X | None``,
    ``Union[X, None]``, ``Final[X]``, ``Annotated[X, ..]`` and a quoted ``"X"`` are ``X``;
    a union of two types or more is ``""``."""
    expr = expr.strip().strip("'\"").strip()
    for _ in range(3):  # nested: `Annotated[Optional[Path], ..]`
        wrapped = _WRAPPERS.match(expr.strip())
        if not wrapped:
            break
        expr = split_params(f"({wrapped.group(1)})")[0]
    union = _UNION.match(expr.strip())
    if union:  # `Union[A, B]` as `A | B`: one class besides None, else none
        expr = " | ".join(split_params(f"({union.group(1)})"))
    if "|" in expr:
        parts = [p.strip() for p in split_params(f"({expr})", "([{", ")]}", "|") if p.strip() != "None"]
        expr = parts[0] if len(parts) == 1 else ""
    return expr.strip().strip("'\"").strip()


def _is_property(method: Symbol) -> bool:
    """Whether a method is decorated ``@property`` or ``@cached_property`` (any module's)."""
    return any(d.lstrip("@").strip().rsplit(".", 1)[-1] in _PROPERTIES for d in method.decorators)


def _bound_call(name: str, statements: list[tuple[int, str]]) -> bool:
    """Whether ``statements`` (a function's lines, its nested functions' too: rich's
    ``combine = Style.combine`` is called in a closure) call ``name`` and read no
    attribute of it: a bound method's
    alias is called (``append(x)``); a name read as ``name.x``, or never called, holds a
    value (``size = console.size``, a property of another file's class)."""
    called = re.compile(rf"(?<![\w.]){re.escape(name)}\s*\(")
    read = re.compile(rf"(?<![\w.]){re.escape(name)}\.\w")
    return (any(called.search(line) for _, line in statements)
            and not any(read.search(line) for _, line in statements))


def nested_definition(symbols: Mapping[str, Symbol], owner: str, name: str,
                      kinds: tuple[SymbolKind, ...]) -> str:
    """The qualified name of the definition ``name`` of one of ``kinds`` defined inside
    ``owner`` (a part of a long function stands for it) or a function enclosing it (never
    a class body: its names are not in scope in its methods), else ``""``: a helper a
    function defines, a class a test function defines (``class MySchema(Schema)``)."""
    scope = symbols.get(unparted(owner))
    while scope is not None and scope.kind in _FUNCTION_KINDS:
        found = symbols.get(f"{scope.qualified_name}.{name}")
        if found is not None and found.kind in kinds:
            return found.qualified_name
        scope = symbols.get(scope.parent)
    return ""


def file_base(symbols: Mapping[str, Symbol], scope: str, name: str, before: int = 0) -> str:
    """The class of this file a base ``name`` written in a class statement inside ``scope``
    (the class's parent; ``""`` at top level) is, by Python's scoping: a class the
    enclosing class body defines directly (the statement runs in that body; an outer class
    body is not in scope), then one a function around it defines (``nested_definition``),
    then the file's class of that qualified name; ``""`` when none is (an imported base).
    ``def make(): class Handler; class Outer: class Sub(Handler)`` is ``make.Handler`` (a
    review), not the top-level ``Handler``. ``before``: the class statement's first line
    (0: not known): a name is read when the statement runs, so a class body's or a
    function's class counts only when defined above it, and so does a top-level class for
    a top-level statement: ``class Meta(Meta)`` in a class body is the imported ``Meta``,
    never itself (a review of session 36)."""
    def above(sym: Symbol) -> bool:
        return not before or sym.start_line < before

    if scope and "." not in name:
        sym = symbols.get(scope)
        if sym is not None and sym.kind is SymbolKind.CLASS:
            found = symbols.get(f"{scope}.{name}")
            if found is not None and found.kind is SymbolKind.CLASS and above(found):
                return found.qualified_name
            while scope and (sym := symbols.get(scope)) is not None and sym.kind is SymbolKind.CLASS:
                scope = sym.parent
        nested = nested_definition(symbols, scope, name, (SymbolKind.CLASS,)) if scope else ""
        if nested and above(symbols[nested]):
            return nested
    top = symbols.get(name)
    if top is None or top.kind is not SymbolKind.CLASS:
        return ""
    return name if scope or above(top) else ""


def children(symbols: Mapping[str, Symbol]) -> dict[str, list[Symbol]]:
    """Qualified name -> the symbols directly inside it (``""``: the top-level ones)."""
    out: dict[str, list[Symbol]] = {}
    for s in symbols.values():
        out.setdefault(s.parent, []).append(s)
    return out


def _event_order(event: tuple[int, int, str]) -> tuple[int, int]:
    """The order of a name's events (``Receivers._record``): by line, the deeper first."""
    return event[0], -event[1]


def bind(out: dict[str, str], name: str, fq: str) -> None:
    """Record one binding: a name keeps a type only while every binding agrees on it
    (``UNKNOWN`` once they disagree or one is untyped)."""
    prior = out.get(name)
    if prior is None:
        out[name] = fq or UNKNOWN
    elif prior != fq:
        out[name] = UNKNOWN


#: A method call right after a call's closing parenthesis (``.connect(`` of ``C(..).connect(..)``).
_METHOD_CALL = re.compile(r"\.([A-Za-z_]\w*)\s*\(")


def _alternatives(value: str) -> tuple[list[str], str] | None:
    """The alternatives of a value that is one of them, and the condition choosing (``""``
    for ``or``): ``a or b or C()`` -> ``(["a", "b", "C()"], "")``, ``a if c else C()`` ->
    ``(["a", "C()"], "c")``, read outside brackets and strings; ``None`` for any other value,
    and for one that mixes in ``and``, ``not``, ``lambda``, a comparison or a nested
    conditional (its value may be a ``bool``, or group otherwise)."""
    if _LEADING_KEYWORD.match(value):
        return None  # `yield q or C()` is what the generator is sent
    outside = list(top_level(value))
    found = [(m.start(1), m.end(1), m.group(1)) for i in outside if value[i] in " \t"
             for m in (_VALUE_KEYWORD.match(value, i),) if m]  # (start, end, keyword)
    words = [w for _, _, w in found]
    if not words or words[0] not in ("if", "or"):
        return None
    condition = range(found[0][1], found[-1][0]) if words[0] == "if" else range(0)
    if any(_VALUE_OPERATOR.match(value, i) and i not in condition for i in outside):
        return None  # `a == b or C()`, `a * 2 or C()`, `a, b or C()`
    if words.count("if") == 1 and words.count("else") == 1 and words[-1] == "else":
        (_, start, _), (end, after, _) = found[0], found[-1]  # the condition may hold any
        return [value[:found[0][0]].strip(), value[after:].strip()], value[start:end].strip()
    if set(words) == {"or"}:
        bounds = [0] + [x for s, e, _ in found for x in (s, e)] + [len(value)]
        return [value[bounds[k]:bounds[k + 1]].strip() for k in range(0, len(bounds), 2)], ""
    return None


def _closing(value: str, paren: int) -> int:
    """The index of the parenthesis closing the one ``value`` opens at ``paren``; -1 when it
    does not close on this line."""
    depth = 0
    for i in range(paren, len(value)):
        depth += {"(": 1, ")": -1}.get(value[i], 0)
        if depth == 0:
            return i
    return -1


def _unpacked(targets: str, value: str) -> list[str]:
    """The values a tuple assignment binds to its names in order, when its targets are plain
    names and its value as many expressions (``errors, seen = [], {}``: a ``list`` and a
    ``dict``, whose ``errors.append(..)`` was a name-only caller of every project's
    ``append``), else ``[]`` (``a, b = pair``, ``a, *rest = ..``: each unknown)."""
    names = [t.strip() for t in targets.strip().strip("()").split(",")]
    if names and not names[-1]:
        names.pop()  # `a, b, = ..`
    if not names or not all(_NAME_RE.fullmatch(n) for n in names):
        return []
    value = value.strip()
    if value.startswith("(") and value.endswith(")") and _closing(value, 0) == len(value) - 1:
        value = value[1:-1]
    parts = [p.strip() for p in split_params(f"({value})")]
    return parts if len(parts) == len(names) and all(parts) else []


def whole_call(value: str, paren: int) -> bool:
    """Whether ``value`` is one call whose argument list opens at ``paren``: it closes at the
    end, or not on this line (``x = C(`` continued); ``C(a).b`` and ``C(a) + 1`` are not."""
    close = _closing(value, paren)
    return close < 0 or close == len(value) - 1




def _statements(numbered: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """The lines of ``numbered`` that begin a statement, without a trailing comment: no
    line of a docstring or other triple-quoted string (rich's Google-style ``Returns:`` /
    ``Measurement: A measurement of..`` declared a local ``Measurement``, and
    ``Measurement.get(..)`` below it was name-only), no line inside an open bracket but the
    one closing it (``renderable, options=options.update_width(..)``, an argument line of
    a call, read as a tuple assignment untyped ``options``), and ``w = Widget()  # one``
    read as ``w = Widget()``. Brackets and quotes are counted outside strings only."""
    out: list[tuple[int, str]] = []
    depth, quote = 0, ""
    for i, line in numbered:
        starts_inside = depth > 0 or bool(quote)
        code, depth, quote = _scan(line, depth, quote)
        if quote or (starts_inside and (depth > 0 or not code.lstrip().startswith((")", "]", "}")))):
            continue  # inside a string, or a continued line that is no closing line
        out.append((i, code.rstrip()))
    return out


_SCANNED = re.compile(r"[#\"'()\[\]{}]")


def _scan(line: str, depth: int, quote: str) -> tuple[str, int, str]:
    """``line`` with its comment cut (outside strings), the bracket depth after it and the
    triple quote still open at its end (``""``: none), from ``depth`` and ``quote`` at its
    start. Single-quoted strings end on their line."""
    if not quote and not _SCANNED.search(line):
        return line, depth, quote  # most lines: no bracket, quote or comment
    i, n, code_end = 0, len(line), len(line)
    while i < n:
        if quote:
            end = line.find(quote, i)
            if end < 0:
                return line, depth, quote
            i, quote = end + 3, ""
            continue
        ch = line[i]
        if ch == "#":
            code_end = i
            break
        if line.startswith(('"""', "'''"), i):
            quote, i = line[i:i + 3], i + 3
            continue
        if ch in "\"'":
            j = i + 1
            while j < n and line[j] != ch:
                j += 2 if line[j] == "\\" else 1
            i = j + 1
            continue
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth = max(depth - 1, 0)
        i += 1
    return line[:code_end], depth, quote


#: The builtin class of a starred parameter's value, by its stars.
_STARRED = {"**": "builtins.dict", "*": "builtins.tuple"}


def _stars(signature: str) -> dict[str, str]:
    """Each starred parameter of ``signature`` -> its stars (``{"kwargs": "**"}``)."""
    out = {}
    for part in split_params(signature):
        written = part.strip()
        if written.startswith("*"):
            out[written.lstrip("*").partition(":")[0].partition("=")[0].strip()] = (
                written[:len(written) - len(written.lstrip("*"))])
    return out


def _params(signature: str) -> list[tuple[str, str, str]]:
    """(name, annotation, default) of each parameter of ``def f(a, b: T = x, *c, **d)``
    (``""`` where absent; ``*c``/``**d`` have no usable annotation). An unannotated ``self``
    is typed by its class in ``expr_type`` before any binding is read."""
    out = []
    for part in split_params(signature):
        head, _, default = part.partition("=")
        name, _, annotation = head.partition(":")
        name = name.strip().lstrip("*")
        if name and name != "/" and name.isidentifier():
            out.append((name, annotation.strip() if not part.strip().startswith("*") else "", default.strip()))
    return out


def split_params(signature: str, opening: str = "([{", closing: str = ")]}", separator: str = ",") -> list[str]:
    """The text of each parameter of the first parenthesised list of ``signature``, split at
    commas (``separator``) outside brackets (``opening``/``closing``: Java and TypeScript
    add ``<``/``>``); ``[]`` when there is none."""
    start = signature.find("(")
    if start < 0:
        return []
    depth, cur, parts = 0, [], []
    for ch in signature[start + 1:]:
        if ch in opening:
            depth += 1
        elif ch in closing:
            if depth == 0:
                break
            depth -= 1
        elif ch == separator and depth == 0:
            parts.append("".join(cur))
            cur = []
            continue
        cur.append(ch)
    parts.append("".join(cur))
    return parts


def bases(signature: str) -> list[str]:
    """Base names of ``class X(A, b.B[T], metaclass=M)``: ``["A", "b.B"]`` (dotted names only,
    type arguments dropped)."""
    inside = signature.partition("(")[2].rpartition(")")[0]
    while "[" in inside:
        stripped = re.sub(r"\[[^\[\]]*\]", "", inside)
        if stripped == inside:
            break
        inside = stripped
    return [b.strip() for b in inside.split(",")
            if b.strip() and "=" not in b and all(p.isidentifier() for p in b.strip().split("."))]


def header_bases(signature: str) -> list[str]:
    """Names a Java or TypeScript class header extends and implements, as written, type
    arguments dropped: ``class A<T> extends B<T> implements C, D`` -> ``["B", "C", "D"]``."""
    header = re.sub(r"<[^<>]*>", "", re.sub(r"<[^<>]*>", "", signature))
    found = re.search(r"\b(?:extends|implements)\s+(.*)$", header)
    if not found:
        return []
    return [t for t in re.split(r"[\s,{]+", found.group(1))
            if t not in ("extends", "implements") and re.fullmatch(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*", t)]
