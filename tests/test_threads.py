"""Forum and Q&A threads: the body is every post when the posts repeat one template, and an
article with comments under it stays the article. Script-shell pages use their <noscript>."""

from __future__ import annotations

import lxml.html

from newsspider import extract
from newsspider.extraction.body.threads import find_posts
from newsspider.extraction.page.segments import segment_page

# Sentences of the thread's posts: each post gets its own, so the body shows which it kept.
POSTS = [
    "My router drops the connection every evening at about nine, and restarting it only helps "
    "for an hour or so. Has anyone seen this with the new firmware release?",
    "Check whether the channel is set to automatic. Neighbours' networks crowd the same "
    "channel in the evening, and a fixed channel in the upper band fixed it for me.",
    "Same problem here after the update. Rolling back to the previous firmware version made "
    "the evening drops go away, so I suspect the release itself.",
    "Thanks, both of you. I set a fixed channel yesterday and it held all evening, so that "
    "seems to have been the cause in my case.",
]
ARTICLE = [
    "The city council voted on Tuesday to extend the tram line by four kilometres, a decision "
    "that residents of the northern districts had campaigned for since the last election.",
    "Construction is due to start in the spring and to last about three years, the city's "
    "transport office said, with most of the work done at night to spare the traffic.",
    "Shopkeepers along the route asked for compensation for the months of disruption, and the "
    "council promised a fund, though it did not say how large it would be.",
    "Opponents argued that buses would have served the same districts at a fraction of the "
    "cost, and said they would take the decision to the regional court.",
]
COMMENTS = [
    "Finally! I have waited for this for years and years.",
    "Buses would have been cheaper, as usual the council wastes our money.",
    "Will the night works be loud? I live right next to the planned route.",
]


def _phpbb(posts: list[str]) -> str:
    """phpBB-like: each post a div.post with a body column (subject heading linking to the
    post's anchor, author line, content, signature) beside a profile column."""
    items = "".join(
        f'<div class="post bg{i % 2 + 1}" id="p{100 + i}"><div class="inner">'
        f'<div class="postbody"><h3><a href="#p{100 + i}">Re: Evening drops</a></h3>'
        f'<p class="author">by <a href="/u/{i}">user{i}</a> » Mon Jan {i + 1}, 2024</p>'
        f'<div class="content">{text}</div>'
        f'<div class="signature">Sent from my phone, user {i}</div></div>'
        f'<dl class="postprofile"><dt><a href="/u/{i}">user{i}</a></dt><dd>Posts: {40 + i}</dd>'
        "</dl></div></div>"
        for i, text in enumerate(posts)
    )
    return (
        "<html><head><title>Evening drops</title></head><body>"
        '<div class="navbar"><a href="/">Board index</a> <a href="/f/2">Networking</a></div>'
        f'<h1>Evening drops</h1><div id="page-body">{items}</div>'
        '<div class="footer"><a href="/faq">FAQ</a> <a href="/team">The team</a></div>'
        "</body></html>"
    )


def _xenforo(posts: list[str]) -> str:
    """XenForo-like: the author's name is a linked h4 in a user column beside the message;
    the reply list is named "comments", a furniture word."""
    items = "".join(
        f'<article class="message message--post"><div class="message-inner">'
        f'<div class="message-cell message-cell--user"><h4 class="message-name">'
        f'<a href="/members/user{i}.{i}/">user{i}</a></h4><div>Well-known member</div></div>'
        f'<div class="message-cell message-cell--main"><div class="message-content">'
        f'<div class="message-attribution">Jan {i + 1}, 2024 #{i + 1}</div>'
        f'<article class="message-body"><div class="bbWrapper">{text}</div></article>'
        f'</div><div class="message-footer">Like Reply Report</div></div></div></article>'
        for i, text in enumerate(posts)
    )
    return (
        "<html><body><h1>Evening drops</h1>"
        f'<div class="block-body comments">{items}</div>'
        '<aside class="sidebar"><h3><a href="/t/1">Another thread</a></h3>'
        '<h3><a href="/t/2">Yet another thread</a></h3><h3><a href="/t/3">A third one</a></h3>'
        "</aside></body></html>"
    )


