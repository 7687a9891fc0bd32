"""Round trips of the issue-11 records (impact trees, overlay status, answers) through
their messages, and their field names against the messages and the client's types."""

from __future__ import annotations

from dataclasses import fields

import pytest

import coderecall
from coderecall.v1 import coderecall_pb2 as pb
from coderecalld.errors import InvalidArgument
from coderecalld.records import (
    Answer, CallerHit, Citation, Impact, ImpactNode, OverlayStatus, SearchHits, SymbolHit,
)
from coderecalld.server import convert


def site(line: int, caller: str) -> CallerHit:
    return CallerHit("acme/api", "web/hooks.py", line, caller, "verify", "a" * 40, text="verify(x)",
                     confidence="resolved", target="acme.hmac.verify")


HIT = SymbolHit(repo="acme/payments", path="src/hmac.py", language="python", kind="function",
                name="verify", qualified_name="verify", parent="", signature="def verify(b)",
                docstring="", start_line=3, end_line=9, start_byte=10, end_byte=99, commit="",
                score=0.5, match="hybrid", snippet="def verify(b):", source="overlay",
                id="0b6e4c1a-95c5-5f1e-8f0e-1c2d3e4f5a60")
IMPACT = Impact("verify", (ImpactNode(site(7, "handle"), 1, (ImpactNode(site(30, "route"), 2),)),),
                nodes=2, repos_touched=1, files_touched=1, truncated=True, cut=("depth", "time"))
STATUS = OverlayStatus("acme/api", "web/hooks.py", "sess-1", 3, 4, 1_767_225_600.5, "")
ANSWER = Answer("answered", "It checks [x].", (Citation(HIT.id, "acme/payments", "src/hmac.py", 3, 9,
                                                          "verify"),), (HIT,), 2, "tiny-chat")


@pytest.mark.parametrize(("record", "to_pb", "from_pb", "message_type"), [
    (IMPACT, convert.impact_to_pb, convert.impact_from_pb, pb.AnalyzeImpactResponse),
    (STATUS, convert.overlay_status_to_pb, convert.overlay_status_from_pb, pb.IndexOverlayResponse),
    (ANSWER, convert.answer_to_pb, convert.answer_from_pb, pb.AskResponse),
], ids=["Impact", "OverlayStatus", "Answer"])
def test_record_survives_the_wire(record, to_pb, from_pb, message_type) -> None:
    assert from_pb(message_type.FromString(to_pb(record).SerializeToString())) == record


@pytest.mark.parametrize(("record_type", "message_type", "client_type"), [
    (Impact, pb.AnalyzeImpactResponse, coderecall.Impact),
    (ImpactNode, pb.ImpactNode, coderecall.ImpactNode),
    (OverlayStatus, pb.IndexOverlayResponse, coderecall.OverlayStatus),
    (Citation, pb.Citation, coderecall.Citation),
    (Answer, pb.AskResponse, coderecall.Answer),
])
def test_field_names_match(record_type, message_type, client_type) -> None:
    names = [f.name for f in message_type.DESCRIPTOR.fields]
    assert [f.name for f in fields(record_type)] == names
    assert [f.name for f in fields(client_type)] == names


def test_search_response_carries_the_confidence_flag() -> None:
    flagged = convert.search_response(SearchHits([HIT], True, "top score 0.31 < 0.45"))
    assert (flagged.low_confidence, flagged.confidence_reason, flagged.hits[0].source) == (
        True, "top score 0.31 < 0.45", "overlay")
    plain = convert.search_response([HIT])  # an API answering a plain list is confident
    assert (plain.low_confidence, plain.confidence_reason) == (False, "")


def test_new_arguments_are_passed_only_when_set() -> None:
    assert "session" not in convert.search_args(pb.SearchRequest(query="q"))
    assert convert.search_args(pb.SearchRequest(query="q", session="s"))["session"] == "s"
    assert convert.find_symbols_args(pb.FindSymbolsRequest(name="n")) == {
        "name": "n", "repo": "", "prefix": False}
    assert convert.find_symbols_args(pb.FindSymbolsRequest(name="n", fuzzy=True, session="s")) == {
        "name": "n", "repo": "", "prefix": False, "fuzzy": True, "session": "s"}


def test_zero_means_default_and_negative_is_invalid() -> None:
    assert convert.analyze_impact_args(pb.AnalyzeImpactRequest(name="f")) == {"name": "f", "repo": ""}
    assert convert.analyze_impact_args(pb.AnalyzeImpactRequest(name="f", depth=2, limit=5)) == {
        "name": "f", "repo": "", "depth": 2, "limit": 5}
    assert convert.ask_args(pb.AskRequest(question="q")) == {"question": "q", "repo": ""}
    assert convert.index_overlay_args(pb.IndexOverlayRequest(repo="r", path="p", content=b"x",
                                                             session="s")) == {
        "repo": "r", "path": "p", "content": b"x", "session": "s"}
    for bad in (pb.AnalyzeImpactRequest(name="f", depth=-1), pb.AnalyzeImpactRequest(name="f", limit=-1)):
        with pytest.raises(InvalidArgument):
            convert.analyze_impact_args(bad)
    with pytest.raises(InvalidArgument, match="ttl_s"):
        convert.index_overlay_args(pb.IndexOverlayRequest(ttl_s=-5))
    with pytest.raises(InvalidArgument, match="limit"):
        convert.ask_args(pb.AskRequest(question="q", limit=-1))
