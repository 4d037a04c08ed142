"""Refit and judge the confidence: ``python -m bench.fit_confidence [--write] [--plot]``.

One reproducible command (re-run it after any change to the extractor):

1. Runs `newsspider.extract` over every body corpus and labels each page "good" when its body
   F1 is at least 0.8. wceb2026_llm_dev counts as three groups (article + blog, forum, other
   page types), as the benchmark reports it; a non-article page is labelled by its body F1 like
   any other (its truth is the page's main content).
2. Adds **chrome-only pages**: each page with a body truth with the elements holding that truth
   removed (`bench.middleware_eval.structural`: header, navigation, teasers, comments and footer
   stay), labelled "not good": there is no article on them. They belong to their source group.
3. Fits a logistic regression (Newton's method, L2 on standardised features) to
   `newsspider.extraction.confidence.FEATURE_NAMES`, and reports, **leave one group out**
   (fitted on the other groups, judged on the held-out one): AUROC on the group's real pages
   (good vs the rest, as the benchmark measures it) beside the best single feature on the same
   pages, the shipped confidence's AUROC, and, on the pooled held-out predictions, the expected
   calibration error, the share of chrome-only pages below the pipeline's 0.3 and of good bodies
   below 0.3.
4. ``--write`` stores the weights fitted on all groups in ``newsspider/models/confidence.json``;
   ``--plot`` draws the reliability diagram of the held-out predictions into
   ``docs/confidence-reliability.png``.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from bench.corpus import Page, corpora_root, load_corpus
from bench.metric import auroc, page_f1, shingle_match
from bench.middleware_eval import structural
from newsspider.extraction import api as extraction_api
from newsspider.extraction import confidence
from newsspider.extraction.confidence import FEATURE_NAMES, MODEL_PATH

CORPORA = (
    "scrapinghub_aeb",
    "magichtml_article",
    "readability_testpages",
    "newspaper4k_regression",
    "wceb2026_llm_dev",
)
GOOD_F1 = 0.8
DROP_BELOW = 0.3  # the pipeline's default NEWSSPIDER_MIN_CONFIDENCE
L2 = 1.0
ROOT = Path(__file__).resolve().parent.parent
PLOT_PATH = ROOT / "docs" / "confidence-reliability.png"


@dataclass(frozen=True, slots=True)
class Row:
    group: str
    chrome: bool
    features: tuple[float, ...]
    page_type: str
    good: bool
    #: The confidence `extract` gave (the weights in use when the rows were collected).
    shipped: float


_captured: list[tuple[float, ...]] = []


def _capture_features() -> None:
    # The fit needs the features of each page as `extract` computed them: wrap the function
    # the API module calls, rather than duplicating the extraction pipeline here.
    original = confidence.confidence_features

    def spy(*args: Any, **kwargs: Any) -> tuple[float, ...]:
        features = original(*args, **kwargs)
        _captured.append(features)
        return features

    setattr(extraction_api, "confidence_features", spy)  # noqa: B010


def _group(page: Page) -> str:
    group = page.group
    return page.corpus if group is None else f"{page.corpus} {group}"


def _row(html: bytes, page: Page, group: str, chrome: bool) -> Row | None:
    _captured.clear()
    article = extraction_api.extract(html, url=page.url)
    if not _captured:
        return None  # no body at all: confidence 0 whatever the weights
    good = not chrome and page_f1(shingle_match(page.body, article.body)) >= GOOD_F1
    return Row(group, chrome, _captured[-1], article.page_type, good, article.confidence)


def collect(root: Path, limit: int | None) -> list[Row]:
    _capture_features()
    rows: list[Row] = []
    for name in CORPORA:
        for page in load_corpus(name, root, limit=limit):
            if not page.body:
                continue
            group = _group(page)
            row = _row(page.html, page, group, chrome=False)
            if row is not None:
                rows.append(row)
            made = structural(page)
            if made is not None and made.gutted is not None:
                chrome_row = _row(made.gutted, page, group, chrome=True)
                if chrome_row is not None:
                    rows.append(chrome_row)
    return rows


# --- the model --------------------------------------------------------------------------------


def fit(xs: np.ndarray, ys: np.ndarray, l2: float = L2) -> np.ndarray:
    """Logistic regression by Newton's method on standardised features; weights on raw ones."""
    means = xs.mean(axis=0)
    stds = xs.std(axis=0)
    stds[stds == 0] = 1.0
    z = np.hstack([np.ones((len(xs), 1)), (xs - means) / stds])
    w = np.zeros(z.shape[1])
    penalty = np.full(z.shape[1], l2)
    penalty[0] = 0.0
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-np.clip(z @ w, -30, 30)))
        grad = z.T @ (p - ys) + penalty * w
        hess = (z * (p * (1 - p))[:, None]).T @ z + np.diag(penalty)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    raw = np.empty_like(w)
    raw[1:] = w[1:] / stds
    raw[0] = w[0] - float((w[1:] * means / stds).sum())
    return raw


