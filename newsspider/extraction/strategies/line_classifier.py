"""A learned line classifier: a small feed-forward network over seven features of each line.

The text-to-markup ratio of a line alone misjudges short prose lines and long link lines; a
classifier that also sees the line's neighbours corrects most of that. Per line ``i`` of the
shared line model (`lines`), with ``n`` lines::

    density(j) = tag_chars(j) / (tag_chars(j) + chars(j))        markup share, in [0, 1]
    length(j)  = min(1, ln(1 + chars(j)) / ln(1 + LENGTH_SCALE))  in [0, 1]
    x(i) = [density(i), length(i), density(i-1), length(i-1),
            density(i+1), length(i+1), i / (n - 1)]

(a missing neighbour is pure markup: density 1, length 0). One hidden layer of ``tanh`` units
and a sigmoid output; a line is content when the output exceeds ``THRESHOLD``. The weights are
trained by ``bench/train_line_classifier.py`` on the development corpora and shipped as
``line_classifier_weights.json`` next to this module; inference is plain Python.
"""

from __future__ import annotations

import functools
import json
import math
from dataclasses import dataclass
from importlib import resources
from typing import Any

from newsspider.extraction.strategies import StrategyInput, StrategyResult
from newsspider.extraction.strategies.lines import Lines, selection_from

__all__ = [
    "FEATURES",
    "LENGTH_SCALE",
    "THRESHOLD",
    "WEIGHTS_FILE",
    "LineModel",
    "content_lines",
    "line_classifier",
    "line_features",
    "load_model",
]

FEATURES = (
    "density",
    "length",
    "prev_density",
    "prev_length",
    "next_density",
    "next_length",
    "position",
)
LENGTH_SCALE = 1000
THRESHOLD = 0.5
WEIGHTS_FILE = "line_classifier_weights.json"

_LOG_SCALE = math.log1p(LENGTH_SCALE)


def line_features(lines: Lines) -> list[list[float]]:
    """The feature vector of every line (see the module docstring), in `FEATURES` order."""
    count = len(lines)
    density = []
    length = []
    for chars, markup in zip(lines.chars, lines.tag_chars, strict=True):
        total = chars + markup
        density.append(markup / total if total else 1.0)
        length.append(min(1.0, math.log1p(chars) / _LOG_SCALE))
    last = count - 1
    rows = []
    for i in range(count):
        prev_density, prev_length = (density[i - 1], length[i - 1]) if i > 0 else (1.0, 0.0)
        next_density, next_length = (density[i + 1], length[i + 1]) if i < last else (1.0, 0.0)
        position = i / last if last > 0 else 0.0
        rows.append(
            [
                density[i],
                length[i],
                prev_density,
                prev_length,
                next_density,
                next_length,
                position,
            ]
        )
    return rows


@dataclass(frozen=True, slots=True)
class LineModel:
    """One hidden layer: ``sigmoid(w2 · tanh(w1 · x + b1) + b2)``."""

    #: hidden × inputs
    w1: tuple[tuple[float, ...], ...]
    b1: tuple[float, ...]
    w2: tuple[float, ...]
    b2: float

    def probability(self, x: list[float]) -> float:
        z = self.b2
        for row, bias, out in zip(self.w1, self.b1, self.w2, strict=True):
            a = bias
            for w, v in zip(row, x, strict=True):
                a += w * v
            z += out * math.tanh(a)
        if z < -60.0:
            return 0.0
        return 1.0 / (1.0 + math.exp(-z))

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LineModel:
        w1 = tuple(tuple(float(w) for w in row) for row in data["w1"])
        b1 = tuple(float(b) for b in data["b1"])
        w2 = tuple(float(w) for w in data["w2"])
        if not w1 or any(len(row) != len(FEATURES) for row in w1):
            raise ValueError("w1 must be hidden × 7")
        if len(b1) != len(w1) or len(w2) != len(w1):
            raise ValueError("b1 and w2 must have one entry per hidden unit")
        return cls(w1, b1, w2, float(data["b2"]))


@functools.cache
def load_model() -> LineModel:
    """The shipped model (read once per process)."""
    text = (
        resources.files("newsspider.extraction.strategies")
        .joinpath(WEIGHTS_FILE)
        .read_text(encoding="utf-8")
    )
    return LineModel.from_json(json.loads(text))


def content_lines(lines: Lines, model: LineModel | None = None) -> list[int]:
    model = model or load_model()
    return [
        index for index, x in enumerate(line_features(lines)) if model.probability(x) > THRESHOLD
    ]


def line_classifier(data: StrategyInput) -> StrategyResult | None:
    lines = data.line_model()
    selection = selection_from(data.page, content_lines(lines))
    return None if selection is None else StrategyResult(selection)
