"""Forum and Q&A threads: when the page's posts repeat one template, the body is every post.

A thread's truth is the opening post and its replies. Density scoring picks one region; on a
thread that is one post, the post list (with author columns, meta lines and signatures), or,
when the replies carry a comment-like name, something else entirely. What tells a thread from
an article with comments under it is structure, not words: a thread's posts repeat one
template, and the chosen container is one of them (or smaller than one of them), whereas an
article's body does not repeat the comments' template.

A post's *text container* is the nearest block around its prose that is not a text-level
element (paragraph, list, quote...): ``div.bbWrapper``, ``div.s-prose``, phpBB's
``div.content``. Its *template* is the tag and first class word of it, its parent and its
grandparent. Text containers sharing a template, each in its own wrapper (cousins, not
siblings), are the posts of a thread; their author columns, meta lines and signatures sit
beside them, outside the template.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from dataclasses import dataclass
from itertools import islice
from typing import Any, Final

from newsspider.core_loader import CompiledTwin
from newsspider.extraction.body.assembly import BodySelection
from newsspider.extraction.body.scoring import ContainerChoice
from newsspider.extraction.page.class_words import (
    OVERLAY,
    REGION_TOKENS,
    STRONG_FURNITURE,
    class_meaning,
)
from newsspider.extraction.page.page_model import HEADING_TAGS, PageSegments

#: Blocks that hold a post's text but are not the post's own container.
_TEXT_LEVEL: Final = frozenset(
    """p li ul ol dl dt dd h1 h2 h3 h4 h5 h6 blockquote pre table tbody thead tfoot tr td th
    caption figure figcaption center hr address details summary""".split()
)
#: Ancestors in a template: the text container, its parent and grandparent.
TEMPLATE_DEPTH: Final = 3
#: A thread has an opening post and at least this many posts in all.
MIN_POSTS: Final = 2
#: Text containers holding less prose than this themselves are not posts.
MIN_POST_PROSE: Final = 10
#: Posts hold prose: the median post of a thread at least about a sentence. Page-builder
#: layouts repeat one wrapper template around every widget, mostly single words and buttons.
MIN_MEDIAN_POST_PROSE: Final = 40
#: A chosen container holding posts is the thread when they hold this share of its prose; a
#: page-builder layout repeating card templates has headings and sections between them.
POST_SHARE: Final = 0.75
#: Regions that never hold a thread's posts (menus repeat templates, headers copy them).
_OUTSIDE_TAGS: Final = frozenset({"nav", "aside", "footer", "menu", "header"})
#: Link-dominated segments inside a post (a "quote" header, a lone link line) are kept when
#: under this link density.
MAX_LINK_DENSITY: Final = 0.5
#: Less prose than this in all posts together is a repeated widget ("You may also like").
MIN_THREAD_PROSE: Final = 200
#: A heading in a post is kept when the next post text follows it within this many link
#: characters (a button), not under teaser cards or a menu; a chart's labels are no links.
MAX_HEADING_GAP: Final = 100
#: A paragraph above the first post with this much prose (less links) is an introduction.
MIN_LEAD_PROSE: Final = 100
#: Post-body templates of the common forum packages (a class of a post's text container or of
#: one of its two ancestors, case and all: Blogger's ``post-body`` is an article's; and
#: attribute values): judged by package, never by
#: site. phpBB ``div.postbody > div.content``, vBulletin ``blockquote.postcontent`` /
#: ``div.js-post__content-text``, XenForo ``div.bbWrapper``, Discourse ``div.cooked``, bbPress
#: ``div.bbp-reply-content``, Flarum ``div.Post-body``, MyBB ``div.post_body``, Invision
#: ``div[data-role=commentContent]``, SMF ``div.post > div.inner``, NodeBB
#: ``div[component=post/content]``; older versions and other packages: XenForo 1 and WoltLab
#: ``messageText``, Vanilla ``div.Message.userContent``, FluxBB/PunBB ``div.postmsg``, Khoros
#: ``div.lia-message-body-content``, vBulletin 3 ``div#post_message_<n>`` (an id, no class).
FORUM_POST_CLASSES: Final = frozenset(
    """postbody postcontent js-post__content-text bbWrapper cooked bbp-reply-content
    bbp-topic-content Post-body post_body ipsType_richText messageText userContent postmsg
    lia-message-body-content""".split()
)
FORUM_POST_ATTRIBUTES: Final = (
    ("data-role", "commentContent"),
    ("component", "post/content"),
)
FORUM_POST_ID_PREFIXES: Final = ("post_message_",)
#: schema.org microdata of a forum post (a crawler rendering names no package): the post's
#: ``itemprop="text"`` inside an item of this type.
FORUM_POST_ITEMTYPE: Final = "DiscussionForumPosting"
#: Children of a post's text container whose classes are looked at too (XenForo 1 puts the
#: text in ``blockquote.messageText``, a text-level element, inside a bare ``article``).
_PACKAGE_CHILDREN: Final = 3
#: Forum packages as the ``generator`` meta tag names them (lowercased, first word).
FORUM_GENERATORS: Final = (
    "phpbb",
    "vbulletin",
    "xenforo",
    "discourse",
    "bbpress",
    "flarum",
    "mybb",
    "invision",
    "smf",
    "simple machines",
    "nodebb",
)
#: SMF: ``div.post > div.inner``; phpBB: ``div.postbody > div.content`` (generic words alone).
_FORUM_POST_PAIRS: Final = frozenset({("post", "inner"), ("postbody", "content")})
_DIGITS: Final = str.maketrans("", "", "0123456789")
_DIGIT: Final = re.compile("[0-9]")


_compiled_word: Callable[[Any], str | None] | None = None
try:
    from newsspider.extraction.body import _threads_c
except ImportError:  # not built (no compiler at install time): lxml's reads
    pass
else:
    _compiled_word = _threads_c.template_word
#: A block's first class name, else its id, without digits, read in C
#: (`_threads_c.template_word`: a read through lxml costs about 1,400 instructions, a regular
#: expression search about as much); `active` when not switched off.
TEMPLATE_WORD: Final[CompiledTwin[Callable[[Any], str | None]]] = CompiledTwin(_compiled_word)


def _template_word(element: Any) -> str:
    """The element's first class name, else its id, else "", without ASCII digits: post
    numbers in classes and ids ("bg1", "post_12"), the template without them."""
    compiled = TEMPLATE_WORD.active
    if compiled is not None:
        word = compiled(element)
        if word is not None:
            return word
    classes = element.get("class")
    word = classes.split()[0] if classes and classes.strip() else element.get("id") or ""
    # translate() costs several times a search: only a word with a digit needs it.
    if not word.isalpha() and _DIGIT.search(word):
        word = word.translate(_DIGITS)
    return word


def _signature(page: PageSegments, block_id: int, cache: dict[int, str]) -> str:
    signature = cache.get(block_id)
    if signature is None:
        word = _template_word(page.block_elements[block_id])
        signature = f"{page.block_tags[block_id]}.{word}"
        cache[block_id] = signature
    return signature


def _text_container(page: PageSegments, owner: int) -> int:
    parents, tags = page.block_parents, page.block_tags
    block = owner
    while tags[block] in _TEXT_LEVEL and parents[block] >= 0:
        block = parents[block]
    return block


def _template(page: PageSegments, block_id: int, cache: dict[int, str]) -> tuple[str, ...]:
    parents = page.block_parents
    key: list[str] = []
    while block_id >= 0 and len(key) < TEMPLATE_DEPTH:
        key.append(_signature(page, block_id, cache))
        block_id = parents[block_id]
    return tuple(key)


def _headlines(page: PageSegments) -> list[int]:
    """Owners of linked h2-h4 headings that lead to other pages (teaser headlines), in
    document order. A heading linking into the page ("#p2169826") is a post's permalink."""
    headlines: list[int] = []
    elements = page.block_elements
    for owner in page.linked_heading_owners():
        link = elements[owner].find(".//a")
        href = link.get("href", "") if link is not None else ""
        if not href.startswith("#"):
            headlines.append(owner)
    return headlines


