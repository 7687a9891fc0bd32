"""Stack frames of a pasted trace, in every form the parsed languages' runtimes print.

A trace names where the code ran: each frame a file (maybe under an environment prefix)
and the function running there. ``read`` returns them innermost first, whatever order the
runtime prints them in:

* Python (``File "p.py", line 3, in f``; pytest's ``p.py:3: in f`` and the failure's
  ``p.py:4: AssertionError`` under them; IPython's): outermost first, so read backwards; a
  chained traceback's last one is the failure;
* Go panics (``gin.(*node).getValue(...)`` over ``\\t/src/tree.go:582``), V8 (``at Foo.bar
  (/app/x.js:3:1)``), Rust backtraces (``3: serde_json::de::from_str`` over ``at
  ./src/de.rs:2676:5``, after ``panicked at src/de.rs:12:9``), .NET (``at Ns.C.M() in
  /src/C.cs:line 12``), Ruby (``/app/x.rb:12:in 'C#m'``): innermost first;
* the JVM's (Java, Kotlin, Scala, Groovy: ``at com.acme.Foo$Bar.baz(Foo.java:12)``):
  innermost first in each block, and the last ``Caused by:`` block is the root cause, so
  blocks are read from the last; a ``Suppressed:`` exception's frames (indented deeper)
  and causes are not the trace's; the file's path is its package's directories and its
  name (``com/acme/Foo.java``), which ``anchors`` matches by the class's qualified name;
* native code under gdb (``#1  0x5 in f (x=1) at hiredis.c:147``), AddressSanitizer
  (``#0 0x4c5e1a in f /src/hiredis.c:147:9``) and valgrind (``at 0x4C2E: f (hiredis.c:147)``):
  innermost first;
* Swift crash reports (``4   Alamofire   0x1e4 closure #1 in C.m(_:) + 120 (C.swift:342)``),
  innermost first, and a ``Fatal error: ..: file Module/C.swift, line 302`` (no function);
* PHP (``#0 /app/Bar.php(34): App\\Foo->baz()``): frame ``k`` names the function called
  *from* its file, so each function is paired with the file of the frame before it (the
  first with where the exception was thrown, ``in /app/Foo.php:12``); ``#1 [internal
  function]: f()`` is a frame of no file (a callback the runtime called).

A frame's function is written the way the index qualifies names (``callable_name``): dots
between scopes, no generic arguments, parameter lists, closures or compiler suffixes
(``<serde_json::de::Deserializer<R> as serde::de::Deserializer>::deserialize_any`` ->
``serde_json.de.Deserializer.deserialize_any``; ``Ns.C.<Run>d__5.MoveNext`` -> ``Ns.C.Run``;
``Foo$Bar.lambda$baz$0`` -> ``Foo.Bar.baz``; Ruby's ``block in C#m`` -> ``C.m``; the
index's own Java ``a.C.m(int)`` -> ``a.C.m``).

Every pattern is linear in its input: line starts are ``[ \\t]`` and possessive, runs are
possessive, and nothing scans a line twice from each position (tests/unit/test_shape.py's
hostile pastes).
"""

from __future__ import annotations

import bisect
import re
from typing import NamedTuple


class Frame(NamedTuple):
    """One stack frame: ``path`` as printed (maybe absolute, maybe a JVM package path),
    ``function`` as ``callable_name`` writes it (``""``: none printed), ``line`` (1-based,
    0 when not printed)."""

    path: str
    function: str
    line: int = 0


#: A Python frame (``File "p.py", line 3, in f``): path, line, function (maybe none).
PYTHON = re.compile(r"File \"([^\"]+)\", line (\d+)(?:, in ([\w<>.]+))?")
#: The source line Python prints under a frame: indented, on the next line.
CODE_LINE = re.compile(r"[^\n]*\n[ \t]++([^\s][^\n]{0,300})")
#: Python frames as pytest (``pkg/mod.py:124: in __eq__``) and IPython (``pkg/mod.py in
#: f(x)``; 8.x: ``File ~/pkg/mod.py:12, in f(x)``) print them: path, line, function in
#: groups 1-3, or path and function in 4-5.
PYTEST = re.compile(r"^[ \t]*(?:File )?([^\s\"]+\.py):(\d+)[:,] in ([\w<>.]+)"
                    r"|^[ \t]*([^\s\"]+\.py) in ([\w<>.]+)\(", re.MULTILINE)
