"""Near-duplicate bodies: `NearDuplicateIndex` (MinHash + LSH, bounded) and the
`NearDuplicatePipeline` that flags or drops an article whose body nearly repeats an earlier one.

A news crawl is full of syndicated copies: the same wire story under another header, footer and
byline, with a sentence edited. Byte-identical bodies are caught by `CrawlFilterPipeline`; these
are not. Each body becomes a MinHash signature (datasketch) of its word 3-shingles; an LSH index
(datasketch ``MinHashLSH``) finds earlier bodies whose estimated Jaccard similarity may pass the
threshold, and the signatures confirm it. At most ``max_pages`` bodies are remembered (the least
recently matched are forgotten first); with ``JOBDIR`` the remembered signatures are kept in
``spider.state``, so a resumed crawl still knows the bodies of its earlier runs.

Enable with ``NEWSSPIDER_NEAR_DUPLICATES = "flag"`` (the item's ``duplicate_of`` names the
earlier URL) or ``"drop"``. Needs datasketch (``pip install newsspider[near-duplicates]``).
"""

from __future__ import annotations

import logging
import re
import zlib
from collections import OrderedDict
from typing import Any, Final, Self

from newsspider.items import ArticleItem
from newsspider.settings_defaults import (
    DEFAULTS,
    NEAR_DUPLICATES,
    NEAR_DUPLICATES_MAX_PAGES,
    NEAR_DUPLICATES_THRESHOLD,
)

__all__ = ["NearDuplicateIndex", "NearDuplicatePipeline", "shingle_hashes"]

logger = logging.getLogger(__name__)

#: Signature size: 64 permutations estimate a Jaccard similarity to about ±0.06.
NUM_PERM: Final = 64
#: Words of a body read at most (bounded cost on huge pages; a copy shares its opening 3000).
MAX_WORDS: Final = 3000
#: Bodies with fewer words are not compared (stubs, captions): too little to call a copy.
MIN_WORDS: Final = 40
#: Key of the remembered signatures (URL -> signature bytes, oldest first) in ``spider.state``.
STATE_KEY: Final = "newsspider/near_duplicates/signatures"
# Scripts written without spaces (Han, Kana, Thai): each character is a token, so that a
# shingle is a character trigram there and a word trigram elsewhere.
_UNSPACED: Final = "\u0e00-\u0e7f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_WORD_RE: Final = re.compile(f"[{_UNSPACED}]|[^\\W{_UNSPACED}]+")
_MASK32: Final = 0xFFFFFFFF
_SEED: Final = 1
#: datasketch's permutation scheme (2.0's default), named: saved signatures must match it.
_SCHEME: Final = "affine32"


def shingle_hashes(text: str) -> list[int]:
    """Distinct 32-bit hashes of the text's lower-cased token 3-shingles (stable across
    processes and runs: crc32, not Python's salted ``hash``)."""
    words = _WORD_RE.findall(text.lower())[:MAX_WORDS]
    if len(words) < MIN_WORDS:
        return []
    hashes = list(map(zlib.crc32, map(str.encode, words)))
    return list(
        {
            (a * 0x9E3779B1 ^ b * 0x85EBCA77 ^ c) & _MASK32
            for a, b, c in zip(hashes, hashes[1:], hashes[2:], strict=False)
        }
    )


def _identity(value: int) -> int:
    return value


