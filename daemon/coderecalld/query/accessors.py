"""A property's accessors answer as one member: its getter and setter (and deleter).

The index keeps each accessor a symbol of its own (its own chunk and lines): a JS/TS
class's ``get x()`` and ``set x(v)``, an object's ``Object.defineProperty(req, 'ip', {get()
{..}, set(v) {..}})`` or express's ``defineGetter(req, 'stale', ..)`` beside a setter, a
Python ``@property`` and its ``@x.setter``. A lookup of the name lists the property once,
as a user asks for it (``symbols req.ip`` printed two ``req.ip`` rows, ``card req.ip``
showed the getter alone; a trial): ``merged`` folds a file's accessors of one qualified
name into the first, its lines spanning them all and its signature theirs, joined by
``"; "`` in source order (``get(); set(value)``). ``read`` of those lines shows each.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from coderecalld.records import Hit

#: An accessor's header, from its signature or the first line of its text: JS/TS ``get x(``,
#: ``static set x(``, a descriptor's ``get() {``, ``set: function (``, ``__defineGetter__(``,
#: a helper named so (``defineGetter(req, 'x', ..)``, ``defineSetter``); Python's
#: ``@property`` and ``@x.setter`` / ``@x.getter`` / ``@x.deleter`` decorators.
_ACCESSOR = re.compile(r"^(?:(?:static\s+|async\s+)*(?:get|set)\b\s*(?:[#\w$]+\s*)?[(:]"
                       r"|.*\b(?:__)?define\w*(?:Getter|Setter)(?:__)?\s*\("
                       r"|@(?:[\w.]+\.)?(?:cached_)?property\b"
                       r"|@\w+\.(?:setter|getter|deleter)\b)", re.MULTILINE)


def accessor(payload: dict) -> bool:
    """Whether the point ``payload`` is a property's accessor (``_ACCESSOR`` on its
    signature or on its snippet's lines: the decorators and the helper's call before it)."""
    return bool(_ACCESSOR.search(str(payload.get("signature", "")))
                or _ACCESSOR.search(str(payload.get("snippet", ""))))


def merged(hits: Sequence[Hit]) -> list[Hit]:
    """``hits`` with each group of two or more accessors of one property (same repo, path
    and qualified name, every one an ``accessor``) as one hit where its first stood: the
    first's id and payload, lines and bytes from the earliest start to the latest end,
    the signatures in source order joined by ``"; "``. Other hits as they are, in order."""
    groups: dict[tuple[str, str, str], list[Hit]] = {}
    for hit in hits:
        p = hit.payload
        groups.setdefault((str(p.get("repo")), str(p.get("path")), str(p.get("qualified_name"))), []).append(hit)
    out, done = [], set()
    for hit in hits:
        p = hit.payload
        key = (str(p.get("repo")), str(p.get("path")), str(p.get("qualified_name")))
        group = groups[key]
        if len(group) < 2 or not all(accessor(h.payload) for h in group):
            out.append(hit)
        elif key not in done:
            done.add(key)
            out.append(_one(hit, group))
    return out


def _one(first: Hit, group: list[Hit]) -> Hit:
    ordered = sorted(group, key=lambda h: int(h.payload.get("start_byte", 0)))
    payload = dict(first.payload,
                   start_line=min(int(h.payload["start_line"]) for h in group),
                   end_line=max(int(h.payload["end_line"]) for h in group),
                   start_byte=min(int(h.payload.get("start_byte", 0)) for h in group),
                   end_byte=max(int(h.payload.get("end_byte", 0)) for h in group),
                   signature="; ".join(dict.fromkeys(str(h.payload.get("signature", "")) for h in ordered)))
    return Hit(first.id, first.score, payload)