#: Where a Python program failed, as pytest prints it under a failure
#: (``tests/test_x.py:4: AssertionError``, ``_pytest/python_api.py:269: TypeError``, also
#: inside a message: "representation of details failed: .../python_api.py:269:
#: TypeError: .."): a frame of that path and line, no function (``anchors`` takes the
#: definition holding the line). Path (maybe behind a drive, ``C:\\proj\\x.py``) and line;
#: a path starts a word (at most 300 characters: each word start is tried once, linear),
#: the exception is named as Python's are (``..Error``, ``..Exception``, ``Failed``) and
#: ends the line, a code span or a colon follows it (``app.py:45: Error connecting`` is a
#: log line). A warning's location (``mod.py:71: DeprecationWarning: ..``) is none:
#: pytest prints its warnings summary after the failures, and it took the innermost
#: frame's place (a review). pytest's own ``ApproxMapping._repr_compare`` (line 269) was
#: never listed: no frame named it (a newcomer).
CRASH = re.compile(r"(?<![^\s\"'(\[`=<])((?:[A-Za-z]:[\\/])?[^\s\"'()\[\]:`<>=]{1,300}?\.py):(\d{1,7}): "
                   r"(?:[A-Za-z_]\w*+\.)*+(?:[A-Z]\w*?)?(?:Error|Exception|Exit|Failed|Interrupt)"
                   r"(?=[:`]|[ \t]*+(?:\r?\n|\Z))")
#: Whether ``read`` reads ``CRASH`` lines as frames (off: the lab's comparison).
CRASH_LINES = True
#: A Go panic's frame: the function and its arguments, then the file on the next line
#: (``\t/src/app/tree.go:582 +0x8d6``): function, path, line. ``created by f in goroutine
#: 1`` has no arguments.
GO = re.compile(r"^[ \t]*+(?:created by )?([\w./@$-]++)(?<=[\w$])(?:\([^\n]*\))?(?: in goroutine \d+)?"
                r"[ \t]*\n[ \t]++(\S+\.go):(\d+)", re.MULTILINE)
#: A V8 (Node, Chrome) frame: ``at Foo.bar (/app/lib/x.js:45:12)``, ``at async Foo.bar
#: (file:///app/x.mjs:3:1)``, ``at /app/x.js:3:1`` (anonymous): function (maybe none),
#: path and line in groups 1-3 or 4-5.
V8 = re.compile(r"^[ \t]+at (?:async )?(?:new )?(?:([^\s(][^\n(]*?) \((?:file://)?([^\s()]+\.[cm]?[jt]sx?):(\d+)(?::\d+)?\)"
                r"|(?:file://)?([^\s()]+\.[cm]?[jt]sx?):(\d+)(?::\d+)?)[ \t]*$", re.MULTILINE)
#: A JVM frame: ``at com.acme.Foo$Bar.baz(Foo.java:12)``, behind Java 9's module or class
#: loader prefix (``java.base/``, ``app//``): class and method, file name, line.
JVM = re.compile(r"^([ \t]*+)at (?:[\w.$-]*+/)*+([\w$.<>-]++)\(([\w$-]++\.(?:java|kt|kts|scala|groovy|clj)):(\d+)\)",
                 re.MULTILINE)