def _template_top(page: PageSegments, block_id: int) -> int:
    parents = page.block_parents
    for _ in range(TEMPLATE_DEPTH - 1):
        if parents[block_id] < 0:
            break
        block_id = parents[block_id]
    return block_id


def find_posts(page: PageSegments) -> list[int]:
    """The text containers of the page's most prose-rich repeated post template (document
    order), or [] when no template repeats in separate wrappers.

    A template whose items carry a linked headline is a teaser stream, not posts (a forum's
    linked author name sits in the author column, outside the post's template); link lists
    repeating a template (footer columns) are not posts either.
    """
    # Prose each text container holds itself (not in nested containers): the template that
    # holds the text, not the wrapper around post, author column and signature, is the post.
    # Lists by block id rather than dicts: no int boxed and hashed per segment.
    blocks = len(page.block_tags)
    containers = [0] * blocks
    container_of = [-1] * blocks
    first_held: list[int] = []  # the containers in the order they first hold prose
    owners, all_chars, all_link_chars = (
        page.segment_owners,
        page.segment_chars,
        page.segment_link_chars,
    )
    for index in range(len(owners)):  # compiled, a zip with strict=True is a generic iterator
        owner, chars, link_chars = owners[index], all_chars[index], all_link_chars[index]
        if chars > link_chars:
            container = container_of[owner]
            if container < 0:
                container = container_of[owner] = _text_container(page, owner)
            if not containers[container]:
                first_held.append(container)
            containers[container] += chars - link_chars
    # A label or a button's worth of text ("Reply", "#3") is no post: not worth a template.
    held_prose = [block_id for block_id in first_held if containers[block_id] >= MIN_POST_PROSE]
    # The text container's own signature first: a template starts with it, and templates
    # merge only when it agrees (`_merge_wrapper_variants`), so a container whose signature
    # no other shares is in no group of two. Its ancestors' are read for the others only.
    cache: dict[int, str] = {}
    own: dict[str, int] = {}
    for block_id in held_prose:
        signature = _signature(page, block_id, cache)
        own[signature] = own.get(signature, 0) + 1
    groups: dict[tuple[str, ...], list[int]] = {}
    for block_id in held_prose:
        if own[cache[block_id]] >= 2:
            groups.setdefault(_template(page, block_id, cache), []).append(block_id)
    candidates = [
        (sum(containers[block_id] for block_id in members), members)
        for members in _merge_wrapper_variants(page, groups).values()
        if len(members) >= MIN_POSTS
    ]
    # Richest template first: the costlier tests run on the few that come close.
    candidates.sort(key=lambda candidate: -candidate[0])
    checks = _PostChecks(page)
    for _, members in candidates:
        posts = checks.posts(members, containers)
        if posts:
            return posts
    return []


