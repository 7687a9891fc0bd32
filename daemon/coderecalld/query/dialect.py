"""Which programming languages a pasted issue or trace is written about.

An agent working across an organisation's repositories pastes an issue without saying
which repository it is about. Its code says which language it is: a fenced block's info
string (```` ```go ````), the files its traceback frames run through (``viper.go:123``,
``Client.php(34)``), the source paths its prose names. ``families`` reads them; the
service then ranks chunks of code in any other language after the rest (``service``
``LANGUAGE_PENALTY``): a Go panic pasted into an index of Go and Python repositories
drew flask's files (a newcomer trial on flask and viper, unscoped), and a PHP trace
Polly's C# ones.

Languages are compared by family (``FAMILY``): a JavaScript snippet is about a TypeScript
library as often as about a JavaScript one (hono, axios), a Kotlin caller's about a Java
library (gson), a C caller's about a C++ one. A shell, a markup or a data language says
nothing of the code (a ``console`` block, a ``json`` payload, a ``bash`` script of the
repository): it is no evidence and is never ranked down.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from coderecalld.parse.registry import language_for
from coderecalld.query.shape import Query

#: Language id (``parse.registry``) -> its family: the languages one issue's code may be
#: in while being about the same library. A language absent here (``bash``) is no evidence
#: and never foreign.
FAMILY: dict[str, str] = {
    "python": "python",
    "javascript": "js", "typescript": "js", "tsx": "js",
    "go": "go",
    "java": "jvm", "kotlin": "jvm", "scala": "jvm",
    "rust": "rust",
    "c": "c", "cpp": "c",
    "csharp": "dotnet",
    "ruby": "ruby",
    "php": "php",
    "swift": "swift",
}

#: A fenced block's info string (lower-cased, before any attribute) -> language id, for
#: the names GitHub's linguist and common Markdown renderers accept beside the ids
#: themselves. ``console``, ``shell``, ``text``, ``json``, ``yaml``, ``diff`` and the like
#: are absent: no evidence.
FENCE_NAMES: dict[str, str] = {
    **{name: name for name in FAMILY},
    "py": "python", "python3": "python", "pycon": "python", "ipython": "python", "pytb": "python",
    "js": "javascript", "jsx": "javascript", "node": "javascript", "mjs": "javascript",
    "cjs": "javascript", "ts": "typescript", "golang": "go", "kt": "kotlin", "kts": "kotlin",
    "rs": "rust", "c++": "cpp", "cc": "cpp", "cxx": "cpp", "hpp": "cpp",
    "cs": "csharp", "c#": "csharp", "rb": "ruby", "irb": "ruby",
}

#: A fence's opening line: three or more backticks or tildes, then the info string's
#: first word (group 1). Linear: one pass, no nested quantifier.
_FENCE_OPEN = re.compile(r"^[ \t]{0,3}(?:`{3,}|~{3,})[ \t]*([\w+#.-]*)", re.MULTILINE)

#: File suffixes that name no family: a C header is every native language's (a Swift
#: library's generated ``Alamofire-Swift.h``, a Python extension's ``Python.h``: a review).
AMBIGUOUS_SUFFIXES = (".h",)

#: Fences read at most (an issue pasting hundreds of blocks says its language in the first).
MAX_FENCES = 64


def families(text: str, paths: Iterable[str] = ()) -> frozenset[str]:
    """The families (``FAMILY`` values) of the code ``text`` shows: its fenced blocks'
    info strings (at most ``MAX_FENCES``) and the languages of ``paths`` (the frames' and
    the prose's file paths, by extension as the indexer reads them). Empty: no evidence,
    nothing is foreign. Linear in ``len(text)``; never raises."""
    found: set[str] = set()
    for i, match in enumerate(_FENCE_OPEN.finditer(text)):
        if i >= MAX_FENCES:
            break
        language = FENCE_NAMES.get(match.group(1).lower())
        if language:
            found.add(FAMILY[language])
    for path in paths:
        path = path.replace("\\", "/")
        if path.lower().endswith(AMBIGUOUS_SUFFIXES):
            continue
        language = language_for(path)
        if language in FAMILY:
            found.add(FAMILY[language])
    return frozenset(found)


@dataclass(frozen=True, slots=True)
class Scope:
    """Where code of another language family than the query's is foreign: ``families``
    (``families``; empty: nowhere) and ``repos``, the repositories none of whose candidate
    chunks is code of those families (``scope``). A repository holding some is the
    issue's whatever else it holds: polars' Python repro is about its Rust code as much as
    its Python bindings, and ranks both as before."""

    families: frozenset[str] = frozenset()
    repos: frozenset[str] = frozenset()

    def foreign(self, payload: Mapping[str, object]) -> bool:
        """Whether a chunk (its payload's ``repo`` and ``language``) is code of another
        family in a repository of ``repos``; False for docs, config and a shell script
        (no family)."""
        if not self.families or payload.get("repo") not in self.repos:
            return False
        family = FAMILY.get(str(payload.get("language") or ""))
        return family is not None and family not in self.families


def scope(families: frozenset[str], payloads: Iterable[Mapping[str, object]]) -> Scope:
    """The ``Scope`` of ``families`` over candidate chunks' ``payloads`` (``repo``,
    ``language``): the repositories among them none of whose chunks is code of those
    families, when the candidates span several repositories and one of them, at least,
    holds such code; else nothing is foreign (a Go server's repository asked a Python
    client's repro alone, or under a repo filter, ranks as before: its docs went above its
    code, a review). Linear in the candidates."""
    if not families:
        return Scope()
    seen: set[object] = set()
    speaking: set[object] = set()
    for payload in payloads:
        repo = payload.get("repo")
        seen.add(repo)
        if FAMILY.get(str(payload.get("language") or "")) in families:
            speaking.add(repo)
    if len(seen) < 2 or not speaking:
        return Scope()
    return Scope(families, frozenset(str(r) for r in seen - speaking))


@functools.lru_cache(maxsize=32)
def of_query(asked: Query) -> frozenset[str]:
    """``families`` of an issue or a trace (its text, its frames' and its paths' files);
    empty for another shape: a question's code is no evidence of the language it asks
    about. Cached: the service and ``anchors`` ask it of one query several times."""
    if not asked.long:
        return frozenset()
    return families(asked.text, [*(f.path for f in asked.frames), *asked.paths])