#: A root cause's block: at the line's start (a ``Caused by:`` indented under
#: ``Suppressed:`` is the suppressed exception's cause, not the trace's).
_CAUSED_BY = re.compile(r"^Caused by: ", re.MULTILINE)
#: A Rust backtrace frame (``RUST_BACKTRACE=1``): ``  3: serde_json::de::from_str`` over
#: ``             at ./src/de.rs:2676:5``: function, path, line.
RUST = re.compile(r"^[ \t]*+\d++: ([^\n]++)\n[ \t]++at ([^\n]+?\.rs):(\d+)(?::\d+)?[ \t]*+$", re.MULTILINE)
#: Where a Rust program panicked: ``thread 'main' panicked at src/de.rs:12:9:`` (1.73 on),
#: ``panicked at 'msg', src/de.rs:12:9`` (before): path, line. The message is read up to
#: 1,000 characters: unbounded, a line of repeated ``panicked at '`` backtracked from each
#: to the line's end (5.6 s to analyse 200,000 characters: a review; 0.13 s a search of
#: 200,000 hostile characters at 1,000, 0.27 at 2,000).
RUST_PANIC = re.compile(r"panicked at (?:'[^\n]{0,1000}', )?([^\s:'\"]+?\.rs):(\d+)")
#: A .NET frame: ``at Ns.Foo.Bar(String s) in /src/Foo.cs:line 12``: function, path, line.
DOTNET = re.compile(r"^[ \t]++at ([^\s(][^\n(]*+)\([^\n)]*+\) in ([^\n]+?\.(?:cs|fs|vb)):line (\d+)", re.MULTILINE)
#: A Ruby frame: ``/app/lib/x.rb:12:in `m'``, ``from x.rb:3:in 'Foo#bar'`` (3.4): path,
#: line, function.
RUBY = re.compile(r"^[ \t]*+(?:from )?([^\s:'\"`]+?\.rb):(\d+):in [`']([^'`\n]++)'", re.MULTILINE)
#: A PHP frame: ``#0 /app/Bar.php(34): App\Foo->baz('x')``: path, line, function.
PHP = re.compile(r"^[ \t]*+#\d++ (?:([^\n(]+?\.php)\((\d++)\)|\[internal function\]): ([^\n(]++)\(", re.MULTILINE)
#: Where a PHP exception was thrown: ``Uncaught Exception: msg in /app/Foo.php:12``,
#: ``thrown in /app/Foo.php on line 12``: path, line.
PHP_THROWN = re.compile(r"(?:\bin|thrown in) (\S+?\.php)(?::| on line )(\d+)")
#: A native frame as gdb's ``bt`` prints it: ``#1  0x000055 in createStringObject (task=0x5,
#: len=3) at hiredis.c:147`` (frame 0 without its address): function, path, line. A
#: frame in a library without debug information (``from /lib/libc.so.6``) names no file.
GDB = re.compile(r"^[ \t]*+#\d++[ \t]++(?:0x[0-9a-fA-F]++ in )?([^\s(]++) \([^\n]*\) at ([^\s:]++):(\d++)[ \t]*+$",
                 re.MULTILINE)
#: A frame of AddressSanitizer's report (clang, gcc): ``#0 0x4c5e1a in createStringObject
#: /src/hiredis/hiredis.c:147:9``: function, path, line.
ASAN = re.compile(r"^[ \t]*+#\d++ 0x[0-9a-fA-F]++ in ([^\s(]++)(?:\([^\n)]*+\)(?: const)?)? "
                  r"([^\s:()]++):(\d++)(?::\d++)?[ \t]*+$", re.MULTILINE)
#: A frame of valgrind's report: ``==12==    at 0x4C2E: createStringObject (hiredis.c:147)``,
#: ``==12==    by 0x4C3F: processItem (read.c:723)``: function, path, line.
VALGRIND = re.compile(r"^==\d++==[ \t]++(?:at|by) 0x[0-9A-Fa-f]++: ([^\s(]++)(?:\([^\n)]*+\)(?: const)?)? "
                      r"\(([^\s:()]++):(\d++)\)[ \t]*+$", re.MULTILINE)
#: A Swift frame of an Apple crash report or ``Thread.callStackSymbols``, symbolicated:
#: ``4   Alamofire   0x0000000102b5c1e4 closure #1 in AuthenticationInterceptor.refresh(_:for:
#: insideLock:) + 120 (AuthenticationInterceptor.swift:342)`` (the address may be left
#: out): function, file name, line. A frame without a file (a system library's) is none.
SWIFT = re.compile(r"^[ \t]*+\d++[ \t]++(?:[^\n]{1,100}?[ \t]0x[0-9a-fA-F]++|[\w.+-]++)[ \t]++"
                   r"([^\n]{1,500}?) \+ \d++ \(([^\s:()]{1,300}?\.swift):(\d++)\)[ \t]*+$", re.MULTILINE)
#: Where a Swift program stopped (``Fatal error: <message>: file Alamofire/SessionDelegate.
#: swift, line 302``; ``Precondition failed``, ``Assertion failed`` likewise), early in a
#: line (a log's timestamp before it): the file as ``#file`` prints it (its module's name,
#: then its name: group 1 the name), the line. Bounded: a paste repeating ``Fatal error: ``
#: costs a few steps per line (a review).
SWIFT_FATAL = re.compile(r"^[^\n]{0,120}?(?:Fatal error|Precondition failed|Assertion failed)\b[^\n]{0,300}?: file "
                         r"(?:[\w.+-]++/)*+([\w.+-]{1,200}?\.swift), line (\d++)", re.MULTILINE)
