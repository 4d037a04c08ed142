"""The selected content as small, clean HTML: paragraphs, headings, lists, quotes, code, tables
and figure captions. Built from the kept segments, so it never carries scripts, attributes,
styles or anything the body text left out (captions excepted: they belong with the content)."""

from __future__ import annotations

from typing import Final

from newsspider.extraction.page.page_model import HEADING_TAGS, PageSegments

_LIST_ITEM: Final = "li"
_CELL_TAGS: Final = frozenset({"td", "th"})


def _escape(text: str) -> str:
    """`html.escape(text, quote=False)`: the same three replacements, without the call into an
    interpreted stdlib function per segment (a third of this stage on long pages); the common
    case, text without any of the three characters, returns it as it is."""
    if "&" in text:
        text = text.replace("&", "&amp;")
    if "<" in text:
        text = text.replace("<", "&lt;")
    if ">" in text:
        text = text.replace(">", "&gt;")
    return text


def _list_tag(page: PageSegments, block_id: int) -> str:
    parent = page.block_parents[block_id]
    return "ol" if parent >= 0 and page.block_tags[parent] == "ol" else "ul"


def _row_of(page: PageSegments, block_id: int) -> int:
    parent = page.block_parents[block_id]
    return parent if parent >= 0 and page.block_tags[parent] == "tr" else block_id


def body_html(
    page: PageSegments, segment_ids: tuple[int, ...], caption_ids: tuple[int, ...]
) -> str:
    """Render kept segments (and captions) in document order."""
    # Sorted with repeats skipped in the loop: a set of every id would take several times the
    # memory of the list on a big body.
    ordered = sorted(segment_ids + caption_ids)
    captions = set(caption_ids)
    previous = -1
    out: list[str] = []
    open_list: str | None = None
    open_row: int | None = None
    in_table = False

    def close_list() -> None:
        nonlocal open_list
        if open_list:
            out.append(f"</{open_list}>")
            open_list = None

    def close_table() -> None:
        nonlocal in_table, open_row
        if in_table:
            out.append("</tr></table>")
            in_table = False
            open_row = None

    for index in ordered:
        if index == previous:
            continue
        previous = index
        tag = page.segment_tags[index]
        lines = page.segment_lines[index]
        inner = _escape(lines[0]) if len(lines) == 1 else "<br>".join(map(_escape, lines))
        if tag != _LIST_ITEM:
            close_list()
        if tag not in _CELL_TAGS:
            close_table()
        if index in captions:
            out.append(f"<figure><figcaption>{inner}</figcaption></figure>")
        elif tag == _LIST_ITEM:
            wanted = _list_tag(page, page.segment_owners[index])
            if open_list != wanted:
                close_list()
                out.append(f"<{wanted}>")
                open_list = wanted
            out.append(f"<li>{inner}</li>")
        elif tag in _CELL_TAGS:
            row = _row_of(page, page.segment_owners[index])
            if not in_table:
                out.append("<table><tr>")
                in_table = True
            elif row != open_row:
                out.append("</tr><tr>")
            open_row = row
            out.append(f"<{tag}>{inner}</{tag}>")
        elif tag in HEADING_TAGS:
            out.append(f"<{tag}>{inner}</{tag}>")
        elif tag == "pre":
            out.append(f"<pre>{_escape(chr(10).join(lines))}</pre>")
        elif tag == "blockquote":
            out.append(f"<blockquote><p>{inner}</p></blockquote>")
        else:
            out.append(f"<p>{inner}</p>")
    close_list()
    close_table()
    return "\n".join(out)
