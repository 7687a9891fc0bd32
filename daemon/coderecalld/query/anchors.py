"""Structural evidence of a pasted issue or trace: what it names that the index holds.

An issue names code: classes and functions in its title, code spans and traceback
frames, and sometimes files by path; and its words often match the tests of the code it is
about better than the code. The lexical retriever reads names as words among the issue's
other words, so a chunk that merely uses a name many times can outrank its definition.
``boost`` adds to the lexical-first candidates (``fusion.lexical_first``, scores on a 0..1
scale) three kinds of evidence the index holds exactly:

* **definitions**: a chunk whose symbol name is one of ``Query.names`` gains
  ``DEFINITION_WEIGHT / n`` (x ``TITLE_FACTOR`` for a name of the title), ``n`` the number
  of files defining that name (one file: strong evidence for it; many, such as ``eval``:
  weak; more than ``DEFINITION_MAX_FILES``: none);
* **paths**: a file one of ``Query.paths`` names (matched by path suffix, so
  ``/home/u/src/pkg/mod.py`` and ``a/pkg/mod.py`` name ``pkg/mod.py``) gains ``PATH_WEIGHT``,
  the files of a traceback's two innermost frames ``FRAME_WEIGHTS`` more, and the function
  a file's innermost frame ran takes the file's bonus;
* **tested sources**: a source file a test file among the candidates tests, by naming
  convention (``classify.tested_sources``), gains ``TEST_WEIGHT`` x that test file's best
  chunk score.

A file's bonus goes to one chunk of it: its best candidate (``locate`` ranks the file by
it), else the chunk the question's terms score highest.

A definition or file that the lexical side did not return joins the candidates with its
bonus alone. Costs one keyword lookup per name (at most ``shape.MAX_NAMES``), one facet for
the paths and one for the tested sources; no model. Weights from grids on swe-lite-dev
(89 issues; docs/retrieval.md "Structural evidence"): locate file Acc@1/5/10 52.8/73.0/76.4
without, 64.0/76.4/82.0 with.
"""

from __future__ import annotations

import builtins
import re

from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import replace
from typing import Any

from coderecalld.files import classify
from coderecalld.parse import headers, registry
from coderecalld.query import dialect
from coderecalld.query import frames as stack
from coderecalld.query.callgraph import hit_role
from coderecalld.query import locate as locating
from coderecalld.query.frames import Frame
from coderecalld.query.shape import DEFINING_KEYWORDS, Query, Shape, is_dunder, path_names, sparse_vector, without_fences
from coderecalld.records import Hit, is_part
from coderecalld.store import StoreFilter

#: Added to a definition of a name the issue mentions, divided by the number of files
#: defining it. Grid 0 / 0.15 / 0.3 / 0.5 / 0.8: locate file@5 within 71.9-75.3, 0.3 best
#: at @1 with paths on (docs/retrieval.md "Structural evidence").
DEFINITION_WEIGHT = 0.3
#: A name of the issue's title (its subject) weighs this many times more: x1 / x2 / x3 gave
#: file@1 62.9 / 64.0 / 61.8.
TITLE_FACTOR = 2.0
#: A name defined in more files than this is not evidence for any of them.
DEFINITION_MAX_FILES = 8
#: Added to a chunk of a file the issue names by path. Flat on the dev set from 0.3 to 1.0
#: (few issues name a path); 0.5 puts a file a traceback names above a same-named file
#: elsewhere with more of the trace's words (tests/integration/test_issue_anchors.py).
PATH_WEIGHT = 0.5
#: Added besides ``PATH_WEIGHT`` to the files of a traceback's innermost frames, by depth
#: among the frames in indexed files (innermost first; a file takes its deepest frame's):
#: a trace ends where the code failed, and the edit is most often there or one frame up
#: (the innermost frame raising on input its caller got wrong), seldom at the entry points
#: above. Frames, not files: a request's trace through a framework's handler into a view's
#: three frames weighs the view only. (0.4, 0.1) since the thirty-sixth session, as a
#: trace alone's: the 270 pasted issues of ``tests/bench/issues`` (sparse-only) file@1 /
#: file@5 / symbol@1 / symbol@5 180 / 236 / 99 / 168 -> 183 / 237 / 100 / 172 (search),
#: locate 180 / 252 / 113 / 166 -> 183 / 252 / 114 / 168, werkzeug one file@1 less;
#: swe-lite-dev snapshot file@1 64.0 -> 65.2, the rest unchanged; (0.3, 0.1) 182 / 237 /
#: 100 / 171. gin's "RedirectFixedPath panics" put the panic's caller's file above the
#: innermost frame's tree.go (a newcomer).
FRAME_WEIGHTS: tuple[float, ...] = (0.4, 0.1)
#: The same for a trace pasted alone (``Shape.TRACE``: no issue around it): it is answered
#: by where it failed. On the gin and axios newcomers' traces alone (20: Go panics and V8
#: traces, 6 and 14), the innermost indexed frame's file was located first for 11 with
#: (0.2, 0.2), 16 with (0.3, 0.1) or (0.4, 0.2), 19 with (0.4, 0.1); their issues with
#: traces (3) first with each. swe-lite-dev holds no trace alone (all 89 are issues).
TRACE_FRAME_WEIGHTS: tuple[float, ...] = (0.4, 0.1)
#: The files of a trace's innermost indexed frames that keep ``PATH_WEIGHT``; the files
#: only frames further out name gain ``OUTER_FRAME_PATH_WEIGHT``: a request's trace runs
#: through every middleware of a framework (sinatra: four rack-protection ``call``s took
#: search's places 2-5 from ``process_route``, once their gem paths named the monorepo's
#: files).
#: swe-lite-dev (``issue_lab.py --set``): 0.5 (as before) / 0.25 / 0.1 with 3 files kept:
#: search file@1 61.8 / 62.9 / 62.9, locate unchanged; 1 / 2 files kept at 0.1: locate
#: file@1 61.8 / 62.9, search 60.7 / 62.9. gin, axios, gson, serde_json, click traces:
#: first file and first hit unchanged; sinatra's ``process_route`` back on search's page.
INNER_FRAME_FILES = 2
OUTER_FRAME_PATH_WEIGHT = 0.1
#: Whether the functions of a trace alone's indexed frames but the innermost also count as
#: definitions the query names (``DEFINITION_WEIGHT``). Its frames weigh by depth already:
#: as definitions too they weighed a file by its count of frames (click's ``core.py``, five
#: pass-through frames, came before ``types.py``, where the innermost three ran); the
#: innermost's stays (gin's ``node.getValue``: without it the caller's file came first).
#: An issue's stay: its prose names functions its frames run too.
TRACE_FRAME_NAMES = False
#: Whether a title's name that is the function of a frame outside the innermost
#: ``INNER_FRAME_FILES`` files weighs as a body's name (no ``TITLE_FACTOR``): the title
#: names the entry point the reporter called ("open_mfdataset fails on cftime
#: coordinates"), the trace where it failed below it; at twice the weight the entry point's
#: file led, above the frames' (xarray's ``backends/api.py`` over ``core/combine.py``,
#: where the fix went, one frame above the innermost; a newcomer).
TITLE_ENTRY_PLAIN = True
#: Whether an issue's names that only its trace holds (an outer frame's function, not the
#: innermost's, written nowhere else in the issue: ``_words_outside_trace``) count as
#: definitions the issue names. As definitions they weighed the files of the pass-through
#: frames above the failure (marshmallow's ``_deserialize``, ``deserialize`` and
#: ``_call_and_store`` took ``fields.py`` above ``utils.py``, where the innermost frame
#: raised and the fix went; a newcomer's issue). A name the prose writes too stays.
ISSUE_FRAME_NAMES = False
#: Chunks read per frame for its function's definition in the frame's file (``_ran`` picks
#: the one it ran in; 0: the frame's function is not looked up): as many as a file's
#: chunks read for a line (``LINE_CHUNKS``). serde_json's ``de.rs`` defines
#: ``deserialize_any`` eleven times, once per type; gunicorn's ``http/errors.py`` defines
#: ``__str__`` twenty times, and at 16 read a frame in the last four stood for the first
#: read (a newcomer: ``InvalidHTTPVersion.__str__`` was listed as ``InvalidRequestLine``'s).
#: A name lookup within one file: its cost is the file's definitions of the name.
FRAME_DEFINITIONS = 400
#: Frames (innermost first) whose qualified function is looked up by its module-qualified
#: name when their path names no indexed file (``_qualified_frames``): a JVM frame prints
#: its package, not where the repository keeps the file (``com/acme/Foo.java`` for
#: ``core/src/main/java/com/acme/Foo.java``).
QUALIFIED_FRAMES = 8
#: Frames of one file whose functions are looked up, innermost first: the innermost takes
#: the file's best place, the next ones the places after it, in frame order. A trace whose
#: last frames are all in one file failed in the innermost, and the edit is often one
#: frame up (Django's static files storage: ``hashed_name`` raised, the fix was in the
#: ``converter`` that called it, listed ninth by the issue's words).
FRAME_FUNCTIONS = 3
#: Chunks read per path-named or tested file none of whose chunks is among the candidates
#: (the one the question's terms score highest gets the bonus).
PATH_CHUNKS = 20
#: Suffixes of a named path tried besides the path itself: those of 2 to ``PATH_DEPTH``
#: components (``/srv/app/src/pkg/mod.py``: ``pkg/mod.py``, ``src/pkg/mod.py``, ...).
PATH_DEPTH = 6
#: A source file tested by a test file among the candidates gains this share of the test
#: file's best chunk score (``classify.tested_sources``: ``pkg/tests/test_x.py`` -> ``pkg/x.py``):
#: an issue's words often match the tests of the code it is about better than the code.
#: 0 / 0.3 / 0.5 / 0.8 / 1.0: file@1 53.9 / 58.4 / 60.7 / 60.7 / 58.4, file@5 best at 0.8;
#: above the role penalty of a test (0.5), so the source comes before its test file.
#: Issues only: a trace alone ("ValueError: message") is answered by the chunk raising it,
#: and the sources of the tests asserting that message took its place (eval_shapes trace
#: Acc@1 50.9 without, 42.6 with).
TEST_WEIGHT = 0.8
#: Test files (best first) whose sources are looked up.
TEST_FILES = 10
#: Kinds that define a name (a module or a docs section is not a definition).
_NOT_DEFINITIONS = frozenset({"module", "section", "file"})
#: Whether a class the issue calls (``Intersection({1},{1},{x})``, ``new Parser(..)``,
#: Ruby's ``Parser.new``: ``_instantiated``) passes its name's bonus to its constructors
#: too (``headers.is_constructor``: ``__init__``/``__new__``, ``constructor``,
#: ``initialize``, a Java class's own name): the call runs them, and the class's own chunk
#: is a type, listed after the file's functions (``locate._functions``). swe-lite-dev's
#: sympy 16988 ("Intersection should remove duplicates .. at the outset of instantiation")
#: listed ``Intersection.__new__``, the fix, 34th of its file, under 33 methods the words
#: matched.
CALLED_CLASS_CONSTRUCTORS = True
#: Kinds of a definition a call instantiates (``CALLED_CLASS_CONSTRUCTORS``).
_INSTANTIATED_KINDS = frozenset({"class", "struct"})
#: Words of a text's prose (outside code blocks) speaking of building an object: only
#: then does a called class name its constructor. Every reproducer builds the objects it
#: uses (``Version("1.0")``, ``new Client([..])``): passed to every called class's
#: constructor, the bonus took the first function from the method fixed in 6 of the 48
#: sets' issues (packaging's ``Requirement.__hash__``, guzzle's
#: ``MessageFormatter.format``, marshmallow's ``Nested._serialize``, ..). Of the 616 issues
#: of the sets and swe-lite-dev, 27 speak so, 6 of them fixing a constructor; 20 more fix one
#: without those words.
_CONSTRUCTION = re.compile(r"(?i)\b(?:instantiat\w*|construct(?:or|ors|ing|ed|ion)?|initiali[sz]\w*|__init__|__new__"
                           r"|__construct|init)\b")


