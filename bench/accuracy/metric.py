"""Scoring: the Zyte shingle metric for bodies, plus title, date and confidence measures.

The body metric reproduces ``evaluate.py`` of the Zyte (Scrapinghub) article-extraction
benchmark exactly, so numbers compare with published results:

* tokens are the matches of the regex ``\\w+`` (Unicode); case is kept;
* shingles are the 4-grams of consecutive tokens; a text with fewer than 4 (but at least one)
  tokens is one shingle of all its tokens; an empty text has no shingles;
* per page, TP/FP/FN are counted over the shingle *multisets* and normalised to sum to 1;
* page precision = TP/(TP+FP) and recall = TP/(TP+FN), both 1.0 when FP = FN = 0, precision 0
  when TP = FP = 0, recall 0 when TP = FN = 0;
* corpus precision is the mean page precision over pages with TP+FP > 0, corpus recall the mean
  page recall over pages with TP+FN > 0, and F1 = 2·P·R/(P+R) of those two means.

Where upstream would crash (no page eligible for precision: the extractor never returned any
text) precision is reported as undefined (None) and F1 as 0.0.

Everything here is pure Python and deterministic.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = [
    "BodyScore",
    "Match",
    "SnippetHits",
    "SnippetScore",
    "accuracy",
    "auroc",
    "body_score",
    "date_correct",
    "normalize_title",
    "page_f1",
    "page_precision",
    "page_recall",
    "shingle_match",
    "shingles",
    "snippet_hits",
    "snippet_score",
    "title_correct",
    "title_correct_lenient",
    "title_token_f1",
    "title_truth_adds_site_name",
    "tokenize",
]

NGRAM_N = 4
#: Page body F1 at or above which an extraction counts as good (the AUROC positives).
GOOD_F1 = 0.8
#: Title token F1 at or above which the lenient title check passes.
LENIENT_TITLE_F1 = 0.9

_TOKEN_RE = re.compile(r"\w+")

Shingle = tuple[str, ...]


def tokenize(text: str | None) -> list[str]:
    """The metric's tokens: every run of Unicode word characters, case kept."""
    return _TOKEN_RE.findall(text or "")


def shingles(text: str | None, n: int = NGRAM_N) -> Counter[Shingle]:
    """The multiset of ``n``-token shingles of ``text`` (one shingle if it has < n tokens)."""
    tokens = tokenize(text)
    if not tokens:
        return Counter()
    if len(tokens) < n:
        return Counter([tuple(tokens)])
    return Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


@dataclass(frozen=True, slots=True)
class Match:
    """One page's TP/FP/FN, normalised to sum to 1 (all 0 when both texts are empty)."""

    tp: float
    fp: float
    fn: float

    @property
    def precision(self) -> float:
        return page_precision(self)

    @property
    def recall(self) -> float:
        return page_recall(self)

    @property
    def f1(self) -> float:
        return page_f1(self)

    @property
    def precision_eligible(self) -> bool:
        """Counted in the corpus precision average (the prediction has text)."""
        return self.tp + self.fp > 0

    @property
    def recall_eligible(self) -> bool:
        """Counted in the corpus recall average (the truth has text)."""
        return self.tp + self.fn > 0


def shingle_match(truth: str | None, pred: str | None, n: int = NGRAM_N) -> Match:
    """Compare a predicted body with the true one over shingle multisets."""
    true_sh = shingles(truth, n)
    pred_sh = shingles(pred, n)
    tp = sum((true_sh & pred_sh).values())
    fp = sum((pred_sh - true_sh).values())
    fn = sum((true_sh - pred_sh).values())
    total = tp + fp + fn
    if total == 0:
        return Match(0.0, 0.0, 0.0)
    return Match(tp / total, fp / total, fn / total)


def page_precision(m: Match) -> float:
    if m.fp == 0 and m.fn == 0:
        return 1.0
    if m.tp == 0 and m.fp == 0:
        return 0.0
    return m.tp / (m.tp + m.fp)


def page_recall(m: Match) -> float:
    if m.fp == 0 and m.fn == 0:
        return 1.0
    if m.tp == 0 and m.fn == 0:
        return 0.0
    return m.tp / (m.tp + m.fn)


def page_f1(m: Match) -> float:
    """Harmonic mean of the page's precision and recall (0.0 when both are 0)."""
    p, r = page_precision(m), page_recall(m)
    return 2 * p * r / (p + r) if p + r > 0 else 0.0


@dataclass(frozen=True, slots=True)
class BodyScore:
    """Corpus-level body scores. ``precision`` is None when no page had predicted text."""

    f1: float
    precision: float | None
    recall: float | None
    #: Pages in the precision average (TP+FP > 0) and in the recall average (TP+FN > 0).
    n_precision: int
    n_recall: int
    #: All pages scored (pages with a body truth).
    n_pages: int


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def body_score(matches: Iterable[Match]) -> BodyScore:
    """Average page precision and recall over their eligible pages; F1 of the two averages."""
    matches = list(matches)
    precisions = [page_precision(m) for m in matches if m.precision_eligible]
    recalls = [page_recall(m) for m in matches if m.recall_eligible]
    p, r = _mean(precisions), _mean(recalls)
    f1 = 2 * p * r / (p + r) if p is not None and r is not None and p + r > 0 else 0.0
    return BodyScore(f1, p, r, len(precisions), len(recalls), len(matches))


