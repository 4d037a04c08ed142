"""py3langid's model, scored with a few numpy passes instead of its per-byte Python loop.

py3langid (langid.py's model: byte n-grams of one to six bytes, naive Bayes over 97 languages)
walks the text's UTF-8 bytes through an Aho-Corasick automaton in a Python loop, one step per
byte (about 0.65 µs a byte), then scores the visited states with a float16 matrix product and
ranks all its labels in Python: about 1 ms for 600 characters, two thirds of it outside the
walk. Hand-written here, because the library offers no vectorised entry point:

- the automaton's state after each byte is the longest suffix of the text read so far that is
  a node of its trie (the automaton's defining property), so the states are found for all
  positions at once: the 1- to 6-byte windows ending at each position are looked up, as
  integers, in the sorted keys of the trie's nodes (`numpy.searchsorted`), the longest found
  winning. The node keys are recovered once from the automaton's transition table, level by
  level (a node's children are the targets one level deeper);
- the scores are the library's own formula (log1p of the state counts times the per-state
  log-probabilities, plus the priors, scaled by one over the root of the byte length, softmax),
  with the matrix product in float32.

The answer is the library's, to rounding: `Identifier.verified` compares both on a few texts
when the model loads, and `language.py` falls back to the library's own `rank` if they differ
(a future py3langid with another model layout). Cost on 600 characters: about 0.1 ms.
"""

from __future__ import annotations

import math
import unicodedata
from typing import Any, Final

import numpy as np

__all__ = ["Identifier"]

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
#: The model's longest n-gram (its trie's depth), in bytes: the automaton's state after a
#: byte depends on that many bytes at most.
_WINDOW: Final = 6


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
        if len(model.tk_nextmove) >= 2**31:
            raise ValueError("py3langid's automaton is larger than int32 offsets reach")
        self.moves = np.frombuffer(model.tk_nextmove, dtype=np.dtype(model.tk_nextmove.typecode))
        # int32 (the rows times 256 stay under 2**31): half the memory the walk reads at random.
        self.row_base = np.asarray(model.tk_row, dtype=np.int32) << 8
        self.output = np.asarray(model.tk_output, dtype=np.int64)
        # The per-state log-probabilities, float16, read as their bits (`_float32`).
        self.table = np.ascontiguousarray(model.nb_ptc).view(np.uint16)
        self.priors = np.asarray(model.nb_pc, dtype=np.float32)
        self.labels: list[str] = list(model.nb_classes)
        # A byte that leads from the start state back to it (one no n-gram begins with, such
        # as NUL): _WINDOW - 1 of them before the text let every position walk a full window.
        start = self.moves[self.row_base[0] : self.row_base[0] + 256]
        self.padding = bytes([int(np.nonzero(start == 0)[0][0])]) * (_WINDOW - 1)

    def probabilities(self, text: str) -> Any:
        """Each of the model's classes' probability for ``text`` (None without features)."""
        if text.isupper():
            text = text.lower()
        data = unicodedata.normalize("NFC", text).encode("utf-8", "surrogatepass")
        if not data:
            return None
        size = len(data)
        values = np.frombuffer(self.padding + data, dtype=np.uint8).astype(np.int32)
        moves, row_base = self.moves, self.row_base
        # The state after byte i: the walk from the start over bytes i-5..i (the padding where
        # the text is shorter), one step for all positions at once.
        state = moves[row_base[0] + values[:size]]
        for step in range(1, _WINDOW):
            state = moves[row_base[state] + values[step : step + size]]
        features = self.output[state]
        features = features[features >= 0]
        if not len(features):
            return None
        index, counts = np.unique(features, return_counts=True)
        scores = np.log1p(counts.astype(np.float32)) @ _float32(self.table[index])
        scores += self.priors
        scores *= 1.0 / math.sqrt(len(data))
        np.exp(scores - scores.max(), out=scores)
        scores /= scores.sum()
        return scores

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