#: Whether a Python class the issue names passes its name's bonus to the special methods
#: (``__str__``, ``__eq__``, ..) of the protocols the issue exercises (``PROTOCOLS``): the
#: text says what was done with the object, and Python runs that method for it. "center
#: kwarg ignored when manually iterating over DataArrayRolling" was fixed in
#: ``DataArrayRolling.__iter__``, listed nowhere in its file's first eight; "NameEmail does
#: not round-trip" (``str(m.email)``) in ``NameEmail.__str__``, listed 8th: the
#: issues' words matched the classes' other methods better. Issues and traces only. Over
#: the 90 set issues that speak a protocol, ``locate`` symbol@1/5 35/51 -> 38/52 (packaging
#: I3 5th -> 6th: ``str(Marker)``'s fix was in the formatter ``__str__`` calls); no
#: swe-lite-dev figure moved (docs/retrieval.md). A method the fix adds is beyond it.
PROTOCOL_METHODS = True
#: A protocol's special methods and what an issue writes when it exercises it (Python's data
#: model, https://docs.python.org/3/reference/datamodel.html): anywhere, a call of the builtin
#: that runs the method (``str(x)``, ``hash(x)``) or the method's own name; outside fenced
#: code blocks, the prose words for the act ("comparing", "pickling", "iterating over").
#: Builtins every reproducer calls on the way (``len(``, ``bool(``, ``print(``) and the
#: operators of its asserts (``==``) are no such evidence.
PROTOCOLS: tuple[tuple[tuple[str, ...], re.Pattern[str], re.Pattern[str]], ...] = tuple(
    (methods, re.compile(anywhere), re.compile(prose, re.IGNORECASE)) for methods, anywhere, prose in (
        (("__str__",), r"(?<![\w.])str\((?!\))|\bstr\(\)|__str__", r"\bstring representation"),
        (("__repr__",), r"(?<![\w.])repr\(|__repr__", r"\brepr\b"),
        (("__eq__", "__ne__"), r"__eq__|__ne__", r"\b(?:compar(?:e|es|ed|ing|ison)|(?:un)?equal|equality)\b"),
        (("__hash__",), r"(?<![\w.])hash\(|__hash__", r"\b(?:un)?hashable\b|\bdeduplicat"),
        (("__iter__",), r"(?<![\w.])iter\(|__iter__", r"\biterat(?:e|es|ed|ing|ion)\b"),
        (("__enter__", "__exit__"), r"__enter__|__exit__", r"\bcontext manager"),
        (("__getstate__", "__setstate__", "__reduce__", "__reduce_ex__"), r"__getstate__|__setstate__|__reduce",
         r"\bpickl"),
        (("__copy__", "__deepcopy__"), r"__copy__|__deepcopy__|\bdeepcopy\(", r"\bdeep ?cop"),
    ))


def protocols_spoken(text: str) -> tuple[str, ...]:
    """The special methods of the protocols ``text`` exercises (``PROTOCOLS``), in their
    order. Linear: two scans per protocol."""
    prose = without_fences(text)
    return tuple(m for methods, anywhere, words in PROTOCOLS
                 if anywhere.search(text) or words.search(prose) for m in methods)


def _special_methods(store: Any, flt: StoreFilter, classes: Sequence[Hit], methods: Sequence[str]) -> list[Hit]:
    """The special ``methods`` (``__str__``) the index holds of the Python ``classes``, by
    qualified name (``_members``)."""
    return _members(store, flt, {f"{q}.{m}" for h in classes if h.payload.get("language") == "python"
                                 for q in [str(h.payload.get("qualified_name", ""))] if q for m in methods})


