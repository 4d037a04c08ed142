"""The benchmark's metrics, checked against hand-computed values."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bench.accuracy import metric
from bench.accuracy.metric import Match
from bench.accuracy.peers import html_to_text
from bench.corpus import iter_corpus


def approx(x: float) -> object:
    return pytest.approx(x, abs=1e-12)


# --- tokens and shingles ------------------------------------------------------------------


def test_tokenize_unicode_words_case_kept() -> None:
    assert metric.tokenize("Hello, World! it's 2024") == ["Hello", "World", "it", "s", "2024"]
    assert metric.tokenize("Привет, мир") == ["Привет", "мир"]
    # Chinese has no spaces: one run of word characters is one token.
    assert metric.tokenize("北京时间，新闻") == ["北京时间", "新闻"]
    assert metric.tokenize(None) == []
    assert metric.tokenize(" \n ,.; ") == []


def test_shingles_four_grams() -> None:
    sh = metric.shingles("a b c d e")
    assert sh == {("a", "b", "c", "d"): 1, ("b", "c", "d", "e"): 1}


def test_shingles_short_text_is_one_shingle() -> None:
    assert metric.shingles("one two three") == {("one", "two", "three"): 1}
    assert metric.shingles("x") == {("x",): 1}
    assert metric.shingles("a b c d") == {("a", "b", "c", "d"): 1}


def test_shingles_empty_text_has_none() -> None:
    assert metric.shingles("") == {}
    assert metric.shingles("…  —") == {}


def test_shingles_are_a_multiset() -> None:
    sh = metric.shingles("a b c d a b c d")
    # abcd, bcda, cdab, dabc, abcd
    assert sh[("a", "b", "c", "d")] == 2
    assert sum(sh.values()) == 5


# --- page TP/FP/FN ------------------------------------------------------------------------


def test_identical_texts() -> None:
    m = metric.shingle_match("a b c d e f", "a b c d e f")
    assert (m.tp, m.fp, m.fn) == (1.0, 0.0, 0.0)
    assert m.precision == m.recall == m.f1 == 1.0


def test_partial_overlap_hand_computed() -> None:
    # truth shingles: abcd bcde cdef (3); pred: bcde cdef defg efgh (4)
    # TP = 2, FP = 2, FN = 1, total 5.
    m = metric.shingle_match("a b c d e f", "b c d e f g h")
    assert m.tp == approx(2 / 5)
    assert m.fp == approx(2 / 5)
    assert m.fn == approx(1 / 5)
    assert m.precision == approx(0.5)
    assert m.recall == approx(2 / 3)
    assert m.f1 == approx(2 * 0.5 * (2 / 3) / (0.5 + 2 / 3))


def test_multiset_counts_duplicates() -> None:
    # truth: "x y z w" twice → shingles xyzw, yzwx, zwxy, wxyz, xyzw (xyzw ×2)
    # pred:  "x y z w" once  → xyzw ×1. TP 1, FP 0, FN 4.
    m = metric.shingle_match("x y z w x y z w", "x y z w")
    assert (m.tp, m.fp, m.fn) == (approx(0.2), 0.0, approx(0.8))
    assert m.precision == 1.0
    assert m.recall == approx(0.2)


def test_short_texts_compare_as_single_shingles() -> None:
    # "a b c" vs "a b": different single shingles → TP 0, FP 1, FN 1.
    m = metric.shingle_match("a b c", "a b")
    assert (m.tp, m.fp, m.fn) == (0.0, 0.5, 0.5)
    assert m.precision == 0.0
    assert m.recall == 0.0
    assert m.f1 == 0.0


def test_punctuation_and_whitespace_do_not_matter() -> None:
    m = metric.shingle_match("One two, three four.\n\nFive", "One two three four Five!!")
    assert m.precision == m.recall == 1.0


def test_case_matters() -> None:
    m = metric.shingle_match("a b c d", "A b c d")
    assert m.precision == 0.0


def test_empty_prediction() -> None:
    m = metric.shingle_match("a b c d e", "")
    assert (m.tp, m.fp, m.fn) == (0.0, 0.0, 1.0)
    assert m.precision == 0.0  # TP = FP = 0
    assert m.recall == 0.0
    assert not m.precision_eligible
    assert m.recall_eligible


def test_empty_truth_with_prediction() -> None:
    m = metric.shingle_match("", "some predicted words here")
    assert (m.tp, m.fp, m.fn) == (0.0, 1.0, 0.0)
    assert m.precision == 0.0
    assert m.recall == 0.0  # TP = FN = 0
    assert m.precision_eligible
    assert not m.recall_eligible


def test_both_empty() -> None:
    m = metric.shingle_match("", None)
    assert (m.tp, m.fp, m.fn) == (0.0, 0.0, 0.0)
    assert m.precision == m.recall == 1.0  # FP = FN = 0
    assert not m.precision_eligible
    assert not m.recall_eligible


def test_page_scores_on_raw_triples() -> None:
    assert metric.page_precision(Match(0.0, 0.0, 0.0)) == 1.0
    assert metric.page_recall(Match(0.0, 0.0, 0.0)) == 1.0
    assert metric.page_precision(Match(0.5, 0.0, 0.5)) == 1.0
    assert metric.page_recall(Match(0.5, 0.5, 0.0)) == 1.0
    assert metric.page_precision(Match(0.25, 0.75, 0.0)) == approx(0.25)
    assert metric.page_f1(Match(0.0, 0.5, 0.5)) == 0.0


# --- corpus averages ----------------------------------------------------------------------


def test_body_score_averages_over_eligible_pages() -> None:
    pages = [
        Match(0.5, 0.25, 0.25),  # P 2/3, R 2/3
        Match(0.0, 0.0, 1.0),  # nothing predicted: recall 0, not in precision average
        Match(0.0, 1.0, 0.0),  # empty truth: precision 0, not in recall average
        Match(0.0, 0.0, 0.0),  # both empty: in neither average
    ]
    score = metric.body_score(pages)
    assert score.n_precision == 2
    assert score.n_recall == 2
    assert score.n_pages == 4
    assert score.precision == approx((2 / 3 + 0.0) / 2)
    assert score.recall == approx((2 / 3 + 0.0) / 2)
    assert score.f1 == approx(1 / 3)  # P = R = 1/3


def test_body_score_is_f1_of_averages_not_average_of_f1() -> None:
    pages = [Match(0.5, 0.5, 0.0), Match(0.5, 0.0, 0.5)]  # (P 0.5, R 1), (P 1, R 0.5)
    score = metric.body_score(pages)
    assert score.precision == approx(0.75)
    assert score.recall == approx(0.75)
    assert score.f1 == approx(0.75)  # the mean page F1 would be 2/3


def test_body_score_nothing_predicted() -> None:
    score = metric.body_score([Match(0.0, 0.0, 1.0), Match(0.0, 0.0, 1.0)])
    assert score.precision is None
    assert score.recall == 0.0
    assert score.f1 == 0.0


def test_body_score_empty() -> None:
    score = metric.body_score([])
    assert (score.f1, score.precision, score.recall) == (0.0, None, None)


def test_matches_upstream_reference_implementation() -> None:
    """Against a transcription of the Zyte benchmark's evaluate.py logic."""
    truth = "The quick brown fox jumps over the lazy dog. The dog sleeps; the fox runs away."
    pred = "Menu Home. The quick brown fox jumps over the lazy dog. Share this article"
    tokens_t, tokens_p = metric.tokenize(truth), metric.tokenize(pred)

    def ngrams(tokens: list[str]) -> dict[tuple[str, ...], int]:
        out: dict[tuple[str, ...], int] = {}
        for i in range(max(1, len(tokens) - 3)):
            sh = tuple(tokens[i : i + 4])
            if sh:
                out[sh] = out.get(sh, 0) + 1
        return out

    t, p = ngrams(tokens_t), ngrams(tokens_p)
    tp = sum(min(t.get(k, 0), p.get(k, 0)) for k in t.keys() | p.keys())
    fp = sum(max(0, p.get(k, 0) - t.get(k, 0)) for k in t.keys() | p.keys())
    fn = sum(max(0, t.get(k, 0) - p.get(k, 0)) for k in t.keys() | p.keys())
    s = tp + fp + fn
    m = metric.shingle_match(truth, pred)
    assert (m.tp, m.fp, m.fn) == (approx(tp / s), approx(fp / s), approx(fn / s))
    # By hand: 16 truth tokens → 13 shingles, 14 predicted → 11, 9 shared tokens → 6.
    assert (tp, fp, fn) == (6, 5, 7)


