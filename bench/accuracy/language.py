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
- ``... (labels audited)`` — ``page`` and ``no markup`` again with the truth labels listed in
  `LABEL_AUDIT` replaced by the language the page's text is in (read by hand; the raw columns
  stay the figures of record);
and the misses (truth<-answer). Serbo-Croatian truth ("sh") counts hr, sr and bs as right.

    --misses   every miss with its page id, URL, declaration, answers, truth and body opening
    --cost     the language step's time against the bare lxml parse, interleaved page by page
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

_GERMAN_TEXT = "the article's text is German; the site's template declares de"
#: Truth labels that disagree with the page's own text, read by hand (issue 34): (corpus, page
#: id) -> (the language the page's text is in, the evidence). Used only for the audited columns.
LABEL_AUDIT: dict[tuple[str, str], tuple[str, str]] = {
    ("scrapinghub_aeb", "11ea381ad92b5448cf66eae62f52ac565361a244c8881615fc6a7bb523cc0c32"): (
        "pt", "labelled en; the body is Portuguese ('Nesta página você terá sempre ...')"),
    ("magichtml_article", "2681eeacec6ab049817f3908bab3ae67a01396cedc3ede29df29ecc94ecd1265"): (
        "zh", "labelled ko; Traditional Chinese news (Yahoo HK), no Hangul on the page"),
    ("magichtml_article", "b5b26f9fb331612dd636a7eff9fcd2503e81124b237d916bbabdef0ad0713285"): (
        "zh", "labelled ko; Traditional Chinese news (Yahoo HK), no Hangul on the page"),
    ("magichtml_article", "66211fc426fc70162d7560b0ebb6497e0cc76a3218f087612a0f92640af93746"): (
        "zh", "labelled en; a Chinese blog post (cnblogs) with shell snippets"),
    ("htmldate_eval", "1523761669"): ("tl", "labelled en; Tagalog ('TALAGANG sunod-sunuran ...')"),
    ("htmldate_eval", "1579090372"): ("sq", "labelled en; Albanian ('Franca ka shënuar ...')"),
    ("htmldate_eval", "1647262025"): ("ru", "labelled pt; tass.ru, Russian"),
    ("htmldate_eval", "1716324024"): ("ro", "labelled en; Romanian ('Fetele şi femeile ...')"),
    ("htmldate_eval", "1756260927"): ("pt", "labelled en; Portuguese, declared pt"),
    ("htmldate_eval", "1577247412"): ("ka", "labelled en; Georgian title and description"),
    ("htmldate_eval", "1565998355"): ("gu", "labelled en; Gujarati article, English headline"),
    ("htmldate_eval", "1561643340"): ("gu", "labelled en; Gujarati article, English headline"),
    ("htmldate_eval", "1759902081"): ("fr", "labelled en; French, declared fr"),
    ("htmldate_eval", "1506220874"): ("es", "labelled en; Spanish, declared es"),
    ("htmldate_eval", "1721965295"): ("es", "labelled en; Spanish ('Buscan mejorar ...')"),
    ("htmldate_eval", "1718257353"): ("es", "labelled en; Spanish, declared es"),
    ("htmldate_eval", "1724245424"): ("es", "labelled en; Spanish ('El cambio en el estado ...')"),
    ("htmldate_eval", "1685765130"): (
        "en", "labelled ca; an Incapsula block page ('Request unsuccessful'), no article"),
    ("htmldate_eval", "1556626357"): ("ca", "labelled en; Catalan, declared ca"),
    ("htmldate_eval", "1766087391"): ("bg", "labelled en; Bulgarian, declared bg"),
    ("htmldate_eval", "1764731404"): ("ar", "labelled en; Arabic title and article"),
    ("htmldate_eval", "1728970162"): ("zh", "labelled ko; Traditional Chinese (udn.com)"),
    ("htmldate_eval", "1546021647"): ("zh", "labelled da; Traditional Chinese (upmedia.mg)"),
    ("htmldate_eval", "1500260110"): ("zh", "labelled ko; Traditional Chinese (sina.com.tw)"),
    ("htmldate_eval", "sohu.com-Likeqiang"): ("zh", "labelled sv; Simplified Chinese (sohu.com)"),
    ("htmldate_eval", "Coincierge.de-Bitcoin-Blog"): ("de", "labelled en; " + _GERMAN_TEXT),
    ("htmldate_eval", "groove.de-Anti-A100-Aktivist"): ("de", "labelled en; " + _GERMAN_TEXT),
    ("htmldate_eval", "lokalo.de-Weinbergsbahnen"): ("de", "labelled en; " + _GERMAN_TEXT),
    ("htmldate_eval", "presse-ausburg.de-Tarifverbund"): ("de", "labelled en; " + _GERMAN_TEXT),
    ("htmldate_eval", "volksblatt.at-Alkoholkonsum"): ("de", "labelled en; " + _GERMAN_TEXT),
    ("htmldate_eval", "wildhund.de-kraehenjagd"): ("de", "labelled en; " + _GERMAN_TEXT),
    ("htmldate_eval", "facebook.com.visitaustria"): (
        "en", "labelled de (the site's language); the post's text is English"),
    ("htmldate_eval", "medef.fr.dispute"): (
        "en", "labelled fr (the site's language); the page is the /en/ English version"),
    ("htmldate_eval", "verfassungsblog.de.decade"): (
        "en", "labelled de (the site's language); the post is written in English"),
    ("htmldate_eval", "medium.com.recherche"): ("fr", "labelled en; French, Medium declares en"),
}  # fmt: skip


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


