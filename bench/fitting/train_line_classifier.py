"""Train the learned line classifier (``extract(algorithm="line-classifier")``) and write its
weights into the package.

    python -m bench.fitting.train_line_classifier [--corpus scrapinghub_aeb,magichtml_article]
        [--hidden 8] [--epochs 30] [--lr 0.05] [--seed 20261122] [--holdout 0.2]
        [--out newsspider/extraction/strategies/line_classifier_weights.json] [--corpora PATH]

Each page of the training corpora goes through the extractor's own parse, cleaning, segment
walk and line model; every line with at least one token becomes one example, its features
those of `line_features`, its label "content" when its text occurs in the page's truth body:
at least half of its 4-token shingles are shingles of the truth (the benchmark's shingles),
or, for a line of 2-3 tokens, its tokens occur in that order in the truth, or, for a one-token
line, it is a whole line of the truth (or a long token of it: a CJK run). Examples are weighted
by ``1 + ln(1 + tokens)`` so that long lines, which dominate the shingle metric, count more.

A seeded share (``--holdout``) of the pages is held out to report the accuracy on unseen pages;
the shipped model is trained on the other pages. Training is plain stochastic gradient descent
on the weighted cross-entropy (pure Python, no numpy), examples shuffled each epoch with the
seeded generator, so the same command writes the same file.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.accuracy.metric import tokenize
from bench.corpus import Page, corpora_root, load_corpus
from newsspider.extraction.page.cleaning import clean_tree
from newsspider.extraction.page.segments import segment_page
from newsspider.extraction.parse.decoding import decode_html
from newsspider.extraction.parse.parsing import parse_html
from newsspider.extraction.strategies import line_classifier
from newsspider.extraction.strategies.line_classifier import FEATURES, LineModel, line_features
from newsspider.extraction.strategies.lines import build_lines

__all__ = ["Example", "label_lines", "main", "page_examples", "train"]

DEFAULT_CORPORA = ("scrapinghub_aeb", "magichtml_article")
DEFAULT_OUT = Path(line_classifier.__file__).with_name(line_classifier.WEIGHTS_FILE)
#: A line is content when at least this share of its shingles are in the truth.
SHINGLE_SHARE = 0.5
#: A one-token line that is not a whole truth line still counts if it is this long (CJK runs).
LONG_TOKEN = 10
DIGITS = 6


@dataclass(frozen=True, slots=True)
class Example:
    page: str
    x: list[float]
    y: int
    weight: float


def label_lines(texts: Sequence[str], truth: str) -> list[int | None]:
    """1 (content), 0 (not) or None (no token: no evidence either way) for each line."""
    tokens = tokenize(truth)
    shingles = {tuple(tokens[i : i + 4]) for i in range(len(tokens) - 3)}
    short = {tuple(tokens[i : i + n]) for n in (2, 3) for i in range(len(tokens) - n + 1)}
    whole_lines = {tuple(tokenize(line)) for line in truth.splitlines()}
    words = set(tokens)
    labels: list[int | None] = []
    for text in texts:
        line = tokenize(text)
        if not line:
            labels.append(None)
        elif len(line) >= 4:
            grams = [tuple(line[i : i + 4]) for i in range(len(line) - 3)]
            share = sum(gram in shingles for gram in grams) / len(grams)
            labels.append(int(share >= SHINGLE_SHARE))
        elif len(line) > 1:
            labels.append(int(tuple(line) in short or tuple(line) in whole_lines))
        else:
            word = line[0]
            labels.append(
                int((word,) in whole_lines or (len(word) >= LONG_TOKEN and word in words))
            )
    return labels


def page_examples(page: Page) -> list[Example]:
    """The labelled lines of one page, through the extractor's own pipeline."""
    if not page.body:
        return []
    decoded = decode_html(page.html, None)
    root = parse_html(decoded.utf8 if decoded.utf8 is not None else decoded.text)
    if root is None:
        return []
    clean_tree(root)
    segments = segment_page(root)
    lines = build_lines(root, segments)
    texts = [segment.text for segment in segments.segments]
    examples = []
    for x, y, text in zip(line_features(lines), label_lines(texts, page.body), texts, strict=True):
        if y is not None:
            weight = 1.0 + math.log1p(len(tokenize(text)))
            examples.append(Example(page.id, x, y, weight))
    return examples


# --- the network ----------------------------------------------------------------------------


@dataclass(slots=True)
class Network:
    w1: list[list[float]]
    b1: list[float]
    w2: list[float]
    b2: float

    @classmethod
    def initial(cls, hidden: int, rng: random.Random) -> Network:
        inputs = len(FEATURES)
        bound1 = 1.0 / math.sqrt(inputs)
        bound2 = 1.0 / math.sqrt(hidden)
        return cls(
            w1=[[rng.uniform(-bound1, bound1) for _ in range(inputs)] for _ in range(hidden)],
            b1=[0.0] * hidden,
            w2=[rng.uniform(-bound2, bound2) for _ in range(hidden)],
            b2=0.0,
        )

    def step(self, x: list[float], y: int, rate: float) -> None:
        """One SGD step on the (weighted, via ``rate``) cross-entropy of one example."""
        hidden = []
        z = self.b2
        for row, bias, out in zip(self.w1, self.b1, self.w2, strict=True):
            a = bias
            for w, v in zip(row, x, strict=True):
                a += w * v
            h = math.tanh(a)
            hidden.append(h)
            z += out * h
        p = 1.0 / (1.0 + math.exp(-z)) if z > -60.0 else 0.0
        delta = p - y  # d loss / d z
        for j, h in enumerate(hidden):
            back = delta * self.w2[j] * (1.0 - h * h)
            self.w2[j] -= rate * delta * h
            self.b1[j] -= rate * back
            row = self.w1[j]
            for k, v in enumerate(x):
                row[k] -= rate * back * v
        self.b2 -= rate * delta

    def model(self) -> LineModel:
        """The network as the extractor will load it (weights rounded as in the JSON)."""
        return LineModel.from_json(self.to_json())

    def to_json(self) -> dict[str, Any]:
        return {
            "w1": [[round(w, DIGITS) for w in row] for row in self.w1],
            "b1": [round(b, DIGITS) for b in self.b1],
            "w2": [round(w, DIGITS) for w in self.w2],
            "b2": round(self.b2, DIGITS),
        }


