"""What kind of question a search query is, and what of it each retriever reads.

Agents send five shapes of query (``Shape``): a short natural-language question, one or
more identifiers, a string literal or config key, an error message or stack trace alone,
and a pasted issue (title + body: prose, code blocks, tracebacks, paths). ``analyze`` tells
them apart and extracts from long text what carries signal:

* the lexical side gets weighted terms (``Query.terms``): identifiers, paths, quoted
  strings, exception names and traceback frames weigh more than prose words; the issue's
  title more than its body; at most ``MAX_TERMS`` terms, so a 100,000-character issue costs
  what a paragraph does (the engine walks one posting list per term);
* the dense side gets ``Query.dense_text``: the query itself when it fits the model's
  window, else its most informative parts (title, error lines, code words) within
  ``DENSE_MAX_CHARS``;
* ``Query.evidence``: distinctive tokens read verbatim (identifiers, quoted strings,
  config keys) that the answer must show if the index holds them
  (``service``: "exact evidence");
* ``Query.roles``: the file roles the query asks for ("tests for X", "docs of Y"); empty
  when it asks for none, and then source ranks first.

Pure functions of the text: no store, no model.
"""

from __future__ import annotations

import bisect
import builtins
import functools
import itertools
import keyword
import math
import re
from collections import Counter
from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from coderecalld.embed import sparse
from coderecalld.query import frames as stack
from coderecalld.query.frames import Frame
from coderecalld.records import SparseVector


class Shape(StrEnum):
    """Query shapes, also a log field and a ``Features`` value."""

    TEXT = "text"              # a short natural-language question
    IDENTIFIER = "identifier"  # one or more code names: ``HTTPServer.serve``, ``parse_qsl(``
    LITERAL = "literal"        # a quoted string, a header or config key: ``"X-Request-Id"``
    TRACE = "trace"            # an error message or a stack trace alone
    ISSUE = "issue"            # a pasted issue: long text, several lines, prose and code


#: Lexical terms kept of a long query (by weight, then by first appearance). 64 keeps every
#: identifier of a typical issue (dev issues carry 5-40) while bounding the posting lists
#: the engine walks.
MAX_TERMS = 64
#: Characters of a long query the dense model is given: all-MiniLM-L6-v2 reads 256
#: word pieces, about 1,000 characters of English and fewer of code.
DENSE_MAX_CHARS = 1000
#: A query longer than this, or with ``ISSUE_MIN_LINES`` lines or more, is an issue (or a
#: trace) rather than a question.
ISSUE_MIN_CHARS = 200
#: An error line pasted alone (one or two lines, the last ``ErrorName: message``) up to this
#: many characters is a trace whatever its length, its message looked for verbatim: a
#: message ending in a value's repr (attrs' ``... Attribute in question: Attribute(name='y',
#: default=NOTHING, validator=None, ...)``, 400 characters) read as an issue, its raise
#: site 7th (a newcomer).
ERROR_LINE_MAX_CHARS = 2000
#: The head such a line must open with when longer than ``ISSUE_MIN_CHARS``: an exception's
#: name and its colon (``ValueError: ``, ``attr.exceptions.NotAnAttrsClassError: ``), not
#: prose about one ("TypeError when passing a dict subclass ...", "Error handling in ...").
_NAMED_ERROR = re.compile(r"[ \t]*+(?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception|Warning|Exit|Interrupt|Fault)"
                          r"(?:\[\w+\])?:[ \t]")
#: Characters of a long query the lexical side reads: its first ``READ_HEAD_CHARS`` and last
#: ``READ_TAIL_CHARS`` (a trace's last frames and its error line end a paste). Analysis
#: costs ~0.7 ms per 1,000 characters here (71 ms at 100,000), so this bounds it at ~150 ms
#: whatever is pasted; queries under the sum are read in full.
READ_HEAD_CHARS = 180_000
READ_TAIL_CHARS = 20_000
ISSUE_MIN_LINES = 3
#: Weight of a term by where it was read (a term read in several places takes the largest),
#: times ``1 + log(min(count, MAX_COUNT))``; the title's terms get ``TITLE_BOOST`` more.
WEIGHT_PROSE = 1.0
WEIGHT_CODE = 2.0     # an identifier, a code span's word, an exception name
WEIGHT_FRAME = 3.0    # a path or a function named by a traceback frame, a path in the text
TITLE_BOOST = 1.5
#: The least weight of a title's term in an issue whose text prints no frame of any
#: runtime (``frames.read``): a title's prose word weighs as its code word does
#: (``WEIGHT_CODE * TITLE_BOOST``). A long body's words, each read many times, drowned the
#: title: SQLAlchemy's title alone found two of its newcomer's issues' files 3rd and 1st,
#: the whole issues 31st and 25th. swe-lite-dev snapshot (``issue_lab.py --vs-set``):
#: locate file@5 78.7 -> 79.8, function@10 60.3 -> 64.1 (file@1 65.2 both); the 54 issue
#: sets (642 issues): see docs/retrieval.md, fifty-second session. A trace's frames keep
#: their lead over the title: floored there too, the title's words took a file's first
#: function from the frame that failed (``test_issue_frames``). ``TITLE_BOOST`` 3.0 for
#: every title read function@10 65.4 and the sets' file@1 +7, but their ``search``
#: file@5 and symbol@5 -3 each, and the frames lost their lead too.
UNTRACED_TITLE_WEIGHT = 3.0
#: A traceback's innermost frames weigh ``WEIGHT_FRAME``; those further out (a framework's
#: entry points, every trace's ``load``/``_do_load``/``get_response``) ``OUTER_FRAME_WEIGHT``:
#: five of marshmallow's ``schema.py`` pass-through frames put it above the
#: ``validate.py`` that raised (a newcomer; the trace alone was right).
INNER_FRAMES = 3
OUTER_FRAME_WEIGHT = 2.0
#: The words of an error line (``ValueError: could not convert``, Go's ``panic: invalid
#: node type``) weigh as code: the message is the raise site's string. swe-lite-dev lab
#: (89 issues, ``issue_lab.py --set ERROR_LINE_WEIGHT=W``) 0 / 2 / 3: search function@10
#: 51.3 / 53.8 / 53.8, locate file@5 82.0 / 82.0 / 80.9 (file@1 62.9 throughout).
ERROR_LINE_WEIGHT = 2.0
#: Whether a path is read from the text without its outer Python frames (``_without_outer_frames``):
#: an outer frame's path then weighs ``OUTER_FRAME_WEIGHT`` with its frame, not
#: ``WEIGHT_FRAME`` as a path written in the text. pip's cache traceback ran through
#: ``cli/``, ``commands/`` and ``resolution/resolvelib/factory.py`` frames, whose
#: ``resolution``, ``resolvelib``, ``factory``, ``cli`` and ``command`` weighed as the
#: innermost's ``jsondecodeerror``, and ``candidates.py``, calling ``factory.get_wheel_cache_entry``,
#: tied ``cache.py`` (a newcomer; its one-word prototype).
OUTER_FRAME_PATHS_OUTER = True
MAX_COUNT = 4
#: Whether a file named without a directory in an issue's text weighs its stem as prose,
#: not as a path (``WEIGHT_FRAME``) with its suffix: a Sphinx issue's ``conf.py`` and
#: ``index.rst`` made ``conf``, ``py``, ``index`` and ``rst`` its heaviest terms (a
#: newcomer; the bug's own words weighed 4.8 of their 6.3-7.2). A traceback's frames and
#: a path with a directory keep ``WEIGHT_FRAME``.
BARE_FILES_PROSE = True
#: Whether a fenced block's info string (```` ```python ````, ```` ```rst ````) is left out
#: of the terms: it named the language, and weighed as code.
FENCE_TAGS_DROPPED = True

# Line-start whitespace is ``[ \t]`` and possessive throughout: ``^\s*`` spanned the
# newlines of a paste's blank lines and backtracked over them at every line start
# (600 lines of spaces: 16 s). Stack frames of every runtime: ``frames``.
#: Go's receiver syntax in a qualified name: ``gin.(*Engine).ServeHTTP``, ``(*List[T]).Push``
#: -> ``gin.Engine.ServeHTTP``, ``List.Push`` (how the index names methods); not a call's
#: result (``f(x).y``).
_GO_RECEIVER = re.compile(r"(?<![\w)\]])\(\*?([^\W\d]\w*)(?:\[[^\]\n]{0,80}\])?\)\.(?=[^\W\d])")


def code_word(word: str) -> bool:
    """Whether ``word`` is one only code writes (``_CODE_WORD``: snake_case, camelCase, an
    acronym hump, a dotted or ``::`` path, a call's parenthesis)."""
    return bool(_CODE_WORD.search(word))


def dotted(name: str) -> str:
    """``name`` with its scope separators as the index's qualified names have them:
    ``Sinatra::Helpers#send_file`` -> ``Sinatra.Helpers.send_file`` (``::``, Ruby's
    instance-method ``#`` after a name); a JS private name keeps its ``#``
    (``Context.#newResponse``)."""
    return _RUBY_METHOD.sub(".", name.replace("::", "."))


_RUBY_METHOD = re.compile(r"(?<=[\w!?])#")


def go_receivers(text: str) -> str:
    """``text`` with Go's receiver syntax written as the index names methods
    (``gin.(*Engine).ServeHTTP`` -> ``gin.Engine.ServeHTTP``)."""
    return _GO_RECEIVER.sub(r"\1.", text) if ")." in text else text


#: An error line: an exception's name (group 1), maybe module-qualified, then its message;
#: a name without an exception's suffix when a module path qualifies it and a message
#: follows (``requests.exceptions.TooManyRedirects: Exceeded 30 redirects.``,
#: ``starlette.routing.NoMatchFound: ...``; the module's last segment ends in two
#: lowercase letters, so ``e.g. Flask: ...`` is prose).
_ERROR_LINE = re.compile(r"^[ \t]*+(?:[\w.]+\.)?(\w*(?:Error|Exception|Warning|Exit|Interrupt|Fault)|panic"
                         r"|(?<=[a-z_]{2}\.)[A-Z][a-z]\w*+(?=:[ \t]))\b:?.*$", re.MULTILINE)
_EXCEPTION = re.compile(r"\b\w*(?:Error|Exception|Warning)\b")
# A path starts where a run of path characters starts (``(?<![\w/.-])``, not at every
# ``-`` inside one: ``a-a-a-...`` scanned its rest from each, 1.5 s for 16,000 characters),
# and not after a colon: ``localhost:8080/static/app.js`` is a URL's route, no file.
_PATH = re.compile(r"(?<![\w/.:-])(?:[\w.-]++/)+[\w.-]+\.\w{1,6}\b"
                   r"|(?<![\w-])[\w-]++\.(?:py|pyi|js|ts|go|rs|java|rb|c|h|cc|cpp|toml|cfg|ini|yaml|yml|json|rst|md)\b")
#: A hex digest as a word of the text (a commit id, a checksum, an address): ``_noise``
#: drops it as a term, and without it the tokenizer's parts of it stayed terms (an md5's
#: ``bd``, ``adf``, ``ebd``, ``cfc``: a newcomer's scikit-learn issue). From a word's
#: start only: linear.
_HEX_WORD = re.compile(r"(?<!\w)(?:(?=[0-9a-fA-F]*\d)(?=[0-9a-fA-F]*[a-fA-F])[0-9a-fA-F]{7,}|0x[0-9a-fA-F]+)(?!\w)")
#: Whether a hex digest's parts are left out of a long query's terms (``_HEX_WORD``).
HEX_PARTS_DROPPED = True
_FENCE = re.compile(r"```.*?(?:```|\Z)", re.DOTALL)
#: A shell command line of a code block: a ``$``, ``%`` or ``>`` prompt, then the command
#: (group 1). black's issues ran ``$ black --preview --enable-unstable-feature
#: string_processing --diff c5.py``: its flags, read as code, put ``mode.py`` (where the
#: flags are declared) above the fixed file.
_SHELL_LINE = re.compile(r"^[ \t]*+(?:\$|%|>)[ \t]++(\S.*)$", re.MULTILINE)
# A code span: a run of backticks, closed by a run of the same length (CommonMark; RST's
# ``literal`` and :role:`target` alike). Group 2 is its text.
_TICKS = re.compile(r"(?<!`)(`+)(?!`)([^\n]+?)(?<!`)\1(?!`)")
# An RST reference's shown text and target (``title <target>``), and its ~ / ! prefix.
_QUOTED = re.compile(r"\"([^\"\n]{2,120})\"|'([^'\n]{2,120})'")
_WORD = re.compile(r"(?:[^\W\d]|\$(?=\w))[\w.:$-]*[\w(]|[^\W\d]")
# A word only code writes: snake_case, camelCase, an acronym hump, a dotted or :: path, a call.
_CODE_WORD = re.compile(r"[^\W\d_]_|_[^\W\d_]|[a-z][A-Z]|(?<![A-Z])[A-Z]{2,}+[a-z]|\w(?:\.|::)\w|\w\(")
#: (``$`` is a letter of JS's and PHP's names: zod's ``$ZodObject``, ``core.$constructor``)
_IDENTIFIER_LIST = re.compile(r"^\\?(?:[^\W\d]|\$(?=[^\W\d]))(?:[\w.:$]|[#\\](?=[^\W\d]))*[!?]?\(?\)?"
                              r"(?:[\s,]+\\?(?:[^\W\d]|\$(?=[^\W\d]))(?:[\w.:$]|[#\\](?=[^\W\d]))*[!?]?\(?\)?)*$")
_LITERAL = re.compile(r"^[\"'].+[\"']$|^[\w.]+(?:[-/][\w.]+)+$")
#: Words that say which role of file the query wants (``Query.roles``), read only in a
#: request for files (``_roles``). Not "pytest", "testing" or "fixture": a question about
#: a test framework's own code says them of the source it wants.
_ROLE_WORDS = {
    "test": re.compile(r"\b(?:tests?|unit ?tests?|test cases?|tested)\b", re.I),
    "docs": re.compile(r"\b(?:docs|documentation|documented|readme|tutorial|guide)\b", re.I),
    "example": re.compile(r"\b(?:examples?|samples?|demo)\b", re.I),
    "config": re.compile(r"\b(?:config(?:uration)? files?|settings files?|ci config)\b", re.I),
}
#: A role is asked by a role word among a query's first ``ROLE_EARLY_WORDS`` words when the
#: query has at most ``ROLE_REQUEST_WORDS`` words, opens as a request or with the role word
#: ("tests for X", "which tests cover X", "docs about deploying behind nginx"), or by a
#: short query's last word ("session cookie tests") or its "tested"/"documented".
ROLE_REQUEST_WORDS = 8
ROLE_EARLY_WORDS = 4
_PASSIVE_ROLE = frozenset({"tested", "documented"})
#: A role word that code makes asks for that code, not for files of the role: "where are
#: markdown docs generated for a typer app" listed docs pages only, typer's
#: ``get_docs_for_click`` absent (a newcomer); "how does cobra generate man docs".
_MADE_AFTER = re.compile(r"(?:\s+\w+)?\s+(?:generated|built|rendered|produced|created|made)\b", re.I)
_MADE_BEFORE = re.compile(r"\b(?:generat|build|render|produc|creat)\w*\s+(?:\w+\s+){0,2}$", re.I)
#: A config file the code finds or reads asks for that code ("where is the configuration
#: file (pytest.ini, pyproject.toml, tox.ini, setup.cfg) found and read": pytest's own
#: ``tox.ini`` and ``pyproject.toml`` came first, ``locate_config`` 6th; a newcomer): the
#: verb after the role words, past a parenthesis or one word.
#: ... not "which config file ..", which asks for the file, nor one read "by" another tool
#: ("which config file is read by codecov": a review).
_REQUEST_WHICH = re.compile(r"\W*which\b", re.I)
_READ_BY = re.compile(r"\s+by\b", re.I)
_READ_AFTER = re.compile(r"(?:\s*\([^()]{0,200}\))?(?:\s+\w+)?\s+(?:found|read|parsed|loaded|located|"
                         r"discovered|searched|looked up|detected|picked up)\b", re.I)
_REQUEST = re.compile(r"\W*(?:where|which|what|find|show|list|give)\b", re.I)
_ALNUM_RUN = re.compile(r"\w+")  # a word as _roles counts them (``_WORD`` is a code word)
_NOT_A_ROLE = re.compile(r"\bfor (?:example|instance)\b|\be\.g\.", re.I)
#: A role word the asker owns names their own files, not the repository's: "capture log
#: output in my unit tests" wants the library's testing helper (structlog's
#: ``capture_logs``: the whole page was its tests; a newcomer). Not "our" (a maintainer's
#: "our unit tests" are the repository's; a review) nor "your" (asked of the project).
#: Tests as what the code does something to, in a test framework's own questions: "how
#: are xfail tests reported", "where are deselected tests removed", "how are tests
#: reordered by fixture scope": the role word, then a participle of an action code takes
#: on tests. pytest's pages were its tests alone, ``pytest_runtest_makereport`` and
#: ``deselect_by_mark`` absent (a newcomer). A closed list: "tests related to X", "tests
#: named X", "tests marked slow" select tests, and so does any question opening with how
#: ("how do the tests check redirects"; a review of a wider first rule).
_DONE_TO = re.compile(r"\s+(?:reported|removed|reordered|collected|counted|executed|deselected|filtered|"
                      r"sorted|retried|rerun|grouped|run)\b", re.I)
_OWNED = re.compile(r"\bmy\s+(?:own\s+)?(?:\w+\s+)?$", re.I)
#: A singular "test" before a noun names a thing of the test tooling ("where does the test
#: client store cookies": Django's ``django.test.Client``; "the test runner", "a test
#: database"), not tests; unless the noun is a part of tests ("test files", "test suite").
_TEST_MODIFIER = re.compile(r"test\s+([^\W\d_]+)", re.I)
_TEST_PARTS = frozenset({"case", "cases", "file", "files", "suite", "suites", "function",
                         "functions", "method", "methods", "module", "modules", "class",
                         "classes", "code", "coverage"})
#: So does a singular "example", "sample" or "demo" before a noun ("where are the example
#: datasets downloaded": seaborn's ``load_dataset``, with example scripts first; a
#: newcomer), unless the noun is a part of examples ("example files", "sample code").
_EXAMPLE_MODIFIER = re.compile(r"(?:example|sample|demo)\s+([^\W\d_]+)", re.I)
_EXAMPLE_PARTS = frozenset({"file", "files", "code", "script", "scripts", "program", "programs",
                            "usage", "project", "projects", "app", "apps", "folder", "directory",
                            "notebook", "notebooks", "page", "pages", "gallery"})
#: A role -> the singular before a noun that names a thing, and the nouns that are parts
#: of the role's files (``_roles``).
_MODIFIERS = {"test": (_TEST_MODIFIER, _TEST_PARTS), "example": (_EXAMPLE_MODIFIER, _EXAMPLE_PARTS)}
#: English words that carry no topic in an issue's prose (beyond ``sparse.STOP_WORDS``):
#: kept out of a long query's capped term list so identifiers get the places.
PROSE_STOP = frozenset("""
about above after again against all also am any because been before being below between
both but could did doing down during each either else even ever every few first following
further get gets getting got had has have having he her here hers him his however if into
its itself just last let like may me might more most much must my no nor not now off once
one only other our out over own same see seems seem she should since so some such than
then there these they thing things think this those though through too try trying under
until up us use used uses very was we well were when where while who whom whose will would
yet you your ok thanks thank please hi hello example e g ie eg etc expected actual
result results output outputs work works working issue bug problem happen happens
""".split())


@dataclass(frozen=True, slots=True)
class Query:
    """One analysed query. ``terms``: (term, weight) best first, at most ``MAX_TERMS``;
    ``dense_text``: what the dense model embeds; ``evidence``: verbatim tokens the answer
    should show; ``roles``: file roles the query asks for (empty: none named); for an issue
    or a trace, ``names``: the code names it mentions (at most ``MAX_NAMES``, title first,
    then most mentioned), looked up as definitions, and ``paths``: the file paths it names
    (at most ``MAX_PATHS``, environment prefixes dropped), looked up as files; for a short
    question, ``compounds``: the identifiers its adjacent words spell (``run command`` ->
    ``run_command``, ``runcommand``), looked up as definitions' names, and ``symbols``: the
    symbol names its code spans and code words name (``Cache.get``, ``parse_expr``), looked
    up as definitions' qualified or plain names; for an issue or a trace, ``frames``: its
    traceback frames (Python, Go, V8) as (path, function) pairs, innermost first, at most
    ``MAX_FRAMES``, paths cleaned as ``paths`` are (the function ``""`` when the frame names
    none, or a pseudo-name such as ``<module>``); for a short text that reads as a message
    rather than a question, ``sentence``: the text, looked for verbatim (``_sentence``); for
    an issue or a trace, ``refused``: the callables its Python error lines say refused a
    call's arguments (``_REFUSED_CALL``; as printed, ``Class.method`` or ``f``), at most
    ``MAX_REFUSED``: the edit is most often the callable's signature, where no frame is;
    for a trace, ``raised``: the exception classes its error lines name (``jinja2.exceptions.
    TemplateSyntaxError: ...`` -> ``TemplateSyntaxError``; not a line asking a question,
    ``HTTPException: what does headers do?``), at most ``MAX_REFUSED``; for a short text,
    ``describes``: it says what to change or what is wrong instead of asking
    (``describes``: a release note, a commit subject, a bug report's title, a task); for a
    short text, ``callers``: the symbols of ``symbols`` whose callers it asks for ("what
    calls `merge_environment_settings`", "where is render_template used", "tests for
    ProxyFix": ``_callers``); for a short text, ``types``: it asks for a type ("which class
    ...", "the Router struct": ``asks_for_type``); for an issue, ``linked``: the (path,
    first line) of each code host link to lines of a file (``blob/main/x.py#L689-L697``:
    ``linked_lines``), at most ``MAX_LINKED``; for an issue or a trace, ``lacking``: the
    dotted modules Python says lack a name (``_MODULE_LACKS``), the files to hold it when
    the index has such a module (``anchors``: by its module name, not a path suffix)."""

    text: str
    shape: Shape
    terms: tuple[tuple[str, float], ...]
    dense_text: str
    evidence: tuple[str, ...]
    roles: frozenset[str]
    names: tuple[str, ...] = ()
    paths: tuple[str, ...] = ()
    compounds: tuple[str, ...] = ()
    title_names: int = 0
    symbols: tuple[str, ...] = ()
    frames: tuple[Frame, ...] = ()
    sentence: str = ""
    refused: tuple[str, ...] = ()
    raised: tuple[str, ...] = ()
    describes: bool = False
    callers: tuple[str, ...] = ()
    types: bool = False
    linked: tuple[tuple[str, int], ...] = ()
    lacking: tuple[str, ...] = ()

    @property
    def long(self) -> bool:
        """An issue or a trace: many terms, the lexical side leads (``service``)."""
        return self.shape in (Shape.ISSUE, Shape.TRACE)


#: A reStructuredText / Sphinx role before a code span (``:func:`histplot```,
#: ``:py:meth:`Plot.add```): markup, not words. Its name was a query term: "class" matched
#: the keyword of every class chunk, "func" a common parameter name (seaborn's release
#: notes, a held-out check: a note on ``:class:`objects.Plot``` answered three other
#: classes). Dropped, the code span kept.
_TEXT_ROLE = re.compile(r"(?<![\w:]):(?:[a-z]+:)?[a-z][a-z-]*:(?=`)")
DROP_TEXT_ROLES = True
#: Whether a description of a change (``Query.describes``) may ask for the docs and
#: example roles (False: only for tests). A held-out check (seaborn's and werkzeug's
#: commit subjects, 14 with a role word): "Fix documentation on distplot bins", "Remove
#: examples that illustrate JointGrid annotate" changed docstrings in the source, which the
#: docs role had put last.
DESCRIPTION_ROLES = False


#: Whether a text's Windows and old Mac line breaks (``\r\n``, ``\r``) are read as ``\n``
#: before anything else: every line rule here ends a line at ``\n`` (``$``, a line's
#: ``fullmatch``), and a ``\r`` left at each line's end kept some from matching (pylint's
#: module banners in 7080, the version lines of 7993's report). GitHub keeps an issue body
#: as typed in the browser, ``\r\n``: 81 of swe-lite-dev's 89 issues (none of the sets'
#: 666); 3 of the 89 read otherwise without it.
LINE_BREAKS_NORMALISED = True
_LINE_BREAK = re.compile(r"\r\n?")