def predict(weights: np.ndarray, xs: np.ndarray, page_types: Sequence[str]) -> np.ndarray:
    logits = weights[0] + xs @ weights[1:]
    return np.array(
        [
            confidence.probability(float(logit), page_type)
            for logit, page_type in zip(logits, page_types, strict=True)
        ]
    )


def ece(probabilities: Sequence[float], labels: Sequence[bool], bins: int = 10) -> float:
    """Expected calibration error: the page-weighted gap between mean confidence and the share
    of good bodies, over ten equal-width confidence bins."""
    total = len(probabilities)
    error = 0.0
    for b in range(bins):
        members = [i for i, p in enumerate(probabilities) if min(int(p * bins), bins - 1) == b]
        if members:
            mean_p = sum(probabilities[i] for i in members) / len(members)
            share = sum(labels[i] for i in members) / len(members)
            error += len(members) / total * abs(mean_p - share)
    return error


def _fmt(value: float | None) -> str:
    return "  -  " if value is None else f"{value:.3f}"


def _best_single(xs: np.ndarray, labels: list[bool]) -> tuple[float | None, str]:
    best: tuple[float | None, str] = (None, "-")
    for j, name in enumerate(FEATURE_NAMES):
        score = auroc(list(xs[:, j]), labels)
        if score is None:
            continue
        score = max(score, 1.0 - score)  # either direction: a ceiling for any one feature
        if best[0] is None or score > best[0]:
            best = (score, name)
    return best


def evaluate(rows: list[Row]) -> tuple[list[str], np.ndarray, list[bool]]:
    """Leave-one-group-out: the report lines, and the pooled held-out predictions and labels."""
    xs = np.array([r.features for r in rows], dtype=float)
    ys = np.array([float(r.good) for r in rows])
    groups = sorted({r.group for r in rows})
    held_out = np.zeros(len(rows))
    lines = [
        f"{'held-out group':40s} {'pages':>5s} {'good':>5s} {'chrome':>6s} "
        f"{'LOCO':>6s} {'shipped':>7s} {'best single feature':>26s}"
    ]
    for group in groups:
        test = np.array([r.group == group for r in rows])
        weights = fit(xs[~test], ys[~test])
        held_out[test] = predict(weights, xs[test], [r.page_type for r in rows if r.group == group])
        real = [i for i, r in enumerate(rows) if r.group == group and not r.chrome]
        labels = [rows[i].good for i in real]
        model = auroc([float(held_out[i]) for i in real], labels)
        shipped = auroc([rows[i].shipped for i in real], labels)
        single, name = _best_single(xs[real], labels)
        chrome = sum(1 for r in rows if r.group == group and r.chrome)
        lines.append(
            f"{group:40s} {len(real):5d} {sum(labels):5d} {chrome:6d} {_fmt(model):>6s} "
            f"{_fmt(shipped):>7s} {_fmt(single):>6s} {name:>19s}"
        )
    return lines, held_out, [r.good for r in rows]


def summary(rows: list[Row], predictions: Sequence[float], label: str) -> list[str]:
    good = [p for p, r in zip(predictions, rows, strict=True) if r.good]
    chrome = [p for p, r in zip(predictions, rows, strict=True) if r.chrome]
    real = [(p, r.good) for p, r in zip(predictions, rows, strict=True) if not r.chrome]
    labels = [r.good for r in rows]
    return [
        f"{label}: ECE {ece(list(predictions), labels):.3f} (real + chrome-only), "
        f"{ece([p for p, _ in real], [g for _, g in real]):.3f} (real pages); "
        f"chrome-only below {DROP_BELOW}: {sum(p < DROP_BELOW for p in chrome)}/{len(chrome)} "
        f"= {sum(p < DROP_BELOW for p in chrome) / max(1, len(chrome)):.1%}; "
        f"good bodies below {DROP_BELOW}: {sum(p < DROP_BELOW for p in good)}/{len(good)} "
        f"= {sum(p < DROP_BELOW for p in good) / max(1, len(good)):.1%}"
    ]


