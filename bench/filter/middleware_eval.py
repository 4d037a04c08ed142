"""How well the content filter separates article from non-article pages it was not tuned on.

    python -m bench.filter.middleware_eval [--repeat 3] [--per-language 4] [--json OUT]

"Dropped" is the positive class: precision = dropped non-articles / all dropped pages, recall =
dropped non-articles / all non-articles. Every page goes through the real
`ContentFilterMiddleware.process_response` (default settings, judged via
``meta["newsspider_judge"]``) on the Scrapy response class Scrapy itself would build for the
page's Content-Type.

Articles (should be kept): the pages of ``../shared/corpora`` (raw bytes, served as
``text/html`` without a charset, so Scrapy resolves the encoding as it would for an unlabelled
page), minus the pages the corpora themselves mark as non-articles (below).

Non-articles (should be dropped), three independent sources:

- ``generated``: `bench.filter.negative_pages`, a generator written for this evaluation (16 kinds of
  non-article pages x 9 languages x 4 markup styles; nothing shared with the fixtures or demo
  the filter was tuned on);
- ``structural``: each corpus page with a body truth, with its article text removed: every
  element whose whole visible text (>= 15 characters, whitespace collapsed) occurs in the true
  body is deleted (outermost first), as are all JSON-LD scripts and ``og:type`` tags (a page
  without its article does not declare one). Navigation, headline, sidebars, comments and footer
  stay. A page where >= 20% of the true body's 4-gram shingles remain visible is not used (the
  removal failed). Two controls, articles that must still be kept: ``structural_control`` is
  the same page through the same parse, JSON-LD/og:type removal and serialisation *without*
  removing the text; ``serialised_control`` is only parsed and serialised. They tell the
  removal's effect from the serialisation's and the declarations';
- ``corpus_labelled``: pages the corpora label as non-articles: magichtml_article's one list page
  (``remark`` 列表页), readability_testpages' non-synthetic pages with ``readerable: false``, and
  htmldate_eval pages whose URL is a site root (path ``/`` or empty, no query).

Also reported: what the pipeline would do with the same page (`newsspider.extract` confidence
against the default ``NEWSSPIDER_MIN_CONFIDENCE`` 0.3), so a filter mistake can be told from one
the pipeline repairs anyway; and the cost per page of the filter's judgement next to a full
extraction and a bare ``lxml.html.fromstring`` (best of ``--repeat`` per page, same process).
No threshold is tuned here: the filter runs with its defaults.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import re
import statistics
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from urllib.parse import urlsplit

import lxml.html
from lxml import etree

from bench.corpus import OTHER_GROUP, Page, available_corpora, corpora_root, load_corpus
from bench.filter.negative_pages import generate
from newsspider.extraction.parse.decoding import decode_html
from newsspider.settings_defaults import DEFAULTS
from newsspider.settings_defaults import MIN_CONFIDENCE as MIN_CONFIDENCE_SETTING

POSITIVE = "article"
NEGATIVE = "non-article"
MIN_REMOVED_TEXT = 15
#: An element with at least this many 4-word shingles, this share of them in the truth, is
#: article text even when it is not found verbatim (see `_remove_article_text`).
MIN_FUZZY_SHINGLES = 5
MIN_SHINGLE_CONTAINMENT = 0.8
_TEXT_BLOCKS = frozenset("p li h1 h2 h3 h4 h5 h6 blockquote pre td th dd dt figcaption".split())
MAX_REMAINING_SHARE = 0.2
MIN_CONFIDENCE = float(DEFAULTS[MIN_CONFIDENCE_SETTING])  # the pipeline default


@dataclass(slots=True)
class Sample:
    label: str  # POSITIVE or NEGATIVE
    source: str  # corpus / generated / structural / structural_control / corpus_labelled
    kind: str  # corpus name for articles, page kind for non-articles
    id: str
    url: str
    content_type: str
    body: bytes
    dropped: bool = False
    reason: str | None = None
    pipeline_keeps: bool = False
    page_type: str = ""
    #: structural negatives: share of the true body still visible.
    remaining: float = 0.0
    times: dict[str, float] = field(default_factory=dict)
    #: The corpus page's language (corpus and structural samples).
    lang: str = ""
    #: wceb2026_llm_dev's page-type group (`bench.corpus.Page.group`), "" elsewhere.
    group: str = ""
    #: P(article present) from the filter's extraction, None when it did not extract.
    presence: float | None = None
    #: The learned page type's P(article) (`Article.article_probability`), when extracted.
    article_probability: float | None = None


# --- the pages --------------------------------------------------------------------------------


def _corpus_non_article(page: Page) -> bool:
    if page.corpus == "magichtml_article":
        return page.meta.get("remark") == "列表页"
    if page.corpus == "readability_testpages":
        return page.meta.get("readerable") is False
    if page.corpus == "htmldate_eval" and page.url:
        parts = urlsplit(page.url)
        return parts.path in ("", "/") and not parts.query
    return False


def _url(page: Page) -> str:
    if page.url and urlsplit(page.url).scheme in ("http", "https"):
        return page.url
    return f"https://{page.corpus.replace('_', '-')}.example/{page.id}.html"


def _norm(text: str) -> str:
    return " ".join(text.split())


_WORD = re.compile(r"\w+")
_INVISIBLE = ("script", "style", "noscript", "template")


def _shingles(text: str) -> set[tuple[str, ...]]:
    tokens = _WORD.findall(text.lower())
    if len(tokens) < 4:
        return {tuple(tokens)} if tokens else set()
    return {tuple(tokens[i : i + 4]) for i in range(len(tokens) - 3)}


def _visible_text(doc: Any) -> str:
    copy: Any = lxml.html.fromstring(lxml.html.tostring(doc))
    for element in copy.iter(*_INVISIBLE):
        element.text = ""
    return str(copy.text_content())


def _parse(page: Page, *, undeclare: bool = True) -> Any:
    text = decode_html(page.html).text
    text = re.sub(r"^\s*<\?xml[^>]*>", "", text)
    doc: Any = lxml.html.document_fromstring(text)
    for meta in doc.xpath("//meta[@charset]"):
        meta.drop_tree()
    for meta in doc.xpath("//meta[@http-equiv]"):
        if str(meta.get("http-equiv", "")).lower() == "content-type":
            meta.drop_tree()
    if undeclare:
        for script in doc.xpath("//script[contains(@type, 'ld+json')]"):
            script.drop_tree()
        for meta in doc.xpath("//meta[@property='og:type' or @name='og:type']"):
            meta.drop_tree()
    return doc


def _remove_article_text(
    element: Any, truth: str, truth_shingles: set[tuple[str, ...]] | None = None
) -> None:
    """Drop every element whose text is the article's: found verbatim in the truth, or, for
    a paragraph-level element (one with a footnote mark or a word the truth writes
    differently), with most of its 4-word shingles in it. Without the second test the
    generator dropped only the links inside such paragraphs and left the article standing,
    full of holes."""
    if truth_shingles is None:
        truth_shingles = _shingles(truth)
    for child in list(element):
        if not isinstance(child.tag, str):
            continue
        if child.tag in ("head", *_INVISIBLE):
            continue
        text = _norm(child.text_content())
        fuzzy = child.tag in _TEXT_BLOCKS and _mostly_in(text, truth_shingles)
        if len(text) >= MIN_REMOVED_TEXT and (text in truth or fuzzy):
            child.drop_tree()
        else:
            _remove_article_text(child, truth, truth_shingles)


def _mostly_in(text: str, truth_shingles: set[tuple[str, ...]]) -> bool:
    shingles = _shingles(text)
    if len(shingles) < MIN_FUZZY_SHINGLES:
        return False
    return len(shingles & truth_shingles) >= MIN_SHINGLE_CONTAINMENT * len(shingles)


def _serialise(doc: Any) -> bytes:
    html: bytes = lxml.html.tostring(
        doc, encoding="utf-8", method="html", doctype="<!DOCTYPE html>"
    )
    return html


@dataclass(frozen=True, slots=True)
class Structural:
    #: The page without its article text, None when the removal failed.
    gutted: bytes | None
    #: Share of the true body's 4-gram shingles still visible in `gutted`.
    remaining: float
    #: Same parse, JSON-LD/og:type removal and serialisation, article text kept.
    control: bytes
    #: Parse and serialisation only (the declarations kept too).
    serialised: bytes


def structural(page: Page) -> Structural | None:
    """The structural negative and its controls for a page with a body truth."""
    if not page.body:
        return None
    try:
        gutted, control, serialised = _parse(page), _parse(page), _parse(page, undeclare=False)
    except (ValueError, etree.ParserError):
        return None
    truth = _norm(page.body)
    _remove_article_text(gutted, truth)
    truth_shingles = _shingles(page.body)
    if not truth_shingles:
        return None
    remaining = len(_shingles(_visible_text(gutted)) & truth_shingles) / len(truth_shingles)
    return Structural(
        _serialise(gutted) if remaining < MAX_REMAINING_SHARE else None,
        remaining,
        _serialise(control),
        _serialise(serialised),
    )


def load_samples(root: Path, per_language: int) -> tuple[list[Sample], Counter[str]]:
    samples: list[Sample] = []
    failed: Counter[str] = Counter()
    for corpus in available_corpora(root):
        for page in load_corpus(corpus, root):
            url = _url(page)
            if _corpus_non_article(page):
                samples.append(
                    Sample(
                        NEGATIVE, "corpus_labelled", corpus, page.id, url, "text/html", page.html
                    )
                )
                continue
            samples.append(
                Sample(
                    POSITIVE, "corpus", corpus, page.id, url, "text/html", page.html,
                    lang=page.lang or "?",
                    group=page.group or "",
                )
            )  # fmt: skip
            if page.body is None or not page.body.strip():
                continue
            made = structural(page)
            if made is None:
                continue
            utf8 = "text/html; charset=utf-8"
            samples.append(
                Sample(POSITIVE, "structural_control", corpus, page.id, url, utf8, made.control)
            )
            samples.append(
                Sample(POSITIVE, "serialised_control", corpus, page.id, url, utf8, made.serialised)
            )
            if made.gutted is None:
                failed[corpus] += 1
                continue
            negative = Sample(NEGATIVE, "structural", corpus, page.id, url, utf8, made.gutted)
            negative.remaining = made.remaining
            negative.lang = page.lang or "?"
            samples.append(negative)
    for neg in generate(per_language=per_language):
        page_id = f"{neg.kind}/{neg.lang}/{neg.style}/{neg.url.rsplit('/', 1)[-1]}"
        samples.append(
            Sample(NEGATIVE, "generated", neg.kind, page_id, neg.url, neg.content_type, neg.body)
        )
    return samples, failed


# --- judging ----------------------------------------------------------------------------------


class _Stats:
    def inc_value(self, key: str, count: int = 1, start: int = 0) -> None:
        pass


def _middleware(settings: dict[str, Any] | None = None) -> Any:
    from scrapy.settings import Settings

    from newsspider.middlewares import ContentFilterMiddleware

    crawler = SimpleNamespace(settings=Settings(settings or {}), stats=_Stats(), spider=None)
    return ContentFilterMiddleware(crawler)


def _response(sample: Sample) -> Any:
    from scrapy.http import Headers, Request
    from scrapy.responsetypes import responsetypes

    request = Request(sample.url, meta={"newsspider_judge": True})
    headers = Headers({"Content-Type": sample.content_type})
    cls = responsetypes.from_args(headers=headers, url=sample.url, body=sample.body)
    return cls(
        url=sample.url, status=200, headers=headers, body=sample.body, request=request
    ), request


def judge_all(
    samples: list[Sample], *, extract_too: bool = True, settings: dict[str, Any] | None = None
) -> None:
    """Every sample through the real middleware (awaited on an asyncio loop, as in a crawl);
    with `extract_too`, also what the pipeline would do with it: the filter's own extraction
    when it made one (the pipeline reuses it), else a fresh `extract`."""
    asyncio.run(_judge_all(samples, extract_too, settings))


async def _judge_all(
    samples: list[Sample], extract_too: bool, settings: dict[str, Any] | None
) -> None:
    from newsspider.extraction.api import extract
    from newsspider.items import PageItem
    from newsspider.middlewares import PageDropped
    from newsspider.workers.extraction_runner import ExtractionRunner

    middleware = _middleware(settings)
    for sample in samples:
        response, request = _response(sample)
        article = None
        try:
            await middleware.process_response(request, response)
            verdict = request.meta.get("newsspider_verdict", {})
            sample.presence = verdict.get("presence")
        except PageDropped as dropped:
            sample.dropped, sample.reason = True, dropped.reason
            sample.presence, article = dropped.presence, dropped.article
        item = PageItem.from_response(response)
        if middleware.min_presence > 0 and not sample.dropped:
            runner = ExtractionRunner.for_crawler(middleware.crawler)
            article = runner.prepared.take(item.body, item.url, item.encoding, item.hints)
        if article is None and (extract_too or sample.dropped):
            article = extract(item.body, item.url, item.encoding)
        if article is not None:
            sample.pipeline_keeps = article.confidence >= MIN_CONFIDENCE
            sample.page_type = article.page_type
            sample.article_probability = article.article_probability
    middleware._close_runner()


# --- timing -----------------------------------------------------------------------------------


def time_all(samples: list[Sample], repeat: int, settings: dict[str, Any] | None = None) -> None:
    """Best of `repeat` per page, per method, methods interleaved page by page."""
    asyncio.run(_time_all(samples, repeat, settings))


async def _time_all(samples: list[Sample], repeat: int, settings: dict[str, Any] | None) -> None:
    from newsspider.extraction.api import extract
    from newsspider.extraction.classify.content_score import score_page
    from newsspider.items import PageItem
    from newsspider.middlewares import PageDropped
    from newsspider.workers.extraction_runner import ExtractionRunner

    middleware = _middleware(settings)
    runner = ExtractionRunner.for_crawler(middleware.crawler)
    prepared = []
    for sample in samples:
        response, _ = _response(sample)
        encoding = getattr(response, "encoding", None)
        item = PageItem.from_response(response)
        prepared.append((sample, encoding, item))

    async def run_middleware(sample: Sample) -> None:
        response, request = _response(sample)  # fresh: encoding resolution is part of the cost
        with contextlib.suppress(PageDropped):
            await middleware.process_response(request, response)
        runner.prepared.clear()

    async def run_sync(function: Callable[[], object]) -> None:
        function()

    methods: dict[str, Callable[[Sample, str | None, Any], Any]] = {
        "score_page": lambda s, enc, item: run_sync(
            lambda: score_page(s.body, s.content_type, enc)
        ),
        "middleware": lambda s, enc, item: run_middleware(s),
        "extract": lambda s, enc, item: run_sync(
            lambda: extract(item.body, item.url, item.encoding)
        ),
        "lxml": lambda s, enc, item: run_sync(
            lambda: lxml.html.fromstring(s.body) if s.body.strip() else None
        ),
    }
    for sample, encoding, item in prepared[:5]:  # warm-up
        for method in methods.values():
            with contextlib.suppress(ValueError, etree.ParserError):
                await method(sample, encoding, item)
    for _ in range(repeat):
        for sample, encoding, item in prepared:
            for name, method in methods.items():
                # CPU time of the whole process (all threads): the middleware's work runs on
                # an extraction thread, and on a loaded machine wall time mostly measures
                # waiting for a core.
                start = time.process_time()
                with contextlib.suppress(ValueError, etree.ParserError):  # lxml on non-HTML
                    await method(sample, encoding, item)
                elapsed = time.process_time() - start
                sample.times[name] = min(sample.times.get(name, math.inf), elapsed)
    middleware._close_runner()


# --- report -----------------------------------------------------------------------------------


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "–"


def _reasons(samples: Iterable[Sample]) -> str:
    counts = Counter(s.reason for s in samples if s.dropped)
    return ", ".join(f"{reason} {n}" for reason, n in counts.most_common()) or "–"


def _prf(samples: list[Sample]) -> tuple[int, int, int, str, str]:
    tp = sum(1 for s in samples if s.label == NEGATIVE and s.dropped)
    fp = sum(1 for s in samples if s.label == POSITIVE and s.dropped)
    fn = sum(1 for s in samples if s.label == NEGATIVE and not s.dropped)
    return tp, fp, fn, _pct(tp, tp + fp), _pct(tp, tp + fn)


def report(samples: list[Sample], failed: Counter[str]) -> list[str]:
    out: list[str] = []
    articles = [s for s in samples if s.label == POSITIVE and s.source == "corpus"]
    controls = [s for s in samples if s.source == "structural_control"]
    negatives = [s for s in samples if s.label == NEGATIVE]

    out += ["### Precision and recall of “dropped”", ""]
    out += ["| non-articles | articles | n neg / n art | TP | FP | FN | precision | recall |"]
    out += ["|---|---|---|---|---|---|---|---|"]
    groups = [
        ("all three sources", negatives),
        ("generated", [s for s in negatives if s.source == "generated"]),
        ("structural", [s for s in negatives if s.source == "structural"]),
        ("corpus_labelled", [s for s in negatives if s.source == "corpus_labelled"]),
    ]
    for name, negs in groups:
        tp, fp, fn, precision, recall = _prf([*negs, *articles])
        row = f"| {name} | corpus pages | {len(negs)} / {len(articles)} | {tp} | {fp} | {fn}"
        out.append(f"{row} | {precision} | {recall} |")
    no_htmldate = [s for s in articles if s.kind != "htmldate_eval"]
    tp, fp, fn, precision, recall = _prf([*negatives, *no_htmldate])
    out.append(
        f"| all three sources | corpus pages without htmldate_eval | {len(negatives)} / "
        f"{len(no_htmldate)} | {tp} | {fp} | {fn} | {precision} | {recall} |"
    )
    structural = [s for s in negatives if s.source == "structural"]
    tp, fp, fn, precision, recall = _prf([*structural, *controls])
    out.append(
        f"| structural | their controls | {len(structural)} / {len(controls)} | {tp} | {fp} | "
        f"{fn} | {precision} | {recall} |"
    )
    out.append("")

    out += ["### Articles (should be kept): drops per corpus", ""]
    out += [
        "| corpus | pages | dropped | drop rate | reasons | of the dropped, pipeline would keep |"
    ]
    out += ["|---|---|---|---|---|---|"]
    by_corpus: dict[str, list[Sample]] = defaultdict(list)
    for s in articles:
        by_corpus[s.kind].append(s)
    for s in controls:
        by_corpus[f"{s.kind} (control: declarations removed)"].append(s)
    for s in samples:
        if s.source == "serialised_control":
            by_corpus[f"{s.kind} (control: serialised only)"].append(s)
    for corpus, group in by_corpus.items():
        dropped = [s for s in group if s.dropped]
        rescued = sum(1 for s in dropped if s.pipeline_keeps)
        out.append(
            f"| {corpus} | {len(group)} | {len(dropped)} | {_pct(len(dropped), len(group))} | "
            f"{_reasons(group)} | {rescued} |"
        )
    out.append("")

    out += ["### Non-articles (should be dropped): recall per kind", ""]
    out += [
        "| source | kind | pages | dropped | recall | reasons | kept by filter, pipeline keeps |"
    ]
    out += ["|---|---|---|---|---|---|---|"]
    by_kind: dict[tuple[str, str], list[Sample]] = defaultdict(list)
    for s in negatives:
        by_kind[(s.source, s.kind)].append(s)
    for (source, kind), group in by_kind.items():
        dropped = [s for s in group if s.dropped]
        leaked = sum(1 for s in group if not s.dropped and s.pipeline_keeps)
        out.append(
            f"| {source} | {kind} | {len(group)} | {len(dropped)} | "
            f"{_pct(len(dropped), len(group))} | {_reasons(group)} | {leaked} |"
        )
    out.append("")
    bins = [(0.0, 0.01), (0.01, 0.05), (0.05, MAX_REMAINING_SHARE)]
    parts = []
    for low, high in bins:
        group = [s for s in structural if low <= s.remaining < high]
        parts.append(
            f"{100 * low:g}–{100 * high:g}% of the body left: {len(group)} pages, recall "
            f"{_pct(sum(s.dropped for s in group), len(group))}"
        )
    out += ["Structural negatives by the share of the true body still visible: " + "; ".join(parts)]
    out.append("")
    if failed:
        made = Counter(s.kind for s in structural)
        out.append(
            "Structural negatives not made (>= 20% of the body left after removal): "
            + ", ".join(f"{c} {failed[c]} (made {made[c]})" for c in sorted(failed))
        )
        out.append("")

    styles: Counter[str] = Counter()
    styles_dropped: Counter[str] = Counter()
    for s in negatives:
        if s.source == "generated" and "/" in s.id:
            style = s.id.split("/")[2]
            styles[style] += 1
            styles_dropped[style] += s.dropped
    if styles:
        out.append(
            "Generated, recall per markup style: "
            + ", ".join(f"{k} {_pct(styles_dropped[k], n)}" for k, n in styles.items())
        )
        langs: Counter[str] = Counter()
        langs_dropped: Counter[str] = Counter()
        for s in negatives:
            if s.source == "generated":
                lang = s.id.split("/")[1]
                langs[lang] += 1
                langs_dropped[lang] += s.dropped
        out.append(
            "Generated, recall per language: "
            + ", ".join(f"{k} {_pct(langs_dropped[k], n)}" for k, n in langs.items())
        )
        out.append("")

    wrong = [s for s in articles if s.dropped]
    if wrong:
        out += ["### Every dropped article page", ""]
        kept = f"pipeline confidence ≥ {MIN_CONFIDENCE}"
        out += [f"| corpus | id | reason | {kept} | page_type | url |"]
        out += ["|---|---|---|---|---|---|"]
        for s in wrong:
            out.append(
                f"| {s.kind} | {s.id[:24]} | {s.reason} | {'yes' if s.pipeline_keeps else 'no'} "
                f"| {s.page_type} | {s.url[:70]} |"
            )
        out.append("")
    return out


def language_report(samples: list[Sample]) -> list[str]:
    """Corpus articles dropped, per language, and recall on their article-removed pages."""
    kept: Counter[str] = Counter()
    dropped: Counter[str] = Counter()
    reasons: dict[str, Counter[str]] = defaultdict(Counter)
    gutted: Counter[str] = Counter()
    caught: Counter[str] = Counter()
    others = [s for s in samples if s.source == "corpus" and s.group == OTHER_GROUP]
    for s in samples:
        if s.source == "corpus" and s.group == OTHER_GROUP:
            continue  # product, listing, documentation pages: not articles
        if s.source == "corpus":
            kept[s.lang] += 1
            dropped[s.lang] += s.dropped
            if s.dropped:
                reasons[s.lang][s.reason or "?"] += 1
        elif s.source == "structural":
            gutted[s.lang] += 1
            caught[s.lang] += s.dropped
    lines = [
        "| language | articles | dropped | share | reasons | article-removed | recall |",
        "|---|---|---|---|---|---|---|",
    ]
    for lang, count in kept.most_common():
        why = ", ".join(f"{r} {n}" for r, n in reasons[lang].most_common())
        lines.append(
            f"| {lang} | {count} | {dropped[lang]} | {_pct(dropped[lang], count)} | {why} "
            f"| {gutted[lang]} | {_pct(caught[lang], gutted[lang])} |"
        )
    total, total_dropped = sum(kept.values()), sum(dropped.values())
    total_gutted, total_caught = sum(gutted.values()), sum(caught.values())
    lines.append(
        f"| all | {total} | {total_dropped} | {_pct(total_dropped, total)} | "
        f"| {total_gutted} | {_pct(total_caught, total_gutted)} |"
    )
    dropped_others = sum(s.dropped for s in others)
    lines.append("")
    lines.append(
        f"Not counted above: wceb2026_llm_dev's {OTHER_GROUP} pages (product, listing, "
        f"documentation...), {dropped_others} of {len(others)} dropped "
        f"({_reasons(s for s in others if s.dropped)})."
    )
    return lines


#: Drop reasons the filter gives for a page below the presence threshold (`page_judgement`).
PRESENCE_REASONS = frozenset({"listing", "no_article"})
#: The rule that sets ``NEWSSPIDER_CONTENT_FILTER_MIN_PRESENCE``, fixed before measuring: the
#: highest threshold on a 0.01 grid at which the presence test drops at most this share of the
#: development articles (the drops the presence setting does not control, pages without text or
#: typed error/login, are not in this budget: they fall whatever the threshold).
PRESENCE_BUDGET = 0.005
_GRID = [round(0.01 * i, 2) for i in range(61)]


def _development_articles(samples: list[Sample]) -> list[Sample]:
    return [s for s in samples if s.source == "corpus" and s.group != OTHER_GROUP]


def dropped_at(sample: Sample, threshold: float) -> bool:
    """Whether the filter drops `sample` with the presence threshold set to `threshold` (the
    other decisions do not depend on it)."""
    from newsspider.extraction.page_judgement import NON_ARTICLE_TYPES

    if sample.dropped and (
        sample.reason not in PRESENCE_REASONS
        or sample.page_type in NON_ARTICLE_TYPES
        or sample.presence == 0.0  # no article-like body at all (`keep_or_drop`)
    ):
        return True  # the text statistics' certain cases, the page type, no body
    return sample.presence is not None and sample.presence < threshold


def choose_min_presence(samples: list[Sample]) -> float:
    articles = _development_articles(samples)
    allowed = PRESENCE_BUDGET * len(articles)
    chosen = 0.0
    for threshold in _GRID:
        lost = sum(
            1
            for s in articles
            if dropped_at(s, threshold) and not dropped_at(s, 0.0)  # lost to presence alone
        )
        if lost <= allowed:
            chosen = threshold
    return chosen


def loco_threshold_report(samples: list[Sample]) -> list[str]:
    """The presence threshold's rule (`choose_min_presence`) applied leave one corpus out: the
    threshold it gives on the other corpora, and what that threshold does to the held-out
    corpus's articles and article-removed pages."""
    articles = _development_articles(samples)
    corpora = sorted({s.kind for s in articles})
    out = [
        "The presence threshold's rule, leave one corpus out (the threshold chosen on the other "
        "corpora, judged on the held-out one):",
        "",
        "| held out | threshold | articles | dropped | of them by presence | article-removed "
        "| recall |",
        "|---|---|---|---|---|---|---|",
    ]
    totals = [0, 0, 0, 0, 0]
    for corpus in corpora:
        threshold = choose_min_presence([s for s in samples if s.kind != corpus])
        held = [s for s in articles if s.kind == corpus]
        gutted = [s for s in samples if s.source == "structural" and s.kind == corpus]
        dropped = sum(dropped_at(s, threshold) for s in held)
        by_presence = sum(dropped_at(s, threshold) and not dropped_at(s, 0.0) for s in held)
        caught = sum(dropped_at(s, threshold) for s in gutted)
        for i, n in enumerate((len(held), dropped, by_presence, len(gutted), caught)):
            totals[i] += n
        out.append(
            f"| {corpus} | {threshold:g} | {len(held)} | {dropped} ({_pct(dropped, len(held))}) "
            f"| {by_presence} | {len(gutted)} | {caught} ({_pct(caught, len(gutted))}) |"
        )
    n, dropped, by_presence, gutted_n, caught = totals
    out.append(
        f"| all | | {n} | {dropped} ({_pct(dropped, n)}) | {by_presence} | {gutted_n} "
        f"| {caught} ({_pct(caught, gutted_n)}) |"
    )
    out.append("")
    return out


