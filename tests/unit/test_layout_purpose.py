"""A repo's one-line purpose: cut at a word boundary with an ellipsis, never mid-word."""

from __future__ import annotations

from coderecalld.index.layout import PURPOSE_MAX_CHARS, clip, readme_purpose


def test_short_text_is_kept_on_one_line() -> None:
    assert clip("  Payment webhooks\n and   refunds. ") == "Payment webhooks and refunds."


def test_long_text_is_cut_at_the_last_whole_word() -> None:
    text = "Requests is an elegant and simple HTTP library for Python, built for human beings."
    assert clip(text, 40) == "Requests is an elegant and simple HTTP…"
    assert clip(text, 41) == "Requests is an elegant and simple HTTP…"  # "library" would not fit
    assert clip("alpha beta, gamma", 13) == "alpha beta…"  # no dangling comma
    assert clip("x" * 300) == "x" * (PURPOSE_MAX_CHARS - 1) + "…"  # one huge word: cut inside it


def test_readme_purpose_is_clipped() -> None:
    readme = "# flask\n\n" + "Flask is a lightweight WSGI web application framework. " * 6
    purpose = readme_purpose(readme)
    assert len(purpose) <= PURPOSE_MAX_CHARS and purpose.endswith("…")
    assert purpose[:-1] == readme[9:9 + len(purpose) - 1].rstrip()
    assert readme[9 + len(purpose) - 1] == " "  # the cut fell between two words