def analyze(text: str) -> Query:
    """The ``Query`` of ``text`` (already stripped, non-empty). Never raises; reads at most
    ``READ_HEAD_CHARS + READ_TAIL_CHARS`` characters (``Query.text`` is what was read, its
    links replaced by what they say about code for a question, an issue or a trace:
    ``_delinked``)."""
    if LINE_BREAKS_NORMALISED and "\r" in text:
        text = _LINE_BREAK.sub("\n", text)
    if len(text) > READ_HEAD_CHARS + READ_TAIL_CHARS:
        text = text[:READ_HEAD_CHARS] + "\n" + text[-READ_TAIL_CHARS:]
    if DROP_TEXT_ROLES:
        text = _TEXT_ROLE.sub("", text).strip() or text
    text = go_receivers(text)
    original = text
    shape = detect(text)
    if shape in (Shape.TEXT, Shape.ISSUE, Shape.TRACE):  # a query that is a link is a literal
        text = _delinked(text).strip() or text
    names: tuple[str, ...] = ()
    paths: tuple[str, ...] = ()
    frames: tuple[Frame, ...] = ()
    refused: tuple[str, ...] = ()
    raised: tuple[str, ...] = ()
    title_names = 0
    # a question's words, its Latin abbreviations blanked (``_prose``): what is looked up
    prose = _prose(text) if shape is Shape.TEXT else text
    if shape in (Shape.TEXT, Shape.TRACE):
        # Python's own words about a built-in value (``'NoneType' object has no attribute``)
        # are no project's: the name it could not find is
        prose = _INTERPRETERS.sub(" ", prose)
        if ENGINE_MESSAGES_DROPPED:
            prose = _without_engine_messages(prose)
    if shape in (Shape.ISSUE, Shape.TRACE):
        body = _BANNER.sub("", text if shape is Shape.ISSUE else prose)
        body = _without_handed_back(body)
        if REPORT_BLOCKS_DROPPED:
            body = _without_report_blocks(_without_diagnostic_dumps(body))
        body = _without_diagnostic_tail(body)
        if PIPE_REPORTS_DROPPED:
            body = _without_pipe_reports(body)
        if DROP_REPORTS:
            body = _REPORT.sub("", body)
            if ALIGNED_REPORT_LINES:
                body = _REPORT_ALIGNED.sub("", body)
        if FORM_PLACEHOLDERS_DROPPED:
            body = _FORM_PLACEHOLDER.sub("", body)
        if FORM_PROMPTS_DROPPED:
            body = _without_form_prompts(body)
        if ENGINE_MESSAGES_DROPPED and shape is Shape.ISSUE:  # a trace's prose has them out
            body = _without_engine_messages(_INTERPRETERS.sub(" ", body))
        if TICKET_HEADER_DROPPED:
            body = _TICKET_HEADER.sub(lambda m: m.group(1) or "", body)
        # read once for terms and names (the texts both read differ in no code block)
        defined = own_definitions(body)
        own = _logged_calls(drop_environment(_STDLIB_FRAME.sub("", body)))
        printed = stack.read(own)
        terms = _long_terms(_drop_module_paths(drop_environment(body, versioned=True)), defined,
                            _stdlib_frames(body),
                            UNTRACED_TITLE_WEIGHT if shape is Shape.ISSUE and not printed else 0.0)
        dense = _dense_digest(body)
        errors = list(_ERROR_LINE.finditer(own))  # read once: a paste may be 200,000 characters
        (names, title_names), paths, frames = _names(own, errors, defined), _paths(own, printed), _frames(printed)
        refused = tuple(dict.fromkeys(m.group(1) for m in _REFUSED_CALL.finditer(own)))[:MAX_REFUSED]
        if shape is Shape.TRACE:
            raised = tuple(dict.fromkeys(m.group(1) for m in errors  # not a
                                         if m.group(1) != "panic"  # question about the class
                                         and not m.group().rstrip().endswith("?")))[:MAX_REFUSED]
            bare = _bare_error(text)
            if not raised and bare:
                raised = (bare.rpartition(".")[2],)
    else:
        terms = _short_terms(prose)
        dense = text
    compounds = _compounds(prose) if shape is Shape.TEXT else ()
    symbols = _symbols(prose) if shape is Shape.TEXT else ()
    logged = _logged(text) if shape is Shape.TEXT else text
    sentence = (_sentence(logged, asking=logged == text) or _asked_message(text) if shape is Shape.TEXT
                else _error_message(text) if shape is Shape.TRACE and len(text) <= ERROR_LINE_MAX_CHARS
                else _quoted_words(text) if shape is Shape.LITERAL else "")
    python_said = bool(_INTERPRETERS.search(sentence))
    if python_said:
        sentence = ""  # no code of the project holds it: its words ask
    if sentence and sentence == logged != text:
        # a log line's or a program's prefix is no part of what the code holds: its words
        # (``jq``, ``error``, ``stdin``) drew jq's ``jq_exit`` macro first
        terms = _short_terms(logged)
        dense = logged
    if shape is Shape.TEXT and not sentence:
        terms = _abbreviated(terms, http_statuses(text))  # a message's words are the code's own
    described = shape is Shape.TEXT and describes(text)
    # a change's description names what it changes: documentation and examples are often
    # the source's own docstrings ("Fix documentation on distplot bins"), tests are tests
    roles = _roles(text, shape, described)
    if described and not DESCRIPTION_ROLES:
        roles = roles & {"test"}
    evidence = _evidence(prose, shape, sentence)
    if shape is Shape.TRACE and (sentence or python_said) and raised:
        # an error line's message is its evidence: the raised class's own name drew its
        # two-line definition first (requests' ``MissingSchema: Invalid URL ..``; the
        # class is where it is defined, ``RAISED_CLASS_PENALTY``)
        evidence = tuple(e for e in evidence if e.rpartition(".")[2] not in raised)
    return Query(text, shape, terms, dense, evidence, roles,
                 names, paths, compounds, title_names, symbols, frames, sentence, refused, raised,
                 described,
                 _callers(prose, symbols, frozenset() if described else roles),
                 shape is Shape.TEXT and asks_for_type(prose),
                 linked_lines(original) if shape is Shape.ISSUE else (),
                 tuple(dict.fromkeys(m.group(1) for m in _MODULE_LACKS.finditer(text)))[:MAX_PATHS]
                 if shape in (Shape.ISSUE, Shape.TRACE) else ())


#: A question asking for a type: "which class parses ...", "what exception class is
#: raised", "what struct holds ...", "where is the Config class defined". Not a type word
#: alone: "how does a class based view
#: handle HEAD", "where are httpcore errors translated into httpx exception classes" and
#: "match user input against enum members" ask for the code that does it.
_TYPE_WORDS = re.compile(r"(?i)\b(?:which|what)\s+(?:\w+\s+)?(?:class(?:es)?|structs?|interfaces?|"
                         r"enums?|traits?|protocols?|types?)\b"
                         r"|\b(?:the|an?)\s+\w+\s+(?:class|struct|enum|trait)\b(?!\s+based)")


def asks_for_type(text: str) -> bool:
    """Whether a short question asks for a type (``_TYPE_WORDS``: "which class", "what
    exception class", "which struct", "what type", "the Config class", "the Router
    struct"); ``service.TYPE_PENALTY_TEXT`` then spares type chunks."""
    return _TYPE_WORDS.search(text) is not None


#: A symbol as a question writes it: in backticks or not, a call's ``()`` after it.
_ASKED_NAME = r"`?([A-Za-z_$][\w$.:]*[\w$])(?:\(\))?`?"
#: "what / who / which function calls X", "callers / call sites / usages of X".
_CALLS_OF = re.compile(r"(?i)\b(?:(?:what|who|which(?:\s+(?:of\s+the\s+|of\s+these\s+)?(?:functions?|"
                       r"methods?|code|places?|files?|classes|modules?|tests?|callers?|parts?)))"
                       r"\s+(?:calls|invokes|uses|call|invoke|use)"
                       r"|(?:callers|call\s+sites|usages|uses|invocations|references)"
                       r"\s+(?:of|to))\s+(?:the\s+)?(?:(?:function|method|class)\s+)?" + _ASKED_NAME)
#: "where is X called / used / invoked", "where does X get called", "where is the url_for
#: function called"; not "where are after_request functions called" (a plural), which asks
#: where the functions registered so run, not for the decorator's uses (flask: four tests
#: applying ``@app.after_request`` led the page, ``Flask.process_response`` 8th; a newcomer).
_CALLED = re.compile(r"(?i)\bwhere\s+(?:is|are|does|do)\s+(?:the\s+)?(?:(?:function|method)\s+)?"
                     + _ASKED_NAME + r"\s+(?:(?!(?:functions|funcs|handlers|hooks|callbacks|callables"
                     r"|listeners|receivers|decorators)\b)\w+\s+)?(?:called|invoked|used)\b")
#: "where is X raised / thrown", "what raises X", "which function throws X", "where does
#: the client raise X", "when is X raised": the raise sites are the exception class's
#: callers (its constructions), as ``find_callers`` answers them. requests' "where does
#: requests raise MissingSchema" answered the class, ``PreparedRequest.prepare_url``
#: raising it 8th (a newcomer).
_RAISE_SITES = re.compile(r"(?i)\b(?:(?:where|when)\s+(?:is|are|does|do|gets?)\s+(?:the\s+|an?\s+)?"
                          r"(?:(?:exception|error)\s+)?" + _ASKED_NAME + r"\s+(?:\w+\s+)?(?:raised|thrown)\b"
                          r"|(?:what|who|which(?:\s+(?:functions?|methods?|code|places?|lines?))?)\s+"
                          r"(?:raises|throws|raise|throw)\s+(?:an?\s+|the\s+)?" + _ASKED_NAME
                          + r"|where\s+(?:does|do)\s+(?:\w+\s+){0,3}?(?:raise|throw)\s+(?:an?\s+|the\s+)?"
                          + _ASKED_NAME + ")")


def _callers(text: str, symbols: tuple[str, ...], roles: frozenset[str]) -> tuple[str, ...]:
    """The symbols of ``symbols`` (code spans and code words of a short question) whose
    callers ``text`` asks for (``_CALLS_OF``, ``_CALLED``; an exception's raise sites:
    ``_RAISE_SITES``), in order, and a plain lowercase
    word written where the pattern wants a name, last in the question ("what calls settle",
    "where is settle called": a newcomer on axios
    got the definition and its namesakes, none of the four call sites, where "settle()"
    got them), neither a stop word nor a keyword (``_NOT_NAMES``): its callers are looked
    up by name, none when nothing is defined so ("what uses the cache" in a repo without a
    ``cache``: the page is left as it is). A question asking for tests
    (``roles``; not a text describing a change, "fix a flaky test of `X`") asks for its
    first symbol's callers among the tests: "where are the tests
    for the ProxyFix middleware" (werkzeug: ``LocalProxy``'s tests came first by their
    words, ``test_proxy_fix.py`` sixth)."""
    matches = [m for pattern in (_CALLS_OF, _CALLED, _RAISE_SITES) for m in pattern.finditer(text)]
    asked = [dotted(next(g for g in m.groups() if g).removesuffix("()")) for m in matches]
    # a plain word only as the question's last ("what calls the server when a request
    # times out" asks about no function named ``server``)
    plain = {n for n, m in zip(asked, matches) if _PLAIN_NAME.fullmatch(n) and n not in _NOT_NAMES
             and not text[m.end():].strip(" \t\n?.!")}
    if "test" in roles:
        asked += symbols[:1]
    return tuple(dict.fromkeys(n for n in asked if n in symbols or n in plain))


#: A plain word a callers question may name (``_callers``): lowercase, 3 or more characters.
_PLAIN_NAME = re.compile(r"[a-z_][a-z0-9_]{2,}")


#: Latin abbreviations of English prose ("e.g.", "i.e.", "cf.", "viz.", "etc."): no code
#: name, yet ``e.g`` read as a dotted symbol and a verbatim token of a question ("how does
#: the lexer detect unbalanced brackets, e.g. a missing parenthesis"), its ``e`` and ``g``
#: as terms that every ``except ... as e`` holds.
_LATIN = re.compile(r"(?<![\w.])(?:e\.\s?g|i\.\s?e|cf|viz|etc)\.?(?![\w.])", re.I)


def _prose(text: str) -> str:
    """``text`` with its Latin abbreviations (``_LATIN``) blanked."""
    return _LATIN.sub(" ", text)


#: First words of a text that says what to change (imperative or past, as release notes,
#: commit subjects and task statements open: Keep a Changelog's Added / Changed /
#: Deprecated / Removed / Fixed and their kin), after an optional component prefix
#: (``autodoc:``, ``[linkcheck]``). "Fix rendering of annotated inherited members",
#: "Added the ``linkcheck_allow_unauthorized`` configuration option". No third-person
#: forms ("Returns the default value of an option", "Raises an exception when ...": a
#: docstring's words, searched for), no "no" or "now" ("No such command": a message).
CHANGE_VERBS = frozenset("""
fix fixed add added remove removed support supported allow allowed use improve improved
restore restored disable disabled enable enabled deprecate deprecated drop dropped rename
renamed change changed make made avoid avoided ensure ensured prevent prevented handle
handled respect respected introduce introduced update updated replace replaced revert
reverted implemented raise raised emit emitted refactor refactored correct corrected apply
applied defer deferred print printed return returned display displayed accept accepted
reject rejected warn warned pass passed preserve preserved always never""".split())
#: A verb of ``CHANGE_VERBS`` used as a noun: "Use of the trust_env setting", "Support for
#: HTTP/2", "Return value of ...", "Change in ..." name a topic, not a change.
_NOMINAL = re.compile(r"[A-Za-z']+[ \t]+(?:of|for|in|value|values|type|types)\b", re.I)
#: A clause that states behaviour, right or wrong, anywhere in a text that does not ask: a
#: bug report's title ("Latex printer does not support full inverse trig function names",
#: "autowrap with cython backend fails when ..."), a note's ("pytest should no longer
#: crash on ...", "The manpage builder now adds ..."); not in a relative clause, which
#: says what the code sought does ("Code that should run when the application shuts
#: down", "Options that are not shown in the help page": a newcomer's searches); nor
#: "silently", "ignored", "breaks", "gives": "Test function marked async def is silently
#: skipped", "Test module with syntax error gives INTERNALERROR" (pytest issue titles).
_BEHAVIOUR = re.compile(r"(?i)(?<!\bthat )(?<!\bwhich )(?<!\bwho )\b(?:does not|doesn't|do not|"
                        r"don't|did not|didn't|is not|isn't|are not|aren't|was not|wasn't|cannot|"
                        r"can't|no longer|fails?|failed|failing|crash(?:es|ed)?|should|"
                        r"incorrect(?:ly)?|wrong(?:ly)?|instead of|now(?!,)|silently|unexpected(?:ly)?|"
                        r"ignored|ignores|broken|breaks|gives)\b")
#: First words that make a lower-case text a description of a change all the same: a
#: commit subject ("fix profiler example import", 13 of werkzeug's 100 sampled subjects
#: open with "fix"), never a search box's request (none of CoSQA dev's 500 queries opens
#: with one; "remove", "get", "check", "add" do). werkzeug's subjects, locate file@1/5/10
#: 63/75/88 -> 63/76/89, nothing else measured moved (docs/retrieval.md "Descriptions of a
#: change").
REPAIR_WORDS = frozenset({"fix", "fixes", "fixed"})
#: Off: only the capital-or-full-stop gate (lab comparisons: ``issue_lab.py --vs-set``).
LOWER_CASE_REPAIRS = True
#: A component prefix before a note's verb: ``autodoc: ``, ``HTML Search: ``, ``[pylint] ``,
#: after any list punctuation (``, Add ...``, ``* Fix ...``).
_COMPONENT = re.compile(r"[\s,;:*-]*+(?:\[[^\]\n]{1,40}\]\s*|[A-Za-z][\w .\-/]{0,30}:\s+)?")
_FIRST_WORD = re.compile(r"[A-Za-z']+")


def describes(text: str) -> bool:
    """Whether a short text says what to change or what is wrong rather than asking: it
    opens, after an optional component prefix (``_COMPONENT``), with a verb of change
    (``CHANGE_VERBS``, not used as a noun: ``_NOMINAL``), or states behaviour
    (``_BEHAVIOUR``); it is written as a sentence or a note (a capital first letter, a
    final full stop, a code span or a component prefix: none of CoSQA's 500 lower-case
    search-box requests, "remove zeros from a list in python", reads so) or opens with a
    repair word (``REPAIR_WORDS``: "fix profiler example import"); and it is no
    question (its first word is no question or request word, ``_ASKING``, and it does not
    end with "?"). Such a text names what the code does in the code's own words, and the
    dense model ranks it worse than its words alone (``service.EMBED_DESCRIPTIONS``): on
    104 of sphinx's release notes since 2024 and 150 of pytest's (one index each with the
    model, ``history_set.py --snapshot-at``, changelogs left out with ``issue_lab.py
    --drop``), locate's file@1 was 56.7 and 62.0 dense-led, 61.5 and 71.3 as read here
    (function@10 46.7 -> 56.5, 52.1 -> 59.7); on commit subjects of click (191) and httpx
    (119), 62.8 -> 66.0 and 50.4 -> 52.9; none of 169 written queries
    (``tests/bench/questions``) nor of CoSQA's 500 reads so but one error message, 2 of a
    newcomer's 27 searches (docs/retrieval.md "Descriptions of a change")."""
    stripped = text.strip()
    first = _FIRST_WORD.search(stripped)
    if first is None or stripped.endswith("?") or first.group().lower() in _ASKING:
        return False
    component = _COMPONENT.match(stripped)
    head = stripped[component.end():]
    verb = _FIRST_WORD.match(head)
    repair = LOWER_CASE_REPAIRS and verb is not None and verb.group().lower() in REPAIR_WORDS
    if not (stripped[0].isupper() or stripped.endswith((".", "!")) or "`" in stripped
            or component.group().strip(" ,;*-") or repair):
        return False  # a search box's request: "remove zeros from a list in python"
    return (bool(verb and verb.group().lower() in CHANGE_VERBS and not _NOMINAL.match(head))
            or bool(_BEHAVIOUR.search(stripped)))


#: Shortest repository name ``without_project`` drops from a question.
PROJECT_MIN_CHARS = 4
#: Words before a noun that make the repository's name the thing asked about.
_DETERMINERS = frozenset("the a an its our my your each this that every".split())


def without_frames(asked: Query, paths: Collection[str]) -> Query:
    """``asked`` (an issue or a trace) re-read without its Python frames whose cleaned path
    is one of ``paths`` (another package's files, ``anchors.foreign_frames``) and the source
    line printed under each: a library's function name weighs as a frame's
    (``WEIGHT_FRAME``) and drew the project's namesake (seaborn's ``lineplot(..,
    dashes=..)`` issue through matplotlib's ``lines.py .. in _get_dash_pattern`` located
    ``LineStyle._get_dash_pattern``'s file first; a newcomer). Unchanged when none is
    printed, or when the rest reads as another shape."""
    if asked.shape not in (Shape.ISSUE, Shape.TRACE) or not paths:
        return asked
    wanted = set(paths)

    def drop(m: re.Match[str]) -> str:
        return "" if _clean_path(drop_environment(m.group(1))) in wanted else m.group()

    text = _PYTHON_FRAME_LINES.sub(drop, asked.text)
    if text == asked.text:
        return asked
    again = analyze(text)
    return again if again.shape is asked.shape else asked


#: A Python traceback's frame line and the source line printed under it (indented deeper).
_PYTHON_FRAME_LINES = re.compile(r"^[ \t]*File \"([^\"\n]{1,400})\", line \d+[^\n]*\n(?:[ \t]+(?!File \")\S[^\n]*\n?)?",
                                 re.MULTILINE)


def without_project(asked: Query, names: Collection[str]) -> Query:
    """``asked`` without the repository's own name where a question says it in lower case
    (``how does starlette run a sync endpoint``, ``cobra's help command``), re-analysed:
    within its repository the project's name says nothing about which code is meant, and
    on the dense side it drew the chunks that name the project (starlette's ``Starlette``
    class and its ``starlette.*`` module chunks, cobra's module chunks: every file is
    ``package cobra``). ``names``: the one repository in scope (its configured name, its
    URL's last part), each of at least ``PROJECT_MIN_CHARS`` characters. A capitalised
    name is kept (``construct a Flask app``: the class), as is one in code (``cobra.Command``),
    one after an article or a determiner (``how is the router configured`` in a repository
    named ``router``: the thing asked about), one in a message (``Query.sentence``), and
    every one where fewer than two words besides stop words would be left (``what is
    starlette``) or the rest is no longer a question."""
    wanted = sorted({n.lower() for n in names if len(n) >= PROJECT_MIN_CHARS}, key=len, reverse=True)
    if asked.shape is Shape.ISSUE and wanted and PROJECT_NAME_ISSUES:
        return _project_unnamed(asked, frozenset(wanted))
    if asked.shape is not Shape.TEXT or not wanted or asked.sentence:
        return asked  # a pasted message is matched as written
    said = re.compile(r"(?<![\w.`'\"/@-])(?:" + "|".join(map(re.escape, wanted)) + r")(?:'s)?(?![\w`'\"/.-]|\.\w)")

    def drop(m: re.Match[str]) -> str:
        before = m.string[:m.start()].split()
        return m.group() if before and before[-1].lower() in _DETERMINERS else " "

    text = " ".join(said.sub(drop, asked.text).split())
    if text == asked.text or len([t for t, _ in _short_terms(text) if t not in _ASKING]) < 2:
        return asked  # "what is starlette": the name is all the question asks about
    fewer = analyze(text)
    return fewer if fewer.shape is Shape.TEXT else asked


#: Whether an issue's names leave out the repository's own name where the issue writes it
#: only as prose (``_project_unnamed``).
PROJECT_NAME_ISSUES = True


def _project_unnamed(asked: Query, wanted: frozenset[str]) -> Query:
    """``asked`` (an issue) without the names equal to one of ``wanted`` (the repository's
    names, lower case) that its text never writes as a class: capitalised in a code block
    or span, called (``Flask(__name__)``), constructed (``new Gson()``) or as an attribute
    (``flask.Flask``). A lower-case spelling is the package (``sphinx.ext.autodoc``,
    ``import sphinx``, ``sphinx-build``), a capitalised one in prose the product: every
    Sphinx issue says both, and the name looked up as a definition (case-insensitive)
    lifted the class ``Sphinx`` of ``sphinx/application.py`` into 11 of a newcomer's 12
    answers, 2nd in five."""
    text = asked.text
    code = " ".join([*(m.group() for m in _FENCE.finditer(text)), *code_spans(_FENCE.sub(" ", text))])

    def as_class(name: str) -> bool:
        word = re.compile(rf"(?i)(?<![\w-]){re.escape(name)}(?![\w-])")
        if any(m.group()[0].isupper() for m in word.finditer(code)):
            return True
        return any(m.group()[0].isupper() and (text[m.end():m.end() + 1] == "("
                                                or text[max(m.start() - 1, 0):m.start()] == "."
                                                or text[max(m.start() - 4, 0):m.start()] == "new ")
                   for m in word.finditer(text))

    dropped = [i for i, n in enumerate(asked.names) if n.lower() in wanted and not as_class(n)]
    if not dropped:
        return asked
    names = tuple(n for i, n in enumerate(asked.names) if i not in dropped)
    return replace(asked, names=names,
                   title_names=asked.title_names - sum(1 for i in dropped if i < asked.title_names))


def _short_terms(text: str) -> tuple[tuple[str, float], ...]:
    """A short query's lexical terms: its tokens less ``sparse.QUERY_STOP_WORDS``, each once,
    weight 1."""
    return tuple((t, 1.0) for t in dict.fromkeys(
        t for t in sparse.tokens(text) if t not in sparse.QUERY_STOP_WORDS))


#: Words and the abbreviations code writes for them (``parse_converter_args`` for "parse
#: converter arguments", ``st_mtime`` for "modification time"): a question's word adds its
#: abbreviations as terms, and an abbreviation its words (``_abbreviated``). Only
#: abbreviations of two letters or more that name nothing else in code.
ABBREVIATIONS = {
    "argument": ("arg",), "arguments": ("args",), "parameter": ("param",), "parameters": ("params",),
    "configuration": ("config", "cfg"), "directory": ("dir",), "directories": ("dirs",),
    "environment": ("env",), "initialize": ("init",), "initialise": ("init",), "initialization": ("init",),
    "authentication": ("auth",), "authenticate": ("auth",), "authorization": ("auth",),
    "message": ("msg",), "messages": ("msgs",), "number": ("num",), "reference": ("ref",),
    "references": ("refs",), "attribute": ("attr",), "attributes": ("attrs",), "temporary": ("tmp", "temp"),
    "request": ("req",), "response": ("resp",), "database": ("db",), "connection": ("conn",),
    "connections": ("conns",), "string": ("str",), "integer": ("int",), "boolean": ("bool",),
    "function": ("func", "fn"), "functions": ("funcs", "fns"), "previous": ("prev",), "length": ("len",),
    "index": ("idx",), "element": ("elem",), "elements": ("elems",), "character": ("char",),
    "characters": ("chars",), "source": ("src",), "destination": ("dest", "dst"), "buffer": ("buf",),
    "address": ("addr",), "document": ("doc",), "documents": ("docs",), "information": ("info",),
    "maximum": ("max",), "minimum": ("min",), "position": ("pos",), "command": ("cmd",),
    "commands": ("cmds",), "package": ("pkg",), "library": ("lib",), "application": ("app",),
    "context": ("ctx",), "callback": ("cb",), "object": ("obj",), "error": ("err",), "errors": ("errs",),
    "exception": ("exc",), "value": ("val",), "values": ("vals",), "variable": ("var",),
    "variables": ("vars",), "current": ("cur",), "dictionary": ("dict",), "sequence": ("seq",),
    "specification": ("spec",), "statistics": ("stats",), "synchronize": ("sync",),
    "synchronous": ("sync",), "asynchronous": ("async",), "execute": ("exec",), "expression": ("expr",),
    "iterator": ("iter",), "miscellaneous": ("misc",), "certificate": ("cert",), "certificates": ("certs",),
    "column": ("col",), "columns": ("cols",), "coordinate": ("coord",), "coordinates": ("coords",),
    "description": ("desc",), "format": ("fmt",), "frequency": ("freq",), "identifier": ("id",),
    "image": ("img",), "language": ("lang",), "manager": ("mgr",), "memory": ("mem",),
    "operation": ("op",), "operations": ("ops",), "option": ("opt",), "options": ("opts",),
    "original": ("orig",), "password": ("passwd", "pwd"), "pointer": ("ptr",), "process": ("proc",),
    "property": ("prop",), "properties": ("props",), "receive": ("recv",), "repository": ("repo",),
    "repositories": ("repos",), "result": ("res",), "separator": ("sep",), "signature": ("sig",),
    "standard": ("std",), "statement": ("stmt",), "system": ("sys",), "template": ("tmpl", "tpl"),
    "timestamp": ("ts",), "token": ("tok",), "transaction": ("txn",), "utility": ("util",),
    "utilities": ("utils",), "version": ("ver",), "window": ("win",), "milliseconds": ("ms",),
    "seconds": ("secs",), "regular": ("re",), "allocate": ("alloc",), "allocation": ("alloc",),
}
#: Phrases code writes as one abbreviation ("modification time": ``st_mtime``).
ABBREVIATED_PHRASES = {("modification", "time"): "mtime", ("modification", "times"): "mtime",
                       ("file", "descriptor"): "fd", ("regular", "expression"): "regex",
                       ("regular", "expressions"): "regex"}
