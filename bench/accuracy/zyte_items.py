"""Zyte's schema on every development page: each `to_zyte_article` field against
zyte-common-items' own validators and its documented formats.

    .venv/bin/python -m bench.accuracy.zyte_items [--corpus NAME] [--limit N] [--json OUT]

Per page: newsspider's `extract` -> `to_zyte_article` (what ``NEWSSPIDER_ITEM_SCHEMA = "zyte"``
and the page object emit). The item is written the way zyte-common-items' add-on exports it
(`zyte_dict`) and read back with ``Article.from_dict`` (its converters and type checks: URLs,
nested items, lists, metadata); every field present is then checked against the format
zyte-common-items documents for it (datetimes ``YYYY-MM-DDThh:mm:ss[Z|±hh:mm]`` read by
zyte-common-items' own ``parse_iso_datetime``, ISO 639-1 language codes, absolute URLs, trimmed
non-empty text, probability in [0, 1]). Prints, per corpus, pages, items that pass, and each
field's present / valid counts; the failures are listed.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from bench.corpus import CORPORA, available_corpora, corpora_root, iter_corpus

_DATETIME = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:Z|[+-]\d{2}:\d{2})?")
_UTC_DATETIME = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z")


def _absolute_url(value: Any) -> bool:
    if not isinstance(value, str):
        return False
    parts = urlsplit(value)
    return parts.scheme in ("http", "https") and bool(parts.netloc)


def _text(value: Any) -> bool:
    return isinstance(value, str) and bool(value) and value == value.strip()


def _datetime(value: Any) -> bool:
    from zyte_common_items._dateutils import parse_iso_datetime

    if not isinstance(value, str) or not _DATETIME.fullmatch(value):
        return False
    try:
        parse_iso_datetime(value)
    except ValueError:
        return False
    return True


def _authors(value: Any) -> bool:
    return isinstance(value, list) and all(
        _text(a.get("name")) and (a.get("url") is None or _absolute_url(a["url"])) for a in value
    )


def _images(value: Any) -> bool:
    return isinstance(value, list) and all(_absolute_url(i.get("url")) for i in value)


def _breadcrumbs(value: Any) -> bool:
    return isinstance(value, list) and all(
        (b.get("name") is None or _text(b["name"]))
        and (b.get("url") is None or _absolute_url(b["url"]))
        for b in value
    )


def _metadata(value: Any) -> bool:
    probability = value.get("probability")
    downloaded = value.get("dateDownloaded")
    return (
        isinstance(probability, float | int)
        and 0.0 <= probability <= 1.0
        and isinstance(downloaded, str)
        and bool(_UTC_DATETIME.fullmatch(downloaded))
        and _datetime(downloaded)
    )


#: Field -> its documented format (zyte-common-items' Article docstrings).
CHECKS: dict[str, Callable[[Any], bool]] = {
    "url": _absolute_url,
    "canonicalUrl": _absolute_url,
    "headline": _text,
    "datePublished": _datetime,
    "datePublishedRaw": _text,
    "dateModified": _datetime,
    "dateModifiedRaw": _text,
    "authors": _authors,
    "breadcrumbs": _breadcrumbs,
    "inLanguage": lambda v: isinstance(v, str) and bool(re.fullmatch(r"[a-z]{2}", v)),
    "mainImage": lambda v: isinstance(v, dict) and _absolute_url(v.get("url")),
    "images": _images,
    "description": _text,
    "articleBody": _text,
    "articleBodyHtml": _text,
    "metadata": _metadata,
}


def validate(data: dict[str, Any]) -> list[str]:
    """The problems of one exported item (empty: valid)."""
    from zyte_common_items import Article as ZyteArticle

    from newsspider.poet.items import zyte_dict

    problems = []
    try:
        again = zyte_dict(ZyteArticle.from_dict(data))
    except (ValueError, TypeError) as exc:
        return [f"from_dict: {exc}"]
    if again != data:
        problems.append("from_dict round trip changed the item")
    for name, value in data.items():
        check = CHECKS.get(name)
        if check is None:
            problems.append(f"{name}: not an Article field")
        elif not check(value):
            problems.append(f"{name}: {value!r:.80}")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", action="append", default=[])
    parser.add_argument("--corpora", default=None)
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--json", default=None)
    args = parser.parse_args(argv)

    import newsspider
    from newsspider.poet.items import to_zyte_article, zyte_dict

    root = corpora_root(args.corpora)
    wanted = [c for part in args.corpus for c in part.split(",")] or list(CORPORA)
    names = [c for c in wanted if c in available_corpora(root)]
    fields: Counter[str] = Counter()
    valid: Counter[str] = Counter()
    failures: list[dict[str, Any]] = []
    rows = []
    for name in names:
        pages = passed = 0
        for page in iter_corpus(name, root, args.limit):
            # A crawl's URLs are absolute; a few corpus records carry none (or an id).
            url = page.url if _absolute_url(page.url) else f"https://corpus.invalid/{page.id}"
            article = newsspider.extract(page.html, url=url)
            data = zyte_dict(to_zyte_article(article, url=url))
            problems = validate(data)
            pages += 1
            passed += not problems
            for field_name, value in data.items():
                fields[field_name] += 1
                check = CHECKS.get(field_name)
                valid[field_name] += bool(check is not None and check(value))
            if problems:
                failures.append({"corpus": name, "id": page.id, "problems": problems})
        rows.append((name, pages, passed))
    print("| corpus | pages | items valid |")
    print("|---|---|---|")
    for name, pages, passed in rows:
        print(f"| {name} | {pages} | {passed} |")
    total = sum(r[1] for r in rows)
    print(f"| all | {total} | {sum(r[2] for r in rows)} |")
    print()
    print("| field | present | valid |")
    print("|---|---|---|")
    for field_name in CHECKS:
        if fields[field_name]:
            print(f"| {field_name} | {fields[field_name]} | {valid[field_name]} |")
    for failure in failures[:30]:
        print(failure["corpus"], failure["id"], "; ".join(failure["problems"]))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump({"rows": rows, "fields": fields, "valid": valid, "failures": failures}, out)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
