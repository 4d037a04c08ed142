"""Markdown from `Article.body_html`: newsspider's own writer against the maintained converters.

    .venv/bin/python -m bench.speed.markdown_converters                 # every corpus
    .venv/bin/python -m bench.speed.markdown_converters --corpus scrapinghub_aeb --repeat 3

Per converter, over the development pages' `body_html` (extracted once): CPU time per page, and
as a multiple of the bare ``lxml.html.fromstring`` of the same pages (best of N passes); and
what it keeps of the tree: links (``[text](href)`` with the href), list items (a line starting
with a list marker holding the item's first words), tables (a GFM separator row and a row per
table row). Converters that are not installed are listed as missing: markdownify, html2text
and html-to-markdown are in the ``bench`` extra. Prints a Markdown table; docs/markdown.md
keeps the measured one.
"""

from __future__ import annotations

import argparse
import importlib
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import lxml.html

from bench.corpus import available_corpora, corpora_root, load_corpus

_LIST_MARKER = re.compile(r"^\s*(?:[-*+]|\d{1,9}[.)])\s+")
_SEPARATOR = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$")
_WORDS = re.compile(r"\w+")
_DESTINATION = re.compile(r"\]\([^)]*\)|<https?:[^>]*>")


def _own() -> Callable[[str], str]:
    from newsspider.extraction.body.markdown import to_markdown

    return to_markdown


def _markdownify() -> Callable[[str], str]:
    module: Any = importlib.import_module("markdownify")

    def convert(html: str) -> str:
        return str(module.markdownify(html, heading_style="ATX", bullets="-"))

    return convert


def _html2text() -> Callable[[str], str]:
    module: Any = importlib.import_module("html2text")

    def convert(html: str) -> str:
        converter = module.HTML2Text()
        converter.body_width = 0  # no hard wrapping
        return str(converter.handle(html))

    return convert


def _html_to_markdown() -> Callable[[str], str]:
    module: Any = importlib.import_module("html_to_markdown")
    # Escaping as strict as the own writer's: without escape_misc, page text such as
    # "[a](b)" or "<script>" comes out as live Markdown or HTML.
    options = module.ConversionOptions(
        escape_asterisks=True, escape_underscores=True, escape_misc=True
    )

    def convert(html: str) -> str:
        return str(module.convert(html, options).content)

    return convert


CONVERTERS: dict[str, Callable[[], Callable[[str], str]]] = {
    "newsspider (own writer)": _own,
    "markdownify": _markdownify,
    "html2text": _html2text,
    "html-to-markdown": _html_to_markdown,
}


@dataclass
class Score:
    seconds: float = 0.0
    links: list[int] = field(default_factory=lambda: [0, 0])
    items: list[int] = field(default_factory=lambda: [0, 0])
    tables: list[int] = field(default_factory=lambda: [0, 0])


def _words(text: str, count: int = 4) -> list[str]:
    return _WORDS.findall(text)[:count]


def judge(html: str, markdown: str, score: Score) -> None:
    """Count what of ``html``'s links, list items and tables ``markdown`` kept."""
    if not html:
        return
    tree = lxml.html.fragment_fromstring(html, create_parent="div")
    unescaped = markdown.replace("\\", "")
    for link in tree.iter("a"):
        href = link.get("href")
        if not href or not link.text_content().strip():
            continue
        score.links[1] += 1
        variants = {href, href.replace(" ", "%20").replace("(", "%28").replace(")", "%29")}
        # [text](href), [text](<href>), or an autolink <href> when the text is the URL.
        score.links[0] += any(
            f"]({v}" in markdown or f"](<{v}>" in markdown or f"<{v}>" in markdown for v in variants
        )
    marker_lines = [
        _words(_DESTINATION.sub("", _LIST_MARKER.sub("", line)))
        for line in unescaped.splitlines()
        if _LIST_MARKER.match(line)
    ]
    for item in tree.iter("li"):
        words = _words(item.text_content(), 2)
        if not words:
            continue
        score.items[1] += 1
        score.items[0] += any(found[: len(words)] == words for found in marker_lines)
    lines = markdown.splitlines()
    for table in tree.iter("table"):
        rows = [row for row in table.iter("tr") if row.text_content().strip()]
        if len(rows) < 2 or table.find(".//table") is not None:
            continue
        score.tables[1] += 1
        cells = [cell.text_content() for cell in rows[0] if cell.text_content().strip()]
        first = _words(cells[0], 1) if cells else []
        for index, line in enumerate(lines):
            if first and first[0] in line and "|" in line:
                block = lines[index : index + len(rows) + 1]
                if len(block) > 1 and _SEPARATOR.match(block[1]):
                    pipe_rows = [row for row in block if "|" in row]
                    score.tables[0] += len(pipe_rows) >= len(rows) + 1
                    break


def run(names: Sequence[str], root: str | None, repeat: int) -> None:
    from newsspider import extract

    pages = [page for name in names for page in load_corpus(name, corpora_root(root))]
    bodies = [extract(page.html, url=page.url).body_html for page in pages]
    parse = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        for page in pages:
            lxml.html.fromstring(page.html)
        parse = min(parse, time.process_time() - start)
    print(
        f"{len(pages)} pages ({', '.join(names)}); bare lxml parse "
        f"{1000 * parse / len(pages):.2f} ms/page; best of {repeat}\n"
    )
    print("| converter | ms/page | × parse | links kept | list items kept | tables kept |")
    print("|---|---:|---:|---:|---:|---:|")
    for label, make in CONVERTERS.items():
        try:
            convert = make()
        except ImportError:
            print(f"| {label} | not installed | | | | |")
            continue
        score = Score(seconds=float("inf"))
        outputs: list[str] = []
        for _ in range(repeat):
            start = time.process_time()
            outputs = [convert(body) for body in bodies]
            score.seconds = min(score.seconds, time.process_time() - start)
        for body, markdown in zip(bodies, outputs, strict=True):
            judge(body, markdown, score)

        def share(counts: list[int]) -> str:
            return f"{counts[0]}/{counts[1]} ({100 * counts[0] / max(counts[1], 1):.1f}%)"

        print(
            f"| {label} | {1000 * score.seconds / len(pages):.3f} | "
            f"{score.seconds / parse:.3f} | {share(score.links)} | {share(score.items)} | "
            f"{share(score.tables)} |"
        )


def main(argv: Sequence[str] | None = None) -> int:
    prog = "python -m bench.speed.markdown_converters"
    parser = argparse.ArgumentParser(prog=prog, description=__doc__)
    parser.add_argument("--corpus", action="append", help="corpus name (default: all)")
    parser.add_argument("--corpora", help="corpora folder (default: ../shared/corpora)")
    parser.add_argument("--repeat", type=int, default=2, help="timing: best of N (default 2)")
    args = parser.parse_args(argv)
    names = [n for value in args.corpus or [] for n in value.split(",")]
    run(names or available_corpora(corpora_root(args.corpora)), args.corpora, args.repeat)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