#: An abbreviation -> the words it stands for (``ABBREVIATIONS`` read backwards).
_EXPANSIONS = {short: tuple(word for word, shorts in ABBREVIATIONS.items() if short in shorts)
               for shorts in ABBREVIATIONS.values() for short in shorts}
#: The weight of a term ``_abbreviated`` adds (the query's own words weigh 1).
ABBREVIATION_WEIGHT = 0.5
#: HTTP status codes (RFC 9110 section 15) by their reason phrases, as code names them:
#: joined (Java's, JS's ``NotFound``, Python's ``HTTPStatus.NOT_FOUND`` and Go's
#: ``http.StatusNotFound`` as the index's tokens read them: ``notfound``, ``not_found``,
#: ``statusnotfound``). A question's status code adds them (``http_statuses``, ``_abbreviated``): gin's "how are
#: static files served and what happens on a 404" missed ``createStaticHandler``, which
#: writes ``http.StatusNotFound`` (a newcomer).
HTTP_REASONS = {
    "200": "ok", "201": "created", "202": "accepted", "204": "no content", "301": "moved permanently",
    "302": "found", "303": "see other", "304": "not modified", "307": "temporary redirect",
    "308": "permanent redirect", "400": "bad request", "401": "unauthorized", "403": "forbidden",
    "404": "not found", "405": "method not allowed", "406": "not acceptable", "408": "request timeout",
    "409": "conflict", "410": "gone", "411": "length required", "412": "precondition failed",
    "413": "request entity too large", "414": "request uri too long", "415": "unsupported media type",
    "416": "requested range not satisfiable", "417": "expectation failed", "422": "unprocessable entity",
    "428": "precondition required", "429": "too many requests", "431": "request header fields too large",
    "500": "internal server error", "501": "not implemented", "502": "bad gateway",
    "503": "service unavailable", "504": "gateway timeout", "505": "http version not supported",
}
#: A status code as a question writes one: after an article, a verb of answering or
#: "status"/"code"/"http" (``a 404 returned``, ``returns 405``, ``status 500``), or before a
#: word of a response or the end of its clause (``404 error``, ``on 404?``); never a count
#: or a position (``after 500 entries``, ``line 404``, ``port 8080``, ``the 500 entries``:
#: a plural after it; a review).
_NUMBER = re.compile(r"(?<![\w.:/-])([1-5]\d\d)(?![\w:/-]|\.\d)")
_STATUS_BEFORE = frozenset("a an the http https status code codes return returns returned respond responds "
                           "responded answer answers answered with send sends sent get gets got on as raise "
                           "raises throw throws".split())
_STATUS_AFTER = frozenset("error errors response responses status page pages code codes not returned is was "
                          "means".split())
_COUNT_BEFORE = frozenset("line lines port ports max maximum min minimum after over under than about every "
                          "first last top".split())


def http_statuses(text: str) -> tuple[str, ...]:
    """The HTTP status codes ``text`` (a question) writes as statuses (``_STATUS_BEFORE``,
    ``_STATUS_AFTER``, not ``_COUNT_BEFORE`` nor before a plural) that ``HTTP_REASONS``
    names, each once."""
    found: dict[str, None] = {}
    for m in _NUMBER.finditer(text):
        if m.group(1) not in HTTP_REASONS:
            continue
        before = text[:m.start()].split()[-1:] or [""]
        after = text[m.end():].split()[:1] or [""]
        word_before, word_after = before[0].lower(), after[0].lower().strip(".,;:!?)")
        plural = word_after.endswith("s") and word_after not in _STATUS_AFTER
        if word_before in _COUNT_BEFORE or plural:
            continue
        if word_before in _STATUS_BEFORE or word_after in _STATUS_AFTER or not word_after:
            found[m.group(1)] = None
    return tuple(found)


#: ``HTTP_REASONS``' code names by code: joined, snake case, Go's ``Status`` form; of a
#: reason of two words or more (``ok``, ``gone`` alone are words of any text).
_HTTP_NAMES = {code: ("".join(reason.split()), "_".join(reason.split()), "status" + "".join(reason.split()))
               for code, reason in HTTP_REASONS.items() if " " in reason}


def _abbreviated(terms: tuple[tuple[str, float], ...], statuses: Collection[str] = ()) -> tuple[tuple[str, float], ...]:
    """``terms`` (a question's) with the abbreviations of its words and the words of its
    abbreviations (``ABBREVIATIONS``, ``ABBREVIATED_PHRASES``) added at
    ``ABBREVIATION_WEIGHT``, each once, after the query's own (and the code names of the
    HTTP status codes ``statuses``, ``_HTTP_NAMES``): werkzeug's "how are converter
    arguments parsed" missed ``parse_converter_args``, "detect that a file changed by polling
    modification times" ``StatReloaderLoop.run_step`` reading ``st_mtime`` (a newcomer)."""
    if ABBREVIATION_WEIGHT <= 0:
        return terms
    have = {t for t, _ in terms}
    words = [t for t, _ in terms]
    added: dict[str, None] = {}
    for word in words:
        for extra in (*ABBREVIATIONS.get(word, ()), *_EXPANSIONS.get(word, ())):
            added.setdefault(extra)
    for code in statuses:
        for extra in _HTTP_NAMES.get(code, ()):
            added.setdefault(extra)
    for first, second in zip(words, words[1:]):
        phrase = ABBREVIATED_PHRASES.get((first, second))
        if phrase:
            added.setdefault(phrase)
    return terms + tuple((t, ABBREVIATION_WEIGHT) for t in added if t not in have
                         and t not in sparse.QUERY_STOP_WORDS)


#: A short text is a message (an error string, a log line pasted without quotes) when it
#: has ``SENTENCE_MIN_WORDS`` to ``SENTENCE_MAX_WORDS`` words, no question mark, no code
#: span or quote and does not open as a question or a request (``_ASKING``): "the accepted
#: formats are not offered by the server" (gin), "There is no suitable adapter to dispatch
#: the request" (axios) lost to the dense side's neighbours in hybrid, while the one chunk
#: holding the words was first by the sparse side alone.
SENTENCE_MIN_WORDS = 4
SENTENCE_MAX_WORDS = 24
#: Words of a text known to be a message (after an exception's name or a log prefix:
#: ``RuntimeError: No response returned.``): fewer than a bare text's, as nothing else
#: reads so (starlette's three-word message led with ``WebSocket.send``, a newcomer).
NAMED_MESSAGE_MIN_WORDS = 2
_ASKING = frozenset("""
how what where which why who whom whose when does do did is are was were can could should
would will may might shall find show list give explain search locate tell describe get
implement implementation example examples""".split())


#: Words before a quoted or code-spanned value that make it an example of what the code is
#: given, not a name it holds ("an unsupported frame name like "fortnight"", "an unknown
#: option such as `--colour`"): its absence from the index is what the question is about.
_EXAMPLE_BEFORE = re.compile(
    r"(?:\blike|\bsuch\s+as|\be\.g\.,?|\bfor\s+example,?|\bsay,?|\b(?:unsupported|unknown|invalid|bad|wrong|"
    r"unrecogni[sz]ed|non-?existent|illegal|malformed|misspelt|misspelled|mistyped|bogus)"
    r"(?:\s+[\w-]+){0,3}?)\s*$", re.IGNORECASE)
_EXAMPLE_VALUE = re.compile(r"\"([^\"\n]{1,120})\"|'([^'\n]{1,120})'|`([^`\n]{1,120})`")
#: Characters before a value read for ``_EXAMPLE_BEFORE``.
EXAMPLE_LOOKBEHIND = 80


def example_values(text: str) -> frozenset[str]:
    """The quoted or code-spanned values ``text`` gives as examples of input (after "like",
    "such as", "e.g.", "for example", "say", or within three words after "unsupported",
    "unknown", "invalid", "bad", "wrong", ..: ``_EXAMPLE_BEFORE``), as written
    between the quotes; a value no indexed chunk holds is then no absent name (arrow's "what
    happens when an unsupported frame name like "fortnight" is passed" was flagged low,
    "no indexed chunk holds 'fortnight'", though its first hits answered it; a newcomer)."""
    out = set()
    for m in _EXAMPLE_VALUE.finditer(text):
        if _EXAMPLE_BEFORE.search(text[max(0, m.start() - EXAMPLE_LOOKBEHIND):m.start()]):
            out.add(m.group(1) or m.group(2) or m.group(3))
    return frozenset(out)


def _quoted_words(text: str) -> str:
    """A literal query of several words in quotes (``"Unknown field."``), without them:
    looked for verbatim as a message is (``Query.sentence``); its words alone were taken
    for it (every chunk saying "unknown" and "field" held marshmallow's message, which
    ``Schema``'s error table holds, 39th by the words; a newcomer). ``""`` otherwise."""
    quoted = _QUOTED.fullmatch(text.strip())
    inner = (quoted.group(1) or quoted.group(2)) if quoted else ""
    return inner if QUOTED_MESSAGES and len(inner.split()) >= 2 else ""


#: Whether a quoted literal of several words is looked for verbatim (``_quoted_words``).
QUOTED_MESSAGES = True


#: A quoted part of a question: its quotes stand apart from words (an apostrophe, "enum's
#: constants ... constant's", opens or closes none).
_ASKED_QUOTE = re.compile(r"(?<!\w)\"([^\"\n]{2,120})\"(?!\w)|(?<!\w)'([^'\n]{2,120})'(?!\w)")


#: An exception's name and its message as a question writes them unquoted (``why do I get
#: InvalidURL: No host supplied``): a CamelCase name or one ending ``Error``, ``Exception``
#: or ``Warning`` (not ``Note:``), then the message up to a question mark or the line's end.
_NAMED_ASKED = re.compile(r"(?<![\w.])((?:[A-Za-z_]\w*\.)*(?:[A-Z][a-z0-9]+[A-Z]\w*|[A-Z]\w*(?:Error|Exception|Warning))):"
                          r"[ \t]++([^\n?]{3,200})")
#: ... and with no colon, a name ending ``Error``, ``Exception`` or ``Warning`` then a
#: capitalised message of at least ``SENTENCE_MIN_WORDS`` words (``why do I get ValueError
#: The data_key argument for one or more fields collides with another field's name``:
#: marshmallow's ``Schema._init_fields`` raising it was not in hybrid's top 10, first by
#: the sparse side alone; a newcomer).
_NAMED_ASKED_BARE = re.compile(r"(?<![\w.])((?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception|Warning))"
                               r"[ \t]++([A-Z][^\n?]{3,200})")
#: Words that open the asker's own phrase after an exception's name, not its message
#: (``how to catch ImportError In Python for optional deps``).
_CLAUSE_OPENERS = frozenset("""in on for with when if from at by to while because after before since
unless during inside within of into and or as""".split())
#: Where the asker's own clause after such a message begins (``.. No host supplied when the
#: url has no host``): the message is the words before it (its first words are what
#: ``sentence_patterns`` look for, so a message that goes on past them still matches).
_ASKER_CLAUSE = re.compile(r"\s+(?:when|whenever|while|because|although|after|before|since|unless)\s")


def _asked_message(text: str) -> str:
    """The one quoted part of several words a question asks about (``where does the
    "Missing argument" error message come from``), looked for verbatim as a message is
    (``Query.sentence``): its words were ranked as the question's, and click's
    ``MissingParameter.__str__``, saying "Missing parameter", came before the line holding
    the message (a newcomer); also one word a sentence's stop ends (``"Aborted!"``: a
    message, where ``"invoke"`` is a name); unquoted, an exception's message after its
    name (``_NAMED_ASKED``: requests' ``why do I get InvalidURL: No host supplied``
    answered the class ``InvalidURL`` and never ``prepare_url`` raising it, a newcomer),
    or without the colon a capitalised one of ``SENTENCE_MIN_WORDS`` words or more
    (``_NAMED_ASKED_BARE``). ``""`` when it quotes none or several."""
    quoted = [(a or b).strip() for a, b in _ASKED_QUOTE.findall(text)]
    if not quoted and QUOTED_MESSAGES:
        named = [_ASKER_CLAUSE.split(m.group(2), 1)[0].strip().rstrip(".!,") for m in _NAMED_ASKED.finditer(text)]
        if len(named) == 1 and len(named[0].split()) >= NAMED_MESSAGE_MIN_WORDS:
            return named[0]  # ``why do I get InvalidURL: No host supplied``
        bare = [_ASKER_CLAUSE.split(m.group(2), 1)[0].strip().rstrip(".!,")
                for m in _NAMED_ASKED_BARE.finditer(text)]
        if (not named and len(bare) == 1 and len(bare[0].split()) >= SENTENCE_MIN_WORDS
                and not _asks(bare[0].split()) and bare[0].split()[0].lower() not in _CLAUSE_OPENERS):
            return bare[0]  # ``why do I get ValueError The data_key argument ... collides ..``
    if not QUOTED_MESSAGES or len(quoted) != 1:
        return ""
    return quoted[0] if len(quoted[0].split()) >= 2 or re.fullmatch(r"[^\W\d_]\w*[.!?]", quoted[0]) else ""


def _sentence(text: str, asking: bool = True) -> str:
    """``Query.sentence`` of a short text: the text when it reads as a message (above),
    else ``""``. A runtime message quotes the values it was given (click's ``Invalid value
    for '--count': 'abc' is not a valid integer.``), and may ask (``Did you mean
    '--color'?``): with a quote, or after a statement, a question mark does not make it a
    question, nor do code spans after a statement, in a text of several sentences (Rust's
    messages quote with code spans: axum's ``Overlapping method route. Handler for `GET
    /users` already exists`` was read as a question, its ``format!`` template not looked
    for) or in a known message. ``asking``
    False: ``text`` is known to be a message (read after a log prefix or an exception's
    name), whatever its first word (``Could not find ...``)."""
    words = text.split()
    # a message may go on to ask, after a statement (hono's ``Context is not finalized. Did
    # you forget to return a Response object or `await next()`?``)
    stated = bool(_STATED.search(text))
    quoted = bool(_QUOTED.search(text)) or stated or _printed_value(text)
    spans = stated or not asking or bool(_SENTENCES.search(text))
    least = SENTENCE_MIN_WORDS if asking else NAMED_MESSAGE_MIN_WORDS
    if (not least <= len(words) <= SENTENCE_MAX_WORDS or ("?" in text and not quoted)
            or ("`" in text and not spans) or (asking and _asks(words))):
        return ""
    return text


def _asks(words: list[str]) -> bool:
    """Whether a text of ``words`` opens as a question does (``_ASKING``): "how does ..",
    "can I ..". Not a negated statement, as messages open: "Could not find a suitable TLS
    CA certificate bundle, invalid path" (requests), "Cannot ..", "Does not ..", "Can't .."
    were read as questions, and the source line printing the first, pasted unquoted, came
    3rd under a test and a Makefile (a newcomer)."""
    first = words[0].lower().strip(",.:;'\"")
    if first.endswith(("n't", "n\u2019t")) or first == "cannot":
        return False
    negated = len(words) > 1 and words[1].lower() == "not"
    return first in _ASKING and not negated


#: A value a message printed, then a colon: a JSON path (moshi's ``Nesting too deep at
#: $.child.child: circular reference?``), a dotted or slashed name, a number. Like a
#: quote, it makes a question mark no question's.
_VALUE_COLON = re.compile(r"(?:\$[.\[][^\s:]*|\w[\w-]*(?:[./][\w-]+)+|\d+):\s")

def _printed_value(text: str) -> bool:
    """Whether ``text`` prints a value before a colon (``_VALUE_COLON``) that no question
    follows: "config.yaml: where do I set the port?" asks (a review)."""
    return any((following := text[m.end():].split(None, 1)) and following[0].lower().strip(",.;'\"") not in _ASKING
               for m in _VALUE_COLON.finditer(text))


#: One sentence's end and another's start inside a text (``route. Handler``).
_SENTENCES = re.compile(r"\w[.!] +[A-Z]")


#: A statement's end before a question's (``... finalized. Did you ...?``).
_STATED = re.compile(r"\w[.!] +[A-Z][^.!?]*\?")


#: The exception or severity that opens an error line (``ValueError: ``, ``Error: ``,
#: ``error[E0308]: ``, ``panic: ``), before its message.
_ERROR_HEAD = re.compile(r"(?-i:^[ \t]*+[\w.]*?[a-z_]{2}\.[A-Z][a-z]\w*+:[ \t]++)"
                         r"|^[ \t]*+(?:[\w.]*\.)?\w*(?:Error|Exception|Warning|Fault)(?:\[\w+\])?:?[ \t]*+"
                         r"|^[ \t]*+(?:error|fatal|panic|warning)(?:\[\w+\])?:[ \t]*+", re.IGNORECASE)


#: A command-line program's hint after its error line: "Run 'app --help' for usage.",
#: "Try 'cmd --help' for more information.", "See 'git help'."
_USAGE_HINT = re.compile(r"^[ \t]*+(?:run|try|see|use)\b.{0,80}(?:--help|-h\b|\bhelp\b)", re.IGNORECASE)


def _usage_hinted(lines: list[str]) -> bool:
    """Whether ``lines`` (non-blank) are an error line (``_ERROR_HEAD``: ``Error: ...``)
    and a usage hint after it (``_USAGE_HINT``): cobra's two lines for a mistyped command
    were read as one sentence, never found (a newcomer)."""
    return (len(lines) == 2 and _ERROR_HEAD.match(lines[0]) is not None
            and _USAGE_HINT.match(lines[1]) is not None)


def _error_message(text: str) -> str:
    """``Query.sentence`` of a short trace without frames (an error line pasted alone, or
    two lines): its last line's message after the exception's name, when that reads as a
    message (``_sentence``; ``KeyError: 'SECRET_KEY'`` has one word, no message)."""
    lines = [line for line in text.splitlines() if line.strip()]
    if not 1 <= len(lines) <= 2 or stack.count(text):
        return ""
    line = _logged((lines[0] if _usage_hinted(lines) else lines[-1]).strip())
    head = _ERROR_HEAD.match(line)
    message = line[head.end():].strip() if head else line
    if len(message.split()) > SENTENCE_MAX_WORDS or len(message) > ISSUE_MIN_CHARS:
        # a message ending in a value's repr: its words before the value (attrs' ``...
        # Attribute in question: Attribute(name='y', default=NOTHING, ...)``), from the
        # first value start leaving a message's words before it
        message = next((message[:v.start()].rstrip() for v in _VALUE_START.finditer(message)
                        if len(message[:v.start()].split()) >= SENTENCE_MIN_WORDS), message)
    if len(message) > ISSUE_MIN_CHARS:
        return ""  # no message of a sentence's length: its patterns cost O(words^2) to build
    return _sentence(message, asking=False)


#: Where a printed value starts in a message: a repr's ``Name(`` or ``<``, a quote not
#: inside a word (``doesn't``), a list's ``[``, a dict's ``{``.
_VALUE_START = re.compile(r"(?<![\w.])[A-Za-z_][\w.]{0,80}\(|(?<!\w)['\"]|[<\[{]")


#: What a log line or a warning prints before its message: a timestamp, a level, a
#: logger's name in brackets or before a colon (``2024-05-01 10:00:01,123 ERROR [app.db]
#: ``, ``WARNING:root:``), a ``path.py:1369:`` location (Python's warnings), then the
#: warning's or exception's name (``_ERROR_HEAD``). Possessive and anchored: linear.
_LOG_PREFIX = re.compile(
    r"^(?:\[?(?:\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{4})(?:[T ]\d{1,2}:\d{2}(?::\d{2})?(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?)?\]?[ \t]++)?"
    r"(?:\[?\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\]?[ \t]++)?"
    r"(?:\[?(?:DEBUG|INFO|NOTICE|WARN(?:ING)?|ERROR|ERR|CRITICAL|FATAL|SEVERE)\b\]?(?:(?::[\w.]++)*:)?[ \t]*+)?"
    r"(?:\[[\w.:/-]{1,60}\][ \t]*+:?[ \t]*+)?"
    r"(?:[^\s:]{1,200}\.\w{1,6}:\d++:[ \t]++)?")


#: A command-line program's error prefix: its name, a severity and a location in
#: parentheses (jq's ``jq: error (at <stdin>:0): ``, ``grep: warning: ``).
_PROGRAM_PREFIX = re.compile(r"^[\w.+-]{1,40}: (?:error|warning|fatal|panic)(?: \([^()\n]{0,80}\))?: ++(?=\S)",
                             re.IGNORECASE)
#: A Node deprecation as the ``depd`` package prints it: a UTC timestamp when not on a
#: terminal, its namespace, ``deprecated``, the message (group 1) and the caller's location
#: in the user's code, any path with a line and a column (``express deprecated Url must be
#: a string routes/auth.js:42:9``; ``... at bin/www:42:9``). Linear: the message ends at a
#: non-blank, so a run of blanks is crossed once, and the location's token is bounded.
_DEPRECATION = re.compile(r"^(?:\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT )?[\w.@/+-]{1,40} deprecated "
                          r"++(\S(?:.*?\S)?)[ \t]++(?:at[ \t]++)?(?:[A-Za-z]:)?[^\s:]{1,200}:\d++:\d++$")


#: A compiler's severity before its message (rustc's and a proc macro's ``error: ``,
#: ``error[E0277]: ``, ``warning: ``): axum-macros' ``error: `Json<_>` consumes the request
#: body ...`` was read as a question, its ``compile_error`` text not looked for.
_SEVERITY = re.compile(r"(?:error|fatal|warning)(?:\[\w+\])?:[ \t]+(?=\S)", re.IGNORECASE)


#: An exception's name opening a pasted line without its module and without an
#: exception's suffix (``MissingSchema: Invalid URL ..``, ``TooManyRedirects: Exceeded 30
#: redirects.``): a CamelCase name with an inner capital, then a colon and the message.
#: Read as a question, the message was looked for with the name glued to it, and requests'
#: ``prepare_url`` raising it was off the first 10 (a newcomer; with the module prefix the
#: line is a trace and was right).
_NAMED_HEAD = re.compile(r"[ \t]*+((?:[A-Za-z_]\w*\.)*[A-Z][a-z0-9]+[A-Z]\w*):[ \t]+(?=\S)")


#: An issue's title opening with a CamelCase name and a colon (``VotingClassifier: fit
#: fails on a multilabel DataFrame``) names its subject, not an exception, when a body
#: follows and the name has no exception's suffix (``_EXCEPTION``): it was dropped from the
#: names as the error raised, and the class lost the title's definition bonus (a
#: newcomer's scikit-learn issue). An error line pasted alone (two lines at most) and an
#: ``...Error:`` title still name the exception; a body's error line naming it too.
BARE_TITLE_SUBJECT = True


def _bare_head(line: str) -> re.Match[str] | None:
    """``_NAMED_HEAD``'s match opening ``line`` when it is an exception's name: not a
    product's name, and not before a question ("ValueMapper: how does it map values")."""
    named = _NAMED_HEAD.match(line)
    if not named or named.group(1).lower() in _PRODUCT_NAMES or _asks(line[named.end():].split()):
        return None
    return named


def _bare_error(line: str) -> str:
    """The exception's name opening ``line`` (``_bare_head``), else ``""``."""
    named = _bare_head(line)
    return named.group(1) if named else ""


def _logged(line: str) -> str:
    """``line`` without a log line's or a warning's prefix (``_LOG_PREFIX``) and the
    warning's or exception's name after it (``_ERROR_HEAD``), or a program's error prefix
    (``_PROGRAM_PREFIX``), or a Node deprecation's namespace and caller (``_DEPRECATION``),
    or a compiler's severity (``_SEVERITY``), or an exception's bare CamelCase name
    (``_NAMED_HEAD``; not a product's, ``GitHub:``), when a prefix was there: the message a chunk
    of code holds (jq's prefix drew its ``jq_exit`` macro first). A line without a prefix
    is returned as is."""
    program = _PROGRAM_PREFIX.match(line)
    if program:
        return line[program.end():].strip()
    named = _bare_head(line)
    if named:
        return line[named.end():].strip()
    deprecation = _DEPRECATION.match(line)
    if deprecation:
        return deprecation.group(1).strip()
    m = _LOG_PREFIX.match(line)
    if not m or not m.group():
        severity = _SEVERITY.match(line)  # a compiler's ``error: `Json<_>` consumes ...``
        return line[severity.end():].strip() if severity else line
    rest = line[m.end():]
    head = _ERROR_HEAD.match(rest)
    return rest[head.end():].strip() if head else rest.strip()


_TRACE_FILLER = re.compile(r"[ \t]*+(?:[~^ \t]++|Traceback \(most recent call last\):?"
                           r"|During handling of the above exception.*|--- End of .*---|---> .*"
                           r"|The above exception was the direct cause.*|\.\.\. \d+ more)$")


