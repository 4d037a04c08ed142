"""The explain report: one self-contained HTML page drawing an `Explanation` (no scripts, no
network, inline CSS only), so it opens from disk and can be mailed or attached to a bug."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from datetime import datetime
from html import escape
from pathlib import Path
from typing import Any

from newsspider.extraction.article import Article
from newsspider.extraction.explain import BlockExplanation, Explanation, explain
from newsspider.settings_defaults import DEFAULTS, MIN_CONFIDENCE

#: At or above this confidence the header shows it as good (below: doubtful, or "bad" once it
#: is under the crawl's drop threshold, ``NEWSSPIDER_MIN_CONFIDENCE``).
GOOD_CONFIDENCE = 0.6

_CSS = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Noto Sans CJK SC",
sans-serif;margin:0;color:#1d232b;background:#f4f5f7}
header{background:#1d2b3a;color:#fff;padding:14px 22px}
header h1{font-size:19px;margin:0 0 4px}
header .url{color:#b8c7d8;font-size:12px;word-break:break-all}
.chips span{display:inline-block;margin:6px 6px 0 0;padding:2px 9px;border-radius:10px;
background:#33475c;font-size:12px}
.chips .good{background:#1f7a4d}.chips .bad{background:#a33a2f}.chips .mid{background:#9a6b12}
main{display:grid;grid-template-columns:minmax(0,3fr) minmax(300px,2fr);gap:18px;padding:18px 22px}
section{background:#fff;border-radius:8px;padding:12px 16px;margin-bottom:16px;
box-shadow:0 1px 2px rgba(0,0,0,.08)}
h2{font-size:15px;margin:0 0 8px}
.legend span{display:inline-block;padding:1px 8px;margin:0 6px 6px 0;border-radius:4px;
font-size:12px}
.block{margin:3px 0;padding:5px 9px;border-left:5px solid #c9ced6;border-radius:3px}
.block.body{background:#dff5e6;border-left-color:#1f9d55}
.block .meta{font:11px ui-monospace,Menlo,Consolas,monospace;color:#5b6573}
.block .reason{display:inline-block;margin-left:6px;padding:0 6px;border-radius:3px;
background:#fff3;border:1px solid #0002;color:#7a1f16;font-weight:600}
.block .detail{font-size:12px;color:#6b4b12}
.block .text{white-space:pre-wrap;word-break:break-word}
.block.dropped .text{color:#3c4450}
table{border-collapse:collapse;width:100%;font-size:12.5px}
td,th{padding:3px 6px;border-bottom:1px solid #e6e8eb;text-align:left;vertical-align:top}
th{color:#5b6573;font-weight:600}
td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.chosen{font-weight:600;color:#1f7a4d}
.lost{color:#7d8590}
.bar{display:inline-block;height:9px;border-radius:2px;vertical-align:middle}
.pos{background:#1f9d55}.neg{background:#c0392b}
code{font-size:12px;background:#eef0f3;padding:0 3px;border-radius:3px;word-break:break-all}
nav.jump{padding:6px 22px;background:#e9edf2;font-size:12.5px}
nav.jump a{margin-right:14px;color:#1d4f7a}
.answer{display:grid;grid-template-columns:minmax(0,3fr) minmax(260px,2fr);gap:14px}
.answer .runner{border-left:3px solid #d7dbe0;padding-left:12px}
.lead{font-size:13.5px;margin:0 0 8px}
.filter{margin:0 0 8px;font-size:12.5px}
.filter label{margin-right:8px;padding:1px 9px;border:1px solid #b8c2cc;border-radius:10px;
cursor:pointer}
#show-all:checked~.filter label[for=show-all],#show-body:checked~.filter label[for=show-body],
#show-near:checked~.filter label[for=show-near]{background:#1d2b3a;color:#fff}
#show-body:checked~.blocks .block:not(.body){display:none}
#show-near:checked~.blocks .block:not(.body):not(.near){display:none}
.filter-inputs{display:none}
.label-note{color:#5b6573;font-size:11.5px}
"""

