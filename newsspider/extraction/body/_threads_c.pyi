"""Type stub of the compiled template word (`_threads_c.pyx`)."""

from lxml import etree

def template_word(element: etree._Element) -> str | None: ...
