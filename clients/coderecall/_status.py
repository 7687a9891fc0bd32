"""``coderecall status --watch``: progress bars on a terminal (rich), plain lines otherwise."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import asdict

from coderecall._types import IndexProgress


def progress_row(p: IndexProgress) -> tuple[str, ...]:
    """One repository's progress as table cells (``coderecall status``)."""
    return (p.repo, p.state, p.phase, p.commit[:12] or "-", f"files {p.files_done}/{p.files_total}",
            f"{p.chunks_done} chunks", f"{p.pending_vectors} pending", " ".join(p.error.split()))


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
                    BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[chunks]} chunks"),
                    TextColumn("{task.fields[pending]} pending"), TextColumn("{task.fields[error]}"),
                    transient=False)
    tasks: dict[str, int] = {}
    bars.start()

    def show(item: IndexProgress | None) -> None:
        if item is None:
            bars.stop()
            return
        fields = {"repo": item.repo, "phase": item.phase, "chunks": item.chunks_done,
                  "pending": item.pending_vectors, "error": item.error[:60]}
        total = item.files_total or None
        if item.repo not in tasks:
            tasks[item.repo] = bars.add_task(item.repo, total=total, completed=item.files_done, **fields)
        else:
            bars.update(tasks[item.repo], total=total, completed=item.files_done, **fields)

    return show