# --- titles -------------------------------------------------------------------------------

_WS_RE = re.compile(r"\s+")


def _is_edge_char(ch: str) -> bool:
    """Characters stripped from both ends of a title: whitespace and punctuation (incl. quotes)."""
    return ch.isspace() or unicodedata.category(ch).startswith("P")


def normalize_title(title: str | None) -> str:
    """NFKC, casefold, whitespace runs → one space, surrounding punctuation/quotes stripped."""
    if not title:
        return ""
    text = _WS_RE.sub(" ", unicodedata.normalize("NFKC", title).casefold())
    start, end = 0, len(text)
    while start < end and _is_edge_char(text[start]):
        start += 1
    while end > start and _is_edge_char(text[end - 1]):
        end -= 1
    return text[start:end]


def title_correct(pred: str | None, truth: str | None) -> bool:
    """Exact match after `normalize_title` (an empty prediction is never correct)."""
    norm_pred = normalize_title(pred)
    return bool(norm_pred) and norm_pred == normalize_title(truth)


# Ideographs and kana carry a word each, so they count as one token per character; any other
# run of word characters is one token. Keeps the lenient check meaningful for zh/ja titles.
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f"
_TITLE_TOKEN_RE = re.compile(f"[{_CJK}]|[^\\W{_CJK}]+")


def title_tokens(title: str | None) -> list[str]:
    return _TITLE_TOKEN_RE.findall(normalize_title(title))


def title_token_f1(pred: str | None, truth: str | None) -> float:
    """Multiset token F1 of two titles after normalisation (CJK characters are tokens)."""
    pred_tokens, true_tokens = Counter(title_tokens(pred)), Counter(title_tokens(truth))
    if not pred_tokens or not true_tokens:
        return 0.0
    common = sum((pred_tokens & true_tokens).values())
    if common == 0:
        return 0.0
    p = common / sum(pred_tokens.values())
    r = common / sum(true_tokens.values())
    return 2 * p * r / (p + r)


def title_correct_lenient(pred: str | None, truth: str | None) -> bool:
    """Exactly correct, or token F1 ≥ 0.9 (e.g. a site name left on, a subtitle dropped)."""
    return title_correct(pred, truth) or title_token_f1(pred, truth) >= LENIENT_TITLE_F1


# A title miss where the truth is the prediction plus a site name ("Headline | Site",
# "Site - Headline", "标题_频道_网站", "Headline [Site]"): the truth breaks the rule that a
# title is the bare headline, so the miss says more about the truth than the extractor.
# Separators are matched on the normalised truth (NFKC turns "｜" into "|", "（" into "(").
# An unspaced "-" is a hyphen ("Just-released") unless it touches CJK text ("标题-网站").
_SITE_SUFFIX_SEP_RE = re.compile(r"\s+(?:@|-)\s*|\s*(?:::|[|–—·•_:»/]|(?=[\[(【<]))\s*")
_SITE_SUFFIX_SEP_CJK_RE = re.compile(r"\s*-+\s*")
# ":" is left out before a headline: "Kicker: Headline" is a kicker, not a site name.
_SITE_PREFIX_SEP_RE = re.compile(r"\s*-\s+$|\s*(?:::|[|–—·•_»/]|(?<=[\])】>]))\s*$")
_SITE_PREFIX_SEP_CJK_RE = re.compile(r"\s*-+\s*$")
_LATIN_WORD_RE = re.compile(f"[^\\W{_CJK}]+")
_CJK_CHAR_RE = re.compile(f"[{_CJK}]")
_CLOSING = "\"'”’»」』》)]】!?.…"
_OPENING = "\"'“‘«「『《(["
#: The longest remainder still taken for a site name: characters, Latin words, CJK characters.
SITE_NAME_MAX_CHARS = 40
SITE_NAME_MAX_WORDS = 6
SITE_NAME_MAX_CJK = 12


def _is_short_site_name(text: str, pred_len: int) -> bool:
    text = text.strip(" ")
    return (
        bool(_TITLE_TOKEN_RE.search(text))
        and len(text) <= SITE_NAME_MAX_CHARS
        and len(text) <= 2 * pred_len + 10
        and len(_LATIN_WORD_RE.findall(text)) <= SITE_NAME_MAX_WORDS
        and len(_CJK_CHAR_RE.findall(text)) <= SITE_NAME_MAX_CJK
    )


