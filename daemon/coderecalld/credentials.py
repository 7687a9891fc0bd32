"""Credentials for private remotes, handed to libgit2 through ``pygit2.RemoteCallbacks``.

They come from the repo's config (``token`` / ``token_file`` for HTTPS, ``ssh_key_file``
for SSH), never from the URL, and never appear in logs, errors or ``ListRepos``: every URL
shown anywhere goes through ``redact_url`` first, which also strips a ``user:pass@`` that
someone put in a configured URL anyway.
"""

from __future__ import annotations

import re
from pathlib import Path

import pygit2

from coderecalld.config import RepoConfig
from coderecalld.errors import MirrorError

#: GitHub's username for token auth over HTTPS (app installation and personal tokens).
DEFAULT_HTTPS_USERNAME = "x-access-token"
_USERINFO = re.compile(r"(?<=://)[^/\s@]+@")


def redact_url(text: str) -> str:
    """``text`` with the userinfo (``user:password@``) of every ``scheme://`` URL removed."""
    return _USERINFO.sub("", text)


class RepoCredentials(pygit2.RemoteCallbacks):
    """Answers libgit2's credential requests for one repo from its config.

    Offers SSH keys when the server asks for them and a token when it asks for a
    username/password; otherwise lets libgit2 fail the fetch (no credential guessing).
    """

    def __init__(self, repo: RepoConfig) -> None:
        super().__init__()
        self._repo = repo

    def credentials(self, url: str, username_from_url: str | None, allowed_types: int):
        types = pygit2.enums.CredentialType
        repo = self._repo
        if allowed_types & types.SSH_KEY and repo.ssh_key_file:
            public = repo.ssh_public_key_file or f"{repo.ssh_key_file}.pub"
            return pygit2.Keypair(username_from_url or repo.username or "git", public,
                                  repo.ssh_key_file, "")
        if allowed_types & types.USERPASS_PLAINTEXT and has_token(repo):
            return pygit2.UserPass(repo.username or DEFAULT_HTTPS_USERNAME, token(repo))
        return None


def has_token(repo: RepoConfig) -> bool:
    """True if ``repo`` configures an HTTPS token (inline or as a file)."""
    return bool(repo.token or repo.token_file)


def token(repo: RepoConfig) -> str:
    """The HTTPS token: ``token``, else the stripped contents of ``token_file``.

    Raises:
        MirrorError: the token file cannot be read (the message names the file only).
    """
    if repo.token:
        return str(repo.token)
    try:
        return Path(repo.token_file).read_text("utf-8").strip()
    except OSError as exc:
        raise MirrorError(f"{repo.name}: cannot read token_file {repo.token_file}: "
                          f"{exc.strerror}") from None


def callbacks(repo: RepoConfig) -> RepoCredentials | None:
    """Remote callbacks carrying ``repo``'s credentials, or ``None`` when it has none."""
    if not (has_token(repo) or repo.ssh_key_file):
        return None
    return RepoCredentials(repo)
