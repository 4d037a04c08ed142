"""What a block's class and id words say it is: furniture, an overlay, a caption, the article.

Whole words only ("comment" is furniture, "commentary" is not), read from camelCase, BEM
elements and squashed values. Pure functions of the attribute strings, cached (bounded).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from newsspider.core_loader import CompiledTwin
from newsspider.extraction.common.caching import MAX_KEY_CHARS
from newsspider.extraction.page.visibility import HIDDEN_KEYS, hidden_class

_CAMEL: Final = re.compile(r"([a-z])([A-Z])")
_TOKEN_SPLIT: Final = re.compile(r"[^a-z0-9]+")
# Class/id words of page furniture. Whole tokens only: "comment" is noise, "commentary" is not.
# Strong words name regions that never wrap an article; weak ones ("widget", "modal", "promo")
# also appear on wrappers, so they only count inside the chosen container.
STRONG_NEGATIVE_TOKENS: Final = frozenset(
    """comment comments commentlist disqus respond replies related relatedposts
    recommend recommended recommendation recommendations recirc recirculation outbrain taboola share
    sharing sharebar social socials newsletter subscribe subscription signup cookie cookies
    consent gdpr sidebar footer nav navbar navigation menu breadcrumb breadcrumbs pagination
    pager advert advertisement advertising ads adslot sponsor sponsored popup trending popular
    mostread""".split()
)
WEAK_NEGATIVE_TOKENS: Final = frozenset(
    """reply ad banner modal toolbar widget masthead tags tagcloud keywords rating ratings skip
    print login teaser teasers more promo promotion bio cta author""".split()
)
POSITIVE_TOKENS: Final = frozenset(
    """article articlebody articlecontent articletext body content entry entrycontent post
    postbody postcontent story storybody storycontent text prose main maincontent blog news
    hentry""".split()
)


#: Strong words that name a region of the page around the article (never a part of it).
REGION_TOKENS: Final = frozenset(
    "footer sidebar nav navbar navigation menu breadcrumb breadcrumbs pagination pager".split()
)


CAPTION_TOKENS: Final = frozenset(
    """caption captions wpcaption wpcaptiontext imagecaption photocaption figcaption credit
    credits imagecredit photocredit""".split()
)
#: A dialog laid over the page (consent and cookie notices, modals): furniture that may hold
#: more prose than the article itself, so only its share of the page's structure can make it
#: a wrapper.
OVERLAY: Final = -3
STRONG_FURNITURE: Final = -2
WEAK_FURNITURE: Final = -1
OVERLAY_TOKENS: Final = frozenset("consent cookie cookies gdpr onetrust cmp".split())


def attribute_tokens(value: str) -> frozenset[str]:
    """The words of a class or id value, camelCase split and lower-cased, plus the whole value
    squashed ("articleBody" gives article, body and articlebody) and "related" when the squashed
    value starts with it."""
    if "__" in value:
        value = " ".join(_bem_element(word) for word in value.split())
    lower = value.lower()
    # Most class names are already lower-case: the camelCase split is only needed otherwise.
    words = _TOKEN_SPLIT.split(lower if lower == value else _CAMEL.sub(_spaced, value).lower())
    # The words joined are the value less everything but letters and digits (the camelCase
    # split only adds separators): cheaper than a second regex pass.
    squashed = "".join(words)
    tokens = set(words)
    tokens.discard("")
    tokens.add(squashed)
    # "relatedpoststitle", "relatedarticles": the one furniture word that is often run together.
    if squashed.startswith("related"):
        tokens.add("related")
    return frozenset(tokens)


_BEM_ELEMENT: Final = re.compile(r"[a-z][a-z-]{2,}")


def _bem_element(word: str) -> str:
    """'detail-content__recommend' names a recommend element inside a detail-content block: the
    element says what the node is. CSS-module hashes ('styles_Card__x4Uq2') are not elements."""
    element = word.rsplit("__", 1)[-1].split("--", 1)[0]
    return element if _BEM_ELEMENT.fullmatch(element) else word


def _spaced(match: re.Match[str]) -> str:
    return f"{match[1]} {match[2]}"


def _signal_of(tokens: frozenset[str]) -> int:
    positive = not POSITIVE_TOKENS.isdisjoint(tokens)
    if not OVERLAY_TOKENS.isdisjoint(tokens):
        return WEAK_FURNITURE if positive else OVERLAY
    if not STRONG_NEGATIVE_TOKENS.isdisjoint(tokens):
        # "article-body pagination-fix": the article word wins over the page-region word.
        return WEAK_FURNITURE if positive else STRONG_FURNITURE
    if not WEAK_NEGATIVE_TOKENS.isdisjoint(tokens):
        return 0 if positive else WEAK_FURNITURE
    return 1 if positive else 0


FURNITURE_TOKENS: Final = STRONG_NEGATIVE_TOKENS | WEAK_NEGATIVE_TOKENS | OVERLAY_TOKENS
#: A class name with one of these parts describes its element's layout, not what it is:
#: "with-sidebar-layout", "has-ads", "ast-no-sidebar" sit on the column that holds the article.
_MODIFIER_PARTS: Final = frozenset({"has", "with", "without", "no"})
_PART_SPLIT: Final = re.compile(r"[-_]+")
# A modifier part is followed by "-" or "_": one search of the lower-cased value rules out
# almost every value before any per-name work (cheaper than a case-blind regex or a substring
# test per part).
_MODIFIER_KEY: Final = re.compile("(?:" + "|".join(sorted(_MODIFIER_PARTS)) + ")[-_]")


#: What a block's class and id attributes say: (signal, caption, hidden, furniture words).
#: signal: OVERLAY, STRONG_FURNITURE, WEAK_FURNITURE, 0, or 1 (article-like); caption: a
#: caption class; hidden: a class name that hides the element (`visibility.HIDDEN_CLASS_NAMES`);
#: furniture words: those that gave a negative signal (empty otherwise). A plain tuple: one is
#: built per distinct attribute value, and a NamedTuple costs a Python-level call each.
ClassMeaning = tuple[int, bool, bool, frozenset[str]]


# Class and id values repeat across elements and pages: cache their meaning, bounded.
_attribute_cache: dict[tuple[str | None, str | None], ClassMeaning] = {}
# 20,000: a bigger dict costs memory-hierarchy time on pages of unique values (an id per
# element: 2.6x the time per doubling of the page at 50,000, 2.2x here, pathological),
# and no measurable time over 1,184 development pages in one process (15,000 entries used).
_CACHE_LIMIT: Final = 20_000


def clear_cache() -> None:
    """Forget every cached meaning: the next pages see their class values for the first time
    (for measurements that compare pages of unique values)."""
    _attribute_cache.clear()


def class_meaning(classes: str | None, ident: str | None) -> ClassMeaning:
    """What a block's class and id attributes say it is (cached)."""
    meaning = _attribute_cache.get((classes, ident))
    return _class_meaning(classes, ident) if meaning is None else meaning


