"""Secret redaction, sensitive paths, request limits and remote credentials."""

from __future__ import annotations

from pathlib import Path

import pygit2
import pytest
from coderecalld import credentials
from coderecalld.config import RepoConfig, Secret
from coderecalld.errors import InvalidArgument, MirrorError
from coderecalld.files import classify, redact
from coderecalld.query import validate
from coderecalld.records import Chunk, SymbolKind

# Fake credentials in provider formats (split so no scanner flags this file).
CANARIES = {
    "AWS Access Key": "AKIA" + "Q3EGRT5YJ2CANAR1",
    "GitHub Token": "ghp_" + "Zq8Lm2Xv9Rt4Wb7Nc1Kd5Hf3Jg6Ps0Ya8Ue2",
    "Slack Token": "xoxb-" + "102938475610-5647382910564-QzWxEcRvTbYnUmIkOlPaSdFg",
    "Stripe Access Key": "sk_live_" + "51HcAnArYx9Q2w3E4r5T6y7U",
}


@pytest.mark.parametrize("kind, secret", CANARIES.items())
def test_provider_tokens_are_replaced_whole(kind: str, secret: str) -> None:
    source = f'def f():\n    key = "{secret}"  # {secret}\n    return key\n'
    out, counts = redact.text(source, "a.py")
    assert secret not in out and secret[:12] not in out
    assert out.count("[REDACTED:") == 2 and out.splitlines()[0] == "def f():"
    assert out.count("\n") == source.count("\n")
    assert counts.total() == 2


def test_private_key_block_keyword_url_and_unquoted_entropy() -> None:
    body = "MIIEpAIBAAKCAQEAz9CaNaRy0x7Qw1Er2Ty3Ui4Op5As6Df7Gh8Jk9Lz0Xc1Vb2Nm"
    source = (f"-----BEGIN OPENSSH PRIVATE KEY-----\n{body}\n{body[::-1]}\n"
              "-----END OPENSSH PRIVATE KEY-----\n"
              "password = 'hunter2-Xk9'\ntoken: CANARY-0007\n"
              "url = 'postgres://app:Sup3rS3cret@db/app'\n"
              "blob 9fQk2Lx8Rv3Wm7Zp1Tn5Yb4Hc6Jd0Gs\n")
    out, counts = redact.text(source)
    for secret in (body, body[::-1], "hunter2-Xk9", "CANARY-0007", "Sup3rS3cret", "9fQk2Lx8Rv3Wm7Zp1Tn5Yb4Hc6Jd0Gs"):
        assert secret not in out, secret
    assert out.splitlines()[1:3] == ["[REDACTED:Private Key]"] * 2
    assert counts["Private Key"] >= 2 and counts[redact.HIGH_ENTROPY] == 1
    assert "postgres://app:[REDACTED:" in out


def test_ordinary_code_is_left_alone() -> None:
    source = ('import os\n\ndef compute_refund_for_invoice(invoice_total, percent_value):\n'
              '    token = os.environ["API_TOKEN"]\n    self.token = token_v2\n'
              '    commit = "3f786850e387550fdab836ed7e6dc881de23001b"\n'
              '    path = "./Modules/_blake2/impl/blake2b-load-sse41.h"\n'
              '    return round(invoice_total * percent_value / 100, 2)\n')
    out, counts = redact.text(source, "a.py")
    assert counts.get(redact.HIGH_ENTROPY, 0) == 0
    assert out.replace("[REDACTED:Hex High Entropy String]",
                       "3f786850e387550fdab836ed7e6dc881de23001b") == source


def test_chunk_fields_are_redacted_including_a_cut_embed_text() -> None:
    secret = CANARIES["GitHub Token"]
    text = f'def f():\n    """Uses {secret}."""\n    return "{secret}"\n'
    item = Chunk(repo="r", path="a.py", language="python", kind=SymbolKind.FUNCTION, name="f",
                 qualified_name="f", parent="", signature=f"def f(t='{secret}')",
                 docstring=f"Uses {secret}.", start_line=1, end_line=3, start_byte=0,
                 end_byte=len(text), text=text, embed_text=("a.py\nfunction f\n" + text)[:40])
    [clean], counts = redact.chunks([item])
    for field in (clean.text, clean.embed_text, clean.docstring, clean.signature):
        assert secret not in field and secret[:8] not in field
    assert counts.total() == 2  # once per line of text; the type is the first detector's
    assert (clean.start_byte, clean.end_byte) == (item.start_byte, item.end_byte)


@pytest.mark.parametrize("path, expected", [
    (".env", True), (".env.production", True), ("app/.env.local", True), (".envrc", True),
    ("deploy/server.pem", True), ("keys/id_ed25519", True), ("home/.ssh/config", True),
    ("config/credentials.json", True), ("tls/site.KEY", True), ("secrets/.env.example", True),
    ("a/secrets/b/c.py", True), ("cert.p12", True), ("infra/terraform.tfstate", True),
    (".env.example", False), ("src/env.ts", False), ("src/keys.py", False),
    ("docs/secrets.md", False), ("environment.py", False),
])
def test_sensitive_paths(path: str, expected: bool) -> None:
    assert classify.sensitive(path) is expected
    verdict = classify.classify(path, b"x = 1\n", "python", 1000)
    assert (verdict.reason == "sensitive") is expected


