"""The body's boundaries: trimmed edges (headline, datelines, bylines, widgets) and sections
labelled as furniture by their heading."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from lxml import html as lxml_html

from newsspider import extract
from newsspider.extraction.body.assembly import BodySelection
from newsspider.extraction.body.trimming import _repeats_headline, _squash, trim_edges
from newsspider.extraction.page.cleaning import clean_tree
from newsspider.extraction.page.page_model import PageSegments
from newsspider.extraction.page.segments import segment_page

PARAGRAPHS = [
    "The council voted on Tuesday to extend the tram line by four kilometres, a decision that "
    "residents of the northern districts had campaigned for since the last election.",
    "Construction is due to start in the spring of 2025 and to last about three years, the "
    "city's transport office said, with most of the work done at night.",
    "Shopkeepers along the route asked for compensation for the months of disruption.",
]


def _page(markup: str) -> PageSegments:
    root = lxml_html.fromstring(f"<html><body>{markup}</body></html>")
    clean_tree(root)
    return segment_page(root)


def _trimmed_text(markup: str, headline: str | None = None, authors: tuple[str, ...] = ()) -> str:
    page = _page(markup)
    everything = BodySelection(0, tuple(range(len(page.segments))))
    selection = trim_edges(page, everything, headline, authors)
    return "\n".join(page.segments[i].text for i in selection.segment_ids)


def _paragraphs() -> str:
    return "".join(f"<p>{p}</p>" for p in PARAGRAPHS)


def test_leading_headline_repeat_and_dateline_are_trimmed() -> None:
    text = _trimmed_text(
        f"<div><h2>Tram line to grow by four kilometres</h2>"
        f"<div>2024-05-12 17:19 Source: City Desk</div>{_paragraphs()}</div>",
        headline="Tram line to grow by four kilometres",
    )
    assert text == "\n".join(PARAGRAPHS)


def test_chinese_dateline_is_trimmed() -> None:
    body = "".join(
        f"<p>{p}</p>"
        for p in ("市议会周二投票决定将电车线路延长四公里。", "工程预计明年春季开工。")
    )
    text = _trimmed_text(f"<div><div>2024年05月12日 17:19 来源：新华网</div>{body}</div>")
    assert text.startswith("市议会")


def test_byline_naming_a_known_author_is_trimmed() -> None:
    markup = f"<div><p>Story by Ann Lee, staff writer</p>{_paragraphs()}</div>"
    assert _trimmed_text(markup, authors=("Ann Lee",)) == "\n".join(PARAGRAPHS)
    # Without the author in the metadata, the line is not recognised and stays.
    assert _trimmed_text(markup).startswith("Story by Ann Lee")


def test_dateline_and_byline_under_a_standfirst_heading_are_trimmed() -> None:
    # The article header: a standfirst set as an h2, then the date and byline lines.
    standfirst = "Why the northern districts waited ten years for their tram"
    text = _trimmed_text(
        f"<div><h2>{standfirst}</h2><div>Posted 2024-05-12 17:19</div>"
        f"<div>By Ann Lee</div>{_paragraphs()}</div>",
        authors=("Ann Lee",),
    )
    assert text == "\n".join([standfirst, *PARAGRAPHS])


def test_written_dates_and_reading_times_at_the_top_are_trimmed() -> None:
    for header in (
        "<div>May 9, 2024</div><div>11 min read</div>",
        "<div>Sun, May 12, 2024 · 1 min read</div>",
        "<p>19 Dec 2025</p><address>Reading time: 2 minutes</address>",
        "<div>5 сентября 2019</div>",
        "<div>Lesezeit: 3 Minuten</div>",  # (a closing "Min." reads as a sentence end)
    ):
        assert _trimmed_text(header + _paragraphs()) == "\n".join(PARAGRAPHS), header


def test_a_sentence_that_mentions_a_date_or_minutes_to_read_stays() -> None:
    first = "On May 9, 2024 the council met for the last time before the summer recess."
    second = "It takes 5 minutes to read the report"  # no full stop, but no reading-time line
    text = _trimmed_text(f"<p>{first}</p>{_paragraphs()}<p>{second} aloud at the meeting.</p>")
    assert text.startswith(first)
    assert text.endswith("aloud at the meeting.")


def test_trailing_widget_crumbs_are_trimmed() -> None:
    text = _trimmed_text(f"<div>{_paragraphs()}<div>comments</div><div>Advertisement</div></div>")
    assert text == "\n".join(PARAGRAPHS)


def test_sentences_and_headings_at_the_edges_stay() -> None:
    markup = (
        f"<div><p>On 2024-05-12 the council met.</p>{_paragraphs()}<h3>What happens next</h3></div>"
    )
    text = _trimmed_text(markup)
    assert text.startswith("On 2024-05-12 the council met.")
    assert text.endswith("What happens next")


def test_a_body_of_one_short_line_is_kept() -> None:
    assert _trimmed_text("<div><p>12:30</p></div>") == "12:30"


def test_extract_keeps_the_dateline_out_of_the_body_but_finds_the_date() -> None:
    page = (
        "<html><head><title>Tram line to grow</title></head><body>"
        "<nav><a href='/'>Home</a> <a href='/city'>City</a></nav>"
        "<article><h1>Tram line to grow</h1><div class='meta'>12.05.2024 17:19</div>"
        f"{_paragraphs()}</article></body></html>"
    )
    article = extract(page)
    assert article.body.splitlines() == PARAGRAPHS
    assert article.date is not None and article.date.startswith("2024-05-12")


_MENU = "".join(f"<li><a href='/s{n}'>Section {n}</a></li>" for n in range(6))


def _long_post(n: int) -> str:
    sentence = f"Recommended post number {n} is a long reflection on patience and hope. "
    return f"<article class='post'><p>{sentence * 8}</p></article>"


def test_section_opened_by_a_related_heading_is_not_the_article() -> None:
    # The recommendations hold more prose than the short article: only the heading's class
    # ("relatedpoststitle", run together) says what they are.
    page = (
        f"<html><body><header><ul>{_MENU}</ul></header><div id='primary'>"
        "<article class='post'><h1>On patience</h1>"
        f"<p>{PARAGRAPHS[0]}</p><p>{PARAGRAPHS[1]}</p></article>"
        "<article class='post hentry'><h3 class='relatedpoststitle'>You may also like</h3>"
        f"{''.join(_long_post(n) for n in range(4))}</article>"
        f"</div><footer><ul>{_MENU}</ul></footer></body></html>"
    )
    body = extract(page).body
    assert body.splitlines() == PARAGRAPHS[:2]


def test_a_related_heading_opening_the_page_wrapper_does_not_hide_the_article() -> None:
    # The wrapper's first text is a related box, but the wrapper is the page's layout.
    page = (
        "<html><body><div class='layout'>"
        "<div class='box'><h3 class='related-title'>Related</h3><a href='/a'>Other story</a></div>"
        f"<article><h1>Tram line</h1>{_paragraphs()}</article>"
        "</div></body></html>"
    )
    assert extract(page).body.splitlines() == PARAGRAPHS


def test_sub_headings_join_with_the_sibling_paragraphs_they_introduce() -> None:
    # Each item of a deals post: a short heading over a paragraph, then a shop link. The links
    # sink the post's container below its best paragraph, so the paragraphs join as siblings;
    # the headings score too little to join on their own.
    shop_link = (
        "<div><a href='/shop'>Buy the Example Tram Pass Deluxe Edition at Example Store</a></div>"
    )
    items = "".join(
        f"<h3>Deal {n}: a cheaper tram pass</h3><p>{PARAGRAPHS[n % 3]} Item {n}.</p>{shop_link}"
        for n in range(4)
    )
    page = (
        f"<html><body><nav><ul>{_MENU}</ul></nav><div class='post-body'>{items}</div>"
        f"<footer><ul>{_MENU}</ul></footer></body></html>"
    )
    lines = extract(page).body.splitlines()
    assert [line for line in lines if line.startswith("Deal")] == [
        f"Deal {n}: a cheaper tram pass" for n in range(4)
    ]


def test_a_widget_with_many_blocks_but_little_prose_is_not_the_layout() -> None:
    # A call-to-action box under a short article lists the staff, one short line each: it holds
    # most of the container's blocks, but not half its prose, so its "widget" class counts.
    staff = "".join(f"<li>Ed {n}</li>" for n in range(30))
    appeal = "Support our newsroom so we can keep reporting for you and for everyone else."
    page = (
        f"<html><body><nav><ul>{_MENU}</ul></nav><div class='content'>{_paragraphs()}"
        f"<div class='zone-widget cta-letter'><h5>A word to our readers</h5><p>{appeal}</p>"
        f"<ul>{staff}</ul></div></div><footer><ul>{_MENU}</ul></footer></body></html>"
    )
    assert extract(page).body.splitlines() == PARAGRAPHS


def test_a_table_ending_the_article_is_not_trimmed_as_crumbs() -> None:
    # Short lines at the end of a body are widgets' crumbs ("Share", "Advertisement"); the
    # cells of a table that ends the article are its data, however short.
    paragraphs = "".join(
        f"<p>{text}</p>"
        for text in (
            "The council published the results of its flood survey on Monday, town by town, "
            "after a year of measurements along the whole of the coast.",
            "Harbourside scored highest, helped by the old breakwater; Northbeach came second, "
            "and the council says the new wall will lift both of them further.",
        )
    )
    table = (
        "<table><tr><th>Town</th><th>Score</th></tr><tr><td>Harbourside</td><td>82.0</td></tr>"
        "<tr><td>Northbeach</td><td>80.8</td></tr></table>"
    )
    html = f"<html><body><article><h1>Flood survey</h1>{paragraphs}{table}</article></body></html>"
    body = extract(html).body
    assert body.endswith("80.8")


@given(st.text(max_size=120), st.text(max_size=40))
def test_headline_test_reads_a_line_as_a_whole_squash_does(line: str, headline: str) -> None:
    """`_repeats_headline` stops early on long lines; its answer is the full comparison's."""
    squashed = _squash(headline)
    assert _repeats_headline(line, squashed) == (_squash(line) == squashed)
    assert _repeats_headline(headline + line, squashed) == (_squash(headline + line) == squashed)
    assert not _repeats_headline(line, None)
