"""Pages in legacy code pages without a declaration (issue 33): each decoded as written, the
declarations still first, and the detection bounded on hostile input."""

from __future__ import annotations

import time

import pytest
from test_decoding import LATIN, RU, ZH_HANS, ZH_HANT, page

from newsspider import extract
from newsspider.extraction.parse.charset_detect import detect_legacy
from newsspider.extraction.parse.decoding import decode_html

# Short prose in each language, written for these tests.
TEXTS = {
    "fr": LATIN + " Le cœur du quartier bat encore, et l'œuvre du peintre coûte 300 €.",
    "es": "El año pasado la pequeña librería del barrio cerró sus puertas, pero este otoño "
    "volvió a abrir gracias a los vecinos, que reunieron el dinero necesario. «Aquí "
    "aprendí a leer», contó una señora mayor mientras buscaba un libro de poesía.",
    "it": "Il piccolo caffè della piazza è tornato aperto dopo l'estate. Più di cento persone "
    "si sono presentate all'inaugurazione, e il proprietario ha offerto a tutti un "
    "bicchiere di vino. «Qui si parla di città, di politica e di calcio», ha detto.",
    "pt": "A associação de moradores organizou uma feira no último sábado, e a população "
    "respondeu com entusiasmo. As crianças pintaram as paredes da escola, e os pais "
    "prepararam pães e doces para vender. A próxima edição será em dezembro.",
    "de": "Die Bürger der kleinen Stadt haben über den Neubau der Brücke abgestimmt. Für die "
    "Älteren ist die alte Brücke ein Stück Heimat, während die Jüngeren sich über "
    "breitere Radwege freuen. Die Bauarbeiten sollen im Frühjahr beginnen.",
    "pl": "W małym miasteczku na południu kraju otwarto nową bibliotekę. Mieszkańcy zebrali "
    "pieniądze na książki, a uczniowie pomogli ustawić półki. Żeby przyciągnąć "
    "czytelników, biblioteka będzie czynna także w niedzielę i święta.",
    "cs": "Obyvatelé malé vesnice se rozhodli opravit starý kostel. Peníze vybírali tři roky "
    "a řemeslníci z okolí pracovali o víkendech. Příští měsíc se v kostele znovu "
    "rozezní zvony a vesnice chystá velkou slavnost.",
    "ru": RU,
    "el": "Οι κάτοικοι του μικρού νησιού γιόρτασαν την επαναλειτουργία του λιμανιού. Τα "
    "πλοία θα φτάνουν πλέον κάθε μέρα, και οι ψαράδες ελπίζουν ότι η αγορά θα "
    "ζωντανέψει ξανά. Το καλοκαίρι αναμένονται περισσότεροι επισκέπτες από ποτέ.",
    "tr": "Küçük kasabanın pazar yeri yeniden açıldı. Esnaf, yağmurdan korunmak için yeni "
    "çatının altında tezgâhlarını kurdu ve sabahın erken saatlerinden itibaren "
    "müşteriler gelmeye başladı. Belediye başkanı, pazarın her çarşamba kurulacağını söyledi.",
    "lt": "Mažo miestelio gyventojai susirinko aikštėje švęsti naujos mokyklos atidarymo. "
    "Vaikai dainavo dainas, o mokytojai parodė šviesias klases. Žmonės sakė, kad tokios "
    "šventės miestelyje nebuvo jau daugelį metų.",
    "zh-hans": ZH_HANS,
    "zh-hant": ZH_HANT,
    "ja": "小さな町の図書館が新しくなりました。子どもたちは明るい読書室で本を読み、"
    "お年寄りは窓際の席で新聞を広げています。館長によると、来月からは夜八時まで"
    "開館し、週末には読み聞かせの会も開くということです。町の人たちはとても喜んでいます。",
    "ko": "작은 마을의 도서관이 새 단장을 마치고 다시 문을 열었습니다. 아이들은 밝은 "
    "열람실에서 책을 읽고, 어르신들은 창가 자리에서 신문을 봅니다. 관장은 다음 "
    "달부터 저녁 여덟 시까지 문을 열고 주말에는 책 읽어 주는 모임도 연다고 말했습니다.",
    "th": "ห้องสมุดของหมู่บ้านเล็ก ๆ แห่งนี้เปิดให้บริการอีกครั้งหลังจากปรับปรุงเสร็จ "
    "เด็ก ๆ นั่งอ่านหนังสือในห้องที่สว่างขึ้น ส่วนผู้สูงอายุอ่านหนังสือพิมพ์ริมหน้าต่าง "
    "บรรณารักษ์บอกว่าเดือนหน้าจะเปิดถึงสองทุ่มทุกวัน",
}
CASES = [
    ("fr", "cp1252"), ("fr", "iso8859_15"), ("es", "cp1252"), ("es", "latin_1"),
    ("it", "cp1252"), ("pt", "cp1252"), ("de", "cp1252"), ("pl", "cp1250"),
    ("pl", "iso8859_2"), ("cs", "cp1250"), ("ru", "cp1251"), ("ru", "koi8_r"),
    ("ru", "iso8859_5"), ("el", "cp1253"), ("tr", "cp1254"), ("tr", "iso8859_9"),
    ("lt", "cp1257"), ("zh-hans", "gb18030"), ("zh-hant", "big5"), ("ja", "shift_jis"),
    ("ja", "euc_jp"), ("ko", "euc_kr"), ("th", "tis_620"),
]  # fmt: skip


@pytest.mark.parametrize(("lang", "codec"), CASES)
def test_undeclared_legacy_page_decodes_as_written(lang: str, codec: str) -> None:
    text = TEXTS[lang]
    data = page(text).encode(codec)
    decoded = decode_html(data)
    assert decoded.source == "detected"
    assert text in decoded.text, (lang, codec, decoded.encoding)


def test_french_latin1_cafe_creme() -> None:
    """The issue's page: a short French page in Latin-1 came out as cp1250 ("crčme")."""
    data = page("<h1>Café crème</h1><p>Un café crème et un croissant, s'il vous plaît.</p>")
    article = extract(data.encode("latin-1"))
    assert "café crème" in article.body
    assert "crčme" not in decode_html(data.encode("latin-1")).text
    assert "Café crème" in decode_html(data.encode("latin-1")).text


def test_declarations_come_first() -> None:
    """The HTTP header and <meta charset> are believed before the evidence of the bytes."""
    text = TEXTS["pl"]
    data = page(text, '<meta charset="windows-1250">').encode("cp1250")
    assert decode_html(data).source == "meta"
    # A header naming the code page the bytes are in wins, even one detection would not pick.
    latin = page(TEXTS["fr"]).encode("cp1252")
    assert decode_html(latin, "iso-8859-15").encoding == "iso8859-15"


def test_text_first_then_attributes() -> None:
    assert detect_legacy(b"<p>plain text</p>") is None
    # No non-ASCII text: the attribute values (alt, title) are the page's language too.
    assert detect_legacy(b'<p>plain</p><img alt="Caf\xe9 cr\xe8me \xe0 la carte">') == "cp1252"


def test_detection_is_linear_on_hostile_input() -> None:
    """No quadratic rescans: a long word without spaces, unclosed scripts, many tags."""
    hostile = [
        b"a" * 2_000_000 + b"\xe9",
        b"<script>" * 200_000 + b"\xe9 text",
        b"<p>\xe9" * 200_000,
        bytes(range(128, 256)) * 8000,
    ]
    for data in hostile:
        started = time.perf_counter()
        detect_legacy(data)
        assert time.perf_counter() - started < 5.0
