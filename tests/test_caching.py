"""The bounded caches: a long string argument is computed, never kept."""

from __future__ import annotations

from newsspider.extraction.common.caching import MAX_KEY_CHARS, cacheable, short_key_cache


def test_short_key_cache_keeps_short_arguments_only() -> None:
    calls: list[tuple[str, int]] = []

    @short_key_cache(8)
    def repeat(text: str, times: int) -> str:
        calls.append((text, times))
        return text * times

    long_text = "x" * (MAX_KEY_CHARS + 1)
    assert repeat("ab", 2) == repeat("ab", 2) == "abab"
    assert repeat(long_text, 1) == repeat(long_text, 1) == long_text
    assert calls == [("ab", 2), (long_text, 1), (long_text, 1)]


def test_cacheable_reads_every_string_argument() -> None:
    assert cacheable("a" * MAX_KEY_CHARS, None, 3)
    assert not cacheable("a", "b" * (MAX_KEY_CHARS + 1))
    assert cacheable()