def boost(store: Any, asked: Query, flt: StoreFilter, hits: Sequence[Hit],
          fields: Sequence[str] | None,
          suffixes: Callable[[], Sequence[PathSuffixes]] | None = None) -> list[Hit]:
    """``hits`` (payloads with ``path``) with each chunk's structural bonus added to its
    score, plus the definitions and path-named chunks not among them, best first. ``hits``
    unchanged when the query names nothing the index defines. ``suffixes``: the indexed
    paths in scope by their trailing components, for a named path the repository keeps
    deeper (``_named_files``), built on first use. Raises what the store raises."""
    bonus: dict[str, float] = {}
    extra: dict[str, Hit] = {}
    files, framed, linked = _indexed(store, asked, flt, suffixes)
    if framed and GUARD_FRAMES:
        framed = _past_guards(framed)
    if len(framed) > 1 and SHARED_CHECKS and (asked.title_names or SHARED_CHECKS_UNTITLED):
        framed = _past_shared_check(store, asked, flt, framed)
    outer_names: set[str] = set()
    if framed and RERAISED_FRAMES and stack.single_traceback(asked.text) and _reraises(asked.text, framed[0]):
        # the innermost frame raised an exception caught or built elsewhere: the trace shows
        # the way it was handed back, not where it went wrong; nor are its frames' functions
        # names the issue gives, unless written outside them
        _outer_frame_files(files, framed, asked, kept=0)
        outer_names = _frame_names(framed) - _words_outside_trace(asked.text)
        framed = []
    elif asked.shape is Shape.TRACE and not TRACE_FRAME_NAMES:
        outer_names = _frame_names(framed[1:]) - _frame_names(framed[:1])
    elif asked.shape is Shape.ISSUE and not ISSUE_FRAME_NAMES and len(framed) > 1:
        outer_names = _frame_names(framed[1:]) - _frame_names(framed[:1]) - _words_outside_trace(asked.text)
    entry = set()
    if TITLE_ENTRY_PLAIN and framed and asked.title_names:
        inner = list(dict.fromkeys(f.path for f in framed))[:INNER_FRAME_FILES]
        # a name an inner frame runs too (``forward`` of every layer) is the failure's
        entry = (_frame_names(f for f in framed if f.path not in inner)
                 - _frame_names(f for f in framed if f.path in inner))
    modules = _modules(asked.text) if LOWER_NAMES_EXACT else frozenset()
    tongue = (dialect.scope(dialect.of_query(asked), (h.payload for h in hits))
              if FOREIGN_DEFINITIONS_SKIPPED else dialect.Scope())
    typed = ""
    called: dict[str, bool] = {}  # a class's name as spelt -> whether the text calls it
    construction: bool | None = None  # whether the prose speaks of building an object
    spoken: tuple[str, ...] | None = None  # the special methods of the protocols the text exercises
    for i, name in enumerate(asked.names):
        if name.lower() in outer_names:
            continue
        weight = DEFINITION_WEIGHT * (TITLE_FACTOR if i < asked.title_names and name.lower() not in entry
                                      else 1.0)
        defs = _definitions(store, flt, name)
        if tongue.families:  # a definition in another language than the issue's code is none it names
            defs = [h for h in defs if not tongue.foreign(h.payload)]
        if CAPITALISED_NAMES_CASED and not name.islower() and any(h.payload.get("name") == name for h in defs):
            # ``Intersection`` is the class, not geometry's nine ``intersection`` methods
            defs = [h for h in defs if not str(h.payload.get("name", "")).islower()]
        defining = {h.payload["path"] for h in defs}
        if not defining or len(defining) > DEFINITION_MAX_FILES:
            continue
        if LOWER_NAMES_EXACT and name.islower() and (name in _BUILTINS or name in modules):
            # the other spellings still make the name ambiguous: they share its weight
            defs = [h for h in defs if str(h.payload.get("name", "")) == name]
        defs = [h for h in defs if _role_asked(h, asked)]  # a test's shares, unpaid
        classes = [h for h in defs if h.payload.get("kind") in _INSTANTIATED_KINDS]
        if (CALLED_CLASS_CONSTRUCTORS and classes
                and (construction := construction if construction is not None else _speaks_of_construction(asked.text))):
            typed = typed or _typed(asked.text)
            # called as the class spells itself (``const parser = new Parser(..)`` named
            # ``parser`` first)
            for spelt in {str(h.payload.get("name", "")) for h in classes} - set(called):
                called[spelt] = _instantiated(typed, spelt)
            defs += _constructors(store, flt, [h for h in classes if called[str(h.payload.get("name", ""))]])
        if (PROTOCOL_METHODS and asked.long and classes
                and (spoken := spoken if spoken is not None else protocols_spoken(asked.text))):
            defs += _special_methods(store, flt, classes, spoken)
        for h in defs:
            bonus[h.id] = bonus.get(h.id, 0.0) + weight / len(defining)
            extra.setdefault(h.id, h)
    if OUTER_FRAME_PATH_WEIGHT < PATH_WEIGHT:
        _outer_frame_files(files, framed, asked)
    weights = TRACE_FRAME_WEIGHTS if asked.shape is Shape.TRACE else FRAME_WEIGHTS
    deepest: dict[str, float] = {}
    for depth, frame in _depths(framed, len(weights)):
        deepest[frame.path] = max(deepest.get(frame.path, 0.0), weights[depth])
    for path, weight in deepest.items():
        files[path] += weight
    named: dict[str, list[Frame]] = {}
    for frame in framed:  # innermost first
        ran = named.setdefault(frame.path, [])
        # a frame naming no function (where a Rust program panicked, a PHP exception was
        # thrown) stands for its file's innermost by its line
        if ((frame.function or (frame.line and not ran)) and len(ran) < FRAME_FUNCTIONS
                and all(f.function != frame.function for f in ran)):
            ran.append(frame)
    # a linked line of a file (``#L689-L697``) names the function holding it there, after
    # the file's frames: no weight of its own (the link named the file, ``PATH_WEIGHT``)
    for frame in linked:
        ran = named.setdefault(frame.path, [])
        if len(ran) < FRAME_FUNCTIONS and all(f.line != frame.line or f.function for f in ran):
            ran.append(frame)
    _refused(store, asked, flt, framed, files, named, weights[0] if weights else 0.0)
    if TEST_WEIGHT > 0 and asked.shape is Shape.ISSUE:
        for path, score in _tested(store, hits, flt).items():
            files[path] = files.get(path, 0.0) + TEST_WEIGHT * score
    if files:
        _file_evidence(store, asked, flt, hits, files, bonus, extra, named)
    if not bonus:
        return list(hits)
    out = [replace(h, score=h.score + bonus.get(h.id, 0.0)) for h in hits]
    seen = {h.id for h in hits}
    out += [replace(h.keep(fields), score=bonus[pid]) for pid, h in extra.items() if pid not in seen]
    out.sort(key=lambda h: -h.score)
    return out


#: Whether a name written all in lower case that is a builtin type (``dict``, ``type``:
#: ``_BUILTINS``) or a module the issue imports (``import arrow``, ``import attrs``:
#: ``_modules``) is the definition only of that exact
#: spelling: a case-insensitive match made a Python builtin an issue quotes (``a subclass
#: of `dict```) the repository's ``Dict`` field class (a newcomer's marshmallow issue),
#: arrow's ``arrow.get()`` its class ``Arrow``. Another lower-case name keeps any case:
#: click's ``edit(.., editor=..)`` names the class ``Editor`` that does the editing (all
#: lower-case names exact: click's issue lost its first file). The definitions of other spellings
#: still count among the files defining the name (its weight is shared as before: attrs'
#: function ``attrs`` took an issue's first file from ``exceptions.py`` when the package
#: name ``attrs`` no longer shared it with ``Attrs``-named definitions). A name with a
#: capital still matches any case (``JSONDecoder``, ``JsonDecoder``).
LOWER_NAMES_EXACT = True
#: Whether a name with a capital that some definition spells exactly (``Intersection``) is
#: none of the definitions spelt all in lower case (the method ``intersection`` of nine
#: geometry classes): those are other things, and counted among the files defining the
#: name they made it no evidence at all (more than ``DEFINITION_MAX_FILES``: swe-lite-dev's
#: sympy 16988, "Intersection should remove duplicates"). Other spellings with a capital
#: still match (``JSONDecoder``, ``JsonDecoder``).
CAPITALISED_NAMES_CASED = True
#: Whether the innermost frames of a guard (``_GUARD``: a null check, such as Guava's
#: ``Preconditions.checkNotNull``, commons' ``Validate.notNull``, Spring's
#: ``Assert.notNull``) are passed over: the guard throws for its caller, which passed the
#: bad argument (gson's ``$Gson$Preconditions.checkNotNull`` took the innermost frame's
#: weight from the constructor and the policy one and two frames up, a newcomer's issue).
GUARD_FRAMES = True
#: A guard's frame function: a null check (``checkNotNull``, ``requireNonNull``,
#: ``notNull``) of any class, as ``frames.callable_name`` writes it. A null check throwing is
#: never where a null went wrong; other checks (``checkElementIndex``) and classes named
#: ``Validate`` or ``Assert`` may be the code at fault (a review).
_GUARD = re.compile(r"\.(?:checkNotNull|checkNonNull|requireNonNull|requireNotNull|notNull|nonNull"
                    r"|isNotNull|assertNotNull)$")
