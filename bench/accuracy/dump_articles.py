"""Every development page's `Article` as JSON lines, and the fields two such dumps differ in.

The identity check behind "no body, title or date changed": dump before a change, dump after,
compare. Pages are read straight from the corpora folder (every page, the synthetic ones too).

    python -m bench.accuracy.dump_articles dump before.jsonl
    python -m bench.accuracy.dump_articles diff before.jsonl after.jsonl --fields body,title,date

``dump --features`` also writes each page's page-type features (`StageRecord.type_features`,
as `float.hex`, so a diff is exact), compared by ``diff`` as a field named ``type_features``.
"""

from __future__ import annotations

import argparse
import gzip
import json
from collections import Counter
from pathlib import Path
from typing import Any

from bench.corpus import corpora_root


def dump(out: Path, root: Path, features: bool = False) -> int:
    """Extract every page of every corpus under ``root`` into ``out``; the page count.
    ``features``: also each page's page-type features, exactly (`float.hex`)."""
    import newsspider
    from newsspider.extraction.stages import StageRecord

    count = 0
    with out.open("w", encoding="utf-8") as fh:
        for corpus in sorted(p.name for p in root.iterdir() if (p / "truth.jsonl").exists()):
            for line in (root / corpus / "truth.jsonl").open(encoding="utf-8"):
                record = json.loads(line)
                page = root / corpus / "pages" / f"{record['id']}.html.gz"
                if not page.exists():
                    continue
                stages = StageRecord() if features else None
                article = newsspider.extract(
                    gzip.decompress(page.read_bytes()), url=record.get("url"), record=stages
                )
                row = {"corpus": corpus, "id": record["id"], "article": article.to_dict()}
                if stages is not None:
                    values = stages.type_features
                    row["type_features"] = None if values is None else [v.hex() for v in values]
                fh.write(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n")
                count += 1
    return count


def _load(path: Path) -> dict[tuple[str, str], dict[str, Any]]:
    rows = (json.loads(line) for line in path.open(encoding="utf-8"))
    return {
        (row["corpus"], row["id"]): (
            {**row["article"], "type_features": row["type_features"]}
            if "type_features" in row
            else row["article"]
        )
        for row in rows
    }


def diff(before: Path, after: Path, fields: list[str] | None, show: int = 20) -> Counter[str]:
    """Print the pages whose ``fields`` (all when None) differ; the count per field."""
    old, new = _load(before), _load(after)
    per_field: Counter[str] = Counter()
    pages = 0
    for key in sorted(set(old) | set(new)):
        a, b = old.get(key), new.get(key)
        if a is None or b is None:
            per_field["(missing page)"] += 1
            pages += 1
            continue
        names = fields or sorted(set(a) | set(b))
        changed = [name for name in names if a.get(name) != b.get(name)]
        if changed:
            pages += 1
            per_field.update(changed)
            if pages <= show:
                print(key, changed)
    print(f"{len(old)} vs {len(new)} pages; {pages} differ; per field: {dict(per_field)}")
    return per_field


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.accuracy.dump_articles")
    sub = parser.add_subparsers(dest="command", required=True)
    d = sub.add_parser("dump", help="write every development page's Article as JSON lines")
    d.add_argument("out", type=Path)
    d.add_argument("--corpora", help="the corpora folder (default: ../shared/corpora)")
    d.add_argument(
        "--features", action="store_true", help="also each page's page-type features (exact)"
    )
    c = sub.add_parser("diff", help="the pages and fields two dumps differ in")
    c.add_argument("before", type=Path)
    c.add_argument("after", type=Path)
    c.add_argument("--fields", help="comma-separated fields to compare (default: all)")
    args = parser.parse_args(argv)
    if args.command == "dump":
        count = dump(args.out, corpora_root(args.corpora), args.features)
        print(f"{count} pages -> {args.out}")
        return 0
    fields = args.fields.split(",") if args.fields else None
    return 1 if diff(args.before, args.after, fields) else 0


if __name__ == "__main__":
    raise SystemExit(main())
