"""List the worst pages of one extractor in a ``python -m bench --json`` result.

    python -m bench.accuracy.worst results.json [--extractor newsspider] [--corpus NAME] [--by f1]
                          [-n 20] [--compare trafilatura]

``--by`` is one of f1, precision, recall (lowest first), title or date (wrong ones first).
``--compare`` adds another extractor's score on the same page, to spot pages where a peer
does better. Each row ends with the page's path, ready for ``zcat``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = ["main", "worst_pages"]

SORT_KEYS = ("f1", "precision", "recall", "title", "date")


def _key(page: dict[str, Any], by: str) -> float:
    """Sort key, lowest = worst; pages without that score sort last (inf)."""
    if by in ("title", "date"):
        ok = page.get(f"{by}_ok")
        return float("inf") if ok is None else float(ok)
    value = page.get(by)
    return float("inf") if value is None else float(value)


def worst_pages(
    result: dict[str, Any],
    extractor: str,
    corpus: str | None = None,
    by: str = "f1",
    n: int = 20,
) -> list[dict[str, Any]]:
    """The ``n`` worst scored pages of ``extractor`` (across corpora unless ``corpus``)."""
    rows: list[dict[str, Any]] = []
    for corpus_name, data in result["corpora"].items():
        if corpus is not None and corpus_name != corpus:
            continue
        extractors = data["extractors"]
        if extractor not in extractors:
            continue
        for page in extractors[extractor]["pages"]:
            if _key(page, by) == float("inf"):
                continue
            row = dict(page, corpus=corpus_name, path=data.get("page_paths", {}).get(page["id"]))
            rows.append(row)
    rows.sort(key=lambda row: (_key(row, by), row["corpus"], row["id"]))
    return rows[:n]


def _fmt(value: object) -> str:
    if value is None:
        return "–"
    if isinstance(value, bool):
        return "ok" if value else "WRONG"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def _lookup(result: dict[str, Any], extractor: str) -> dict[tuple[str, str], dict[str, Any]]:
    table: dict[tuple[str, str], dict[str, Any]] = {}
    for corpus_name, data in result["corpora"].items():
        for page in data["extractors"].get(extractor, {}).get("pages", []):
            table[corpus_name, page["id"]] = page
    return table


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.accuracy.worst", description=__doc__)
    parser.add_argument("result", type=Path, help="JSON written by python -m bench --json")
    parser.add_argument("--extractor", default="newsspider")
    parser.add_argument("--corpus")
    parser.add_argument("--by", choices=SORT_KEYS, default="f1")
    parser.add_argument("-n", type=int, default=20)
    parser.add_argument("--compare", metavar="EXTRACTOR", help="show this one's score too")
    args = parser.parse_args(argv)

    result = json.loads(args.result.read_text(encoding="utf-8"))
    known = {name for data in result["corpora"].values() for name in data["extractors"]}
    if args.extractor not in known:
        parser.error(f"no extractor {args.extractor!r} in {args.result}; have {sorted(known)}")
    rows = worst_pages(result, args.extractor, args.corpus, args.by, args.n)
    other = _lookup(result, args.compare) if args.compare else {}

    head = ["corpus", "id", "lang", "F1", "P", "R", "conf", "title", "date", "chars"]
    if args.compare:
        head.append(f"{args.compare} F1")
    head += ["pred title / date", "true title / date", "path"]
    out = ["\t".join(head)]
    for row in rows:
        page_id = row["id"] if len(row["id"]) <= 24 else row["id"][:16] + "…"
        cells = [row["corpus"], page_id, row.get("lang")]
        cells += [row.get(k) for k in ("f1", "precision", "recall", "confidence")]
        cells += [row.get("title_ok"), row.get("date_ok"), row.get("body_chars")]
        if args.compare:
            cells.append(other.get((row["corpus"], row["id"]), {}).get("f1"))
        pred = " / ".join(str(v) for v in (row.get("pred_title"), row.get("pred_date")) if v)
        true = " / ".join(str(v) for v in (row.get("true_title"), row.get("true_date")) if v)
        cells += [pred[:80] or None, true[:80] or None, row.get("path")]
        if row.get("error"):
            cells.append(f"ERROR {row['error']}")
        out.append("\t".join(_fmt(c) for c in cells))
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
