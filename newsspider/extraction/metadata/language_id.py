"""py3langid's model, scored with a few numpy operations instead of the library's Python code.

py3langid (langid.py's model: byte n-grams of one to six bytes, naive Bayes over 97 languages)
walks the text's UTF-8 bytes through an Aho-Corasick automaton, counts the features of the
states it visits, scores them with a float16 matrix product and ranks all its labels in Python:
about 1 ms for 600 characters, two thirds of it outside the walk. Hand-written here, because
the library offers no faster entry point:

- the walk is the library's own, one step a byte, in this compiled module (about a third of
  the instructions of the same walk done for all positions at once with numpy, on the few
  hundred bytes read here);
- the scores are the library's own formula (log1p of the feature counts times the per-feature
  log-probabilities, plus the priors, scaled by one over the root of the byte length, softmax),
  with the matrix product in float32 over the rows of the features visited, taken whole
  (`numpy.take`) and widened from float16 by moving their bits (`_float32`).

The answer is the library's, to rounding: `Identifier.verified` compares both on a few texts
when the model loads, and `language.py` falls back to the library's own `rank` if they differ
(a future py3langid with another model layout). Cost on 200 characters: about 0.25 M
instructions.
"""

from __future__ import annotations

import math
import unicodedata
from typing import Any, Final

import numpy as np

from newsspider.core_loader import CompiledTwin

__all__ = ["FEATURE_COUNTS", "Identifier"]

# The walk and its counts in C (`_language_c.FeatureCounts`), built at install time with a
# compiler: the same sorted features and counts as `_features` and ``numpy.unique``, without a
# Python int per byte or numpy's Python code (two thirds of an identification's instructions).
try:
    from newsspider.extraction.metadata import _language_c
except ImportError:  # not built: the Python code
    _language_c = None  # type: ignore[assignment]
FEATURE_COUNTS: Final[CompiledTwin[type[_language_c.FeatureCounts]]] = CompiledTwin(
    _language_c.FeatureCounts if _language_c is not None else None
)

#: Texts the fast path is checked on against the library's own ranking when the model loads.
_CHECK_TEXTS: Final = (
    "The council voted on Tuesday to renovate the old market hall before the winter.",
    "Der Stadtrat hat am Dienstag die Sanierung der alten Markthalle beschlossen.",
    "Городской совет проголосовал за реконструкцию старого рынка.",
    "市议会周二晚间投票通过了旧市场大厅的翻修计划。",
    "A câmara aprovou a reforma do antigo mercado coberto; as obras começam já.",
)
#: How many of the model's classes `Identifier.rank` returns (the rest share under 1e-3 when
#: the best is confident, and nothing reads them).
_RANKED: Final = 8


#: A negative float16's bits shifted into float32 place, plus this: the exponent rebiased
#: (+0x38000000), the sign moved from bit 28 (-0x10000000) to bit 31 (+0x80000000).
_NEGATIVE_BIAS: Final = 0x38000000 - 0x10000000 + 0x80000000


def _float32(half: Any) -> Any:
    """float16 values (as their uint16 bits) as float32: the bits moved into place, four times
    faster than numpy's float16 conversion. Exact for normal numbers, which is every value of
    the model's table (log-probabilities: no zeros, subnormals or infinities)."""
    bits = half.astype(np.uint32)
    bits <<= 13
    sign = bits & np.uint32(0x10000000)
    bits &= np.uint32(0x0FFFE000)
    bits += np.uint32(0x38000000)  # the exponent's bias: 127 - 15, shifted
    bits |= sign << np.uint32(3)
    return bits.view(np.float32)


