"""Batch extraction of WARC files into one JSONL file: a process pool, progress, resume.

Work is split into tasks of (file, shard): with fewer files than workers, each file is read by
several workers, each taking its own byte range of a gzipped file (cut at gzip-member starts;
every N-th record for other files, see `iter_pages`). This spreads one big archive over all
cores without an index pass and without moving page bytes between processes. A worker writes
its records to a part file; when every shard of a file is done the parent appends the parts to
the output, then notes the file and the output's new length in the finished-files list
(``OUT.done``). After an interruption the next run truncates the output to the last noted
length and skips the noted files, so each record is written exactly once (news-please keeps a
similar list for CC-NEWS).
"""

from __future__ import annotations

import json
import multiprocessing
import os
import shutil
import signal
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, TextIO

from newsspider.warc.records import WarcArticleItem, WarcPage, extract_page, iter_pages

__all__ = [
    "BatchSummary",
    "input_problem",
    "iter_records",
    "output_problem",
    "record_row",
    "run_batch",
]

#: Progress is published every this many records (a shared counter costs a lock per update).
_PROGRESS_STEP = 25


@dataclass(slots=True)
class TaskResult:
    """What one (file, shard) task did; its records are in its part file."""

    file_index: int
    shard: int
    pages: int = 0
    articles: int = 0
    skipped: dict[str, int] = field(default_factory=dict)
    #: The first per-record error (the others are only counted).
    first_error: str | None = None
    #: Why the file could not be read to its end (records before the break are kept).
    file_error: str | None = None


@dataclass(slots=True)
class BatchSummary:
    files: int = 0
    #: Files skipped because an earlier run finished them.
    already_done: int = 0
    #: Files read in this run (to their end or to where they broke off).
    read: int = 0
    pages: int = 0
    articles: int = 0
    skipped: Counter[str] = field(default_factory=Counter)
    #: One line per file that could not be read to its end.
    file_errors: list[str] = field(default_factory=list)
    first_record_error: str | None = None
    interrupted: bool = False
    #: Why the batch stopped early, when it did for a reason other than Ctrl-C.
    aborted: str | None = None

    @property
    def record_errors(self) -> int:
        return self.skipped["error"]


# --- the worker side ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Task:
    """One shard of one file, extracted into the part file ``part``."""

    path: str
    file_index: int
    shard: int
    shards: int
    part: str
    min_confidence: float
    algorithm: str
    #: Fill each record's ``markdown`` (``newsspider warc --markdown``).
    markdown: bool = False


class _Sink:
    """Where a task reports pages read: a shared counter in a worker, a callback in-process."""

    target: Any = None

    def publish(self, count: int) -> None:
        target = self.target
        if target is None or not count:
            return
        if callable(target):
            target(count)
            return
        with target.get_lock():
            target.value += count


_sink = _Sink()


def _init_worker(counter: Any) -> None:
    _sink.target = counter
    # Ctrl-C goes to the whole process group: the parent decides, and stops the workers.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def run_task(task: Task) -> TaskResult:
    """Extract one shard of one file into its part file."""
    result = TaskResult(task.file_index, task.shard)
    skipped: Counter[str] = Counter()
    unpublished = 0

    def page_read() -> None:
        nonlocal unpublished
        result.pages += 1
        unpublished += 1
        if unpublished >= _PROGRESS_STEP:
            _sink.publish(unpublished)
            unpublished = 0

    def record_error(page: WarcPage, exc: Exception) -> None:
        if result.first_error is None:
            result.first_error = f"{page.url} ({page.file}@{page.offset}): {exc!r}"

    with open(task.part, "w", encoding="utf-8") as out:
        try:
            items = iter_records(
                task.path,
                shard=task.shard,
                shards=task.shards,
                min_confidence=task.min_confidence,
                algorithm=task.algorithm,
                markdown=task.markdown,
                skipped=skipped,
                on_page=page_read,
                on_error=record_error,
            )
            for item in items:
                out.write(json.dumps(record_row(item), ensure_ascii=False) + "\n")
                result.articles += 1
        except OSError as exc:
            result.file_error = f"{task.path}: {exc}"
    _sink.publish(unpublished)
    result.skipped = dict(skipped)
    return result


def iter_records(
    path: str,
    *,
    shard: int = 0,
    shards: int = 1,
    min_confidence: float = 0.0,
    algorithm: str = "default",
    markdown: bool = False,
    skipped: Counter[str],
    on_page: Callable[[], None] | None = None,
    on_error: Callable[[WarcPage, Exception], None] | None = None,
) -> Iterator[WarcArticleItem]:
    """The records of one shard of one file, as ``newsspider warc`` writes them (the Spark job
    runs this too). Skips are counted in ``skipped`` (`SKIP_REASONS`); a per-record error is
    counted and passed to ``on_error``, never raised. A file that breaks off raises `OSError`
    after the records before the break."""
    for page in iter_pages(path, shard=shard, shards=shards, skipped=skipped):
        if on_page is not None:
            on_page()
        try:
            item = extract_page(page, algorithm=algorithm, markdown=markdown)
        except Exception as exc:  # counted, never fatal
            skipped["error"] += 1
            if on_error is not None:
                on_error(page, exc)
            continue
        if item.confidence < min_confidence:
            skipped["low_confidence"] += 1
            continue
        yield item


