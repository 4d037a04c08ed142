"""Per-process caches keyed by page text, bounded in bytes as well as entries.

Class values, meta names and titles repeat from page to page, so caching what they mean pays;
but a page can supply a 4 MB class value, and an entry-count bound alone would then keep
gigabytes. Arguments longer than `MAX_KEY_CHARS` are computed without the cache.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable
from typing import Any, Final, TypeVar, cast

__all__ = ["MAX_KEY_CHARS", "cacheable", "short_key_cache"]

#: Longest string argument kept as a cache key. Titles are cut to 400 characters before they
#: reach a cache (`text.field_text`); class values and meta names are rarely over 100.
MAX_KEY_CHARS: Final = 512

F = TypeVar("F", bound=Callable[..., Any])


def cacheable(*keys: object) -> bool:
    """Whether every string among ``keys`` is short enough to be kept as a cache key."""
    return _short_keys(keys)


def _short_keys(keys: tuple[object, ...]) -> bool:
    """`cacheable` on a tuple of keys: the cache wrapper passes its arguments as they came (a
    call with unpacked arguments per cached call cost about as much as the loop again)."""
    # A plain loop: `all()` over a generator costs twice as much, and this runs per element.
    for key in keys:  # noqa: SIM110 - measured: faster than all() over a generator
        if isinstance(key, str) and len(key) > MAX_KEY_CHARS:
            return False
    return True


def short_key_cache(maxsize: int) -> Callable[[F], F]:
    """`functools.lru_cache` (positional arguments) that computes calls with a long string
    argument directly."""

    def decorate(function: F) -> F:
        cached = functools.lru_cache(maxsize=maxsize)(function)

        @functools.wraps(function)
        def call(*args: Hashable) -> Any:
            return cached(*args) if _short_keys(args) else function(*args)

        return cast("F", call)

    return decorate
