"""React's streamed rendering: parts sent at the end of the page, hidden, go back to their
places (`newsspider.extraction.page.streaming`)."""

from __future__ import annotations

from lxml import html as lxml_html
from support.articles import SEA_WALL_PARAGRAPHS

from newsspider import extract
from newsspider.extraction.page.streaming import place_streamed_parts

PARAGRAPHS = SEA_WALL_PARAGRAPHS


def _streamed_page(*, broken: bool = False) -> str:
    # The first paragraph is rendered in place; the rest arrives later as part S:0 of boundary
    # B:0, with the script call that would move it.
    rest = "".join(f"<p>{text}</p>" for text in PARAGRAPHS[1:])
    inside = '<template id="B:0"></template>' if broken else ""
    return (
        "<html><body><nav><a href='/'>Home</a> <a href='/news'>News</a></nav>"
        f'<article><h1>Sea wall approved</h1><p>{PARAGRAPHS[0]}</p><template id="B:0">'
        '</template><div class="skeleton">Loading</div></article>'
        "<footer>Copyright 2026 The Courier</footer>"
        f'<div hidden id="S:0">{rest}{inside}</div><script>$RC("B:0","S:0")</script>'
        "</body></html>"
    )


def test_a_streamed_part_is_read_in_its_place() -> None:
    body = extract(_streamed_page()).body
    positions = [body.find(text) for text in PARAGRAPHS]
    assert all(position >= 0 for position in positions), positions
    assert positions == sorted(positions)


def test_the_part_replaces_its_template_and_keeps_the_text_around_it() -> None:
    root = lxml_html.fromstring(
        '<html><body><div><p>a</p><template id="B:1"></template>after<p>b</p></div>'
        '<div hidden id="S:1"><span>moved</span></div>tail</body></html>'
    )
    place_streamed_parts(root)
    assert [text.strip() for text in root.itertext() if text.strip()] == [
        "a",
        "moved",
        "after",
        "b",
        "tail",
    ]
    part = root.find(".//div[@id='S:1']")
    assert part is not None and part.get("hidden") is None
    assert root.find(".//template") is None


def test_a_template_inside_its_own_part_is_left_alone() -> None:
    # The part cannot replace an element inside itself: nothing moves, nothing is shown.
    page = _streamed_page(broken=True)
    body = extract(page).body
    assert PARAGRAPHS[0] in body
    root = lxml_html.fromstring(page)
    place_streamed_parts(root)
    part = root.find(".//div[@id='S:0']")
    assert part is not None and part.get("hidden") is not None