_RAISED = re.compile(r"[A-Za-z_][\w.]*+(?::[ \t].*)?$")


#: A web address: a scheme's (``https://``, ``http://``, ``ftp://``, ``file://``) or one
#: written from ``www.``, up to a space, a quote, a bracket or a backtick. Possessive:
#: linear in the text.
_URL = re.compile(r"\b(?:(?:https?|ftp|file)://|www\.)[^\s<>()\[\]{}\"'`|\\]++")
#: A code host's link to a file at a ref (GitHub's and Gitea's ``blob``/``tree``/``raw``,
#: GitLab's ``-/blob``, Bitbucket's ``src``): group 1 is the file's path in its repository.
_HOSTED_FILE = re.compile(r"^[^/]+/[^/]+/(?:-/)?(?:blob|tree|raw|src)/[^/]+/(.+)$")
#: Code hosts whose other links (issues, pull requests, commits, users) say nothing about
#: where in a repository's code the text is about.
_CODE_HOSTS = frozenset({"github.com", "gitlab.com", "bitbucket.org", "codeberg.org",
                         "gist.github.com"})
#: A file name a link ends in that is a file of code (kept as a path: a browser trace's
#: ``http://localhost:3000/static/js/main.js:12:34``).
_CODE_FILE = re.compile(r"\.(?:py|pyi|pyx|js|mjs|cjs|jsx|ts|tsx|go|rs|java|kt|scala|rb|php|c|h|cc|"
                        r"cpp|hpp|cs|swift|m|mm|sh|lua|ex|exs|erl|hs|ml|toml|cfg|ini|yaml|yml|json)"
                        r"(?::\d+){0,2}$")
#: Paste sites and playgrounds: a link to one names a snippet by an opaque id, whose
#: letters read as code words (cobra's ``go.dev/play/p/UxqRkMcEX2a`` gave an issue the
#: terms ``uxqrkmcex2a``, ``uxq``, ``rk``, ``mc`` at 3.4 each; a newcomer). Hosts, and a
#: host with the path prefix of its playground.
_PASTE_HOSTS = frozenset({"play.golang.org", "goplay.tools", "play.rust-lang.org", "jsfiddle.net",
                          "codepen.io", "codesandbox.io", "stackblitz.com", "pastebin.com", "replit.com",
                          "repl.it", "jsbin.com", "dpaste.org", "dpaste.com", "hastebin.com", "paste.rs",
                          "glot.io", "ideone.com", "onlinegdb.com", "godbolt.org", "tsplay.dev",
                          "pastebin.ubuntu.com", "bpa.st", "paste.debian.net"})
_PLAYGROUNDS = (("go.dev", "play/"), ("www.typescriptlang.org", "play"), ("typescriptlang.org", "play"),
                ("svelte.dev", "repl"), ("vuejs.org", "play"), ("play.kotlinlang.org", ""))
_WEB_PAGE_SUFFIX = re.compile(r"\.(?:html?|php|aspx?|jsp|cgi|md|rst|txt)$")
#: Whether a link is read for what it says of the code (``_delinked``).
DELINK = True


def _delinked(text: str) -> str:
    """``text`` with each web address (``_URL``) replaced by what it says about code: a
    code host's link to a file of code (``github.com/o/r/blob/main/src/app.py#L10``) by the
    file's path (``src/app.py``), a link ending in a file of code by its path without the
    host; any other code host link but one to a file (an issue, a pull request, a commit)
    by nothing, and so is a paste site's or a playground's (``_PASTE_HOSTS``); any other
    link, a hosted docs page's too, by its last path segment's words
    (its page suffix dropped: ``numpy.ndarray.html`` -> ``numpy.ndarray``,
    ``Troubleshooting.md``) and its fragment (a docs anchor names an API:
    ``#flask.Flask.url_for``; gson's messages link their ``#duplicate-fields``). Its host,
    scheme and query string never: ``github``, ``com``, ``www`` or ``stackoverflow`` read
    as code words drew chunks and files (flask's release notes link their pull requests;
    an issue links docs and answers).
    Trailing sentence punctuation stays outside the link. Linear in ``len(text)``."""
    if not DELINK or "://" not in text and "www." not in text or _URL.fullmatch(text):
        return text  # a query that is one link asks for it
    return _URL.sub(_link_words, text)


#: Linked lines an issue's ``linked`` holds at most.
MAX_LINKED = 5
#: A link's fragment naming lines: GitHub's ``L689-L697``, GitLab's ``L689-697``,
#: Bitbucket's ``lines-689``.
_LINES_FRAGMENT = re.compile(r"^(?:L|lines-)(\d+)")


def linked_lines(text: str) -> tuple[tuple[str, int], ...]:
    """(path, first line) of each code host link to lines of a file of code in ``text``
    (``github.com/encode/httpx/blob/master/httpx/_models.py#L689-L697`` -> ``("httpx/
    _models.py", 689)``), in text order, each once, at most ``MAX_LINKED``: httpx's issue
    linking ``Response.charset_encoding``'s lines had it 4th of its file's functions."""
    out: dict[tuple[str, int], None] = {}
    if "#" not in text:
        return ()
    for match in _URL.finditer(text):
        rest = match.group().split("://", 1)[-1]
        rest, _, fragment = rest.partition("#")
        host, _, path = rest.partition("?")[0].partition("/")
        lines = _LINES_FRAGMENT.match(fragment)
        hosted = _HOSTED_FILE.match(path.strip("/")) if lines and host.lower() in _CODE_HOSTS else None
        if hosted and _CODE_FILE.search(hosted.group(1).rstrip(".,;:!?")):
            out[hosted.group(1).rstrip(".,;:!?").strip("/"), int(lines.group(1))] = None
            if len(out) >= MAX_LINKED:
                break
    return tuple(out)


def _link_words(match: re.Match[str]) -> str:
    """What one ``_URL`` match says about code (``_delinked``)."""
    url = match.group()
    stripped = url.rstrip(".,;:!?")
    tail = url[len(stripped):]
    rest = stripped.split("://", 1)[1] if "://" in stripped else stripped
    rest, _, fragment = rest.partition("#")
    rest = rest.partition("?")[0]
    host, _, path = rest.partition("/")
    host = host.lower().rpartition("@")[2].partition(":")[0]
    path = path.strip("/")
    if host in _PASTE_HOSTS or any(host == h and path.startswith(prefix) for h, prefix in _PLAYGROUNDS):
        return tail
    if host in _CODE_HOSTS:
        hosted = _HOSTED_FILE.match(path)
        if hosted is None:  # an issue, a pull request, a commit
            return tail
        if _CODE_FILE.search(hosted.group(1)):
            return hosted.group(1).strip("/") + tail
    elif _CODE_FILE.search(path):
        return path + tail
    last = _WEB_PAGE_SUFFIX.sub("", path.rpartition("/")[2])
    words = " ".join(w for w in re.split(r"[-+_~%=&/]+", last) if w and not w.isdigit())
    if fragment and not fragment.isdigit():
        words += " " + fragment.replace("-", " ")
    return words.strip() + tail


def detect(text: str) -> Shape:
    """The ``Shape`` of ``text``: a trace when stack frames or error lines make up most of
    it, an issue when long or multi-line, an identifier list or a literal when every word
    is code or it is one quoted or punctuated token, else natural-language text."""
    lines = [line for line in text.splitlines() if line.strip()]
    framed = stack.count(text) + len(_ERROR_LINE.findall(text))
    # Python 3.11's ``^^^^`` under a frame's source line, a traceback's header and the
    # chained tracebacks' separators belong to the trace: a trace alone read as an issue
    # with them (click's chained traceback)
    printed = [line for line in lines if not _TRACE_FILLER.match(line)]
    if printed and _RAISED.match(printed[-1]) and not _ERROR_LINE.match(printed[-1]) and stack.PYTHON.search(text):
        framed += 1  # a Python traceback's last line names what was raised, whatever its name
    if stack.MARKS.search(text) and framed * 2 >= len(printed):
        return Shape.TRACE
    if (len(lines) <= 2 and len(text) <= ERROR_LINE_MAX_CHARS and ":" in lines[-1]
            and _ERROR_LINE.fullmatch(lines[-1].strip())
            and (len(text) <= ISSUE_MIN_CHARS or _NAMED_ERROR.match(lines[-1]))):
        return Shape.TRACE  # "KeyError: 'x'" alone, or a message with a long repr
    if len(lines) == 1 and len(text) <= ISSUE_MIN_CHARS and _bare_error(text):
        return Shape.TRACE  # "MissingSchema: Invalid URL ..", as "requests.exceptions.MissingSchema: .." is
    if _usage_hinted(lines) and len(text) <= ISSUE_MIN_CHARS:
        return Shape.TRACE  # a CLI's error line and its hint ("Run 'app --help' for usage.")
    if len(lines) <= 2 and len(text) <= ERROR_LINE_MAX_CHARS and "TypeError" in text and _REFUSED_CALL.search(text):
        # Python refusing a call's arguments, written in a title without the error line's
        # colon ("3.20.0: TypeError get_declared_fields() missing 1 required positional
        # argument"): read as a message, a helper raising TypeError came first (marshmallow)
        return Shape.TRACE
    if len(text) > ISSUE_MIN_CHARS or len(lines) >= ISSUE_MIN_LINES:
        return Shape.ISSUE
    if linked_lines(text):
        # a link to lines of a file of code is an issue's, however short: its file and the
        # function holding the lines are read as an issue's are (seaborn's two-line "heatmap
        # ignores vmin when norm=None .. the check at ../matrix.py#L299-L303 is wrong" read
        # as a question, the link unread: `_HeatMapper.plot` 4th of its file; a newcomer)
        return Shape.ISSUE
    words = text.split()
    if _QUOTED.fullmatch(text) or (
            _LITERAL.match(text) and len(words) <= 3 and not _IDENTIFIER_LIST.match(text)):
        return Shape.LITERAL
    if _IDENTIFIER_LIST.match(text) and (len(words) == 1 or all(_CODE_WORD.search(w) for w in words)):
        return Shape.IDENTIFIER
    return Shape.TEXT


#: The environment part of a path in a traceback or a log: everything up to an installed
#: package (``/usr/lib/python3.11/site-packages/``, ``C:\\Python311\\Lib\\``): words that
#: name no code of the repo (``usr``, ``lib``, ``site``, ``packages``) yet weigh as much as
#: a frame's own path; the same for Rust's registry sources (``~/.cargo/registry/src/
#: index.crates.io-6f17d22bba15001f/``) and toolchain (``/rustc/<commit>/``), and Ruby's
#: installed gems (``/usr/lib/ruby/gems/3.2.0/gems/``).
_ENV_MARK = re.compile(r"(?:site-packages|dist-packages|lib[/\\]python\d[\w.]*|node_modules"
                       r"|pkg[/\\]mod|\.cargo[/\\]registry[/\\]src[/\\][\w.-]++|rustc[/\\][0-9a-f]{40}"
                       r"|rustlib[/\\]src[/\\]rust|(?<![\w.-])gems)[/\\]", re.IGNORECASE)
#: The versioned directory of a crate or a gem right after its environment part
#: (``serde_json-1.0.31/``, ``httparty-0.21.0/``): for the query's terms, its words
#: (``serde``, ``json``) weighed as a frame's path in every pasted backtrace (a newcomer);
#: a frame's path keeps it (``anchors`` reads ``rack-protection-4.0.0/`` as a monorepo's
#: ``rack-protection/``).
_VERSIONED_DIR = re.compile(r"[^\W\d][\w.]*+(?:-[^\W\d][\w.]*+)*+-v?\d+\.\d+[\w.+-]*+[/\\]")
_PATH_START = " \t\n\"'(=<["


#: What a Go panic prints of a module besides the code: the module cache's
#: ``github.com/gin-gonic/gin@v1.10.0/`` before a file, the import path before a frame's
#: function (``github.com/gin-gonic/gin.(*node).getValue``): words (github, com, v1) that
#: name no code of the repo yet weighed as a frame's path.
_MODULE_ROOT = re.compile(r"(?<![\w@/.~-])(?:[\w.~-]+/)*[\w.~-]+@v\d+\.\d+\.\d+[\w.+-]*/")
_GO_IMPORT_PATH = re.compile(r"^([ \t]*(?:created by )?)(?:[\w.~-]+/)+(?=[\w-]+\.[^\W\d])", re.MULTILINE)


def _drop_module_paths(text: str) -> str:
    """``text`` without Go module cache roots and the import paths of Go frames'
    functions (``_MODULE_ROOT``, ``_GO_IMPORT_PATH``): ``.../gin@v1.10.0/tree.go`` ->
    ``tree.go``, ``github.com/gin-gonic/gin.node.getValue(...)`` -> ``gin.node.getValue(...)``;
    and an error line's exception without its module (``_EXCEPTION_MODULE``)."""
    text = _EXCEPTION_MODULE.sub(_without_exception_module, text)
    if "/" not in text:
        return text
    return _GO_IMPORT_PATH.sub(r"\1", _MODULE_ROOT.sub("", text))


#: The module an error line's exception is printed with (``jinja2.exceptions.`` of
#: ``jinja2.exceptions.TemplateAssertionError: No filter named 'x'.``): its words name where
#: the exception is defined, not where it was raised, and drew the exception's class and
#: the package's ``__init__`` re-exporting it before the raise site (a jinja newcomer's
#: three messages).
#: jinja's messages: the right symbol first 3 -> 4 of 6; swe-lite-dev unchanged.
_EXCEPTION_MODULE = re.compile(r"^([ \t]*+(?:E[ \t]++)?)((?:[A-Za-z_]\w*+\.)++)(\w*(?:Error|Exception|Warning|Exit))(?=:)",
                               re.MULTILINE)


def _without_exception_module(match: re.Match[str]) -> str:
    """An ``_EXCEPTION_MODULE`` match's replacement: its indent (pytest's ``E`` too) and its
    class, without the module."""
    return match.group(1) + match.group(3)


def drop_environment(text: str, versioned: bool = False) -> str:
    """``text`` without environment path prefixes: each path up to and including its last
    ``site-packages/``, ``dist-packages/`` or ``lib/pythonX.Y/`` (``/home/u/venv/lib/python3.9/
    site-packages/pkg/mod.py`` -> ``pkg/mod.py``, ``venv\\Lib\\site-packages\\pkg`` -> ``pkg``).
    Linear in ``len(text)``: each marker's path start is searched back only to the previous
    marker. With ``versioned``, a crate's or gem's versioned directory right after a marker
    too (``_VERSIONED_DIR``: for the query's terms)."""
    out: list[str] = []
    last = 0
    for mark in _ENV_MARK.finditer(text):
        start = max(text.rfind(c, last, mark.start()) for c in _PATH_START) + 1
        out.append(text[last:max(start, last)])
        last = mark.end()
        if versioned:
            crate = _VERSIONED_DIR.match(text, last)
            last = crate.end() if crate else last
    out.append(text[last:])
    return "".join(out)


#: A line of an environment report pasted with an issue: a test runner's session header
#: (pytest's ``platform linux -- Python 3.8.10, pytest-7.1.2``, ``rootdir: ...``,
#: ``plugins: ...``, ``collected 3 items``, ``=== test session starts ===``) or one
#: package's version (``numpy==1.21.0``, ``attrs      21.4.0`` of ``pip list``,
#: ``scipy: 1.7.1`` of a ``show_versions()``, ``* Python version: 3.9``). Its words name
#: the environment, not the repository, yet read as code (a fence's words weigh twice a
#: sentence's) and as names to look up (``session``, ``item``: pytest's own ``Session`` and
#: ``Item``). Dropped from a long query before analysis, as a banner is.
#: A report line's package name (``numpy``, ``* Python version``) and its version with
#: what follows it (``1.21.0``, ``3.8.10 (default, ..)``): ``_REPORT``, ``_REPORT_ALIGNED``.
_PACKAGE = r"(?:[-*+] )?[A-Za-z][\w.-]*+(?: [Vv]ersion)?"
_VERSION = r"v?\d+(?:\.\d+)++[\w.+-]*+(?:[ \t]+[(\[][^\n]*)?"
_REPORT = re.compile(  # a report line is short: longer lines are never tried (linear)
    r"^(?=[^\n]{0,200}$)[ \t]*+(?:"
    r"=+ (?:test session starts|warnings summary|short test summary info) =+"
    r"|platform \w+ -- Python \d[^\n]*"
    r"|(?:rootdir|cachedir|configfile|inifile|plugins|testpaths): [^\n]*"
    r"|collect(?:ed|ing) \d+ items?[^\n]*"
    r"|" + _PACKAGE + r"(?:[ \t]++|==|>=|<=|~=|=|:[ \t]*+)" + _VERSION +
    r")[ \t]*$", re.MULTILINE)
#: Whether environment report lines are dropped from a long query (``_REPORT``).
DROP_REPORTS = True
#: Whether a package's version aligned on its colon (``pyOpenSSL    : 19.0.0 (OpenSSL
#: 1.1.1b ..)``, ``cryptography : 2.6.1``: ``scrapy version --verbose``) is a report line
#: too (``_REPORT_ALIGNED``): its words (``open``, ``ssl``, ``lxml``, ``parsel``, ``w3lib``)
#: led two of a newcomer's scrapy issues to ``utils/versions.py``, which prints them.
ALIGNED_REPORT_LINES = True
#: A ``_REPORT`` version line whose name is padded before its colon (not ``=``: code
#: aligns its assignments, ``alpha   = 0.5``).
_REPORT_ALIGNED = re.compile(r"^(?=[^\n]{0,200}$)[ \t]*+" + _PACKAGE + r"[ \t]++:[ \t]*+" + _VERSION + r"[ \t]*$",
                             re.MULTILINE)
#: Whether a whole environment report is dropped from a long query, heading and all
#: (``_without_report_blocks``): ``xr.show_versions()``, ``sklearn.show_versions()``,
#: ``pd.show_versions()``, ``conda info`` print their dependencies' versions (``_REPORT``
#: lines) among lines of no version: ``commit: None``, ``python-bits: 64``, ``machine:
#: x86_64``, ``LC_ALL: None``, ``pydap: None``, ``INSTALLED VERSIONS``, ``------``. Those
#: words (``lc_all``, ``x86_64``, ``versions``) are the keys a project's own report printer
#: writes, and under its heading ("Output of ``xr.show_versions()``", a code name) it led
#: an interpolation bug's answer (xarray's ``util/print_versions.py``; a newcomer).
REPORT_BLOCKS_DROPPED = True
#: Lines of a report block, at least (blank lines inside it not counted).
REPORT_BLOCK_LINES = 6
#: A line a report block may hold (at most 200 characters: linear): ``key: value`` (``key
#: : value`` as pandas and conda align them), a rule (``-----``, ``=====``), a header in
#: capitals (``INSTALLED VERSIONS``), the compiler line under ``python: 3.7.6 | packaged by
#: conda-forge | (default, ..)`` (``[GCC 7.3.0]``).
_REPORT_LIKE = re.compile(r"(?=[^\n]{0,200}$)[ \t]*+(?:[-*+] )?(?:[A-Za-z_][\w.()/-]{0,40}+(?: [\w.()/-]{1,20}+){0,3}"
                          r"[ \t]*+:(?:[ \t][^\n]*+)?|[-=]{3,}+|[A-Z][A-Z ]{3,40}+|\[(?:GCC|Clang|MSC)[^\]\n]*+\])[ \t]*+")
#: A line only an environment report prints (its key, or its header): a block of
#: ``_REPORT_LIKE`` lines holding none is a config, a printout, a mapping the bug is about
#: (a review: YAML hyperparameters, a Hydra config of ``null``s, printed attributes).
#: ``pip show``'s ``Home-page:``, ``Author-email:``, ``Required-by:`` too: aiohttp's form
#: asks for it three times (aiohttp, multidict, yarl), and its ``summary``, ``license``,
#: ``site-packages``, ``aiohappyeyeballs`` took twenty of an issue's terms (a newcomer).
_REPORT_MARK = re.compile(r"(?i)(?=[^\n]{0,200}$)[ \t]*+(?:installed versions|(?:python-bits|lc_all|lc_ctype"
                          r"|byteorder|os-release|executable|python dependencies|python deps|threadpoolctl info"
                          r"|built with openmp|libhdf5|libnetcdf|conda version|conda-build version|user-agent"
                          r"|virtual packages|active environment|base environment|blas info|lapack info"
                          r"|home-page|author-email|required-by|metadata-version"  # pip show's
                          r")[ \t]*+:[^\n]*+)[ \t]*+")
#: Lines around a report that only mark it up (skipped when looking for its heading; at
#: most 200 characters, every run possessive: linear).
_REPORT_MARKUP = re.compile(r"(?=[^\n]{0,200}$)[ \t]*+(?:```\w*+|~~~\w*+|</?details>|</summary>|<summary>)?[ \t]*+")
#: A heading that names what follows as an environment report (dropped with it).
_REPORT_HEADING = re.compile(r"(?i)version|environment|show_versions|system info|sys_info|conda info|pip (?:list|freeze)")
#: Whether a project's own diagnostic dump is dropped as an environment report, though it
#: holds no line only a report prints (``_REPORT_MARK``; ``_without_diagnostic_dumps``):
#: the lines right under a heading or command line naming a diagnostic
#: (``_DIAGNOSTIC_HEADING``), at least ``REPORT_BLOCK_LINES`` of them, ``DIAGNOSTIC_ATTRIBUTES``
#: attributes (``key: value``, ``key = value``, once a box drawn around them is left out).
#: ``python -m rich.diagnose`` draws the console's attributes in a box (``color_system =
#: 'truecolor'``, ``is_terminal = True``, ``legacy_windows = False``,
#: ``size = ConsoleDimensions(width=80, height=25)``): the repository's own identifiers,
#: each a name of the issue, led a wrapping bug's answer with ``console.py`` and
#: ``_windows.py`` and left ``_wrap.py`` out of it (a newcomer's rich issues).
#: ``collect_env``, ``envinfo``, ``doctor`` and ``sysinfo`` reports print the same.
DIAGNOSTIC_REPORTS_DROPPED = True
#: Attribute lines a diagnostic dump holds, at least (``DIAGNOSTIC_REPORTS_DROPPED``).
DIAGNOSTIC_ATTRIBUTES = 3
#: A heading or a command line (at most 120 characters) that runs a diagnostic: ``python -m
#: rich.diagnose``, ``flutter doctor``, ``npx envinfo``, ``python -m torch.utils.collect_env``,
#: ``sysinfo``, ``show_versions()``, ``version_info()``, "System information".
_DIAGNOSTIC_WORDS = ("diagnos", "doctor", "envinfo", "collect_env", "sysinfo", "sys_info", "show_versions",
                     "version_info", "system info")
_DIAGNOSTIC_HEADING = re.compile(r"(?i)(?=[^\n]{0,120}$)[^\n]*?(?:" + "|".join(_DIAGNOSTIC_WORDS) + r")[^\n]*+")
#: Box drawing characters (U+2500..U+257F: ``│``, ``╭``, ``─``, ``╰``): a frame a terminal
#: program draws around what it prints, left out when reading the lines inside it.
_BOX = re.compile("[\u2500-\u257f]++")
#: An attribute line of a dump (at most 200 characters: linear): ``name = value`` or
#: ``name=value,`` (a repr's keyword argument).
_ATTRIBUTE = re.compile(r"(?=[^\n]{0,200}$)[ \t]*+[A-Za-z_][\w.]{0,40}+[ \t]*+=[ \t]*+\S[^\n]*+")


def _blanked(text: str, lines: Sequence[str], dropped: Sequence[bool]) -> str:
    """``text`` (split into ``lines``) with each line ``dropped`` marks blanked, not
    removed (line numbers and the lines around keep their places); ``text`` itself when
    none is."""
    if not any(dropped):
        return text
    return "\n".join("" if gone else line for line, gone in zip(lines, dropped))


def _without_report_blocks(text: str) -> str:
    """``text`` without its environment reports (``REPORT_BLOCKS_DROPPED``): each run of
    ``_REPORT_LIKE`` lines (blank lines inside it allowed) of at least
    ``REPORT_BLOCK_LINES`` that holds a line only a report prints (``_REPORT_MARK``), and
    the heading right above it when it names a report (past markup; ``_REPORT_HEADING``, at
    most 120 characters). Lines are blanked, not removed. Linear: each line is matched once
    against patterns of at most 200 characters."""
    lines = text.split("\n")
    dropped = [False] * len(lines)
    i = 0
    while i < len(lines):
        if not _REPORT_LIKE.fullmatch(lines[i]):
            i += 1
            continue
        j, filled, marked = i, 0, False
        while j < len(lines) and (not lines[j].strip() or _REPORT_LIKE.fullmatch(lines[j])):
            if lines[j].strip():
                filled += 1
                marked = marked or bool(_REPORT_MARK.fullmatch(lines[j]))
            j += 1
        if filled >= REPORT_BLOCK_LINES and marked:
            dropped[i:j] = [True] * (j - i)
            k = i - 1
            while k >= 0 and _REPORT_MARKUP.fullmatch(lines[k]):
                k -= 1
            head = lines[k].strip() if k >= 0 else ""
            if head and len(head) <= 120 and _REPORT_HEADING.search(head):
                dropped[k] = True
        i = max(j, i + 1)
    return _blanked(text, lines, dropped)