def _merge_wrapper_variants(
    page: PageSegments, groups: dict[tuple[str, ...], list[int]]
) -> dict[tuple[str, ...], list[int]]:
    """Templates that differ only in the post wrapper's class, whose members each have a
    wrapper of their own in the same list, are one template: forum software marks a post's
    wrapper by who wrote it (``li.topic-owner-post`` beside plain ``li``) or by its state.
    (Columns of teasers or a page's sections share one wrapper per column: not merged.)"""
    # Only templates that share the text container's and the list's signatures can merge:
    # most pages have none, and their groups are not looked into.
    alike: dict[tuple[str, ...], list[tuple[str, ...]]] = {}
    for template in groups:
        if len(template) == TEMPLATE_DEPTH:
            alike.setdefault((template[0], template[2]), []).append(template)
    merged = groups
    parents, tags = page.block_parents, page.block_tags
    for templates in alike.values():
        if len(templates) < 2:
            continue
        variants: dict[tuple[frozenset[int], frozenset[str]], list[tuple[str, ...]]] = {}
        for template in templates:
            members = groups[template]
            wrappers = {parents[block_id] for block_id in members}
            if len(wrappers) < len(members):
                continue
            lists = frozenset(parents[wrapper] for wrapper in wrappers)
            wrapper_tags = frozenset(tags[wrapper] for wrapper in wrappers)
            variants.setdefault((lists, wrapper_tags), []).append(template)
        for same in variants.values():
            if len(same) > 1:
                if merged is groups:
                    merged = dict(groups)
                members = sorted(block_id for template in same for block_id in merged.pop(template))
                merged[same[0]] = members
    return merged


