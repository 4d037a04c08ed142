"""Legacy charsets without a declaration: development pages re-encoded in their languages' code
pages, every declaration removed, judged against the UTF-8 originals.

For each development page whose bytes are UTF-8 and whose language has legacy code pages
(`CODE_PAGES`), the page is stripped of every charset declaration (``<meta charset>``,
``<meta http-equiv=content-type>``, the XML declaration), then encoded in each of its language's
code pages (characters the code page lacks become numeric character references, as authoring
tools wrote them). ``newsspider.extract`` of the re-encoded bytes (no encoding given) must give
the same body as ``extract`` of the stripped UTF-8 page. A page whose body text cannot be encoded
in a code page is skipped for that code page and counted; a page that is all ASCII is skipped too
(any decoding is right).

    .venv/bin/python -m bench.accuracy.charsets            # the table, per code page
    .venv/bin/python -m bench.accuracy.charsets --misses   # and every miss: chosen vs right
    .venv/bin/python -m bench.accuracy.charsets --timing   # decode time on declared pages

``--timing`` times `decode_html` on pages that declare their charset (the same re-encoded pages
with ``<meta charset>`` put back, and the corpus pages as they are, which mostly are UTF-8), the
best of ``--repeat`` runs, to compare a change before and after.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

from bench.corpus import available_corpora, corpora_root, iter_corpus

#: Each language's legacy code pages (Python codec names). Languages with none are left out.
CODE_PAGES: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(
        ("fr", "it", "pt", "es", "de", "id", "nl", "sv", "da", "fi", "ca", "sq"),
        ("cp1252", "iso8859_1", "iso8859_15"),
    ),
    **dict.fromkeys(("pl", "cs", "hu", "sk", "sl", "hr", "bs", "sh"), ("cp1250", "iso8859_2")),
    "ru": ("cp1251", "koi8_r", "iso8859_5"),
    "uk": ("cp1251", "koi8_u"),
    "bg": ("cp1251", "iso8859_5"),
    "el": ("cp1253", "iso8859_7"),
    "tr": ("cp1254", "iso8859_9"),
    **dict.fromkeys(("lt", "lv", "et"), ("cp1257", "iso8859_13")),
    "zh": ("gb18030", "big5"),
    "ja": ("shift_jis", "euc_jp"),
    "ko": ("euc_kr",),
    "th": ("tis_620",),
    "vi": ("cp1258",),
}
#: English pages (curly quotes, dashes) in cp1252: on with ``--english``.
ENGLISH = ("cp1252",)

_DECLARATIONS = re.compile(rb"<meta\b[^<>]*\bcharset\b[^<>]*>|<\?xml\b[^<>]*\?>", re.IGNORECASE)


def strip_declarations(page: bytes) -> bytes:
    """The page without ``<meta charset>``, ``<meta http-equiv=content-type>`` or ``<?xml?>``."""
    return _DECLARATIONS.sub(b"", page)


def is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


@dataclass(slots=True)
class Case:
    corpus: str
    page_id: str
    lang: str
    codec: str
    utf8: bytes  # the stripped UTF-8 page
    encoded: bytes  # the same page in ``codec``
    url: str | None


@dataclass(slots=True)
class Skips:
    not_utf8: int = 0
    unencodable: Counter[str] = field(default_factory=Counter)
    ascii: Counter[str] = field(default_factory=Counter)
    utf8_again: Counter[str] = field(default_factory=Counter)


def cases(
    root_arg: str | None, english: bool, skips: Skips, *, judged: bool = True
) -> Iterator[tuple[Case, str]]:
    """Every (case, original body) of the benchmark; counts the skipped ones in ``skips``.
    Not ``judged`` (timing): no extraction, the body is "" and every page is kept."""
    import newsspider

    root = corpora_root(root_arg)
    for corpus in available_corpora(root):
        for page in iter_corpus(corpus, root):
            lang = (page.lang or "").split("-")[0].lower()
            codecs = CODE_PAGES.get(lang) or (ENGLISH if english and lang == "en" else ())
            if not codecs:
                continue
            if not is_utf8(page.html):
                skips.not_utf8 += 1
                continue
            stripped = strip_declarations(page.html)
            body = newsspider.extract(stripped, url=page.url).body if judged else ""
            text = stripped.decode("utf-8")
            for codec in codecs:
                try:
                    body.encode(codec)
                except UnicodeEncodeError:
                    skips.unencodable[codec] += 1
                    continue
                encoded = text.encode(codec, errors="xmlcharrefreplace")
                if encoded.isascii():
                    skips.ascii[codec] += 1
                    continue
                if is_utf8(encoded):
                    # The original's text is UTF-8 read as Latin-1 ("Ã©"): re-encoded, it is
                    # UTF-8 again, and decoding takes valid UTF-8 for UTF-8 (by design).
                    skips.utf8_again[codec] += 1
                    continue
                yield Case(corpus, page.id, lang, codec, stripped, encoded, page.url), body


def run(args: argparse.Namespace) -> int:
    import newsspider
    from newsspider.extraction.parse.decoding import decode_html

    skips = Skips()
    right: Counter[str] = Counter()
    total: Counter[str] = Counter()
    corpus_right: Counter[str] = Counter()
    corpus_total: Counter[str] = Counter()
    misses: list[str] = []
    timing: list[tuple[bytes, bytes, bytes]] = []  # (declared legacy, UTF-8, undeclared legacy)
    for case, body in cases(args.corpora, args.english, skips, judged=not args.timing):
        total[case.codec] += 1
        if args.timing:
            label = b'<meta charset="' + case.codec.encode() + b'">'
            timing.append((label + case.encoded, case.utf8, case.encoded))
            continue
        article = newsspider.extract(case.encoded, url=case.url)
        corpus_total[case.corpus] += 1
        if article.body == body:
            right[case.codec] += 1
            corpus_right[case.corpus] += 1
        else:
            chosen = decode_html(case.encoded)
            misses.append(
                f"{case.corpus}/{case.page_id} {case.lang} {case.codec}: decoded as "
                f"{chosen.encoding} ({chosen.source})"
            )
    if args.timing:
        return _timing(timing, args.repeat)
    print("| code page | pages | right | share |")
    print("|---|---|---|---|")
    for codec in sorted(total):
        share = right[codec] / total[codec]
        print(f"| {codec} | {total[codec]} | {right[codec]} | {share:.1%} |")
    all_right, all_total = sum(right.values()), sum(total.values())
    print(f"| **all** | {all_total} | {all_right} | {all_right / max(all_total, 1):.1%} |")
    print("\n| corpus | pages | right | share |\n|---|---|---|---|")
    for corpus in sorted(corpus_total):
        share = corpus_right[corpus] / corpus_total[corpus]
        print(f"| {corpus} | {corpus_total[corpus]} | {corpus_right[corpus]} | {share:.1%} |")
    print(
        f"\nskipped: {skips.not_utf8} pages not UTF-8; body not encodable: "
        + (", ".join(f"{c} {n}" for c, n in sorted(skips.unencodable.items())) or "none")
        + "; all ASCII: "
        + (", ".join(f"{c} {n}" for c, n in sorted(skips.ascii.items())) or "none")
        + "; valid UTF-8 once re-encoded (double-encoded originals): "
        + (", ".join(f"{c} {n}" for c, n in sorted(skips.utf8_again.items())) or "none")
    )
    if args.misses:
        print("\nmisses:")
        for line in misses:
            print("  " + line)
    return 0


def _timing(pages: list[tuple[bytes, bytes, bytes]], repeat: int) -> int:
    from newsspider.extraction.parse.decoding import decode_html

    kinds = (("legacy, <meta charset> kept", 0), ("UTF-8", 1), ("legacy, undeclared", 2))
    for label, index in kinds:
        data = [pair[index] for pair in pages]
        best = float("inf")
        runs = repeat if index < 2 else 1  # detection is slow: once
        for _ in range(runs):
            started = time.perf_counter()
            for page in data:
                decode_html(page)
            best = min(best, time.perf_counter() - started)
        size = sum(map(len, data)) / 1e6
        print(
            f"{label}: {len(data)} pages, {size:.1f} MB, decode {best * 1e3:.1f} ms"
            f" ({best / len(data) * 1e6:.0f} us/page, best of {runs})"
        )
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.accuracy.charsets", description=__doc__)
    parser.add_argument("--corpora", help="corpora folder (default ../shared/corpora)")
    parser.add_argument("--english", action="store_true", help="English pages in cp1252 too")
    parser.add_argument("--misses", action="store_true", help="list every miss")
    parser.add_argument("--timing", action="store_true", help="time the decode of declared pages")
    parser.add_argument("--repeat", type=int, default=5)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