#: Field names in declaration order: the JSONL field order.
_FIELDS = tuple(f.name for f in fields(WarcArticleItem))


def record_row(item: WarcArticleItem) -> dict[str, Any]:
    """The JSONL record of an item: its fields in declaration order."""
    # Shallow: `dataclasses.asdict` deep-copies every list only for json.dumps to read it.
    return {name: getattr(item, name) for name in _FIELDS}


# --- the parent side ------------------------------------------------------------------------


class _Progress:
    """One line on stderr: files finished, records read, rate, errors."""

    def __init__(self, files: int, stream: TextIO, enabled: bool) -> None:
        self.files, self.stream, self.enabled = files, stream, enabled
        self.files_done = self.pages = self.errors = 0
        self._started = time.monotonic()
        self._drawn = 0.0

    def draw(self, *, final: bool = False) -> None:
        now = time.monotonic()
        if not self.enabled or (not final and now - self._drawn < 0.2):
            return
        self._drawn = now
        rate = self.pages / max(now - self._started, 1e-6)
        self.stream.write(
            f"\rwarc: {self.files_done}/{self.files} files  {self.pages} pages"
            f"  {rate:.0f} pages/s  {self.errors} errors "
        )
        if final:
            self.stream.write("\n")
        self.stream.flush()


class _State:
    """The output file and its finished-files list."""

    def __init__(self, out: Path, restart: bool) -> None:
        self.out = out
        self.done_path = out.with_name(out.name + ".done")
        self.parts = out.with_name(out.name + ".parts")
        self.done: set[str] = set()
        end = 0
        if not restart and self.done_path.exists() and out.exists():
            for line in self.done_path.read_text(encoding="utf-8").splitlines():
                try:
                    entry = json.loads(line)
                    self.done.add(entry["file"])
                    end = int(entry["end"])
                except (ValueError, KeyError, TypeError):
                    break  # a line cut by the interruption: what follows it is not trusted
        else:
            self.done_path.write_text("", encoding="utf-8")
        with open(out, "ab") as stream:
            stream.truncate(end)  # drops what an interrupted run appended after its last note
        shutil.rmtree(self.parts, ignore_errors=True)
        self.parts.mkdir(parents=True)

    def part(self, file_index: int, shard: int) -> Path:
        return self.parts / f"{file_index}-{shard}.jsonl"

    def finish(self, key: str, parts: Sequence[Path], note: dict[str, Any]) -> None:
        with open(self.out, "ab") as stream:
            for part in parts:
                with open(part, "rb") as source:
                    shutil.copyfileobj(source, stream)
            stream.flush()
            os.fsync(stream.fileno())
            end = stream.tell()
        with open(self.done_path, "a", encoding="utf-8") as done:
            done.write(json.dumps({"file": key, "end": end, **note}, ensure_ascii=False) + "\n")
            done.flush()
            os.fsync(done.fileno())
        for part in parts:
            part.unlink(missing_ok=True)

    def close(self) -> None:
        shutil.rmtree(self.parts, ignore_errors=True)


def input_problem(path: str | Path) -> str | None:
    """Why the WARC file ``path`` cannot be read, as "what is wrong; what to do", or None."""
    path = Path(path)
    if path.is_dir():
        return "is a folder; give the WARC files in it (for example folder/*.warc.gz)"
    if not path.exists():
        return "no such file; check the path"
    if not os.access(path, os.R_OK):
        return "cannot be read (permission denied)"
    return None


def output_problem(out: str | Path) -> str | None:
    """Why the JSONL output ``out`` cannot be written, as "what is wrong; what to do", or None.
    Checked before any work starts (and before anything is created)."""
    out = Path(out)
    if out.is_dir():
        return "is a folder; give a file name, for example " + str(out / "articles.jsonl")
    folder = out.parent
    if not folder.is_dir():
        what = "is not a folder" if folder.exists() else "does not exist"
        return f"its folder {folder} {what}; create it or give another path"
    if not os.access(folder, os.W_OK | os.X_OK) or (out.exists() and not os.access(out, os.W_OK)):
        return "cannot be written (permission denied); give another path"
    return None