def test_env_template_is_indexed_as_text() -> None:
    assert classify.classify(".env.example", b"API_KEY=replace-me\n", None, 1000).kind == "text"


@pytest.mark.parametrize("path", [
    "../etc/passwd", "/etc/passwd", "a/../../b", "a//b", "./a", "a/.", "a\0b", "",
    "x" * (validate.MAX_PATH_CHARS + 1),
])
def test_hostile_paths_are_invalid(path: str) -> None:
    with pytest.raises(InvalidArgument):
        validate.repo_path("path", path)


def test_field_limits() -> None:
    assert validate.repo_path("path", "%2e%2e/%2e%2e/etc/passwd")  # literal name, resolved by git
    assert validate.repo_path("path", "a\\..\\b")  # a backslash is part of a name in git
    validate.text("query", "q" * validate.MAX_QUERY_CHARS, validate.MAX_QUERY_CHARS)
    with pytest.raises(InvalidArgument, match="longer than 10000"):
        validate.text("query", "q" * (validate.MAX_QUERY_CHARS + 1), validate.MAX_QUERY_CHARS)
    with pytest.raises(InvalidArgument, match="NUL"):
        validate.text("query", "a\0", 10)
    for start, end in ((0, 0), (-1, 5), (5, 4), (1, validate.MAX_LINE + 1), (validate.MAX_LINE + 1, 0)):
        with pytest.raises(InvalidArgument):
            validate.line_range(start, end)
    validate.line_range(3, 0)


def test_urls_lose_their_userinfo() -> None:
    assert credentials.redact_url("https://u:p4ss@git.example/x.git") == "https://git.example/x.git"
    assert credentials.redact_url("fetch 'ssh://git:tok@h:22/r' failed; see https://h/x") == (
        "fetch 'ssh://h:22/r' failed; see https://h/x")
    assert credentials.redact_url("/srv/git/repo") == "/srv/git/repo"


def test_callbacks_come_from_config(tmp_path: Path) -> None:
    types = pygit2.enums.CredentialType
    assert credentials.callbacks(RepoConfig("r", "https://h/r.git")) is None
    inline = credentials.callbacks(RepoConfig("r", "https://h/r.git", token=Secret("tok-1")))
    cred = inline.credentials("https://h/r.git", None, types.USERPASS_PLAINTEXT)
    assert isinstance(cred, pygit2.UserPass)
    assert cred.credential_tuple == (credentials.DEFAULT_HTTPS_USERNAME, "tok-1")
    token_file = tmp_path / "token"
    token_file.write_text("tok-from-file\n")
    from_file = credentials.callbacks(RepoConfig("r", "https://h/r.git", username="bot",
                                                 token_file=str(token_file)))
    assert from_file.credentials("u", None, types.USERPASS_PLAINTEXT).credential_tuple == (
        "bot", "tok-from-file")
    ssh = credentials.callbacks(RepoConfig("r", "git@h:r.git", ssh_key_file="/keys/id"))
    pair = ssh.credentials("git@h:r.git", "git", types.SSH_KEY)
    assert isinstance(pair, pygit2.Keypair)
    assert pair.credential_tuple == ("git", "/keys/id.pub", "/keys/id", "")
    assert ssh.credentials("u", None, types.USERPASS_PLAINTEXT) is None
    missing = credentials.callbacks(RepoConfig("r", "https://h/r.git", token_file=str(tmp_path / "no")))
    with pytest.raises(MirrorError, match="cannot read token_file"):
        missing.credentials("u", None, types.USERPASS_PLAINTEXT)


def test_split_lines_breaks_at_newline_only() -> None:
    # A lone CR, a form feed or U+2028 is not a line break in the index's convention;
    # splitting there would shift every ReadSymbol range after it.
    from coderecalld.files.redact import split_lines

    assert split_lines("a\rb\nc\x0cd\u2028e\n\nf") == ["a\rb\n", "c\x0cd\u2028e\n", "\n", "f"]
    assert split_lines("") == [] and split_lines("x\n") == ["x\n"]


def test_identifiers_built_of_words_are_not_secrets() -> None:
    from coderecalld.files.redact import line_findings

    for line in ("class SOCKS5UsernamePasswordRequest(Base):",
                 "x = parse_utf8_header_v2(stream)",
                 "result = HTTP2ConnectionPoolManager3()",
                 # starlette's status.py: four of these were served redacted (a newcomer)
                 "HTTP_407_PROXY_AUTHENTICATION_REQUIRED = 407",
                 "HTTP_503_SERVICE_UNAVAILABLE = 503",
                 '__all__ = ("HTTP_431_REQUEST_HEADER_FIELDS_TOO_LARGE",)'):
        assert line_findings(line) == (), line
    # A key of capitals and digits in groups stays a key, joined by `_` or `-`
    for line in ('TOKEN = "K7XQ_M2PZ_QWERTY_9F3D_ABCDE"', "key = AB3D_EFGHIJK_9876_ZXCVBN1_LMNOPQ"):
        assert line_findings(line) != (), line
    # Random keys still are, even unquoted next to an identifier-looking prefix.
    assert line_findings("key aB3dE9fGh2JkLmN0pQrSt7uV") != ()


