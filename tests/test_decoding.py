"""`decode_html`: BOM, valid UTF-8, the caller's label, ``<meta charset>``, then detection."""

from __future__ import annotations

import codecs

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from newsspider.extraction.parse.decoding import DecodedPage, decode_html

# Varied prose of 300+ characters per language, so detection has something to go on.
ZH_HANS = (
    "清晨的菜市场总是最热闹的地方。卖豆腐的大姐一边招呼客人，一边熟练地切下一块块嫩豆腐；"
    "隔壁的鱼摊前围满了人，老板把刚从河里捞上来的鲫鱼放进水盆，鱼尾拍打着水花。"
    "一位退休的老教师每天都来这里买菜，他说自己最喜欢和摊主们聊天，听他们讲今年的收成和天气。"
    "去年市场经过改造，地面铺上了防滑砖，屋顶装了通风窗，夏天不再闷热。"
    "管理处还在入口设置了公平秤，顾客买完东西可以自己复核重量。"
    "到了傍晚，摊位陆续收起，清洁工人开始冲洗地面，为第二天的早市做好准备。"
    "附近的居民都说，这个市场虽然不大，却承载着整条街的烟火气。"
    "周末的时候，不少年轻人也会带着孩子来逛一逛，让他们认识各种蔬菜和水果。"
    "有的摊主还开通了手机下单，老人腿脚不便，打个电话就能把菜送到家门口。"
)
ZH_HANT = (
    "颱風過後的第二天，港口的漁船陸續出海。船長們一早就在碼頭檢查纜繩和引擎，"
    "確認沒有受損才敢啟航。漁會的工作人員也忙著統計損失，登記需要補助的船隻。"
    "一位在這裡捕魚三十多年的老漁民說，這次風浪雖然很大，但因為提前收到警報，"
    "大家都把船拖上岸或加固在避風港內，所以損失比往年輕得多。"
    "市場裡的魚價在颱風期間上漲了不少，現在漁獲恢復供應，價格應該很快就會回落。"
    "地方政府表示，將繼續改善港區的排水系統，並在防波堤加裝監測設備，"
    "希望未來面對強烈颱風時，能更早掌握海況，保障漁民的生命與財產安全。"
    "傍晚時分，第一批漁船滿載而歸，碼頭上又響起了熟悉的叫賣聲，"
    "孩子們在堤岸邊奔跑，看著大人們把一籃籃新鮮的魚貨搬上岸。"
    "對這個小鎮來說，大海既是生計，也是說不完的故事。"
)
RU = (
    "Осенью в старом парке на окраине города снова заработал лодочный причал. "
    "Его закрыли несколько лет назад, когда деревянный настил совсем прогнил, "
    "а лодки растащили по дворам местные рыбаки. Теперь причал отстроили заново: "
    "поставили металлические сваи, покрасили перила и привезли двенадцать новых лодок. "
    "Смотритель парка говорит, что в первые же выходные желающих покататься было так много, "
    "что пришлось ввести запись. Особенно радуются пенсионеры, которые помнят, "
    "как в молодости назначали здесь свидания. Следующей весной обещают расчистить пруд "
    "и запустить небольшой прогулочный катер для экскурсий по реке."
)
LATIN = (
    "Le café du coin a rouvert ses portes après des mois de travaux. "
    "La façade a été rénovée, la crème brûlée est toujours à la carte, "
    "et le patron, un homme âgé et très réservé, accueille ses habitués avec un sourire."
)


def page(text: str, head: str = "") -> str:
    return (
        f"<!DOCTYPE html><html><head>{head}<title>News</title></head>"
        f'<body><div class="article"><p>{text}</p></div></body></html>'
    )


def same_codec(a: str, b: str) -> bool:
    return codecs.lookup(a).name == codecs.lookup(b).name


def test_prose_is_long_enough() -> None:
    for text in (ZH_HANS, ZH_HANT, RU):
        assert len(text) >= 300


# --- BOM -------------------------------------------------------------------------------------