@given(st.text(max_size=200), st.text(max_size=200))
def test_page_scores_are_bounded(truth: str, pred: str) -> None:
    m = metric.shingle_match(truth, pred)
    assert 0.0 <= m.precision <= 1.0
    assert 0.0 <= m.recall <= 1.0
    assert 0.0 <= m.f1 <= 1.0
    if m.tp + m.fp + m.fn > 0:
        assert m.tp + m.fp + m.fn == approx(1.0)


@given(st.text(max_size=200))
def test_text_against_itself_is_perfect(text: str) -> None:
    m = metric.shingle_match(text, text)
    assert m.precision == m.recall == 1.0


# --- titles -------------------------------------------------------------------------------


def test_normalize_title() -> None:
    assert metric.normalize_title("  «Hello   World!» ") == "hello world"
    assert metric.normalize_title('"Straße"') == "strasse"  # casefold
    assert metric.normalize_title("Ｆｕｌｌｗｉｄｔｈ") == "fullwidth"  # NFKC
    assert metric.normalize_title("【新闻】北京") == "新闻】北京"
    assert metric.normalize_title("What? Really?!") == "what? really"  # inner punctuation kept
    assert metric.normalize_title(None) == ""


def test_title_correct() -> None:
    assert metric.title_correct("“Big news”", "Big News.")
    assert not metric.title_correct("Big news | Site", "Big news")
    assert not metric.title_correct(None, "Big news")
    assert not metric.title_correct("", "")