def dropped_articles_report(samples: list[Sample]) -> list[str]:
    """Every development article the filter drops, with the numbers that decided it."""
    out = [
        "Every development article dropped (presence: P(article present); P(article): the "
        "learned page type's):",
        "",
        "| corpus | id | language | reason | page type | presence | P(article) | pipeline "
        f"keeps (confidence ≥ {MIN_CONFIDENCE}) | url |",
        "|---|---|---|---|---|---|---|---|---|",
    ]

    def num(value: float | None) -> str:
        return "–" if value is None else f"{value:.3f}"

    for s in sorted(
        (s for s in _development_articles(samples) if s.dropped),
        key=lambda s: (s.reason == "page_type", s.reason or "", s.kind, s.id),
    ):
        out.append(
            f"| {s.kind} | {s.id[:24]} | {s.lang} | {s.reason} | {s.page_type or '–'} "
            f"| {num(s.presence)} | {num(s.article_probability)} "
            f"| {'yes' if s.pipeline_keeps else 'no'} | {s.url[:80]} |"
        )
    out.append("")
    return out


def threshold_report(samples: list[Sample], current: float) -> list[str]:
    """Articles dropped, the worst language, recall, at several presence thresholds."""
    articles = _development_articles(samples)
    gutted = [s for s in samples if s.source == "structural"]
    generated = [s for s in samples if s.source == "generated"]
    langs = Counter(s.lang for s in articles)
    big = [lang for lang, n in langs.items() if n >= 20]
    chosen = choose_min_presence(samples)
    out = [
        f"Presence threshold (current setting {current}; the rule, ≤ {100 * PRESENCE_BUDGET:g}% "
        f"of development articles lost to the presence test, gives **{chosen}**):",
        "",
        "| min P(present) | articles dropped | of them by presence | worst language (≥ 20 "
        "articles) | article-removed recall | generated non-articles recall |",
        "|---|---|---|---|---|---|",
    ]
    for threshold in sorted({0.0, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5, current, chosen}):
        dropped = [s for s in articles if dropped_at(s, threshold)]
        by_presence = sum(1 for s in dropped if not dropped_at(s, 0.0))
        worst = max(
            big,
            key=lambda lang: (
                sum(dropped_at(s, threshold) for s in articles if s.lang == lang) / langs[lang]
            ),
        )
        worst_n = sum(dropped_at(s, threshold) for s in articles if s.lang == worst)
        caught = sum(dropped_at(s, threshold) for s in gutted)
        caught_gen = sum(dropped_at(s, threshold) for s in generated)
        out.append(
            f"| {threshold:g} | {len(dropped)} of {len(articles)} "
            f"({_pct(len(dropped), len(articles))}) | {by_presence} | {worst} {worst_n} of "
            f"{langs[worst]} ({_pct(worst_n, langs[worst])}) | {caught} of {len(gutted)} "
            f"({_pct(caught, len(gutted))}) | {caught_gen} of {len(generated)} "
            f"({_pct(caught_gen, len(generated))}) |"
        )
    out.append("")
    return out


