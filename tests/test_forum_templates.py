"""Forum threads in post templates beyond the ten packages' current ones: older major versions
(XenForo 1, vBulletin 3 tables, Invision 3), other packages (Vanilla, FluxBB, WoltLab, Khoros)
and schema.org microdata on a crawler rendering (Discourse without its generator tag). A short
opening post with its replies must win over a longer sidebar or notice; pages written here in
each template's style."""

from __future__ import annotations

import pytest

from newsspider import extract
from tests.support.forum_posts import PostTemplate

POSTS = [
    "Has anyone replaced the chain on a 2019 city bike? Mine skips in third gear.",
    "Yes, last spring. Measure the old one first: mine had stretched by a whole link.",
    "Thanks, measured it tonight and it is worn. New chain and cassette ordered.",
]
SIDEBAR = (
    "Latest from the blog: our guide to winter cycling covers lights, tyres and clothing. "
    "Studded tyres grip on ice but wear quickly on dry roads, so fit them only for the coldest "
    "weeks. Front and rear lights must be on from dusk to dawn, and a reflective vest helps "
    "drivers see you at junctions. Mudguards keep road salt off the drivetrain; rinse the "
    "chain with warm water after every salty ride and oil it once it is dry. Read the full "
    "guide, with a checklist for the first frosty morning, in the blog section of the site."
)


def _page(posts_html: str, *, sidebar: bool = True) -> str:
    furniture = (
        f"<div class='sidebar-block'><h3>From the blog</h3><p>{SIDEBAR}</p></div>"
        if sidebar
        else f"<div class='notice'><p>{SIDEBAR}</p></div>"
    )
    return (
        "<html><head><title>City bike chain skipping</title></head><body>"
        "<div id='header'><a href='/'>Board index</a> <a href='/f/bikes'>Bikes</a></div>"
        f"<div id='content'><h1>City bike chain skipping</h1>{posts_html}</div>"
        f"<div id='side'>{furniture}</div>"
        "<div id='footer'><a href='/terms'>Terms</a> <a href='/help'>Help</a></div>"
        "</body></html>"
    )


XENFORO1 = PostTemplate(
    (
        "<li id='post-{i}' class='message' data-author='u{i}'><div class='messageUserInfo'>"
        "<div class='messageUserBlock'><h3 class='userText'><a class='username'>u{i}</a>"
        "<em class='userTitle'>Well-Known Member</em></h3></div></div>"
        "<div class='messageInfo primaryContent'><div class='messageContent'><article>"
        "<blockquote class='messageText SelectQuoteContainer ugc baseHtml'>{t}</blockquote>"
        "</article></div><div class='messageMeta ToggleTriggerAnchor'><span class='item'>"
        "<a href='/posts/{i}/'>#{n}</a></span> "
        "<a class='ReplyQuote item control reply' href='/posts/{i}/quote'>Reply</a></div>"
        "</div></li>"
    ),
    "<ol class='messageList' id='messageList'>{items}</ol>",
)


VBULLETIN3 = PostTemplate(
    (
        "<div id='edit{i}'><table id='post{i}' class='tborder' width='100%'><tr>"
        "<td class='thead'>Today, 10:0{i} AM</td><td class='thead' align='right'>#{n}</td>"
        "</tr><tr><td class='alt2' width='175'><a class='bigusername'>member{i}</a>"
        "<div class='smallfont'>Junior Member</div><div class='smallfont'>Posts: {n}</div>"
        "</td><td class='alt1' id='td_post_{i}'><div id='post_message_{i}'>{t}</div><div>"
        "__________________<br>My bikes: a blue one</div></td></tr></table></div>"
    ),
)


INVISION3 = PostTemplate(
    (
        "<div class='post_block hentry clear clearfix' id='post_id_{i}'>"
        "<div class='post_wrap'><h3 class='row2'><a class='url fn'>u{i}</a></h3>"
        "<div class='author_info'><ul class='user_fields'><li>Members</li><li>{n} posts</li>"
        "</ul></div><div class='post_body'><p class='posted_info'>Posted 2 May</p>"
        "<div class='post entry-content'>{t}</div></div></div></div>"
    ),
)


