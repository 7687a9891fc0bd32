"""``IndexProgress`` travels field for field: domain record, message, client type."""

from __future__ import annotations

from dataclasses import fields

import coderecall
from coderecall.v1 import coderecall_pb2 as pb
from coderecalld.progress import Progress
from coderecalld.server import convert

PROGRESS = Progress("acme/shop", state="indexing", phase="indexing", commit="ab" * 20, files_done=3,
                    files_total=7, chunks_done=41, pending_vectors=12, started_unix_s=1.7e9,
                    updated_unix_s=1.7e9 + 2.5, error="")


def test_progress_survives_the_wire():
    wire = convert.progress_to_pb(PROGRESS).SerializeToString()
    assert convert.progress_from_pb(pb.IndexProgress.FromString(wire)) == PROGRESS


def test_field_names_match_message_and_client_type():
    names = [f.name for f in pb.IndexProgress.DESCRIPTOR.fields]
    assert [f.name for f in fields(Progress)] == names
    assert [f.name for f in fields(coderecall.IndexProgress)] == names


def test_watch_progress_args():
    request = pb.WatchProgressRequest(repo="acme/shop", once=True)
    assert convert.watch_progress_args(request) == {"repo": "acme/shop", "once": True}