#: Whether a Python trace whose innermost indexed frame re-raises an exception bound to a
#: name (``raise exc``, ``raise``: the line printed under the frame) weighs its frames as
#: outer ones (``OUTER_FRAME_PATH_WEIGHT``, no depth weights) and its frames' functions as
#: no names it gives (unless written outside them): the exception was raised or
#: built from errors gathered elsewhere, and the frames are the way it was handed back
#: (marshmallow's ``_do_load`` re-raising a ``ValidationError`` a field's ``Pluck`` caused
#: came first with the depth and path weights, a newcomer's issue).
RERAISED_FRAMES = True
#: Whether a function's consecutive frames are one depth for ``FRAME_WEIGHTS``: a
#: function that re-raised what it caught (``except OSError as err: .. raise err``) or
#: recursed prints a frame per line, and both weights went to its file. A compiled
#: program prints no source line to see the re-raise by (``RERAISED_FRAMES``): mypy's
#: ``fscache.listdir`` took both, and the caller fixed, ``refresh_suppressed_submodules``,
#: tied a file of five outer frames (a newcomer: file 2nd -> 1st, function 8th -> 1st;
#: no rank moved on the requests, jinja and starlette sets' 30 issues).
DEPTH_BY_FUNCTION = True


#: A Python frame's header and the source line under it (pytest's form too), removed by
#: ``_words_outside_trace``; IPython's and Jupyter's too (``frames.PYTEST``'s other forms:
#: 8.x ``File ~/p.py:12, in f(x)``, 7.x ``~/p.py in f(x)``, a cell's ``Cell In[3], line 1``,
#: ``Input In [3], in <module>``, ``<ipython-input-3-..> in <module>``), each with the
#: numbered source lines printed under it (``-> 2480     result = fn(..)``). Without them,
#: an IPython trace's outer frames' functions were names the reporter wrote: every
#: magic's dispatcher, ``InteractiveShell.run_line_magic``, came above the magic that
#: failed (a newcomer's IPython issue).
_PYTHON_FRAME_LINES = re.compile(r'File "[^"\n]*+", line \d+[^\n]*+(?:\n[ \t]++[^\s][^\n]*+)?'
                                 r'|^[ \t]*+[^\s"]+\.py:\d+: in [^\n]*+'
                                 r'|^[ \t]*+(?:File [^\s"]+\.py:\d+, in |[^\s"]+\.py in [\w<>.]+\('
                                 r'|Cell In ?\[\d+\], line \d+|Input In ?\[\d+\], in |<ipython-input-[\w-]+> in )'
                                 r'[^\n]*+(?:\n[ \t]*+(?:-*+>[ \t]*+)?\d++(?:[ \t][^\n]*+)?)*+', re.MULTILINE)


def _words_outside_trace(text: str) -> set[str]:
    """The words (lower case) of ``text`` outside its stack frames (every runtime's:
    ``frames.without``; Python's headers and source lines: ``_PYTHON_FRAME_LINES``).
    Linear in ``text``."""
    return set(re.findall(r"\w+", _PYTHON_FRAME_LINES.sub(" ", stack.without(text)).lower()))


#: Python's builtin types an issue writes in lower case (``dict``, ``list``, ``type``; the
#: builtins module's classes), kept to the containers and scalars other languages spell the
#: same (``map``, ``filter``, ``format``, ``help`` are functions or classes of many repos: a review).
_BUILTINS = frozenset({"dict", "list", "set", "frozenset", "tuple", "str", "bytes", "bytearray",
                       "int", "float", "complex", "bool", "object", "type"})
#: A module an issue's code imports (``import attrs``, ``>>> from arrow import get``): its
#: lower-case head. Not any ``x.y``: a variable named after its class (``session.merge`` of
#: ``session = Session()``) means the class (a review).
_MODULE_HEAD = re.compile(r"^[ \t>.]*+(?:import|from)[ \t]+([a-z_]\w*)", re.MULTILINE)


def _modules(text: str) -> frozenset[str]:
    """The lower-case heads of the modules ``text`` imports (``_MODULE_HEAD``). Linear in
    ``text``."""
    return frozenset(_MODULE_HEAD.findall(text))


def _frame_names(frames: Iterable[Frame]) -> set[str]:
    """The functions ``frames`` name, their last part in lower case (``a.Foo.bar`` -> ``bar``)."""
    return {stack.owner_and_name(f.function)[1].lower() for f in frames if f.function}


def _past_guards(framed: Sequence[Frame]) -> list[Frame]:
    """``framed`` (innermost first) without its innermost run of guard frames (``_GUARD``),
    unless every frame is one."""
    k = 0
    while k < len(framed) and framed[k].function and _GUARD.search(framed[k].function):
        k += 1
    return list(framed[k:]) if k < len(framed) else list(framed)


#: Whether the innermost frames of a shared check are passed over like a guard's
#: (``_past_shared_check``): a Python trace's innermost frame printed a ``raise`` (a check
#: rejecting what it was given), its function is called from ``SHARED_CHECK_FILES`` files
#: or more (a validation helper, ``check_consistent_length``, ``column_or_1d``), and the
#: issue's title names a definition of an outer frame's file. The check's file took the
#: innermost frame weights and came first, above the titled caller's file that passed it
#: the bad value: scikit-learn's ``permutation_importance``, ``VotingClassifier.fit`` and
#: ``MultiOutputRegressor`` (a newcomer's issues). Not in a chained traceback: a caller
#: that caught the check's error and raised its own (``raise .. from err``) showed the
#: cause on purpose, and there the check was too strict: matplotlib's ``to_rgba_array``,
#: called from many files, refused a valid pair of colours under the titled ``scatter``.
SHARED_CHECKS = True
#: Whether a shared check (``_past_shared_check``) is passed over to the first frame of
#: another file when the title names no definition of an outer frame's file, unless it
#: names one of the check's file: the caller handed the check what it refused. astroid's
#: ``extract_node`` -> ``parse`` -> ``_data_build`` (``AstroidSyntaxError``: called from
#: every brain module) took the first file from ``brain_typing``'s function that built
#: the bad source (a newcomer; seaborn's and zod's newcomers saw the same kind). Its
#: callers are counted by names other than dunders (``__new__`` is every class's:
#: swe-lite-dev's sympy 22714, ``Point.__new__`` refusing what it should take, lost its
#: first file without that).
SHARED_CHECKS_UNTITLED = True
#: A trace raising ``NotImplementedError``: the code lacks a case, no check refused its
#: input; the raising function is where the case goes (sqlfluff's lexer raised "Unable to
#: process slice" for an escaped brace under the widely called ``Lexer.lex``, and its
#: ``_iter_segments`` was the fix). An untitled trace so is not passed over.
_NOT_IMPLEMENTED = re.compile(r"^[ \t]*+(?:[\w.]+\.)?NotImplementedError\b", re.MULTILINE)
#: Files calling a check's function, at least, for it to be a shared one. A check of few
#: callers may be the fault itself: django's ``get_supported_language_variant``, called
#: from 3 files, raised and was the fix (a newcomer's prototype lost it without the gate).
SHARED_CHECK_FILES = 10
#: The frames passed over whose functions' callers are counted: the check and what it
#: ran through (scikit-learn's ``process_routing`` under ``MetadataRouter.validate_metadata``,
#: called from 3 files).
SHARED_CHECK_FRAMES = 3


