"""Markdown tables and the JSON result file of a benchmark run."""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bench.accuracy.peers import Peer
    from bench.accuracy.run import CorpusRun, ExtractorResult

__all__ = ["corpus_section", "header", "overview_section", "to_json"]

DASH = "–"
BASELINE_LABEL = "lxml.html.fromstring (parse only)"
SITE_NAME_COLUMN = "title miss: site-name in truth"

LEGEND = (
    "F1/P/R: Zyte 4-gram shingle metric (see ../shared/corpora/README.md). "
    "title: equal after NFKC, casefold, whitespace and edge-punctuation normalisation; "
    "title≈: token F1 ≥ 0.9. title miss: site-name in truth: wrong titles whose truth is the "
    "prediction plus a separator and a short site name (a truth the headline rule forbids). "
    "date: first 10 characters equal the true YYYY-MM-DD (none = wrong). "
    "AUROC: confidence against page F1 ≥ 0.8. snippets (wceb2026_llm_dev): with = share of the "
    "truth's must-have snippets found, without = share of its must-not snippets absent (both "
    "word-boundary substring tests on case- and punctuation-blind text, averaged over pages), "
    "F1 of the two. × lxml, × trafilatura: total time relative to "
    "`lxml.html.fromstring` and to trafilatura on the same pages in this run (lower is faster). "
    "errors: pages where the extractor raised (scored as empty output). "
    f"{DASH}: no truth of that kind or the extractor does not produce it."
)


def _num(value: float | None, digits: int = 3) -> str:
    return DASH if value is None else f"{value:.{digits}f}"


def _speed(pages_per_s: float) -> str:
    return f"{pages_per_s:.0f}" if pages_per_s >= 100 else f"{pages_per_s:.1f}"


def _ratio(value: float | None) -> str:
    if value is None:
        return DASH
    return f"{value:.2f}" if value < 10 else f"{value:.1f}"


def _table(head: Sequence[str], rows: Sequence[Sequence[str]], left: int = 1) -> str:
    lines = [
        "| " + " | ".join(head) + " |",
        "|" + "|".join("---" if i < left else "---:" for i in range(len(head))) + "|",
    ]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def header(
    *,
    started: datetime,
    command: str,
    env: dict[str, Any],
    repeat: int,
    peers: Sequence[Peer],
    unavailable: Sequence[tuple[str, str]],
) -> str:
    lines = [
        "# newsspider benchmark",
        "",
        f"- date: {started.isoformat()}",
        f"- command: `{command}`",
        f"- machine: Python {env['python']}, {env['platform']}, {env['cpus']} CPUs; "
        f"single process, timing = best of {repeat}",
        f"- extractors: {', '.join(p.label for p in peers) or 'none'}",
    ]
    for name, reason in unavailable:
        lines.append(f"- skipped {name}: {reason}")
    lines += ["", LEGEND, ""]
    return "\n".join(lines)


def _row(res: ExtractorResult, baseline: float, reference: ExtractorResult | None) -> list[str]:
    body = res.body
    return [
        res.label,
        _num(body.f1 if body else None),
        _num(body.precision if body else None),
        _num(body.recall if body else None),
        _num(res.title_acc),
        _num(res.title_acc_lenient),
        _site_name_misses(res),
        _num(res.date_acc),
        _num(res.auroc),
        _speed(res.pages_per_s),
        _ratio(res.seconds / baseline if baseline > 0 else None),
        _ratio(res.seconds / reference.seconds if reference and reference.seconds > 0 else None),
        str(res.errors),
    ]


def _site_name_misses(res: ExtractorResult) -> str:
    """How many wrong titles only lack the site name their truth carries (– without truth)."""
    from bench.accuracy.metric import title_truth_adds_site_name

    scored = [pr for pr in res.pages if pr.title_ok is not None]
    if not scored:
        return DASH
    misses = sum(
        not pr.title_ok and title_truth_adds_site_name(pr.pred_title, pr.true_title)
        for pr in scored
    )
    return str(misses)