def test_title_lenient() -> None:
    truth = "one two three four five six seven eight nine ten"
    # 10 true tokens, 11 predicted with 10 shared: P 10/11, R 1 → F1 20/21 ≈ 0.952.
    assert metric.title_token_f1(truth + " site", truth) == approx(20 / 21)
    assert metric.title_correct_lenient(truth + " site", truth)
    # 3 shared of 4 predicted and 3 true: P 0.75, R 1 → F1 6/7 ≈ 0.857 < 0.9.
    assert not metric.title_correct_lenient("big news today site", "big news today")
    assert metric.title_correct_lenient("Big news", "big news!")


def test_title_lenient_counts_cjk_characters() -> None:
    truth = "北京举行新闻发布会介绍情况"  # 13 characters
    pred = truth + "网"  # P 13/14, R 1 → F1 26/27 ≈ 0.963
    assert metric.title_token_f1(pred, truth) == approx(26 / 27)
    assert metric.title_correct_lenient(pred, truth)
    assert not metric.title_correct(pred, truth)


@pytest.mark.parametrize(
    ("pred", "truth"),
    [
        ("How to Build a Terrarium", "How to Build a Terrarium | eHow"),
        ("Mozilla", "Mozilla - Wikipedia"),
        ("Samantha and the Big Lie", "Samantha and the Big Lie - John Welch - Medium"),
        ("Weekly Edition for March 26", "Weekly Edition for March 26 [LWN.net]"),
        ("Issue 85 is out", "Issue 85 is out – Nightly News"),
        ("Standalone binaries", "Standalone binaries · V8"),
        ("北京举行新闻发布会", "北京举行新闻发布会_科技_示例网"),
        ("北京举行新闻发布会", "北京举行新闻发布会 _探索者 _示例网"),
        ("北京举行新闻发布会", "北京举行新闻发布会-示例网"),
        ("Post title here", "Post title here @ Someone's Blog :: Platform"),
        ("「新アプリ」を発表", "「新アプリ」を発表（CNET Japan） - Yahoo!ニュース"),
        ("Site Reliability Engineering", "Google - Site Reliability Engineering"),
        ("Rates rise again", "Daily Planet » Rates rise again"),
        ('"Quoted" headline', '"Quoted" headline :: Blog'),
    ],
)  # fmt: skip
def test_title_truth_adds_site_name(pred: str, truth: str) -> None:
    assert metric.title_truth_adds_site_name(pred, truth)
    assert not metric.title_correct(pred, truth)


@pytest.mark.parametrize(
    ("pred", "truth"),
    [
        ("Rates rise again", "Rates rise again"),  # not a miss
        ("Rates rise again", "Rates rise again!"),  # not a miss either
        ("", "Rates rise | Site"),
        (None, "Rates rise | Site"),
        ("Rates rise", "Rates rises"),  # no separator
        ("Rates rise", "Rates rise sharply | Site"),  # a different headline
        ("Rates rise", "Rates rise again"),  # a longer headline, no separator
        ("Just", "Just-released exploit"),  # a hyphen, not a separator
        ("Rates rise", "Rates rise- again"),
        ("Bridge opens", "Mayor and council: Bridge opens"),  # a kicker, not a site name
        # The remainder is a second half of the headline, too long for a site name.
        ("Market this weekend", "Market this weekend - here is everything you need to know"),
        ("Market", "Market - " + "x" * 41),
        ("Unrelated words", "Something else | Site"),
    ],
)  # fmt: skip
def test_title_truth_adds_site_name_rejects(pred: str | None, truth: str) -> None:
    assert not metric.title_truth_adds_site_name(pred, truth)