def _qa(posts: list[str]) -> str:
    """StackExchange-like: the question and the answers sit in different parents, their
    bodies share the post-layout template; each has a comment list under it."""
    question, *answers = posts

    def post(kind: str, text: str, index: int) -> str:
        return (
            f'<div class="{kind}" id="{kind}-{index}"><div class="post-layout">'
            f'<div class="votecell">{index + 3}</div><div class="postcell">'
            f'<div class="s-prose js-post-body"><p>{text}</p></div>'
            f'<div class="post-signature">asked by user{index}</div></div>'
            f'<div class="comments"><ul><li>Nice one, user{index}.</li></ul></div>'
            "</div></div>"
        )

    answer_list = "".join(post("answer", text, i + 1) for i, text in enumerate(answers))
    return (
        "<html><body><h1>Evening drops</h1>"
        f'<div id="mainbar">{post("question", question, 0)}'
        f'<div id="answers"><h2>{len(answers)} Answers</h2>{answer_list}</div></div>'
        "</body></html>"
    )


def _news_with_comments(paragraphs: list[str], comments: list[str]) -> str:
    body = "".join(f"<p>{text}</p>" for text in paragraphs)
    items = "".join(
        f'<li class="comment"><div class="comment-author">reader{i}</div>'
        f'<div class="comment-body"><p>{text}</p></div></li>'
        for i, text in enumerate(comments)
    )
    return (
        "<html><body><h1>Tram line to be extended</h1>"
        f'<article class="story"><div class="article-body">{body}</div></article>'
        f'<section id="comments"><h2>Comments</h2><ol class="comment-list">{items}</ol>'
        "</section></body></html>"
    )


def _assert_thread(body: str, posts: list[str]) -> None:
    for text in posts:
        assert text in body
    assert body.index(posts[0]) < body.index(posts[-1])


def test_phpbb_thread_keeps_every_post_without_author_lines_or_signatures() -> None:
    body = extract(_phpbb(POSTS)).body
    _assert_thread(body, POSTS)
    assert "Sent from my phone" not in body
    assert "Posts: 41" not in body


def test_reply_list_with_a_comment_name_and_linked_author_headings_is_a_thread() -> None:
    body = extract(_xenforo(POSTS)).body
    _assert_thread(body, POSTS)
    assert "Well-known member" not in body
    assert "Another thread" not in body


def test_question_and_answers_in_different_parents_make_one_thread() -> None:
    body = extract(_qa(POSTS)).body
    _assert_thread(body, POSTS)
    assert "Nice one" not in body
    assert "asked by" not in body


def test_news_article_keeps_its_comments_out() -> None:
    body = extract(_news_with_comments(ARTICLE, COMMENTS)).body
    for text in ARTICLE:
        assert text in body
    for text in COMMENTS:
        assert text not in body


def test_comments_outweighing_a_short_article_stay_out() -> None:
    # All comments together hold more prose than the article: its template still does not
    # repeat, and it is longer than the first comment.
    body = extract(_news_with_comments(ARTICLE[:2], POSTS)).body
    assert ARTICLE[0] in body
    assert ARTICLE[1] in body
    for text in POSTS:
        assert text not in body


def test_single_post_is_not_a_thread_and_still_extracted() -> None:
    body = extract(_phpbb(POSTS[:1])).body
    assert POSTS[0] in body


def test_teaser_stream_is_not_a_thread() -> None:
    teasers = "".join(
        f'<li class="item"><div class="item-content"><h3><a href="/story/{i}">Story {i}</a>'
        f"</h3><p>{text}</p></div></li>"
        for i, text in enumerate(COMMENTS)
    )
    page = (
        "<html><body><h1>Tram line to be extended</h1><article><div class='article-body'>"
        + "".join(f"<p>{text}</p>" for text in ARTICLE)
        + f"</div></article><ul class='stream'>{teasers}</ul></body></html>"
    )
    body = extract(page).body
    assert ARTICLE[0] in body
    assert COMMENTS[0] not in body


def _script_shell(inner: str) -> str:
    return (
        "<html><body><div id='app'></div><script>boot()</script>"
        f"<noscript>{inner}</noscript></body></html>"
    )


def test_thread_rendered_inside_noscript_for_a_script_shell_page() -> None:
    inner = _phpbb(POSTS).split("<body>", 1)[1].rsplit("</body>", 1)[0]
    body = extract(_script_shell(inner)).body
    _assert_thread(body, POSTS)


def test_noscript_notice_on_an_ordinary_page_stays_out() -> None:
    page = (
        "<html><body><article>"
        + "".join(f"<p>{text}</p>" for text in ARTICLE)
        + "</article><noscript><p>Please enable JavaScript to view the comments, which are"
        " loaded by a script from our partner.</p></noscript></body></html>"
    )
    body = extract(page).body
    assert ARTICLE[0] in body
    assert "enable JavaScript" not in body


