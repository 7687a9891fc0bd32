"""ServerStore's own behaviour: connection, collection config, identity metadata, the alias,
error mapping. Shared store behaviour is in tests/integration/test_store_congruence.py."""

from __future__ import annotations

import datetime
import gc
import socket
import uuid
import warnings
from pathlib import Path

import httpx
import pytest
from coderecalld.config import StoreConfig
from coderecalld.daemon import open_store
from coderecalld.embed import sparse
from coderecalld.errors import InvalidArgument, StoreError, StoreMismatch, StoreUnavailable
from coderecalld.records import PointRecord, SparseVector
from coderecalld.store import StoreFilter, StoreIdentity
from coderecalld.store.base import KEYWORD_FIELDS, PREFIX_FIELDS, TEXT_FIELDS
from coderecalld.store.remote import store_error
from coderecalld.store.server import DEFAULT_ALIAS, IDENTITY_KEY, ServerStore, _index_schemas
from qdrant_client import QdrantClient
from qdrant_client import models as qm
from qdrant_client.http.exceptions import ResponseHandlingException, UnexpectedResponse

TV = sparse.TOKENIZER_VERSION
POINT = PointRecord("6f2c0a53-2b1e-4c9f-9a57-5c0b7f1d8e21", {"repo": "org/a", "path": "a.py"},
                    sparse.vector("alpha beta"), (1.0, 0.0, 0.0, 0.0))


def free_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def aliases(client: QdrantClient) -> dict[str, str]:
    return {a.alias_name: a.collection_name for a in client.get_aliases().aliases}


def test_local_directory_persists_and_is_locked_to_one_client(tmp_path: Path) -> None:
    with ServerStore(4, "m@1", TV, path=tmp_path / "q") as store:
        store.upsert([POINT])
        collection = store.collection
        with warnings.catch_warnings():
            # qdrant-client leaves the lock file of its failed open unclosed
            warnings.simplefilter("ignore", ResourceWarning)
            with pytest.raises(StoreUnavailable, match="cannot open.*already accessed"):
                ServerStore(4, "m@1", TV, path=tmp_path / "q")  # like Edge's locked WAL
            gc.collect()
    with ServerStore(4, "m@1", TV, path=tmp_path / "q") as store:
        assert store.count() == 1
        assert aliases(store._client) == {DEFAULT_ALIAS: collection}
        assert [h.id for h in store.dense_search((1.0, 0.0, 0.0, 0.0), StoreFilter(), 1)] == [POINT.id]


def test_collection_config_quantization_on_disk_and_identity_metadata() -> None:
    client = QdrantClient(location=":memory:")
    store = ServerStore(4, "m@1", TV, client=client, quantization="int8", on_disk=True, alias="cr")
    params = client.get_collection(store.collection).config
    dense = params.params.vectors["dense"]
    assert (dense.size, dense.distance, dense.memory) == (4, qm.Distance.COSINE, qm.Memory.COLD)
    assert dense.quantization_config.scalar.type == qm.ScalarType.INT8
    assert dense.quantization_config.scalar.memory == qm.Memory.PINNED
    sparse_params = params.params.sparse_vectors["sparse"]
    assert (sparse_params.modifier, sparse_params.index.memory) == (qm.Modifier.IDF, qm.Memory.COLD)
    assert StoreIdentity.from_json(params.metadata[IDENTITY_KEY]) == StoreIdentity("m@1", 4, TV)
    assert aliases(client) == {"cr": store.collection}
    plain = ServerStore(8, "m@1", TV, client=client, staging=True)
    dense = client.get_collection(plain.collection).config.params.vectors["dense"]
    assert (dense.size, dense.memory, dense.quantization_config) == (8, None, None)
    store.close()
    assert client.get_collection(store.collection)  # a passed-in client stays open
    client.close()


def test_alias_moves_in_one_update_and_a_staging_store_leaves_it_alone() -> None:
    client = QdrantClient(location=":memory:")
    old = ServerStore(4, "m@1", TV, client=client)
    new = ServerStore(4, "m@2", TV, client=client, staging=True)
    assert aliases(client) == {DEFAULT_ALIAS: old.collection}
    new.upsert([POINT])
    new.activate()
    assert aliases(client) == {DEFAULT_ALIAS: new.collection}
    new.activate()  # idempotent
    assert aliases(client) == {DEFAULT_ALIAS: new.collection}
    assert old.count() == 0 and new.count() == 1  # each store keeps its own collection
    with pytest.raises(StoreMismatch, match=r"alias 'coderecall-current' names collection"):
        ServerStore(4, "m@1", TV, client=client)
    client.close()


def test_identity_metadata_is_checked_and_written_when_missing() -> None:
    client = QdrantClient(location=":memory:")
    identity = StoreIdentity("m@1", 4, TV)
    vectors = {"dense": qm.VectorParams(size=4, distance=qm.Distance.COSINE)}
    client.create_collection(identity.collection_name, vectors_config=vectors,
                             sparse_vectors_config={"sparse": qm.SparseVectorParams(modifier=qm.Modifier.IDF)})
    store = ServerStore(4, "m@1", TV, client=client, staging=True)  # made by hand: adopted
    metadata = client.get_collection(store.collection).config.metadata
    assert StoreIdentity.from_json(metadata[IDENTITY_KEY]) == identity
    other = StoreIdentity("m@2", 4, TV).to_json()
    client.update_collection(store.collection, metadata={IDENTITY_KEY: other})
    with pytest.raises(StoreMismatch, match="built for model='m@2'"):
        ServerStore(4, "m@1", TV, client=client, staging=True)
    client.update_collection(store.collection, metadata={IDENTITY_KEY: "{not json"})
    with pytest.raises(StoreError, match=f"unreadable {IDENTITY_KEY}"):
        ServerStore(4, "m@1", TV, client=client, staging=True)
    client.close()