VANILLA = PostTemplate(
    (
        "<li class='Item ItemComment' id='Comment_{i}'><div class='Comment'>"
        "<div class='Item-Header CommentHeader'><a class='Username'>u{i}</a>"
        "<span class='MItem DateCreated'>May 2</span></div><div class='Item-BodyWrap'>"
        "<div class='Item-Body'><div class='Message userContent'>{t}</div></div></div>"
        "<div class='Reactions'>{i} Likes</div></div></li>"
    ),
    "<ul class='MessageList DataList Comments'>{items}</ul>",
)


FLUXBB = PostTemplate(
    (
        "<div id='p{i}' class='blockpost rowodd'><h2><span>#{n}</span> 2 May</h2>"
        "<div class='box'><div class='inbox'><div class='postbody'><div class='postleft'><dl>"
        "<dt><strong>u{i}</strong></dt><dd class='usertitle'>Member</dd></dl></div>"
        "<div class='postright'><h3>Re: chain</h3><div class='postmsg'><p>{t}</p></div>"
        "<div class='postsignature postmsg'><hr>Ride on</div></div></div></div></div></div>"
    ),
)


WOLTLAB = PostTemplate(
    (
        "<li><article class='wbbPost message messageSidebarOrientationLeft'>"
        "<div class='messageSidebar'><a class='username'>u{i}</a><div>Rookie</div></div>"
        "<div class='messageContent'><header class='messageHeader'>May 2</header>"
        "<div class='messageBody'><div class='messageText'><p>{t}</p></div></div>"
        "<footer class='messageFooter'>Quote Reply</footer></div></article></li>"
    ),
    "<ul class='wbbThreadPostList messageList'>{items}</ul>",
)


KHOROS = PostTemplate(
    (
        "<div class='lia-message-view-display lia-component-forums-widget-message-view'>"
        "<div class='lia-message-author'><a class='lia-user-name-link'>u{i}</a>"
        "<div class='lia-user-rank'>Contributor</div></div><div class='lia-message-body'>"
        "<div class='lia-message-body-content'><p>{t}</p></div></div>"
        "<div class='lia-message-footer'>{i} Kudos</div></div>"
    ),
)


# A crawler rendering (Discourse's, here without its generator tag): no package class.
MICRODATA = PostTemplate(
    (
        "<div id='post_{n}' itemscope itemtype='http://schema.org/DiscussionForumPosting'"
        " class='topic-body crawler-post'>"
        "<div class='crawler-post-meta'><span class='creator' itemprop='author'><a>u{i}</a>"
        "</span><time itemprop='datePublished'>May 2</time></div>"
        "<div class='post' itemprop='text'><p>{t}</p></div>"
        "<div itemprop='interactionStatistic'>{n} Likes</div></div>"
    ),
)


TEMPLATES: dict[str, PostTemplate] = {
    "xenforo1": XENFORO1,
    "vbulletin3": VBULLETIN3,
    "invision3": INVISION3,
    "vanilla": VANILLA,
    "fluxbb": FLUXBB,
    "woltlab": WOLTLAB,
    "khoros": KHOROS,
    "microdata": MICRODATA,
}
CHROME = ("Well-Known Member", "Junior Member", "Posts:", "My bikes", "Ride on", "Likes", "Kudos")


@pytest.mark.parametrize("sidebar", [True, False])
@pytest.mark.parametrize("template", sorted(TEMPLATES))
def test_a_short_thread_wins_over_a_longer_sidebar(template: str, sidebar: bool) -> None:
    article = extract(_page(TEMPLATES[template].render(POSTS), sidebar=sidebar))
    assert article.page_type == "thread", template  # by the package's post template
    body = article.body
    for text in POSTS:
        assert text in body, template
    assert body.index(POSTS[0]) < body.index(POSTS[-1])
    assert "winter cycling" not in body
    for chrome in CHROME:
        assert chrome not in body, (template, chrome)
