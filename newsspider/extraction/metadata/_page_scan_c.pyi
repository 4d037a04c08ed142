"""Type stub of the compiled metadata scans (`_page_scan_c.pyx`)."""

from collections.abc import Callable
from typing import Any

def scan(
    root: Any, element_text: Callable[[Any], str]
) -> tuple[dict[str, list[str]], dict[str, str], list[str], list[Any], list[Any], str]: ...
def byline_candidates(
    container: Any, budget: int, author_class: Callable[[str], bool]
) -> list[Any]: ...
def first_breadcrumb(top_element: Any, budget: int) -> tuple[Any | None, int]: ...
