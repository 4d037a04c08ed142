"""Article records from WARC files on Apache Spark: the ``newsspider warc`` extraction, run in
Spark's executors (the cc-pyspark pattern: WARC paths in, records out, one task per file).

    from newsspider.spark import extract_warcs
    articles = extract_warcs(spark, ["s3a://bucket/CC-NEWS-20261101.warc.gz", ...])
    articles.write.parquet("articles.parquet")

Each task reads its file (or one byte range of it) with FastWARC and extracts it with the same
code as ``newsspider warc`` (`newsspider.warc.batch.iter_records`): the same records, fields,
values and skips. The paths must be readable by the executors as local files (a shared or
mounted file system); ``file:`` URLs are accepted. The result has the declared schema
`ARTICLE_SCHEMA`, whose columns are the fields of `WarcArticleItem` in the same order.

On the command line (also as a ``spark-submit`` script, see examples/spark_warc.py):

    python -m newsspider.spark --out articles/ CC-NEWS-*.warc.gz

writes ``articles/parquet/`` and ``articles/jsonl/`` (JSON Lines part files). Needs
``pip install 'newsspider[spark]'`` (pyspark, FastWARC) and Java 17 or newer.
"""

from __future__ import annotations

import argparse
import os
import sys
import types
import typing
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import fields
from typing import TYPE_CHECKING, Any, Final

from pyspark.accumulators import AccumulatorParam
from pyspark.sql.types import (
    ArrayType,
    BooleanType,
    DataType,
    DoubleType,
    LongType,
    MapType,
    StringType,
    StructField,
    StructType,
)

from newsspider.settings_defaults import DEFAULTS, MIN_CONFIDENCE
from newsspider.warc.batch import iter_records, record_row
from newsspider.warc.records import WarcArticleItem

if TYPE_CHECKING:
    from pyspark import Accumulator
    from pyspark.sql import DataFrame, SparkSession

__all__ = ["ARTICLE_SCHEMA", "SkipCounts", "extract_warcs", "main", "spark_session"]

_SCALARS: Final[dict[Any, DataType]] = {
    str: StringType(),
    float: DoubleType(),
    int: LongType(),
    bool: BooleanType(),
}


def _spark_type(annotation: Any) -> tuple[DataType, bool]:
    """The Spark type of a field annotation, and whether it is nullable."""
    args = typing.get_args(annotation)
    if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is typing.Union:
        inner = [arg for arg in args if arg is not type(None)]
        if len(inner) != 1:
            raise TypeError(f"no Spark type for {annotation!r}")
        return _spark_type(inner[0])[0], True
    if typing.get_origin(annotation) is list:
        return ArrayType(_spark_type(args[0])[0], containsNull=False), False
    if typing.get_origin(annotation) is dict:
        # `images`, `author_profiles`: string maps. `crawl` (dict[str, Any]) is empty in WARC
        # records (no crawl fetched them): a string map, which an empty dict fits.
        value, value_nullable = (StringType(), True) if args[1] is Any else _spark_type(args[1])
        return MapType(_spark_type(args[0])[0], value, valueContainsNull=value_nullable), False
    if annotation in _SCALARS:
        return _SCALARS[annotation], False
    raise TypeError(f"no Spark type for {annotation!r}")


def _schema() -> StructType:
    hints = typing.get_type_hints(WarcArticleItem)
    columns = []
    for field in fields(WarcArticleItem):
        kind, nullable = _spark_type(hints[field.name])
        columns.append(StructField(field.name, kind, nullable))
    return StructType(columns)


#: The record's columns: `WarcArticleItem`'s fields, in order, with their types.
ARTICLE_SCHEMA: Final = _schema()
_NAMES: Final = tuple(ARTICLE_SCHEMA.fieldNames())


class SkipCounts(AccumulatorParam[dict[str, int]]):  # type: ignore[misc,unused-ignore]
    """A Spark accumulator of skip counts by reason (`newsspider.warc.SKIP_REASONS`, plus
    ``file_error`` for a file that could not be read to its end). As any accumulator updated
    in a transformation, a task that Spark runs again counts again."""

    def zero(self, value: dict[str, int]) -> dict[str, int]:
        return {}

    def addInPlace(self, value1: dict[str, int], value2: dict[str, int]) -> dict[str, int]:
        for reason, count in value2.items():
            value1[reason] = value1.get(reason, 0) + count
        return value1


def _local_path(path: str) -> str:
    return path[len("file://") :] if path.startswith("file://") else path