def agreement_report(samples: list[Sample]) -> list[str]:
    """Do the filter and the extractor's page type agree? Per judged page: the filter's
    decision against the page type and the pipeline's own decision (confidence)."""
    judged = [s for s in samples if s.page_type]
    out = [
        "Filter decision against the extractor's page type (all pages, articles and not):",
        "",
        f"| filter | pages | page types | pipeline would keep (confidence ≥ {MIN_CONFIDENCE}) |",
        "|---|---|---|---|",
    ]
    for name, group in (
        ("dropped by the text statistics", [s for s in judged if s.dropped and s.presence is None]),
        ("dropped after extraction", [s for s in judged if s.dropped and s.presence is not None]),
        ("kept", [s for s in judged if not s.dropped]),
    ):
        types = Counter(s.page_type for s in group)
        keeps = sum(s.pipeline_keeps for s in group)
        out.append(
            f"| {name} | {len(group)} | "
            + ", ".join(f"{t} {n}" for t, n in types.most_common())
            + f" | {keeps} |"
        )
    articles = _development_articles(samples)
    lost = [s for s in articles if s.dropped and s.pipeline_keeps]
    out += [
        "",
        f"Development articles dropped that the pipeline would have kept: {len(lost)} of "
        f"{len(articles)} ({_pct(len(lost), len(articles))})"
        + "".join(f"; {s.kind}/{s.id[:20]} ({s.lang}, {s.reason})" for s in lost[:12]),
        "",
    ]
    generated = [s for s in samples if s.source == "generated"]
    kinds: dict[str, list[Sample]] = defaultdict(list)
    for s in generated:
        kinds[s.kind].append(s)
    out.append(
        f"Generated non-articles dropped: {sum(s.dropped for s in generated)} of "
        f"{len(generated)}; per kind: "
        + ", ".join(f"{k} {sum(s.dropped for s in g)}/{len(g)}" for k, g in kinds.items())
    )
    out.append("")
    return out