class Identifier:
    """The model's ranking of languages for a text, computed with numpy."""

    def __init__(self, model: Any) -> None:
        self.model = model
        # The automaton, walked one byte at a time (`_features`): its transitions as the library
        # holds them (an array of ints), each state's row offset and its feature (-1: none).
        # Tuples, not lists: a tuple of ints leaves the garbage collector's lists, where a list
        # of 100,000 items is read again by every full collection.
        self.next_moves: Any = model.tk_nextmove
        self.row_starts: tuple[int, ...] = tuple(int(row) << 8 for row in model.tk_row)
        self.outputs: tuple[int, ...] = tuple(model.tk_output)
        # The per-state log-probabilities, float16, read as their bits (`_float32`).
        self.table = np.ascontiguousarray(model.nb_ptc).view(np.uint16)
        self.priors = np.asarray(model.nb_pc, dtype=np.float32)
        self.labels: list[str] = list(model.nb_classes)
        # Every value's sign bit set (`_widen`).
        self.all_negative = bool(int(self.table.min()) >= 0x8000) if self.table.size else False
        # The same automaton as typed arrays for the compiled walk, when it is built.
        self.compiled: Any = None
        if FEATURE_COUNTS.built is not None:
            self.compiled = FEATURE_COUNTS.built(
                np.frombuffer(self.next_moves, dtype=np.uint32)
                if getattr(self.next_moves, "itemsize", 0) == 4
                else np.asarray(self.next_moves, dtype=np.uint32),
                np.asarray(self.row_starts, dtype=np.int64),
                np.asarray(self.outputs, dtype=np.int32),
            )

    def probabilities(self, text: str) -> Any:
        """Each of the model's classes' probability for ``text`` (None without features)."""
        if text.isupper():
            text = text.lower()
        data = unicodedata.normalize("NFC", text).encode("utf-8", "surrogatepass")
        if not data:
            return None
        found = self._counts(data)
        if found is None:
            return None
        index, counts = found
        # take(axis=0) copies whole rows: a fifth of the instructions of table[index].
        rows = np.take(self.table, index, axis=0)
        scores = np.log1p(counts.astype(np.float32)) @ self._widen(rows)
        scores += self.priors
        scores *= 1.0 / math.sqrt(len(data))
        np.exp(scores - scores.max(), out=scores)
        scores /= scores.sum()
        return scores

    def _counts(self, data: bytes) -> tuple[Any, Any] | None:
        """The distinct features the walk over ``data`` visits, ascending, and how often each
        (int64 arrays, as ``numpy.unique`` gives them); None when it visits none."""
        if FEATURE_COUNTS.active is not None and self.compiled is not None:
            found = self.compiled.counts(data)
            if found is None:
                return None
            return np.frombuffer(found[0], dtype=np.int64), np.frombuffer(found[1], dtype=np.int64)
        features = self._features(data)
        if not features:
            return None
        # Named and typed: where numpy is absent (mypyc's build environment) np.unique is Any.
        unique_counts: tuple[Any, Any] = np.unique(
            np.array(features, dtype=np.int64), return_counts=True
        )
        return unique_counts

    def _features(self, data: bytes) -> list[int]:
        """The features of the states the walk over ``data`` visits, one per visit (the
        library's own walk, one step a byte: compiled, about a third of the instructions of
        the same walk done for all positions at once with numpy, on the few hundred bytes
        read here)."""
        moves, row_starts, outputs = self.next_moves, self.row_starts, self.outputs
        features: list[int] = []
        state: int = 0
        for byte in data:
            state = moves[row_starts[state] + byte]
            feature = outputs[state]
            if feature >= 0:
                features.append(feature)
        return features

    def _widen(self, rows: Any) -> Any:
        """`_float32` of the rows; for a table of negative numbers only (log-probabilities:
        every model py3langid ships), in two passes: the sign bit moves with the same
        addition that rebiases the exponent (bit-identical to `_float32` on such values)."""
        if not self.all_negative:
            return _float32(rows)
        bits = np.left_shift(rows, 13, dtype=np.uint32)
        bits += np.uint32(_NEGATIVE_BIAS)
        return bits.view(np.float32)

    def rank(self, text: str) -> list[tuple[str, float]]:
        """The model's labels by probability, best first (duplicate labels' shares added)."""
        scores = self.probabilities(text)
        if scores is None:
            return []
        merged: dict[str, float] = {}
        for i in np.argsort(scores)[::-1][:_RANKED].tolist():
            label = self.labels[i]
            merged[label] = merged.get(label, 0.0) + float(scores[i])
        return sorted(merged.items(), key=lambda item: item[1], reverse=True)

    def verified(self) -> bool:
        """Whether this ranking agrees with the library's on a few texts (best label, and its
        probability to 1e-3)."""
        for text in _CHECK_TEXTS:
            ours = self.rank(text)
            theirs = self.model.rank(text)
            if not ours or ours[0][0] != theirs[0][0] or abs(ours[0][1] - theirs[0][1]) > 1e-3:
                return False
        return True