class _PostChecks:
    """The tests a repeated template passes to be a thread's posts, with what they need
    worked out once per page and only when a template gets that far."""

    def __init__(self, page: PageSegments) -> None:
        self.page = page
        self.outside: dict[int, bool] = {}
        self.headlines: list[int] | None = None
        self.links: list[int] | None = None

    def is_outside(self, block_id: int) -> bool:
        """Inside a nav, aside, footer, menu or header element or a block named as one, or
        a dialog laid over the page (menus and consent tabs repeat templates too)."""
        known = self.outside.get(block_id)
        if known is not None:
            return known
        # Up the ancestors to a known answer, an outside element or the root; a loop, not a
        # recursion: blocks nest thousands deep on broken pages (found by bench.robustness.fuzz).
        page = self.page
        chain: list[int] = []
        node = block_id
        known = False
        while node >= 0:
            cached = self.outside.get(node)
            if cached is not None:
                known = cached
                break
            chain.append(node)
            if page.block_tags[node] in _OUTSIDE_TAGS or self._named_outside(node):
                known = True
                break
            node = page.block_parents[node]
        for node in chain:
            self.outside[node] = known
        return known

    def _named_outside(self, block_id: int) -> bool:
        signal = self.page.block_signals[block_id]
        if signal == OVERLAY:
            return True
        if signal > STRONG_FURNITURE:  # also when the page uses the word for its layout
            return False
        element = self.page.block_elements[block_id]
        words = class_meaning(element.get("class"), element.get("id"))[3]
        return not REGION_TOKENS.isdisjoint(words)

    def posts(self, members: list[int], containers: list[int]) -> list[int]:
        page = self.page
        members = [block_id for block_id in members if not self.is_outside(block_id)]
        # Outermost members only (a quote repeating the post template sits inside a post).
        outer: list[int] = []
        for block_id in members:
            if not outer or block_id > page.block_ends[outer[-1]]:
                outer.append(block_id)
        # Cousins, not siblings: paragraphs-in-divs of one article share a parent.
        if len({page.block_parents[block_id] for block_id in outer}) < MIN_POSTS:
            return []
        if sum(containers[block_id] for block_id in members) < MIN_THREAD_PROSE:
            return []
        if self.headlines is None:
            self.headlines = _headlines(page)
        if (
            self.headlines
            and _has_headline(page, outer[0], self.headlines)
            # Invision 3 heads each post with its author's linked name: a package's posts
            # (by its classes: a list of topics may carry forum-post microdata too).
            and not forum_package_posts(page, outer, microdata=False)
        ):
            return []
        if self.links is None:
            self.links = page.subtree_totals(page.segment_link_chars)
        prose, links = page.prose, self.links
        if sum(1 for block_id in outer if prose[block_id] >= links[block_id]) < MIN_POSTS:
            return []
        if sorted(prose[block_id] for block_id in outer)[len(outer) // 2] < MIN_MEDIAN_POST_PROSE:
            return []
        return outer


def _has_headline(page: PageSegments, post: int, headlines: list[int]) -> bool:
    top = _template_top(page, post)
    index = bisect.bisect_left(headlines, top)
    return index < len(headlines) and headlines[index] <= page.block_ends[top]


def names_forum_package(root: Any) -> bool:
    """Does the page's ``generator`` meta tag name a forum package (read before cleaning)?"""
    head = root.find("head")
    if head is None:
        return False
    for meta in head.iter("meta"):
        if (meta.get("name") or "").lower() == "generator":
            content = (meta.get("content") or "").lower()
            if content.startswith(FORUM_GENERATORS):
                return True
    return False


def is_thread(
    page: PageSegments, posts: list[int], container: int, forum_page: bool = False
) -> bool:
    """Do the posts repeat the template of what the density choice found (or outweigh it)?

    The chosen container inside a post means the extractor took one post for the article; a
    container whose prose is mostly posts is the thread with its author columns and meta
    lines; a container outside every post holding less prose than the opening (first) post is
    a notice or a sidebar beside a thread whose posts were scored away. An article with
    comments has its text outside the comments and before them, longer than the first one
    (the opening post of a thread repeats the replies' template).
    """
    ends, prose = page.block_ends, page.prose
    end = ends[container]
    inside = [post for post in posts if container <= post <= end]
    if inside:
        if sum(prose[post] for post in inside) < POST_SHARE * prose[container]:
            # A container around a short thread and a longer notice or sidebar: a forum
            # package's post template says the thread is the page.
            return len(inside) == len(posts) and (forum_page or forum_package_posts(page, posts))
        # An article above its comments: text before the post list, longer than the first
        # post. (An opening post with a template of its own sits inside the post list.)
        post_list = common_ancestor(page, inside)
        return _lead_prose(page, container, post_list) < prose[inside[0]] or (
            forum_page or forum_package_posts(page, posts)
        )
    if any(post <= container <= ends[post] for post in posts):
        return True
    # A short opening post loses to a longer notice or sidebar by prose; a forum package's
    # post template says the page is the thread all the same.
    return prose[container] < prose[posts[0]] or forum_page or forum_package_posts(page, posts)


def _class_words(element: Any) -> list[str]:
    classes = element.get("class")
    return classes.split() if isinstance(classes, str) else []


def forum_package_posts(page: PageSegments, posts: list[int], *, microdata: bool = True) -> bool:
    """Are the posts a forum package's post bodies (`FORUM_POST_CLASSES`...)? Read from the
    first two posts' text containers and their two ancestors (the elements are there until
    the body is chosen)."""
    elements, parents = page.block_elements, page.block_parents
    if not elements:
        return False
    recognised = 0
    for post in posts[:2]:
        if _package_post(elements, parents, post, microdata):
            recognised += 1
    return recognised == min(2, len(posts))


def _package_element(element: Any) -> bool:
    if not FORUM_POST_CLASSES.isdisjoint(_class_words(element)):
        return True
    if any(element.get(name) == value for name, value in FORUM_POST_ATTRIBUTES):
        return True
    return str(element.get("id") or "").startswith(FORUM_POST_ID_PREFIXES)


def _package_post(elements: list[Any], parents: Any, post: int, microdata: bool) -> bool:
    """Is the post's text container (or one of its two ancestors, or one of its first
    children) a forum package's post body, or the text of a schema.org forum post?"""
    element = elements[post]
    for child in islice(element.iterchildren("*"), _PACKAGE_CHILDREN):
        if _package_element(child):
            return True
    block = post
    child_words: list[str] = []
    text_item = False
    for _ in range(TEMPLATE_DEPTH):
        if block < 0:
            break
        element = elements[block]
        words = _class_words(element)
        if _package_element(element):
            return True
        if any((word, child) in _FORUM_POST_PAIRS for word in words for child in child_words):
            return True
        text_item = text_item or (microdata and element.get("itemprop") == "text")
        if text_item and str(element.get("itemtype") or "").endswith(FORUM_POST_ITEMTYPE):
            return True
        child_words = words
        block = parents[block]
    return False


def _lead_prose(page: PageSegments, start: int, post_list: int) -> int:
    """The most prose one text container holds between block `start` and the post list."""
    held: dict[int, int] = {}
    chars, link_chars = page.segment_chars, page.segment_link_chars
    for index, owner in enumerate(page.segment_owners):
        if owner >= post_list:
            break
        if owner >= start and chars[index] > link_chars[index]:
            container = _text_container(page, owner)
            held[container] = held.get(container, 0) + chars[index] - link_chars[index]
    return max(held.values(), default=0)


def thread_segments(page: PageSegments, posts: list[int]) -> tuple[int, ...]:
    """The segments of every post, in document order, less link lines and furniture nested in
    a post (share bars, reply buttons): the post's own name may be furniture ("comment").
    Paragraphs introducing the first post are kept; a heading only when post text follows."""
    ends, signals = page.block_ends, page.block_signals
    parents = page.block_parents
    in_post = [-1] * len(page.block_tags)
    for post in posts:
        in_post[post : ends[post] + 1] = [post] * (ends[post] + 1 - post)
    furniture_below = [False] * len(page.block_tags)
    for post in posts:
        for block_id in range(post + 1, ends[post] + 1):
            parent = parents[block_id]
            furniture_below[block_id] = (parent > post and furniture_below[parent]) or signals[
                block_id
            ] <= STRONG_FURNITURE
    lead = _lead_blocks(page, posts)
    kept: list[int] = []
    # Headings wait for the text they head: a page builder puts an article's sub-headings in
    # widgets of their own, which repeat the template of its text widgets, and so do headings
    # over what follows the article ("Related blogs" over teaser cards, "Subscribe").
    pending: list[int] = []
    gap = 0  # link characters outside the posts since the first pending heading
    chars, link_chars, tags = page.segment_chars, page.segment_link_chars, page.segment_tags
    for index, owner in enumerate(page.segment_owners):
        post_text = in_post[owner] >= 0 and not furniture_below[owner] and tags[index] != "h1"
        lead_text = owner in lead and chars[index] - link_chars[index] >= MIN_LEAD_PROSE
        dense = bool(chars[index]) and link_chars[index] / chars[index] > MAX_LINK_DENSITY
        if not (post_text or lead_text) or dense:
            if pending and (in_post[owner] < 0 or dense):
                gap += link_chars[index]
                if gap > MAX_HEADING_GAP:  # teasers or a menu under it: their heading
                    pending.clear()
            continue
        if tags[index] in HEADING_TAGS:
            if not pending:
                gap = 0
            pending.append(index)
            continue
        kept.extend(pending)
        pending.clear()
        kept.append(index)
    return tuple(kept)


def _lead_blocks(page: PageSegments, posts: list[int]) -> set[int]:
    """Paragraphs between the start of the posts' common ancestor and the first post, with no
    furniture or caption around them: the introduction above a list whose items repeat a
    template (a listicle taken for a thread). A forum puts only short lines there."""
    top = common_ancestor(page, posts)
    signals, parents, tags = page.block_signals, page.block_parents, page.block_tags
    captions = page.block_captions
    lead: set[int] = set()
    # Blocks from `top` on are its descendants (preorder ids): clean[b - top] for block b.
    clean = [True] * (posts[0] - top)
    for block_id in range(top + 1, posts[0]):
        is_clean = (
            clean[parents[block_id] - top] and signals[block_id] >= 0 and not captions[block_id]
        )
        clean[block_id - top] = is_clean
        if is_clean and tags[block_id] == "p":
            lead.add(block_id)
    return lead


def common_ancestor(page: PageSegments, posts: list[int]) -> int:
    """The innermost block holding every post."""
    block = posts[0]
    last = posts[-1]
    while block > 0 and page.block_ends[block] < last:
        block = page.block_parents[block]
    return max(block, 0)


@dataclass(frozen=True, slots=True)
class ThreadSelection:
    """A forum thread's posts and the body made of them."""

    posts: tuple[int, ...]
    selection: BodySelection
    #: The posts are a forum package's post bodies (`forum_package_posts`): the page is a
    #: thread by its markup, whatever its words say (`api` types it "thread").
    package: bool = False


def thread_selection(
    page: PageSegments, choice: ContainerChoice, forum_page: bool = False
) -> ThreadSelection | None:
    """The whole thread as the body, when the page is one (see `is_thread`; `forum_page`: the
    page names a forum package as its generator); else None."""
    posts = find_posts(page)
    if not posts or not is_thread(page, posts, choice.block, forum_page):
        return None
    segment_ids = thread_segments(page, posts)
    if not segment_ids:
        return None
    return ThreadSelection(
        tuple(posts),
        BodySelection(common_ancestor(page, posts), segment_ids),
        forum_package_posts(page, posts),
    )