def _extract_partition(
    tasks: Iterable[tuple[str, int, int]],
    min_confidence: float,
    algorithm: str,
    skips: Accumulator[dict[str, int]] | None,
) -> Iterator[tuple[Any, ...]]:
    for path, shard, shards in tasks:
        skipped: Counter[str] = Counter()
        try:
            items = iter_records(
                _local_path(path),
                shard=shard,
                shards=shards,
                min_confidence=min_confidence,
                algorithm=algorithm,
                skipped=skipped,
            )
            for item in items:
                row = record_row(item)
                yield tuple(row[name] for name in _NAMES)
        except OSError:
            # As `newsspider warc`: the records before the break are kept, the file counted.
            skipped["file_error"] += 1
        if skips is not None and skipped:
            skips.add(dict(skipped))


def extract_warcs(
    source: SparkSession | DataFrame,
    paths: Sequence[str] | None = None,
    *,
    path_column: str = "path",
    shards_per_file: int = 1,
    min_confidence: float = DEFAULTS[MIN_CONFIDENCE],
    algorithm: str = "default",
    skips: Accumulator[dict[str, int]] | None = None,
) -> DataFrame:
    """A DataFrame of article records (`ARTICLE_SCHEMA`) from WARC files.

    ``source`` is a SparkSession with ``paths``, or a DataFrame of paths in ``path_column``
    (e.g. ``spark.read.text("warc.paths").withColumnRenamed("value", "path")``). Each file
    (or each of its ``shards_per_file`` byte ranges, `newsspider.warc.iter_pages`) is one
    partition. ``min_confidence``: as ``newsspider warc`` (the crawl's default, 0.3).
    ``skips``: an accumulator made with `SkipCounts` to count skipped responses.
    Nothing runs until an action (``write``, ``count``...).
    """
    if paths is None:
        if not hasattr(source, "sparkSession"):
            raise TypeError("give the WARC paths, or a DataFrame of them as the source")
        frame = typing.cast("DataFrame", source)
        spark = frame.sparkSession
        paths = [str(row[0]) for row in frame.select(path_column).collect()]
    else:
        spark = typing.cast("SparkSession", source)
    shards = max(1, shards_per_file)
    tasks = [(str(path), shard, shards) for path in paths for shard in range(shards)]
    rdd = spark.sparkContext.parallelize(tasks, max(1, len(tasks)))
    rows = rdd.mapPartitions(
        lambda part: _extract_partition(part, min_confidence, algorithm, skips),
        preservesPartitioning=True,
    )
    return spark.createDataFrame(rows, ARTICLE_SCHEMA)


def spark_session(master: str | None = None, *, memory: str = "512m") -> SparkSession:
    """A SparkSession for a local run (``master`` ``local[2]``...), small on memory (512 MB is
    near the least Spark starts with); under
    ``spark-submit`` (``master`` None) the submitted configuration is used as it is."""
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.appName("newsspider-warc")
    if master is not None:
        # The Python workers run this interpreter (with newsspider installed); PySpark reads
        # the variable, not spark.pyspark.python, when it starts in-process.
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
        builder = (
            builder.master(master)
            .config("spark.driver.memory", memory)
            .config("spark.ui.enabled", "false")
            .config("spark.ui.showConsoleProgress", "false")
            .config("spark.sql.shuffle.partitions", "4")
        )
    return builder.getOrCreate()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m newsspider.spark",
        description="Extract article records from WARC files on Spark into Parquet and JSONL.",
    )
    parser.add_argument("warcs", nargs="+", help="WARC files (.warc, .warc.gz)")
    parser.add_argument("--out", required=True, help="folder: writes parquet/ and jsonl/")
    parser.add_argument("--master", default=None, help="e.g. local[2]; default: spark-submit's")
    parser.add_argument("--shards-per-file", type=int, default=1)
    parser.add_argument("--min-confidence", type=float, default=DEFAULTS[MIN_CONFIDENCE])
    parser.add_argument("--algorithm", default="default")
    args = parser.parse_args(argv)
    spark = spark_session(args.master)
    try:
        skips = spark.sparkContext.accumulator({}, SkipCounts())
        articles = extract_warcs(
            spark,
            args.warcs,
            shards_per_file=args.shards_per_file,
            min_confidence=args.min_confidence,
            algorithm=args.algorithm,
            skips=skips,
        ).cache()
        articles.write.mode("overwrite").parquet(f"{args.out}/parquet")
        # Null fields kept, as `newsspider warc` writes them.
        articles.write.mode("overwrite").option("ignoreNullFields", "false").json(
            f"{args.out}/jsonl"
        )
        count = articles.count()
        print(f"{count} articles to {args.out}/parquet and {args.out}/jsonl")
        print(f"skipped: {skips.value}")
    finally:
        spark.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
