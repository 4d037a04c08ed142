"""Type stub of the compiled article renderer (`_article_html_c.pyx`)."""

import re
from collections.abc import Callable
from typing import Any

from lxml import etree

SRCSET_ATTRIBUTES: tuple[str, ...]
SRC_ATTRIBUTES: tuple[str, ...]
WRITER_AGREES: bool

def bind(
    *,
    mismatch: type[Exception],
    resolver: Callable[[str | None], Any],
    hidden_style: Callable[[str], bool],
    hidden_inline_class: Callable[[str], bool],
    image_source: Callable[[etree._Element], str | None],
    srcset_best: Callable[[str], str | None],
    descriptor: re.Pattern[str],
    max_url_chars: int,
    link_schemes: frozenset[str],
    image_schemes: frozenset[str],
    yield_point: Callable[[], None],
    block_output: frozenset[str],
    direct: frozenset[str],
    inline_output: dict[str, str],
    max_number: int,
    max_alt_chars: int,
    picture_levels: int,
    tiny_image: float,
) -> None: ...
def render(
    page: Any, selection: Any, media: Any, base: str | None
) -> tuple[str, tuple[tuple[str, str | None, str | None], ...]]: ...

class _Node:
    tag: str
    attrs: dict[str, str] | None
    text: str
    tail: str
    children: list[_Node]
    def __init__(self, tag: str, attrs: dict[str, str] | None) -> None: ...

def srcset_best(srcset: str) -> str | None: ...
def serialize(nodes: list[_Node]) -> str | None: ...
def lxml_html(root: _Node) -> str: ...
def new_node(tag: str, attrs: dict[str, str] | None) -> _Node: ...
def sub(parent: _Node, tag: str, attrs: dict[str, str] | None) -> _Node: ...
