"""Grounded answers (Ask): retrieved evidence, an optional chat model, citations checked.

Off by default. ``Service.ask`` retrieves the evidence (the hybrid search); this module
then, only when ``[ask] endpoint`` is configured, sends the question and every evidence
chunk, each labelled by its point id, to an OpenAI-compatible ``/chat/completions``
endpoint (stdlib ``urllib``; the usual ``*_proxy`` variables apply) and tells the model to
cite ids as ``[id]``. Citations are read back from the answer: ids that were in the
evidence become ``Citation``s in first-cited order, any other distinct id is dropped and
counted. Statuses:

* ``answered``: at least one valid citation;
* ``insufficient_evidence``: nothing was retrieved (the model is not called), or the answer
  cites nothing it was shown (the answer text is then withheld);
* ``no_model``: no endpoint configured; the evidence alone is the answer;
* ``model_error``: the endpoint failed, timed out or answered something unreadable; the
  evidence is still returned. Never an RPC error.

No other RPC ever reaches this module's network code.
"""

from __future__ import annotations

import json
import re
import time
import urllib.error
import urllib.request
from collections.abc import Sequence

from coderecalld import credentials, logs
from coderecalld.config import AskConfig
from coderecalld.errors import ModelError
from coderecalld.records import Answer, Citation, SymbolHit

ANSWERED = "answered"
INSUFFICIENT = "insufficient_evidence"
NO_MODEL = "no_model"
MODEL_ERROR = "model_error"
DEFAULT_EVIDENCE = 8
MAX_EVIDENCE = 50
#: Characters of one chunk's text shown to the model (its embedded text: a header and the
#: source, already redacted); 50 chunks stay under ~20k tokens.
EVIDENCE_CHARS = 1500
#: Largest endpoint response read (a chat answer is a few kB).
MAX_RESPONSE_BYTES = 1 << 20
_UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
_BRACKETS = re.compile(r"\[([^\[\]]{1,2000})\]")

SYSTEM_PROMPT = (
    "You answer questions about a codebase using only the evidence chunks given. Each chunk "
    "starts with its id in square brackets. Cite the chunk behind every claim by its id in "
    "square brackets, for example [0b6e4c1a-95c5-5f1e-8f0e-1c2d3e4f5a6b]. Cite only ids that "
    "appear in the evidence. If the evidence does not answer the question, say so and cite "
    "nothing."
)


def answer(cfg: AskConfig, question: str, evidence: Sequence[tuple[SymbolHit, str]]) -> Answer:
    """The answer to ``question`` from ``evidence`` ((hit, chunk text) pairs, best first);
    see the module docstring for the statuses."""
    hits = tuple(hit for hit, _ in evidence)
    if not cfg.endpoint:
        return Answer(NO_MODEL, "", (), hits, 0, "")
    if not hits:
        return Answer(INSUFFICIENT, "", (), hits, 0, cfg.model)
    started = time.monotonic()
    try:
        text = complete(cfg, messages(question, evidence))
    except ModelError as exc:
        logs.warn("ask.model_error", error=str(exc), duration_s=round(time.monotonic() - started, 3))
        return Answer(MODEL_ERROR, "", (), hits, 0, cfg.model)
    cited, dropped = citations(text, hits)
    status = ANSWERED if cited else INSUFFICIENT
    logs.event("ask.answered", status=status, citations=len(cited), dropped=dropped,
               duration_s=round(time.monotonic() - started, 3))
    return Answer(status, text if cited else "", cited, hits, dropped, cfg.model)


def messages(question: str, evidence: Sequence[tuple[SymbolHit, str]]) -> list[dict[str, str]]:
    """The chat messages: the system prompt, then the question and every chunk under its id."""
    blocks = [f"[{hit.id}] {hit.repo}:{hit.path}:{hit.start_line}-{hit.end_line} "
              f"{hit.qualified_name} ({hit.kind})\n{text[:EVIDENCE_CHARS]}"
              for hit, text in evidence]
    user = f"Question: {question}\n\nEvidence:\n\n" + "\n\n".join(blocks)
    return [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": user}]


def complete(cfg: AskConfig, chat: list[dict[str, str]]) -> str:
    """The first choice's message content from ``<endpoint>/chat/completions``.

    Raises:
        ModelError: connection failure, timeout, a non-2xx status, or a body without
            ``choices[0].message.content`` (the message names the endpoint, never the key).
    """
    url = cfg.endpoint.rstrip("/") + "/chat/completions"
    body = json.dumps({"model": cfg.model, "messages": chat, "temperature": 0,
                       "max_tokens": cfg.max_answer_tokens}).encode()
    headers = {"Content-Type": "application/json", "Accept": "application/json"}
    if cfg.api_key:
        headers["Authorization"] = f"Bearer {cfg.api_key}"
    where = credentials.redact_url(url)
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=cfg.timeout_s) as response:
            raw = response.read(MAX_RESPONSE_BYTES + 1)
    except urllib.error.HTTPError as exc:
        raise ModelError(f"{where}: HTTP {exc.code}") from None
    except (urllib.error.URLError, OSError, ValueError) as exc:  # refused, DNS, timeout, bad URL
        raise ModelError(f"{where}: {getattr(exc, 'reason', exc)}") from None
    if len(raw) > MAX_RESPONSE_BYTES:
        raise ModelError(f"{where}: response over {MAX_RESPONSE_BYTES} bytes")
    try:
        content = json.loads(raw)["choices"][0]["message"]["content"]
    except (ValueError, KeyError, IndexError, TypeError) as exc:
        raise ModelError(f"{where}: unreadable answer ({type(exc).__name__})") from None
    if not isinstance(content, str):
        raise ModelError(f"{where}: answer content is not text")
    return content


def citations(text: str, shown: Sequence[SymbolHit]) -> tuple[tuple[Citation, ...], int]:
    """(valid citations in first-cited order, count of distinct cited ids not in ``shown``).

    A citation is a UUID inside square brackets; ``[a, b]`` cites both."""
    by_id = {hit.id.lower(): hit for hit in shown}
    valid: dict[str, Citation] = {}
    dropped: set[str] = set()
    for group in _BRACKETS.findall(text):
        for cited in _UUID.findall(group):
            cited = cited.lower()
            hit = by_id.get(cited)
            if hit is None:
                dropped.add(cited)
            elif cited not in valid:
                valid[cited] = Citation(hit.id, hit.repo, hit.path, hit.start_line, hit.end_line,
                                        hit.qualified_name)
    return tuple(valid.values()), len(dropped)