#: Swift's words before a closure's or a specialisation's function (``closure #1 in``,
#: ``specialized``, ``partial apply for``): what ran is the function they name.
_SWIFT_PREFIX = re.compile(r"^(?:(?:(?:implicit )?closure #\d++ (?:\([^\n()]*+\) )?in |specialized |merged "
                           r"|partial apply for |(?:reabstraction )?thunk for |@objc |protocol witness for ))++")
#: What follows a protocol witness's requirement: the type conforming (``.. in conformance
#: Session``), not the function.
_SWIFT_CONFORMANCE = re.compile(r" in conformance [^\n]*+$")
#: A native frame's line, with a file or without (a library's without debug information:
#: ``#0 0x4c5e1a in __asan_memcpy (/app/test+0x4c5e1a)``): ``count`` counts these.
NATIVE_LINE = re.compile(r"^[ \t]*+#\d++[ \t]++0x[0-9a-fA-F]++ in |^==\d++==[ \t]++(?:at|by) 0x"
                         r"|^[ \t]*+#\d++[ \t]++[^\s(#]++ \([^\n]*\) at [^\s:]++:\d++[ \t]*+$", re.MULTILINE)
#: Lines that only a trace prints (``detect``: a text mostly of frames under one is a trace).
MARKS = re.compile(r"Traceback \(most recent call last\)|^goroutine \d+ \[|^[ \t]*+Caused by: "
                   r"|Exception in thread \"|panicked at |^stack backtrace:|^Stack trace:"
                   r"|:line \d+$|\.rb:\d+:in [`']|^[ \t]++at \S|^at [\w$.]++\("
                   r"|^\(gdb\) (?:bt|backtrace|where)|^==\d++==[ \t]++(?:at|by) 0x"
                   r"|^[ \t]*+#\d++[ \t]++0x[0-9a-fA-F]++ in "
                   # Swift's: bounded, a line's start only (``Fatal error: `` anywhere, unbounded,
                   # cost seconds on a paste repeating it: a review)
                   r"|^[^\n]{0,80}?Fatal error: [^\n]{0,300}?: file [^\s,]{1,200}?\.swift, line "
                   r"|^[ \t]*+\d++[ \t]++[^\n]{1,300}? \+ \d++ \([^\s:()]{1,200}?\.swift:\d++\)",
                   re.MULTILINE)

#: Frames of the runtimes' own libraries, read as code no repository holds: their names
#: (``invoke``, ``run``, ``begin_panic``) are not what the trace is about.
_ENVIRONMENT = re.compile(r"(?:java|javax|jdk|sun|com\.sun|kotlin|kotlinx|scala|std|core|alloc"
                          r"|System|Microsoft\.AspNetCore)\.[^\W\d]|rust_begin_unwind$"
                          # glibc's and the sanitizers' own (``__GI_raise``, ``__asan_memcpy``)
                          r"|__(?:GI|libc|pthread|assert|asan|interceptor|sanitizer|memmove|memcpy)_")