def cost_report(samples: list[Sample], repeat: int) -> list[str]:
    out = [f"### Cost per page (CPU time of the process, best of {repeat} per page)", ""]
    out += ["| pages | n | score_page µs (median) | middleware µs (median) | extract µs (median) "]
    out[-1] += "| lxml µs (median) | Σ score_page / Σ extract | Σ middleware / Σ extract "
    out[-1] += "| Σ score_page / Σ lxml | median per-page score_page/extract |"
    out += ["|---|---|---|---|---|---|---|---|---|---|"]
    sets = [
        ("articles (corpus pages)", [s for s in samples if s.source == "corpus"]),
        ("generated non-articles", [s for s in samples if s.source == "generated"]),
        ("structural non-articles", [s for s in samples if s.source == "structural"]),
    ]
    for name, every in sets:
        group = [s for s in every if s.times]
        if not group:
            continue

        def med(key: str, group: list[Sample] = group) -> float:
            return statistics.median(s.times[key] for s in group) * 1e6

        def total(key: str, group: list[Sample] = group) -> float:
            return sum(s.times[key] for s in group)

        per_page = statistics.median(
            s.times["score_page"] / s.times["extract"] for s in group if s.times["extract"] > 0
        )
        out.append(
            f"| {name} | {len(group)} | {med('score_page'):.0f} | {med('middleware'):.0f} | "
            f"{med('extract'):.0f} | {med('lxml'):.0f} | "
            f"{total('score_page') / total('extract'):.3f} | "
            f"{total('middleware') / total('extract'):.3f} | "
            f"{total('score_page') / total('lxml'):.2f} | {per_page:.3f} |"
        )
    out.append("")
    return out