#: What each confidence feature measures, in plain words (the table shows each one's value and
#: how much it adds to or takes from the two models' log-odds: a contribution, not a verdict).
FEATURE_LABELS: dict[str, str] = {
    "log_chars": "body length (log of its characters)",
    "paragraphs": "paragraphs of 80+ characters in the body (up to 12)",
    "punctuation_per_100": "punctuation marks per 100 body characters",
    "container_link_density": "share of the container's text inside links",
    "article_hint": "structured data or og:type says article (+1), says not (-1), silent (0)",
    "structured_body_agreement": "overlap with the page's own articleBody (-1 none .. +1 all)",
    "runner_up_ratio": "runner-up container's score / the chosen one's (near 1: a close call)",
    "log_skipped_inside": "blocks left out between the first and last body block (log)",
    "heading_share": "share of body blocks that are h2-h4 headings (teaser lists)",
    "tag_ratio_agreement": "overlap with the text-dense lines a second method finds",
    "short_line_share": "share of body lines under 40 characters",
    "date_line_share": "share of body lines that are short and date-like",
    "cell_share": "share of body text in table cells and list items",
    "boxed_share": "share of body text in boxes and asides kept inside the container",
    "page_type_listing": "the page looks like a listing (1) or not (0)",
    "page_type_other": "the page looks like neither article nor listing (1) or not (0)",
    "title_agreement": "title's words found in the body's opening (-1 none .. +1 all)",
    "description_agreement": "meta description's words in the body's opening (-1 .. +1; 0 none)",
    "body_share": "body's share of the page's text outside links",
    "committee_agreement": "mean agreement (shingle F1) of the seed methods' bodies with this one",
    "agreement_gne": "agreement (shingle F1) of the gne method's body with this one",
    "agreement_max_subsequence": "agreement (shingle F1) of the max-subsequence body with this one",
    "body_link_share": "share of the body's characters inside links",
    "declared_container": "the body sits in <article>, <main> or articleBody (1) or not (0)",
    "body_position": "where the body starts on the page (0 top .. 1 bottom)",
    "log_segments": "number of body text blocks (log)",
    "short_body": "how far the body is under ~500 characters (0: not short)",
}
#: A block left out whose value is at least this share of the best body block's reads like
#: prose: a near miss, shown beside the body and kept by the "body and near misses" filter.
NEAR_MISS_SHARE = 0.25
#: Near misses listed beside the body at the top of the report.
NEAR_MISSES_SHOWN = 5


def _shade(block: BlockExplanation) -> str:
    """A dropped block's background by its value: red for furniture-like, amber for prose-like
    text that was still left out (the blocks worth a second look)."""
    value = block.value
    if value < 0:
        strength = min(-value / 200.0, 1.0)
        light, edge = 96 - 14 * strength, 70 - 20 * strength
        return f"background:hsl(4,70%,{light:.0f}%);border-left-color:hsl(4,60%,{edge:.0f}%)"
    if value > 0:
        strength = min(value / 200.0, 1.0)
        light, edge = 95 - 15 * strength, 65 - 15 * strength
        return f"background:hsl(42,90%,{light:.0f}%);border-left-color:hsl(38,85%,{edge:.0f}%)"
    return "background:#eef0f3"


def near_misses(explanation: Explanation) -> list[BlockExplanation]:
    """Blocks left out that read like prose (value at least `NEAR_MISS_SHARE` of the best body
    block's), best first: the ones worth a second look."""
    best = max((b.value for b in explanation.blocks if b.in_body), default=0.0)
    floor = max(best * NEAR_MISS_SHARE, 1e-9)
    misses = [b for b in explanation.blocks if not b.in_body and b.value >= floor]
    return sorted(misses, key=lambda b: -b.value)


def _block_html(block: BlockExplanation, near: frozenset[int] = frozenset()) -> str:
    kind = "body" if block.in_body else "dropped near" if block.index in near else "dropped"
    style = "" if block.in_body else f' style="{_shade(block)}"'
    meta = (
        f"#{block.index} &lt;{escape(block.tag)}&gt; {escape(block.path)} · value {block.value:g}"
        f" · {block.chars} chars · links {block.link_density:.0%}"
    )
    reason = f'<span class="reason">{escape(block.reason)}</span>' if block.reason else ""
    detail = f'<div class="detail">{escape(block.detail)}</div>' if block.detail else ""
    return (
        f'<div class="block {kind}" id="b{block.index}"{style}><div class="meta">{meta}{reason}'
        f'</div>{detail}<div class="text">{escape(block.text)}</div></div>'
    )


def _rows(rows: Iterable[Iterable[str]]) -> str:
    """Table rows from each row's ready-made cells (``<td>``/``<th>`` strings)."""
    return "".join("<tr>" + "".join(cells) + "</tr>" for cells in rows)


