"""Round trips between coderecalld records and coderecall.v1 messages (server/convert.py),
and the client's result types against the same messages."""

from __future__ import annotations

from dataclasses import fields

import pytest

import coderecall
from coderecall.v1 import coderecall_pb2 as pb
from coderecalld.errors import InvalidArgument
from coderecalld.records import CallerHit, Card, RepoState, RepoStatus, SourceText, SymbolHit, SymbolKind
from coderecalld.server import convert

HIT = SymbolHit(
    repo="acme/payments",
    path="src/hmac_check.py",
    language="python",
    kind=SymbolKind.METHOD,
    name="verify",
    qualified_name="HMACValidator.verify",
    parent="HMACValidator",
    signature="def verify(self, body: bytes, sig: str) -> bool:",
    docstring="Constant-time check of a webhook signature.",
    start_line=41,
    end_line=58,
    start_byte=1203,
    end_byte=5_000_000_123,  # past int32: end_byte is int64 on the wire
    commit="9f2c1e7d" * 5,
    score=0.016393442622950821,  # 1/61, a typical RRF score: must survive as a double
    match="hybrid",
    snippet="    def verify(self, body: bytes, sig: str) -> bool:\n        \"\"\"Constant-time check.\"\"\"",
)
CALLER = CallerHit(
    repo="acme/api",
    path="web/hooks.py",
    line=77,
    caller="handle_webhook",
    callee="validator.verify",
    commit="a" * 40,
    text="ok = validator.verify(body, sig)",
    confidence="resolved",
    target="acme.hmac_check.HMACValidator.verify",
    role="test",
)
SOURCE = SourceText(
    repo="acme/payments",
    path="src/hmac_check.py",
    commit="9f2c1e7d" * 5,
    start_line=41,
    end_line=42,
    text="    def verify(self, body: bytes, sig: str) -> bool:\n        \"\"\"Ünïcode ✓\"\"\"\n",
)
REPO = RepoStatus(
    name="acme/payments",
    url="https://git.example.com/acme/payments.git",
    branch="main",
    indexed_commit="9f2c1e7d" * 5,
    files=312,
    symbols=4021,
    chunks=4107,
    last_sync_unix_s=1_767_225_600.25,
    state=RepoState.ERROR,
    error="fetch failed: timeout after 30 s",
    purpose="Payment webhooks and refunds.",
    languages=(("python", 290), ("bash", 3)),
    packages=("payments", "webhooks"),
    pending_vectors=57,
    lag_s=12.5,
)
CARD = Card(
    repo="acme/payments", path="src/hmac_check.py", kind="class", qualified_name="HMACValidator",
    module="payments.hmac_check", signature="class HMACValidator(Validator)",
    summary="Checks webhook signatures.", start_line=10, end_line=80, commit="9f2c1e7d" * 5,
    bases=("Validator",), init_params=("key: bytes", "algo: str = 'sha256'"),
    methods=("def verify(self, body: bytes, sig: str) -> bool",), raises=("SignatureError",),
    siblings=("sign",), callers=(CALLER,), file_purpose="HMAC checks.", repo_purpose="Payments.", truncated=True,
    siblings_total=14,
)

PAIRS = [
    (HIT, pb.SymbolHit, convert.symbol_hit_to_pb, convert.symbol_hit_from_pb, coderecall.SymbolHit),
    (CALLER, pb.CallSite, convert.caller_hit_to_pb, convert.caller_hit_from_pb, coderecall.CallSite),
    (SOURCE, pb.ReadSymbolResponse, convert.source_text_to_pb, convert.source_text_from_pb,
     coderecall.SourceText),
    (REPO, pb.RepoInfo, convert.repo_status_to_pb, convert.repo_status_from_pb, coderecall.RepoInfo),
    (CARD, pb.Card, convert.card_to_pb, convert.card_from_pb, coderecall.Card),
]
IDS = ["SymbolHit", "CallerHit", "SourceText", "RepoStatus", "Card"]


@pytest.mark.parametrize(("record", "message_type", "to_pb", "from_pb", "client_type"), PAIRS, ids=IDS)
def test_record_survives_the_wire(record, message_type, to_pb, from_pb, client_type):
    wire = to_pb(record).SerializeToString()
    back = from_pb(message_type.FromString(wire))
    assert back == record
    assert type(back) is type(record)


@pytest.mark.parametrize(("record", "message_type", "to_pb", "from_pb", "client_type"), PAIRS, ids=IDS)
def test_field_names_match_message_and_client_type(record, message_type, to_pb, from_pb, client_type):
    message_fields = [f.name for f in message_type.DESCRIPTOR.fields]
    assert [f.name for f in fields(record)] == message_fields
    assert [f.name for f in fields(client_type)] == message_fields


def test_enum_values_travel_as_their_strings():
    message = convert.symbol_hit_to_pb(HIT)
    assert message.kind == "method"
    assert convert.repo_status_to_pb(REPO).state == "error"