@pytest.mark.parametrize("prefer_grpc", [False, True])
def test_unreachable_server_is_unavailable_and_names_no_secret(prefer_grpc: bool) -> None:
    url = f"https://user:hunter2@127.0.0.1:{free_port()}"
    with pytest.raises(StoreUnavailable) as info:
        ServerStore(4, "m@1", TV, url=url, api_key="s3cret-key", prefer_grpc=prefer_grpc, timeout_s=5)
    message = str(info.value)
    assert message.startswith("store https://127.0.0.1:")
    assert "read alias" in message
    assert "hunter2" not in message and "s3cret-key" not in message


def test_private_ca_file_is_loaded_and_a_missing_one_refused(tmp_path: Path) -> None:
    pem = tmp_path / "ca.pem"
    pem.write_bytes(_self_signed_ca_pem())
    url = f"https://127.0.0.1:{free_port()}"
    with pytest.raises(StoreUnavailable, match="read alias"):  # got as far as connecting
        ServerStore(4, "m@1", TV, url=url, ca_file=str(pem))
    with pytest.raises(StoreUnavailable, match="cannot open.*missing.pem"):
        ServerStore(4, "m@1", TV, url=url, ca_file=str(tmp_path / "missing.pem"))


def test_bad_arguments() -> None:
    with pytest.raises(InvalidArgument, match="exactly one"):
        ServerStore(4, "m@1", TV)
    with pytest.raises(InvalidArgument, match="exactly one"):
        ServerStore(4, "m@1", TV, location=":memory:", url="http://localhost:6333")
    with pytest.raises(InvalidArgument, match="quantization"):
        ServerStore(4, "m@1", TV, location=":memory:", quantization="int4")
    with ServerStore(4, "m@1", TV, location=":memory:") as store:
        with pytest.raises(StoreError, match="2 dimensions"):
            store.hybrid((1.0, 0.0), SparseVector((), ()), StoreFilter(), 3)


def test_daemon_opens_the_server_backend_from_config(tmp_path: Path) -> None:
    cfg = StoreConfig(backend="server", url=f"http://127.0.0.1:{free_port()}", timeout_s=5)
    with pytest.raises(StoreUnavailable, match="read alias"):
        open_store(tmp_path / "store", 4, "m@1", TV, cfg)
    assert not (tmp_path / "store").exists()  # nothing written for a server that is down


@pytest.mark.parametrize(("exc", "unavailable"), [
    (ResponseHandlingException(httpx.ConnectError("refused")), True),
    (ResponseHandlingException(httpx.ReadTimeout("slow")), True),
    (ResponseHandlingException(ValueError("bad json")), False),
    (UnexpectedResponse(503, "Service Unavailable", b"overloaded", httpx.Headers()), True),
    (UnexpectedResponse(429, "Too Many Requests", b"", httpx.Headers()), True),
    (UnexpectedResponse(400, "Bad Request", b"wrong vector name", httpx.Headers()), False),
    (UnexpectedResponse(401, "Unauthorized", b"", httpx.Headers()), False),
    (ConnectionResetError("reset"), True),
    (ValueError("Collection x not found"), False),
])  # fmt: skip
def test_error_mapping(exc: Exception, unavailable: bool) -> None:
    err = store_error("store u/c: count", exc)
    assert type(err) is (StoreUnavailable if unavailable else StoreError)
    assert str(err).startswith("store u/c: count: ")


def test_http_error_message_names_status_and_body() -> None:
    err = store_error("ctx", UnexpectedResponse(400, "Bad Request", b"wrong vector name", httpx.Headers()))
    assert str(err) == "ctx: HTTP 400 Bad Request: wrong vector name"


def test_payload_index_schemas_match_the_edge_store() -> None:
    schemas = _index_schemas()
    assert set(schemas) == KEYWORD_FIELDS | TEXT_FIELDS
    assert schemas["repo"].is_tenant is True
    assert {f for f, s in schemas.items() if getattr(s, "prefix", None)} == PREFIX_FIELDS
    text = schemas["name_tokens"]
    assert (text.tokenizer, text.lowercase) == (qm.TokenizerType.WHITESPACE, True)
    assert schemas["calls"] == qm.PayloadSchemaType.KEYWORD


def _self_signed_ca_pem() -> bytes:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "test CA")])
    start = datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
            .public_key(key.public_key()).serial_number(1)
            .not_valid_before(start).not_valid_after(start + datetime.timedelta(days=3650))
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(key, hashes.SHA256()))
    return cert.public_bytes(serialization.Encoding.PEM)


def test_a_tie_orders_by_id_whatever_order_the_points_were_written_in() -> None:
    # as the embedded store: a tie is ordered by id, not by where the engine keeps it
    def answers(order: str) -> tuple[list[str], list[str]]:
        store = ServerStore(4, "m@1", TV, client=QdrantClient(location=":memory:"))
        for n in order:
            pid = str(uuid.uuid5(uuid.NAMESPACE_URL, n))
            store.upsert([PointRecord(pid, {"repo": "org/a", "path": f"{n}.py"},
                                      sparse.vector("alpha beta"), (1.0, 0.0, 0.0, 0.0))])
        got = (store.sparse_search(sparse.query_vector("alpha beta"), StoreFilter(), 10),
               store.dense_search((1.0, 0.0, 0.0, 0.0), StoreFilter(), 10))
        store.close()
        assert all(len(hits) == 5 and len({h.score for h in hits}) == 1 for hits in got)
        return tuple([h.id for h in hits] for hits in got)

    forward = answers("abcde")
    assert answers("edcba") == forward
    assert all(ids == sorted(ids) for ids in forward)
