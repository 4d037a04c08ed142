"""Type stub of the compiled form-box walk (`_cleaning_c.pyx`)."""

from lxml import etree

def box_around(
    field: etree._Element,
    spent: int,
    not_a_box: frozenset[str],
    block_tags: frozenset[str],
    max_levels: int,
    max_nodes: int,
    max_chars: int,
) -> tuple[etree._Element | None, int] | None: ...
def ids_named(root: etree._Element, names: set[str]) -> list[etree._Element] | None: ...