def read(text: str) -> list[Frame]:
    """The frames of ``text``, innermost first (module docstring), functions as
    ``callable_name`` writes them; Python's after the others'."""
    found: list[tuple[tuple[int, int], Frame]] = []
    causes = [m.start() for m in _CAUSED_BY.finditer(text)]
    jvm = list(JVM.finditer(text))
    indent = min((len(m.group(1).expandtabs(4)) for m in jvm), default=0)
    for m in jvm:
        if len(m.group(1).expandtabs(4)) > indent:
            continue  # a suppressed exception's frames (``Suppressed:``, one level deeper)
        block = bisect.bisect_left(causes, m.start())  # causes before it: the last cause first
        found.append(((-block, m.start()), Frame(_jvm_path(m.group(2), m.group(3)),
                                                  callable_name(m.group(2)), int(m.group(4)))))
    for pattern, function, path, line in _PRINTED:
        found += [((0, m.start()), Frame(m.group(path), callable_name(m.group(function)), int(m.group(line))))
                  for m in pattern.finditer(text)]
    for m in V8.finditer(text):
        path, line = (m.group(2), m.group(3)) if m.group(2) else (m.group(4), m.group(5))
        found.append(((0, m.start()), Frame(path, callable_name(_without_alias(m.group(1) or "")), int(line))))
    for m in RUST_PANIC.finditer(text):
        found.append(((0, m.start()), Frame(m.group(1), "", int(m.group(2)))))
    for m in SWIFT_FATAL.finditer(text):  # the file's name: its module's is no directory
        found.append(((0, m.start()), Frame(m.group(1), "", int(m.group(2)))))
    found += _php(text)
    found.sort(key=lambda pair: pair[0])
    python = [(m.start(), Frame(m.group(1), callable_name(m.group(3) or ""), int(m.group(2))))
              for m in PYTHON.finditer(text)]
    python += [(m.start(), Frame(m.group(1), callable_name(m.group(3)), int(m.group(2))) if m.group(1)
                else Frame(m.group(4), callable_name(m.group(5)), 0)) for m in PYTEST.finditer(text)]
    if CRASH_LINES:  # printed after the entry's frames: the innermost of its block
        python += [(m.start(), Frame(m.group(1), "", int(m.group(2)))) for m in CRASH.finditer(text)]
    python.sort(key=lambda pair: pair[0])  # both kinds in text order
    inward = innermost_first(text, [start for start, _ in python])
    out = [frame for _, frame in found] + [python[i][1] for i in inward]
    # where a program panicked (no function) is also a frame naming its function at that
    # path and line: the named one stands for it (walkdir's panic at lib.rs:846 of another
    # release took the function holding that line at HEAD, above the frame's own `push`)
    named = {(f.path, f.line) for f in out if f.function}
    return [f for f in out if f.function or (f.path, f.line) not in named]


#: The line a Python trace prints under a frame that re-raises an exception bound to a
#: name (``raise``, ``raise exc``, ``raise err from None``): raised or built from errors
#: gathered elsewhere, and handed back here; a class raised (``raise ValueError(..)``,
#: ``raise ValidationError``) is a new exception of this frame's.
RERAISE = re.compile(r"raise(?:\s+[a-z_]\w*)?(?:\s+from\s+\w+)?\s*(?:#[^\n]*)?")
#: A Python traceback's first line, wherever it starts (a logger's prefix before it:
#: ``ERROR:root:Traceback (most recent call last):``); a chained one prints several.
TRACEBACK_HEAD = re.compile(r"Traceback \(most recent call last\):")


#: What Python prints between a chained traceback's blocks when the later exception was
#: raised from the earlier (``raise New(..) from err``): the earlier block's frames ran
#: below the frame that caught it, so they are the stack's innermost part. (Its other
#: separator, ``During handling of the above exception``, prints a failure of the handler
#: itself: the later block's frames stay the innermost.)
_DIRECT_CAUSE = re.compile(r"The above exception was the direct cause of the following exception")
#: Whether a cause's block is read before the block raised from it (``innermost_first``);
#: off: every block after the one printed below it (the lab's comparison).
CAUSE_FIRST = True


def innermost_first(text: str, starts: list[int]) -> list[int]:
    """The indices of ``starts`` (where Python frames begin in ``text``, ascending) in
    innermost-first order: Python prints a traceback outermost first, so each block is
    read backwards, and the last block first, except that a block another was raised from
    (``_DIRECT_CAUSE`` at its end) comes before that one. matplotlib's ``scatter`` wraps
    ``to_rgba_array``'s ``ValueError`` in its own (``raise ValueError(..) from err``): the
    cause block's ``to_rgba_array`` is the deepest frame and was the edit site, and the
    last block's innermost ``_parse_scatter_color_args`` took the frame weights (a
    newcomer's issue). Linear in ``text``: one scan for the heads, one for each block's
    separator."""
    heads = [m.start() for m in TRACEBACK_HEAD.finditer(text)]
    group, groups = 0, []
    for k in range(len(heads) + 1):  # block k: from heads[k - 1] to heads[k]
        groups.append(group)
        if not (CAUSE_FIRST and 0 < k < len(heads) and _DIRECT_CAUSE.search(text, heads[k - 1], heads[k])):
            group += 1
    block = [bisect.bisect_right(heads, start) for start in starts]
    return sorted(range(len(starts)), key=lambda i: (-groups[block[i]], block[i], -starts[i]))


