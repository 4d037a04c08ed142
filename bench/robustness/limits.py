"""Time and memory of `newsspider.extract` on the pathological pages of `support.pathological`.

    python -m bench.robustness.limits [--cases a,b] [--no-unlimited] [--no-strace]
                           [--markdown OUT] [--json OUT]

Every measurement is a fresh interpreter: it builds the page, resets its RSS high-water mark,
extracts once (`max_bytes` default, then None when the page is larger than the default), and a
third process parses the same bytes with a bare lxml HTMLParser for comparison. Under strace
(when it is installed and allowed) every file and network syscall during `extract` is
recorded; the "fs/net" column counts them (it must say 0). Prints a markdown table.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path

from support.pathological import CASES, MB, Measurement, measure, strace_available

from newsspider.extraction.api import DEFAULT_MAX_BYTES


def _fmt_warnings(warnings: list[str]) -> str:
    return ", ".join(warnings) if warnings else "–"


def _peak(m: Measurement) -> str:
    return "?" if m.peak_growth_mb is None else f"{m.peak_growth_mb:,.0f}"


def _row(name: str, default: Measurement, unlimited: Measurement | None, lxml: Measurement) -> str:
    checks = []
    if default.problems or default.error:
        checks.append("FAIL: " + "; ".join([*default.problems, default.error or ""]).strip("; "))
    if default.leaked:
        checks.append("LEAK")
    if not default.expected_found:
        checks.append("text missing")
    touched = len(default.audit_events) + default.connections
    fs_net = "–" if default.syscalls is None else str(len(default.syscalls) + touched)
    per_mb = (
        "–"
        if default.peak_growth_mb is None or default.parsed_mb < 1
        else f"{default.peak_growth_mb / default.parsed_mb:.0f}"
    )
    if unlimited is None:
        none_cells = "same | same | same"
    else:
        none_cells = f"{unlimited.cpu_seconds:.2f} | {_peak(unlimited)} | {unlimited.body_chars:,}"
    return (
        f"| {name} | {default.input_mb:.1f} | {default.parsed_mb:.1f} | {default.seconds:.2f} "
        f"| {default.cpu_seconds:.2f} | {_peak(default)} | {per_mb} | {default.body_chars:,} "
        f"| {_fmt_warnings(default.warnings)} | {none_cells} | {lxml.cpu_seconds:.2f} "
        f"| {_peak(lxml)} | {fs_net} | {', '.join(checks) or 'ok'} |"
    )


HEADER = (
    "| page | input MB | parsed MB | s | CPU s | peak RSS +MB | +MB per MB | body chars "
    "| warnings | no cap: CPU s | no cap: +MB | no cap: body chars "
    "| lxml CPU s | lxml +MB | fs/net | checks |\n"
    "|---|--:|--:|--:|--:|--:|--:|--:|---|--:|--:|--:|--:|--:|--:|---|"
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--cases", help="comma-separated case names (default: all)")
    parser.add_argument("--no-unlimited", action="store_true", help="skip max_bytes=None runs")
    parser.add_argument("--no-strace", action="store_true", help="do not trace syscalls")
    parser.add_argument("--markdown", type=Path, help="also write the table here")
    parser.add_argument("--json", type=Path, help="write every measurement here")
    args = parser.parse_args(argv)
    names = args.cases.split(",") if args.cases else list(CASES)
    unknown = [n for n in names if n not in CASES]
    if unknown:
        parser.error(
            f"unknown cases: {', '.join(unknown)}; see python -m bench.robustness.pathological"
        )
    strace = not args.no_strace and strace_available()

    rows: list[str] = []
    measured: list[Measurement] = []
    records: list[dict[str, object]] = []
    for name in names:
        print(f"{name} ...", file=sys.stderr, flush=True)
        default = measure(name, "default", strace=strace, timeout=1800)
        unlimited = None
        if default.input_bytes > DEFAULT_MAX_BYTES and not args.no_unlimited:
            unlimited = measure(name, None, timeout=1800)
        lxml = measure(name, None, engine="lxml", timeout=1800)
        rows.append(_row(name, default, unlimited, lxml))
        runs = [m for m in (default, unlimited, lxml) if m is not None]
        measured += runs
        records += [asdict(m) for m in runs]
        print(rows[-1], file=sys.stderr, flush=True)

    cap = DEFAULT_MAX_BYTES / MB
    load = max((m.load_average for m in measured), default=0.0)
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    machine = (
        f"{platform.python_implementation()} {platform.python_version()}, {platform.machine()}"
    )
    table = "\n".join(
        [
            f"Measured {when} on {machine} ({os.cpu_count()} CPUs, load average up to "
            f"{load:.1f}); `max_bytes` default = {cap:g} MiB. s: wall-clock; CPU s: process "
            "CPU time. Peak RSS +MB: growth of the "
            "resident set during the one call (page already built); +MB per MB: per MB parsed. "
            "no cap: `max_bytes=None`, run only for pages over the cap. lxml: a bare "
            "`lxml.etree.HTMLParser` parse of the whole page. "
            f"fs/net: file and network syscalls seen by strace during `extract` "
            f"({'traced' if strace else 'not traced: strace unavailable'}).",
            "",
            HEADER,
            *rows,
        ]
    )
    print(table)
    if args.markdown:
        args.markdown.write_text(table + "\n")
    if args.json:
        args.json.write_text(json.dumps(records, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
