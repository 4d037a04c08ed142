"""`Article.language`: markup checked against the text, the script shortcut, the identifier."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from newsspider import extract
from newsspider.extraction.metadata import language
from newsspider.extraction.metadata.language import normalise_code, page_language, script_language

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