def _past_shared_check(store: Any, asked: Query, flt: StoreFilter, framed: Sequence[Frame]) -> list[Frame]:
    """``framed`` (innermost first, indexed paths) from the first frame of a file the
    title names a definition in (none: with ``SHARED_CHECKS_UNTITLED``, of the first file
    past the innermost one, unless the title names a definition there), when its
    innermost frames are a shared check
    (``SHARED_CHECKS``: one of the functions of the frames passed over, the first
    ``SHARED_CHECK_FRAMES``, is called from ``SHARED_CHECK_FILES`` files); else ``framed``
    as is. At most one keyword lookup per title name and one facet per function read."""
    inner = framed[0]
    if not (inner.function and _RAISE.match(stack.printed_code(asked.text, inner))
            and stack.single_traceback(asked.text)):
        return list(framed)
    outer = {f.path for f in framed if f.path != inner.path}
    defining: set[str] = set()
    for name in asked.names[:asked.title_names]:
        defining |= {h.payload["path"] for h in _definitions(store, flt, name)}
    titled = defining & outer
    if titled:
        k = next(k for k, f in enumerate(framed) if f.path in titled)
    elif SHARED_CHECKS_UNTITLED and inner.path not in defining and not _NOT_IMPLEMENTED.search(asked.text):
        k = next(k for k, f in enumerate(framed) if f.path != inner.path) if outer else 0
    else:
        return list(framed)
    if not k:
        return list(framed)
    names = list(dict.fromkeys(stack.owner_and_name(f.function)[1] for f in framed[:k] if f.function))
    if not titled:  # a dunder's callers are every class's (``Point.__new__``: sympy's own check)
        names = [name for name in names if not is_dunder(name)]
    if all(len(store.facet_any(flt, "path", "calls", [name])) < SHARED_CHECK_FILES
           for name in names[:SHARED_CHECK_FRAMES]):
        return list(framed)
    return list(framed[k:])


def _reraises(text: str, frame: Frame) -> bool:
    """Whether the line a Python trace in ``text`` prints under ``frame`` re-raises an
    exception bound to a name (``frames.reraises``)."""
    return stack.reraises(stack.printed_code(text, frame))


def _refused(store: Any, asked: Query, flt: StoreFilter, framed: Sequence[Frame],
             files: dict[str, float], named: dict[str, list[Frame]], innermost: float = 0.0) -> None:
    """Put each callable that refused a call's arguments (``Query.refused``: ``f() got an
    unexpected keyword argument``) first among its file's frames (``named``, path -> frames):
    the call failed before it ran, so no frame names it, yet its signature is most often
    the edit (astropy's ``RST.__init__`` refusing ``header_rows``; sympy's
    ``_print_SingularityFunction`` refusing ``exp``). Its file is the one only definition
    of its qualified name in scope, a source file (which joins ``files`` with
    ``PATH_WEIGHT`` and ``innermost``, the innermost frame's weight: the call failed there,
    below every frame; a definition in a test or an example is the user's own handler's
    namesake, ``http_exception``), else each of the first ``INNER_FRAME_FILES`` frame files
    (where not defined, the frame finds nothing: ``_file_evidence``). One keyword lookup
    per callable."""
    inner = list(dict.fromkeys(f.path for f in framed))[:INNER_FRAME_FILES]
    for callee in asked.refused:
        defs = [h for h in store.find(flt, "qualified_name", callee, limit=8)
                if h.payload.get("kind") not in _NOT_DEFINITIONS
                and not locating.declares_only(str(h.payload.get("path", "")))]
        defined = {str(h.payload.get("path", "")) for h in defs}
        if any(hit_role(h.payload) != "source" for h in defs):
            defined = set()  # a test's or an example's: the trace's own callable's namesake
        paths = list(defined) if len(defined) == 1 else inner
        for path in paths:
            files[path] = max(files.get(path, 0.0), PATH_WEIGHT + (innermost if len(defined) == 1 else 0.0))
            ran = named.setdefault(path, [])
            if all(f.function != callee for f in ran):
                ran.insert(0, Frame(path, callee))


def _depths(framed: Sequence[Frame], deepest: int) -> Iterator[tuple[int, Frame]]:
    """``framed`` (innermost first) with each frame's depth below ``deepest``: a function's
    consecutive frames are one depth when ``DEPTH_BY_FUNCTION`` (``frames.read``'s frames).
    Linear."""
    depth, last = -1, None
    for frame in framed:
        key = (frame.path, frame.function) if DEPTH_BY_FUNCTION and frame.function else id(frame)
        if key != last:
            depth, last = depth + 1, key
        if depth >= deepest:
            return
        yield depth, frame


def _outer_frame_files(files: dict[str, float], framed: Sequence[Frame], asked: Query,
                       kept: int = INNER_FRAME_FILES) -> None:
    """Lower to ``OUTER_FRAME_PATH_WEIGHT`` the path weight of the indexed files only
    frames beyond the first ``kept`` frame files name (no path of the text outside frames
    names them)."""
    order = list(dict.fromkeys(f.path for f in framed))
    text_paths = set(asked.paths) - {f.path for f in asked.frames}
    for path in order[kept:]:
        if path in files and not any(path_names(p, path) for p in text_paths):
            files[path] = min(files[path], OUTER_FRAME_PATH_WEIGHT)


def indexed_frames(store: Any, asked: Query, flt: StoreFilter,
                   suffixes: Callable[[], Sequence[PathSuffixes]] | None = None) -> int:
    """How many of ``asked``'s frames are in indexed files of ``flt``, found as ``boost``
    finds them (``_indexed``). One facet and at most one keyword lookup."""
    return len(_indexed(store, asked, flt, suffixes)[1]) if asked.frames else 0


def _indexed(store: Any, asked: Query, flt: StoreFilter,
             suffixes: Callable[[], Sequence[PathSuffixes]] | None,
             ) -> tuple[dict[str, float], list[Frame], list[Frame]]:
    """The indexed files ``asked`` names, each with ``PATH_WEIGHT`` (by path, deeper:
    ``_named_files``, or a JVM frame by its class's qualified name: ``_qualified_frames``),
    and its frames in them, their paths the indexed ones, innermost first (``_frame_files``),
    and its linked lines in them (``Query.linked``) as frames naming no function; the
    file of each module it says lacks a name (``Query.lacking``), by the module's name: a
    third-party module's path suffix named the repository's own (xarray's
    ``core/common.py`` for ``module 'pandas.core.common' has no attribute``; a review)."""
    named, deeper = _named_files(store, asked.paths, flt, suffixes)
    files = dict.fromkeys(named, PATH_WEIGHT)
    for module in asked.lacking:
        files.update((h.payload["path"], PATH_WEIGHT) for h in store.find(flt, "fq_name", module, limit=4)
                     if h.payload.get("kind") == "module")
    frames = [f._replace(path=deeper[f.path]) if f.path in deeper else f for f in asked.frames]
    resolved = _qualified_frames(store, frames, files, flt)
    files.update((f.path, PATH_WEIGHT) for f, g in zip(resolved, frames) if f.path != g.path)
    linked = [Frame(deeper.get(path, path), "", line) for path, line in asked.linked
              if deeper.get(path, path) in files]
    return files, _frame_files(files, resolved), linked


def foreign_frames(store: Any, asked: Query, flt: StoreFilter,
                   suffixes: Callable[[], Sequence[PathSuffixes]] | None = None) -> tuple[str, ...]:
    """The paths of ``asked``'s frames that name no indexed file of ``flt`` (another
    package's: ``site-packages/matplotlib/lines.py``), when another of its frames names
    one (the trace runs through the project); ``()`` otherwise. One facet and at most one
    keyword lookup (``_named_files``)."""
    if len(asked.frames) < 2:
        return ()
    named, deeper = _named_files(store, asked.paths, flt, suffixes)

    def indexed(path: str) -> bool:
        return path in deeper or any(path == n or path.endswith("/" + n) for n in named)

    paths = {f.path for f in asked.frames}
    inside = {p for p in paths if indexed(p)}
    return tuple(sorted(paths - inside)) if inside else ()