def test_utf8_bom_wins_over_everything() -> None:
    data = codecs.BOM_UTF8 + page(RU, '<meta charset="windows-1251">').encode("utf-8")
    decoded = decode_html(data, "koi8-r")
    assert decoded.source == "bom"
    assert decoded.encoding == "utf-8"
    assert RU in decoded.text
    assert not decoded.text.startswith("\ufeff")


@pytest.mark.parametrize(
    ("bom", "codec"), [(codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be")]
)
def test_utf16_bom(bom: bytes, codec: str) -> None:
    data = bom + page(ZH_HANS).encode(codec)
    decoded = decode_html(data, "utf-8")
    assert decoded.source == "bom"
    assert same_codec(decoded.encoding, codec)
    assert ZH_HANS in decoded.text


# --- Valid UTF-8 -----------------------------------------------------------------------------


def test_valid_utf8_wins_over_a_wrong_http_label() -> None:
    decoded = decode_html(page(RU).encode("utf-8"), "windows-1251")
    assert decoded.source == "utf-8"
    assert decoded.encoding == "utf-8"
    assert RU in decoded.text
    assert decoded.utf8 is not None


def test_valid_utf8_wins_over_a_wrong_meta_label() -> None:
    decoded = decode_html(page(ZH_HANS, '<meta charset="gbk">').encode("utf-8"))
    assert decoded.encoding == "utf-8"
    assert ZH_HANS in decoded.text


def test_ascii_page() -> None:
    data = page("Plain ASCII text, nothing else.").encode("ascii")
    decoded = decode_html(data)
    assert decoded.text == data.decode("ascii")
    assert decoded.encoding == "utf-8"


def test_empty_input() -> None:
    decoded = decode_html(b"")
    assert isinstance(decoded, DecodedPage)
    assert decoded.text == ""


# --- Declared encodings ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("label", "codec", "text"),
    [
        ("windows-1251", "cp1251", RU),
        ("koi8-r", "koi8_r", RU),
        ("gbk", "gb18030", ZH_HANS),
        ("big5", "big5", ZH_HANT),
        ("windows-1252", "cp1252", LATIN),
    ],
)
def test_http_label_used_when_bytes_agree(label: str, codec: str, text: str) -> None:
    decoded = decode_html(page(text).encode(codec), label)
    assert decoded.source == "declared"
    assert text in decoded.text


@pytest.mark.parametrize(
    "head",
    [
        '<meta charset="windows-1251">',
        "<meta charset=windows-1251>",
        '<meta http-equiv="Content-Type" content="text/html; charset=windows-1251">',
    ],
)
def test_meta_charset(head: str) -> None:
    decoded = decode_html(page(RU, head).encode("cp1251"))
    assert decoded.source == "meta"
    assert decoded.encoding == "cp1251"
    assert RU in decoded.text


def test_meta_charset_when_http_label_is_wrong() -> None:
    data = page(RU, '<meta charset="windows-1251">').encode("cp1251")
    decoded = decode_html(data, "utf-8")
    assert decoded.encoding == "cp1251"
    assert RU in decoded.text


def test_unknown_labels_fall_through() -> None:
    data = page(RU, '<meta charset="x-no-such-charset">').encode("cp1251")
    decoded = decode_html(data, "also-not-a-charset")
    assert RU in decoded.text


@pytest.mark.parametrize("label", ["iso-8859-1", "windows-1252", "shift_jis", "euc-kr"])
def test_wrong_label_on_cyrillic_is_not_believed(label: str) -> None:
    decoded = decode_html(page(RU).encode("cp1251"), label)
    assert decoded.encoding == "cp1251"
    assert RU in decoded.text


def test_gb2312_label_decodes_gbk_only_characters() -> None:
    # 镕 and 喆 are outside GB2312; pages labelled gb2312 use them all the time (GBK superset).
    text = "朱镕基和陶喆都出现在这篇文章里。" + ZH_HANS
    with pytest.raises(UnicodeEncodeError):
        "镕".encode("gb2312")
    data = page(text, '<meta charset="gb2312">').encode("gbk")
    decoded = decode_html(data)
    assert "朱镕基" in decoded.text
    assert "陶喆" in decoded.text
    assert "\ufffd" not in decoded.text
    assert decode_html(page(text).encode("gbk"), "gb2312").text.count("镕") == 1


# --- Detection without any declaration -------------------------------------------------------


@pytest.mark.parametrize(
    ("codec", "text", "accepted"),
    [
        ("gbk", ZH_HANS, {"gbk", "gb18030", "gb2312"}),
        ("big5", ZH_HANT, {"big5", "big5hkscs", "cp950"}),
        ("cp1251", RU, {"cp1251"}),
        ("koi8-r", RU, {"koi8_r"}),
    ],
)
def test_detection_without_declaration(codec: str, text: str, accepted: set[str]) -> None:
    data = page(text).encode(codec)
    assert b"charset" not in data
    decoded = decode_html(data)
    assert decoded.source == "detected"
    assert codecs.lookup(decoded.encoding).name in {codecs.lookup(c).name for c in accepted}
    assert text in decoded.text


def test_utf8_with_a_stray_byte_stays_utf8() -> None:
    data = page(ZH_HANS).encode("utf-8").replace("菜市场".encode(), b"\xff", 1)
    decoded = decode_html(data)
    assert decoded.encoding == "utf-8"
    assert "清晨的" in decoded.text
    assert decoded.text.count("\ufffd") == 1


def test_utf8_cut_mid_character_is_still_utf8_despite_a_wrong_label() -> None:
    data = page(RU, '<meta charset="windows-1251">').encode("utf-8")
    cut = data.index("пруд".encode()) + 1  # inside the two-byte "п"
    decoded = decode_html(data[:cut])
    assert decoded.encoding == "utf-8"
    assert "Осенью в старом парке" in decoded.text


# --- Never raises ----------------------------------------------------------------------------

LABELS = st.sampled_from(
    [None, "", "utf-8", "gbk", "gb2312", "big5", "windows-1251", "koi8-r", "latin-1", "utf-16",
     "shift_jis", "x-unknown", "\x00", "utf-7"]
)  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(data=st.binary(max_size=2000), label=LABELS)
def test_never_raises(data: bytes, label: str | None) -> None:
    decoded = decode_html(data, label)
    assert isinstance(decoded.text, str)
    assert isinstance(decoded.encoding, str)
    codecs.lookup(decoded.encoding)


# --- UTF-16/32 labels: believed only when the bytes carry their NULs -------------------------

JA = "東京の天気は晴れ、最高気温は二十度の予報です。週末は雨が降るでしょう。" * 6
WIDE_LABELS = ["utf-16", "utf-16le", "UTF-16BE", "utf-32", "utf-32le"]


@pytest.mark.parametrize(
    ("codec", "text"), [("shift_jis", JA), ("cp1251", RU), ("latin-1", LATIN), ("gbk", ZH_HANS)]
)
@pytest.mark.parametrize("label", WIDE_LABELS)
@pytest.mark.parametrize("where", ["http", "meta"])
def test_a_wide_label_on_narrow_bytes_is_not_believed(
    codec: str, text: str, label: str, where: str
) -> None:
    head = f'<meta charset="{label}">' if where == "meta" else ""
    data = page(text, head).encode(codec)
    decoded = decode_html(data, label if where == "http" else None)
    assert not decoded.encoding.startswith("utf-16") and not decoded.encoding.startswith("utf-32")
    assert text in decoded.text


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"])
@pytest.mark.parametrize("text", [RU, JA, LATIN, ZH_HANS])
def test_a_wide_label_on_wide_bytes_without_a_bom_is_believed(codec: str, text: str) -> None:
    # The generic label ("utf-16") too: the byte order comes from where the NULs are.
    for label in (codec, codec[:6]):
        decoded = decode_html(page(text).encode(codec), label)
        assert decoded.encoding == codec
        assert text in decoded.text


def test_a_wide_label_with_the_wrong_byte_order_is_not_believed() -> None:
    decoded = decode_html(page(LATIN).encode("utf-16-be"), "utf-16le")
    assert decoded.encoding != "utf-16-le"


def test_nuls_everywhere_are_no_evidence_of_utf16() -> None:
    data = page(RU).encode("cp1251").replace(b" ", b" \x00\x00")
    assert not decode_html(data, "utf-16").encoding.startswith("utf-16")