def _audited(page: Page) -> str | None:
    audit = LABEL_AUDIT.get((page.corpus, page.id))
    return audit[0] if audit else page.lang


def _cost(pages: Sequence[Page], rounds: int = 3) -> None:
    """The language step against the bare parse, page by page in turns (a shared machine's
    load falls on both alike), in CPU time (`time.process_time`: waiting for a core is not
    counted)."""
    import lxml.html

    from newsspider import extract
    from newsspider.extraction.metadata import language
    from newsspider.extraction.metadata.reader import read_metadata

    inputs = []
    for page in pages:
        article = extract(page.html, url=page.url)
        metadata = read_metadata(lxml.html.fromstring(page.html), page.url)
        inputs.append(
            (page.html, metadata.language, (article.body, article.title, article.description))
        )
    language.page_language("en", ["Warming the model up: " * 10])
    parse = step = 0.0
    for _ in range(rounds):
        for html, declared, texts in inputs:
            start = time.process_time()
            lxml.html.fromstring(html)
            middle = time.process_time()
            language.page_language(declared, texts)
            parse += middle - start
            step += time.process_time() - middle
    runs = rounds * len(inputs)
    print(
        f"\nCost over {len(inputs)} pages x {rounds}: parse {1e3 * parse / runs:.2f} ms/page, "
        f"language {1e3 * step / runs:.3f} ms/page = {step / parse:.3f}x the parse"
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", action="append", help="corpus name (repeatable)")
    parser.add_argument("--corpora", help="corpora folder")
    parser.add_argument("--misses", action="store_true", help="print every miss in full")
    parser.add_argument("--cost", action="store_true", help="time the step against the parse")
    args = parser.parse_args(argv)

    import lxml.html

    from newsspider import extract
    from newsspider.extraction.metadata import language
    from newsspider.extraction.metadata.reader import read_metadata

    root = corpora_root(args.corpora)
    names = args.corpus or available_corpora(root)
    print(f"identifier available: {language.identifier_available()}")
    columns = (
        "markup",
        "page",
        "no markup",
        "no markup, no identifier",
        "page (labels audited)",
        "no markup (labels audited)",
    )
    print("| corpus | pages | " + " | ".join(columns) + " |")
    print("|---|---|" + "---|" * len(columns))
    all_misses: dict[str, dict[str, list[str]]] = {}
    details: list[str] = []
    # Misses where the answer is what the page itself declares: the recorded language
    # disagrees with both the page's markup and its text (worth checking by hand).
    audits: dict[str, list[str]] = {}
    every: list[Page] = []
    for name in names:
        pages = [p for p in load_corpus(name, root) if p.lang]
        if not pages:
            continue
        every.extend(pages)
        stripped = {p.id: strip_language_markup(p.html) for p in pages}

        def markup(page: Page) -> str | None:
            return read_metadata(lxml.html.fromstring(page.html), page.url).language

        def bare(page: Page, stripped: dict[str, bytes] = stripped) -> str | None:
            return extract(stripped[page.id], url=page.url).language

        declared = {p.id: markup(p) for p in pages}
        articles = {p.id: extract(p.html, url=p.url) for p in pages}
        answers = {p_id: a.language for p_id, a in articles.items()}
        bare_answers = {p.id: bare(p) for p in pages}
        results = [
            _score(pages, declared.__getitem__, key=True),
            _score(pages, answers.__getitem__, key=True),
            _score(pages, bare_answers.__getitem__, key=True),
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
        for got in (answers, bare_answers):
            right = [p for p in pages if _right(_audited(p) or "", got[p.id])]
            wrong = [f"{_audited(p)}<-{got[p.id]}" for p in pages if p not in right]
            results.append((len(right), wrong, 0.0))
        cells = [f"{100 * r / len(pages):.1f}% ({len(pages) - r})" for r, _, _ in results]
        print(f"| {name} | {len(pages)} | " + " | ".join(cells) + " |")
        all_misses[name] = {c: m for c, (_, m, _) in zip(columns, results, strict=True)}
        audits[name] = agreeing
        for p in pages:
            if _right(p.lang or "", answers[p.id]) and _right(p.lang or "", bare_answers[p.id]):
                continue
            audit = LABEL_AUDIT.get((name, p.id))
            body = " ".join((articles[p.id].body or "")[:200].split())
            details.append(
                f"- {name} {p.id} {p.url}\n  truth {p.lang}, declared {declared[p.id]}, "
                f"page {answers[p.id]}, no markup {bare_answers[p.id]}"
                + (f"; audited: {audit[0]} ({audit[1]})" if audit else "")
                + f"\n  title: {articles[p.id].title!r}\n  body: {body!r}"
            )
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
    if args.misses:
        print("\nEvery miss (page or no markup):")
        print("\n".join(details))
    if args.cost:
        _cost(every)


if __name__ == "__main__":
    main()