#: Lines of a run of a linter's or a compiler's diagnostics about the reporter's files
#: (``_DIAGNOSTIC_LINE``) that are read; the run's later lines are blanked. A run is a sample
#: of the tool's output: its first lines say what kind, and 200 lines of pylint's messages
#: on a user's project (swe-lite-dev's pylint 7080, "``--recursive=y`` ignores
#: ``ignore-paths``") read each message's words up to the terms' cap, over the title's
#: (the naming, class and typecheck checkers' files led; the fix was in
#: ``expand_modules.py``; now 4th, swe-lite-dev function@10 64.1 -> 65.4). Three lines or
#: fewer (a false positive's report) are read whole. 0: off.
DIAGNOSTIC_RUN_LINES = 3
#: A diagnostic line: ``path:line[:col]: `` then a message code (``R0914:``, ``E501``,
#: ``[E1101]``) or a severity (``error:``, ``warning:``, ``note:``), at most 300 characters
#: (linear); a pylint module banner (``************* Module about``) continues a run.
_DIAGNOSTIC_LINE = re.compile(r"(?=[^\n]{0,300}$)[ \t]*+(?:[\w.~-]++[/\\])*+[\w.-]+\.\w{1,6}:\d+(?::\d+)?:?[ \t]++"
                              r"(?:\[?[A-Z]{1,4}\d{2,5}\]?:?|(?:error|warning|note|fatal error):)[^\n]*+")
_DIAGNOSTIC_BANNER = re.compile(r"[ \t]*+\*{5,}[ \t]++Module[ \t]++[\w.-]++[ \t]*+")


def _without_diagnostic_tail(text: str) -> str:
    """``text`` with each run of diagnostic lines (``_DIAGNOSTIC_LINE``; module banners and
    blank lines inside it allowed) cut to its first ``DIAGNOSTIC_RUN_LINES`` diagnostics: the
    rest blanked, not removed. Linear: each line is matched once against patterns of at most
    300 characters."""
    if DIAGNOSTIC_RUN_LINES <= 0:
        return text
    lines = text.split("\n")
    dropped = [False] * len(lines)
    read = 0
    for i, line in enumerate(lines):
        if _DIAGNOSTIC_LINE.fullmatch(line):
            read += 1
            dropped[i] = read > DIAGNOSTIC_RUN_LINES
        elif _DIAGNOSTIC_BANNER.fullmatch(line):
            dropped[i] = read >= DIAGNOSTIC_RUN_LINES
        elif line.strip():
            read = 0
    return _blanked(text, lines, dropped)


#: Whether a version table drawn with pipes is an environment report too
#: (``_without_pipe_reports``): ``python -m pydicom.env_info`` prints ``module | version``
#: rows, GitHub forms ask for a markdown ``| Package | Version |`` table, and the report
#: rules above know ``name: value`` and aligned columns only. The table's words
#: (``_module not found_``, ``platform``, each package's name) were read as code: pydicom's
#: own ``env_info.py`` came first for a codify issue (a newcomer's Y6: 2nd -> 1st; their Y7,
#: 1st on a tie the word ``module`` broke, 1st -> 2nd). No issue of the other sets draws one.
PIPE_REPORTS_DROPPED = True
#: A two-cell row of a pipe table, outer pipes optional, at most 200 characters (linear);
#: its cells are groups 1 and 2 (the second may hold more pipes: then it is no version).
_PIPE_ROW = re.compile(r"(?=[^\n]{0,200}$)[ \t]*+\|?[ \t]*+([^|\n]{1,60}?)[ \t]*+\|[ \t]*+([^\n]{0,140}?)[ \t]*+\|?[ \t]*+")
#: A cell saying a package's version (``1.26.4``, ``v2.0 (conda)``) or its absence
#: (``_module not found_``, ``not installed``, ``n/a``), markdown emphasis allowed.
_PIPE_VERSION = re.compile(r"(?i)[*_ ]*+(?:v?\d+(?:\.\d+)++[\w.+-]*+(?:[ \t]++[(\[][^\n]*)?"
                           r"|[^|\n]*?not (?:found|installed|available)[^|\n]*|none|n/?a)[*_ ]*+")


def _without_pipe_reports(text: str) -> str:
    """``text`` without its pipe-table version reports (``PIPE_REPORTS_DROPPED``): a run of
    at least ``REPORT_BLOCK_LINES`` two-cell rows (``_PIPE_ROW``) whose first row says
    ``version`` and at least half of whose other rows (a markdown separator row aside) give
    a version or its absence in their second cell (``_PIPE_VERSION``). Lines are blanked,
    not removed. Linear: each line is matched once against patterns of at most 200
    characters."""
    if "|" not in text:
        return text
    lines = text.split("\n")
    dropped = [False] * len(lines)
    i = 0
    while i < len(lines):
        head = _PIPE_ROW.fullmatch(lines[i])
        if not head or "version" not in (head.group(1) + " " + head.group(2)).casefold():
            i += 1
            continue
        j, versions = i + 1, 0
        while j < len(lines) and (row := _PIPE_ROW.fullmatch(lines[j])):
            versions += bool(_PIPE_VERSION.fullmatch(row.group(2)))
            j += 1
        if j - i >= REPORT_BLOCK_LINES and 2 * versions >= j - i - 2:
            dropped[i:j] = [True] * (j - i)
        i = max(j, i + 1)
    return _blanked(text, lines, dropped)


def _without_diagnostic_dumps(text: str) -> str:
    """``text`` without the diagnostic dumps it pastes (``DIAGNOSTIC_REPORTS_DROPPED``): under
    each line naming a diagnostic (``_DIAGNOSTIC_HEADING``), past markup
    (``_REPORT_MARKUP``), the run of lines that are report lines (``_REPORT_LIKE``),
    attributes (``_ATTRIBUTE``) or framed by a box (``_BOX``), blank lines inside it
    allowed; dropped with its heading when it has at least ``REPORT_BLOCK_LINES`` lines and
    ``DIAGNOSTIC_ATTRIBUTES`` attributes. Lines are blanked, not removed. Linear: each line
    is matched at most twice, against patterns of at most 200 characters."""
    if not DIAGNOSTIC_REPORTS_DROPPED:
        return text
    folded = text.casefold()  # (as ``(?i)`` folds: ``ſ``, ``K``) a substring test, not a regex a line
    if not any(word in folded for word in _DIAGNOSTIC_WORDS):
        return text
    lines = text.split("\n")
    dropped = [False] * len(lines)
    k = 0
    while k < len(lines):
        if not _DIAGNOSTIC_HEADING.fullmatch(lines[k]):
            k += 1
            continue
        i = k + 1
        while i < len(lines) and lines[i].strip() and _REPORT_MARKUP.fullmatch(lines[i]):
            i += 1
        j, filled, attributes = i, 0, 0
        while j < len(lines):
            line = lines[j]
            if line.strip():
                bare = _BOX.sub(" ", line)
                attribute = bool(_ATTRIBUTE.fullmatch(bare) or _REPORT_LIKE.fullmatch(bare))
                if not (attribute or bare != line):
                    break
                filled += 1
                attributes += attribute
            j += 1
        if filled >= REPORT_BLOCK_LINES and attributes >= DIAGNOSTIC_ATTRIBUTES:
            dropped[k] = True
            dropped[i:j] = [True] * (j - i)
        k = max(j, k + 1)
    return _blanked(text, lines, dropped)


def _label_words(label: str) -> tuple[list[str], set[str]]:
    """A prompt's label's words, its asides left out (``_LABEL_ASIDE``), lower-cased, and
    those of them that are no prompt words (``FORM_PROMPT_WORDS``)."""
    words = _LABEL_WORD.findall(_LABEL_ASIDE.sub(" ", label).lower())
    return words, {w for w in words if w not in FORM_PROMPT_WORDS}


def _asks_setup(label: str) -> bool:
    """Whether a ``label: value`` line's label asks for the setup (``_SETUP_PROMPT``) in
    prompt words but for one other (the project's, the tool's name), its asides left out
    (``_label_words``): "PHP version", "gin version (or commit ref)", "OS"."""
    words, other = _label_words(label)
    return bool(words) and bool(_SETUP_PROMPT.search(label)) and len(other) <= 1


def _holds_evidence(line: str) -> bool:
    """Whether a line of a setup answer holds the bug's words: a failure's line
    (``_ANSWER_EVIDENCE``), a code name in a sentence (``_NAMED_SPAN``, five words or more)
    or a sentence of ``FORM_ANSWER_WORDS`` words."""
    return bool(_ANSWER_EVIDENCE.search(line) or (_NAMED_SPAN.search(line) and len(line.split()) >= 5)
                or len(_ANSWER_WORD.findall(line)) >= FORM_ANSWER_WORDS)


#: What a GitHub issue form writes for an optional field left empty, and an operating
#: system's line of an environment section: no words of the bug. ``_No response_`` read as
#: code (its underscores) and named ``response``, which lifted a link checker's
#: ``check_anchor`` into a Sphinx issue's answer (a newcomer).
_FORM_PLACEHOLDER = re.compile(r"^[ \t]*+(?:_No response_|[-*+]?[ \t]*+(?:OS|Operating [Ss]ystem):[^\n]{0,80})[ \t]*$",
                               re.MULTILINE)
#: Whether ``_FORM_PLACEHOLDER`` lines are dropped from a long query.
FORM_PLACEHOLDERS_DROPPED = True
#: What a Trac ticket's page adds to its text when it is copied as the page shows it
#: (Django's tickets, and SWE-bench's django problem statements, read so): a
#: ``Description`` line under the summary and a ``(last modified by Name)`` line. Their
#: words named no code, yet ``description`` matched every ``short_description`` and the
#: editor's name was looked up as two capitalised names (``Tim``, ``Graham``).
_TICKET_HEADER = re.compile(r"\A([^\n]*\n)[ \t]*+Description[ \t]*+\n"
                            r"|^[ \t]*+\(last modified by [^()\n]{1,80}\)[ \t]*+$", re.MULTILINE)
#: Whether ``_TICKET_HEADER``'s lines are dropped from a long query.
TICKET_HEADER_DROPPED = True
#: Whether an issue template's prompts are dropped from a long query
#: (``_without_form_prompts``): a heading that only asks the reporter ("Describe the bug",
#: "What is the expected behavior?", "Steps to reproduce", "Relevant log output"), and
#: the short answer under one asking for a version, an installation or an operating system
#: ("What version of ripgrep are you using?" ``ripgrep 11.0.1 / -SIMD -AVX (compiled)``,
#: "How did you install ripgrep?" ``brew install ripgrep``). A prompt repeats in every
#: issue of a repository and names nothing of the bug; its words weighed as the
#: reporter's own: ripgrep's form put ``behavior`` (three headings) among an issue's
#: heaviest terms, and its version and install answers (``simd``, ``avx``, ``brew``,
#: ``centos``) led four issues to its build and packaging scripts (a newcomer). So is a
#: checklist's ticked box (``- [X] Minimal example — the example is as focused as
#: reasonably possible ..``: xarray's form, in 14 of its 24 issues here).
FORM_PROMPTS_DROPPED = True
#: Non-blank lines (and characters) of a version, installation or operating system answer
#: at most that is dropped with its prompt: a longer one is more than an answer (a pasted
#: report, kept for ``_without_report_blocks``' rules).
FORM_ANSWER_LINES = 8
FORM_ANSWER_CHARS = 600
#: A heading line: Markdown's (``### What happened?``; issue forms render every field so)
#: or a line of bold text alone (``**Describe the bug**``, older templates). At most 200
#: characters.
_HEADING_LINE = re.compile(r"[ \t]{0,3}(?:#{1,6}[ \t]++([^\n]{1,200}?)[ \t#]*+|\*\*([^*\n]{1,200})\*\*:?[ \t]*+)")
#: A task list's item (``- [x] ..``, ``* [ ] ..``): a template's checklist the reporter ticks.
_CHECKLIST_LINE = re.compile(r"[ \t]{0,3}[-*+][ \t]\[[ xX]\][ \t][^\n]*")
#: A line opening or closing a fenced block.
_FENCE_LINE = re.compile(r"[ \t]{0,3}(?:```(?![^\n]*```)|~~~)")
#: A word of a heading's label (any script; digits and underscores join it).
_LABEL_WORD = re.compile(r"\w+")
#: Words of an issue template's prompts: a heading of these only asks the reporter.
FORM_PROMPT_WORDS = frozenset("""
a actual additional address affected agree also an and any anything are asking backend be
before behavior behaviour bug call case checklist checks code command complete component conduct
config configuration confirmation context current dependencies describe description
detailed details did do does else environment error errors example expect expected
extensions extra feature fix follow for give happen happened happening happens has have
how i if in info information initial install installation installed is issue it know
latest log logs mcve message messages meta minimal mvce need notes observed of on
operating or os other outcome output platform please possible pr problem project provide
python related release relevant repro reproduce reproducible reproducing reproduction
request result results run running sample screenshot screenshots search searched see
snippet solution stack step steps submit submitting summary system tested that the this to
tools trace traceback tracebacks tried use used using verifiable version versions was way we were
what when where which why willing with you your
""".split())
#: Prompt words asking for the reporter's setup: the answer under such a prompt is dropped
#: too when it is short (``FORM_ANSWER_LINES``). Not "environment": Sphinx's "Environment
#: info" lists the extensions in use (``sphinx.ext.autodoc``), evidence of the bug.
_SETUP_PROMPT = re.compile(r"(?i)\b(?:versions?|install(?:ed|ation)?|operating system|os|platform)\b")
#: A word of prose: an answer line of ``FORM_ANSWER_WORDS`` such words is the reporter's
#: account, not a version or a platform.
_ANSWER_WORD = re.compile(r"\b[A-Za-z]{2,}\b")
FORM_ANSWER_WORDS = 10
#: An inline code span that names code (a dotted or called name, camelCase): an answer or
#: a checklist item holding one is about the code (a tracking issue's ``- [ ]
#: `DataFrame.fillna```; a review).
_NAMED_SPAN = re.compile(r"`(?=[^`\n]{0,200}?(?:[._(]|[a-z][A-Z]))[^`\n]{1,200}+`")
#: A line of a failure (a Python traceback's head, an error line, a Rust panic or compiler
#: error): an answer holding one is the bug's, whatever its prompt (a build's traceback
#: under "Installation"; a review).
_ANSWER_EVIDENCE = re.compile(r"Traceback \(most recent call last\)|\berror(?:\[E\d+\])?:|panicked at"
                              r"|\b[A-Za-z_]\w{0,80}?(?:Error|Exception):")
#: A line giving one setting of the reporter's setup as ``label: value``, outside a heading
#: (``- OS: Ubuntu 20.04``, ``**PHP version**: 7.3.9``, ``- gin version (or commit ref):
#: v1.5.0``): the label is read as a heading's, the value is short. Many templates list the
#: setup so under a heading that asks for nothing (gin's "Environment", guzzle's header
#: lines): a review. ``_FORM_PLACEHOLDER`` drops the ``OS:`` line of any form; this reads
#: every setup label so.
_SETUP_LINE = re.compile(r"[ \t]{0,3}+(?:[-*+][ \t]++)?(?:\*\*)?([^:*`\n]{1,80}?)(?:\*\*)?[ \t]*+:"
                         r"(?:\*\*)?[ \t]++([^\n]{1,160})")
#: Whether ``_SETUP_LINE``'s lines are dropped with the form's prompts.
SETUP_LINES_DROPPED = True
#: Characters of a line tried as ``_SETUP_LINE`` at most (its parts' bounds and some space).
_SETUP_LINE_CHARS = 260
#: What a label says in passing, left out before its words are counted: a parenthesis or
#: a code span ("What version of Go are you using (`go version`)?": ``go`` twice).
_LABEL_ASIDE = re.compile(r"\([^()\n]{0,120}\)|`[^`\n]{0,120}`")


def _without_form_prompts(text: str) -> str:
    """``text`` without its issue template's prompts (``FORM_PROMPTS_DROPPED``): each
    heading line (``_HEADING_LINE``, outside a fence; a ``# `` line beside another line is
    a comment of unfenced code) whose words, asides left out (``_LABEL_ASIDE``), are all
    ``FORM_PROMPT_WORDS`` but for one distinct word (the project's name: "What version of
    ripgrep are you using?") when it asks (ends with ``?``) or asks for the setup
    (``_SETUP_PROMPT``: "Matplotlib Version"); under a setup prompt, its answer too (up to
    the next heading, or its first block when none follows) when it is at most
    ``FORM_ANSWER_LINES`` non-blank lines and ``FORM_ANSWER_CHARS`` characters and holds
    no evidence (a failure's line, ``_ANSWER_EVIDENCE``; a code name in a sentence; a line
    of ``FORM_ANSWER_WORDS`` words); each line past the title giving a setting of the setup
    (``_SETUP_LINE``: a label asking for the setup as a heading would, ``_asks_setup``, and a
    value holding no evidence); and each checklist item (``_CHECKLIST_LINE``) outside
    a fence naming no code. Lines are blanked, not removed. Linear in the text: each line
    is matched once by patterns of at most 200 characters, possessive where they repeat."""
    lines = text.split("\n")
    heads: list[re.Match[str] | None] = []
    fenced = False
    dropped = [False] * len(lines)
    for k, line in enumerate(lines):  # a ``#`` line in a fence is a comment of code
        if _FENCE_LINE.match(line):
            fenced = not fenced
        # a ``# `` line right under another line is a comment of unfenced code, not a label
        comment = line.lstrip().startswith("# ") and (
            (k > 0 and lines[k - 1].strip() != "") or (k + 1 < len(lines) and lines[k + 1].strip() != ""))
        heads.append(None if fenced or comment else _HEADING_LINE.fullmatch(line))
        dropped[k] = (not fenced and _CHECKLIST_LINE.fullmatch(line) is not None
                      and not _NAMED_SPAN.search(line))  # a task list of the code's names
        if (SETUP_LINES_DROPPED and k and not fenced and heads[k] is None and len(line) <= _SETUP_LINE_CHARS
                and (setting := _SETUP_LINE.fullmatch(line))):
            dropped[k] = _asks_setup(setting.group(1)) and not _holds_evidence(setting.group(2))
    for i, head in enumerate(heads):
        if head is None:
            continue
        label = (head.group(1) or head.group(2)).strip()
        words, other = _label_words(label)
        setup = bool(_SETUP_PROMPT.search(label))
        if not words or len(other) > (1 if label.endswith("?") or setup else 0):
            continue
        dropped[i] = True
        if not setup:
            continue
        j = i + 1
        while j < len(lines) and heads[j] is None:
            j += 1
        if j == len(lines):  # no label after it: its first block only (a fence, a paragraph)
            j = i + 1
            while j < len(lines) and not lines[j].strip():
                j += 1
            if j < len(lines) and _FENCE_LINE.match(lines[j]):
                j += 1
                while j < len(lines) and not _FENCE_LINE.match(lines[j]):
                    j += 1
                j = min(j + 1, len(lines))
            else:
                while j < len(lines) and lines[j].strip():
                    j += 1
        answer = [line for line in lines[i + 1:j] if line.strip()]
        if any(_holds_evidence(line) for line in answer):
            continue  # more than an answer: the bug's words under the prompt
        if len(answer) <= FORM_ANSWER_LINES and sum(len(line) for line in answer) <= FORM_ANSWER_CHARS:
            dropped[i + 1:j] = [True] * (j - i - 1)
    return _blanked(text, lines, dropped)


#: An interpreter's start-up banner pasted with a session (``Python 3.9.6 (default, Jun 28
#: 2021, ...)``, ``[GCC 9.3.0] on linux``, ``Type "help", "copyright", ...``, IPython's): its
#: words (``default``, ``copyright``, ``credits``, ``license``, ``help``, ``type``) name the
#: interpreter, not the repository, yet outweighed a short issue's own words and pulled the
#: console entry points (``isympy.py``) first. Dropped from a long query before analysis.
_BANNER = re.compile(  # a banner line is short: longer lines are never tried (linear)
    r"^(?=[^\n]{0,300}$)[ \t]*+(?:Python \d+\.\d+\S*[ \t][^\n]*\([^\n]*\b\d{4}\b[^\n]*\).*"
    r"|\[(?:GCC|Clang|MSC)\b.*"
    r"|.*\bType [\"']?(?:help|copyright)[\"']?,.*"
    r"|IPython \d+\.\d+.*"
    r"|(?:\?|%quickref|help|object\?)[ \t]+->.*)$", re.MULTILINE)


#: The line a Python trace prints under a frame that passes an exception on instead of
#: raising it where it happened: a raise with a traceback (``raise
#: value.with_traceback(tb)``; jinja's ``raise rewrite_traceback_stack(source=source)``)
#: or a re-raise helper's call (``reraise(*exc_info)``, ``six.reraise(..)``). Not a new
#: exception whose message holds a traceback (``raise JobFailed(traceback.format_exc())``).
_PASSES_ON = re.compile(r"^raise\s+[\w.]*(?:\.with_traceback|traceback\w*)\(|^(?:[\w.]+\.)?reraise\(")


def _without_handed_back(text: str) -> str:
    """``text`` without, in each Python traceback whose innermost frames are generated code
    (a file name in angle brackets: ``File "<template>"``, ``<unknown>``, ``<string>``)
    below a frame passing the exception on (``_PASSES_ON``), its frames from the first down
    to that one (headers and source lines): they are the path the error was handed back
    along, and no indexed code ran where it happened; the frames of another package
    outside them stay (an application's own call of ``render``). jinja re-raises a template's error
    through ``Template.render``, ``handle_exception`` and ``_compat.reraise``: their files
    took the frame weights, their names the definition bonus and their words the lexical
    side, and the compiler or the lexer at fault came 6th-10th (a newcomer's jinja issues).
    A re-raise with project frames inside it (Django's ``wrap_database_errors``, SQLAlchemy's
    ``raise exc.with_traceback(..) from e``: the original raise site) cuts nothing: the
    frames outside it are the call that failed (a review). Linear: one pass over the frames."""
    heads = [m.start() for m in stack.TRACEBACK_HEAD.finditer(text)]
    blocks: dict[int, list[tuple[int, int, bool, str]]] = {}  # per traceback: its frames
    for m in stack.PYTHON.finditer(text):
        code = stack.CODE_LINE.match(text, m.end())
        passes = bool(code and _PASSES_ON.search(code.group(1).strip()))
        frames = blocks.setdefault(bisect.bisect_right(heads, m.start()), [])
        frames.append((m.start(), code.end() if code else m.end(), passes, _package(m.group(1))))
    cuts: list[tuple[int, int]] = []
    for frames in blocks.values():
        last = max((i for i, f in enumerate(frames) if f[2]), default=-1)
        inside = frames[last + 1:]
        if last < 0 or not inside or not all(package.startswith("<") for *_, package in inside):
            continue
        first = last  # the frames of the re-raising package around it: the caller's stay
        while first > 0 and frames[first - 1][3] == frames[last][3]:
            first -= 1
        cuts.append((frames[first][0], frames[last][1]))
    if not cuts:
        return text
    out, at = [], 0
    for start, end in sorted(cuts):
        out.append(text[at:max(start, at)])
        at = max(at, end)
    return "".join(out) + text[at:]


def _package(path: str) -> str:
    """The package a traceback frame's file is in: its directory's first part after an
    installation directory (``site-packages/jinja2/..`` -> ``jinja2``), else its
    directory; a generated file as printed (``<template>``)."""
    path = path.replace("\\", "/")
    if path.startswith("<"):
        return path
    head, _, _ = path.rpartition("/")
    for marker in ("site-packages/", "dist-packages/"):
        if marker in head + "/":
            return (head + "/").rpartition(marker)[2].split("/", 1)[0]
    return head


#: A traceback frame in the interpreter's own library (``.../lib/python3.9/argparse.py``,
#: ``C:\\Python39\\Lib\\argparse.py``; not ``site-packages``) and the source line under it:
#: its names (``parse_known_args``, ``_get_values``) are the standard library's, and a
#: repository's same-named functions are not what the trace is about: left out of
#: ``Query.names`` (its words still count as terms: which library call failed is a clue).
_STDLIB_FRAME = re.compile(
    r"^[ \t]*File \"[^\"\n]{0,400}?(?:/lib/python\d[\w.]*/|\\[Ll]ib\\)"
    r"(?!(?:site|dist)-packages)[^\"\n]{1,400}\", line \d+.*\n"
    r"(?:[ \t]+(?!File \")\S.*\n?)?", re.MULTILINE)
#: Python's report of a log record its handler failed to format (``logging.Handler.
#: handleError``): the handler's traceback (group ``failed``), then the stack of the code
#: that logged it (group ``stack``), then the record's ``Message:``.
_LOGGING_ERROR = re.compile(r"^--- Logging error ---[ \t]*\n(?P<failed>.*?)^Call stack:[ \t]*\n"
                            r"(?P<stack>.*?)(?=^Message: |^```|\Z)", re.MULTILINE | re.DOTALL)
#: A logging module's file: the standard library's and a project's own wrapper of it
#: (sphinx's ``sphinx/util/logging.py``, a ``log.py``, a ``logger.py``).
_LOGGING_FILE = re.compile(r"(?:^|[/\\])(?:logging|log|logger|logs|_logging)(?:\.py|[/\\]__init__\.py)$")


