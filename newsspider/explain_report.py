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
"""


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


def _block_html(block: BlockExplanation) -> str:
    kind = "body" if block.in_body else "dropped"
    style = "" if block.in_body else f' style="{_shade(block)}"'
    meta = (
        f"#{block.index} &lt;{escape(block.tag)}&gt; {escape(block.path)} · value {block.value:g}"
        f" · {block.chars} chars · links {block.link_density:.0%}"
    )
    reason = f'<span class="reason">{escape(block.reason)}</span>' if block.reason else ""
    detail = f'<div class="detail">{escape(block.detail)}</div>' if block.detail else ""
    return (
        f'<div class="block {kind}"{style}><div class="meta">{meta}{reason}</div>{detail}'
        f'<div class="text">{escape(block.text)}</div></div>'
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
    rows = [
        [
            f"<td>{escape(f.name)}</td>",
            f'<td class="num">{f.value:g}</td>',
            f'<td class="num">{f.presence:+.2f} {_bar(f.presence)}</td>',
            f'<td class="num">{f.quality:+.2f} {_bar(f.quality)}</td>',
        ]
        for f in c.features
        if f.presence or f.quality
    ]
    capped = " (capped: the page type says it is not an article)" if c.capped else ""
    return (
        f"<p>confidence <b>{c.confidence:.3f}</b> = P(article on page) {c.presence:.3f} × "
        f"P(this body is it) {c.quality:.3f}{capped}</p>"
        "<table><tr><th>feature</th><th>value</th><th>+ presence log-odds</th>"
        "<th>+ quality log-odds</th></tr>"
        f'<tr><td>intercept</td><td></td><td class="num">{c.presence_intercept:+.2f}</td>'
        f'<td class="num">{c.quality_intercept:+.2f}</td></tr>'
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


def render_report(
    article: Article, explanation: Explanation, *, min_confidence: float | None = None
) -> str:
    """The whole report as one HTML document; ``min_confidence``: the crawl's drop threshold
    (None: the setting's default)."""
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
    title = article.title or "(no title)"
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"<title>explain: {escape(title)}</title><style>{_CSS}</style></head><body>"
        f"<header><h1>{escape(title)}</h1>"
        f'<div class="url">{escape(explanation.url or "")}</div>'
        f'<div class="chips">{"".join(chips)}</div></header><main><div>'
        f"<section><h2>Text blocks in reading order</h2>{legend}"
        f"{''.join(map(_block_html, explanation.blocks))}{more}</section></div><div>"
        f"<section><h2>Container</h2>{_container_html(explanation)}</section>"
        f"<section><h2>Metadata sources</h2>{_metadata_html(explanation)}</section>"
        f"<section><h2>Confidence</h2>{_confidence_html(explanation)}</section>"
        f"<section><h2>Page type: {escape(explanation.page_type.page_type)}</h2>"
        f"{_mapping_html(explanation.page_type.probabilities)}"
        f"{_mapping_html(explanation.page_type.evidence)}</section>"
        f"<section><h2>Content filter</h2>{_content_filter_html(verdict)}</section>"
        "</div></main></body></html>"
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
