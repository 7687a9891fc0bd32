"""Ask's model side: the prompt, citation parsing, statuses, against a real local HTTP server."""

from __future__ import annotations

import json

import pytest
from chatserver import chat_server
from coderecalld.config import AskConfig, Secret
from coderecalld.query import ask
from coderecalld.records import SymbolHit

IDS = ["0b6e4c1a-95c5-5f1e-8f0e-1c2d3e4f5a60", "0b6e4c1a-95c5-5f1e-8f0e-1c2d3e4f5a61"]
UNSEEN = "ffffffff-0000-5000-8000-000000000000"


def hit(i: int, name: str) -> SymbolHit:
    return SymbolHit(repo="shop", path=f"app/m{i}.py", language="python", kind="function", name=name,
                     qualified_name=name, parent="", signature=f"def {name}()", docstring="",
                     start_line=10 * i + 1, end_line=10 * i + 5, start_byte=0, end_byte=1,
                     commit="c" * 40, id=IDS[i])


EVIDENCE = [(hit(0, "compute_refund"), "def compute_refund(invoice):\n    ..."),
            (hit(1, "round_money"), "def round_money(x):\n    ...")]


def test_citations_keep_shown_ids_in_first_cited_order_and_count_the_rest() -> None:
    shown = [h for h, _ in EVIDENCE]
    text = (f"Refunds use [{IDS[1]}] via [{IDS[0].upper()}, {UNSEEN}] and again [{IDS[1]}]; "
            f"see also [{UNSEEN}] and [not-an-id].")
    cited, dropped = ask.citations(text, shown)
    assert [(c.id, c.qualified_name, c.start_line, c.end_line) for c in cited] == [
        (IDS[1], "round_money", 11, 15), (IDS[0], "compute_refund", 1, 5)]
    assert dropped == 1  # one distinct unseen id, cited twice
    assert ask.citations("no brackets at all " + IDS[0], shown) == ((), 0)


def test_messages_label_every_chunk_by_its_id() -> None:
    system, user = ask.messages("how are refunds rounded?", EVIDENCE)
    assert system == {"role": "system", "content": ask.SYSTEM_PROMPT}
    assert user["content"].startswith("Question: how are refunds rounded?\n\nEvidence:\n\n")
    assert f"[{IDS[0]}] shop:app/m0.py:1-5 compute_refund (function)\ndef compute_refund" in user["content"]
    assert f"[{IDS[1]}] shop:app/m1.py:11-15 round_money (function)" in user["content"]


def test_no_endpoint_is_no_model_with_the_evidence() -> None:
    result = ask.answer(AskConfig(), "q", EVIDENCE)
    assert (result.status, result.answer, result.citations, result.model) == ("no_model", "", (), "")
    assert [h.id for h in result.evidence] == IDS


@pytest.mark.parametrize(("reply", "status", "cited", "dropped"), [
    (f"Refunds round with round_money [{IDS[1]}].", "answered", [IDS[1]], 0),
    (f"It is [{IDS[0]}], maybe [{UNSEEN}].", "answered", [IDS[0]], 1),
    (f"Only [{UNSEEN}] knows.", "insufficient_evidence", [], 1),
    ("The evidence does not say.", "insufficient_evidence", [], 0),
])
def test_statuses_from_a_real_endpoint(reply: str, status: str, cited: list[str], dropped: int) -> None:
    with chat_server() as server:
        server.reply(reply)
        cfg = AskConfig(endpoint=server.url, model="tiny-chat", api_key=Secret("sk-test-1"), timeout_s=5)
        result = ask.answer(cfg, "how are refunds rounded?", EVIDENCE)
    assert (result.status, [c.id for c in result.citations], result.dropped_citations) == (
        status, cited, dropped)
    assert result.answer == (reply if status == "answered" else "")
    assert result.model == "tiny-chat"
    (request,) = server.received
    assert request.path == "/v1/chat/completions"
    assert request.headers["Authorization"] == "Bearer sk-test-1"
    assert request.body["model"] == "tiny-chat" and request.body["temperature"] == 0
    assert all(f"[{i}]" in request.body["messages"][1]["content"] for i in IDS)


@pytest.mark.parametrize("status", [500, 429])
def test_server_errors_are_model_error(status: int) -> None:
    with chat_server() as server:
        server.fail(status)
        result = ask.answer(AskConfig(endpoint=server.url, model="m", timeout_s=5), "q", EVIDENCE)
    assert (result.status, result.answer, result.citations, len(result.evidence)) == (
        "model_error", "", (), 2)


def test_unreadable_answers_and_refused_connections_are_model_error() -> None:
    with chat_server() as server:
        server.fail(200, b"not json")
        server.fail(200, json.dumps({"choices": []}).encode())
        cfg = AskConfig(endpoint=server.url, model="m", timeout_s=5)
        assert ask.answer(cfg, "q", EVIDENCE).status == "model_error"
        assert ask.answer(cfg, "q", EVIDENCE).status == "model_error"
        closed = server.url
    assert ask.answer(AskConfig(endpoint=closed, model="m", timeout_s=5), "q", EVIDENCE).status == "model_error"


def test_a_timeout_is_model_error() -> None:
    with chat_server() as server:
        server.stall()
        server.reply("[x] too late")
        result = ask.answer(AskConfig(endpoint=server.url, model="m", timeout_s=0.2), "q", EVIDENCE)
        assert (result.status, result.evidence[0].id) == ("model_error", IDS[0])


def test_no_evidence_never_calls_the_model() -> None:
    with chat_server() as server:
        result = ask.answer(AskConfig(endpoint=server.url, model="m"), "q", [])
    assert (result.status, server.received) == ("insufficient_evidence", [])