def train(examples: Sequence[Example], hidden: int, epochs: int, rate: float, seed: int) -> Network:
    """SGD over the examples, reshuffled every epoch; the rate decays linearly to a tenth."""
    rng = random.Random(seed)
    net = Network.initial(hidden, rng)
    order = list(range(len(examples)))
    mean_weight = sum(e.weight for e in examples) / len(examples) if examples else 1.0
    for epoch in range(epochs):
        rng.shuffle(order)
        current = rate * (1.0 - 0.9 * epoch / max(1, epochs - 1))
        for index in order:
            example = examples[index]
            net.step(example.x, example.y, current * example.weight / mean_weight)
        _log(f"epoch {epoch + 1}/{epochs}: accuracy {accuracy(net.model(), examples):.4f}")
    return net


def accuracy(model: LineModel, examples: Sequence[Example]) -> float:
    """Share of examples classified right (unweighted)."""
    return confusion(model, examples)[0]


def confusion(model: LineModel, examples: Sequence[Example]) -> tuple[float, float, float]:
    """(accuracy, precision, recall) of the "content" class over the examples."""
    tp = fp = fn = right = 0
    for e in examples:
        predicted = model.probability(e.x) > line_classifier.THRESHOLD
        right += predicted == bool(e.y)
        tp += predicted and e.y == 1
        fp += predicted and e.y == 0
        fn += not predicted and e.y == 1
    total = len(examples)
    return (
        right / total if total else 0.0,
        tp / (tp + fp) if tp + fp else 0.0,
        tp / (tp + fn) if tp + fn else 0.0,
    )


def _log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.fitting.train_line_classifier", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--corpus", default=",".join(DEFAULT_CORPORA), metavar="A,B")
    parser.add_argument("--corpora", metavar="PATH", help="corpora folder")
    parser.add_argument("--hidden", type=int, default=8, help="hidden units")
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--lr", type=float, default=0.05, help="initial learning rate")
    parser.add_argument("--seed", type=int, default=20261122)
    parser.add_argument("--holdout", type=float, default=0.2, help="share of pages held out")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)

    root = corpora_root(args.corpora)
    names = [name.strip() for name in args.corpus.split(",") if name.strip()]
    pages = [page for name in names for page in load_corpus(name, root) if page.body]
    page_ids = sorted({f"{page.corpus}/{page.id}" for page in pages})
    random.Random(args.seed).shuffle(page_ids)
    held_out_ids = set(page_ids[: round(len(page_ids) * args.holdout)])

    training: list[Example] = []
    held_out: list[Example] = []
    for page in pages:
        examples = page_examples(page)
        (held_out if f"{page.corpus}/{page.id}" in held_out_ids else training).extend(examples)
    if not training:
        raise SystemExit("no training examples (are the corpora there?)")
    content_share = sum(e.y for e in training) / len(training)
    _log(
        f"{len(pages)} pages: {len(training)} training lines "
        f"({content_share:.1%} content), {len(held_out)} held-out lines"
    )

    net = train(training, args.hidden, args.epochs, args.lr, args.seed)
    model = net.model()
    train_acc = accuracy(model, training)
    held_acc, held_precision, held_recall = confusion(model, held_out)
    held_share = sum(e.y for e in held_out) / len(held_out) if held_out else 0.0
    _log(
        f"accuracy: training {train_acc:.4f}, held out {held_acc:.4f} (all-boilerplate "
        f"baseline {1 - held_share:.4f}); held-out content lines: precision "
        f"{held_precision:.4f}, recall {held_recall:.4f}"
    )

    payload = {
        "format": 1,
        "features": list(FEATURES),
        "hidden": args.hidden,
        **net.to_json(),
        "training": {
            "command": "python -m bench.fitting.train_line_classifier"
            + "".join(f" {a}" for a in (argv if argv is not None else sys.argv[1:])),
            "corpora": names,
            "pages": len(pages) - len(held_out_ids),
            "lines": len(training),
            "content_share": round(content_share, 4),
            "held_out_pages": len(held_out_ids),
            "held_out_lines": len(held_out),
            "epochs": args.epochs,
            "learning_rate": args.lr,
            "seed": args.seed,
            "training_accuracy": round(train_acc, 4),
            "held_out_accuracy": round(held_acc, 4),
            "held_out_content_share": round(held_share, 4),
            "held_out_content_precision": round(held_precision, 4),
            "held_out_content_recall": round(held_recall, 4),
        },
    }
    args.out.write_text(json.dumps(payload, indent=1) + "\n", encoding="utf-8")
    _log(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
