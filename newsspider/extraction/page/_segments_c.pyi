"""Type stub of the compiled segment walk (`_segments_c.pyx`)."""

from collections.abc import Callable
from typing import Any

from lxml import etree

from newsspider.extraction.page.page_model import PageSegments

def bind(
    *,
    attributed_block: Callable[..., int],
    class_meaning: Callable[[str | None, str | None], tuple[int, bool, bool, frozenset[str]]],
    remembered: Callable[
        [tuple[str | None, str | None]], tuple[int, bool, bool, frozenset[str]] | None
    ]
    | None,
    attribute_cache: dict[Any, Any],
    tag_kind: Callable[[str], int],
    tag_kinds: dict[str, int],
    tag_signal: dict[str, int],
    caption_tags: frozenset[str],
    teaser_headings: frozenset[str],
    page_tags: frozenset[str],
    boilerplate_tags: frozenset[str],
    dialog_roles: frozenset[str],
    hidden_style: Callable[[str], bool],
    hidden_inline_class: Callable[[str], bool],
    inline_hidden_cache: dict[str, bool],
    strong_furniture: int,
    weak_furniture: int,
    overlay: int,
    yield_point: Callable[[], None],
) -> None: ...
def walk(
    root: etree._Element,
    page: PageSegments,
    captioned: list[int],
    named: list[tuple[int, frozenset[str], str | None, str | None]],
) -> None: ...
def count_punctuation(text: str) -> int: ...
def count_dense_script(text: str) -> int: ...
def subtree_totals(owners: list[int], parents: list[int], per_segment: list[int]) -> list[int]: ...
def subtree_scores(
    owners: list[int], parents: list[int], per_segment: list[float]
) -> list[float]: ...
def best_run(
    page: PageSegments,
    weighed: list[float],
    subtree_chars: list[int],
    furniture: list[bool],
    *,
    threshold: float,
    best: int,
    share: float,
) -> tuple[float, int, int] | None: ...