def title_truth_adds_site_name(pred: str | None, truth: str | None) -> bool:
    """Whether a wrong title is only missing a site name that the *truth* carries.

    True when the normalised truth is the normalised prediction followed by a separator
    (``| - – — · • _ : :: » /``, a spaced ``@`` as in "Post @ Blog", or an opening bracket) and
    a short remainder, or a short remainder and a separator (not ``:``) followed by the
    prediction. A hyphen counts only when spaced or next to CJK text. Never true for a
    correct or empty prediction.
    """
    norm_pred, norm_truth = normalize_title(pred), normalize_title(truth)
    if not norm_pred or not norm_truth or norm_pred == norm_truth:
        return False
    if norm_truth.startswith(norm_pred):
        # The prediction's closing quote or "!" went with its edge punctuation: skip it here.
        rest = norm_truth[len(norm_pred) :].lstrip(_CLOSING)
        sep = _SITE_SUFFIX_SEP_RE.match(rest)
        if not sep and _CJK_CHAR_RE.match(norm_pred[-1]):
            sep = _SITE_SUFFIX_SEP_CJK_RE.match(rest)
        if sep and sep.end() < len(rest) and (sep.group() or rest[0] in "[(【<"):
            return _is_short_site_name(rest[sep.end() :], len(norm_pred))
    if norm_truth.endswith(norm_pred):
        rest = norm_truth[: -len(norm_pred)].rstrip(_OPENING)
        sep = _SITE_PREFIX_SEP_RE.search(rest)
        if not sep and _CJK_CHAR_RE.match(norm_pred[0]):
            sep = _SITE_PREFIX_SEP_CJK_RE.search(rest)
        if sep and sep.start() > 0 and sep.group():
            return _is_short_site_name(rest[: sep.start()], len(norm_pred))
    return False


# --- dates --------------------------------------------------------------------------------


def date_correct(pred: str | None, truth: str) -> bool:
    """The predicted ISO date's first 10 characters equal the true ``YYYY-MM-DD``."""
    return pred is not None and pred[:10] == truth[:10]


# --- snippets -------------------------------------------------------------------------------

_NON_WORD_RE = re.compile(r"[\W_]+")


def _snippet_norm(text: str) -> str:
    """NFKC, casefold, every run of non-word characters as one space: formatting-blind text."""
    return " " + _NON_WORD_RE.sub(" ", unicodedata.normalize("NFKC", text).casefold()).strip() + " "


@dataclass(frozen=True, slots=True)
class SnippetHits:
    """One page: how many ``with`` snippets the body holds and ``without`` snippets it avoids."""

    with_found: int
    with_total: int
    without_absent: int
    without_total: int


def snippet_hits(pred: str | None, with_: Sequence[str], without: Sequence[str]) -> SnippetHits:
    """Count snippet matches in ``pred``: substring tests on formatting-blind text.

    A snippet matches on whole words: both sides are normalised by `_snippet_norm`, so case,
    punctuation and whitespace differences between the truth's and the extractor's text don't
    count, and "Home" does not match inside "homes".
    """
    text = _snippet_norm(pred or "")
    found = sum(_snippet_norm(s) in text for s in with_)
    present = sum(_snippet_norm(s) in text for s in without)
    return SnippetHits(found, len(with_), len(without) - present, len(without))


@dataclass(frozen=True, slots=True)
class SnippetScore:
    """Snippet recall (``with`` found), precision (``without`` absent), averaged over pages."""

    f1: float
    recall: float | None
    precision: float | None
    n_pages: int


def snippet_score(hits: Iterable[SnippetHits]) -> SnippetScore:
    """Mean per-page with-recall and without-precision over pages having such snippets; F1."""
    hits = list(hits)
    recalls = [h.with_found / h.with_total for h in hits if h.with_total]
    precisions = [h.without_absent / h.without_total for h in hits if h.without_total]
    r, p = _mean(recalls), _mean(precisions)
    f1 = 2 * p * r / (p + r) if p is not None and r is not None and p + r > 0 else 0.0
    return SnippetScore(f1, r, p, len(hits))


# --- aggregates ---------------------------------------------------------------------------


def accuracy(flags: Iterable[bool]) -> float | None:
    """Share of True among ``flags``; None when there are none."""
    values = list(flags)
    return sum(values) / len(values) if values else None


def auroc(scores: Sequence[float], labels: Sequence[bool]) -> float | None:
    """Area under the ROC curve via Mann-Whitney U with average ranks for ties.

    It is the probability that a random positive scores above a random negative, ties counting
    one half. None when either class is empty.
    """
    if len(scores) != len(labels):
        raise ValueError("scores and labels differ in length")
    n_pos = sum(1 for label in labels if label)
    n_neg = len(labels) - n_pos
    if n_pos == 0 or n_neg == 0:
        return None
    order = sorted(range(len(scores)), key=lambda i: scores[i])
    rank_sum_pos = 0.0
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and scores[order[j + 1]] == scores[order[i]]:
            j += 1
        average_rank = (i + j) / 2 + 1  # ranks are 1-based
        rank_sum_pos += average_rank * sum(1 for k in order[i : j + 1] if labels[k])
        i = j + 1
    u = rank_sum_pos - n_pos * (n_pos + 1) / 2
    return u / (n_pos * n_neg)
