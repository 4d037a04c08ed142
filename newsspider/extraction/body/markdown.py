"""The article as Markdown (GitHub-flavoured: pipe tables, fenced code, ``~~strike~~``).

Written here from `Article.body_html`, the small tree `article_html` builds from an
allow-list (paragraphs, headings, lists, tables, quotes, code, figures; links, images, emphasis).
Hand-written after measuring the converters on the development pages
(``python -m bench.speed.markdown_converters``, docs/article-html.md): markdownify and html2text
cost 6.6 and 3.1 times more per page and lose a third of the tables; html-to-markdown (Rust) is a
little faster (0.22 against 0.31 times the bare parse, only when Markdown is asked for) but is
safe only with ``escape_misc`` and would add a compiled dependency to every install.

Every text is escaped (``\\ ` * _ [ ] < ~`` everywhere, block markers at line starts, ``|`` in
table cells), so page text cannot turn into Markdown structure or links.
"""

from __future__ import annotations

import re
import threading
from typing import Final

from lxml import etree

#: ``colspan``/``rowspan`` beyond this count as this (bounded table width on hostile pages).
MAX_SPAN: Final = 64
#: Nesting beyond this is written as plain paragraphs (bounded recursion on hostile pages).
MAX_DEPTH: Final = 32
_HEADINGS: Final = {f"h{level}": "#" * level for level in range(1, 7)}
_SPACES: Final = re.compile(r"\s+")
_ESCAPED: Final = re.compile(r"([\\`*_\[\]<~])")
# A line that Markdown would read as a heading, quote, list item, rule or setext underline.
_BLOCK_START: Final = re.compile(r"^(#|>|[-+*](?=\s|$)|[-=_]{3,}|\d{1,9}[.)](?=\s|$))")
_BACKTICKS: Final = re.compile(r"`+")
# A block this writer made a list of (escaped text never starts so: `_guard_line_starts`).
_LIST_ITEM: Final = re.compile(r"(?:-|\d{1,9}\.) ")
_STRONG: Final = frozenset({"b", "strong"})
_EMPHASIS: Final = frozenset({"i", "em", "cite", "dfn", "var"})
_STRIKE: Final = frozenset({"s", "del", "strike"})
_CODE: Final = frozenset({"code", "kbd", "samp", "tt"})
_BLOCKS: Final = frozenset(
    """p h1 h2 h3 h4 h5 h6 ul ol li dl dt dd table thead tbody tfoot tr td th caption
    blockquote pre figure figcaption div hr""".split()
)


_thread_state = threading.local()


def _parser() -> etree.HTMLParser:
    # One per thread (lxml parsers are not shared across threads); huge_tree: without it
    # libxml2 drops what lies below depth 256.
    parser: etree.HTMLParser | None = getattr(_thread_state, "parser", None)
    if parser is None:
        parser = etree.HTMLParser(huge_tree=True, no_network=True)
        _thread_state.parser = parser
    return parser


def to_markdown(html: str) -> str:
    """`Article.body_html` (or any HTML fragment) as Markdown; "" for no content."""
    if not html or html.isspace():
        return ""
    root = etree.fromstring(f"<html><body>{html}</body></html>", _parser())
    if root is None:
        return ""
    body = root.find("body")
    return tree_to_markdown(body if body is not None else root)


def tree_to_markdown(container: etree._Element) -> str:
    """The children of ``container`` as Markdown blocks, separated by blank lines."""
    text = "\n\n".join(_blocks(container, 0)).strip("\n")
    return text + "\n" if text else ""


def _all_text(element: etree._Element) -> str:
    # Parsed HTML yields str only (the stubs allow bytes).
    return "".join(str(text) for text in element.itertext())


def escape_markdown(text: str) -> str:
    """``text`` with every character Markdown reads as inline syntax escaped."""
    return _ESCAPED.sub(r"\\\1", text)


def _guard_line_starts(text: str) -> str:
    """Escape what would start a block at the start of each line of a paragraph."""
    lines = text.split("\n")
    for index, line in enumerate(lines):
        stripped = line.lstrip()
        match = _BLOCK_START.match(stripped)
        if match is not None:
            indent = line[: len(line) - len(stripped)]
            found = match.group(0)
            if found[-1] in ".)":  # "1. " -> "1\. "
                lines[index] = f"{indent}{found[:-1]}\\{found[-1]}{stripped[len(found) :]}"
            else:
                lines[index] = f"{indent}\\{stripped}"
    return "\n".join(lines)