def test_a_script_shell_whose_noscript_is_only_a_notice_has_no_article() -> None:
    # A single-page app's shell: the only text is "enable JavaScript". That notice is not a
    # rendering of the page's content, so there is no body and no confidence in one.
    notice = (
        "<p>We're sorry but blog-frontend doesn't work properly without JavaScript enabled.</p>"
    )
    page = _script_shell(notice).replace(
        "<body>", "<head><title>blog-frontend</title></head><body>"
    )
    article = extract(page)
    assert article.body == ""
    assert article.confidence == 0.0
    assert article.page_type == "empty"


def test_outside_test_on_blocks_nested_thousands_deep() -> None:
    """Found by fuzzing: the ancestor test recursed once per level (RecursionError, so an
    internal-error article) on a broken page nesting blocks 1 000+ deep."""
    from newsspider.extraction.body.threads import _PostChecks
    from newsspider.extraction.page.segments import segment_page
    from newsspider.extraction.parse.parsing import parse_html

    for outer, expected in (("section", False), ("nav", True)):
        html = f"<body><{outer}>" + "<div><p>word</p>" * 3000 + f"</{outer}></body>"
        root = parse_html(html)
        assert root is not None
        page = segment_page(root)
        deepest = len(page.block_parents) - 1
        assert page.block_parents[deepest] >= 0
        assert _PostChecks(page).is_outside(deepest) is expected


def _builder_widget(html: str) -> str:
    inner = f'<div class="bw-text">{html}</div>'
    return f'<div class="bw-element"><div class="bw-widget">{inner}</div></div>'


def test_page_builder_footer_repeating_the_article_widget_is_no_thread() -> None:
    """A page builder wraps every block, the article and the footer's columns alike, in one
    widget template; the footer's widgets are not replies (a footer named by its class)."""
    footer_texts = [
        "Harbour Weekly is where readers from the whole coast meet the news of the week.",
        "Contact the newsroom at the address on the harbour front, open from nine to five.",
        "Copyright 2026 Harbour Weekly, all rights reserved by the publisher.",
    ]
    article = _builder_widget("".join(f"<p>{text}</p>" for text in ARTICLE))
    page = (
        "<html><body><h1>Tram line to be extended</h1>"
        f'<div class="bw-section"><div class="bw-column">{article}</div></div>'
        '<div class="site-footer">'
        + "".join(
            f'<div class="bw-section"><div class="bw-column">{_builder_widget(text)}</div></div>'
            for text in footer_texts
        )
        + "</div></body></html>"
    )
    body = extract(page).body
    for text in ARTICLE:
        assert text in body
    for text in footer_texts:
        assert text not in body


def test_introduction_above_repeated_list_items_is_kept() -> None:
    """A listicle whose entries repeat one card template reads as a thread; a paragraph above
    the first entry is its introduction (a forum puts only short lines there), a caption is
    not."""
    intro = ARTICLE[0]
    cards = "".join(
        f'<div class="entry"><div class="entry-side"><img src="/{i}.png" alt=""></div>'
        f'<div class="entry-main"><div class="entry-text"><h3>Mover {i}</h3><p>{text}</p>'
        f"<p>{ARTICLE[(i % 3) + 1]}</p></div></div></div>"
        for i, text in enumerate(POSTS)
    )
    page = (
        "<html><body><h1>The best movers in town</h1><div class='post-content'>"
        f"<p>{intro}</p><figure><img src='/top.png' alt=''><figcaption><p>The harbour front "
        "seen from the ferry terminal, where most of the moving companies keep their depots."
        f"</p></figcaption></figure>{cards}</div></body></html>"
    )
    body = extract(page).body
    _assert_thread(body, [intro, *POSTS])
    assert "ferry terminal" not in body


def test_page_builder_headings_are_kept_over_text_not_over_teasers() -> None:
    """A page builder puts each sub-heading in a widget of its own, the template of its text
    widgets; a heading over teaser cards after the article is the cards' heading."""

    def section(html: str) -> str:
        return f'<div class="bw-section"><div class="bw-column">{html}</div></div>'

    headings = ["Why the line goes north", "What the works will cost"]
    widgets = "".join(
        section(_builder_widget(f"<h2>{heading}</h2>"))
        + section(_builder_widget(f"<p>{a}</p>"))
        + section(_builder_widget(f"<p>{b}</p>"))
        for heading, a, b in zip(headings, ARTICLE[::2], ARTICLE[1::2], strict=True)
    )
    teasers = "".join(
        f'<div class="card"><h3><a href="/story/{i}">Story number {i} about the harbour '
        "front and its ferries</a></h3></div>"
        for i in range(4)
    )
    page = (
        f"<html><body><h1>Tram line to be extended</h1>{widgets}"
        + section(_builder_widget("<h2>More from the harbour desk</h2>") + teasers)
        + "</body></html>"
    )
    body = extract(page).body
    for text in [*headings, *ARTICLE]:
        assert text in body
    assert "More from the harbour desk" not in body


