"""Generated article pages of plain English news vocabulary, the same for the same index on every
run: the crawl-speed benchmark's and the hostile-crawl site's articles."""

from __future__ import annotations

import random

from support.filler import WORDS


def sentence(rng: random.Random) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(8, 22))]
    return " ".join(words).capitalize() + rng.choice([".", ".", ".", "?", "!"])


def article_page(index: int) -> bytes:
    rng = random.Random(index)
    title = " ".join(rng.choice(WORDS) for _ in range(7)).capitalize()
    nav = "".join(f'<li><a href="/section/{i}">Section {i}</a></li>' for i in range(20))
    paragraphs = "".join(
        "<p>" + " ".join(sentence(rng) for _ in range(rng.randint(3, 7))) + "</p>\n"
        for _ in range(rng.randint(6, 12))
    )
    related = "".join(
        f'<li><a href="/a/{rng.randrange(10**6)}.html">{sentence(rng)}</a></li>' for _ in range(5)
    )
    return (
        f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{title} | Bench"
        f" Times</title><meta property='og:title' content='{title}'>"
        f"<meta property='article:published_time' content='2024-0{1 + index % 9}-1{index % 10}'>"
        f"</head><body><header><nav><ul>{nav}</ul></nav></header><main><article>"
        f"<h1>{title}</h1><p class='byline'>By Bench Writer</p>{paragraphs}</article>"
        f"<aside><h3>Related</h3><ul>{related}</ul></aside></main>"
        f"<footer><p>© Bench Times</p></footer></body></html>"
    ).encode()
