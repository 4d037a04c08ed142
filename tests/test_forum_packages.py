"""Forum threads by package: a short opening post with its replies is the body, in each common
forum package's post template, beside page furniture longer than the opening post."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from newsspider import extract

SHORT_POSTS = [
    "Does the ferry still run on Sundays in winter? The timetable page is down.",
    "It does, twice a day, at ten and at four. The winter timetable starts in November.",
    "Thanks! The four o'clock one is exactly what I needed for the weekend.",
]
#: Longer than the opening post: the furniture that used to win over a short thread.
NOTICE = (
    "You must be logged in to reply to this topic. Registration is free and takes a minute: "
    "choose a user name, confirm your e-mail address and agree to the board rules, which ask "
    "members to stay on topic, to be polite to one another and to search before asking. "
    "Moderators may close topics that break these rules without warning. Guests can read "
    "every public forum, but only members can post, send private messages, follow topics and "
    "receive a mail when somebody answers. We never share your address with anybody."
)


def _page(posts_html: str, generator: str | None = None) -> str:
    meta = f"<meta name='generator' content='{generator}'>" if generator else ""
    return (
        f"<html><head><title>Sunday ferry in winter</title>{meta}</head><body>"
        "<header><nav><a href='/'>Forums</a> <a href='/f/travel'>Travel</a></nav></header>"
        f"<main><h1>Sunday ferry in winter</h1>{posts_html}</main>"
        f"<div class='notice'><p>{NOTICE}</p><p>{NOTICE}</p></div>"
        "<footer><a href='/rules'>Rules</a> <a href='/contact'>Contact</a></footer>"
        "</body></html>"
    )


def phpbb(posts: list[str]) -> str:
    return "".join(
        f"<div class='post bg{i % 2 + 1}' id='p{i}'><div class='inner'><div class='postbody'>"
        f"<p class='author'>by <a href='/u/{i}'>user{i}</a></p><div class='content'>{t}</div>"
        f"<div class='signature'>My boat: a small dinghy</div></div><dl class='postprofile'>"
        f"<dt><a href='/u/{i}'>user{i}</a></dt><dd>Posts: {i + 3}</dd></dl></div></div>"
        for i, t in enumerate(posts)
    )


def vbulletin(posts: list[str]) -> str:
    items = "".join(
        f"<li class='postbitlegacy' id='post_{i}'><div class='userinfo'><a href='/m/{i}'>"
        f"member{i}</a><span>Junior Member</span></div><div class='postdetails'>"
        f"<div class='postbody'><div class='content'><blockquote class='postcontent restore'>"
        f"{t}</blockquote></div></div></div></li>"
        for i, t in enumerate(posts)
    )
    return f"<ol id='posts' class='posts'>{items}</ol>"


def xenforo(posts: list[str]) -> str:
    return "".join(
        f"<article class='message message--post'><div class='message-inner'>"
        f"<div class='message-cell message-cell--user'><h4><a href='/members/u.{i}/'>u{i}</a>"
        f"</h4></div><div class='message-cell message-cell--main'><div class='message-content'>"
        f"<article class='message-body'><div class='bbWrapper'>{t}</div></article></div>"
        f"<div class='message-footer'>Like Reply</div></div></div></article>"
        for i, t in enumerate(posts)
    )


def discourse(posts: list[str]) -> str:
    return "".join(
        f"<div class='topic-post'><article class='boxed onscreen-post'><div class='row'>"
        f"<div class='topic-avatar'><a href='/u/{i}'>u{i}</a></div><div class='topic-body'>"
        f"<div class='regular contents'><div class='cooked'><p>{t}</p></div>"
        f"<section class='post-menu-area'>{i + 2} likes</section></div></div></div></article>"
        f"</div>"
        for i, t in enumerate(posts)
    )


def bbpress(posts: list[str]) -> str:
    items = "".join(
        f"<li><div class='bbp-reply-header'>#{i}</div><div class='reply type-reply'>"
        f"<div class='bbp-reply-author'><a href='/u/{i}'>u{i}</a></div>"
        f"<div class='bbp-reply-content'><p>{t}</p></div></div></li>"
        for i, t in enumerate(posts)
    )
    return f"<ul class='forums bbp-replies'>{items}</ul>"


def flarum(posts: list[str]) -> str:
    items = "".join(
        f"<div class='PostStream-item'><article class='Post CommentPost'><div>"
        f"<header class='Post-header'><a href='/u/{i}'>u{i}</a></header>"
        f"<div class='Post-body'><p>{t}</p></div><aside class='Post-actions'>Reply</aside>"
        f"</div></article></div>"
        for i, t in enumerate(posts)
    )
    return f"<div class='PostStream'>{items}</div>"


def mybb(posts: list[str]) -> str:
    return "".join(
        f"<div class='post' id='post_{i}'><div class='post_author'><a href='/u/{i}'>u{i}</a>"
        f"</div><div class='post_content'><div class='post_head'>Post #{i + 1}</div>"
        f"<div class='post_body scaleimages'>{t}</div><div class='signature'>cheers</div></div>"
        f"</div>"
        for i, t in enumerate(posts)
    )


def invision(posts: list[str]) -> str:
    return "".join(
        f"<article class='cPost ipsBox ipsComment'><aside class='ipsComment_author'>"
        f"<a href='/profile/{i}'>u{i}</a></aside><div class='ipsColumn'>"
        f"<div class='ipsComment_content'>"
        f"<div data-role='commentContent' class='ipsType_normal ipsType_richText'><p>{t}</p>"
        f"</div></div></div></article>"
        for i, t in enumerate(posts)
    )


def smf(posts: list[str]) -> str:
    return "".join(
        f"<div class='windowbg'><div class='post_wrapper'><div class='poster'><h4>"
        f"<a href='/u/{i}'>u{i}</a></h4></div><div class='postarea'><div class='post'>"
        f"<div class='inner' id='msg_{i}'>{t}</div></div></div></div></div>"
        for i, t in enumerate(posts)
    )


def nodebb(posts: list[str]) -> str:
    items = "".join(
        f"<li component='post' data-index='{i}'><div class='post-header'><a href='/user/{i}'>"
        f"u{i}</a></div><div class='content' component='post/content' itemprop='text'>"
        f"<p>{t}</p></div><div class='post-footer'>{i} votes</div></li>"
        for i, t in enumerate(posts)
    )
    return f"<ul component='topic' class='posts'>{items}</ul>"


PACKAGES: dict[str, Callable[[list[str]], str]] = {
    "phpbb": phpbb,
    "vbulletin": vbulletin,
    "xenforo": xenforo,
    "discourse": discourse,
    "bbpress": bbpress,
    "flarum": flarum,
    "mybb": mybb,
    "invision": invision,
    "smf": smf,
    "nodebb": nodebb,
}


@pytest.mark.parametrize("package", sorted(PACKAGES))
def test_short_thread_wins_over_a_longer_notice(package: str) -> None:
    article = extract(_page(PACKAGES[package](SHORT_POSTS)))
    # The package's post template says what the page is, however article-like its few posts.
    assert article.page_type == "thread", package
    body = article.body
    for text in SHORT_POSTS:
        assert text in body, package
    assert body.index(SHORT_POSTS[0]) < body.index(SHORT_POSTS[-1])
    assert "must be logged in" not in body
    assert "My boat" not in body and "cheers" not in body  # signatures
    for chrome in ("votes", "likes", "Posts:", "Junior Member", "Like Reply", "Post #"):
        assert chrome not in body, (package, chrome)  # vote counts, user cards, buttons


def test_quoted_reply_chrome_is_left_out_of_the_post() -> None:
    quote = (
        "<blockquote class='bbCodeBlock bbCodeBlock--expandable bbCodeBlock--quote'>"
        "<div class='bbCodeBlock-title'><a href='/goto/post?id=1'>u0 said:</a></div>"
        "<div class='bbCodeBlock-content'><div class='bbCodeBlock-expandContent'>"
        "Does the ferry still run on Sundays?</div><div class='bbCodeBlock-expandLink'>"
        "<a role='button'>Click to expand...</a></div></div></blockquote>"
    )
    posts = [SHORT_POSTS[0], quote + SHORT_POSTS[1], SHORT_POSTS[2]]
    body = extract(_page(xenforo(posts))).body
    for text in SHORT_POSTS:
        assert text in body
    assert "said:" not in body and "Click to expand" not in body


def _plain_thread() -> str:
    posts = "".join(
        f"<div class='entry'><div class='who'>u{i}</div><div class='words'>{t}</div></div>"
        for i, t in enumerate(SHORT_POSTS)
    )
    return f"<div class='list'>{posts}</div>"


def test_an_unknown_template_with_a_short_thread_still_loses_to_the_longer_block() -> None:
    # Without a package's template or name, the prose rule stands (no forum is assumed).
    article = extract(_page(_plain_thread()))
    assert "must be logged in" in article.body
    assert article.page_type != "thread"


def test_a_generator_naming_a_forum_package_makes_its_repeated_posts_the_thread() -> None:
    body = extract(_page(_plain_thread(), generator="phpBB 3.3")).body
    for text in SHORT_POSTS:
        assert text in body
    assert "must be logged in" not in body
    # A generator that is no forum package changes nothing.
    assert "must be logged in" in extract(_page(_plain_thread(), generator="WordPress 6.5")).body


def _shell(body_attrs: str, extra: str = "") -> str:
    return (
        "<html><head><title>Sunday ferry in winter - Travel - Community</title></head>"
        f"<body><div id='app' {body_attrs}></div>{extra}"
        "<noscript><p>Please enable JavaScript.</p></noscript></body></html>"
    )


def test_discourse_thread_read_from_its_preloaded_data() -> None:
    import html
    import json

    topic = {
        "title": "Sunday ferry in winter",
        "post_stream": {
            "posts": [
                {"username": f"u{i}", "cooked": f"<p>{t}</p>", "like_count": 3}
                for i, t in enumerate(SHORT_POSTS)
            ]
        },
    }
    preloaded = json.dumps({"site": "{}", "topic_42": json.dumps(topic)})
    page = _shell("", f"<div id='data-preloaded' data-preloaded='{html.escape(preloaded)}'></div>")
    body = extract(page).body
    for text in SHORT_POSTS:
        assert text in body
    assert body.index(SHORT_POSTS[0]) < body.index(SHORT_POSTS[-1])
    assert "u1" not in body.split() and "enable JavaScript" not in body


def test_flarum_thread_read_from_its_json_payload_in_post_order() -> None:
    import json

    included = [
        {"type": "users", "id": "1", "attributes": {"username": "skipper"}},
        *(
            {
                "type": "posts",
                "id": str(10 + i),
                "attributes": {"number": i + 1, "contentHtml": f"<p>{t}</p>", "votes": 5},
            }
            for i, t in reversed(list(enumerate(SHORT_POSTS)))
        ),
    ]
    payload = json.dumps(
        {"apiDocument": {"data": {"attributes": {"title": "Sunday ferry"}}, "included": included}}
    )
    page = _shell(
        "", f"<script id='flarum-json-payload' type='application/json'>{payload}</script>"
    )
    body = extract(page).body
    positions = [body.index(text) for text in SHORT_POSTS]
    assert positions == sorted(positions)


def test_a_broken_payload_leaves_the_page_as_it_is() -> None:
    page = _shell("", "<script id='flarum-json-payload'>{not json</script>")
    article = extract(page)
    assert "Sunday ferry" not in article.body