# Steps on an app-install card: short instructions, together more prose than a short thread.
INSTALL_STEPS = [
    "To install this app on your phone, open the page in the browser you use every day.",
    "Tap the share icon at the bottom of the screen and scroll down the list of actions.",
    "Choose the action that adds the page to your home screen and confirm the name.",
    "Tap add in the top right corner, and the forum opens from the home screen from now on.",
    "On a tablet, tap the menu with three dots in the top right corner of the browser first.",
    "Then choose install app, confirm by tapping install, and wait for the icon to appear.",
]


def _thread_with_overlay(posts: list[str], opener: str, closer: str) -> str:
    """A two-post thread whose posts carry a comment name, and an app-install card (two tab
    panels of repeated steps) that only a script shows: `opener` ... `closer` wraps it."""
    panels = "".join(
        f'<div class="tabs__panel" id="panel{p}"><div class="fluid">'
        + "".join(f"<div>{step}</div>" for step in INSTALL_STEPS[p * 3 : p * 3 + 3])
        + "</div></div>"
        for p in range(2)
    )
    items = "".join(
        f'<article id="elComment_{i}" class="entry entry--post"><div class="entry__author">'
        f'<a href="/profile/{i}">user{i}</a><span>{10 + i} posts</span></div>'
        f'<div id="comment-{i}_wrap" class="entry__content"><div class="entry__post">'
        f'<div class="richtext"><p>{text}</p></div></div></div></article>'
        for i, text in enumerate(posts)
    )
    return (
        "<html><body><header><a href='/'>Forum</a></header><h1>Evening drops</h1>"
        f'<div id="comments" class="topic"><form action="/mod">{items}</form></div>'
        f"{opener}<h3>Install the app</h3>{panels}{closer}</body></html>"
    )


def test_a_popover_or_closed_dialog_is_no_thread_beside_the_real_one() -> None:
    """What the `popover` attribute or a <dialog> without `open` holds is shown only when a
    script opens it: an overlay, whose repeated steps are not the thread's posts."""
    for opener, closer in (
        ('<div popover id="install">', "</div>"),
        ('<dialog id="install">', "</dialog>"),
    ):
        body = extract(_thread_with_overlay(POSTS[:2], opener, closer)).body
        _assert_thread(body, POSTS[:2])
        assert INSTALL_STEPS[0] not in body


def test_an_open_dialog_is_not_marked_as_an_overlay() -> None:
    """`<dialog open>` is shown: it is not marked, and a page that is nothing but one keeps
    its text."""
    steps = "".join(f"<p>{step}</p>" for step in INSTALL_STEPS)
    article = extract(f"<html><body><dialog open><h1>Install</h1>{steps}</dialog></body></html>")
    assert INSTALL_STEPS[0] in article.body


def test_posts_whose_wrappers_differ_by_author_class_are_one_thread() -> None:
    """NodeBB-like: the opening poster's replies carry ``li.topic-owner-post``, everyone
    else's a plain ``li``; the two alternate in one list and are one thread."""
    items = "".join(
        f'<li class="{"topic-owner-post" if i % 2 == 0 else ""}" data-index="{i}">'
        f'<div class="post-header"><a href="/user/u{i % 2}">u{i % 2}</a> 3 days ago</div>'
        f'<div class="content"><p>{text}</p></div>'
        '<div class="post-footer"><a href="#">Reply</a> <a href="#">Quote</a> '
        '<a href="#">Report this post to the moderators</a> <a href="#">Share on the web</a> '
        '<a href="#">Bookmark for later reading</a> <a href="#">Follow the whole topic</a></div>'
        "</li>"
        for i, text in enumerate(POSTS)
    )
    page = (
        "<html><body><nav><a href='/'>Home</a> <a href='/c/1'>Help</a></nav>"
        f'<h1>Evening drops</h1><div class="topic"><ul class="posts timeline">{items}</ul></div>'
        "</body></html>"
    )
    _assert_thread(extract(page).body, POSTS)


def test_columns_of_teasers_differing_by_column_class_stay_apart() -> None:
    """Blurbs in a left and a right column: each column is one wrapper for many items, not a
    wrapper per post, so the two templates are not merged into a thread."""
    column = "".join(f'<div class="blurb"><p>{text}</p></div>' for text in COMMENTS)
    page = (
        "<html><body><h1>Front page</h1><div class='box'>"
        f'<div class="left">{column}</div><div class="right">{column}</div>'
        "</div></body></html>"
    )
    page_segments = segment_page(lxml.html.document_fromstring(page))
    assert find_posts(page_segments) == []
