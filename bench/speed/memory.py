"""Peak memory of one extraction per MB of HTML, each measured in a fresh child process.

    python -m bench.speed.memory                    # the largest pages of each development corpus
    python -m bench.speed.memory --largest 5 --scaling

The child reads the page (gunzipped), runs one warm-up extraction of a small page (imports and
first-use caches are not the page's cost), collects garbage, resets its RSS high-water mark
(``/proc/self/clear_refs``), notes its RSS, then extracts the page once (engine "extract") or
parses it with a bare ``lxml.etree.HTMLParser`` (engine "lxml", the floor); the figure is the
high-water mark minus that RSS, in MB per MB of input. The page's own bytes are held by the
caller before and after, so they are not counted.

``--scaling`` does the same for generated article pages (`support.pathological.html_50mb`'s
sections) of 10 kB to 20 MB.
"""

from __future__ import annotations

import argparse
import gc
import gzip
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from support.pathological import MB, Sandbox, _reset_peak, _rss_kb, html_50mb

from bench.corpus import CORPORA, corpora_root

SCALING_SIZES = (10 * 1024, 100 * 1024, 1 * MB, 5 * MB, 20 * MB)


def child(source: str, engine: str) -> dict[str, Any]:
    """Measure one page (a file path, or "generated:SIZE") in this process."""
    from lxml import etree

    from newsspider import extract
    from newsspider.extraction.parse.parsing import _parser

    if source.startswith("generated:"):
        page = html_50mb(Sandbox(), int(source.split(":", 1)[1]))
    else:
        data = Path(source).read_bytes()
        page = gzip.decompress(data) if source.endswith(".gz") else data
        del data
    extract(html_50mb(Sandbox(), 20_000), url="http://example.com/warm-up")
    gc.collect()
    reset = _reset_peak()
    before = _rss_kb("VmRSS")
    if engine == "lxml":
        root = etree.fromstring(page, _parser())
        del root
    else:
        extract(page, url="http://example.com/page")
    peak = _rss_kb("VmHWM")
    return {
        "source": source,
        "engine": engine,
        "bytes": len(page),
        "peak_mb": round((peak - before) / 1024, 1),
        "mb_per_mb": round((peak - before) / 1024 / (len(page) / MB), 2),
        "peak_reset": reset,
    }


def measure(source: str, engine: str) -> dict[str, Any]:
    run = subprocess.run(
        [sys.executable, "-m", "bench.speed.memory", "--child", source, "--engine", engine],
        capture_output=True,
        text=True,
        check=False,
    )
    if run.returncode != 0:
        return {"source": source, "engine": engine, "error": run.stderr.strip()[-500:]}
    result: dict[str, Any] = json.loads(run.stdout.strip().splitlines()[-1])
    return result


def largest_pages(count: int) -> list[Path]:
    root = corpora_root()
    pages: list[Path] = []
    for name in CORPORA:
        folder = root / name / "pages"
        if folder.is_dir():
            by_size = sorted(
                folder.glob("*.html.gz"), key=lambda p: -len(gzip.decompress(p.read_bytes()))
            )
            pages += by_size[:count]
    return pages


def table(rows: list[tuple[str, dict[str, Any], dict[str, Any]]]) -> str:
    lines = [
        "| page | HTML MB | extract peak MB | extract MB/MB | lxml MB/MB |",
        "|---|--:|--:|--:|--:|",
    ]
    for label, ours, lxml in rows:
        if "error" in ours or "error" in lxml:
            lines.append(f"| {label} | error: {ours.get('error') or lxml.get('error')} |")
            continue
        lines.append(
            f"| {label} | {ours['bytes'] / MB:.2f} | {ours['peak_mb']} | {ours['mb_per_mb']} "
            f"| {lxml['mb_per_mb']} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--largest", type=int, default=3, help="pages per corpus")
    parser.add_argument("--scaling", action="store_true", help="generated pages, 10 kB-20 MB")
    parser.add_argument("--no-corpora", action="store_true")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--engine", default="extract", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child(args.child, args.engine)))
        return 0
    results: dict[str, Any] = {}
    if not args.no_corpora:
        rows = []
        for path in largest_pages(args.largest):
            label = f"{path.parent.parent.name}/{path.name.split('.')[0][:12]}"
            rows.append((label, measure(str(path), "extract"), measure(str(path), "lxml")))
        print(table(rows), flush=True)
        results["corpora"] = rows
    if args.scaling:
        rows = []
        for size in SCALING_SIZES:
            source = f"generated:{size}"
            rows.append(
                (
                    f"generated {size // 1024} kB",
                    measure(source, "extract"),
                    measure(source, "lxml"),
                )
            )
        print("\n" + table(rows), flush=True)
        results["scaling"] = rows
    out = Path("bench-results") / "memory.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(results, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