def title_defined_in(store: Any, asked: Query, flt: StoreFilter, path: str) -> bool:
    """Whether a name of ``asked``'s title (``Query.title_names``) is defined in ``path``
    and in no other file in scope (declaration files aside): the issue points at that file
    by a definition only it holds, so an answer led by it stands out whatever the scores
    (``confidence.flat_files``). One keyword lookup per title name."""
    return any({h.payload.get("path") for h in _definitions(store, flt, name)} == {path}
               for name in asked.names[:asked.title_names])


#: Whether a name an issue gives leaves out its definitions in another language family
#: than the issue's code shows (``dialect.of_query``): an unscoped Go issue naming
#: ``AllKeys`` shared its weight with a Python port's ``Viper.AllKeys`` and lifted it.
FOREIGN_DEFINITIONS_SKIPPED = True


def _role_asked(hit: Hit, asked: Query) -> bool:
    """Whether a definition's role may carry a named name's bonus: source's, or a role the
    query asks for. A test's is no definition an issue's name means: attrs' issue about its
    ``__attrs_pre_init__`` hook lifted seven test classes' overrides of it above the function
    generating the call (the source names the hook only as a string)."""
    role = hit_role(hit.payload)
    return role in ("source", "config") or role in asked.roles


#: A definition's head before a name (``class Foo(``, ``def foo(``): no call of it.
_DEFINING = re.compile(r"\b(?:" + "|".join((*DEFINING_KEYWORDS, "impl")) + r")[ \t]+$")


#: A line an interactive session typed (``>>> ``, ``... ``, IPython's ``In [3]: `` and
#: ``   ...: ``), and one it printed (``Out[3]: ``).
_TYPED = re.compile(r"[ \t]*+(?:>>>|\.\.\.(?:[ \t]|$)|In[ \t]*\[\d+\]:|\.\.\.+:)")
_PRINTED = re.compile(r"[ \t]*+Out[ \t]*\[\d+\]:")
#: A fence line or a blank one: the bounds of a session's lines (``_typed``).
_BOUND = re.compile(r"[ \t]*+(?:```|~~~|$)")


def _typed(text: str) -> str:
    """``text`` without what an interactive session printed: ``Out[n]:`` lines, and in a
    run of lines (between blank or fence lines) holding a prompt (``>>>``, ``In [n]:``),
    its lines without one. sympy's ``Out[3]: watt*Prefix(milli, m, -3, 10)`` is a value's
    printed form, no call of ``Prefix`` (swe-lite-dev's 24909: its ``__new__`` took a place
    above the ``__truediv__`` fixed)."""
    out: list[str] = []
    run: list[str] = []

    def flush() -> None:
        prompted = any(_TYPED.match(line) for line in run)
        out.extend(line for line in run if not prompted or _TYPED.match(line))
        run.clear()

    for line in text.splitlines():
        if _BOUND.match(line):
            flush()
            out.append(line)
        elif not _PRINTED.match(line):
            run.append(line)
    flush()
    return "\n".join(out)


def _speaks_of_construction(text: str) -> bool:
    """Whether ``text`` outside its fenced code blocks speaks of building an object
    (``_CONSTRUCTION``): "removed at the outset of instantiation", "the constructor
    ignores"."""
    return bool(_CONSTRUCTION.search(without_fences(text)))


def _instantiated(text: str, name: str) -> bool:
    """Whether ``text`` (``_typed``: what a session printed left out) calls ``name`` as a
    constructor is called: ``name(``, ``new name(`` (the ``(`` is enough), Ruby's
    ``name.new``; not after a dot (``np.Intersection(`` names another module's), nor as a
    definition's head (``class Foo(Base):``). Linear: one scan for the literal name."""
    for m in re.finditer(rf"(?<![\w.$]){re.escape(name)}(?:[ \t]*\(|\.new\b)", text):
        if not _DEFINING.search(text, max(0, m.start() - 12), m.start()):
            return True
    return False


def _constructors(store: Any, flt: StoreFilter, classes: Sequence[Hit]) -> list[Hit]:
    """The constructors (``headers.is_constructor``) the index holds of ``classes``, by their
    qualified names in the classes' languages; one keyword lookup, none for no class."""
    return _members(store, flt, {f"{q}.{c}" for h in classes
                                 for q in [str(h.payload.get("qualified_name", ""))] if q
                                 for c in (*headers.CONSTRUCTOR_NAMES.get(str(h.payload.get("language", "")), ()),
                                           *([q.rpartition(".")[2]]
                                             if h.payload.get("language") in headers.NAMED_CONSTRUCTORS else []))})


def _members(store: Any, flt: StoreFilter, wanted: Collection[str]) -> list[Hit]:
    """The definitions the index holds of the qualified names ``wanted`` (no part of a long
    function, no module or section chunk): one keyword lookup, none for no name."""
    if not wanted:
        return []
    return [h for h in store.find_any(flt, "qualified_name", sorted(wanted), limit=4 * len(wanted))
            if h.payload.get("kind") not in _NOT_DEFINITIONS and not is_part(str(h.payload.get("qualified_name", "")))]


def _definitions(store: Any, flt: StoreFilter, name: str) -> list[Hit]:
    """The chunks defining ``name`` (case-insensitive; at most ``4 * DEFINITION_MAX_FILES``
    read): no module, docs section or file chunk, nothing in a declaration file
    (``locate.declares_only``: a stub declares, the implementation defines)."""
    return [h for h in store.find(flt, "name_lc", name.lower(), limit=4 * DEFINITION_MAX_FILES)
            if h.payload.get("kind") not in _NOT_DEFINITIONS
            and not locating.declares_only(str(h.payload.get("path", "")))]


def _file_evidence(store: Any, asked: Query, flt: StoreFilter, hits: Sequence[Hit],
                   files: dict[str, float], bonus: dict[str, float], extra: dict[str, Hit],
                   framed: dict[str, list[Frame]]) -> None:
    """Give each file of ``files`` (path -> bonus) its bonus on one chunk: its best among
    ``hits``, else (not among them) its chunk the question's terms score highest (the
    first read when none does); but where ``framed`` (path -> the functions of the file's
    innermost traceback frames, innermost first) names a function one chunk of the file
    defines, the first such chunk, lifted to the best one's score first, and the chunks of
    the next frames' functions just above the file's best other chunk, in frame order (no
    bonus: they follow the first), but the title's function first when the innermost raised
    a check (``TITLED_FRAME_FIRST``). One chunk gets the bonus, not all: a file's every chunk
    raised together buried another file's one right chunk (a short trace's raise site)
    under the rest."""
    best: dict[str, Hit] = {}
    for h in hits:
        path = h.payload["path"]
        if path in files and (path not in best or h.score > best[path].score):
            best[path] = h
    scored = {h.id: h.score for h in hits}
    ran: dict[str, list[Hit]] = {}  # each frame's function in its file: where the trace ran
    first_frame: dict[str, Frame] = {}  # the frame of each file's first chunk of ``ran``
    for path, ran_frames in framed.items():
        if not (FRAME_DEFINITIONS and path in files):
            continue
        for frame in ran_frames:
            if not frame.function:
                chunk = _at_line(store, replace(flt, path=path), path, frame.line)
            else:
                owner, name = stack.owner_and_name(frame.function)
                defined = [h for h in store.find(replace(flt, path=path), "name", name,
                                                 limit=FRAME_DEFINITIONS)
                           if h.payload.get("kind") not in _NOT_DEFINITIONS]
                chunk = _ran(defined, owner, frame.line)
                if chunk is None and len(defined) > 1 and FRAME_NAMESAKES_BY_WORDS:
                    # the line the trace printed under the frame names it, else the words
                    code = stack.printed_code(asked.text, frame)
                    holding = [h for h in defined if code and code in str(h.payload.get("embed_text", ""))]
                    chunk = holding[0] if len(holding) == 1 else _best_scored(defined, scored)
                if chunk is None and not defined and frame.line and _prints_own_names(path):
                    chunk = _at_line(store, replace(flt, path=path), path, frame.line)
            if chunk is not None and all(h.id != chunk.id for h in ran.get(path, ())):
                if path not in ran:
                    first_frame[path] = frame
                ran.setdefault(path, []).append(chunk)
    missing = sorted(set(files) - set(best))
    if missing:
        found = [h for path in missing  # per file: a large file must not use up another's reads
                 for h in store.find(flt, "path", path, limit=PATH_CHUNKS)
                 if h.payload.get("kind") != "section"]
        lexical = store.sparse_scores(sparse_vector(asked), [h.id for h in found]) if found else {}
        for h in found:
            path = h.payload["path"]
            if path not in best or lexical.get(h.id, 0.0) > lexical.get(best[path].id, 0.0):
                best[path] = h
    titled = {n.lower() for n in asked.names[:asked.title_names]} if TITLED_FRAME_FIRST else set()
    for path, h in best.items():
        lift = 0.0
        ran_here = ran.get(path, [])
        if (titled and len(ran_here) > 1 and str(ran_here[0].payload.get("name", "")).lower() not in titled
                and _RAISE.match(stack.printed_code(asked.text, first_frame[path]))):
            # the innermost frame raised its check on what it was given: the function the
            # title names, a frame of this file further out, handed it over; first, the
            # check's just after it
            k = next((k for k, c in enumerate(ran_here) if str(c.payload.get("name", "")).lower() in titled), 0)
            ran_here = [ran_here[k], *ran_here[:k], *ran_here[k + 1:]]
        if ran_here:  # the frame's function takes the file's best place and its bonus
            lift = max(0.0, _score(best[path], scored, bonus) - _score(ran_here[0], scored, bonus))
            h = ran_here[0]
        bonus[h.id] = bonus.get(h.id, 0.0) + files[path] + lift
        extra.setdefault(h.id, h)
        if len(ran_here) > 1:
            firsts = {c.id for c in ran_here}
            _follow(ran_here[1:], [c for c in hits if c.payload["path"] == path and c.id not in firsts],
                    scored, bonus, extra)