def reraises(code: str) -> bool:
    """Whether ``code``, a source line a trace prints under a frame, re-raises (``RERAISE``)."""
    return bool(RERAISE.fullmatch(code.strip()))


def single_traceback(text: str) -> bool:
    """Whether ``text`` holds at most one Python traceback: in a chained one (``The above
    exception was the direct cause``) the cause's frames show where it failed, and a
    re-raise in the last is no handing back of an error gathered elsewhere (a review)."""
    return len(TRACEBACK_HEAD.findall(text)) <= 1


def printed_code(text: str, frame: Frame) -> str:
    """The source line a Python trace in ``text`` prints under ``frame`` (its ``File "..",
    line N, in f`` header, its path as printed ending with the longest trailing part of
    ``frame.path`` any header has: ``frame.path`` may be the indexed path,
    ``src/jinja2/lexer.py`` for a printed ``site-packages/jinja2/lexer.py``, and a file
    name alone is the last resort, after ``mycli/decorators.py`` is looked for above
    ``click/decorators.py``), stripped; ``""`` when none is printed. One search for the
    header per trailing part (at most the path's depth)."""
    if not frame.line:
        return ""
    parts = frame.path.replace("\\", "/").split("/")
    m = None
    for k in range(len(parts)):
        tail = "/".join(parts[k:])
        header = re.compile(r'File "(?:[^"\n]*[/\\])?' + re.escape(tail) + r'", line ' + str(frame.line) + r"\b")
        m = header.search(text)
        if m:
            break
    code = CODE_LINE.match(text, m.end()) if m else None
    line = code.group(1).strip() if code else ""
    return "" if not line or line.startswith(("File ", "Traceback", "^", "~")) else line


#: The runtimes printing one frame per match, innermost first: (pattern, its groups of the
#: function, the path, the line).
_PRINTED = ((GO, 1, 2, 3), (RUST, 1, 2, 3), (DOTNET, 1, 2, 3), (RUBY, 3, 1, 2), (GDB, 1, 2, 3),
            (ASAN, 1, 2, 3), (VALGRIND, 1, 2, 3), (SWIFT, 1, 2, 3))


def _php(text: str) -> list[tuple[tuple[int, int], Frame]]:
    """PHP's frames, each function paired with the file it runs in (module docstring)."""
    printed = list(PHP.finditer(text))
    if not printed:
        return []
    thrown = PHP_THROWN.search(text)
    where = (thrown.group(1), int(thrown.group(2))) if thrown else ("", 0)
    out = []
    for m in printed:
        if where[0]:
            # a closure (``Ns\\C::Ns\\{closure}``) has no name of its own: its line says
            # which function holds it
            called = "" if m.group(3).rstrip().endswith("{closure}") else callable_name(m.group(3))
            out.append(((0, m.start()), Frame(where[0], called, where[1])))
        # ``#1 [internal function]: f()``: ``f`` ran where the frame before called it, and
        # what the next frame names was called from the runtime, in no file (guzzle's
        # progress closure at StreamHandler.php:520 was paired with ``fread``; a newcomer)
        where = (m.group(1) or "", int(m.group(2) or 0))
    if where[0]:
        out.append(((0, printed[-1].end()), Frame(where[0], "", where[1])))
    return out


def without(text: str) -> str:
    """``text`` without the frames of the runtimes other than Python's (their module paths
    and package prefixes name nothing a reader of prose should take for code words)."""
    for pattern in (GO, V8, JVM, RUST, DOTNET, RUBY, PHP, GDB, ASAN, VALGRIND):
        text = pattern.sub(" ", text)
    return text


def count(text: str) -> int:
    """How many frames ``text`` holds, of any runtime (``detect``: a text is a trace when
    they and its error lines make half its lines). A frame of two lines (Python's with its
    source line, Go's, Rust's) counts once; Rust's panic line twice, for the message line
    under it (a Rust backtrace alone has two lines more than its frames and error lines,
    like Python's ``Traceback`` and error line)."""
    found = sum(len(p.findall(text)) for p in (PYTHON, GO, V8, JVM, RUST, DOTNET, RUBY, PHP, NATIVE_LINE, SWIFT))
    return found + 2 * len(RUST_PANIC.findall(text)) + len(SWIFT_FATAL.findall(text))


