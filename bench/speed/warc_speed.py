"""WARC batch extraction: throughput per worker against `newsspider.extract` alone, scaling from
1 to N workers, and memory over a long archive.

    python -m bench.speed.warc_speed [--corpus scrapinghub_aeb] [--records 3000] [--jobs 1,2]
    python -m bench.speed.warc_speed --memory-records 20000  # memory, 20 000-record archive

The archives are written at bench time into a temporary folder (warcio's writer), one response
record per corpus page, cycling through the pages until ``--records``; nothing is kept.

    extract   `newsspider.extract(html, url)` over the same pages in this process: the ceiling
    jobs=N    `newsspider.warc.run_batch` (what ``newsspider warc`` runs) with N workers, wall
              time including reading the archive, writing JSONL and (N > 1) starting workers

Targets: jobs=1 >= 90% of extract; jobs=2 >= 1.7x jobs=1 (on a 2-core machine that nothing else
uses). Memory: the resident size of the batch processes (parent and workers) sampled every
second; flat means the last samples are no higher than those after the first tenth of the run
(plus a little noise).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path

from bench.corpus import Page, corpora_root, load_corpus
from newsspider.extraction import extract

TARGET_PER_WORKER = 0.90
TARGET_SCALING = 1.7


def write_archive(path: Path, pages: Sequence[Page], records: int) -> Path:
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    with open(path, "wb") as stream:
        writer = WARCWriter(stream, gzip=True)
        for n in range(records):
            page = pages[n % len(pages)]
            url = f"{page.url or 'http://bench.example/' + page.id}#copy{n}"
            http = StatusAndHeaders(
                "200 OK",
                [("Content-Type", "text/html"), ("Content-Length", str(len(page.html)))],
                protocol="HTTP/1.1",
            )
            writer.write_record(
                writer.create_warc_record(
                    url, "response", payload=BytesIO(page.html), http_headers=http
                )
            )
    return path


def _cpu() -> float:
    """CPU seconds of this process and of its finished children (the batch's workers)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


@dataclass
class Rate:
    #: Pages per wall-clock second.
    wall: float
    #: Pages per CPU second (all processes): what one worker does on a core of its own.
    cpu: float


def extract_alone(pages: Sequence[Page], records: int) -> Rate:
    """`newsspider.extract` over the archive's pages, in order."""
    extract(pages[0].html, pages[0].url)  # warm-up: imports, caches
    started, cpu = time.perf_counter(), _cpu()
    for n in range(records):
        page = pages[n % len(pages)]
        extract(page.html, page.url)
    return Rate(records / (time.perf_counter() - started), records / (_cpu() - cpu))


def batch(archive: Path, out: Path, jobs: int) -> Rate:
    """`run_batch` over one archive (wall time includes starting the workers)."""
    from newsspider.warc import run_batch

    started, cpu = time.perf_counter(), _cpu()
    summary = run_batch([archive], out, jobs=jobs, restart=True)
    elapsed = time.perf_counter() - started
    return Rate(summary.pages / elapsed, summary.pages / (_cpu() - cpu))


# --- memory ---------------------------------------------------------------------------------


def _rss_kib(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def _children(pid: int) -> Iterator[int]:
    kids: list[int] = []
    # Children hang off the thread that started them: read every thread's list.
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            kids += [int(k) for k in (task / "children").read_text(encoding="ascii").split()]
        except OSError:
            continue
    for kid in kids:
        yield kid
        yield from _children(kid)


@dataclass
class Sample:
    seconds: float
    parent_kib: int
    worker_kib: list[int]


def memory_run(archive: Path, out: Path, jobs: int) -> tuple[list[Sample], float]:
    """Run the batch in a thread of this process and sample its processes' RSS every second."""
    samples: list[Sample] = []
    done = threading.Event()
    result: list[float] = []

    def run() -> None:
        try:
            result.append(batch(archive, out, jobs).wall)
        finally:
            done.set()

    pid = os.getpid()
    started = time.perf_counter()
    threading.Thread(target=run, daemon=True).start()
    while not done.wait(1.0):
        workers = [_rss_kib(kid) for kid in _children(pid)]
        samples.append(
            Sample(time.perf_counter() - started, _rss_kib(pid), [w for w in workers if w])
        )
    return samples, result[0] if result else 0.0


def _mib(kib: float) -> str:
    return f"{kib / 1024:.0f}"


def report_memory(samples: list[Sample], records: int, rate: float) -> None:
    if len(samples) < 10:
        print(f"memory: only {len(samples)} samples; use more records")
        return
    tenth = len(samples) // 10
    early, late = samples[tenth : 2 * tenth], samples[-tenth:]

    def worker_max(group: list[Sample]) -> float:
        return max((max(s.worker_kib, default=0) for s in group), default=0)

    def parent_max(group: list[Sample]) -> float:
        return max(s.parent_kib for s in group)

    print(f"\nmemory over a {records}-record archive ({rate:.0f} pages/s, {len(samples)} samples)")
    print("| process | RSS MiB 10-20% of the run | RSS MiB last 10% | growth |")
    print("|---|---:|---:|---:|")
    for name, fn in (("parent", parent_max), ("worker (largest)", worker_max)):
        a, b = fn(early), fn(late)
        growth = (b - a) / a if a else 0.0
        print(f"| {name} | {_mib(a)} | {_mib(b)} | {growth:+.1%} |")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.speed.warc_speed", description=__doc__)
    parser.add_argument("--corpus", default="scrapinghub_aeb")
    parser.add_argument("--corpora", default=None, help="corpora folder")
    parser.add_argument("--records", type=int, default=3000)
    parser.add_argument("--jobs", default="1,2", help="worker counts to time (comma-separated)")
    parser.add_argument("--repeat", type=int, default=1, help="rounds (medians are reported)")
    parser.add_argument("--memory-records", type=int, default=0,
                        help="also run the memory test over an archive this long")  # fmt: skip
    parser.add_argument("--memory-jobs", type=int, default=2)
    args = parser.parse_args(argv)

    pages: list[Page] = []
    for name in args.corpus.split(","):
        pages += load_corpus(name, corpora_root(args.corpora))
    jobs = [int(j) for j in args.jobs.split(",")]
    with tempfile.TemporaryDirectory(prefix="newsspider-warc-bench-") as tmp:
        folder = Path(tmp)
        if args.records:
            archive = write_archive(folder / "speed.warc.gz", pages, args.records)
            rates: dict[str, list[Rate]] = {"extract": []}
            for _ in range(args.repeat):  # interleaved: load changes hit every mode alike
                rates["extract"].append(extract_alone(pages, args.records))
                for n in jobs:
                    rates.setdefault(f"jobs={n}", []).append(
                        batch(archive, folder / "out.jsonl", n)
                    )
            med = {
                key: Rate(
                    statistics.median(r.wall for r in values),
                    statistics.median(r.cpu for r in values),
                )
                for key, values in rates.items()
            }
            load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
            print(f"\n{args.records} records from {len(pages)} pages of {args.corpus}, "
                  f"{args.repeat} round(s), medians; load average at the end: {load}")  # fmt: skip
            print("| mode | pages/s (wall) | x extract | x jobs=1 | pages per CPU-s | x extract |")
            print("|---|---:|---:|---:|---:|---:|")
            ext = med["extract"]
            for key, rate in med.items():
                base = med.get("jobs=1")
                scaling = f"{rate.wall / base.wall:.2f}" if base and key != "extract" else ""
                print(f"| {key} | {rate.wall:.1f} | {rate.wall / ext.wall:.2f} | {scaling} |"
                      f" {rate.cpu:.1f} | {rate.cpu / ext.cpu:.2f} |")  # fmt: skip
            if "jobs=1" in med:
                ratio = med["jobs=1"].wall / ext.wall
                verdict = "met" if ratio >= TARGET_PER_WORKER else "MISSED"
                print(f"per worker: {ratio:.2f} x extract (target {TARGET_PER_WORKER}): {verdict}")
            if "jobs=2" in med:
                ratio = med["jobs=2"].cpu / ext.cpu
                print(f"jobs=2 per worker, CPU time: {ratio:.2f} x extract")
            if "jobs=1" in med and "jobs=2" in med:
                scale = med["jobs=2"].wall / med["jobs=1"].wall
                verdict = "met" if scale >= TARGET_SCALING else "MISSED"
                print(f"1 -> 2 workers: {scale:.2f}x (target {TARGET_SCALING}): {verdict}")
        if args.memory_records:
            archive = write_archive(folder / "memory.warc.gz", pages, args.memory_records)
            samples, wall = memory_run(archive, folder / "memory.jsonl", args.memory_jobs)
            report_memory(samples, args.memory_records, wall)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
