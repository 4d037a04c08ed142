"""The explain report and summary open with the answer (issue 33): the chosen body first with the
runner-up beside it, a filter to the body and its near misses, every confidence feature named
for what it measures, and a terminal summary that fits a screen."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from support.services import missing_service
from test_explain import _chromium, _png_pixels, render_png

from newsspider import explain
from newsspider.explain_report import FEATURE_LABELS, near_misses, render_report
from newsspider.extraction.classify.confidence import FEATURE_NAMES

ROOT = Path(__file__).resolve().parent.parent

PARAGRAPHS = [
    "The river authority opened the new flood gates on Thursday after three years of work, and "
    "the first high tide of the autumn passed without water reaching the market square.",
    "Residents who had sandbagged their doors every winter watched from the bridge as the gates "
    "closed, and several said it was the first night in a decade they would sleep calmly.",
    "The gates cost less than the original estimate because the contractor reused the old "
    "foundations, the authority said, and the savings will pay for a new pumping station.",
    "Engineers will test the gates monthly through the winter and publish the readings, so that "
    "anyone can see how high the river rose and how much the barrier held back.",
]


def buried_body_page() -> bytes:
    """An article below a long navigation menu and a sidebar: its body starts far down."""
    menu = "".join(f'<li><a href="/section/{i}">Section number {i}</a></li>' for i in range(120))
    side = "".join(
        f'<div class="promo"><a href="/promo/{i}">Promotion {i}: subscribe today</a></div>'
        for i in range(30)
    )
    body = "".join(f"<p>{text}</p>" for text in PARAGRAPHS)
    return (
        "<html><head><title>Flood gates hold on first high tide | River Times</title></head>"
        f'<body><nav><ul class="menu">{menu}</ul></nav><aside class="sidebar">{side}</aside>'
        f"<article><h1>Flood gates hold on first high tide</h1>{body}</article>"
        '<footer class="footer">Copyright River Times</footer></body></html>'
    ).encode()


def _report() -> str:
    article, explanation = explain(buried_body_page(), url="https://example.com/news/gates")
    assert article.body.splitlines() == PARAGRAPHS
    return render_report(article, explanation)


def test_every_feature_is_named_for_what_it_measures() -> None:
    assert set(FEATURE_LABELS) == set(FEATURE_NAMES)
    html = _report()
    assert "contribution to P(article on page)" in html
    assert FEATURE_LABELS["title_agreement"] in html.replace("&#x27;", "'")


def test_body_comes_before_every_left_out_block() -> None:
    html = _report()
    first_body = html.index('class="block body"')
    first_dropped = min(m.start() for m in re.finditer(r'class="block dropped', html))
    assert first_body < first_dropped
    assert html.index('id="answer"') < html.index('id="blocks"')
    # The runner-up sits beside the body, and every block has an anchor for the jump links.
    answer = html[html.index('id="answer"') : html.index('id="blocks"')]
    assert "Runner-up" in answer
    assert all(f'id="b{i}"' in html for i in range(3))


def test_near_misses_are_prose_left_out() -> None:
    _, explanation = explain(buried_body_page(), url="https://example.com/news/gates")
    misses = near_misses(explanation)
    assert all(not block.in_body and block.value > 0 for block in misses)
    assert [b.value for b in misses] == sorted((b.value for b in misses), reverse=True)


def test_text_summary_fits_a_screen() -> None:
    page = ROOT / "tests" / "page.tmp.html"
    try:
        page.write_bytes(buried_body_page())
        proc = subprocess.run(
            [sys.executable, "-m", "newsspider", "explain", str(page)],
            cwd=ROOT, capture_output=True, text=True, check=False, timeout=120,
        )  # fmt: skip
    finally:
        page.unlink(missing_ok=True)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert len(lines) <= 40, proc.stdout
    assert "None" not in proc.stdout  # a field not found says so, not "date: None from None"
    assert any(line.startswith("not found:") and "date" in line for line in lines)
    assert sum(line.lstrip().startswith("BODY") for line in lines) == len(PARAGRAPHS)


def _reddish(pixels: bytes, channels: int) -> int:
    """Pixels in the red family (the shading of furniture-like blocks left out)."""
    count = 0
    for i in range(0, len(pixels), channels * 3):
        r, g, b = pixels[i], pixels[i + 1], pixels[i + 2]
        count += r > g + 12 and r > b + 12
    return count


def test_first_screen_shows_the_body_and_the_filter_works(tmp_path: Path) -> None:
    if _chromium() is None:
        missing_service("chromium is not installed (apt-get install -y chromium)")
    html = _report()
    report = tmp_path / "report.html"
    report.write_text(html, encoding="utf-8")
    png = tmp_path / "report.png"
    render_png(report, png, 1100, 900)
    _, _, channels, pixels = _png_pixels(png.read_bytes())
    colours = {pixels[i : i + 3] for i in range(0, len(pixels), channels)}
    assert bytes((0xDF, 0xF5, 0xE6)) in colours, "no body block on the first screen"
    # The "body only" filter hides every block left out (CSS only; checked here in the file).
    scrolled = html.replace(
        'id="show-all" class="filter-inputs" checked', 'id="show-all" class="filter-inputs"'
    )
    scrolled = scrolled.replace(
        'id="show-body" class="filter-inputs"', 'id="show-body" class="filter-inputs" checked'
    )
    # Below the answer: the block list, by its anchor.
    report.write_text(
        scrolled.replace("</style>", "#answer{display:none}</style>"), encoding="utf-8"
    )
    render_png(report, png, 1100, 900)
    _, _, channels, pixels = _png_pixels(png.read_bytes())
    body_only = _reddish(pixels, channels)
    report.write_text(html.replace("</style>", "#answer{display:none}</style>"), encoding="utf-8")
    render_png(report, png, 1100, 900)
    _, _, channels, pixels = _png_pixels(png.read_bytes())
    every = _reddish(pixels, channels)
    assert body_only * 3 < every, (body_only, every)