class NearDuplicateIndex:
    """Bodies seen, as MinHash signatures in an LSH index, at most ``max_pages`` of them."""

    def __init__(self, threshold: float = 0.4, max_pages: int = 10_000) -> None:
        from datasketch import LeanMinHash, MinHash, MinHashLSH

        if not 0.0 < threshold <= 1.0:
            raise ValueError(f"threshold must be in (0, 1], not {threshold!r}")
        self._minhash, self._lean = MinHash, LeanMinHash
        # The permutations drawn once (datasketch draws them per MinHash: a third of the cost).
        self._permutations = MinHash(num_perm=NUM_PERM, seed=_SEED, scheme=_SCHEME).permutations
        self.threshold = threshold
        self.max_pages = max(1, int(max_pages))
        self._lsh = MinHashLSH(threshold=threshold, num_perm=NUM_PERM)
        # URL -> signature, least recently matched first (the eviction order).
        self._pages: OrderedDict[str, Any] = OrderedDict()

    def __len__(self) -> int:
        return len(self._pages)

    def signature(self, body: str) -> Any | None:
        """The body's MinHash, or None when it is too short to compare."""
        hashes = shingle_hashes(body)
        if not hashes:
            return None
        minhash = self._minhash(
            num_perm=NUM_PERM,
            seed=_SEED,
            hashfunc=_identity,
            permutations=self._permutations,
            scheme=_SCHEME,
        )
        minhash.update_batch(hashes)
        return self._lean(minhash)

    def match(self, signature: Any) -> str | None:
        """The remembered URL whose body is most similar to ``signature`` at or above the
        threshold, or None."""
        best: tuple[float, str] | None = None
        for url in self._lsh.query(signature):
            similarity = signature.jaccard(self._pages[url])
            if similarity >= self.threshold and (best is None or similarity > best[0]):
                best = (similarity, url)
        if best is None:
            return None
        self._pages.move_to_end(best[1])
        return best[1]

    def add(self, url: str, signature: Any) -> None:
        if url in self._pages:
            return
        self._lsh.insert(url, signature)
        self._pages[url] = signature
        while len(self._pages) > self.max_pages:
            old, _ = self._pages.popitem(last=False)
            self._lsh.remove(old)

    def check(self, url: str, body: str) -> str | None:
        """The URL this body nearly repeats (then it is not remembered itself), or None (then
        it is remembered)."""
        signature = self.signature(body)
        if signature is None:
            return None
        seen = self.match(signature)
        if seen is None:
            self.add(url, signature)
        return seen

    # JOBDIR state: plain data (URL, signature bytes), rebuilt into the index on load.
    def dump(self) -> list[tuple[str, bytes]]:
        return [(url, sig.hashvalues.astype("<u8").tobytes()) for url, sig in self._pages.items()]

    def load(self, saved: list[tuple[str, bytes]]) -> None:
        import numpy as np

        for url, data in saved[-self.max_pages :]:
            values = np.frombuffer(data, dtype="<u8")
            if len(values) != NUM_PERM:
                continue  # saved by a build with another signature size
            self.add(url, self._lean(seed=_SEED, hashvalues=values, scheme=_SCHEME))


class NearDuplicatePipeline:
    """Flags (``duplicate_of``) or drops articles whose body nearly repeats an earlier one."""

    def __init__(self, crawler: Any, mode: str, threshold: float, max_pages: int) -> None:
        self.crawler = crawler
        self.stats = crawler.stats
        self.mode = mode
        self.index = NearDuplicateIndex(threshold, max_pages)
        self._state_loaded = False

    @classmethod
    def from_crawler(cls, crawler: Any) -> Self:
        from scrapy.exceptions import NotConfigured

        settings = crawler.settings
        mode = settings.get(NEAR_DUPLICATES, DEFAULTS[NEAR_DUPLICATES])
        if not mode:
            raise NotConfigured  # off: the default
        mode = str(mode).lower()
        if mode not in ("flag", "drop"):
            raise NotConfigured(f"{NEAR_DUPLICATES} must be 'flag', 'drop' or empty, not {mode!r}")
        try:
            import datasketch  # noqa: F401
        except ImportError as exc:
            raise NotConfigured(
                f"{NEAR_DUPLICATES} needs datasketch: pip install 'newsspider[near-duplicates]'"
            ) from exc
        threshold = settings.getfloat(
            NEAR_DUPLICATES_THRESHOLD, DEFAULTS[NEAR_DUPLICATES_THRESHOLD]
        )
        max_pages = settings.getint(NEAR_DUPLICATES_MAX_PAGES, DEFAULTS[NEAR_DUPLICATES_MAX_PAGES])
        return cls(crawler, mode, threshold, max_pages)

    def open_spider(self) -> None:
        self._restore()

    def close_spider(self) -> None:
        self._save()

    def _state(self) -> dict[str, Any] | None:
        state = getattr(getattr(self.crawler, "spider", None), "state", None)
        return state if isinstance(state, dict) else None

    def _restore(self) -> None:
        """Signatures saved by an earlier run of this job (``JOBDIR``), once."""
        if self._state_loaded:
            return
        state = self._state()
        if state is None:
            return
        self._state_loaded = True
        saved = state.get(STATE_KEY)
        if isinstance(saved, list):
            self.index.load(saved)

    def _save(self) -> None:
        state = self._state()
        if state is not None:
            state[STATE_KEY] = self.index.dump()

    def process_item(self, item: Any) -> Any:
        if not isinstance(item, ArticleItem) or not item.body:
            return item
        self._restore()  # spider.state exists only once the spider has opened
        url = item.url or item.canonical_url or ""
        seen = self.index.check(url, item.body)
        if seen is None or seen == url:
            return item
        if self.stats is not None:
            self.stats.inc_value("newsspider/near_duplicates/count")
        if self.mode == "drop":
            from scrapy.exceptions import DropItem

            if self.stats is not None:
                self.stats.inc_value("newsspider/dropped/count")
                self.stats.inc_value("newsspider/dropped/reason_count/near_duplicate")
            raise DropItem(f"Near duplicate of {seen}: {url}", log_level="INFO")
        item.duplicate_of = seen
        return item