# --- dates --------------------------------------------------------------------------------


def test_date_correct() -> None:
    assert metric.date_correct("2024-05-20", "2024-05-20")
    assert metric.date_correct("2024-05-20T14:41:00+08:00", "2024-05-20")
    assert not metric.date_correct("2024-05-21T00:10:00+08:00", "2024-05-20")
    assert not metric.date_correct("2024-05", "2024-05-20")
    assert not metric.date_correct(None, "2024-05-20")


def test_accuracy() -> None:
    assert metric.accuracy([True, False, True, True]) == 0.75
    assert metric.accuracy([]) is None


# --- AUROC --------------------------------------------------------------------------------


def test_auroc_perfect_and_inverted() -> None:
    assert metric.auroc([0.9, 0.8, 0.2, 0.1], [True, True, False, False]) == 1.0
    assert metric.auroc([0.1, 0.2, 0.8, 0.9], [True, True, False, False]) == 0.0


def test_auroc_ties_count_half() -> None:
    # All scores equal: every pair is a tie.
    assert metric.auroc([0.5] * 4, [True, False, True, False]) == 0.5
    # pos {0.8, 0.5}, neg {0.5, 0.2}: pairs (0.8>0.5)=1, (0.8>0.2)=1, (0.5=0.5)=.5, (0.5>0.2)=1
    assert metric.auroc([0.8, 0.5, 0.5, 0.2], [True, True, False, False]) == approx(3.5 / 4)


def test_auroc_hand_computed_mixed() -> None:
    scores = [0.1, 0.4, 0.35, 0.8, 0.35]
    labels = [False, False, True, True, True]
    # pos {0.35, 0.8, 0.35} vs neg {0.1, 0.4}: 0.35 beats 0.1 only (×2), 0.8 beats both → 4/6
    assert metric.auroc(scores, labels) == approx(4 / 6)


def test_auroc_one_class_is_undefined() -> None:
    assert metric.auroc([0.1, 0.2], [True, True]) is None
    assert metric.auroc([], []) is None
    with pytest.raises(ValueError):
        metric.auroc([0.1], [True, False])


# --- helpers ------------------------------------------------------------------------------


def test_html_to_text_block_breaks() -> None:
    import lxml.html

    root = lxml.html.fromstring(
        "<div><h1>Title</h1><p>One <b>bold</b> word.</p><!-- c --><p>Two<br>lines</p>"
        "<script>x()</script><ul><li>a</li><li>b</li></ul>tail</div>"
    )
    assert html_to_text(root) == "Title\nOne bold word.\nTwo\nlines\na\nb\ntail"


def test_iter_corpus_reads_gzip_and_skips_synthetic(tmp_path: Path) -> None:
    folder = tmp_path / "mini"
    (folder / "pages").mkdir(parents=True)
    records: list[dict[str, Any]] = [
        {"id": "a", "url": "http://x/a", "lang": "en", "body": "text", "title": "T", "date": None},
        {"id": "b", "url": None, "lang": None, "body": "x", "meta": {"synthetic": True}},
        {"id": "c", "url": None, "lang": "zh", "body": "", "title": "", "date": "2024-01-02"},
    ]
    (folder / "truth.jsonl").write_text("\n".join(json.dumps(r) for r in records) + "\n")
    for rec in records:
        (folder / "pages" / f"{rec['id']}.html.gz").write_bytes(gzip.compress(b"<p>hi</p>"))
    pages = list(iter_corpus("mini", tmp_path))
    assert [p.id for p in pages] == ["a", "c"]
    assert pages[0].html == b"<p>hi</p>"
    assert pages[0].title == "T"
    assert pages[1].body == ""  # an empty truth stays a truth
    assert pages[1].title is None
    assert pages[1].date == "2024-01-02"
    assert [p.id for p in iter_corpus("mini", tmp_path, limit=1)] == ["a"]


# --- running and scoring an extractor -----------------------------------------------------


