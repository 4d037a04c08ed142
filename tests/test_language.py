"""`Article.language`: markup checked against the text, the script shortcut, the identifier."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from newsspider import extract
from newsspider.extraction.metadata import language
from newsspider.extraction.metadata.language import (
    identify_language,
    normalise_code,
    page_language,
    script_language,
)
from newsspider.extraction.metadata.language_id import Identifier

# Texts written for these tests (a few sentences each, about one made-up town).
FRENCH = (
    "Le conseil municipal a voté mardi soir la rénovation de la vieille halle du marché. "
    "Les travaux commenceront au printemps et dureront près de deux ans, selon le maire. "
    "Les commerçants seront installés provisoirement sur la place de l'église pendant le chantier."
)
RUSSIAN = (
    "Городской совет во вторник проголосовал за реконструкцию старого крытого рынка. "
    "Работы начнутся весной и продлятся почти два года, сообщил мэр города. "
    "На время стройки торговцы переедут на площадь у церкви."
)
CHINESE = (
    "市议会周二晚间投票通过了旧市场大厅的翻修计划。市长表示，工程将于春季开工，"
    "预计持续将近两年。施工期间，商贩们将临时搬到教堂前的广场上继续营业。"
)
JAPANESE = (
    "市議会は火曜日の夜、古い市場ホールの改修計画を可決した。市長によると、工事は春に始まり、"
    "およそ二年間続く見込みだという。工事の間、商店は教会前の広場に一時的に移転する。"
)
KOREAN = (
    "시의회는 화요일 저녁 오래된 시장 건물의 보수 계획을 통과시켰다. 시장에 따르면 공사는 "
    "봄에 시작해 약 2년 동안 계속될 예정이다. 공사 기간 동안 상인들은 교회 앞 광장으로 옮긴다."
)
GERMAN = (
    "Der Stadtrat hat am Dienstagabend die Sanierung der alten Markthalle beschlossen. "
    "Die Arbeiten beginnen im Frühjahr und dauern nach Angaben des Bürgermeisters fast zwei "
    "Jahre. Während der Bauzeit ziehen die Händler vorübergehend auf den Kirchplatz um."
)
ENGLISH = (
    "The town council voted on Tuesday evening to renovate the old covered market hall. "
    "Work will begin in the spring and last almost two years, according to the mayor. "
    "During the works the traders will move to the square in front of the church."
)
SPANISH = (
    "El ayuntamiento aprobó el martes por la noche la reforma del antiguo mercado cubierto. "
    "Las obras comenzarán en primavera y durarán casi dos años, según el alcalde. "
    "Durante las obras, los comerciantes se trasladarán a la plaza de la iglesia."
)
#: Placeholder text as templates carry it (the identifier reads it as Latin).
LOREM = (
    "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt "
    "ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation "
    "ullamco laboris nisi ut aliquip ex ea commodo consequat. "
)
PORTUGUESE = (
    "A câmara municipal aprovou na terça-feira a reforma do antigo mercado coberto. "
    "As obras começam na primavera e devem durar quase dois anos, segundo o prefeito. "
    "Durante as obras, os comerciantes vão ocupar provisoriamente a praça da igreja."
)


def page(text: str, *, lang: str | None = None, title: str = "Market hall") -> bytes:
    attr = f' lang="{lang}"' if lang else ""
    paragraphs = "".join(f"<p>{text}</p>" for _ in range(3))
    return (
        f"<html{attr}><head><meta charset='utf-8'><title>{title}</title></head><body>"
        f"<article><h1>{title}</h1>{paragraphs}</article></body></html>"
    ).encode()


@pytest.fixture
def no_identifier() -> Iterator[None]:
    """The extraction as it runs without py3langid installed."""
    saved = language._identifier[:]
    language._identifier[:] = [None]
    try:
        yield
    finally:
        language._identifier[:] = saved


needs_identifier = pytest.mark.skipif(
    not language.identifier_available(), reason="py3langid is not installed"
)


@needs_identifier
@pytest.mark.parametrize(
    ("text", "expected"),
    [(FRENCH, "fr"), (RUSSIAN, "ru"), (CHINESE, "zh"), (JAPANESE, "ja"), (KOREAN, "ko")],
)
def test_a_page_without_lang_gets_its_texts_language(text: str, expected: str) -> None:
    assert extract(page(text), url="https://town.example/a").language == expected


@pytest.mark.parametrize(("text", "expected"), [(CHINESE, "zh"), (JAPANESE, "ja"), (KOREAN, "ko")])
def test_the_script_decides_without_the_identifier(
    no_identifier: None, text: str, expected: str
) -> None:
    assert extract(page(text), url="https://town.example/a").language == expected


def test_without_the_identifier_a_latin_text_has_only_its_markup(no_identifier: None) -> None:
    assert extract(page(FRENCH), url="https://town.example/a").language is None
    assert extract(page(FRENCH, lang="fr-CA"), url="https://town.example/a").language == "fr"


def test_a_declaration_the_script_contradicts_is_overruled() -> None:
    # A template's lang="en" on a Chinese article: the Han script decides.
    assert extract(page(CHINESE, lang="en"), url="https://town.example/a").language == "zh"
    assert extract(page(JAPANESE, lang="zh-CN"), url="https://town.example/a").language == "ja"


@needs_identifier
def test_a_declaration_in_another_script_than_the_texts_is_overruled() -> None:
    assert extract(page(FRENCH, lang="ru"), url="https://town.example/a").language == "fr"
    assert extract(page(RUSSIAN, lang="en-US"), url="https://town.example/a").language == "ru"
    # A declaration in the text's script stands (the identifier is not run on it).
    assert extract(page(GERMAN, lang="de-AT"), url="https://town.example/a").language == "de"


@needs_identifier
def test_a_declaration_the_text_agrees_with_is_kept() -> None:
    assert extract(page(PORTUGUESE, lang="pt-BR"), url="https://town.example/a").language == "pt"
    # Too little text to judge: the declaration stands.
    assert page_language("de", ["Impressum"]) == "de"


def test_declared_codes_are_normalised() -> None:
    assert normalise_code("in") == "id"  # deprecated code for Indonesian
    assert normalise_code("IW") == "he"
    assert normalise_code("nb") == "no"
    assert normalise_code("utf") is None  # content-language="utf-8" and the like
    assert normalise_code("xx") is None
    assert normalise_code(None) is None


def test_script_language_needs_a_dominant_script() -> None:
    assert script_language("An English sentence that mentions 北京 once.") is None
    assert script_language(CHINESE) == "zh"
    assert script_language("Σήμερα το δημοτικό συμβούλιο ψήφισε την ανακαίνιση της αγοράς.") == "el"
    assert script_language("") is None


@needs_identifier
def test_a_declaration_in_the_texts_script_that_the_text_contradicts_is_overruled() -> None:
    # A template's lang="en" on a Spanish article, a German site's lang="de" on an English one.
    assert extract(page(SPANISH, lang="en"), url="https://town.example/a").language == "es"
    assert extract(page(ENGLISH, lang="de-DE"), url="https://town.example/a").language == "en"
    # Too little text to contradict anything: the declaration stands.
    assert page_language("de", ["The market hall"]) == "de"


@needs_identifier
def test_a_declared_article_quoting_another_language_keeps_its_declaration() -> None:
    quote = "Breaking: the market hall will close for two years, the mayor said on Tuesday. "
    body = quote + " ".join([GERMAN] * 3)
    assert page_language("de", [body]) == "de"


@needs_identifier
def test_a_long_body_is_sampled_beyond_its_opening() -> None:
    warning = (
        "Warning: Use of undefined constant REQUEST - assumed 'REQUEST' (this will throw an "
        "Error in a future version of PHP) in /srv/www/wp-content/languages/de_DE.php on line 9 "
    )
    body = warning * 3 + " ".join([GERMAN] * 6)
    assert page_language(None, [body, "Markthalle"]) == "de"
    assert page_language("de", [body, "Markthalle"]) == "de"


@needs_identifier
def test_placeholder_latin_never_decides() -> None:
    body = "Foto: Stadtarchiv. " + LOREM * 2
    title = "Der Stadtrat beschließt die Sanierung der alten Markthalle am Kirchplatz"
    # Declared: lorem ipsum does not overrule it. Undeclared: the title decides.
    assert page_language("de", [body, title]) == "de"
    assert page_language(None, [body, title]) == "de"
    assert page_language(None, [body, "Home"]) is None


@needs_identifier
def test_an_undeclared_page_with_enough_text_always_gets_a_language() -> None:
    # Place names: no language stands out, but there is text enough for the best guess.
    names = (
        "Springfield Riverside Franklin Greenville Bristol Clinton Fairview Salem Madison "
        "Georgetown Arlington Ashland Dover Oxford Jackson Burlington Manchester Milton Newport "
    )
    assert identify_language(names)[0][1] < 0.5
    assert page_language(None, [names]) is not None
    # So does one declaring a language of another script (Russian on Latin text).
    assert page_language("ru", [names]) not in (None, "ru")
    assert extract(page(names), url="https://town.example/a").language is not None
    # Too few letters: nothing is said.
    assert page_language(None, ["Impressum"]) is None


@needs_identifier
@pytest.mark.parametrize("text", [ENGLISH, GERMAN, FRENCH, RUSSIAN, CHINESE, SPANISH, LOREM])
def test_the_numpy_scoring_ranks_as_py3langid_does(text: str) -> None:
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    model = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    ours, theirs = Identifier(model).rank(text), model.rank(text)
    assert [label for label, _ in ours[:3]] == [label for label, _ in theirs[:3]]
    for (_, p), (_, q) in zip(ours[:3], theirs[:3], strict=True):
        assert p == pytest.approx(q, abs=1e-4)
    assert Identifier(model).rank("") == []


@needs_identifier
@pytest.mark.parametrize("text", [ENGLISH, GERMAN, RUSSIAN, CHINESE, JAPANESE, KOREAN, ""])
def test_the_walk_visits_the_features_py3langid_visits(text: str) -> None:
    from py3langid.langid import MODEL_FILE, LanguageIdentifier, visit_counts

    model = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    data = text.encode("utf-8")
    rows = [row << 8 for row in model.tk_row]
    theirs = visit_counts(model.tk_nextmove, rows, model.tk_output, data) or {}
    assert Counter(Identifier(model)._features(data)) == theirs


@needs_identifier
def test_the_table_is_widened_as_float16_values_are() -> None:
    import numpy as np
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    identifier = Identifier(LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True))
    assert identifier.all_negative
    # Every negative normal float16: the two-pass widening gives numpy's own conversion.
    bits = np.arange(0x8400, 0xFC00, dtype=np.uint16)
    widened = identifier._widen(bits.reshape(-1, 8))
    assert np.array_equal(widened.ravel(), bits.view(np.float16).astype(np.float32))


def _script_by_character(sample: str) -> str | None:
    """`script_language` as it was written first: a list of letters, a lookup per character."""
    import bisect
    import re

    if sample.isascii():
        return None
    decisive = language._DECISIVE_RE.findall(sample)
    if len(decisive) < language.MIN_LETTERS // 2:
        return None
    if 2 * len(decisive) < len(re.findall(r"[^\W\d_]", sample)):
        return None
    counts: dict[str, int] = {}
    for ch in decisive:
        lang = language._DECISIVE_SCRIPTS[bisect.bisect_right(language._STARTS, ord(ch)) - 1][2]
        counts[lang] = counts.get(lang, 0) + 1
    han, kana, hangul = counts.get("zh", 0), counts.get("ja", 0), counts.get("ko", 0)
    if hangul and hangul * 3 >= han + kana + hangul:
        return "ko"
    if kana and kana * 10 >= han + kana:
        return "ja"
    if han and han * 2 >= len(decisive):
        return "zh"
    return max(counts, key=counts.__getitem__)


@given(
    st.lists(
        st.sampled_from(
            [
                "北京",
                "ひらがな",
                "カタカナ",
                "한국어",
                "Ελλάδα",
                "ქართული",
                "עברית",
                "ไทย",
                "Հայ",
                "Москва",
                "café",
                "2026",
                "_",
                "½",
                "²",
                " ",
                ", ",
                "\n",
            ]
        ),
        max_size=60,
    )
)
def test_script_language_counts_as_a_lookup_per_character_does(pieces: list[str]) -> None:
    # Mixed scripts, ties between them, digits and number signs that are no letters.
    sample = "".join(pieces)
    assert script_language(sample) == _script_by_character(sample)


@needs_identifier
@pytest.mark.spies_on_core
def test_without_the_numpy_scoring_the_librarys_ranking_is_used(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(Identifier, "verified", lambda self: False)
    rank = language._load()
    assert rank is not None and not isinstance(getattr(rank, "__self__", None), Identifier)
    monkeypatch.setattr(language, "_identifier", [rank])
    assert page_language("en", [SPANISH]) == "es"
    assert page_language(None, [GERMAN]) == "de"