def plot(predictions: Sequence[float], labels: Sequence[bool], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    bins = 10
    centres, shares, counts = [], [], []
    for b in range(bins):
        members = [i for i, p in enumerate(predictions) if min(int(p * bins), bins - 1) == b]
        if members:
            centres.append(sum(predictions[i] for i in members) / len(members))
            shares.append(sum(labels[i] for i in members) / len(members))
            counts.append(len(members))
    fig, (top, bottom) = plt.subplots(
        2, 1, figsize=(5, 6), sharex=True, gridspec_kw={"height_ratios": [3, 1]}
    )
    top.plot([0, 1], [0, 1], color="grey", linestyle="--", linewidth=1, label="perfect")
    top.plot(centres, shares, marker="o", label="held-out pages")
    top.set_ylabel("share with body F1 ≥ 0.8")
    error = ece(predictions, labels)
    top.set_title(f"Confidence reliability (leave one corpus out, ECE {error:.3f})")
    top.legend(loc="upper left")
    bottom.bar([(b + 0.5) / bins for b in range(bins)], _bin_counts(predictions, bins), width=0.09)
    bottom.set_xlabel("confidence")
    bottom.set_ylabel("pages")
    fig.tight_layout()
    fig.savefig(path, dpi=100, metadata={"Software": None})
    plt.close(fig)


def _bin_counts(predictions: Sequence[float], bins: int) -> list[int]:
    counts = [0] * bins
    for p in predictions:
        counts[min(int(p * bins), bins - 1)] += 1
    return counts


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--corpora", default=None, help="corpora root (default ../shared/corpora)")
    parser.add_argument("--limit", type=int, default=None, help="pages per corpus (a quick look)")
    parser.add_argument("--save-rows", type=Path, default=None, help="keep the extracted rows")
    parser.add_argument("--rows", type=Path, default=None, help="refit saved rows (no extraction)")
    parser.add_argument("--write", action="store_true", help=f"store the weights in {MODEL_PATH}")
    parser.add_argument("--plot", action="store_true", help=f"draw {PLOT_PATH.relative_to(ROOT)}")
    args = parser.parse_args(argv)
    if args.rows is not None:
        saved = json.loads(args.rows.read_text(encoding="utf-8"))
        rows = [Row(r[0], r[1], tuple(r[2]), r[3], r[4], r[5]) for r in saved]
    else:
        rows = collect(corpora_root(args.corpora), args.limit)
    if args.save_rows is not None:
        fields = [[r.group, r.chrome, r.features, r.page_type, r.good, r.shipped] for r in rows]
        args.save_rows.write_text(json.dumps(fields), encoding="utf-8")
    print(f"{len(rows)} rows: {sum(r.good for r in rows)} good, {sum(r.chrome for r in rows)} "
          "chrome-only")  # fmt: skip
    lines, held_out, labels = evaluate(rows)
    print("\n".join(lines))
    print("\n".join(summary(rows, list(held_out), "held-out (LOCO)")))
    print("\n".join(summary(rows, [r.shipped for r in rows], "shipped confidence")))
    xs = np.array([r.features for r in rows], dtype=float)
    weights = fit(xs, np.array([float(r.good) for r in rows]))
    in_sample = list(predict(weights, xs, [r.page_type for r in rows]))
    print("\n".join(summary(rows, in_sample, "refit, in-sample")))
    for name, weight in zip(("intercept", *FEATURE_NAMES), weights, strict=True):
        print(f"  {name:28s} {weight:+.4f}")
    if args.write:
        model = {
            "features": list(FEATURE_NAMES),
            "intercept": round(float(weights[0]), 4),
            "weights": [round(float(w), 4) for w in weights[1:]],
            "fitted_on": list(CORPORA),
            "label": f"body F1 >= {GOOD_F1}; chrome-only pages (article removed) not good",
            "command": "python -m bench.fit_confidence --write --plot",
        }
        MODEL_PATH.write_text(json.dumps(model, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {MODEL_PATH}")
    if args.plot:
        plot(list(held_out), labels, PLOT_PATH)
        print(f"wrote {PLOT_PATH}")


if __name__ == "__main__":
    main()