def _container_html(explanation: Explanation) -> str:
    c = explanation.container
    if c is None:
        return "<p>No container was chosen: the page had no text the scorer could use.</p>"
    ratio = c.runner_up_score / c.score if c.score > 0 else 0.0
    joined = ", ".join(f"<code>{escape(r)}</code>" for r in c.roots)
    roots = f"<tr><th>joined siblings</th><td>{joined}</td></tr>" if c.roots else ""
    runner = (
        f"<code>{escape(c.runner_up_path)}</code>"
        if c.runner_up_path
        else "none (nothing else scored above 0)"
    )
    return (
        "<table>"
        f"<tr><th>chosen ({escape(c.method)})</th><td><code>{escape(c.path)}</code></td>"
        f'<td class="num">{c.score:g}</td></tr>'
        f'<tr><th>runner-up</th><td>{runner}</td><td class="num">{c.runner_up_score:g}</td></tr>'
        f'<tr><th>runner-up / chosen</th><td></td><td class="num">{ratio:.2f}</td></tr>'
        f"{roots}</table>"
    )


def _metadata_html(explanation: Explanation) -> str:
    parts = []
    for source in explanation.metadata:
        value = escape(source.value) if source.value else "<i>none</i>"
        where = escape(source.source) if source.source else "—"
        candidates = "".join(
            f'<div class="{"chosen" if c.chosen else "lost"}">{"✔" if c.chosen else "✗"} '
            f"{escape(c.source)}: {escape(c.value[:160])}</div>"
            for c in source.candidates
        )
        parts.append(
            f"<tr><th>{escape(source.field)}</th><td><b>{value}</b><br>"
            f"<small>from: {where}</small>{candidates}</td></tr>"
        )
    return f"<table>{''.join(parts)}</table>" if parts else "<p>No metadata read.</p>"


def _bar(value: float) -> str:
    width = min(abs(value) * 30, 90)
    kind = "pos" if value >= 0 else "neg"
    return f'<span class="bar {kind}" style="width:{width:.0f}px"></span>'


def _confidence_html(explanation: Explanation) -> str:
    c = explanation.confidence
    if c is None:
        return "<p>No confidence computed (no body).</p>"
    features = sorted(
        (f for f in c.features if f.presence or f.quality),
        key=lambda f: -(abs(f.presence) + abs(f.quality)),
    )
    rows = [
        [
            f"<td>{escape(FEATURE_LABELS.get(f.name, f.name))}<br>"
            f'<span class="label-note"><code>{escape(f.name)}</code></span></td>',
            f'<td class="num">{f.value:g}</td>',
            f'<td class="num">{f.presence:+.2f} {_bar(f.presence)}</td>',
            f'<td class="num">{f.quality:+.2f} {_bar(f.quality)}</td>',
        ]
        for f in features
    ]
    capped = " (capped: the page type says it is not an article)" if c.capped else ""
    return (
        f"<p>confidence <b>{c.confidence:.3f}</b> = P(article on page) {c.presence:.3f} × "
        f"P(this body is it) {c.quality:.3f}{capped}</p>"
        '<p class="label-note">Each feature is a measure of the page (its value) and its '
        "contribution to each model's log-odds: positive raises the probability, negative "
        "lowers it. Largest contributions first.</p>"
        "<table><tr><th>feature: what it measures</th><th>value</th>"
        "<th>contribution to P(article on page)</th>"
        "<th>contribution to P(this body is it)</th></tr>"
        f'<tr><td>intercept</td><td></td><td class="num">{c.presence_intercept:+.2f}</td>'
        f'<td class="num">{c.quality_intercept:+.2f}</td></tr>'
        f"{_rows(rows)}</table>"
    )


def _committee_html(explanation: Explanation) -> str:
    """Each seed method's agreement with the body and its body's opening (folded)."""
    c = explanation.committee
    if c is None:
        return "<p>No committee (no body).</p>"
    use = (
        "the confidence reads it (the confidence without it was near the drop line)"
        if c.used
        else "shown only: the confidence without it was far from the drop line"
    )
    rows = [
        [
            f"<td>{escape(m.method)}</td>",
            f'<td class="num">{m.agreement:.3f} {_bar(m.agreement * 3)}</td>',
            f'<td class="num">{m.chars}</td>',
            "<td><details><summary>body</summary>"
            f'<div class="text">{escape(m.preview)}</div></details></td>'
            if m.chars
            else "<td><i>no body</i></td>",
        ]
        for m in c.members
    ]
    return (
        f"<p>mean agreement <b>{c.mean_agreement:.3f}</b> (shingle F1 with the body); {use}</p>"
        "<table><tr><th>method</th><th>agreement</th><th>chars</th><th>its body</th></tr>"
        f"{_rows(rows)}</table>"
    )


