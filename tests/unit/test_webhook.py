"""Webhook verification and repo matching (pure functions; the live endpoint is tested in
tests/integration/test_webhook_endpoint.py)."""

from __future__ import annotations

import hashlib
import hmac

import pytest
from coderecalld.config import RepoConfig
from coderecalld.ops.webhook import github_signature_ok, gitlab_token_ok, matches, normalize, url_path

BODY = b'{"ref": "refs/heads/main"}'


def sign(secret: str, body: bytes) -> str:
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def test_github_signature_over_the_raw_body():
    assert github_signature_ok("s3cret", BODY, sign("s3cret", BODY))
    # GitHub's documented example: secret "It's a Secret to Everybody", body "Hello, World!"
    assert github_signature_ok("It's a Secret to Everybody", b"Hello, World!",
                               "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17")
    assert not github_signature_ok("s3cret", BODY + b" ", sign("s3cret", BODY))
    assert not github_signature_ok("s3cret", BODY, sign("other", BODY))
    assert not github_signature_ok("s3cret", BODY, sign("s3cret", BODY).replace("sha256=", "sha1="))
    assert not github_signature_ok("s3cret", BODY, None)
    assert not github_signature_ok("", BODY, sign("", BODY))  # no secret configured: never ok


def test_gitlab_token_equals_the_secret():
    assert gitlab_token_ok("tok", "tok")
    assert not gitlab_token_ok("tok", "tok ")
    assert not gitlab_token_ok("tok", None)
    assert not gitlab_token_ok("", "")


@pytest.mark.parametrize("url", [
    "https://github.com/acme/shop", "https://GitHub.com/Acme/Shop.git", "https://github.com/acme/shop/",
    "https://x-access-token:t@github.com:443/acme/shop.git", "git@github.com:acme/shop.git",
    "ssh://git@github.com/acme/shop", "ssh://git@github.com:22/acme/shop.git/", "git://github.com/acme/shop.git",
])
def test_normalize_forms_of_one_repo(url: str):
    assert normalize(url) == "github.com/acme/shop"


def test_normalize_keeps_distinct_repos_apart():
    assert normalize("https://github.com/acme/shop-api") != normalize("https://github.com/acme/shop")
    assert normalize("https://gitlab.com/acme/shop") != normalize("https://github.com/acme/shop")
    assert normalize("/srv/git/Shop.git") == "/srv/git/shop"
    assert url_path("https://gitlab.example.com/group/sub/proj.git") == "group/sub/proj"
    assert url_path("/srv/git/shop") == ""


REPOS = (
    RepoConfig("shop", "https://github.com/Acme/shop.git", "main"),
    RepoConfig("acme/tools", "/srv/mirrors/tools", ""),
    RepoConfig("shop-release", "git@github.com:acme/shop.git", "release"),
    RepoConfig("lab", "https://gitlab.example.com/group/sub/proj.git", "main"),
)


def github(ref: str, **repository: str) -> dict:
    return {"ref": ref, "repository": repository}


def test_github_push_matches_by_url_and_branch():
    payload = github("refs/heads/main", clone_url="https://github.com/acme/shop.git",
                     ssh_url="git@github.com:acme/shop.git", full_name="acme/shop")
    assert matches(REPOS, "github", payload) == ["shop"]
    assert matches(REPOS, "github", {**payload, "ref": "refs/heads/release"}) == ["shop-release"]
    assert matches(REPOS, "github", {**payload, "ref": "refs/heads/feature"}) == []
    assert matches(REPOS, "github", {**payload, "ref": "refs/tags/main"}) == []


def test_github_full_name_matches_a_repo_name_or_url_path():
    assert matches(REPOS, "github", github("refs/heads/main", full_name="ACME/Shop")) == ["shop"]
    # no branch configured: the payload's default branch, else any branch
    tools = github("refs/heads/dev", full_name="acme/tools", default_branch="trunk")
    assert matches(REPOS, "github", tools) == []
    assert matches(REPOS, "github", {**tools, "ref": "refs/heads/trunk"}) == ["acme/tools"]
    assert matches(REPOS, "github", github("refs/heads/dev", full_name="acme/tools")) == ["acme/tools"]
    assert matches(REPOS, "github", github("refs/heads/main", full_name="other/shop")) == []


def test_gitlab_push_matches_project_urls_and_path():
    payload = {"ref": "refs/heads/main", "project": {
        "git_http_url": "https://gitlab.example.com/group/sub/proj.git",
        "git_ssh_url": "git@gitlab.example.com:group/sub/proj.git",
        "path_with_namespace": "group/sub/proj"}}
    assert matches(REPOS, "gitlab", payload) == ["lab"]
    only_path = {"ref": "refs/heads/main", "project": {"path_with_namespace": "Group/Sub/Proj"}}
    assert matches(REPOS, "gitlab", only_path) == ["lab"]
    assert matches(REPOS, "gitlab", {"ref": "refs/heads/main", "project": "junk"}) == []
    assert matches(REPOS, "github", payload) == []  # a GitLab body on the GitHub path
