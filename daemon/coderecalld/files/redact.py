"""Secrets never enter the index: replace credentials in chunk text with ``[REDACTED:<type>]``.

Detection is detect-secrets' plugin set (AWS, GitHub, GitLab, Slack, Stripe, private keys,
JWTs, basic-auth URLs, ``password = "..."`` keywords, quoted high-entropy strings, ...;
every plugin except "Public IP"), plus two checks of our own that detect-secrets leaves
to its filters or misses: the body lines of a PEM private-key block, and unquoted
high-entropy tokens (Shannon entropy >= ``ENTROPY_BITS`` over >= ``ENTROPY_MIN_CHARS``
characters holding both letters and digits).

Redaction is line-local: a line keeps its line break, so line numbers of chunks and of
``ReadSymbol`` answers stay exact. Byte offsets (``start_byte``/``end_byte``) keep
pointing into the raw blob; only the text the index stores and serves is redacted.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import replace
from functools import cache, lru_cache

from detect_secrets.filters.heuristic import is_sequential_string

from coderecalld.records import Chunk

#: Marker replacing a secret value; ``type`` is the detector's name, e.g. "AWS Access Key".
MARKER = "[REDACTED:{}]"
#: Entropy check of our own: token length and bits per character. 4.0 bits is above any
#: hex string (at most 4.0, so git ids and digests stay readable) and above English-like
#: identifiers (~3.5); 20 random base64 characters average ~4.1.
ENTROPY_MIN_CHARS = 20
ENTROPY_BITS = 4.0
HIGH_ENTROPY = "High Entropy String"
PRIVATE_KEY = "Private Key"
#: Lines longer than this are scanned in overlapping windows (detectors are per line and
#: some of their patterns backtrack).
MAX_SCAN_LINE_CHARS = 4000

_SKIP_PLUGINS = frozenset({"Public IP (ipv4)"})
# Cheap whole-line prefilter: a line passing none of these checks matches no detector: the
# keywords are detect-secrets' KeywordDetector denylist and the other plugins' anchors;
# every token format it knows is a run of 12+ characters with a digit, or 23+ without
# (a quoted string needs 23 characters to exceed the 4.5-bit base64 entropy limit).
# Substring tests on the lowered line: an ignore-case regex alternation cost 35 us a line.
_KEYWORDS = ("pass", "pwd", "secret", "contrase", "private", "auth", "cloudant", "softlayer",
             "token", "credential", *(f"{p}{sep}key" for p in (
                 "api", "service", "account", "db", "database", "priv", "client", "access")
                 for sep in ("", "_")))
_RUN = r"A-Za-z0-9+/=_\-"
_RUN_WITH_DIGIT = re.compile(rf"(?<![{_RUN}])(?=[{_RUN}]{{12}})[A-Za-z+/=_\-]*\d")
_RUN_LONG = re.compile(rf"[{_RUN}]{{23}}")


def _candidate(line: str) -> bool:
    lowered = line.lower()
    return (any(k in lowered for k in _KEYWORDS) or ("://" in line and "@" in line)
            or bool(_RUN_WITH_DIGIT.search(line) or _RUN_LONG.search(line)))


_TOKEN_CHARS = re.compile(r"[A-Za-z0-9+/_\-]")
# Our own entropy check reads runs without "=" (``KEY=value`` is two tokens) and without
# "/" (paths), so it never fires on an assignment or a path; quoted base64 with "/" is
# detect-secrets' Base64HighEntropyString's.
_TOKEN_RUN = re.compile(r"[A-Za-z0-9+_\-]{%d,}" % ENTROPY_MIN_CHARS)
_PEM_BEGIN = re.compile(r"-----BEGIN[ A-Z0-9]*PRIVATE KEY( BLOCK)?-----")
_PEM_END = re.compile(r"-----END[ A-Z0-9]*PRIVATE KEY( BLOCK)?-----")
_TAIL = re.compile(r"[^\s\"'`=:]+$")
# Assignments detect-secrets' keyword list lacks (``token: ...``) or that its per-language
# rules skip (unquoted ``API_KEY=...`` outside .env-like files). The value must look like
# a literal (no call, index or attribute access) and hold a digit.
_ASSIGNED = re.compile(
    r"(?i)(?:token|secret|passw(?:or)?d|api[_-]?key|access[_-]?key|credentials?)[\"']?\s*[:=]\s*"
    r"[\"']?([A-Za-z0-9+/_\-.~]*\d[A-Za-z0-9+/_\-.~]*)")
KEYWORD = "Secret Keyword"
#: A keyword's value that is one short lower-case word is a placeholder, not a credential
#: (hono's ``secret: 'secret'``, ``'username' in options``): redacting it also took the
#: key and identifiers spelled with it.
_PLACEHOLDER = re.compile(r"^[a-z]{1,12}$")
#: Values a keyword comparison checks a type against, not a credential: detect-secrets
#: reads ``typeof secret === 'string'`` as a hard-coded secret ``string`` (hono's cookie
#: signing read ``typeof secret === '[REDACTED:Secret Keyword]'``).
TYPE_NAMES = frozenset({"string", "number", "boolean", "object", "undefined", "function", "symbol",
                        "bigint", "null", "none", "nil", "true", "false", "str", "bytes", "int",
                        "bool", "float", "dict", "list", "array", "buffer", "uint8array"})
_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_.]*$")


#: The name a keyword's value is given to: the last name before the value on its line.
_KEY_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_\-]*")


def _spells_its_key(line: str, value: str) -> bool:
    """Whether ``value`` is spelled inside the name it is assigned to, a name's own text and
    no credential: Django's ``password1_field_name="password1"`` and
    ``usable_password_field_name="usable_password"`` (form field names) were served by
    ``read`` as ``[REDACTED:Secret Keyword]`` (a newcomer editing ``SetPasswordMixin``).
    The value must be lower case (``-`` read as ``_``), at least 4 characters, and spelled
    exactly so in the last name before its first quoted occurrence: ``password1 =
    "Password1"`` and ``password = "hunter2"  # hunter2`` stay redacted (a review)."""
    if len(value) < 4 or value != value.lower():
        return False
    quoted = re.search(rf"[\"']{re.escape(value)}[\"']", line)
    names = _KEY_NAME.findall(line[:quoted.start()]) if quoted else []
    return bool(names) and value.replace("-", "_") in names[-1].replace("-", "_")