def _destination(url: str) -> str:
    return url.replace(" ", "%20").replace("(", "%28").replace(")", "%29").replace("<", "%3C")


def _wrap(inner: str, mark: str) -> str:
    """``mark`` around ``inner``, the spaces at its edges moved outside (``** x**`` is no
    emphasis in Markdown)."""
    core = inner.strip()
    if not core:
        return inner
    lead = " " if inner[0].isspace() else ""
    trail = " " if inner[-1].isspace() else ""
    return f"{lead}{mark}{core}{mark}{trail}"


def _code(text: str) -> str:
    text = " ".join(text.split())
    if not text:
        return ""
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _inline(element: etree._Element, depth: int, cell: bool = False) -> str:
    """The inline content of ``element`` (its text, children and their tails), as Markdown."""
    parts: list[str] = []
    if element.text:
        parts.append(escape_markdown(_SPACES.sub(" ", element.text)))
    for child in element:
        parts.append(_inline_element(child, depth + 1, cell))
        if child.tail:
            parts.append(escape_markdown(_SPACES.sub(" ", child.tail)))
    return "".join(parts)


def _inline_element(element: etree._Element, depth: int, cell: bool) -> str:
    tag = element.tag
    if not isinstance(tag, str):
        return ""
    if depth > MAX_DEPTH:
        return escape_markdown(_SPACES.sub(" ", _all_text(element)))
    if tag == "br":
        return "<br>" if cell else "\\\n"
    if tag == "img":
        src = element.get("src")
        if not src:
            return ""
        alt = escape_markdown(" ".join((element.get("alt") or "").split()))
        return f"![{alt}]({_destination(src)})"
    if tag in _CODE:
        return _code(_all_text(element))
    inner = _inline(element, depth, cell)
    if tag == "a":
        href = element.get("href")
        if not href:
            return inner
        text = inner.strip()
        return f"[{text}]({_destination(href)})" if text else f"<{_destination(href)}>"
    if tag in _STRONG:
        return _wrap(inner, "**")
    if tag in _EMPHASIS:
        return _wrap(inner, "*")
    if tag in _STRIKE:
        return _wrap(inner, "~~")
    if tag in _BLOCKS:  # a block inside inline content (a table cell's paragraphs)
        return f" {inner.strip()} " if not cell else f"{inner.strip()}<br>"
    return inner


def _paragraph(element: etree._Element, depth: int) -> str:
    text = _inline(element, depth)
    lines = [line.strip() for line in text.split("\n")]
    return _guard_line_starts("\n".join(line for line in lines if line))


def _blocks(container: etree._Element, depth: int) -> list[str]:
    """The Markdown blocks of ``container``'s content: loose inline content becomes a
    paragraph, each block child its own block(s)."""
    out: list[str] = []
    loose: list[str] = []

    def flush_loose() -> None:
        text = "".join(loose).strip()
        loose.clear()
        if text:
            out.append(_guard_line_starts(text))

    if container.text and not container.text.isspace():
        loose.append(escape_markdown(_SPACES.sub(" ", container.text)))
    for child in container:
        tag = child.tag
        if isinstance(tag, str) and tag in _BLOCKS:
            flush_loose()
            block = _block(child, depth + 1)
            if block:
                out.append(block)
        else:
            loose.append(_inline_element(child, depth + 1, False))
        if child.tail and not child.tail.isspace():
            loose.append(escape_markdown(_SPACES.sub(" ", child.tail)))
    flush_loose()
    return out


