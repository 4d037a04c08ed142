"""`PreparedExtractions`: articles the content filter extracted, handed to the pipeline.

The filter extracts a judged response with the pipeline's own function and arguments; the
spider's callback then builds a `PageItem` from the same response (same body object, URL,
encoding and hints), and the pipeline takes the article from here instead of extracting the
page a second time. An entry is matched by the identity of the body bytes (held by the entry, so
the identity cannot be reused meanwhile) and by everything else the extraction depends on; it is
removed when taken, when its response is garbage-collected, or, past `MAX_ENTRIES`, oldest first
(a page whose entry is gone is simply extracted again).
"""

from __future__ import annotations

import contextlib
import weakref
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Final

from newsspider.extraction.article import Article

__all__ = ["Prepared", "PreparedExtractions"]

#: Bodies held at most (responses whose callback yields no `PageItem` leave theirs behind until
#: garbage collection): bounds the memory to this many pages.
MAX_ENTRIES: Final = 256


@dataclass(frozen=True, slots=True)
class Prepared:
    """One extraction made by the content filter, with the inputs it was made from."""

    body: bytes = field(repr=False)
    url: str
    encoding: str | None
    hints: dict[str, Any]
    article: Article


class PreparedExtractions:
    def __init__(self, max_entries: int = MAX_ENTRIES) -> None:
        self._entries: OrderedDict[int, Prepared] = OrderedDict()
        self._max_entries = max_entries

    def __len__(self) -> int:
        return len(self._entries)

    def put(self, response: Any, prepared: Prepared) -> None:
        key = id(prepared.body)
        self._entries[key] = prepared
        self._entries.move_to_end(key)
        with contextlib.suppress(KeyError):  # emptied meanwhile by a finalizer
            while len(self._entries) > self._max_entries:
                self._entries.popitem(last=False)
        # A response class without weak references raises TypeError: the bound still holds.
        with contextlib.suppress(TypeError):
            weakref.finalize(response, self._discard, key, prepared)

    def take(
        self, body: bytes, url: str, encoding: str | None, hints: dict[str, Any]
    ) -> Article | None:
        """The article prepared for exactly these inputs, removed from the store; else None."""
        # One `pop`: a finalizer may run on another thread (garbage collection happens
        # wherever it is triggered) and remove an entry between a lookup and a `del`.
        prepared = self._entries.pop(id(body), None)
        if prepared is None or prepared.body is not body:
            return None  # (an entry found by id holds that body alive: always the same object)
        if prepared.url != url or prepared.encoding != encoding or prepared.hints != hints:
            return None  # the callback changed an input (extra hints...): extract again
        return prepared.article

    def clear(self) -> None:
        self._entries.clear()

    def _discard(self, key: int, prepared: Prepared) -> None:
        if self._entries.get(key) is prepared:
            self._entries.pop(key, None)