@cache
def _plugins() -> tuple:
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class

    mapping = get_mapping_from_secret_type_to_class()
    return tuple(cls() for name, cls in sorted(mapping.items()) if name not in _SKIP_PLUGINS)


def entropy_bits(token: str) -> float:
    """Shannon entropy of ``token`` in bits per character."""
    counts = Counter(token)
    return -sum(n / len(token) * math.log2(n / len(token)) for n in counts.values())


_SEGMENT = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")


def _identifier_like(token: str) -> bool:
    """True for names built of words (``SOCKS5UsernamePasswordRequest``, ``parse_utf8_header``,
    ``APIGatewayProxyEventV2``): they carry entropy from their many letters, not randomness.
    A word is a lower-case run of 3+ letters; random keys break into mostly 1-2 character
    segments instead. Digit runs and a version's ``V`` (``V2``) are no segments: hono's
    ``APIGatewayProxyEventV2`` (``V``, ``2`` a third of its segments) read as a key and
    was redacted in its every signature. Of random 20-character alphanumeric tokens of 4+
    bits a character, 0.7 % read as names so (0.2 % with digit segments counted)."""
    segments = _SEGMENT.findall(_VERSION_OR_DIGITS.sub(" ", token))
    short = sum(len(seg) <= 2 for seg in segments)
    has_word = any(len(seg) >= 3 and seg[-1].islower() for seg in segments)
    return has_word and short <= len(segments) * 0.3 or _constant_like(token)