def write_json(samples: list[Sample], path: Path) -> None:
    records = [
        {
            "label": s.label,
            "source": s.source,
            "kind": s.kind,
            "id": s.id,
            "url": s.url,
            "lang": s.lang,
            "dropped": s.dropped,
            "reason": s.reason,
            "presence": s.presence,
            "article_probability": s.article_probability,
            "group": s.group,
            "pipeline_keeps": s.pipeline_keeps,
            "page_type": s.page_type,
        }
        for s in samples
    ]
    path.write_text(json.dumps(records, ensure_ascii=False, indent=1))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpora", help="corpora folder (default ../shared/corpora)")
    parser.add_argument("--per-language", type=int, default=4, help="generated pages per kind")
    parser.add_argument("--repeat", type=int, default=3, help="timing: best of N (0: no timing)")
    parser.add_argument("--json", help="write per-page verdicts here")
    parser.add_argument(
        "--filter-only",
        action="store_true",
        help="judge with the filter only (no extraction, no timing): drops by language",
    )
    args = parser.parse_args(argv)

    root = corpora_root(args.corpora)
    print(f"loading pages from {root} ...", file=sys.stderr)
    samples, failed = load_samples(root, args.per_language)
    print(f"judging {len(samples)} pages ...", file=sys.stderr)
    judge_all(samples, extract_too=not args.filter_only)
    lines = [f"Measured {datetime.now(UTC):%Y-%m-%d}, `python -m bench.filter.middleware_eval`", ""]
    if args.json:
        write_json(samples, Path(args.json))
    if args.filter_only:
        min_presence = float(_middleware().min_presence)
        lines += [*language_report(samples), "", *threshold_report(samples, min_presence)]
        lines += loco_threshold_report(samples)
        lines += dropped_articles_report(samples)
        lines += agreement_report(samples)
        if args.repeat > 0:
            print(f"timing (best of {args.repeat}) ...", file=sys.stderr)
            time_all(
                [s for s in samples if s.source in ("corpus", "generated", "structural")],
                args.repeat,
            )
            lines += cost_report(samples, args.repeat)
        print("\n".join(lines))
        return 0
    lines += report(samples, failed)
    if args.repeat > 0:
        print(f"timing (best of {args.repeat}) ...", file=sys.stderr)
        time_all(
            [s for s in samples if s.source in ("corpus", "generated", "structural")], args.repeat
        )
        lines += cost_report(samples, args.repeat)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
