"""Near-duplicate detection (`newsspider.near_duplicates`) on a set built from the development
corpora: every truth body as a distinct article, and for each one an edited copy.

    .venv/bin/python -m bench.accuracy.near_duplicates [--threshold 0.5 ...] [--seed 1]

A copy is its original with another header (a byline, a dateline, share links), another footer
(copyright, newsletter, a "related" teaser from another article), and small edits: about one
sentence in twenty dropped and one word in fifty replaced by a word of another article (a wire
story as another site runs it). The originals are fed first, in corpus order: an original flagged
as a near-duplicate of another is a false positive ("distinct flagged", listed with its
similarity: some corpora share real copies). Then the copies: a copy is found when it is
flagged as a duplicate of its own original. Reported per threshold: copies found, distinct
articles flagged, per-page signature time (and as a multiple of the bare lxml parse of the
pages, same run), and the index's memory per remembered page (tracemalloc).
"""

from __future__ import annotations

import argparse
import random
import re
import time
import tracemalloc
from collections.abc import Sequence

from bench.corpus import Page, available_corpora, corpora_root, load_corpus

_SENTENCE_RE = re.compile(r"(?<=[.!?。！？])\s+|\n+")
_WORD_RE = re.compile(r"\w+")

_NAMES = ("Ana Lima", "J. Smith", "Staff Reporter", "Wire Desk", "Maria Rossi", "Li Wei")
_SITES = ("The Daily Ledger", "Metro Wire", "Valley Post", "News24x7", "Global Desk")


def _header(rng: random.Random) -> str:
    name, site = rng.choice(_NAMES), rng.choice(_SITES)
    day = f"{rng.randint(1, 28)} March 2024"
    return rng.choice(
        (
            f"By {name} | {site} | {day}",
            f"{site} — {day}. Share: Facebook Twitter WhatsApp Email",
            f"Published {day}, updated {rng.randint(1, 12)}:{rng.randint(10, 59)}. By {name}",
            f"Advertisement\nBy {name}, {site}",
        )
    )


def _footer(rng: random.Random, other: str) -> str:
    site = rng.choice(_SITES)
    teaser = " ".join(other.split()[:25])
    return rng.choice(
        (
            f"Copyright 2024 {site}. All rights reserved. This material may not be published, "
            "broadcast, rewritten or redistributed.",
            f"Sign up for the {site} newsletter to get the day's top stories. Related: {teaser}",
            f"Read more: {teaser}\nFollow {site} on social media.",
        )
    )


def edited_copy(body: str, other: str, rng: random.Random) -> str:
    """``body`` under another header and footer, with small edits (see the module docstring)."""
    other_words = _WORD_RE.findall(other) or ["update"]
    sentences = [s for s in _SENTENCE_RE.split(body) if s.strip()]
    kept = [s for s in sentences if len(sentences) < 3 or rng.random() >= 0.05]
    edited = []
    for sentence in kept:
        words = sentence.split(" ")
        for i in range(len(words)):
            if rng.random() < 0.02:
                words[i] = rng.choice(other_words)
        edited.append(" ".join(words))
    return "\n".join([_header(rng), *edited, _footer(rng, other)])


def _pages(names: Sequence[str], root: str | None) -> list[Page]:
    pages: list[Page] = []
    for name in names:
        pages.extend(p for p in load_corpus(name, corpora_root(root)) if p.body)
    return pages


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", action="append")
    parser.add_argument("--corpora")
    parser.add_argument("--threshold", type=float, action="append")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    import lxml.html

    from newsspider.near_duplicates import NearDuplicateIndex, shingle_hashes

    root = corpora_root(args.corpora)
    pages = _pages(args.corpus or available_corpora(root), args.corpora)
    pages = [p for p in pages if shingle_hashes(p.body or "")]
    rng = random.Random(args.seed)
    copies = [
        edited_copy(p.body or "", pages[(i * 7 + 3) % len(pages)].body or "", rng)
        for i, p in enumerate(pages)
    ]
    start = time.process_time()
    for page in pages:
        lxml.html.fromstring(page.html)
    parse = (time.process_time() - start) / len(pages)
    print(
        f"{len(pages)} distinct bodies (truth bodies of {len({p.corpus for p in pages})} corpora)"
    )
    print(
        "| threshold | copies found | distinct articles flagged | signature ms/page | × parse | "
        "memory B/page |"
    )
    print("|---|---|---|---|---|---|")
    from newsspider.spiders.filters import url_key

    timed = NearDuplicateIndex()
    start = time.process_time()
    for page in pages:
        timed.signature(page.body or "")
    sign = (time.process_time() - start) / len(pages)
    keys = [url_key(p.url) if p.url else f"{p.corpus}/{p.id}" for p in pages]
    shingles = [set(shingle_hashes(p.body or "")) for p in pages]
    details: list[str] = []
    for threshold in args.threshold or [0.3, 0.4, 0.5, 0.6, 0.7]:
        index = NearDuplicateIndex(threshold, max_pages=len(pages) + 1)
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        # Original -> the earlier original it was flagged as a copy of (itself when not).
        stands_for: dict[int, int] = {}
        known = false = 0
        fp_pairs: list[str] = []
        for i, page in enumerate(pages):
            seen = index.match(index.signature(page.body or ""))
            if seen is None:
                index.add(str(i), index.signature(page.body or ""))
                stands_for[i] = i
                continue
            j = int(seen)
            stands_for[i] = stands_for[j]
            exact = len(shingles[i] & shingles[j]) / len(shingles[i] | shingles[j])
            if keys[i] == keys[j] or exact >= 0.9:
                known += 1  # the same page twice in the corpora, or the same article
            else:
                false += 1
                fp_pairs.append(
                    f"{page.corpus}/{page.id}~{pages[j].corpus}/{pages[j].id} ({exact:.2f})"
                )
        memory = (tracemalloc.get_traced_memory()[0] - before) / len(index)
        tracemalloc.stop()
        found = wrong = 0
        missed: dict[str, int] = {}
        for i, (page, copy) in enumerate(zip(pages, copies, strict=True)):
            signature = index.signature(copy)
            seen = index.match(signature) if signature is not None else None
            if seen is not None and stands_for[int(seen)] == stands_for[i]:
                found += 1
            else:
                wrong += seen is not None
                missed[page.corpus] = missed.get(page.corpus, 0) + 1
        n = len(pages)
        print(
            f"| {threshold} | {100 * found / n:.1f}% ({n - found} missed, {wrong} to another) "
            f"| {100 * false / n:.2f}% ({false}; {known} known copies) | {1000 * sign:.3f} "
            f"| {sign / parse:.2f} | {memory:.0f} |"
        )
        details.append(f"- {threshold}: missed by corpus {missed}; false positives {fp_pairs}")
    print("\n" + "\n".join(details))


if __name__ == "__main__":
    main()