def run_batch(
    files: Sequence[str | Path],
    out: str | Path,
    *,
    jobs: int = 1,
    min_confidence: float = 0.0,
    algorithm: str = "default",
    progress: bool = False,
    restart: bool = False,
    stream: TextIO = sys.stderr,
    markdown: bool = False,
) -> BatchSummary:
    """Extract every HTML 2xx response of ``files`` into the JSONL file ``out``.

    Resumes by default: files listed in ``OUT.done`` by an earlier run are skipped (``restart``
    starts over). ``jobs`` worker processes (1: in this process).
    """
    summary = BatchSummary()
    unreadable = {}
    for given in map(str, files):
        problem = input_problem(given)
        if problem is not None:
            unreadable[str(Path(given).resolve())] = f"{given}: {problem}"
    if len(unreadable) == len({str(Path(f).resolve()) for f in files}):
        # Nothing to read: no output, no finished-files list (an earlier run's stay as they were).
        summary.files = len(unreadable)
        summary.file_errors.extend(unreadable.values())
        return summary
    state = _State(Path(out), restart)
    pending: list[tuple[str, str]] = []  # (as given, key in the finished-files list)
    seen: set[str] = set()
    for given in map(str, files):
        key = str(Path(given).resolve())
        if key in seen:
            continue
        seen.add(key)
        summary.files += 1
        if key in state.done:
            summary.already_done += 1
        elif key in unreadable:
            summary.file_errors.append(unreadable[key])
        else:
            pending.append((given, key))
    shards = max(1, -(-jobs // len(pending))) if pending else 1
    bar = _Progress(len(pending), stream, progress)
    tasks = [
        Task(
            given,
            index,
            shard,
            shards,
            str(state.part(index, shard)),
            min_confidence,
            algorithm,
            markdown,
        )
        for index, (given, _) in enumerate(pending)
        for shard in range(shards)
    ]
    results: dict[int, list[TaskResult]] = {}

    def finished(result: TaskResult) -> None:
        results.setdefault(result.file_index, []).append(result)
        bar.errors += result.skipped.get("error", 0)
        if len(results[result.file_index]) < shards:
            return
        parts = sorted(results.pop(result.file_index), key=lambda r: r.shard)
        given, key = pending[result.file_index]
        note = _merge(summary, parts)
        note["given"] = given
        summary.read += 1
        state.finish(key, [state.part(r.file_index, r.shard) for r in parts], note)
        bar.files_done += 1
        bar.draw()

    try:
        if jobs <= 1:
            _run_here(tasks, bar, finished)
        else:
            _run_pool(tasks, jobs, bar, finished)
    except KeyboardInterrupt:
        summary.interrupted = True
    except BrokenProcessPool as exc:
        # A worker died (killed, out of memory): the files it held are not noted as done, so
        # the next run does them again.
        summary.aborted = f"a worker process died ({exc}); run again to resume"
    bar.draw(final=True)
    state.close()
    return summary


def _merge(summary: BatchSummary, parts: Sequence[TaskResult]) -> dict[str, Any]:
    note: dict[str, Any] = {"pages": 0, "articles": 0, "skipped": {}, "error": None}
    skipped: Counter[str] = Counter()
    for part in parts:
        note["pages"] += part.pages
        note["articles"] += part.articles
        skipped.update(part.skipped)
        if part.file_error and not note["error"]:
            note["error"] = part.file_error
            summary.file_errors.append(part.file_error)
        if part.first_error and summary.first_record_error is None:
            summary.first_record_error = part.first_error
    note["skipped"] = dict(skipped)
    summary.pages += note["pages"]
    summary.articles += note["articles"]
    summary.skipped.update(skipped)
    return note


def _run_here(
    tasks: Sequence[Task], bar: _Progress, finished: Callable[[TaskResult], None]
) -> None:
    def count(n: int) -> None:
        bar.pages += n
        bar.draw()

    _sink.target = count
    try:
        for task in tasks:
            finished(run_task(task))
    finally:
        _sink.target = None


def _run_pool(
    tasks: Sequence[Task],
    jobs: int,
    bar: _Progress,
    finished: Callable[[TaskResult], None],
) -> None:
    # "spawn": workers start clean whatever the parent holds (threads, open files).
    context = multiprocessing.get_context("spawn")
    counter = context.Value("q", 0)
    executor = ProcessPoolExecutor(
        jobs, mp_context=context, initializer=_init_worker, initargs=(counter,)
    )
    futures: set[Future[TaskResult]] = {executor.submit(run_task, task) for task in tasks}
    try:
        while futures:
            done, futures = wait(futures, timeout=0.2, return_when=FIRST_COMPLETED)
            bar.pages = counter.value
            for future in done:
                finished(future.result())
            bar.draw()
    finally:
        if futures:
            # Running tasks would finish their whole shard first; on an interruption stop now.
            # (ProcessPoolExecutor has no public way to stop its workers before Python 3.14.)
            for process in list(getattr(executor, "_processes", {}).values()):
                process.terminate()
        executor.shutdown(wait=True, cancel_futures=True)