def corpus_section(
    run: CorpusRun, langs: Sequence[str] = (), *, by_lang: bool = False, min_lang: int = 5
) -> str:
    from bench.accuracy.run import REFERENCE_PEER

    reference = run.result(REFERENCE_PEER)
    head = ["extractor", "F1", "P", "R", "title", "title≈", SITE_NAME_COLUMN, "date", "AUROC"]
    head += ["pages/s", "× lxml", "× trafilatura", "errors"]
    rows = [_row(r, run.baseline_seconds, reference) for r in run.results]
    base_speed = run.n_pages / run.baseline_seconds if run.baseline_seconds > 0 else float("inf")
    ref_ratio = (
        run.baseline_seconds / reference.seconds if reference and reference.seconds > 0 else None
    )
    rows.append(
        [
            BASELINE_LABEL,
            *([DASH] * 8),
            _speed(base_speed),
            "1.00",
            _ratio(ref_ratio),
            str(run.baseline_errors),
        ]
    )
    parts = [
        f"## {run.name}",
        "",
        f"{run.n_pages} pages (body truth {run.n_body}, title truth {run.n_title}, "
        f"date truth {run.n_date})",
        "",
        _table(head, rows),
    ]
    if run.skipped:
        parts += ["", "skipped: " + "; ".join(f"{label} ({why})" for label, why in run.skipped)]

    groups = run.groups()
    if groups:
        parts += ["", group_table(run, groups)]

    for lang in langs:
        scores = run.subset_scores(lang)
        if not scores:
            continue
        n = max(s.n_pages for s in scores.values())
        sub_rows = [
            [res.label, _num(s.f1), _num(s.precision), _num(s.recall)]
            for res in run.results
            if (s := scores.get(res.name)) is not None
        ]
        parts += [
            "",
            f"### {run.name}, lang = {lang} ({n} pages): body",
            "",
            _table(["extractor", "F1", "P", "R"], sub_rows),
        ]

    if by_lang:
        body_results = [r for r in run.results if r.body is not None]
        counts: Counter[str] = Counter()
        if body_results:
            counts.update(pr.lang or "?" for pr in body_results[0].pages if pr.match)
        shown = [lang for lang, n in counts.most_common() if n >= min_lang]
        if shown:
            lang_rows = []
            for res in body_results:
                cells = [res.label]
                for lang in shown:
                    matches = [
                        pr.match
                        for pr in res.pages
                        if (pr.lang or "?") == lang and pr.match is not None
                    ]
                    cells.append(_num(_f1(matches)))
                lang_rows.append(cells)
            parts += [
                "",
                f"### {run.name}: body F1 by language",
                "",
                _table(["extractor", *[f"{lang} ({counts[lang]})" for lang in shown]], lang_rows),
            ]
    return "\n".join(parts) + "\n"


def _group_cells(run: CorpusRun, res: ExtractorResult, group: str | None) -> list[str]:
    from bench.accuracy.metric import accuracy, auroc, body_score, snippet_score

    pages = run.group_pages(res, group)
    matches = [pr.match for pr in pages if pr.match is not None]
    body = body_score(matches) if matches else None
    hits = [pr.snippets for pr in pages if pr.snippets is not None]
    snip = snippet_score(hits) if hits else None
    scored = [pr for pr in pages if pr.match is not None and pr.confidence is not None]
    auc = (
        auroc([pr.confidence or 0.0 for pr in scored], [(pr.f1 or 0.0) >= 0.8 for pr in scored])
        if scored
        else None
    )
    return [
        _num(body.f1 if body else None),
        _num(body.precision if body else None),
        _num(body.recall if body else None),
        _num(snip.f1 if snip else None),
        _num(snip.recall if snip else None),
        _num(snip.precision if snip else None),
        _num(accuracy(pr.title_ok for pr in pages if pr.title_ok is not None)),
        _num(accuracy(pr.date_ok for pr in pages if pr.date_ok is not None)),
        _num(auc),
    ]