def _follow(frames: Sequence[Hit], chunks: Sequence[Hit], scored: dict[str, float],
            bonus: dict[str, float], extra: dict[str, Hit]) -> None:
    """Lift the chunks of ``frames`` (outer frames' functions of one file, innermost
    first) just above the best of ``chunks`` (the file's candidates that are no frame's):
    they follow the innermost frame's chunk in frame order, steps of ``FRAME_STEP``; a
    chunk already above keeps its score."""
    floor = max((_score(c, scored, bonus) for c in chunks), default=0.0)
    for k, h in enumerate(frames):
        target = floor + FRAME_STEP * (len(frames) - k)
        bonus[h.id] = bonus.get(h.id, 0.0) + max(0.0, target - _score(h, scored, bonus))
        extra.setdefault(h.id, h)


#: Whether a function the issue's title names that is an outer frame of a file takes the
#: file's first place from the innermost frame's when that frame's printed line is a
#: ``raise`` (``_file_evidence``; a check rejecting its input): "join_segmentations fails
#: with TypeError" listed ``relabel_sequential``, the check it called that raised, first
#: and the titled function second (a newcomer's scikit-image issues). Not when the
#: innermost line fails by itself: "phase_cross_correlation(disambiguate=True) raises
#: TypeError: 'NoneType' .." was fixed in the innermost ``_disambiguate_shift``.
TITLED_FRAME_FIRST = True
#: A Python line raising (``raise X(..)``), as a trace prints it.
_RAISE = re.compile(r"raise\b")
#: The score step between the outer frames' lifted chunks (``_follow``): enough to order
#: them at the six decimals answers carry, too small to move a file.
FRAME_STEP = 1e-4


def _score(hit: Hit, scored: dict[str, float], bonus: dict[str, float]) -> float:
    """``hit``'s candidate score (``scored``; 0 when it is no candidate) with the bonus it
    has gained so far."""
    return scored.get(hit.id, 0.0) + bonus.get(hit.id, 0.0)


def _tested(store: Any, hits: Sequence[Hit], flt: StoreFilter) -> dict[str, float]:
    """Source files tested by the test files among ``hits`` (``classify.tested_sources``)
    that the index holds -> the best score of a chunk of a test file testing them, for the
    ``TEST_FILES`` best test files."""
    tests: dict[str, float] = {}
    for h in hits:
        path = h.payload["path"]
        if path not in tests and len(tests) >= TEST_FILES:
            continue
        if hit_role(h.payload) == "test":  # repo overrides too
            tests[path] = max(tests.get(path, 0.0), h.score)
    wanted: dict[str, float] = {}
    for path, score in tests.items():
        for source in classify.tested_sources(path):
            wanted[source] = max(wanted.get(source, 0.0), score)
    if not wanted:
        return {}
    found = store.facet_any(flt, "path", "path", sorted(wanted))
    return {path: wanted[path] for path in found}


def _frame_files(found: Collection[str], frames: Sequence[Frame]) -> list[Frame]:
    """The frames of ``frames`` (``Query.frames``, innermost first) in indexed files of
    ``found``, their paths the indexed ones, innermost first; frames elsewhere (the
    standard library, an installed package) left out. A frame's path names the indexed
    path it ends with at a ``/`` (the longest such)."""
    longest_first = sorted(found, key=len, reverse=True)
    out: list[Frame] = []
    for frame in frames:
        for indexed in longest_first:
            if path_names(frame.path, indexed):
                out.append(frame._replace(path=indexed))
                break
    return out


def _ran(defined: Sequence[Hit], owner: str, line: int) -> Hit | None:
    """Which of ``defined`` (a frame file's definitions of the frame's function name) the
    frame ran in: the only one; else the narrowest whose lines hold the frame's ``line``;
    else the only one whose qualified name's scope is the frame's ``owner`` (``Adapter``
    of ``ReflectiveTypeAdapterFactory$Adapter.read``; ``Deserializer`` of ``<Deserializer as
    de::Deserializer<'de>>::deserialize_any``); else none: two same-named methods and
    nothing to tell them apart, the frame names neither."""
    if len(defined) <= 1:
        return defined[0] if defined else None
    holding = _narrowest_holding(defined, line) if line else None
    if holding is not None:
        return holding
    if owner:
        # the frame's owner may carry its crate and modules (``walkdir.IntoIter`` of
        # ``walkdir::IntoIter::push``; the index names it ``IntoIter::push``)
        owned = [h for h in defined if _owns(owner, stack.owner_and_name(
            stack.callable_name(str(h.payload.get("qualified_name") or "")))[0])]
        if len(owned) == 1:
            return owned[0]
    return None


def _best_scored(defined: Sequence[Hit], scored: dict[str, float]) -> Hit | None:
    """The one of a frame's same-named definitions the query's candidates score highest
    (``FRAME_NAMESAKES_BY_WORDS``), ``None`` when none is a candidate."""
    held = [h for h in defined if h.id in scored]
    return max(held, key=lambda h: scored[h.id]) if held else None


def _owns(frame_owner: str, owner: str) -> bool:
    """Whether a frame's owner names a definition's: the same, or ending with it at a dot."""
    return bool(owner) and (frame_owner == owner or frame_owner.endswith("." + owner))


#: A frame whose function name several definitions of its file share, none holding its
#: line (a trace pasted from another version than the index's: typer's tuple and list
#: ``internal_convertor``, the trace's line 654 between them) stands for the one holding the
#: source line the trace printed under it (a review: the words named ``IntegerField`` for
#: ``DecimalField``'s line), else the one the query's words score highest; before, the
#: next frame out took the file's place (typer:
#: ``Typer.__call__``, the outermost, listed first).
FRAME_NAMESAKES_BY_WORDS = True
#: Chunks of a file read for the definition holding a frame's line when the frame names no
#: function (``_at_line``): a function or method only (a class holding the line stood for
#: it when the method was not among the chunks read: sinatra's 1,106-line ``Sinatra.Base``).
LINE_CHUNKS = 400