def _mapping_html(values: Mapping[str, Any]) -> str:
    rows = [
        [f"<th>{escape(str(k))}</th>", f'<td class="num">{escape(str(v))}</td>']
        for k, v in values.items()
    ]
    return f"<table>{_rows(rows)}</table>"


def _content_filter_html(verdict: Mapping[str, Any]) -> str:
    """The crawl filter's decision and P(article present) against its threshold, then the text
    statistics it settles the certain cases with."""
    decision = {k: v for k, v in verdict.items() if k != "text_statistics"}
    stats = verdict.get("text_statistics")
    more = (
        f"<h3>Text statistics (score_page)</h3>{_mapping_html(stats)}"
        if isinstance(stats, Mapping)
        else ""
    )
    return _mapping_html(decision) + more


def _chip(label: str, kind: str = "") -> str:
    return f'<span class="{kind}">{escape(label)}</span>'


def confidence_kind(confidence: float, min_confidence: float | None = None) -> str:
    """The header chip's colour: "bad" where the pipeline drops (or flags) the article, i.e.
    below ``min_confidence`` (default: the ``NEWSSPIDER_MIN_CONFIDENCE`` default)."""
    threshold = float(DEFAULTS[MIN_CONFIDENCE]) if min_confidence is None else min_confidence
    if confidence < threshold:
        return "bad"
    return "good" if confidence >= max(GOOD_CONFIDENCE, threshold) else "mid"


def _answer_html(article: Article, explanation: Explanation) -> str:
    """The top of the report: the body blocks the extractor chose, and beside them the
    runner-up container and the closest blocks it left out, each linking to its place below."""
    body = [b for b in explanation.blocks if b.in_body]
    chosen = "".join(_block_html(b) for b in body) or "<p>No block was chosen for the body.</p>"
    c = explanation.container
    if c is None:
        runner = "<p>No container: the page had no text the scorer could use.</p>"
    else:
        ratio = c.runner_up_score / c.score if c.score > 0 else 0.0
        closeness = "a close call" if ratio >= 0.8 else "a clear choice" if ratio < 0.5 else ""
        runner = (
            f"<p>chosen: <code>{escape(c.path)}</code> (score {c.score:g}, {escape(c.method)})"
            "<br>runner-up: "
            + (
                f"<code>{escape(c.runner_up_path)}</code> (score {c.runner_up_score:g}, "
                f"{ratio:.2f} of the chosen{', ' + closeness if closeness else ''})"
                if c.runner_up_path
                else "none (nothing else scored above 0)"
            )
            + "</p>"
        )
    misses = near_misses(explanation)[:NEAR_MISSES_SHOWN]
    near = (
        "<h3>Closest blocks left out</h3>"
        + "".join(
            f'<div class="lost"><a href="#b{b.index}">#{b.index}</a> value {b.value:g}'
            f" · {escape(b.reason or 'left out')}: {escape(' '.join(b.text.split())[:90])}</div>"
            for b in misses
        )
        if misses
        else "<p class='lead'>No block left out reads like prose.</p>"
    )
    where = f' (first at <a href="#b{body[0].index}">block #{body[0].index}</a>)' if body else ""
    return (
        f'<p class="lead">The body: {len(body)} of {len(explanation.blocks)} blocks{where}, '
        f"{len(article.body)} characters. Left out: every other block, with its reason, in "
        '<a href="#blocks">reading order</a>.</p>'
        f'<div class="answer"><div>{chosen}</div>'
        f'<div class="runner"><h3>Runner-up</h3>{runner}{near}</div></div>'
    )


def _blocks_html(explanation: Explanation) -> str:
    """Every block in reading order, with a filter (CSS only: the report has no scripts) to
    show only the body, or the body and its near misses."""
    near = frozenset(b.index for b in near_misses(explanation))
    reasons: dict[str, int] = {}
    for block in explanation.blocks:
        if block.reason:
            reasons[block.reason] = reasons.get(block.reason, 0) + 1
    legend = (
        '<div class="legend"><span style="background:#dff5e6;border-left:5px solid #1f9d55">'
        "body</span>"
        '<span style="background:hsl(42,90%,85%)">left out, reads like prose</span>'
        '<span style="background:hsl(4,70%,86%)">left out, furniture-like (negative value)</span>'
        + "".join(
            f"<span style='background:#eef0f3'>{escape(r)}: {n}</span>" for r, n in reasons.items()
        )
        + "</div>"
    )
    more = (
        f"<p>… and {explanation.blocks_left_out} more blocks not listed.</p>"
        if explanation.blocks_left_out
        else ""
    )
    blocks = "".join(_block_html(b, near) for b in explanation.blocks)
    return (
        '<input type="radio" name="show" id="show-all" class="filter-inputs" checked>'
        '<input type="radio" name="show" id="show-body" class="filter-inputs">'
        '<input type="radio" name="show" id="show-near" class="filter-inputs">'
        '<div class="filter">show: <label for="show-all">every block</label>'
        '<label for="show-body">the body only</label>'
        f'<label for="show-near">the body and near misses ({len(near)})</label></div>'
        f'{legend}<div class="blocks">{blocks}</div>{more}'
    )