#: Whether the names an issue's code blocks define (``class Config:``, ``def host(self)``,
#: ``function handler(``) and its prose never writes are the reporter's own reproducer's:
#: no names of the issue (``Query.names``), and their words weigh as prose, not as code
#: (``own_definitions``). An astroid reporter's ``Config``, ``host`` and ``_host`` drew
#: five chunks tied at one score, and ``scoped_nodes.py`` out of the answer (a newcomer).
#: Of the 154 issues of the dev and trial sets whose code blocks define a name, 2 define
#: a function the fix edits; one (sympy 24152, the reporter's copy of the function) writes
#: it in its prose too, and keeps it.
OWN_DEFINITIONS_PROSE = True
#: The keywords a definition's head starts with (after its modifiers), over the languages
#: read: Python's ``def``/``class``, JS's and TS's ``function``/``class``/``interface``/``enum``,
#: Rust's ``fn``/``struct``/``enum``/``trait``, Go's ``func``/``struct``, Kotlin's ``fun``,
#: Java's and C#'s ``class``/``interface``/``record``/``enum``. Shared by ``_OWN_DEFINITION``
#: (with Kotlin's ``object``) and ``anchors._DEFINING`` (with Rust's ``impl``: a name after
#: one is no call; ``impl Display for X`` names a trait the reporter did not define).
DEFINING_KEYWORDS = ("def", "class", "function", "fn", "func", "struct", "interface", "enum", "trait",
                     "record", "fun")
#: A definition's head in a code block, its name in group 1: Python's, JS's and TS's
#: ``function``/``class``, Rust's ``fn``/``struct``/``enum``/``trait``, Go's ``func``
#: (a method's receiver skipped), Kotlin's ``fun``/``object``, C#'s and Java's ``class``,
#: ``interface``, ``record``; a modifier or a session's prompt (``>>> ``) before it.
_OWN_DEFINITION = re.compile(
    r"^[ \t>.]*+(?:(?:export|default|public|private|protected|internal|static|async|abstract|final|sealed|open|"
    r"data|pub(?:\([\w ]*+\))?|unsafe|const)[ \t]++)*+"
    r"(?:" + "|".join((*DEFINING_KEYWORDS, "object")) + r")[ \t]++"
    r"(?:\([^)\n]{0,80}\)[ \t]*+)?([A-Za-z_$][\w$]*+)", re.MULTILINE)
#: Names of a reporter's own code read at most (``own_definitions``).
MAX_OWN_DEFINITIONS = 32


def own_definitions(text: str) -> frozenset[str]:
    """The names ``text``'s fenced code blocks define (``_OWN_DEFINITION``) that no sentence
    outside them writes (the title and the prose, inline code spans left out): a
    reporter's reproducer, not the project's code they point at. At most ``MAX_OWN_DEFINITIONS``;
    empty when ``OWN_DEFINITIONS_PROSE`` is off. Linear in ``len(text)``."""
    if not OWN_DEFINITIONS_PROSE or "```" not in text:
        return frozenset()
    defined: dict[str, None] = {}
    for block in _FENCE.finditer(text):
        for m in _OWN_DEFINITION.finditer(block.group()):
            if len(defined) >= MAX_OWN_DEFINITIONS:
                break
            defined.setdefault(m.group(1), None)
    if not defined:
        return frozenset()
    # written in a sentence, the name is pointed at (sympy 24152's "The issue arises from an
    # inprecise check in TensorProduct._eval_expand_tensorproduct()"); an inline code span
    # is the reproducer's too (astroid's "`cfg.host` is inferred as an instance of `Config`")
    written = set(_NAME.findall(_TICKS.sub(" ", without_fences(text))))
    return frozenset(n for n in defined if n not in written)


def _own_words(code: str, own: Collection[str]) -> tuple[str, str]:
    """``code`` without the identifiers of ``own`` (whole identifiers), and those
    identifiers, space-separated."""
    if not own:
        return code, ""
    found: list[str] = []
    pattern = re.compile(r"(?<![\w$])(?:" + "|".join(map(re.escape, sorted(own, key=len, reverse=True))) + r")(?![\w$])")
    rest = pattern.sub(lambda m: found.append(m.group()) or " ", code)
    return rest, " ".join(found)


def _logged_calls(text: str) -> str:
    """``text`` with each Python logging error report (``_LOGGING_ERROR``) cut to what
    points at the code at fault: the innermost frames of the stack of the code that logged
    the record, in a logging module's file (``_LOGGING_FILE``), are left out, so the
    innermost frame left is the call that logged (sphinx's coverage builder: the report's
    frames in ``sphinx/util/logging.py`` located it first, the culprit
    ``_determine_py_coverage_modules`` second; a newcomer). The handler's own traceback,
    printed before that stack (outer frames), stays: a project's handler may be where it
    failed (rich's ``RichHandler`` writing to a legacy Windows console; a review)."""
    if "--- Logging error ---" not in text:
        return text

    def cut(found: re.Match[str]) -> str:
        called = found.group("stack")
        starts = [m.start() for m in re.finditer(r"^[ \t]*File \"", called, re.MULTILINE)]
        end = len(called)
        for start in reversed(starts):
            frame = stack.PYTHON.match(called[start:].lstrip())  # File "p.py", line 3, in f
            if frame is None or not _LOGGING_FILE.search(frame.group(1)):
                break
            end = start
        return f"--- Logging error ---\n{found.group('failed')}Call stack:\n{called[:end]}"
    return _LOGGING_ERROR.sub(cut, text)


#: The info string of a fenced block (```` ```shell ````): a language name, not code.
_FENCE_INFO = re.compile(r"^```[\w+#.-]*")


def _without_outer_frames(part: str, python: Sequence[re.Match[str]], inner: Collection[int]) -> str:
    """``part`` without its Python traceback frames (``python``: its ``stack.PYTHON``
    matches, in text order) but the innermost ones (``inner``: their indices in ``python``,
    ``_innermost``), each frame's line and the source line printed under it (their words
    are read as frames, by depth, in ``_long_terms``); unchanged when
    ``OUTER_FRAME_WEIGHT`` equals ``WEIGHT_FRAME``."""
    if OUTER_FRAME_WEIGHT == WEIGHT_FRAME:
        return part
    found = [m for i, m in enumerate(python) if i not in inner]
    if not found:
        return part
    out, at = [], 0
    for match in found:
        start = part.rfind("\n", 0, match.start()) + 1
        end = part.find("\n", match.end())
        if end != -1:  # the source line under the frame's, when indented deeper
            below = part.find("\n", end + 1)
            line = part[end + 1:below if below != -1 else len(part)]
            if line[:1] in (" ", "\t") and not stack.PYTHON.search(line):
                end = below
        out.append(part[at:start])
        at = len(part) if end == -1 else end
    out.append(part[at:])
    return "".join(out)


#: Whether a Python frame in the interpreter's own library (``_STDLIB_FRAME``) is passed
#: over when choosing a traceback's ``INNER_FRAMES`` innermost frames, its words weighing
#: as an outer frame's (``_innermost``), unless every frame is one. A trace failing in
#: ``json.dumps`` (``json/__init__.py``, ``json/encoder.py``, ``iterencode``) had the
#: library's words weigh as much as the title's, and the project's own frame
#: (``settings.copy_to_dict`` called on the line that failed) as an outer frame's: the
#: exporter using ``json`` came first (a newcomer's scrapy issues).
STDLIB_FRAMES_OUTER = True


def _frame_key(frame: re.Match[str]) -> tuple[str, str, str]:
    """A Python frame's file name (its path's last part), line and function: the same frame
    before and after ``drop_environment`` shortened its path."""
    return re.split(r"[\\/]", frame.group(1))[-1], frame.group(2), frame.group(3) or ""


def _stdlib_frames(text: str) -> frozenset[tuple[str, str, str]]:
    """The keys (``_frame_key``) of ``text``'s Python frames in the interpreter's own
    library (``_STDLIB_FRAME``); empty when ``STDLIB_FRAMES_OUTER`` is off. Linear."""
    if not STDLIB_FRAMES_OUTER or "File \"" not in text:
        return frozenset()
    return frozenset(_frame_key(frame) for m in _STDLIB_FRAME.finditer(text)
                     if (frame := stack.PYTHON.search(m.group())))


def _innermost(part: str, python: Sequence[re.Match[str]],
               stdlib: Collection[tuple[str, str, str]] = frozenset()) -> set[int]:
    """The indices in ``python`` (``part``'s ``stack.PYTHON`` matches, in text order) of its
    innermost ``INNER_FRAMES`` frames (``frames.innermost_first``: a cause's block before
    the block raised from it), past the interpreter's library's frames (keys in ``stdlib``,
    ``_stdlib_frames``) unless every frame is one."""
    order = stack.innermost_first(part, [m.start() for m in python])
    own = [i for i in order if _frame_key(python[i]) not in stdlib] if stdlib else order
    return set((own or order)[:INNER_FRAMES])


def _reraised(part: str, frame: re.Match[str]) -> bool:
    """Whether the source line printed under a Python frame header (``frame``, a
    ``stack.PYTHON`` match in ``part``) re-raises (``frames.reraises``)."""
    code = stack.CODE_LINE.match(part, frame.end())
    return bool(code) and stack.reraises(code.group(1))


def _long_terms(text: str, own: Collection[str] | None = None,
                stdlib: Collection[tuple[str, str, str]] = frozenset(),
                title_floor: float = 0.0) -> tuple[tuple[str, float], ...]:
    """Weighted, capped terms of an issue or trace (module docstring); environment path
    prefixes already dropped (``drop_environment``). ``own``: the reporter's own definitions
    (``own_definitions``), when the caller has read them; ``None`` reads them from ``text``.
    ``stdlib``: its frames in the interpreter's library (``_stdlib_frames`` of the text
    before the drop), weighed as outer ones. ``title_floor``: the least weight of a term
    read in the title (its first line; ``UNTRACED_TITLE_WEIGHT``), 0 for none."""
    weight: dict[str, float] = {}
    counts: Counter[str] = Counter()
    order: dict[str, int] = {}
    floor = 0.0

    def add(words: str, w: float) -> None:
        w = max(w, floor)
        if HEX_PARTS_DROPPED:
            words = _HEX_WORD.sub(" ", words)
        for term in sparse.tokens(words):
            if term in sparse.QUERY_STOP_WORDS or term in PROSE_STOP or _noise(term):
                continue
            counts[term] += 1
            order.setdefault(term, len(order))
            weight[term] = max(weight.get(term, 0.0), w)

    title, _, body = text.partition("\n")
    own = own_definitions(text) if own is None else own
    for part, boost, floor in ((title, TITLE_BOOST, title_floor), (body, 1.0, 0.0)):
        python = list(stack.PYTHON.finditer(part))  # outermost first
        innermost = _innermost(part, python, stdlib)
        read = _without_outer_frames(part, python, innermost)  # weighed below, by depth
        # a fence's info string (```` ```python ````) names its language, no code of it
        fenced = " ".join(_FENCE_INFO.sub("", m.group()) if FENCE_TAGS_DROPPED else m.group()
                          for m in _FENCE.finditer(read))
        # a shell command line in a block (`$ black --preview --diff c5.py`): how the
        # reporter ran the tool, no code of the fix; its words weigh as prose
        add(" ".join(m.group(1) for m in _SHELL_LINE.finditer(fenced)), WEIGHT_PROSE * boost)
        code = _SHELL_LINE.sub(" ", fenced)
        code += " " + " ".join(code_spans(_FENCE.sub(" ", read)))
        # the reporter's own definitions weigh as prose: their words are no project's
        code, theirs = _own_words(code, own)
        add(theirs, WEIGHT_PROSE * boost)
        prose = _TICKS.sub(" ", _FENCE.sub(" ", read))
        add(prose, WEIGHT_PROSE * boost)
        for word in _WORD.findall(prose):
            if _CODE_WORD.search(word) or _EXCEPTION.fullmatch(word):
                add(word, WEIGHT_CODE * boost)
        add(code, WEIGHT_CODE * boost)
        # (a command line's paths are the reporter's files: `black --diff c5.py`); an outer
        # frame's path is read with its frame, below
        for match in _PATH.finditer(_FENCE.sub(lambda m: _SHELL_LINE.sub(" ", m.group()),
                                               read if OUTER_FRAME_PATHS_OUTER else part)):
            if BARE_FILES_PROSE and "/" not in match.group():
                # a file named without a directory is mostly the reporter's own
                # (``conf.py``, ``index.rst``, ``example.py``): its stem weighs as prose
                add(match.group().rpartition(".")[0], WEIGHT_PROSE * boost)
            else:
                add(match.group(), WEIGHT_FRAME * boost)
        # a trace whose innermost frame re-raises shows where the error was handed back,
        # not where it happened: its frames weigh as outer ones (``frames.reraises``)
        handed = bool(python) and stack.single_traceback(text) and _reraised(part, python[-1])
        for i, match in enumerate(python):
            inner = i in innermost and not handed
            add(f"{match.group(1)} {match.group(3) or ''}", (WEIGHT_FRAME if inner else OUTER_FRAME_WEIGHT) * boost)
        for i, match in enumerate(stack.JVM.finditer(part)):  # innermost first
            add(f"{match.group(2)} {match.group(3)}",
                (WEIGHT_FRAME if i < INNER_FRAMES else OUTER_FRAME_WEIGHT) * boost)
        if ERROR_LINE_WEIGHT:
            for match in _ERROR_LINE.finditer(part):
                add(match.group(), ERROR_LINE_WEIGHT * boost)
    scored = {t: weight[t] * (1.0 + math.log(min(counts[t], MAX_COUNT))) for t in weight}
    best = sorted(scored, key=lambda t: (-scored[t], order[t]))[:MAX_TERMS]
    return tuple((t, round(scored[t], 3)) for t in best)


#: A callable an error line names: ``RST.__init__()``, ``_print_Foo()`` (Python's
#: TypeError messages name the function that refused the call).
_ERROR_CALL = re.compile(r"(?<![\w.])([A-Za-z_][\w.]*+)\(\)")  # from a name's start: linear
#: A Python error line refusing a call's arguments (``TypeError: f() got an unexpected
#: keyword argument 'x'``, ``... missing 1 required positional argument``, ``... takes 2
#: positional arguments but 3 were given``, ``... takes from 1 to 2 positional arguments``,
#: ``... got multiple values for argument``, ``... takes exactly one argument``):
#: the callable in group 1, as printed (3.10+: ``Class.method``). The call failed before
#: the callable ran, so no frame names it.
_REFUSED_CALL = re.compile(r"(?<![\w.])([A-Za-z_][\w.]*+)\(\) (?:got an unexpected keyword|got multiple values"
                           r"|got some positional-only|missing \d+ required"
                           r"|takes (?:no |exactly |at least |at most )?(?:from \d+ to )?(?:\d+ |one )?"
                           r"(?:positional |keyword )?arguments?)")
#: Code names of a long query kept for the definition lookup (``Query.names``): one keyword
#: lookup each (~0.1-0.3 ms on the embedded store); dev issues name 0-40 (median 4).
MAX_NAMES = 24
#: File paths of a long query kept for the file lookup (``Query.paths``).
MAX_PATHS = 8
#: Callables of refused calls kept (``Query.refused``).
MAX_REFUSED = 2
#: Traceback frames of a long query kept (``Query.frames``), innermost first.
MAX_FRAMES = 32
_NAME = re.compile(r"[^\W\d]\w*")
# A frame's function: a name, Ruby's with its ``!``, ``?`` or ``=`` (``compile!``).
_FUNCTION_NAME = re.compile(r"[^\W\d]\w*[!?=]?")
# Words of code spans that are never a definition's name: keywords of the languages the
# index parses, common literals and receivers, and prose stop words.
_NOT_NAMES = PROSE_STOP | frozenset(w.lower() for w in keyword.kwlist) | frozenset("""
self cls this super true false null nil none undefined func fn var let const val def
function return import from package static public private protected void int str bool
string new print println printf echo python python3 pip traceback recent call file line
module""".split())
# A capitalised word inside a sentence: a class named in prose ("a Matrix with ...").
_CAPITALISED = re.compile(r"(?<=[\w,;(] )[A-Z][a-z]+[A-Z]?\w*")


#: Whether an inline code span that reads as prose gives only its code words as names
#: (``_code_words_of_prose``).
PROSE_SPAN_CODE_WORDS = True
#: Whether a fenced line that reads as a sentence or an error line (``_code_words_of_prose``:
#: a program's output, ``ERROR: Could not find a version that satisfies the requirement
#: foo==1.0``, sqlfluff's ``WARNING: Parsing errors found and dialect is set to ..``)
#: gives only its code words as names: pip's resolver output named ``find``, ``version``,
#: ``that``, ``satisfies``, ``requirement``, and a newcomer's hash error ``HASHES``,
#: ``THE``, ``PACKAGES``, ``MATCH`` (the names' 24 places taken; ``_fenced_sentences``).
#: Its words still weigh as code: the sentence is often the program's own string (gin's
#: ``[WARNING] Headers were already written. Wanted to override status code 200 with
#: 500``, printed by the ``responseWriter.WriteHeader`` fixed, lost the file weighed as
#: prose).
FENCED_PROSE_LINES = True
#: Words (whitespace-separated) a span holds, at least, to read as prose; the share of them
#: that are plain words (letters, a quote or a closing punctuation mark around them); and
#: the English function words (``_FUNCTION_WORDS``) among them, at least: ``from flask
#: import Flask, request`` is plain words but no sentence (a review), "Invalid character
#: found in the request target" is one.
PROSE_MIN_WORDS = 5
PROSE_SHARE = 0.7
PROSE_FUNCTION_WORDS = 2
_PROSE_WORD = re.compile(r"^[\"'`(]*[^\W\d_]+[\"'`),.:;!?]*$")
_FUNCTION_WORDS = frozenset("the a an is are was were be to of in on at by for with not no this that "
                            "it its has have".split())

#: Whether an inline code span holding an error line (an exception's name, a colon, its
#: message: `` `FieldError: Cannot resolve keyword 'width' into field. Choices are: area,
#: id, name` ``) gives only its code words as names, whatever its count of function words:
#: the message's ``Cannot``, ``resolve``, ``keyword``, ``Choices`` were looked up as
#: definitions (a newcomer's Django ticket).
ERROR_SPAN_CODE_WORDS = True


def _fenced_sentences(code: str) -> str:
    """``code`` (fenced lines) with each line that reads as a sentence or an error line
    (``_code_words_of_prose``) cut to its code words. Linear in ``len(code)``."""
    return "\n".join(_code_words_of_prose(line) for line in code.split("\n"))


def _code_words_of_prose(span: str) -> str:
    """``span`` (an inline code span) as it is, or, when it reads as a sentence
    (``PROSE_MIN_WORDS`` words or more, ``PROSE_SHARE`` of them plain words, and
    ``PROSE_FUNCTION_WORDS`` English function words) or is an error line
    (``ERROR_SPAN_CODE_WORDS``), only its code words (``_CODE_WORD``:
    ``IllegalArgumentException``, ``Result::unwrap()``), space-separated. Linear in
    ``len(span)``."""
    words = span.split()
    if ERROR_SPAN_CODE_WORDS and _NAMED_ERROR.match(span):
        return " ".join(w for w in words if _CODE_WORD.search(w))
    if len(words) < PROSE_MIN_WORDS or sum(1 for w in words if _PROSE_WORD.match(w)) < PROSE_SHARE * len(words):
        return span
    if sum(1 for w in words if w.strip("\"'`(),.:;!?").lower() in _FUNCTION_WORDS) < PROSE_FUNCTION_WORDS:
        return span
    return " ".join(w for w in words if _CODE_WORD.search(w))


def _names(text: str, errors: Sequence[re.Match[str]], own: Collection[str] | None = None,
           ) -> tuple[tuple[str, ...], int]:
    """The code names an issue or trace mentions (``Query.names``): the functions of its
    traceback frames, the identifiers of its code spans, its code words in prose (each part
    of a dotted name) and capitalised words inside a sentence; at least 3 characters, no
    exception class (``PolynomialError``, or an error line's ``TooManyRedirects``: what
    failed is where it is raised, not where it is defined; swe-lite-dev unchanged without
    them), no frame pseudo-name (``<module>``),
    one spelling per lowercased name; title first, then those the prose writes in an inline
    code span (a name the reporter points at: cobra's `legacyArgs`, said once, was cut by
    the 24 words its pasted output repeated; a newcomer), then by mentions, then by first
    appearance; and how many are the title's. A callable an error line names (``TypeError:
    RST.__init__() got an unexpected keyword argument``: the function that refused the
    call) counts as the title's. ``text`` has its environment prefixes already dropped;
    ``errors``: its error lines (``_ERROR_LINE`` matches over ``text``); ``own``: the
    reporter's own definitions (``own_definitions``), ``None`` to read them from ``text``."""
    counts: Counter[str] = Counter()
    rank: dict[str, tuple[int, int]] = {}
    spelled: dict[str, str] = {}
    spanned: set[str] = set()  # lowercased names of the prose's inline code spans
    title, _, body = text.partition("\n")
    # an error line's exception, suffix or not (``TooManyRedirects``), is no name either
    raised = {m.group(1).lower() for m in errors}
    # nor the reporter's own reproducer's definitions
    raised |= {n.lower() for n in (own_definitions(text) if own is None else own)}
    bare = _bare_error(text)
    alone = len([line for line in text.splitlines() if line.strip()]) <= 2
    if bare and (alone or not BARE_TITLE_SUBJECT or _EXCEPTION.fullmatch(bare.rpartition(".")[2])):
        raised.add(bare.rpartition(".")[2].lower())
    # ... nor, in an error line pasted alone, its module's parts: ``requests.exceptions.
    # TooManyRedirects: ..`` named the module ``exceptions``, and ``locate`` led with the
    # file defining the exception, not the one raising it (a newcomer)
    if alone and not stack.count(text):
        raised |= {part.lower() for m in errors for part in m.group()[:m.end(1) - m.start()].strip().split(".")[:-1]}
    called = " ".join(f"`{c}`" for m in errors if m.start() > len(title)  # the body's; a code span each
                      for c in _ERROR_CALL.findall(m.group()))
    for where, part in enumerate((title + "\n" + called if called else title, body)):
        found = [f.function.rsplit(".", 1)[-1] for f in stack.read(part)
                 if f.function and not stack.environment(f.function)]
        part = stack.without(part)  # their module paths and packages name nothing
        spans = [_FENCE_INFO.sub("", m.group()) for m in _FENCE.finditer(part)]
        if FENCED_PROSE_LINES:  # a printed sentence's words name nothing, its code words may
            spans = [_fenced_sentences(span) for span in spans]
        inline = code_spans(_FENCE.sub(" ", part))
        if PROSE_SPAN_CODE_WORDS:
            # a message or a sentence in an inline code span (a pasted exception's ``Invalid
            # character found in the request target. The valid characters are defined in RFC
            # 7230``) names no definition by its English words: they filled the names before
            # the snippet's ``HashConversions.to_params`` was read (a newcomer on httparty).
            # A fenced block is code, its import lines' plain words too (a review)
            inline = [_code_words_of_prose(span) for span in inline]
        for span in spans + inline:
            found += _NAME.findall(stack.PYTHON.sub(" ", span))
        spanned.update(n.lower() for span in inline for n in _NAME.findall(span))
        prose = _PATH.sub(" ", _TICKS.sub(" ", _FENCE.sub(" ", part)))
        for word in _WORD.findall(prose):
            if _CODE_WORD.search(word) or _EXCEPTION.fullmatch(word):
                found += _NAME.findall(word)
        found += _CAPITALISED.findall(prose)
        for name in found:
            if (len(name) < 3 or not _NAME.fullmatch(name) or name.lower() in _NOT_NAMES
                    or _EXCEPTION.fullmatch(name) or name.lower() in raised):
                continue  # <module>, <listcomp>: a frame's pseudo-name
            name = spelled.setdefault(name.lower(), name)  # Matrix and matrix: one lookup
            counts[name] += 1
            rank.setdefault(name, (where, len(rank)))
    best = sorted(counts, key=lambda n: (rank[n][0], n.lower() not in spanned, -counts[n], rank[n][1]))[:MAX_NAMES]
    return tuple(best), sum(1 for n in best if rank[n][0] == 0)


#: Symbol names of a short question looked up as definitions (``Query.symbols``).
MAX_SYMBOLS = 4
# A pytest node id (``tests/test_a.py::TestX::test_y[1-2]``): the test it names, in group 1.
_NODE_ID = re.compile(r"^[\w./\\-]+\.py::([\w:]+)(?:\[[^\]]*\])?$")
_SYMBOL = re.compile(r"[^\W\d]\w*[!?]?(?:(?:\.|::|#)[^\W\d]\w*[!?]?)*")  # Ruby's Helpers#send_file


def _symbols(text: str) -> tuple[str, ...]:
    """The symbol names a short question names: each code span that is one name, dotted or
    not, a call's ``()`` and arguments dropped (```Cache.get()``` -> ``Cache.get``,
    ``Queue.get(timeout=0)`` -> ``Queue.get``; an RST reference's
    shown text, ``:func:`f() <pkg.f>``` -> ``f``; a pytest node id's test,
    ``tests/test_a.py::TestX::test_y`` -> ``TestX.test_y``), then each code word of
    its prose (``Session.request``, ``parse_expr``, ``runCommand``); ``::`` read as ``.``;
    names of ``_NOT_NAMES`` and names under 3 characters left out; at most
    ``MAX_SYMBOLS``, in order of appearance."""
    found = [_callee(_shown(span)) for span in code_spans(text)]
    found += [_callee(w.strip("\"'(),?:;.")) for w in _TICKS.sub(" ", text).split()
              if _CODE_WORD.search(w)]
    found = [_NODE_ID.sub(r"\1", n) for n in found]  # a test's node id names the test
    names = (dotted(n) for n in found if _SYMBOL.fullmatch(n) and not _DUNDER.fullmatch(n))  # ``--help``: no
    return tuple(dict.fromkeys(n for n in names if len(n) >= 3 and n.lower() not in _NOT_NAMES
                               and n.lower() not in _PRODUCT_NAMES))[:MAX_SYMBOLS]


