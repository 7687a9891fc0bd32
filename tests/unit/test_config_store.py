"""The ``[store]`` config section: defaults, file values, env overrides, validation."""

from pathlib import Path

import pytest

from coderecalld import config
from coderecalld.errors import ConfigError


def load(tmp_path: Path, text: str = "", env: dict[str, str] | None = None) -> config.Config:
    path = tmp_path / "coderecall.toml"
    path.write_text(f'data_dir = "{tmp_path}/data"\n{text}')
    return config.load(path, env=env or {})


def test_default_is_the_embedded_store(tmp_path: Path) -> None:
    store = load(tmp_path).store
    assert store == config.StoreConfig()
    assert (store.backend, store.url, store.alias, store.quantization, store.on_disk) == (
        "edge", "", "coderecall-current", "", False)


def test_file_values_and_env_overrides(tmp_path: Path) -> None:
    cfg = load(tmp_path, '''
[store]
backend = "server"
url = "https://qdrant.internal:6333"
api_key = "from-file"
ca_file = "/etc/ssl/private-ca.pem"
quantization = "int8"
''', env={"CODERECALL_STORE__API_KEY": "from-env", "CODERECALL_STORE__PREFER_GRPC": "true",
          "CODERECALL_STORE__ON_DISK": "yes", "CODERECALL_STORE__ALIAS": "cr-prod",
          "CODERECALL_STORE__TIMEOUT_S": "2.5"})
    assert cfg.store == config.StoreConfig(
        backend="server", url="https://qdrant.internal:6333", api_key=config.Secret("from-env"),
        ca_file="/etc/ssl/private-ca.pem", prefer_grpc=True, timeout_s=2.5, alias="cr-prod",
        quantization="int8", on_disk=True)
    assert isinstance(cfg.store.api_key, config.Secret)
    assert "from-env" not in repr(cfg)  # configs get logged


def test_env_alone_selects_the_server(tmp_path: Path) -> None:
    cfg = load(tmp_path, env={"CODERECALL_STORE__BACKEND": "server",
                              "CODERECALL_STORE__URL": "http://qdrant:6333"})
    assert (cfg.store.backend, cfg.store.url) == ("server", "http://qdrant:6333")


@pytest.mark.parametrize(("text", "message"), [
    ('backend = "cluster"', "store.backend: expected 'edge' or 'server', got 'cluster'"),
    ('backend = "server"', "store.url: expected http(s)://HOST[:PORT] for backend 'server', got ''"),
    ('backend = "server"\nurl = "qdrant:6333"', "store.url: expected http(s)://HOST[:PORT]"),
    ('backend = "server"\nurl = "ftp://u:pw@qdrant"', "got 'ftp://qdrant'"),  # no password shown
    ('backend = "server"\nurl = "http://qdrant:6333"\nca_file = "/ca.pem"',
     "store.ca_file: needs an https:// store.url"),
    ('quantization = "int4"', "store.quantization: expected '' or 'int8', got 'int4'"),
    ('alias = "has space"', "store.alias: 'has space' must match"),
    ('alias = ""', "store.alias: '' must match"),
    ("timeout_s = 0", "store.timeout_s: must be > 0, got 0.0"),
    ('prefer_grpc = "maybe"', "store.prefer_grpc: expected bool, got 'maybe'"),
    ('collection = "x"', "store.collection: unknown configuration key"),
])  # fmt: skip
def test_bad_values_name_the_key(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(ConfigError) as info:
        load(tmp_path, f"[store]\n{text}\n")
    assert message in str(info.value)
