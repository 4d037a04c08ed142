"""Refit the confidence weights: ``python -m bench.fit_confidence``.

Runs the extractor over the development corpora, labels each page "good" when its body F1 is at
least 0.8, and fits a logistic regression (plain gradient descent, L2-regularised, standardised
features) to `newsspider.extraction.confidence.FEATURE_NAMES`. Prints the weights to paste into
``confidence.py`` and the 5-fold cross-validated AUROC, so the reported figure is not the
training fit.
"""

from __future__ import annotations

import argparse
import math
import random
from collections.abc import Sequence
from typing import Any

from bench.corpus import corpora_root, load_corpus
from bench.metric import auroc, page_f1, shingle_match
from newsspider.extraction import api as extraction_api
from newsspider.extraction import confidence
from newsspider.extraction.confidence import FEATURE_NAMES

_CORPORA = (
    "scrapinghub_aeb",
    "magichtml_article",
    "readability_testpages",
    "newspaper4k_regression",
)
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


def _fit(
    rows: Sequence[tuple[float, ...]], labels: Sequence[int], epochs: int = 3000, l2: float = 0.01
) -> list[float]:
    width = len(rows[0])
    means = [sum(r[j] for r in rows) / len(rows) for j in range(width)]
    stds = [
        math.sqrt(sum((r[j] - means[j]) ** 2 for r in rows) / len(rows)) or 1.0
        for j in range(width)
    ]
    xs = [[(r[j] - means[j]) / stds[j] for j in range(width)] for r in rows]
    weights = [0.0] * (width + 1)
    rate = 0.5
    for _ in range(epochs):
        grad = [0.0] * (width + 1)
        for x, y in zip(xs, labels, strict=True):
            z = weights[0] + sum(w * v for w, v in zip(weights[1:], x, strict=True))
            p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
            grad[0] += p - y
            for j, v in enumerate(x):
                grad[j + 1] += (p - y) * v
        for j in range(width + 1):
            penalty = l2 * weights[j] if j else 0.0
            weights[j] -= rate * (grad[j] / len(xs) + penalty)
    # Undo the standardisation so the weights apply to raw features.
    raw = [weights[0] - sum(weights[j + 1] * means[j] / stds[j] for j in range(width))]
    raw += [weights[j + 1] / stds[j] for j in range(width)]
    return raw


def _predict(weights: Sequence[float], row: Sequence[float]) -> float:
    return weights[0] + sum(w * v for w, v in zip(weights[1:], row, strict=True))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--corpora", default=None, help="corpora root (default ../shared/corpora)")
    args = parser.parse_args()
    _capture_features()
    rows: list[tuple[float, ...]] = []
    labels: list[int] = []
    corpus_of: list[str] = []
    for name in _CORPORA:
        for page in load_corpus(name, corpora_root(args.corpora)):
            if not page.body:
                continue
            _captured.clear()
            article = extraction_api.extract(page.html, url=page.url)
            if not _captured:
                continue
            f1 = page_f1(shingle_match(page.body, article.body))
            rows.append(_captured[-1])
            labels.append(int(f1 >= 0.8))
            corpus_of.append(name)
    print(f"{len(rows)} pages, {sum(labels)} good")
    order = list(range(len(rows)))
    random.Random(7).shuffle(order)
    folds = 5
    predictions = [0.0] * len(rows)
    for fold in range(folds):
        test = set(order[fold::folds])
        train = [i for i in order if i not in test]
        weights = _fit([rows[i] for i in train], [labels[i] for i in train])
        for i in test:
            predictions[i] = _predict(weights, rows[i])
    print(f"5-fold cross-validated AUROC: {auroc(predictions, [bool(y) for y in labels])}")
    # Per corpus too, so a gain on one corpus cannot hide a loss on another.
    for name in _CORPORA:
        mine = [i for i, corpus in enumerate(corpus_of) if corpus == name]
        score = auroc([predictions[i] for i in mine], [bool(labels[i]) for i in mine])
        print(f"  {name:28s} {len(mine):4d} pages  CV AUROC {score}")
    weights = _fit(rows, labels)
    names = ("intercept", *FEATURE_NAMES)
    for name, weight in zip(names, weights, strict=True):
        print(f"  {name:28s} {weight:+.4f}")
    print("WEIGHTS = (" + ", ".join(f"{w:.4f}" for w in weights) + ")")


if __name__ == "__main__":
    main()