def environment(function: str) -> bool:
    """Whether ``function`` (as ``callable_name`` writes it) is a runtime library's own
    (``java.lang.reflect.Method.invoke``, ``std.panicking.begin_panic``,
    ``System.Linq.Enumerable.First``)."""
    return bool(_ENVIRONMENT.match(function))


def _jvm_path(function: str, file_name: str) -> str:
    """A JVM frame's file as its package's directories and its name
    (``com.acme.Foo$Bar.baz``, ``Foo.java`` -> ``com/acme/Foo.java``): the package is the
    class name's segments before the first capitalised one."""
    package = []
    for part in function.split(".")[:-1]:
        if not part[:1].islower() or "$" in part:
            break
        package.append(part)
    return "/".join(package + [file_name])


_RUST_HASH = re.compile(r"::h[0-9a-f]{16}$")
_CLOSURE = re.compile(r"(?:::)?\{\{closure\}\}|\{closure\}")
_GENERIC = re.compile(r"(?<=[\w\]])<[^<>\n]*+>")
_TRAIT_IMPL = re.compile(r"^<(?:&(?:'\w+ )?(?:mut )?|dyn )?([^<>\s]++)(?: as [^<>\n]*+)?>(?=::)")
_LOCALS = re.compile(r"\.<locals>(?=\.)")
_DOTNET_STATE = re.compile(r"<([^\W\d]\w*+)>[a-z](?:__\w*+)?(?:\.MoveNext)?")
_DOTNET_CLOSURE = re.compile(r"\.<>c(?:__DisplayClass\w*+)?(?=\.)")
# (a .NET generic's arity or type arguments; ``[]`` itself is Ruby's element reader ``#[]``)
_ARITY = re.compile(r"`\d++|\[[\w, ]++\]")
_JAVA_LAMBDA = re.compile(r"lambda\$([^\W\d][\w]*?)\$\d++")
_RUBY_BLOCK = re.compile(r"^(?:(?:block|rescue|ensure)(?: \(\d+ levels\))? in )+")
# Ruby's ``Helpers#send_file`` (after a name), not JS's private ``Context.#status``
_SEPARATOR = re.compile(r"::|->|(?<=[\w!?])#|[$\\]")
_PARAMETERS = re.compile(r"\([^()\n]*+\)")


def callable_name(printed: str) -> str:
    """A frame's function as the index writes qualified names (module docstring): scopes
    joined by dots; ``""`` for none. String operations and linear patterns only."""
    name = printed.strip()
    if not name:
        return ""
    name = _SWIFT_CONFORMANCE.sub("", _SWIFT_PREFIX.sub("", name))
    name = _PARAMETERS.sub("", _CLOSURE.sub("", _RUST_HASH.sub("", _RUBY_BLOCK.sub("", name))))
    for _ in range(4):  # nested generic arguments, innermost first
        stripped = _GENERIC.sub("", name)
        if stripped == name:
            break
        name = stripped
    name = _TRAIT_IMPL.sub(r"\1", name)
    # .NET's compiler-made names: an async method's or lambda's state machine, nested
    # (``<<ExecuteAsync>b__0>d.MoveNext``), inside a closure class (``<>c__DisplayClass4_0``)
    name = _DOTNET_CLOSURE.sub("", _ARITY.sub("", name))
    for _ in range(2):
        name = _DOTNET_STATE.sub(r"\1", name)
    name = _JAVA_LAMBDA.sub(r"\1", _LOCALS.sub("", name))
    name = _SEPARATOR.sub(".", name).strip(".")
    head, _, last = name.rpartition(".")
    if last == "<init>" and head:
        name = f"{head}.{head.rpartition('.')[2]}"  # a constructor is named by its class
    return name


def owner_and_name(function: str) -> tuple[str, str]:
    """(the scope just above, the name) of a dotted ``function`` (``a.Foo.bar`` ->
    (``Foo``, ``bar``)); the owner ``""`` when there is none."""
    head, _, name = function.rpartition(".")
    return head.rpartition(".")[2], name


def _without_alias(function: str) -> str:
    """A V8 frame's function without its method alias (``Axios.request [as get]`` ->
    ``Axios.request``); string operations, linear in any text."""
    cut = function.rfind(" [as ")
    return function[:cut].rstrip() if cut >= 0 and function.endswith("]") else function.strip()
