"""`newsspider.navigation` (behind ArticleNavigation) and the shop-listing rule it shares with
the ``site`` spider's link classifier."""

from __future__ import annotations

from lxml import html

from newsspider.navigation import find_navigation
from newsspider.spiders._links import LinkKind, classify_links, price_labels

SITE = "https://shop.example"


def tile(n: int, price: str) -> str:
    slug = f"linen-summer-shirt-in-pale-blue-model-{n}"
    return (
        f'<li class="product"><a href="/shirts/{slug}"><img src="/i/{n}.jpg" alt="">'
        f"<h3>Linen summer shirt in pale blue, model {n}</h3></a>"
        f'<div class="price"><span>{price}</span></div></li>'
    )


def page(items: str, extra: str = "") -> str:
    return (
        "<html><head><title>Shirts | Shop</title></head><body><nav><a href='/'>Home</a></nav>"
        f"<main><h1>Shirts</h1><ul>{items}</ul>{extra}</main></body></html>"
    )


def kinds(markup: str, url: str = SITE + "/shirts/") -> dict[str, LinkKind]:
    root = html.fromstring(markup)
    return {link.url: link.kind for link in classify_links(root, url, ["shop.example"])}


def test_a_shop_listing_lists_products_not_articles() -> None:
    shop = page("".join(tile(n, f"${20 + n}.00") for n in range(12)))
    assert price_labels(html.fromstring(shop)) == 12
    found = kinds(shop)
    assert found and all(kind is LinkKind.LISTING for kind in found.values())
    # The same tiles without prices read as story teasers (long slugs, headline anchors).
    plain = page("".join(tile(n, "New") for n in range(12)))
    assert sum(kind is LinkKind.ARTICLE for kind in kinds(plain).values()) == 12


def test_prices_in_sentences_are_not_labels() -> None:
    """News teasers quote amounts in their text; only whole short elements are labels. And
    dated story URLs stay articles even beside price labels (a deals box)."""

    def teasers(label: str) -> str:
        return "".join(
            f'<li><h3><a href="/2026/03/0{n}/hotel-sold-for-a-record-sum-{n}/">Hotel sold for'
            f" a record sum in the old harbour district {n}</a></h3><p>The buyer paid $4{n}"
            f" million for the building, the agency said.</p>{label}</li>"
            for n in range(1, 8)
        )

    assert price_labels(html.fromstring(page(teasers("")))) == 0
    with_deals = page(teasers("<span>€19</span>"))
    assert price_labels(html.fromstring(with_deals)) == 7
    found = kinds(with_deals, SITE + "/news/")
    assert sum(kind is LinkKind.ARTICLE for kind in found.values()) == 7


def test_price_label_shapes() -> None:
    markup = "".join(
        f"<p>{text}</p>"
        for text in ("$29.00", "From £1,299", "Price: 49,90 €", "¥3,800", "1 299 kr")
    )
    assert price_labels(html.fromstring(f"<div>{markup}</div>")) == 4  # "1 299 kr": spaced
    prose = "<p>Prices rose by $3 a barrel, the ministry said on Monday.</p>"
    assert price_labels(html.fromstring(prose)) == 0


def test_navigation_next_page_from_the_pager() -> None:
    teasers = "".join(
        f'<h2><a href="/world/2026/03/{n:02d}/a-long-story-slug-number-{n}/">A long story '
        f"headline number {n} for the world section</a></h2>"
        for n in range(1, 6)
    )
    pager = '<div class="pager"><a href="/world/page/2/">2</a> <a href="/world/page/3/">3</a></div>'
    body = page(teasers, pager).encode()
    first = find_navigation(body, SITE + "/world/")
    assert len(first.articles) == 5 and first.page_number == 1
    assert first.next_page is not None and first.next_page.url == SITE + "/world/page/2/"
    second = find_navigation(
        body.replace(b'href="/world/page/2/">2', b'href="/world/">1'), SITE + "/world/page/2/"
    )
    assert second.page_number == 2
    assert second.next_page is not None and second.next_page.url == SITE + "/world/page/3/"
    assert first.name == "Shirts"  # the page's <h1>


def test_navigation_of_bad_input() -> None:
    for body in (b"", b"\x00\xff\xfe", b"<html>" * 1000, b"not html at all"):
        result = find_navigation(body, SITE + "/")
        assert result.articles == [] and result.next_page is None
