"""``coderecall status --watch``: progress bars on a terminal (rich), plain lines otherwise."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import asdict

from coderecall._types import IndexProgress


def progress_row(p: IndexProgress) -> tuple[str, ...]:
    """One repository's progress as table cells (``coderecall status``). The file and
    chunk counts are the current (or last) run's changed files and written chunks, labelled
    so (``coderecall repos`` shows the repository's totals); a run that found nothing
    changed says so ("run: 0/0 changed files" read as "nothing indexed" to a newcomer)."""
    if p.phase == "embedding":
        work = f"embedded {p.vectors_done}/{p.vectors_done + p.pending_vectors}"
    elif p.files_total == 0 and p.state == "ready":
        work = "run: nothing changed"
    else:
        work = f"run: {p.files_done}/{p.files_total} changed files"
    return (p.repo, p.state, p.phase, p.commit[:12] or "-", work,
            f"{p.chunks_done} chunks written", f"{p.pending_vectors} pending vectors",
            eta_text(p.eta_s), " ".join(p.error.split()))


def eta_text(eta_s: float) -> str:
    """``"ETA 1m05s"`` for the seconds left in a phase; ``""`` without an estimate (0)."""
    if eta_s <= 0:
        return ""
    seconds = round(eta_s)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"ETA {hours}h{minutes:02d}m"
    return f"ETA {minutes}m{secs:02d}s" if minutes else f"ETA {secs}s"


def watch(stream: Iterator[IndexProgress], repos: Iterable[str], *, follow: bool = False,
          as_json: bool = False, tty: bool = False) -> None:
    """Show ``stream`` until every repo in ``repos`` has reported a settled state (ready,
    idle, or error, with no vector pending), or forever with ``follow``. ``as_json``: one
    JSON object per message; ``tty``: one rich progress bar per repository."""
    waiting = set(repos)
    show = _bars() if tty and not as_json else None
    try:
        for item in stream:
            if show is not None:
                show(item)
            elif as_json:
                print(json.dumps(asdict(item), ensure_ascii=False), flush=True)
            else:
                print("  ".join(progress_row(item)).rstrip(), flush=True)
            if item.settled:
                waiting.discard(item.repo)
            else:
                waiting.add(item.repo)
            if not waiting and not follow:
                return
    finally:
        close = getattr(stream, "close", None)
        if close is not None:
            close()
        if show is not None:
            show(None)


def _bars():  # type: ignore[no-untyped-def]
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    bars = Progress(TextColumn("{task.fields[repo]:<24}"), TextColumn("{task.fields[phase]:<9}"),
                    BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[unit]:<7}"),
                    TextColumn("{task.fields[chunks]} chunks written"),
                    TextColumn("{task.fields[pending]} pending vectors"),
                    TextColumn("{task.fields[eta]}"), TextColumn("{task.fields[error]}"),
                    transient=False)
    tasks: dict[str, int] = {}
    bars.start()

    def show(item: IndexProgress | None) -> None:
        if item is None:
            bars.stop()
            return
        embedding = item.phase == "embedding"
        fields = {"repo": item.repo, "phase": item.phase, "chunks": item.chunks_done,
                  "pending": item.pending_vectors, "error": item.error[:60],
                  "unit": "vectors" if embedding else "files", "eta": eta_text(item.eta_s)}
        # One bar per repository: changed files while indexing, dense vectors while embedding.
        total = (item.vectors_done + item.pending_vectors if embedding else item.files_total) or None
        done = item.vectors_done if embedding else item.files_done
        if item.repo not in tasks:
            tasks[item.repo] = bars.add_task(item.repo, total=total, completed=done, **fields)
        else:
            bars.update(tasks[item.repo], total=total, completed=done, **fields)

    return show
