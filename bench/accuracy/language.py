"""`Article.language` against each development corpus's recorded language (truth ``lang``).

    .venv/bin/python -m bench.accuracy.language [--corpus NAME ...]

Per corpus, the share of pages whose language is right:
- ``markup`` — what markup alone says (`metadata.read_metadata`; what the field was before the
  text was read);
- ``page`` — `Article.language` (markup checked against the text, script, identifier);
- ``no markup`` — the same page with every declaration of its language removed (``lang`` and
  ``xml:lang`` attributes, ``content-language``, ``og:locale``, ``language`` meta tags): how a page
  that declares nothing fares;
- ``no markup, no identifier`` — the same without py3langid (script test only);
and the misses (truth<-answer). Serbo-Croatian truth ("sh") counts hr, sr and bs as right.
"""

from __future__ import annotations

import argparse
import re
import time
from collections.abc import Callable, Sequence
from typing import Any

from bench.corpus import Page, available_corpora, corpora_root, load_corpus

_LANG_ATTR_RE = re.compile(rb"""\s(?:xml:)?lang\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+)""", re.I)
_LANG_META_RE = re.compile(
    rb"""(?:http-equiv|name|property|itemprop)\s*=\s*["']?(?:content-language|og:locale|"""
    rb"""language|dc\.language|inlanguage)\b""",
    re.I,
)
_SAME = {"sh": {"sh", "hr", "sr", "bs"}, "no": {"no", "nb", "nn"}}


def strip_language_markup(html: bytes) -> bytes:
    """The page without any declaration of its language."""
    return _LANG_META_RE.sub(b"name=x-stripped", _LANG_ATTR_RE.sub(b" ", html))


def _right(truth: str, answer: str | None) -> bool:
    return answer is not None and (answer == truth or answer in _SAME.get(truth, ()))


def _score(
    pages: Sequence[Page], answer: Callable[[Any], str | None], *, key: bool = False
) -> tuple[int, list[str], float]:
    """(pages right, misses, seconds); with ``key``, ``answer`` takes the page's id."""
    right, misses, elapsed = 0, [], 0.0
    for page in pages:
        start = time.perf_counter()
        got = answer(page.id if key else page)
        elapsed += time.perf_counter() - start
        if page.lang is not None and _right(page.lang, got):
            right += 1
        else:
            misses.append(f"{page.lang}<-{got}")
    return right, misses, elapsed


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", action="append", help="corpus name (repeatable)")
    parser.add_argument("--corpora", help="corpora folder")
    args = parser.parse_args(argv)

    import lxml.html

    from newsspider import extract
    from newsspider.extraction.metadata import language
    from newsspider.extraction.metadata.reader import read_metadata

    root = corpora_root(args.corpora)
    names = args.corpus or available_corpora(root)
    print(f"identifier available: {language.identifier_available()}")
    columns = ("markup", "page", "no markup", "no markup, no identifier")
    print("| corpus | pages | " + " | ".join(columns) + " |")
    print("|---|---|" + "---|" * len(columns))
    all_misses: dict[str, dict[str, list[str]]] = {}
    # Misses where the answer is what the page itself declares: the recorded language
    # disagrees with both the page's markup and its text (worth checking by hand).
    audits: dict[str, list[str]] = {}
    for name in names:
        pages = [p for p in load_corpus(name, root) if p.lang]
        if not pages:
            continue
        stripped = {p.id: strip_language_markup(p.html) for p in pages}

        def markup(page: Page) -> str | None:
            return read_metadata(lxml.html.fromstring(page.html), page.url).language

        def full(page: Page) -> str | None:
            return extract(page.html, url=page.url).language

        def bare(page: Page, stripped: dict[str, bytes] = stripped) -> str | None:
            return extract(stripped[page.id], url=page.url).language

        declared = {p.id: markup(p) for p in pages}
        answers = {p.id: full(p) for p in pages}
        results = [
            _score(pages, declared.__getitem__, key=True),
            _score(pages, answers.__getitem__, key=True),
            _score(pages, bare),
        ]
        agreeing = [
            f"{p.id}: {p.lang}<-{answers[p.id]}"
            for p in pages
            if not _right(p.lang or "", answers[p.id]) and answers[p.id] == declared[p.id]
        ]
        model = language._identifier[:]
        language._identifier[:] = [None]
        try:
            results.append(_score(pages, bare))
        finally:
            language._identifier[:] = model
        cells = [f"{100 * r / len(pages):.1f}% ({len(pages) - r})" for r, _, _ in results]
        print(f"| {name} | {len(pages)} | " + " | ".join(cells) + " |")
        all_misses[name] = {c: m for c, (_, m, _) in zip(columns, results, strict=True)}
        audits[name] = agreeing
    print("\nCells: share right (pages wrong).\n\nMisses (truth<-answer):")
    for name, by_column in all_misses.items():
        for column, misses in by_column.items():
            if column != "markup" and misses:
                more = f" and {len(misses) - 40} more" if len(misses) > 40 else ""
                print(f"- {name}, {column} ({len(misses)}): {', '.join(misses[:40])}{more}")

    print("\nMisses where the answer is the page's own declaration (truth label to check):")
    for name, listed in audits.items():
        if listed:
            print(f"- {name} ({len(listed)}): {', '.join(listed)}")


if __name__ == "__main__":
    main()