#: A call written with its arguments, as a word of prose or a code span: the name called
#: (group 1). ``Queue.get(timeout=0)`` named no symbol (a newcomer's title).
_CALL_WRITTEN = re.compile(r"^([^\W\d][\w.:#]*)\((?:[^()]|\([^()]*\))*\)?$")


def _whole(word: str) -> str:
    """A code word whose parentheses do not close (a call's arguments cut by a space or by
    ``strip``: ``Queue.get(timeout=0``) as the name it calls (``_callee``), else itself."""
    return _callee(word) if word.count("(") > word.count(")") else word


def _callee(word: str) -> str:
    """``word`` less a call's parentheses and arguments (``Cache.get()``, ``Queue.get(
    timeout=0``: ``strip`` took its closing one) when it is a call (``_CALL_WRITTEN``),
    ``""`` for a plural written so (``request(s)``, ``HTTP(S)``: prose, no call; a
    review), else itself."""
    if _PLURAL_WRITTEN.match(word):
        return ""
    call = _CALL_WRITTEN.match(word)
    return call.group(1) if call else word


#: A word with an optional plural ending in parentheses: ``request(s)``, ``box(es)``,
#: ``entr(ies)``, ``HTTP(S)`` (its closing parenthesis may be stripped already).
_PLURAL_WRITTEN = re.compile(r"^[^\W\d]\w*\((?:s|es|ies)\)?$", re.IGNORECASE)


#: A special method named alone (``__init__``, ``__repr__``): every class's, so no one
#: definition: "Test class with __init__ is not collected" pinned pytest's two-line
#: ``_DeprecatedInicfgProxy.__init__`` and located its file first (a review).
_DUNDER = re.compile(r"__\w+__")


def is_dunder(name: str) -> bool:
    """Whether ``name`` is a special method's (``_DUNDER``): every class has one so named."""
    return _DUNDER.fullmatch(name) is not None


#: Python's error about a module that lacks a name (``AttributeError: module
#: 'matplotlib.cm' has no attribute 'get_cmap'``): the module, group 1, is the file that
#: should hold it (matplotlib's ``colors.py`` was located first, on the words "module"
#: and "attribute", and ``cm.py`` second; a newcomer). A dotted name: a package's
#: (``Query.lacking``).
_MODULE_LACKS = re.compile(r"\bmodule '([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)' has no attribute\b")


#: An absolute path of a file in the text, as a compiler's diagnostic prints it
#: (``/opt/compiler-explorer/libs/fmt/8.1.1/include/fmt/core.h:2658:8: error: ..``,
#: MSVC's ``C:\src\fmt\include\fmt\core.h(1066): error C2338``): ``_PATH`` starts no
#: path after a ``/``, so only its bare ``core.h`` was read, no path. ``anchors`` finds
#: the indexed file it ends with (``PATH_DEPTH``). From a run's start only: linear.
_ABSOLUTE_PATH = re.compile(r"(?<![\w/.\\:-])(?:/|[A-Za-z]:\\)(?:[\w.-]++[/\\])+[\w.-]+\.\w{1,6}\b")
#: A Windows path's drive, left out of an absolute path read as a path.
_DRIVE = re.compile(r"^[A-Za-z]:")
#: Whether ``_ABSOLUTE_PATH``'s paths are paths the query names (``Query.paths``): a
#: newcomer's fmt issues, whose compiler errors named ``core.h`` and ``base.h`` by their
#: absolute paths only, located ``format.h`` first.
ABSOLUTE_PATHS_NAMED = True
#: A C or C++ ``#include`` line (``#include <fmt/format.h>``): the header a reproducer
#: includes is the API's entry, no file the issue points at.
_INCLUDE_LINE = re.compile(r"^[ \t]*+#[ \t]*+include[ \t]*+[<\"][^\n]*", re.MULTILINE)
#: Whether a path named only in ``_INCLUDE_LINE``s is no path of the query: fmt's
#: ``fmt/format.h``, included by every reproducer, took the path bonus and the first file
#: from ``core.h`` and ``format-inl.h`` (a newcomer: file@1 8 -> 11 of 12 with both rules).
INCLUDED_PATHS_UNNAMED = True


def _paths(text: str, printed: list[Frame]) -> tuple[str, ...]:
    """The file paths an issue or trace names (``Query.paths``), environment prefixes
    dropped, without a leading ``./`` or ``/``; frames' paths first (``printed``: the
    frames of ``text``, ``frames.read``), innermost first (a Python trace ends at the
    failing call, so a deep trace keeps its last frames within ``MAX_PATHS``), each once;
    not a runtime library's frame's (``library/std/src/io/mod.rs`` names a crate's own
    ``src/io/mod.rs``). A
    bare file name (``app.py``) is not a path: any directory may hold one. ``text`` has its
    environment prefixes already dropped."""
    runtime = {_clean_path(f.path) for f in printed if stack.environment(f.function)}
    framed = [_clean_path(f.path) for f in printed if _bare_frame(f)]
    named = _INCLUDE_LINE.sub(" ", text) if INCLUDED_PATHS_UNNAMED else text
    found = [f.path for f in printed] + [m.group() for m in _PATH.finditer(named)]
    if ABSOLUTE_PATHS_NAMED:
        found += [_DRIVE.sub("", m.group()) for m in _ABSOLUTE_PATH.finditer(named)]
    cleaned = [p for p in (_clean_path(p) for p in found) if _is_file_path(p)]
    return tuple(dict.fromkeys(p for p in framed + cleaned if p not in runtime))[:MAX_PATHS]


#: Suffixes of the files a frame may print bare: native code's, whose debuggers print a
#: frame's file as it was compiled, often bare (gdb's ``#1 0x5 in createStringObject (..) at hiredis.c:147``); Swift's, whose crash
#: reports and ``fatalError`` print the file's name alone (``(Protected.swift:101)``,
#: ``file Alamofire/SessionDelegate.swift``: its module, no directory); a browser's or a
#: bundler's JavaScript frames (``at Object.defaultVisitor (toFormData.js:160:13)``: the
#: trace of axios's issue was read, its files never named; a newcomer); Cython's, which
#: a Python trace prints by the name it was compiled from (``File "_remap.pyx", line 7, in
#: skimage.util._remap._map_array``: the frame was dropped and locate's first file was
#: its Python caller's; a newcomer's scikit-image issue).
_BARE_FRAME_SUFFIXES = (".c", ".h", ".cc", ".cpp", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".m", ".mm",
                        ".swift", ".js", ".mjs", ".cjs", ".ts", ".tsx", ".jsx", ".pyx")
#: Of those, the suffixes whose bare frame stands without a function (Swift's ``fatalError``
#: prints where it stopped, not in which function).
_UNNAMED_SUFFIXES = (".swift",)


def _bare_frame(frame: Frame) -> bool:
    """Whether ``frame`` names a function in a source file by its bare name, as native
    code's, Swift's and a browser's traces print it (``_BARE_FRAME_SUFFIXES``): a file path
    of its own (``anchors``: a file at the root so named, else the one file so named)."""
    path = _clean_path(frame.path)
    return ((bool(frame.function) or path.endswith(_UNNAMED_SUFFIXES)) and "/" not in path
            and path.endswith(_BARE_FRAME_SUFFIXES) and not stack.environment(frame.function))


#: Python's names of a comprehension's own frame (before 3.12, which inlines the first three).
_COMPREHENSIONS = frozenset({"<listcomp>", "<dictcomp>", "<setcomp>", "<genexpr>"})


def _frames(printed: list[Frame]) -> tuple[Frame, ...]:
    """``Query.frames`` of the frames ``printed`` (``frames.read``, innermost first): paths
    cleaned as ``_paths`` cleans them (a bare file name and a runtime library's frame
    dropped: Rust's ``std::io`` frames are ``library/std/src/io/mod.rs``, which named a
    crate's own ``src/io/mod.rs``), a function whose last
    segment is a pseudo-name (``<module>``, ``<lambda>``, ``Object.<anonymous>``) as none,
    at most ``MAX_FRAMES``. A comprehension's frame (``_COMPREHENSIONS``) right inside a
    frame of the same file is left out: that frame names the function it runs in (xarray's
    ``line 6939, in <listcomp>`` under ``line 6939, in map``, from an older release, was
    placed by its line alone in ``Dataset.reduce``, listed before ``Dataset.map``; a
    newcomer)."""
    found: list[Frame] = []
    for i, frame in enumerate(printed):
        if (frame.function in _COMPREHENSIONS and i + 1 < len(printed)
                and printed[i + 1].path == frame.path and printed[i + 1].function not in _COMPREHENSIONS):
            continue
        path, function = _clean_path(frame.path), frame.function
        if (_is_file_path(path) or _bare_frame(frame)) and not stack.environment(function):
            named = _FUNCTION_NAME.fullmatch(function.rsplit(".", 1)[-1])
            found.append(Frame(path, function if named else "", frame.line))
    return tuple(found[:MAX_FRAMES])


def _clean_path(path: str) -> str:
    """``path`` with ``/`` separators and without a leading ``./`` or ``/``."""
    return re.sub(r"^(?:\./|/)+", "", path.replace("\\", "/"))


def _is_file_path(path: str) -> bool:
    """Whether a cleaned ``path`` has a directory and a file name with an extension of a
    letter at least: ``3.11.17/3.11.18`` is two versions (an aiohttp newcomer's "Started
    with 3.11.17/3.11.18")."""
    name = path.rsplit("/", 1)[-1]
    return "/" in path and "." in name and not name.rsplit(".", 1)[1].isdigit()


def _noise(term: str) -> bool:
    """A term of a long query that names nothing in code: one character, a number (prompt
    counters, versions, dates, line numbers) or a hex digest (commit ids, addresses)."""
    return len(term) < 2 or term.isdigit() or bool(_HEX_WORD.fullmatch(term))