def _constant_like(token: str) -> bool:
    """True for an upper-case constant's name of words and numbers between underscores
    (``HTTP_407_PROXY_AUTHENTICATION_REQUIRED``): three parts at least, each all capitals
    and digits, none of one or two letters, two of them words of 4+ letters. starlette's
    ``status.py`` was served with four such names replaced by the high-entropy marker (a
    newcomer). A key's groups mix letters and digits (``K7XQ``), or are joined by ``-``."""
    parts = token.split("_")
    if len(parts) < 3 or not all(p.isdigit() or (p.isalpha() and p.isupper() and len(p) >= 3) for p in parts):
        return False
    return sum(p.isalpha() and len(p) >= 4 for p in parts) >= 2


_VERSION_OR_DIGITS = re.compile(r"[Vv](?=\d)|\d+")


def _high_entropy(token: str) -> bool:
    return (any(c.isdigit() for c in token) and any(c.isalpha() for c in token)
            and entropy_bits(token) >= ENTROPY_BITS and not _identifier_like(token))


def _widen(line: str, value: str) -> str:
    """``value`` grown to the whole token it sits in (GitHub's detector reports ``ghp``),
    unless it also stands alone on the line (hono's ``'username'`` is quoted after an
    identifier that begins with it: ``usernamePasswordInOptions`` was redacted)."""
    if _standalone(line, value):
        return value
    start = line.find(value)
    if start < 0:
        return value
    end = start + len(value)
    while start > 0 and _TOKEN_CHARS.match(line[start - 1]):
        start -= 1
    while end < len(line) and _TOKEN_CHARS.match(line[end]):
        end += 1
    return line[start:end]


def _alone(value: str) -> str:
    """The pattern of ``value`` where it is no part of a longer token."""
    return rf"(?<![A-Za-z0-9+/_\-]){re.escape(value)}(?![A-Za-z0-9+/_\-])"


def _standalone(line: str, value: str) -> re.Match[str] | None:
    """An occurrence of ``value`` in ``line`` that is no part of a longer token."""
    return re.search(_alone(value), line)


def _replaced(text: str, value: str, kind: str) -> tuple[str, int]:
    """``text`` with ``value`` replaced by its marker, and the count: whole tokens only
    where it stands alone somewhere (an identifier spelled with it stays), else every
    occurrence (a detector's part of a longer token: it was widened already)."""
    pattern = _alone(value) if _standalone(text, value) else re.escape(value)
    return re.subn(pattern, lambda _: MARKER.format(kind), text)


@lru_cache(maxsize=1 << 16)
def line_findings(line: str, path: str = "") -> tuple[tuple[str, str], ...]:
    """``(type, value)`` of every secret on one line (without the PEM-block rule).

    Cached: a module chunk repeats the lines of its symbols' chunks. A line longer than
    ``MAX_SCAN_LINE_CHARS`` is scanned in overlapping windows of that size."""
    if len(line) > MAX_SCAN_LINE_CHARS:
        step = MAX_SCAN_LINE_CHARS - 200
        windows = (line[i:i + MAX_SCAN_LINE_CHARS] for i in range(0, len(line), step))
        return tuple(dict.fromkeys(f for w in windows for f in line_findings(w, path)))
    if not _candidate(line):
        return ()
    found: dict[str, str] = {}
    for plugin in _plugins():
        for secret in plugin.analyze_line(filename=path or "x", line=line, line_number=1):
            value = secret.secret_value or ""
            if value.strip() and not is_sequential_string(value) and not (
                    secret.type == KEYWORD and (value.lower() in TYPE_NAMES or _PLACEHOLDER.match(value)
                                                or _spells_its_key(line, value))):
                found.setdefault(_widen(line, value), secret.type)
    for value in _ASSIGNED.findall(line):
        # An identifier-like value of low entropy is a variable name (``token = token_v2``).
        if len(value) >= 8 and not (_IDENT.match(value) and entropy_bits(value) < 3.5) and not _spells_its_key(line, value):
            found.setdefault(value, KEYWORD)
    for token in _TOKEN_RUN.findall(line):
        if _high_entropy(token):
            found.setdefault(token, HIGH_ENTROPY)
    return tuple((kind, value) for value, kind in found.items())


