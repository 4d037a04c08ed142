"""The Spark job (`newsspider.spark`) in ``local[2]`` against ``newsspider warc -j 2`` on the
same WARC files: records per second, and what Spark adds per record and per job.

    python -m bench.speed.spark_speed [--corpus scrapinghub_aeb] [--files 2] [--records 1500]
                                      [--repeat 3]

The archives (``--files`` gzipped WARCs of ``--records`` corpus pages each, warcio's writer)
are written at bench time into a temporary folder. Timed, interleaved, medians of ``--repeat``:

    warc -j 2      `run_batch(files, jobs=2)`, what ``newsspider warc -j 2`` runs: a process pool,
                   JSONL out (wall time includes starting the workers)
    spark local[2] `extract_warcs(spark, files)` written as JSON Lines (Spark's JSON writer,
                   one partition per file); the SparkSession (JVM) is started before timing
    spark, 1 rec.  the same job over a one-record archive: Spark's fixed cost per job
    warc, 1 rec.   `run_batch` over the one-record archive: the pool's fixed cost (starting two
                   worker processes)

Both write every HTML record (min confidence 0).
Per-record overhead = ((spark - spark 1 rec.) - (warc - warc 1 rec.)) / records: what Spark
adds per record once each side's fixed cost is set aside. Goal: spark >= 0.8x warc -j 2 (whole
wall times). The session is kept small (512 MB driver heap). Needs pyspark and Java 17+.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench.corpus import Page, corpora_root, load_corpus
from bench.speed.warc_speed import write_archive

GOAL = 0.8


def _timed(run: Callable[[], int]) -> tuple[float, int]:
    start = time.perf_counter()
    records = run()
    return time.perf_counter() - start, records


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.speed.spark_speed", description=__doc__)
    parser.add_argument("--corpus", default="scrapinghub_aeb")
    parser.add_argument("--corpora", default=None, help="corpora folder")
    parser.add_argument("--files", type=int, default=2)
    parser.add_argument("--records", type=int, default=1500, help="records per file")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)

    from newsspider.spark import extract_warcs, spark_session
    from newsspider.warc import run_batch

    pages: list[Page] = []
    for name in args.corpus.split(","):
        pages += load_corpus(name, corpora_root(args.corpora))
    started = time.perf_counter()
    spark = spark_session("local[2]")
    jvm_start = time.perf_counter() - started
    times: dict[str, list[float]] = {}
    counts: dict[str, int] = {}
    try:
        with tempfile.TemporaryDirectory(prefix="newsspider-spark-bench-") as tmp:
            folder = Path(tmp)
            files = []
            for n in range(args.files):  # each file starts at another page
                archive = folder / f"bench-{n}.warc.gz"
                files.append(str(write_archive(archive, pages[n:] + pages[:n], args.records)))
            tiny = [str(write_archive(folder / "one.warc.gz", pages, 1))]

            def warc_job(paths: list[str]) -> Callable[[], int]:
                def run() -> int:
                    out = folder / "warc.jsonl"
                    summary = run_batch(paths, out, jobs=2, min_confidence=0.0, restart=True)
                    return summary.articles

                return run

            def spark_job(paths: list[str]) -> Callable[[], int]:
                def run() -> int:
                    out = folder / f"spark-{time.monotonic_ns()}"
                    frame = extract_warcs(spark, paths, min_confidence=0.0)
                    frame.write.option("ignoreNullFields", "false").json(str(out))
                    return sum(
                        1 for part in out.glob("part-*") for _ in part.open(encoding="utf-8")
                    )

                return run

            spark_job(tiny)()  # warm-up: the Python workers, the first job's planning
            modes: dict[str, Callable[[], int]] = {
                "warc -j 2": warc_job(files),
                "spark local[2]": spark_job(files),
                "spark, 1 rec.": spark_job(tiny),
                "warc, 1 rec.": warc_job(tiny),
            }
            for _ in range(args.repeat):  # interleaved: the machine's load hits every mode alike
                for mode, run in modes.items():
                    seconds, records = _timed(run)
                    times.setdefault(mode, []).append(seconds)
                    counts[mode] = records
    finally:
        spark.stop()
    _report(args, times, counts, jvm_start)
    return 0


def _report(
    args: Any, times: dict[str, list[float]], counts: dict[str, int], jvm_start: float
) -> None:
    records = args.files * args.records
    med = {mode: statistics.median(values) for mode, values in times.items()}
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(
        f"\n{datetime.now(UTC):%Y-%m-%d %H:%M} UTC; {args.files} files x {args.records} records "
        f"({args.corpus}), {args.repeat} round(s), medians; load average at the end: {load}; "
        f"SparkSession start {jvm_start:.1f} s (not timed below)"
    )
    print("| mode | wall s | records/s | x warc -j 2 | wall s of the rounds | articles out |")
    print("|---|---:|---:|---:|---|---:|")
    base = records / med["warc -j 2"]
    for mode in ("warc -j 2", "spark local[2]"):
        rate = records / med[mode]
        rounds = ", ".join(f"{t:.1f}" for t in times[mode])
        print(f"| {mode} | {med[mode]:.2f} | {rate:.0f} | {rate / base:.2f} | {rounds} |"
              f" {counts[mode]} |")  # fmt: skip
    for mode in ("spark, 1 rec.", "warc, 1 rec."):
        rounds = ", ".join(f"{t:.2f}" for t in times[mode])
        print(f"| {mode} | {med[mode]:.2f} | | | {rounds} | {counts[mode]} |")
    spark_variable = med["spark local[2]"] - med["spark, 1 rec."]
    warc_variable = med["warc -j 2"] - med["warc, 1 rec."]
    overhead = (spark_variable - warc_variable) / records
    ratio = (records / med["spark local[2]"]) / base
    print(f"\nFixed cost per job: Spark {med['spark, 1 rec.']:.2f} s, warc -j 2 "
          f"{med['warc, 1 rec.']:.2f} s; Spark per record beyond warc -j 2: "
          f"{overhead * 1000:.2f} ms; goal spark >= {GOAL}x warc -j 2: "
          f"{'met' if ratio >= GOAL else 'MISSED'} ({ratio:.2f}x)")  # fmt: skip
    if counts["spark local[2]"] != counts["warc -j 2"]:
        print(f"RECORD COUNTS DIFFER: {counts}")


if __name__ == "__main__":
    raise SystemExit(main())