def _block(element: etree._Element, depth: int) -> str:
    tag = element.tag
    if depth > MAX_DEPTH:
        text = escape_markdown(" ".join(_all_text(element).split()))
        return _guard_line_starts(text)
    if tag in _HEADINGS:
        text = " ".join(_inline(element, depth).split())
        return f"{_HEADINGS[tag]} {text}" if text else ""
    if tag in ("ul", "ol"):
        return _list(element, depth)
    if tag == "blockquote":
        inner = "\n\n".join(_blocks(element, depth))
        return "\n".join(f"> {line}" if line else ">" for line in inner.split("\n"))
    if tag == "pre":
        return _fenced(_all_text(element))
    if tag == "table":
        return _table(element, depth)
    if tag == "figure":
        return "\n\n".join(_figure_parts(element, depth))
    if tag == "figcaption":
        caption = _paragraph(element, depth)
        return f"*{caption}*" if caption else ""
    if tag == "hr":
        return "---"
    if tag in ("p", "dd", "caption", "td", "th"):
        return _paragraph(element, depth)
    if tag == "dt":
        text = _paragraph(element, depth)
        return f"**{text}**" if text else ""
    return "\n\n".join(_blocks(element, depth))  # div, dl, li out of a list, ...


def _figure_parts(figure: etree._Element, depth: int) -> list[str]:
    """A figure's content (images, embeds), then its caption in italics."""
    parts = _blocks(figure, depth)
    return [part for part in parts if part]


def _fenced(text: str) -> str:
    text = text.strip("\n")
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}\n{text}\n{fence}"


def _list(element: etree._Element, depth: int) -> str:
    ordered = element.tag == "ol"
    start = element.get("start")
    number = int(start) if start is not None and start.isdigit() else 1
    items: list[str] = []
    for child in element:
        if not isinstance(child.tag, str):
            continue
        if child.tag != "li":
            block = _block(child, depth + 1)
            if block:
                items.append(block)
            continue
        marker = f"{number}. " if ordered else "- "
        number += 1
        # Paragraphs of one item stay apart (a blank line); a nested list follows its line.
        blocks = _blocks(child, depth + 1)
        body = blocks[0] if blocks else ""
        for block in blocks[1:]:
            body += ("\n" if _LIST_ITEM.match(block) else "\n\n") + block
        pad = " " * len(marker)
        lines = body.split("\n")
        text = marker + lines[0] + "".join(f"\n{pad}{line}" if line else "\n" for line in lines[1:])
        items.append(text.rstrip())
    return "\n".join(items)


def _cell(cell: etree._Element, depth: int) -> str:
    text = _inline(cell, depth, cell=True).strip()
    text = text.replace("\n", " ").replace("|", "\\|")
    return text.removesuffix("<br>").strip()


def _table(table: etree._Element, depth: int) -> str:
    """A GitHub pipe table: the first row is the header (GFM needs one); ``colspan`` cells are
    padded, ``rowspan`` cells leave an empty cell in the rows below; nested tables are text."""
    rows: list[list[str]] = []
    spans: dict[int, int] = {}  # column -> rows still covered by a rowspan above
    caption = ""
    for element in table.iter("tr", "caption"):
        if element.tag == "caption":
            caption = _paragraph(element, depth)
            continue
        if _nested(element, table):
            continue
        row: list[str] = []
        for cell in element:
            if cell.tag not in ("td", "th"):
                continue
            while spans.get(len(row), 0) > 0:
                spans[len(row)] -= 1
                row.append("")
            span = _span(cell.get("colspan"))
            down = _span(cell.get("rowspan"))
            for offset in range(span):
                if down > 1:
                    spans[len(row)] = down - 1
                row.append(_cell(cell, depth) if offset == 0 else "")
        while spans.get(len(row), 0) > 0:
            spans[len(row)] -= 1
            row.append("")
        if row:
            rows.append(row)
    if not rows:
        return caption
    width = max(len(row) for row in rows)
    lines = []
    for index, row in enumerate(rows):
        cells = row + [""] * (width - len(row))
        lines.append("| " + " | ".join(cells) + " |")
        if index == 0:
            lines.append("|" + "|".join(" --- " for _ in range(width)) + "|")
    text = "\n".join(lines)
    return f"{caption}\n\n{text}" if caption else text


def _nested(row: etree._Element, table: etree._Element) -> bool:
    parent = row.getparent()
    while parent is not None and parent is not table:
        if parent.tag == "table":
            return True
        parent = parent.getparent()
    return False


def _span(value: str | None) -> int:
    if value is None or not value.isdigit():
        return 1
    return max(1, min(int(value), MAX_SPAN))