def _at_line(store: Any, flt: StoreFilter, path: str, line: int) -> Hit | None:
    """The narrowest function or method of ``path`` (no part of a long function) whose
    lines hold ``line``; None when none does (at most
    ``LINE_CHUNKS`` of the file's chunks read). serde_json: ``panicked at
    src/value/index.rs:72:21`` with no backtrace listed ``<usize as Index>::index_or_insert``
    third in its file."""
    return _narrowest_holding([h for h in store.find(flt, "path", path, limit=LINE_CHUNKS)
                               if h.payload.get("kind") in locating.CALLABLE_KINDS
                               and not is_part(str(h.payload.get("qualified_name", "")))], line)


def _prints_own_names(path: str) -> bool:
    """Whether a frame in ``path`` may print a function by a name the index does not give
    it: V8 prints a function expression's own name (``res.type = function contentType``:
    ``contentType``), so such a frame takes the function holding its line (``_at_line``).
    Elsewhere a name the file does not define means the trace is from another version of
    it, whose lines are no better. A JavaScript or TypeScript file (``registry``'s ``js``
    resolver: the languages whose assigned functions ``stored.scm`` names)."""
    language = registry.language_for(path)
    return language is not None and registry.spec_for(language).resolver == "js"


def _narrowest_holding(hits: Sequence[Hit], line: int) -> Hit | None:
    """The hit of ``hits`` with the fewest lines among those whose lines hold ``line``;
    None when none does."""
    holding = [h for h in hits
               if int(h.payload.get("start_line") or 0) <= line <= int(h.payload.get("end_line") or 0)]
    return min(holding, key=lambda h: int(h.payload["end_line"]) - int(h.payload["start_line"]),
               default=None)


def _qualified_frames(store: Any, frames: Sequence[Frame], named: Collection[str],
                      flt: StoreFilter) -> list[Frame]:
    """``frames`` with the path of each of the first ``QUALIFIED_FRAMES`` whose path names
    no file of ``named`` (the indexed files the query's paths name) but whose function's
    module-qualified name (``points.fq_name``: ``com.acme.Foo.Bar.baz``; a Kotlin file
    class's ``com.acme.UtilsKt.f`` is ``com.acme.f``) or its top-level class's is defined
    in one indexed file, set to that file. One keyword lookup for all of them."""
    wanted: dict[int, list[str]] = {}
    for i, frame in enumerate(frames):
        if len(wanted) >= QUALIFIED_FRAMES:
            break
        if frame.function.count(".") < 2 or stack.environment(frame.function) or any(
                path_names(frame.path, p) for p in named):
            continue
        wanted[i] = _qualified_forms(frame.function)
    if not wanted:
        return list(frames)
    names = sorted({n for forms in wanted.values() for n in forms})
    where: dict[str, set[str]] = {}
    for h in store.find_any(flt, "fq_name", names, limit=20 * len(names), fields=("path", "fq_name", "kind")):
        if h.payload.get("kind") not in _NOT_DEFINITIONS:
            where.setdefault(str(h.payload.get("fq_name")), set()).add(str(h.payload["path"]))
    out = list(frames)
    for i, forms in wanted.items():
        paths = next((where[n] for n in forms if n in where), set())
        if len(paths) == 1:
            out[i] = frames[i]._replace(path=next(iter(paths)))
    return out


def _qualified_forms(function: str) -> list[str]:
    """The module-qualified names a frame's dotted ``function`` may be indexed under, most
    precise first: itself, without a Kotlin file class (``UtilsKt``), its top-level class
    (the package's segments and the first capitalised one)."""
    parts = function.split(".")
    forms = [function]
    kotlin = [p for p in parts[:-1] if not p.endswith("Kt")]
    if len(kotlin) < len(parts) - 1:
        forms.append(".".join(kotlin + parts[-1:]))
    top = next((i for i, p in enumerate(parts[:-1]) if p[:1].isupper()), None)
    if top is not None and top + 1 < len(parts):
        forms.append(".".join(parts[:top + 1]))
    return forms


#: A Go module cache's directory of one module version (``gin@v1.10.0``, ``x@v0.0.0-2023...``).
_MODULE_VERSION = re.compile(r"@v\d+\.\d+\.\d+")


def _named_files(store: Any, paths: Sequence[str], flt: StoreFilter,
                 suffixes: Callable[[], Sequence[PathSuffixes]] | None = None,
                 ) -> tuple[set[str], dict[str, str]]:
    """The indexed files ``paths`` name: those whose path is a suffix (at a ``/``) of one of
    ``paths``, or (a Go module cache's ``github.com/gin-gonic/gin@v1.10.0/tree.go``) the part
    after a ``module@version`` directory, a path from the module's root however short; and,
    for a path naming none so, the one indexed file ending with its longest suffix of two
    components or more that any ends with (``suffixes``: ``site-packages/flask/app.py``
    names ``src/flask/app.py``; a Ruby gem's ``rack-protection-4.0.0/lib/rack/protection/
    base.rb`` names ``rack-protection/lib/...``; a JVM frame's ``com/acme/Foo.java`` names
    ``core/src/main/java/com/acme/Foo.java``), unless several do. Returns (indexed paths,
    {named path: indexed path} for those found deeper)."""
    if not paths:
        return set(), {}
    suffixes_of: dict[str, set[str]] = {}
    for path in paths:
        wanted = suffixes_of.setdefault(path, set())
        parts = path.split("/")
        rooted = next((i for i, part in enumerate(parts[:-1]) if _MODULE_VERSION.search(part)), None)
        if rooted is not None:
            wanted.add("/".join(parts[rooted + 1:]))
        wanted.add(path)  # as written, however deep
        if len(parts) < 2:
            # a bare file name (a native, Swift or browser frame's, ``shape._bare_frame``) names
            # a file at the root, else the one file of that name; any other suffix would be any file's
            continue
        for i in range(max(0, len(parts) - PATH_DEPTH), len(parts) - 1):
            wanted.add("/".join(parts[i:]))
    every = sorted(set().union(*suffixes_of.values()))
    found = store.facet_any(flt, "path", "path", every) if every else set()
    deeper: dict[str, str] = {}
    if suffixes is not None:
        unnamed = [p for p, wanted in suffixes_of.items() if not wanted & found]
        indexes = suffixes() if unnamed else ()
        for path in unnamed:
            hit = {d for index in indexes if (d := index.find(path) if "/" in path else index.named(path))}
            if len(hit) == 1:
                deeper[path] = hit.pop()
    return found | set(deeper.values()), deeper


class PathSuffixes:
    """One repository's indexed file paths by their trailing components (two or more):
    ``src/flask/app.py`` under ``flask/app.py`` and itself. Built once per indexed commit
    (``service``): a key per directory level of each path."""

    def __init__(self, paths: Iterable[str]) -> None:
        self._by_suffix: dict[str, list[str]] = {}
        self._by_name: dict[str, list[str]] = {}
        self._depth = 0  # components of the deepest indexed path
        for path in paths:
            parts = path.split("/")
            self._depth = max(self._depth, len(parts))
            for i in range(len(parts) - 1):
                self._by_suffix.setdefault("/".join(parts[i:]), []).append(path)
            self._by_name.setdefault(parts[-1], []).append(path)

    def named(self, name: str) -> str:
        """The one indexed path whose file name is ``name``; ``""`` when none or several
        are (redis's ``src/server.c`` for gdb's ``at server.c:4012``)."""
        found = self._by_name.get(name, [])
        return found[0] if len(found) == 1 else ""

    def find(self, path: str) -> str:
        """The one indexed path ending with ``path``'s longest suffix (two components or
        more) that any indexed path ends with; ``""`` when none does or several do. Only
        suffixes as deep as the deepest indexed path are tried: a pasted path of 90,000
        components built every one of its suffixes (28 s; a review)."""
        parts = path.split("/")[-self._depth:] if self._depth else []
        for i in range(len(parts) - 1):
            found = self._by_suffix.get("/".join(parts[i:]))
            if found:
                return found[0] if len(found) == 1 else ""
        return ""