def test_evaluate_counts_exceptions_as_empty_output() -> None:
    from bench.accuracy.peers import Peer, PeerOutput
    from bench.accuracy.report import corpus_section
    from bench.accuracy.run import CorpusRun, evaluate, run_timed
    from bench.corpus import Page

    pages = [
        Page("c", "good", None, "en", b"<p>x</p>", "a b c d e", "A title", "2024-01-02"),
        Page("c", "boom", None, "zh", b"<p>y</p>", "f g h i", None, None),
    ]

    def fake(html: bytes, url: str | None) -> PeerOutput:
        if b"y" in html:
            raise RuntimeError("broken page")
        return PeerOutput("a b c d e", "a title!", "2024-01-02T10:00:00Z", 0.9)

    peer = Peer("fake", "fake 1.0", fake, frozenset({"body", "title", "date", "confidence"}))
    outputs, errors, seconds = run_timed(peer.fn, pages, repeat=2)
    assert errors[0] is None
    assert errors[1] == "RuntimeError: broken page"
    result = evaluate(peer, pages, outputs, errors, seconds)
    assert result.errors == 1
    assert result.body is not None
    assert result.body.precision == 1.0  # the failed page is not in the precision average
    assert result.body.recall == 0.5
    assert result.title_acc == 1.0
    assert result.date_acc == 1.0
    assert result.auroc == 1.0  # 0.9 on the good page, 0.0 on the failed one
    assert result.pages[1].confidence == 0.0

    run = CorpusRun("c", 2, 2, 1, 1, 0.01, 0, [result], [], {})
    assert run.subset_scores("zh")["fake"].recall == 0.0
    text = corpus_section(run, ("zh",), by_lang=True, min_lang=1)
    assert "| fake 1.0 | 0.667 | 1.000 | 0.500 | 1.000 | 1.000 | 0 | 1.000 | 1.000 |" in text
    assert "title miss: site-name in truth" in text
    assert "lang = zh (1 pages)" in text


def test_report_counts_title_misses_whose_truth_adds_a_site_name() -> None:
    from bench.accuracy.peers import Peer, PeerOutput
    from bench.accuracy.report import corpus_section
    from bench.accuracy.run import CorpusRun, evaluate, run_timed
    from bench.corpus import Page

    pages = [
        Page("c", "a", None, "en", b"<p>a</p>", None, "Bridge opens | Gazette", None),
        Page("c", "b", None, "en", b"<p>b</p>", None, "Rates rise again", None),
        Page("c", "c", None, "en", b"<p>c</p>", None, "Mayor resigns", None),
    ]
    titles = {b"a": "Bridge opens", b"b": "Rates rise", b"c": "Mayor resigns"}

    def fake(html: bytes, url: str | None) -> PeerOutput:
        return PeerOutput("", titles[html[3:4]], None, None)

    peer = Peer("fake", "fake 1.0", fake, frozenset({"title"}))
    outputs, errors, seconds = run_timed(peer.fn, pages, repeat=1)
    result = evaluate(peer, pages, outputs, errors, seconds)
    assert result.title_acc == approx(1 / 3)
    run = CorpusRun("c", 3, 0, 3, 0, 0.01, 0, [result], [], {})
    # Two misses; only the first is the truth carrying a site name.
    assert "| fake 1.0 | – | – | – | 0.333 | 0.333 | 1 | – | – |" in corpus_section(run)


# --- snippets (wceb2026_llm_dev) -----------------------------------------------------------


def test_snippets_match_whole_words_blind_to_case_and_punctuation() -> None:
    hits = metric.snippet_hits(
        "Protein continues to dominate -- the wellness conversation! Homes for sale.",
        ["protein continues to dominate the wellness conversation", "missing sentence"],
        ["Home", "Homes for sale"],
    )
    assert (hits.with_found, hits.with_total) == (1, 2)
    # "Home" is not a word of the text ("Homes" is), the second must-not snippet is present.
    assert (hits.without_absent, hits.without_total) == (1, 2)


def test_snippet_score_averages_pages_and_skips_pages_without_snippets() -> None:
    score = metric.snippet_score(
        [
            metric.SnippetHits(with_found=1, with_total=2, without_absent=2, without_total=2),
            metric.SnippetHits(with_found=2, with_total=2, without_absent=0, without_total=0),
        ]
    )
    assert score.recall == 0.75
    assert score.precision == 1.0
    assert abs(score.f1 - 2 * 0.75 / 1.75) < 1e-12
