"""Article records from WARC files on Spark, written as Parquet and JSON Lines.

    spark-submit --master 'local[2]' --driver-memory 1g examples/spark_warc.py \\
        --out articles/ CC-NEWS-20261101.warc.gz CC-NEWS-20261102.warc.gz

Every executor needs newsspider[spark] installed (PYSPARK_PYTHON names that interpreter) and
the WARC paths readable as files. Options: python -m newsspider.spark --help.
"""

from newsspider.spark import main

if __name__ == "__main__":
    raise SystemExit(main())
