"""A property's accessors answer as one member: its getter and setter (and deleter).

The index keeps each accessor a symbol of its own (its own chunk and lines): a JS/TS
class's ``get x()`` and ``set x(v)``, an object's ``Object.defineProperty(req, 'ip', {get()
{..}, set(v) {..}})`` or express's ``defineGetter(req, 'stale', ..)`` beside a setter, a
Python ``@property`` and its ``@x.setter``. A lookup of the name lists the property once,
as a user asks for it (``symbols req.ip`` printed two ``req.ip`` rows, ``card req.ip``
showed the getter alone; a trial): ``merged`` folds a file's accessors of one qualified
name into the first, its lines spanning them all and its signature theirs, joined by
``"; "`` in source order (``get(); set(value)``). ``read`` of those lines shows each.

Only one property's getter with its setter and/or deleter merge, each recognised by its
accessor syntax or decorator (a review): a method named ``get`` or ``set`` (TS overloads
``get(key: string): string; get(key: any) {..}``) is none, two getters (a Python ``if``'s
and its ``else``'s ``@property def maybe``) are no pair, and accessors with another member
between them (``get width()`` and ``set width(v)`` 33 lines apart) stay separate rows, so
``read`` of a row shows no unrelated method.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from coderecalld.records import Hit

#: An accessor's header, from its signature or the first line of its text: JS/TS ``get x(``,
#: ``static set x(``, a descriptor's ``get() {``, ``set: function (``, ``__defineGetter__(``,
#: a helper named so (``defineGetter(req, 'x', ..)``, ``defineSetter``); Python's
#: ``@property`` and ``@x.setter`` / ``@x.getter`` / ``@x.deleter`` decorators.
_ACCESSOR = re.compile(r"^(?:(?:static|async|public|private|protected|override)\s+)*(?P<js>get|set)\b\s*"
                       r"(?P<name>[#\w$]+\s*)?[(:]"
                       r"|.*\b(?:__)?define\w*(?P<define>Getter|Setter)(?:__)?\s*\("
                       r"|@(?:[\w.]+\.)?(?:cached_)?(?P<property>property)\b"
                       r"|@\w+\.(?P<py>setter|getter|deleter)\b", re.MULTILINE)

#: A role per accessor written: its getter, setter or deleter.
_ROLES = {"get": "getter", "set": "setter", "Getter": "getter", "Setter": "setter", "property": "getter",
          "getter": "getter", "setter": "setter", "deleter": "deleter"}

#: Lists a file's points: ``(repo, path) -> [Hit]``.
FilePoints = Callable[[str, str], Sequence[Hit]]


def role(payload: dict) -> str | None:
    """The accessor ``payload`` is (``"getter"``, ``"setter"`` or ``"deleter"``), by the first
    ``_ACCESSOR`` header of its signature, else of its snippet (the decorators and the helper's
    call before it); ``None`` for a non-accessor, a method named ``get``/``set`` among them
    (``get(key)`` of ``Store.get``; a descriptor's ``get()`` is one of a property not so named,
    ``get x()`` one of ``x``)."""
    member = str(payload.get("qualified_name", "")).rpartition(".")[2].lstrip("#")
    for text in (str(payload.get("signature", "")), str(payload.get("snippet", ""))):
        found = _ACCESSOR.search(text)
        if found is None:
            continue
        if found["js"]:
            named = (found["name"] or "").strip().lstrip("#")
            if (named and named != member) or (not named and member in ("get", "set")):
                return None
            return _ROLES[found["js"]]
        return _ROLES[found["define"] or found["property"] or found["py"]]
    return None


def accessor(payload: dict) -> bool:
    """Whether the point ``payload`` is a property's accessor (``role``)."""
    return role(payload) is not None


def merged(hits: Sequence[Hit], file_points: FilePoints) -> list[Hit]:
    """``hits`` with each run of one property's accessors (same repo, path and qualified name,
    adjacent in source order: no other point of ``file_points(repo, path)`` between them) that
    is one getter with a setter and/or a deleter as one hit where its first stood: the first's
    id and payload, lines and bytes from the earliest start to the latest end, every
    accessor's signature in source order joined by ``"; "``. Other hits as they are, in order."""
    groups: dict[tuple[str, str, str], list[Hit]] = {}
    for hit in hits:
        p = hit.payload
        groups.setdefault((str(p.get("repo")), str(p.get("path")), str(p.get("qualified_name"))), []).append(hit)
    into: dict[str, Hit] = {}  # a merged hit by its accessors' ids
    for (repo, path, _), group in groups.items():
        if len(group) > 1 and all(accessor(h.payload) for h in group):
            for run in _runs(group, file_points(repo, path)):
                if _pair(run):
                    ids = {h.id for h in run}
                    one = _one(next(h for h in group if h.id in ids), run)
                    into.update({h.id: one for h in run})
    out, done = [], set()
    for hit in hits:
        one = into.get(hit.id, hit)
        if id(one) not in done:
            done.add(id(one))
            out.append(one)
    return out


def _runs(group: list[Hit], points: Sequence[Hit]) -> list[list[Hit]]:
    """``group`` in source order, cut wherever another of the file's ``points`` lies wholly
    between two accessors."""
    ordered = sorted(group, key=lambda h: int(h.payload.get("start_byte", 0)))
    ids = {h.id for h in group}
    runs: list[list[Hit]] = [[ordered[0]]]
    for before, after in zip(ordered, ordered[1:]):
        lo, hi = int(before.payload.get("end_byte", 0)), int(after.payload.get("start_byte", 0))
        if any(p.id not in ids and lo <= int(p.payload.get("start_byte", -1))
               and int(p.payload.get("end_byte", hi + 1)) <= hi for p in points):
            runs.append([after])
        else:
            runs[-1].append(after)
    return runs


def _pair(run: list[Hit]) -> bool:
    """Whether ``run`` is one property's getter with its setter and/or deleter, each once."""
    roles = [role(h.payload) for h in run]
    return len(run) > 1 and roles.count("getter") == 1 and len(set(roles)) == len(roles)


def _one(first: Hit, group: list[Hit]) -> Hit:
    ordered = sorted(group, key=lambda h: int(h.payload.get("start_byte", 0)))
    payload = dict(first.payload,
                   start_line=min(int(h.payload["start_line"]) for h in group),
                   end_line=max(int(h.payload["end_line"]) for h in group),
                   start_byte=min(int(h.payload.get("start_byte", 0)) for h in group),
                   end_byte=max(int(h.payload.get("end_byte", 0)) for h in group),
                   signature="; ".join(str(h.payload.get("signature", "")) for h in ordered))
    return Hit(first.id, first.score, payload)