#: A report section: (anchor id, heading, inner HTML). `render_report` lays them out and lists
#: them in the jump bar; a new section is one more entry (``extra_sections``).
Section = tuple[str, str, str]


def report_sections(article: Article, explanation: Explanation) -> list[Section]:
    """The sections after the answer and the blocks, in order."""
    verdict = explanation.content_filter
    return [
        ("container", "Container", _container_html(explanation)),
        ("metadata", "Metadata sources", _metadata_html(explanation)),
        ("confidence", "Confidence", _confidence_html(explanation)),
        ("committee", "Committee of seed methods", _committee_html(explanation)),
        (
            "page-type",
            f"Page type: {explanation.page_type.page_type}",
            _mapping_html(explanation.page_type.probabilities)
            + _mapping_html(explanation.page_type.evidence),
        ),
        ("content-filter", "Content filter", _content_filter_html(verdict)),
    ]


def render_report(
    article: Article,
    explanation: Explanation,
    *,
    min_confidence: float | None = None,
    extra_sections: Iterable[Section] = (),
) -> str:
    """The whole report as one HTML document; ``min_confidence``: the crawl's drop threshold
    (None: the setting's default); ``extra_sections`` go after the built-in ones."""
    verdict = explanation.content_filter
    in_body = sum(b.in_body for b in explanation.blocks)
    chips = [
        _chip(
            f"page type: {article.page_type}", "good" if article.page_type == "article" else "bad"
        ),
        _chip(
            f"confidence {article.confidence:.3f}",
            confidence_kind(article.confidence, min_confidence),
        ),
        _chip(
            "content filter: keep"
            if verdict.get("keep")
            else f"content filter: drop ({verdict.get('reason')})",
            "good" if verdict.get("keep") else "bad",
        ),
        _chip(f"{in_body} of {len(explanation.blocks)} blocks in the body"),
    ]
    chips += [_chip(f"warning: {w}", "mid") for w in explanation.warnings]
    sections = [*report_sections(article, explanation), *extra_sections]
    jump = "".join(
        f'<a href="#{anchor}">{escape(heading)}</a>'
        for anchor, heading in [("answer", "The body"), ("blocks", "All blocks")]
        + [(anchor, heading) for anchor, heading, _ in sections]
    )
    side = "".join(
        f'<section id="{escape(anchor)}"><h2>{escape(heading)}</h2>{html}</section>'
        for anchor, heading, html in sections
    )
    title = article.title or "(no title)"
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"<title>explain: {escape(title)}</title><style>{_CSS}</style></head><body>"
        f"<header><h1>{escape(title)}</h1>"
        f'<div class="url">{escape(explanation.url or "")}</div>'
        f'<div class="chips">{"".join(chips)}</div></header>'
        f'<nav class="jump">{jump}</nav>'
        f'<section id="answer" style="margin:18px 22px 0"><h2>The body the extractor chose</h2>'
        f"{_answer_html(article, explanation)}</section>"
        f'<main><div><section id="blocks"><h2>Every text block in reading order</h2>'
        f"{_blocks_html(explanation)}</section></div><div>{side}</div></main></body></html>"
    )


def report_name(url: str | None) -> str:
    """A report's file name: a hash of the URL, never page-controlled text in a path."""
    digest = hashlib.sha256((url or "").encode("utf-8", "surrogatepass")).hexdigest()[:16]
    return f"explain-{digest}.html"


def write_report(
    folder: Path,
    html: bytes,
    url: str | None,
    encoding: str | None = None,
    *,
    reference_time: datetime | None = None,
    hints: Mapping[str, Any] | None = None,
    min_confidence: float | None = None,
) -> Path:
    """Explain one page and write its report into `folder` (created if needed): CPU and disk
    work, for a worker thread, never the event loop."""
    article, explanation = explain(html, url, encoding, reference_time=reference_time, hints=hints)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / report_name(url)
    report = render_report(article, explanation, min_confidence=min_confidence)
    path.write_text(report, encoding="utf-8")
    return path