def _dense_digest(text: str) -> str:
    """At most ``DENSE_MAX_CHARS`` of ``text`` for the dense model: the whole text when it
    fits, else its title, its error lines and its first paragraph's prose, then code words."""
    if len(text) <= DENSE_MAX_CHARS:
        return text
    title, _, body = text.partition("\n")
    parts = [title.strip()]
    parts += [m.group().strip() for m in _ERROR_LINE.finditer(body)][:3]
    prose = " ".join(_TICKS.sub(" ", _FENCE.sub(" ", body)).split())
    parts.append(prose[:DENSE_MAX_CHARS // 2])
    digest = "\n".join(p for p in parts if p)
    return digest[:DENSE_MAX_CHARS]


def _shown(span: str) -> str:
    """An RST reference's shown text (``title <target>`` -> ``title``; the target has no
    ``<`` or ``>``), else ``span``. String operations: the pattern it replaces backtracked
    over whitespace at every position of a long span."""
    if not span.endswith(">"):
        return span
    title, bracket, target = span[:-1].rpartition("<")
    if not bracket or not target or ">" in target:
        return span
    return title.rstrip() or span


def without_fences(text: str) -> str:
    """``text`` with each fenced code block (``_FENCE``: to its closing fence, or the text's
    end) replaced by a space: its prose and inline code spans."""
    return _FENCE.sub(" ", text)


def code_spans(text: str) -> list[str]:
    """The texts of ``text``'s inline code spans, in order: Markdown's `x` and ``x``, RST's
    ``x`` and :role:`x` (a backtick run closed by one of the same length, CommonMark), each
    stripped, RST's ``~`` / ``!`` prefix dropped (``:class:`~decimal.Decimal``` ->
    ``decimal.Decimal``). A single-backtick pattern paired RST's double backticks across
    the text between two spans (``Cache.get()``, ``Cache.set()`` gave the span ", ")."""
    return [t for t in (m.group(2).strip().lstrip("~!") for m in _TICKS.finditer(text)) if t]


#: A long command-line option in prose (``--lf``, ``--cache-show``; ``--tb=short`` holds
#: ``--tb``): the string a tool's argument parser registers, in group 1.
_OPTION = re.compile(r"(?<![\w-])(--[^\W\d_][\w-]*\w)(?:=\S*)?")


#: Exception classes a language defines (Python's builtins, and the JVM's and JavaScript's
#: most common): written unquoted beside other code words of a short text, no verbatim
#: evidence (``_evidence``). ``except (ValueError, IndexError)`` is in code everywhere:
#: packaging's "IndexError from generic_tags() when EXT_SUFFIX is an empty string" placed a
#: metadata validator catching it first and located its file above tags.py (a newcomer).
BUILTIN_EXCEPTIONS = frozenset(
    {name for name, value in vars(builtins).items()
     if isinstance(value, type) and issubclass(value, BaseException)}
    | {"NullPointerException", "IllegalArgumentException", "IllegalStateException",
       "IndexOutOfBoundsException", "ArrayIndexOutOfBoundsException", "ClassCastException",
       "NumberFormatException", "UnsupportedOperationException", "RangeError", "ReferenceError",
       "URIError", "EvalError"})


def _evidence(text: str, shape: Shape, sentence: str = "") -> tuple[str, ...]:
    """Verbatim tokens of a short query that the index may hold as such: the query itself
    for an identifier or literal, quoted strings, code words and long command-line options
    (``_OPTION``) of a short text or a short error message (``KeyError: 'SECRET_KEY'``).
    A short text that is a message (``sentence``) holds no quoted path, phrase or number
    as a token (``_PRINTED_VALUE``), in quotes or a code span (axum's ``Handler for `GET
    /users` already exists``): those are the values it printed (``... for path
    '/ping'``), no text of the code: '/user/:' drew gin's auth.go (``AuthUserKey =
    "user"``) as evidence, and located it first, for a route tree's panic; a quoted name
    (``'--count'``, ``'DATABASE_URL'``, ``'index.html'``) stays. In a short text a
    language's own exception name (``BUILTIN_EXCEPTIONS``) written beside other tokens is
    none (an error line's, ``KeyError: 'SECRET_KEY'``, names what was raised)."""
    quoted = _QUOTED.fullmatch(text)
    if quoted:
        return (quoted.group(1) or quoted.group(2),)
    if shape in (Shape.IDENTIFIER, Shape.LITERAL):
        return tuple(dict.fromkeys(w.strip("\"'`(),") for w in text.split() if w.strip("\"'`(),")))
    if shape is Shape.TEXT or (shape is Shape.TRACE and len(text) <= ISSUE_MIN_CHARS):
        lines = [line for line in text.splitlines() if line.strip()]
        if _usage_hinted(lines):
            text = lines[0]  # the hint names the program ('app --help'), no code
        spans = [_shown(s) for s in code_spans(text)]
        rest = _TICKS.sub(" ", text)  # a span's words are the span's, not code words again
        quoted = [a or b for a, b in _QUOTED.findall(rest)] + spans
        # a call's arguments cut by a space (``Queue.get(timeout=0, block=True)``): its name
        written = rest.split()
        code = [word for i, w in enumerate(written) if _CODE_WORD.search(w)
                and (word := _whole(w.strip("\"'`(),?:;."))).lower() not in _PRODUCT_NAMES
                and not _DUNDER.fullmatch(word)  # every class's: no evidence
                and not _version(word, written[i - 1] if i else "")]
        code += [m.group(1) for m in _OPTION.finditer(rest)]  # --lf, --cache-show, --tb=short
        code += _header_names(rest)  # Retry-After, X-Forwarded-For: a literal, unquoted
        if shape is Shape.TEXT and any(w not in BUILTIN_EXCEPTIONS for w in quoted + code):
            code = [w for w in code if w not in BUILTIN_EXCEPTIONS]
        # A node id is held by no chunk; the test's own name is (``test_y`` of ``a.py::test_y``).
        tokens = (_NODE_ID.sub(r"\1", t).rsplit("::", 1)[-1] if _NODE_ID.match(t) else t
                  for t in quoted + code)
        printed = {q for q in [a or b for a, b in _QUOTED.findall(sentence)]
                   + [_shown(s) for s in code_spans(sentence)] if _PRINTED_VALUE.search(q)
                   } if shape is Shape.TEXT else set()
        return tuple(dict.fromkeys(q for q in tokens if q and q not in printed and q.lower() not in _VALUE_WORDS))
    return ()


#: A dotted number of two or three parts written unquoted in prose (``5.1``, ``3.13``,
#: ``42.0``); four are an address (``127.0.0.1``), which a release never is.
_NUMERAL = re.compile(r"\d+(?:\.\d+){1,2}")
#: A number that names a release however it is written: three parts, a ``v`` before it,
#: a pre-release after it (``5.1.5``, ``v2.0``, ``1.2rc1``); never four (an address).
_RELEASE = re.compile(r"[vV]\d+(?:\.\d+){0,2}[a-z]*\d*|\d+(?:\.\d+){2}[a-z]*\d*|\d+(?:\.\d+){1,2}(?:a|b|rc|dev|post)\d*")
#: Words before a dotted number that make it a release: a language or framework, or a
#: word placing it in time ("crash on 5.1", "since 3.12", "Python 3.13").
_RELEASE_CONTEXT = frozenset("""
on in since from to until before after version versions release releases upgrade upgrading
upgraded python py django node nodejs go java ruby php rust pip""".split())


def _version(word: str, before: str) -> bool:
    """Whether ``word``, written in prose after ``before``, is a release number and no text of
    the code (``_RELEASE``, or a dotted number after ``_RELEASE_CONTEXT``): Django's
    "index_together crash on 5.1" pinned a GIS test's JSON coordinates (``5,1``) as
    evidence (a newcomer). A value stays evidence: gson's "(42 vs 42.0, -0.0 vs 0)" is
    what ``JsonPrimitive``'s comments say. Quoted (``"0.5"``) it is a literal either way."""
    if _RELEASE.fullmatch(word):
        return True
    return bool(_NUMERAL.fullmatch(word)) and before.strip("(,").lower() in _RELEASE_CONTEXT
#: A header's or key's name written in a question unquoted, every part capitalised and
#: joined by hyphens (``Retry-After``, ``X-Forwarded-For``, ``WWW-Authenticate``): a literal
#: the code holds. drf's "where is the Retry-After header set when a request is throttled"
#: answered ``check_throttles`` and a release note, and ``exception_handler`` setting
#: ``headers['Retry-After']`` was first only when the name was quoted (a newcomer).
_HEADER_NAME = re.compile(r"(?<![\w-])[A-Z][A-Za-z]*(?:-[A-Z][A-Za-z]*)+(?![\w-])")
#: Where a sentence starts: a capitalised word there is no name (``Read-Only file system
#: error``, ``Non-ASCII characters ..``: a review).
_SENTENCE_START = re.compile(r"(?:^|[.!?:]\s+|\n\s*)$")


def _header_names(text: str) -> list[str]:
    """The header names ``text`` writes unquoted (``_HEADER_NAME``): every part a letter
    word, not a sentence's first word, and only in a text that says "header" unless the
    name is an ``X-`` one (a capitalised compound is English too: ``Non-ASCII``,
    ``Read-Only``, ``UTF-8``)."""
    says = "header" in text.lower()
    return [m.group() for m in _HEADER_NAME.finditer(text)
            if (says or m.group().startswith("X-")) and not _SENTENCE_START.search(text[:m.start()])]


#: A message Python itself writes about a value of a built-in type (``'NoneType' object
#: has no attribute 'index'``, ``'int' object is not subscriptable``): no code of the
#: project holds it, so it is no message to look up verbatim (xarray's "groupby .. .map()
#: fails with AttributeError: 'NoneType' object has no attribute 'index'" placed the
#: ``__getattr__`` raising its own "object has no attribute" first, ``groupby.py`` 8th; a
#: newcomer).
_INTERPRETERS = re.compile(
    r"'(?:NoneType|int|float|complex|str|bytes|bytearray|bool|list|tuple|dict|set|frozenset|"
    r"function|method|builtin_function_or_method|module|type|generator|coroutine|range)' object "
    r"(?:has no attribute|is not (?:subscriptable|callable|iterable|an iterator|a mapping)|"
    r"does not support|cannot be interpreted)")


#: What a JavaScript engine writes about a value it could not use (V8's "Cannot read
#: properties of undefined (reading '_zod')", its older "Cannot read property 'x' of
#: null", "x is not a function", Safari's "undefined is not an object (evaluating ..)"):
#: no code of the project holds those words; the name in quotes stays.
#: Their ``cannot`` and ``read`` matched zod's "NaN cannot be represented" and ``case
#: "readonly"``, and led an issue to its JSON Schema converter (a newcomer).
_ENGINE_MESSAGES = re.compile(
    r"\bCannot (?:read|set) propert(?:y|ies) of (?:undefined|null)(?: \((?:reading|setting))?"
    r"|\bCannot (?:read|set) property ('[^'\n]{1,80}') of (?:undefined|null)"
    r"|\bCannot access ('[^'\n]{1,80}') before initialization"
    r"|\bundefined is not an object \(evaluating"
    r"|\bis not (?:a function|a constructor|defined|iterable)\b"
    r"|\bMaximum call stack size exceeded|\bAssignment to constant variable")
#: Whether ``_ENGINE_MESSAGES`` (and, in an issue, ``_INTERPRETERS``: a trace's and a
#: question's prose had Python's out already) are read as no words of the project.
ENGINE_MESSAGES_DROPPED = True


def _without_engine_messages(text: str) -> str:
    """``text`` with each ``_ENGINE_MESSAGES`` match blanked but for the name it quotes."""
    return _ENGINE_MESSAGES.sub(lambda m: f" {m.group(1) or m.group(2) or ''} ", text)


#: Values and types a language or library spells in camel case (``NaN``, ``NaT``, Python's
#: ``NoneType``), quoted or not: what a user saw, no verbatim evidence ("polyval NaN" pinned
#: the chunks saying NaN, and xarray's ``polyval`` left the page for ``bfill`` and
#: ``polyfit``, whose docs do; a newcomer). Still a name a definition may have (sympy's
#: ``class NaN``: "where is NaN defined" lost it as no name at all; a review).
_VALUE_WORDS = frozenset({"nan", "nat", "nonetype"})
#: Names of products and services written in camel case, words of prose and no code: "GitHub:
#: .." inserted `.github/workflows/tests.yaml` as evidence (a review); and ``NoneType``.
_PRODUCT_NAMES = frozenset("""
github gitlab bitbucket pycharm vscode intellij javascript typescript coffeescript postgresql
mysql mariadb sqlite mongodb redis youtube linkedin macos ios ipados iphone ipad pypi pypy
cpython numpy scipy matplotlib oauth openapi graphql devops powershell webassembly nonetype
""".split())


#: A quoted part of a pasted message that is a value it printed, not a name of the code:
#: a path or a route (a ``/``), words (a space), or no letter at all (``'42'``).
_PRINTED_VALUE = re.compile(r"[/\s]|^[^A-Za-z]*$")


#: Identifiers a short question's adjacent words may spell (``Query.compounds``).
MAX_COMPOUNDS = 16
_PLAIN_WORD = re.compile(r"[^\W\d_]+")
# Words that join no name in a question ("where is", "how do I"): question words, language
# names, auxiliaries, pronouns, and the words that ask for code. Prepositions and ``make``
# may join one (``quote_from_bytes``, ``make_response``).
_NOT_COMPOUND = frozenset("""
how what which why do does i can way using python java javascript typescript golang rust
is are was were be been being and or where when who whom it its that this these those
there did done could should would will my your our their me we you he she they them his
her implementation implemented implement defined definition code function method class""".split())
# Articles are skipped, not breaks: "make an archive" spells make_archive.
_ARTICLES = frozenset({"a", "an", "the"})


def _compounds(text: str) -> tuple[str, ...]:
    """The identifiers two or three adjacent content words of a question spell (articles
    skipped), snake_case and run together (``implementation of the flask run command`` -> ``flask_run``,
    ``flaskrun``, ``run_command``, ``runcommand``, ``flask_run_command``, ...): a name_lc
    lookup matches ``run_command``, ``runCommand`` and ``RunCommand`` alike. A code span or
    code word is no part of one and breaks a run (``how does `app.test_client` keep
    cookies`` spelled ``app_test``, a test's nested function: ``Query.symbols`` reads the
    span). At most ``MAX_COMPOUNDS``, pairs first."""
    words: list[str | None] = []
    for token in _TICKS.sub(" ` ", text).split():
        if "`" in token or _CODE_WORD.search(token):
            words.append(None)  # a code span or code word is a name already, and breaks a run
            continue
        for word in _PLAIN_WORD.findall(token.lower()):
            if word not in _ARTICLES:
                words.append(None if word in _NOT_COMPOUND or len(word) < 2 else word)
    found: list[str] = []
    for size in (2, 3):
        for i in range(len(words) - size + 1):
            group = words[i:i + size]
            if all(group):
                found += ["_".join(group), "".join(group)]  # type: ignore[arg-type]
    return tuple(dict.fromkeys(found))[:MAX_COMPOUNDS]


def _roles(text: str, shape: Shape, described: bool = False) -> frozenset[str]:
    """File roles a query asks for: a role word (``_ROLE_WORDS``) that is the request's
    object. It is among the first ``ROLE_EARLY_WORDS`` words of a query of at most
    ``ROLE_REQUEST_WORDS`` words, of one opening as a request (``_REQUEST``: where, which,
    what, find, show, list, give) or opening with it ("tests for the session cookie",
    "which tests cover X"); or it ends a short query ("session cookie tests") or says
    "tested"/"documented" in a short or request-opened one ("how is X tested"); a singular
    "test" before a noun names a thing, not tests (``_TEST_MODIFIER``). Words are
    runs of letters and digits; "for example" and "e.g." name no role. Elsewhere a role word
    describes, not asks: "import errors in test suites" (a changelog sentence about
    pytest's collection got tests first), "where does caplog restore the log level after a
    test" (pytest's own questions all say "test"). An issue or a trace names none, nor
    does the subject of a ``described`` text (a report or a change's description): "Test
    class with __init__ is not collected", "Test method with positional-only `self` doesn't
    get its fixtures" are issue titles about what a test framework does with tests (pytest's
    answers were tests alone, its ``Class.collect`` and ``getfuncargnames`` absent; a
    newcomer), while "Fix flaky test of `X`" names the tests it changes. A role word after
    "my" (``_OWNED``) names the asker's files: "in my unit tests". Tests followed by
    a participle of what code does to them (``_DONE_TO``: "how are xfail tests reported",
    "where are deselected tests removed") are what the code handles."""
    if shape in (Shape.ISSUE, Shape.TRACE):
        return frozenset()
    total = len(_ALNUM_RUN.findall(text))
    short, opener = total <= ROLE_REQUEST_WORDS, bool(_REQUEST.match(text))
    plain = _NOT_A_ROLE.sub(lambda m: " " * len(m.group()), text)  # offsets kept
    asked = set()
    for role, words in _ROLE_WORDS.items():
        for m in words.finditer(plain):
            modifier, parts = _MODIFIERS.get(role, (None, frozenset()))
            thing = modifier.match(text, m.start()) if modifier else None
            if thing and thing.group(1).lower() not in parts and thing.group(1).lower() not in sparse.STOP_WORDS:
                continue  # "the test client", "the example datasets": a thing, not the role's files
            if _MADE_AFTER.match(plain, m.end()) or _MADE_BEFORE.search(plain[:m.start()]):
                continue  # "where are markdown docs generated": the code making them
            if _OWNED.search(plain[:m.start()]):
                continue  # "in my unit tests": the asker's, not the repository's
            if role == "test" and m.group().lower() not in _PASSIVE_ROLE and _DONE_TO.match(plain, m.end()):
                continue  # "how are xfail tests reported": what the code does with tests
            read = _READ_AFTER.match(plain, m.end())
            if (role == "config" and read and not _REQUEST_WHICH.match(text)
                    and not _READ_BY.match(plain, read.end())):
                continue  # "where is the config file found and read": the code reading it
            at = len(_ALNUM_RUN.findall(text[:m.start()]))  # words before the role word
            if described and at == 0:
                continue  # the subject of a report: "Test class with __init__ is not collected"
            last = at + len(_ALNUM_RUN.findall(m.group())) >= total
            if ((at < ROLE_EARLY_WORDS and (short or opener or at == 0))
                    or (short and last)
                    or ((short or opener) and m.group().lower() in _PASSIVE_ROLE)):
                asked.add(role)
                break
    return frozenset(asked)


def names_file(query: Query, path: str) -> bool:
    """Whether ``query`` names the indexed file ``path`` by path (``Query.paths``, a named
    path ending with it at a ``/``: ``srv/venv/pkg/mod.py`` names ``pkg/mod.py``)."""
    return any(path_names(p, path) for p in query.paths)


def path_names(named: str, path: str) -> bool:
    """Whether the path ``named`` (a query's, with any prefix) names the indexed ``path``:
    it is ``path`` or ends with it at a ``/``."""
    return named == path or named.endswith("/" + path)


def sparse_vector(query: Query) -> SparseVector:
    """The lexical side's vector of ``query``: one dimension per term, weighted as in
    ``Query.terms`` (terms that hash together keep the larger weight). With the IDF
    modifier a chunk scores ``sum(idf * w_doc * w_query)``: a weighted BM25."""
    merged: dict[int, float] = {}
    for term, weight in query.terms:
        index = sparse.term_index(term)
        merged[index] = max(merged.get(index, 0.0), weight)
    indices = tuple(sorted(merged))
    return SparseVector(indices=indices, values=tuple(merged[i] for i in indices))


def sentence_patterns(sentence: str) -> list[re.Pattern[str]]:
    """Patterns of ``sentence`` as code holds it verbatim, most of it first: its words in
    order, case-insensitive, with any non-word characters between them (a message split
    over string literals, ``"not offered " "by the server"``, ``f"..."`` ones too:
    ``_BETWEEN_WORDS``); then without a location the
    runtime appended (a trailing run of value words, a word with a digit or no letter, and
    ``_LOCATION_WORDS``, holding a value: serde_json's ``EOF while parsing a value at line
    1 column 0``, gson's ``... at line 1 column 2 path $``), while ``LOCATION_MIN_WORDS``
    remain; then its prefixes, longest first, down to half its words and at least
    ``SENTENCE_MIN_WORDS`` (``Request failed with status code 500`` is built as ``'...
    status code ' + status``)."""
    words = re.findall(r"\w+", sentence)
    out = [words]
    core = _without_location(words)
    if core:
        out.append(core)
    for n in range(len(words) - 1, max(SENTENCE_MIN_WORDS, (len(words) + 1) // 2) - 1, -1):
        if words[:n] not in out:
            out.append(words[:n])
    return [re.compile(r"(?<!\w)" + _BETWEEN_WORDS.join(map(re.escape, w)) + r"(?!\w)", re.IGNORECASE)
            for w in out]


#: What may stand between two words of a message in code: non-word characters, and the
#: next literal's prefix letters where a message is split over literals (requests' ``"...
#: or return " f"character(s) in header {header_kind}"``: the ``f`` is a word character).
_BETWEEN_WORDS = r"\W+(?:[fFrRbBuU]{1,2}[\"'`]\W*)?"


#: A value a format string or template interpolates: Python's ``{}``, ``{value!r}``,
#: ``%s``, ``%(name)s``; Go's ``%v``, ``%q``; JS's ``${x}``; Ruby's ``#{x}``; Rust's ``{}``;
#: Kotlin's, PHP's and a shell's ``$name`` (moshi's ``"Nesting too deep at $path:
#: circular reference?"``); Swift's ``\(x)``, one level of parentheses inside.
_PLACEHOLDER = re.compile(r"\{[^{}\n]{0,40}\}|%(?:\(\w{1,30}\))?[-#0 +]*\d*(?:\.\d+)?[sdrvfxXgqicueEGwTpbo]"
                          r"|\$\{[^}\n]{0,40}\}|#\{[^}\n]{0,40}\}|\$[A-Za-z_]\w{0,40}"
                          r"|\\\((?:[^()\n]|\([^()\n]{0,40}\)){0,60}\)")
#: A one-line string literal of code, in double or single quotes (escapes kept), or one
#: continued over lines by a ``\\`` at a line's end (Rust, C, Python: axum-macros'
#: ``"`{type_name}` consumes the request body and thus must be \\`` went unread); a quote
#: right after the other quote or a backslash opens none (C's character literal ``'"'``
#: on a macro's continued line paired with the next line's quote: a review).
# JS's template literals too (hono: ``throw new Error(`Path ${path} is not registered`)``)
_STRING_LITERAL = re.compile(r'(?<![\'\\])"((?:[^"\\\n]|\\[\s\S]){4,300}+)"|(?<!["\\])\'((?:[^\'\\\n]|\\[\s\S]){4,300}+)\''
                             r"|`((?:[^`\\\n]|\\[\s\S]){4,300}+)`")
#: The end of a string literal and the start of the next one it is joined to: adjacent
#: literals (Python's and C's implicit concatenation, over a line break inside brackets or
#: after a ``\\``) or a ``+`` between them (JS, Java), the next one's prefix letters
#: (``f``, ``rb``) included. Removing it joins a message split over literals into one:
#: jinja's ``f"{obj!r} has no" f" attribute {name!r}"`` is one template of three words,
#: not two of two and one.
_ADJACENT_LITERALS = re.compile(r"(?<!\\)([\"'])(?:[ \t]|\\?\r?\n)++(?:\+(?:[ \t]|\r?\n)*+)?[fFrRbBuU]{0,2}\1"
                                r"|(?<!\\)([\"'])[ \t]*+\+(?:[ \t]|\r?\n)*+[fFrRbBuU]{0,2}\2")
#: A value joined into a message with ``+`` (Go, JS, Java, Python): a name with members,
#: calls and indexes (``fullPath``, ``err.Error()``, ``names[i]``), possessive: no
#: backtracking whatever the source.
_JOINED_VALUE = r"[A-Za-z_$][\w$]*+(?:\.[A-Za-z_$][\w$]*+|\([^()\"'`\n]{0,60}+\)|\[[^\[\]\"'`\n]{0,40}+\])*+"
#: A value joined between two literals (``"... path '" + fullPath + "'"``: gin's panic; a
#: line break after or before the ``+`` too),
#: after the last one (``` `... the request ` + s ```: axios), or before the first
#: (``name + " is required"``, after a bracket, a comma, ``=``, ``:`` or ``return``):
#: rewritten as a ``{}`` placeholder inside the literal, so that the joined message is
#: one template (``_joined``).
_JOINED_PLUS = r"(?<!\\)([\"'`])\s*+\+\s*+" + _JOINED_VALUE  # a literal's end, + and a value
_JOINED_BETWEEN = re.compile(_JOINED_PLUS + r"\s*+\+\s*+\1")
_JOINED_AFTER = re.compile(_JOINED_PLUS + r"(?=[ \t]*+[),;\]}\n])")
_JOINED_BEFORE = re.compile(r"(?:(?<=[(,=:\[])|(?<=\breturn ))([ \t]*+)" + _JOINED_VALUE + r"\s*+\+\s*+([\"'`])")


def _joined(source: str) -> str:
    """``source`` with the values joined to string literals by ``+`` written as ``{}``
    placeholders inside them (``_JOINED_BETWEEN``, ``_JOINED_AFTER``, ``_JOINED_BEFORE``):
    ``panic("gin mode unknown: " + value + " (available mode: debug release test)")`` is
    the template ``"gin mode unknown: {} (available mode: ...)"``; pasted with its value,
    gin's message ranked fourth below three functions of its words (a newcomer)."""
    if "+" not in source:
        return source
    source = _JOINED_BETWEEN.sub("{}", source)
    source = _JOINED_AFTER.sub(lambda m: "{}" + m.group(1), source)
    return _JOINED_BEFORE.sub(lambda m: m.group(1) + m.group(2) + "{}", source)


#: Literal words a template must hold to stand for a message (``{}: {}`` stands for any).
TEMPLATE_MIN_WORDS = 3


def _template_pieces(source: str) -> Iterator[list[list[str]]]:
    """The words of each literal piece of ``source``'s string literals that interpolate a
    value (``message_templates``), the pieces split at its placeholders."""
    for m in _STRING_LITERAL.finditer(_joined(_ADJACENT_LITERALS.sub("", source))):
        literal = m.group(1) or m.group(2) or m.group(3) or ""
        pieces = _PLACEHOLDER.split(literal)
        if len(pieces) > 1:  # no value: a verbatim pattern finds it
            yield [re.findall(r"\w+", piece) for piece in pieces]


def message_templates(source: str, among: frozenset[str] | None = None) -> list[tuple[int, Printed]]:
    """The message templates of a chunk's ``source``: its string literals that interpolate
    a value (``_PLACEHOLDER``: ``"{value!r} is not a valid {number_type}."``), each as
    (its literal words, what it prints: ``Printed``, its words in order with any
    non-word characters between, a placeholder any 1-120 characters), those of at least
    ``TEMPLATE_MIN_WORDS`` words besides a location's (``_LOCATION_WORDS``: ``"{} at line {}
    column {}"`` appends a location to any message) (and, with ``among``, lowercased words, only those whose
    words are all in it: no pattern is built for the others). A runtime message holds its
    values where the code holds placeholders, so no verbatim pattern of the message
    matches the code that raised it (click: four of seven pasted messages ranked another
    chunk first)."""
    return _printed(_template_pieces(source), among)


def _printed(templates: Iterable[list[list[str]]], among: frozenset[str] | None) -> list[tuple[int, Printed]]:
    """``message_templates`` of the templates' pieces ``templates`` (``_template_pieces``)."""
    out = []
    for words in templates:
        # a location's words are no message (serde_json's "{} at line {} column {}")
        count = sum(1 for w in words for x in w if x.lower() not in _LOCATION_WORDS)
        if count < TEMPLATE_MIN_WORDS or (among is not None and any(
                x.lower() not in among for w in words for x in w)):
            continue
        out.append((count, Printed(words)))
    return out


class Printed:
    """What a message template prints: its literal pieces' words in order (each piece's
    words with any non-word characters between them, case-insensitive) with a value of 1 to
    ``VALUE_MAX_CHARS`` characters in each placeholder. ``search(message)`` says whether
    ``message`` holds such a print, in O(pieces x occurrences^2) string work: one regular
    expression of the whole template (``\\W*.{1,120}?\\W*`` per placeholder) backtracked
    through every split of every value, 22 s for a 138-character message against a
    four-placeholder template (a review). Adjacent placeholders (``{a}{b}``) are read as
    one value of up to their characters together."""

    __slots__ = ("pieces", "values")

    def __init__(self, words: list[list[str]]) -> None:
        # the literal pieces with words, and how many placeholders come before each and
        # after the last (a run of placeholders is one value of as many)
        self.pieces: list[re.Pattern[str]] = []
        self.values: list[int] = [0]
        for i, piece in enumerate(words):
            if i:
                self.values[-1] += 1
            if piece:
                self.pieces.append(re.compile(r"(?=(" + r"\W+".join(map(re.escape, piece)) + r"))",
                                              re.IGNORECASE))
                self.values.append(0)

    def search(self, message: str, gaps: _Gaps | None = None) -> bool:
        """Whether ``message`` holds a print of this template (as words: a piece starting
        the template starts after no word character, one ending it ends before none). Each
        piece's occurrences are checked against the ends the pieces before it can reach:
        the nearest of them and the nearest leaving room for the values (a farther end only
        widens the values' span), by bisection. ``gaps``: ``message``'s index, when one
        message is checked against several templates (built here otherwise)."""
        if not self.pieces:
            return False
        gaps = gaps or _Gaps(message)
        ends: list[int] = []
        last = len(self.pieces) - 1
        for j, pattern in enumerate(self.pieces):
            before = self.values[j]
            found = []
            for m in pattern.finditer(message):
                start, end = m.start(1), m.end(1)
                if j == 0 and not (gaps.leads(start, before) if before
                                   else not start or not gaps.word[start - 1]):
                    continue
                if j == last and not (gaps.trails(end) if self.values[-1]
                                      else end == len(message) or not gaps.word[end]):
                    continue
                if j:
                    near = bisect.bisect_left(ends, start) - 1
                    room = bisect.bisect_right(ends, start - before) - 1
                    if not any(i >= 0 and gaps.hold(ends[i], start, before) for i in {near, room}):
                        continue
                found.append(end)
            if not found:
                return False
            ends = sorted(set(found))
        return True


#: Characters one placeholder's value may print (``Printed``).
VALUE_MAX_CHARS = 120


class _Gaps:
    """A message's word characters, next word character and line breaks, indexed once, so
    that whether the text between two literal pieces can be their values costs O(1)."""

    __slots__ = ("word", "after", "before", "breaks", "line", "nonword")

    def __init__(self, message: str) -> None:
        n = len(message)
        self.word = [c.isalnum() or c == "_" for c in message]
        self.after = [n] * (n + 1)  # the first word character at or after i
        for i in range(n - 1, -1, -1):
            self.after[i] = i if self.word[i] else self.after[i + 1]
        self.before = [-1] * (n + 1)  # the last word character before i
        for i in range(1, n + 1):
            self.before[i] = i - 1 if self.word[i - 1] else self.before[i - 1]
        self.breaks = [0] * (n + 1)
        for i, c in enumerate(message):
            self.breaks[i + 1] = self.breaks[i] + (c == "\n")
        self.line = [-1] * (n + 1)  # the last character before i that is no line break
        self.nonword = [-1] * (n + 1)  # the last non-word character before i
        for i in range(1, n + 1):
            self.line[i] = i - 1 if message[i - 1] != "\n" else self.line[i - 1]
            self.nonword[i] = i - 1 if not self.word[i - 1] else self.nonword[i - 1]

    def leads(self, start: int, count: int) -> bool:
        """Whether ``count`` values can print before ``start`` (a template opening with a
        placeholder): a value ends at the last character before it that is no line break
        (only line breaks after it) and starts after a non-word character, at most
        ``VALUE_MAX_CHARS`` per value before."""
        last = self.line[start]
        return last >= 0 and last - self.nonword[last] <= VALUE_MAX_CHARS * count

    def trails(self, end: int) -> bool:
        """Whether a value can print after ``end`` (a template closing with a placeholder):
        a character that is no line break follows, past line breaks only."""
        n = len(self.word)
        return end < n and self.line[n] >= end

    def hold(self, end: int, start: int, count: int) -> bool:
        """Whether ``message[end:start]`` can be ``count`` values (each 1 to
        ``VALUE_MAX_CHARS`` characters of one line) with any non-word characters around
        them: its span from its first to its last word character fits, on one line; a gap
        of no word character holds at least ``count`` characters besides line breaks."""
        if end >= start:
            return False
        first = self.after[end]
        if first >= start:
            return (start - end) - (self.breaks[start] - self.breaks[end]) >= count
        last = self.before[start]
        return (last - first + 1 <= VALUE_MAX_CHARS * count
                and self.breaks[last + 1] == self.breaks[first])


def template_words(source: str, message: str) -> int:
    """Literal words of the longest of ``source``'s message templates that prints
    ``message`` (``message_templates``), else of the longest run of a template's words
    that ``message`` quotes across a placeholder (``fragment_words``: a question quoting
    part of a message, its value left out or kept); 0 when none does."""
    if "{" not in source and "%" not in source and "+" not in source and "$" not in source and "\\(" not in source:
        return 0
    said = re.findall(r"\w+", message)
    elided = _elided(message)
    among = frozenset(w.lower() for w in said)
    pieces = list(_template_pieces(source))  # the source's literals read once, for both
    templates = _printed(pieces, among)
    gaps = _Gaps(message) if templates else None  # once for every template
    whole = max((count for count, printed in templates if printed.search(message, gaps)), default=0)
    if whole or len(said) < TEMPLATE_MIN_WORDS or len(said) > FRAGMENT_MAX_WORDS:
        return whole
    said = [w.lower() for w in said]
    content = {w for w in said if _content_word(w)}
    if len(content) < FRAGMENT_CONTENT_WORDS:
        return 0
    near = (p for p in pieces if len(content & {w.lower() for piece in p for w in piece}) >= FRAGMENT_CONTENT_WORDS)
    said = elided or said
    return max((fragment_words(p, said) for p in itertools.islice(near, FRAGMENT_TEMPLATES)), default=0)


#: An ellipsis a message is quoted with where the asker left words out ("closing tag ...
#: doesn't match any open tag" for rich's ``f"closing tag '{tag.markup}' at position
#: {position} doesn't match any open tag"``: a newcomer's question had no holder).
_ELLIPSIS = re.compile(r"\[\.\.\.\]|(?<!\w)\.\.\.+|\.\.\.+(?!\w)|\u2026")
#: ``fragment_words``' token for an ellipsis between a message's words: it stands for up to
#: ``FRAGMENT_ELIDED_TOKENS`` of the template's words and placeholders, one placeholder at
#: least (the asker left a value out); ``1...5`` or ``a...b`` in code is no ellipsis.
ELIDED = "\u2026"
FRAGMENT_ELIDED_TOKENS = 8


def _elided(message: str) -> list[str]:
    """``message``'s words, lowercased, with ``ELIDED`` for each ellipsis between two of
    them (``_ELLIPSIS``; one for a run of them); ``[]`` when none is between words."""
    out: list[str] = []
    for part in _ELLIPSIS.split(message):
        words = [w.lower() for w in re.findall(r"\w+", part)]
        if not words:
            continue
        if out and out[-1] != ELIDED:
            out.append(ELIDED)
        out += words
    return out if ELIDED in out else []


#: ``fragment_words``' "no match" (below any count).
_NO_RUN = (-1, -1)
#: Words of a message read as a part of a template at most (``fragment_words``), the
#: words one placeholder's value may print in it, the template's literal words besides
#: function words (``_content_word``) the run must match at least ("is not a valid JSON"
#: is a run of ``f"{value!r} is not a {kind}"``, "in the middle of the night" one of ``f"..
#: in the {where} of the {thing}"``: no message of theirs; a review), and the templates of
#: one chunk read at most.
FRAGMENT_MAX_WORDS = 40
FRAGMENT_VALUE_WORDS = 8
FRAGMENT_CONTENT_WORDS = 2
FRAGMENT_TEMPLATES = 50


def _content_word(word: str) -> bool:
    """Whether a lowercased word says something of a message: three letters or more, no
    function word (``sparse.STOP_WORDS``, ``PROSE_STOP``: "is", "not", "could", "any")."""
    return len(word) >= 3 and word not in sparse.STOP_WORDS and word not in PROSE_STOP


def fragment_words(pieces: list[list[str]], said: list[str]) -> int:
    """Literal words of a template (``pieces``: its literal pieces' words, split at its
    placeholders) that ``said`` (a message's words, lowercased, in order) matches as one
    run of them crossing at least one placeholder, each placeholder on the way printing
    nothing or 1 to ``FRAGMENT_VALUE_WORDS`` words, the run starting and ending at any
    literal word of the template (or with a value at its ends): arrow's ``f"Could not
    match input {string!r} to any of the following formats: .."`` quoted as "Could not
    match input to any of" (the value left out, the rest cut) had no holder (a newcomer);
    0 when no such run has ``TEMPLATE_MIN_WORDS`` literal words, at least half of
    ``said``, and ``FRAGMENT_CONTENT_WORDS`` of them no function words (``_content_word``),
    or when ``said`` is empty. O(words x template words x ``FRAGMENT_VALUE_WORDS``)."""
    tokens: list[str | None] = []  # a literal word, or None: a placeholder
    for i, piece in enumerate(pieces):
        if i:
            tokens.append(None)
        tokens += [w.lower() for w in piece]
    n, t = len(said), len(tokens)
    if not n:
        return 0
    asked = n - said.count(ELIDED)  # the message's own words

    @functools.lru_cache(maxsize=None)
    def run(i: int, j: int, crossed: int) -> tuple[int, int]:
        """Most (literal, content) words matching ``said[i:]`` from token ``j`` on
        (``_NO_RUN``: no match); ``crossed``: 0 no placeholder yet, 1 one left empty (crossed
        once a literal word follows), 2 crossed."""
        if i == n:
            return (0, 0) if crossed == 2 else _NO_RUN
        if said[i] == ELIDED:  # the asker left out up to FRAGMENT_ELIDED_TOKENS tokens, a
            # value among them (literal words alone: a guess at a generic template; a review)
            return max([_NO_RUN, *(run(i + 1, j + k, 2) for k in range(1, min(FRAGMENT_ELIDED_TOKENS, t - j) + 1)
                                   if None in tokens[j:j + k])])
        if j == t:
            return _NO_RUN
        token = tokens[j]
        if token is not None:
            if token != said[i]:
                return _NO_RUN
            rest = run(i + 1, j + 1, 2 if crossed else 0)
            return (rest[0] + 1, rest[1] + _content_word(token)) if rest >= (0, 0) else _NO_RUN
        # a value ends the message only where it ends the template
        return max([run(i, j + 1, crossed or 1),
                    *(run(i + m, j + 1, 2) for m in range(1, min(FRAGMENT_VALUE_WORDS, n - i) + 1)
                      if i + m < n or j + 1 == t)])

    best = _NO_RUN
    for j in range(t):
        if tokens[j] == said[0]:
            best = max(best, run(0, j, 0))
    if tokens and tokens[0] is None:  # a value opens the template, and the message
        best = max([best, *(run(m, 1, 2) for m in range(1, min(FRAGMENT_VALUE_WORDS, n - 1) + 1))])
    words, content = best
    return words if words >= max(TEMPLATE_MIN_WORDS, -(-asked // 2)) and content >= FRAGMENT_CONTENT_WORDS else 0


def sentence_core(sentence: str) -> str:
    """``sentence``'s words without a location the runtime appended (``sentence_patterns``),
    joined by spaces; ``""`` when it has none."""
    return " ".join(_without_location(re.findall(r"\w+", sentence)))


def _without_location(words: list[str]) -> list[str]:
    """``words`` without a trailing location (``sentence_patterns``); ``[]`` when there is
    none or fewer than ``LOCATION_MIN_WORDS`` words would remain."""
    cut = len(words)
    while cut and (not words[cut - 1].isalpha() or words[cut - 1].lower() in _LOCATION_WORDS):
        cut -= 1
    if LOCATION_MIN_WORDS <= cut < len(words) and not all(w.isalpha() for w in words[cut:]):
        return words[:cut]
    return []


#: Words of a location a runtime appends to a message (``at line 3 column 5``, ``line 1
#: column 1 (char 0)``, ``at position 4``, ``path $.a``), read off its end with the values.
_LOCATION_WORDS = frozenset("at in on line lines column col char offset position pos row index byte path".split())
#: Words a message keeps without its location: serde_json's ``trailing characters`` (``at
#: line 3 column 5`` appended by its ``Display``).
LOCATION_MIN_WORDS = 2


def evidence_vector(token: str) -> SparseVector | None:
    """A vector matching chunks that hold ``token`` verbatim: its whole-identifier term for
    one word (``proxy_set_header``, ``x-request-id``), every word's for a phrase (an error
    message: the chunk scoring highest holds most of them); None when it yields no term."""
    words = token.split()
    terms = sparse.tokens(token) if len(words) > 1 else sparse.tokens(token)[:1]
    indices = tuple(sorted({sparse.term_index(t) for t in terms}))
    if not indices:
        return None
    return SparseVector(indices=indices, values=(1.0,) * len(indices))