def group_table(run: CorpusRun, groups: Sequence[str]) -> str:
    """Body, snippet, title, date and AUROC per page-type group, extractors side by side."""
    head = ["group (pages)", "extractor", "F1", "P", "R", "snippet F1", "with", "without"]
    head += ["title", "date", "AUROC"]
    rows = []
    first = run.results[0] if run.results else None
    for group in groups:
        n = len(run.group_pages(first, group)) if first else 0
        for res in run.results:
            if res.body is None:
                continue
            rows.append([f"{group} ({n})", res.label, *_group_cells(run, res, group)])
    return "\n".join([f"### {run.name}: by page type", "", _table(head, rows, left=2)])


def overview_section(runs: Sequence[CorpusRun]) -> str:
    """Body F1 of every extractor on every corpus (and page-type group) side by side.

    The view a held-out set would take of a change: one column per corpus, so a rule that lifts
    one corpus and lowers another shows as such.
    """
    from bench.accuracy.metric import body_score

    columns: list[tuple[CorpusRun, str | None]] = []
    for run in runs:
        if not any(r.body is not None for r in run.results):
            continue
        groups = run.groups()
        columns += [(run, g) for g in groups] if groups else [(run, None)]
    labels: dict[str, str] = {}
    for run in runs:
        for res in run.results:
            if res.body is not None:
                labels.setdefault(res.name, res.label)
    rows = []
    for name, label in labels.items():
        cells = [label]
        for run, group in columns:
            found = run.result(name)
            matches = (
                [pr.match for pr in run.group_pages(found, group) if pr.match is not None]
                if found is not None
                else []
            )
            cells.append(_num(body_score(matches).f1 if matches else None))
        rows.append(cells)
    head = ["extractor", *[run.name + (f" · {g}" if g else "") for run, g in columns]]
    return "\n".join(["## All corpora: body F1 side by side", "", _table(head, rows)]) + "\n"


def _f1(matches: Sequence[Any]) -> float | None:
    from bench.accuracy.metric import body_score

    return body_score(matches).f1 if matches else None


def to_json(
    *,
    started: datetime,
    command: str,
    env: dict[str, Any],
    args: argparse.Namespace,
    runs: Sequence[CorpusRun],
    unavailable: Sequence[tuple[str, str]],
) -> dict[str, Any]:
    from bench.accuracy.run import LANG_SUBSETS

    corpora: dict[str, Any] = {}
    for run in runs:
        subsets = {
            lang: {
                name: {
                    "f1": s.f1,
                    "precision": s.precision,
                    "recall": s.recall,
                    "n_pages": s.n_pages,
                }
                for name, s in run.subset_scores(lang).items()
            }
            for lang in LANG_SUBSETS.get(run.name, ())
        }
        corpora[run.name] = {
            "n_pages": run.n_pages,
            "truth": {"body": run.n_body, "title": run.n_title, "date": run.n_date},
            "baseline": {
                "label": BASELINE_LABEL,
                "seconds": run.baseline_seconds,
                "pages_per_s": run.n_pages / run.baseline_seconds
                if run.baseline_seconds > 0
                else None,
                "errors": run.baseline_errors,
            },
            "skipped": [{"label": label, "reason": why} for label, why in run.skipped],
            "subsets": subsets,
            "page_paths": run.page_paths,
            "extractors": {
                res.name: {
                    "summary": res.summary(),
                    "produces": sorted(res.produces),
                    "pages": [pr.to_json() for pr in res.pages],
                }
                for res in run.results
            },
        }
    return {
        "date": started.isoformat(),
        "command": command,
        "environment": env,
        "repeat": args.repeat,
        "limit": args.limit,
        "unavailable": dict(unavailable),
        "corpora": corpora,
    }