def test_type_checks_and_versioned_type_names_are_not_secrets() -> None:
    """hono's cookie signing and AWS adapter read as secrets: a keyword compared with a
    type name, and a type name with a version suffix."""
    from coderecalld.files.redact import line_findings

    source = ("  if (typeof secret === 'string') {\n"
              "export class EventV2Processor extends EventProcessor<APIGatewayProxyEventV2> {\n"
              "  getPath(event: ApiGatewayRequestContextV2): string {\n"
              "class Base64EncoderV2ForHTTP2Frames:\n")
    out, counts = redact.text(source, "src/handler.ts")
    assert out == source and not counts
    # A keyword assigned (or compared with) anything else still is one; random keys still are.
    assert line_findings("  if (secret === 'hunter2-Xk9') {", "a.ts") == (("Secret Keyword", "hunter2-Xk9"),)
    assert line_findings("key aB3dE9fGh2JkLmN0pQrSt7uVxV2") != ()


def test_placeholders_and_identifiers_spelled_with_a_value_stay() -> None:
    """hono: ``'username' in options`` redacted the identifier before it
    (``usernamePasswordInOptions``), and ``secret: 'secret'`` lost its key too."""
    source = ("  const usernamePasswordInOptions = 'username' in options && 'password' in options\n"
              "      app.use('/jwt/*', jwt({ alg: 'HS256', secret: 'secret' }))\n")
    out, counts = redact.text(source, "src/basic-auth.ts")
    assert out == source and not counts
    # a credential is replaced where it stands alone, not inside a longer name
    out, counts = redact.text("password = 'hunter2-Xk9'  # hunter2-Xk9, not hunter2-Xk9abc\n", "a.py")
    assert out == ("password = '[REDACTED:Secret Keyword]'  # [REDACTED:Secret Keyword], "
                   "not hunter2-Xk9abc\n") and counts["Secret Keyword"] == 2


def test_a_value_spelled_in_the_name_it_is_given_to_stays() -> None:
    """Django 5.1's ``SetPasswordMixin.create_password_fields``: form field names given to
    ``*_field_name`` parameters were served by ``read`` as ``[REDACTED:Secret Keyword]``
    (a newcomer editing the function got altered source)."""
    source = ("    def create_password_fields(\n"
              "        password1_field_name=\"password1\",\n"
              "        password2_field_name=\"password2\",\n"
              "        usable_password_field_name=\"usable-password\",\n"
              "    ):\n")
    out, counts = redact.text(source, "django/contrib/auth/forms.py")
    assert out == source and not counts
    # a value the name does not spell is still a credential, even one spelled as a word
    out, counts = redact.text('password = "password1"\nPASSWORD_FIELD = "hunter2-Xk9"\n', "a.py")
    assert out == ('password = "[REDACTED:Secret Keyword]"\n'
                   'PASSWORD_FIELD = "[REDACTED:Secret Keyword]"\n') and counts["Secret Keyword"] == 2
    # a review: a capitalised value resembling its name, and a value repeated after it
    for line in ('password1 = "Password1"\n', 'admin_password = "Admin_Password"\n',
                 'password = "hunter2secret"  # hunter2secret\n'):
        out, counts = redact.text(line, "a.py")
        assert "[REDACTED:Secret Keyword]" in out and "unter2secret" not in out and counts["Secret Keyword"] >= 1


def test_a_value_found_on_another_line_is_no_part_of_a_name_in_other_fields() -> None:
    """packaging: a test's URL ``https://user:pass@g.c`` (Basic Auth Credentials, value
    ``pass``) redacted ``pass`` inside the parameter ``safe_user_passwords`` of the
    chunk's signature and embedded text; the URL's own ``pass`` goes in every field."""
    text = ('def test_strip_url(url: str, safe_user_passwords: list[str]) -> None:\n'
            '    assert strip("https://user:pass@g.c/x") == "https://g.c/x"\n')
    signature = "def test_strip_url(url: str, safe_user_passwords: list[str]) -> None"
    item = Chunk(repo="r", path="tests/test_url.py", language="python", kind=SymbolKind.FUNCTION,
                 name="test_strip_url", qualified_name="test_strip_url", parent="", signature=signature,
                 docstring="", start_line=1, end_line=2, start_byte=0, end_byte=len(text), text=text,
                 embed_text=signature + "\n" + text)
    [clean], counts = redact.chunks([item])
    marker = "[REDACTED:Basic Auth Credentials]"
    assert counts == {"Basic Auth Credentials": 1}
    assert clean.signature == signature
    assert clean.text == text.replace("user:pass@", f"user:{marker}@")
    assert clean.embed_text == signature + "\n" + clean.text