def text(source: str, path: str = "") -> tuple[str, Counter[str]]:
    """``source`` with every secret replaced, and the count of replacements per type."""
    redacted, counts, _ = _scan(source, path)
    return redacted, counts


def split_lines(text: str) -> list[str]:
    """Lines of ``text`` with their endings, broken at ``\n`` only -- the index's line
    convention. ``str.splitlines`` also breaks at ``\r``, form feeds and U+2028, which
    would shift every line number after one of them."""
    return re.findall(r"[^\n]*\n|[^\n]+", text)


def _scan(source: str, path: str) -> tuple[str, Counter[str], dict[str, str]]:
    counts: Counter[str] = Counter()
    values: dict[str, str] = {}
    lines = split_lines(source)
    keys = _pem_bodies(lines) if "PRIVATE KEY" in source else set()
    for i, line in enumerate(lines):
        if i in keys:
            body = line.rstrip("\r\n")
            counts[PRIVATE_KEY] += 1
            values[body.strip()] = PRIVATE_KEY
            lines[i] = MARKER.format(PRIVATE_KEY) + line[len(body):]
            continue
        found = line_findings(line, path)
        if not found:
            continue
        for kind, value in sorted(found, key=lambda kv: -len(kv[1])):
            line, n = _replaced(line, value, kind)
            if n:
                counts[kind] += n
                values[value] = kind
        lines[i] = line
    return ("".join(lines) if counts else source), counts, values


def _pem_bodies(lines: list[str]) -> set[int]:
    """Indexes of the lines between a ``BEGIN ... PRIVATE KEY`` line and its ``END`` line."""
    bodies: set[int] = set()
    in_key = False
    for i, line in enumerate(lines):
        if in_key:
            in_key = not _PEM_END.search(line)
            if in_key and line.strip():
                bodies.add(i)
        elif "PRIVATE KEY" in line and _PEM_BEGIN.search(line) and not _PEM_END.search(line):
            in_key = True
    return bodies


def _apply(field: str, values: dict[str, str], path: str) -> str:
    """``field`` scanned on its own, then cleared of every value found elsewhere in the
    chunk where it stands as a whole token (a value is a whole token of its own line:
    ``_widen``), including one cut short at the end (``embed_text`` is truncated). Not
    inside a longer name: packaging's test URL ``user:pass@`` had turned the signature's
    parameter ``safe_user_passwords`` into ``safe_user_[REDACTED:..]words`` (a newcomer)."""
    field = text(field, path)[0]
    for value, kind in sorted(values.items(), key=lambda kv: -len(kv[0])):
        field = re.sub(_alone(value), lambda _, kind=kind: MARKER.format(kind), field)
        tail = _TAIL.search(field)
        if tail and len(tail.group()) >= 4 and value.startswith(tail.group()):
            field = field[:tail.start()] + MARKER.format(kind)
    return field


def chunks(items: list[Chunk]) -> tuple[list[Chunk], Counter[str]]:
    """Chunks with secrets redacted in ``text``, ``embed_text``, ``docstring`` and
    ``signature``; counts are of the replacements made in ``text`` (what is stored)."""
    out, total = [], Counter()
    for item in items:
        body, counts, values = _scan(item.text, item.path)
        total += counts
        out.append(replace(item, text=body, embed_text=_apply(item.embed_text, values, item.path),
                           docstring=_apply(item.docstring, values, item.path),
                           signature=_apply(item.signature, values, item.path)))
    return out, total