def test_responses_keep_order():
    other = SymbolHit(**{**{f.name: getattr(HIT, f.name) for f in fields(HIT)}, "name": "sign"})
    response = convert.search_response([other, HIT])
    assert [h.name for h in response.hits] == ["sign", "verify"]
    assert [s.line for s in convert.find_callers_response([CALLER]).sites] == [77]
    assert [r.name for r in convert.list_repos_response([REPO]).repos] == ["acme/payments"]


def test_zero_limit_leaves_the_domain_default():
    args = convert.search_args(pb.SearchRequest(query="hmac", path_prefix="src/"))
    assert args == {"query": "hmac", "repo": "", "language": "", "path_prefix": "src/",
                    "path_glob": "", "kind": "", "mode": ""}
    assert convert.find_symbols_args(pb.FindSymbolsRequest(name="Foo", prefix=True, limit=3)) == {
        "name": "Foo", "repo": "", "prefix": True, "limit": 3,
    }


@pytest.mark.parametrize(
    "decode, request_",
    [
        (convert.search_args, pb.SearchRequest(query="q", limit=-1)),
        (convert.find_symbols_args, pb.FindSymbolsRequest(name="n", limit=-5)),
        (convert.find_callers_args, pb.FindCallersRequest(name="n", limit=-2_147_483_648)),
        (convert.find_callees_args, pb.FindCalleesRequest(name="n", limit=-1)),
    ],
)
def test_negative_limit_is_invalid(decode, request_):
    with pytest.raises(InvalidArgument, match="limit must be >= 0"):
        decode(request_)


def test_read_symbol_args_pass_lines_through():
    request = pb.ReadSymbolRequest(repo="r", path="a/b.py", start_line=3, end_line=0)
    assert convert.read_symbol_args(request) == {"repo": "r", "path": "a/b.py", "start_line": 3, "end_line": 0}


def test_card_budget_zero_is_the_domain_default_and_negative_is_invalid():
    assert convert.get_card_args(pb.GetCardRequest(name="X")) == {"name": "X", "repo": ""}
    assert convert.get_card_args(pb.GetCardRequest(name="X", budget_tokens=90))["budget_tokens"] == 90
    with pytest.raises(InvalidArgument, match="budget_tokens"):
        convert.get_card_args(pb.GetCardRequest(name="X", budget_tokens=-1))


def test_client_decodes_card_and_repo_lists():
    from coderecall._client import _card_from_pb, _repo_from_pb

    card = _card_from_pb(convert.card_to_pb(CARD))
    assert card.init_params == CARD.init_params and card.callers[0].confidence == "resolved"
    assert _repo_from_pb(convert.repo_status_to_pb(REPO)).languages == (("python", 290), ("bash", 3))


def test_pages_carry_their_total_both_ways():
    from coderecall._client import _page
    from coderecalld.records import Page

    page = Page.cut([CALLER] * 7, offset=2, limit=3)
    assert (len(page), page.total, page.offset, page.truncated) == (3, 7, 2, True)
    page.by_confidence = (("resolved", 2), ("name_only", 5))  # the whole answer's, not the page's
    response = convert.find_callers_response(page)
    assert (len(response.sites), response.total, response.truncated) == (3, 7, True)
    assert [(c.confidence, c.sites) for c in response.by_confidence] == [("resolved", 2), ("name_only", 5)]
    assert not convert.find_callers_response([CALLER]).by_confidence  # a plain list: nothing counted
    back = _page(list(response.sites), response, 2)
    assert (back.total, back.truncated, back.next_offset) == (7, True, 5)
    last = convert.find_symbols_response(Page.cut([HIT] * 7, offset=5, limit=3))
    assert (len(last.hits), last.total, last.truncated) == (2, 7, False)
    plain = convert.find_callees_response([CALLER])  # an implementation without pages: complete
    assert (plain.total, plain.truncated) == (1, False)
    old_daemon = pb.FindCallersResponse(sites=[convert.caller_hit_to_pb(CALLER)])  # no total sent
    assert (_page(list(old_daemon.sites), old_daemon, 0).total, _page([], old_daemon, 0).truncated) == (1, False)
    nothing = _page([], pb.FindCallersResponse(), 100)  # past the end of an empty answer
    assert (nothing.total, nothing.truncated) == (0, False)


def test_offset_is_passed_only_when_set_and_never_negative():
    assert convert.find_callers_args(pb.FindCallersRequest(name="n", offset=3)) == {
        "name": "n", "repo": "", "offset": 3}
    assert "offset" not in convert.find_callees_args(pb.FindCalleesRequest(name="n"))
    assert convert.find_symbols_args(pb.FindSymbolsRequest(name="n", offset=4))["offset"] == 4
    with pytest.raises(InvalidArgument, match=r"offset: -1 < 0 \(0 is the first item\)"):
        convert.find_callers_args(pb.FindCallersRequest(name="n", offset=-1))