def signal_without(classes: str | None, ident: str | None, ignored: frozenset[str]) -> int:
    """The furniture signal of these attributes when the `ignored` words mean nothing (words
    this page uses for its layout, see `segments`). Not cached: called for a few blocks."""
    tokens = _meaningful_tokens(classes) if classes else frozenset()
    if ident:
        tokens |= attribute_tokens(ident)
    return _signal_of(tokens - ignored)


def _meaningful_tokens(classes: str) -> frozenset[str]:
    """The class words, less the furniture words of layout modifiers ("has-sidebar")."""
    if _MODIFIER_KEY.search(classes.lower()) is None:
        return attribute_tokens(classes)
    names = classes.split()
    modifiers = [
        name for name in names if not _MODIFIER_PARTS.isdisjoint(_PART_SPLIT.split(name.lower()))
    ]
    if not modifiers:
        return attribute_tokens(classes)
    plain = [name for name in names if name not in modifiers]
    tokens = attribute_tokens(" ".join(plain)) if plain else frozenset()
    return tokens | (attribute_tokens(" ".join(modifiers)) - FURNITURE_TOKENS)


def work_out(classes: str | None, ident: str | None) -> ClassMeaning:
    """What the attributes say, worked out (uncached): the reference for the compiled
    version (`_class_words_c.work_out`)."""
    class_words = _meaningful_tokens(classes) if classes else frozenset()
    tokens = class_words | attribute_tokens(ident) if ident else class_words
    signal = _signal_of(tokens)
    return (
        signal,
        # Caption from the class only: "caption" in an id names a slot more often than text.
        not CAPTION_TOKENS.isdisjoint(class_words),
        hidden_class(classes) if classes else False,
        tokens & FURNITURE_TOKENS if signal < 0 else frozenset(),
    )


def _class_meaning(classes: str | None, ident: str | None) -> ClassMeaning:
    """`class_meaning` on a cache miss: work it out and remember it."""
    compiled = WORK_OUT.active
    meaning = compiled(classes, ident) if compiled is not None else None
    if meaning is None:
        meaning = work_out(classes, ident)
    # Bounded in bytes too: values come from arbitrary pages (`caching.cacheable`, inline: this
    # runs once per class value a process first sees).
    if (classes is None or len(classes) <= MAX_KEY_CHARS) and (
        ident is None or len(ident) <= MAX_KEY_CHARS
    ):
        if len(_attribute_cache) > _CACHE_LIMIT:
            _attribute_cache.clear()
        _attribute_cache[(classes, ident)] = meaning
    return meaning


# The compiled `work_out` (`_class_words_c`), built with the compiled walk; None falls back to
# the Python one (NEWSSPIDER_PURE_PYTHON=1, or no compiler at install). `segments` switches it
# with the walk (`core_loader.use_compiled`).
try:
    from newsspider.extraction.page import _class_words_c
except ImportError:  # not built: the pure-Python path
    _class_words_c = None  # type: ignore[assignment]
else:
    _class_words_c.configure(
        POSITIVE_TOKENS,
        OVERLAY_TOKENS,
        STRONG_NEGATIVE_TOKENS,
        WEAK_NEGATIVE_TOKENS,
        CAPTION_TOKENS,
        FURNITURE_TOKENS,
        hidden_class,
        HIDDEN_KEYS,
        OVERLAY,
        STRONG_FURNITURE,
        WEAK_FURNITURE,
        _attribute_cache,
        MAX_KEY_CHARS,
        _CACHE_LIMIT,
    )
WORK_OUT: Final[CompiledTwin[Callable[[str | None, str | None], ClassMeaning | None]]] = (
    CompiledTwin(_class_words_c.work_out if _class_words_c is not None else None)
)
#: Whether the compiled version can run here.
COMPILED_MEANING_AVAILABLE: Final = WORK_OUT.available
#: `_class_meaning` compiled, for the compiled walk (`_class_words_c.remembered`: it takes the
#: cache key); None when not built.
REMEMBERED: Final[Callable[[tuple[str | None, str | None]], ClassMeaning | None] | None] = (
    _class_words_c.remembered if _class_words_c is not None else None
)
