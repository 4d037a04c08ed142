"""Forum threads by package: a short opening post with its replies is the body, in each common
forum package's post template, beside page furniture longer than the opening post."""

from __future__ import annotations

import pytest

from newsspider import extract
from tests.support.forum_posts import PostTemplate

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


PHPBB = PostTemplate(
    (
        "<div class='post bg{alt}' id='p{i}'><div class='inner'><div class='postbody'>"
        "<p class='author'>by <a href='/u/{i}'>user{i}</a></p><div class='content'>{t}</div>"
        "<div class='signature'>My boat: a small dinghy</div></div><dl class='postprofile'>"
        "<dt><a href='/u/{i}'>user{i}</a></dt><dd>Posts: {n}</dd></dl></div></div>"
    ),
)


VBULLETIN = PostTemplate(
    (
        "<li class='postbitlegacy' id='post_{i}'><div class='userinfo'><a href='/m/{i}'>"
        "member{i}</a><span>Junior Member</span></div><div class='postdetails'>"
        "<div class='postbody'><div class='content'><blockquote class='postcontent restore'>"
        "{t}</blockquote></div></div></div></li>"
    ),
    "<ol id='posts' class='posts'>{items}</ol>",
)


XENFORO = PostTemplate(
    (
        "<article class='message message--post'><div class='message-inner'>"
        "<div class='message-cell message-cell--user'><h4><a href='/members/u.{i}/'>u{i}</a>"
        "</h4></div><div class='message-cell message-cell--main'>"
        "<div class='message-content'><article class='message-body'><div class='bbWrapper'>"
        "{t}</div></article></div><div class='message-footer'>Like Reply</div></div></div>"
        "</article>"
    ),
)


DISCOURSE = PostTemplate(
    (
        "<div class='topic-post'><article class='boxed onscreen-post'><div class='row'>"
        "<div class='topic-avatar'><a href='/u/{i}'>u{i}</a></div><div class='topic-body'>"
        "<div class='regular contents'><div class='cooked'><p>{t}</p></div>"
        "<section class='post-menu-area'>{n} likes</section></div></div></div></article>"
        "</div>"
    ),
)


BBPRESS = PostTemplate(
    (
        "<li><div class='bbp-reply-header'>#{i}</div><div class='reply type-reply'>"
        "<div class='bbp-reply-author'><a href='/u/{i}'>u{i}</a></div>"
        "<div class='bbp-reply-content'><p>{t}</p></div></div></li>"
    ),
    "<ul class='forums bbp-replies'>{items}</ul>",
)


FLARUM = PostTemplate(
    (
        "<div class='PostStream-item'><article class='Post CommentPost'><div>"
        "<header class='Post-header'><a href='/u/{i}'>u{i}</a></header>"
        "<div class='Post-body'><p>{t}</p></div><aside class='Post-actions'>Reply</aside>"
        "</div></article></div>"
    ),
    "<div class='PostStream'>{items}</div>",
)


MYBB = PostTemplate(
    (
        "<div class='post' id='post_{i}'><div class='post_author'><a href='/u/{i}'>u{i}</a>"
        "</div><div class='post_content'><div class='post_head'>Post #{n}</div>"
        "<div class='post_body scaleimages'>{t}</div><div class='signature'>cheers</div>"
        "</div></div>"
    ),
)


INVISION = PostTemplate(
    (
        "<article class='cPost ipsBox ipsComment'><aside class='ipsComment_author'>"
        "<a href='/profile/{i}'>u{i}</a></aside><div class='ipsColumn'>"
        "<div class='ipsComment_content'>"
        "<div data-role='commentContent' class='ipsType_normal ipsType_richText'><p>{t}</p>"
        "</div></div></div></article>"
    ),
)


SMF = PostTemplate(
    (
        "<div class='windowbg'><div class='post_wrapper'><div class='poster'><h4>"
        "<a href='/u/{i}'>u{i}</a></h4></div><div class='postarea'><div class='post'>"
        "<div class='inner' id='msg_{i}'>{t}</div></div></div></div></div>"
    ),
)


NODEBB = PostTemplate(
    (
        "<li component='post' data-index='{i}'><div class='post-header'><a href='/user/{i}'>"
        "u{i}</a></div><div class='content' component='post/content' itemprop='text'><p>{t}"
        "</p></div><div class='post-footer'>{i} votes</div></li>"
    ),
    "<ul component='topic' class='posts'>{items}</ul>",
)


PACKAGES: dict[str, PostTemplate] = {
    "phpbb": PHPBB,
    "vbulletin": VBULLETIN,
    "xenforo": XENFORO,
    "discourse": DISCOURSE,
    "bbpress": BBPRESS,
    "flarum": FLARUM,
    "mybb": MYBB,
    "invision": INVISION,
    "smf": SMF,
    "nodebb": NODEBB,
}


@pytest.mark.parametrize("package", sorted(PACKAGES))
def test_short_thread_wins_over_a_longer_notice(package: str) -> None:
    article = extract(_page(PACKAGES[package].render(SHORT_POSTS)))
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
    body = extract(_page(XENFORO.render(posts))).body
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
