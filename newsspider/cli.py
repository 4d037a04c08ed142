"""The ``newsspider`` command: extract pages without Scrapy, run the demo, print the schema.

    newsspider extract PAGE.html | FOLDER | URL | -    one JSON line per page on stdout
    newsspider explain PAGE.html|URL [-o report.html] [--json]
                                                        why: the body, container, sources
    newsspider warc FILE.warc.gz [...] -o OUT.jsonl [--jobs N]   articles from WARC archives
    newsspider demo [--out DIR]                         crawl the bundled sample site offline
    newsspider schema                                   JSON Schema of the records
    newsspider bench [ARGS...]                          the benchmark (from a source checkout)

Every error is one line on stderr, ``newsspider COMMAND: INPUT: what is wrong; what to do``.
Exit status: 0 on success; 1 when some inputs could not be read (a missing file, a URL that is
not valid or not reachable, an unsupported scheme); 2 for usage errors (a bad option value, an
``--encoding`` Python does not know, an output path that cannot be written), found before any
work starts; 130 when interrupted.
"""

from __future__ import annotations

import argparse
import codecs
import importlib.util
import json
import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import NoReturn, TextIO

from newsspider import __version__
from newsspider.extraction import ALGORITHMS, Article, Explanation, extract
from newsspider.extraction.body.markdown import escape_markdown
from newsspider.items import ArticleItem
from newsspider.settings_defaults import DEFAULTS, MIN_CONFIDENCE

HTML_SUFFIXES = frozenset({".html", ".htm", ".xhtml", ".shtml"})
USER_AGENT = f"newsspider/{__version__} (+https://github.com/newsspider/newsspider)"
#: Pages above this are cut (news pages are far smaller; this bounds memory on odd input).
MAX_FETCH_BYTES = 16 * 1024 * 1024


#: The one ``--min-confidence`` default of every command: the crawl pipeline's
#: (``NEWSSPIDER_MIN_CONFIDENCE``), so ``extract``, ``warc`` and a crawl keep the same pages and
#: ``explain`` marks the line they drop at.
DEFAULT_MIN_CONFIDENCE = float(DEFAULTS[MIN_CONFIDENCE])
_SAME = (
    f"0..1, default {DEFAULT_MIN_CONFIDENCE}: the crawl pipeline's NEWSSPIDER_MIN_CONFIDENCE, the "
    "same for every command so they keep the same pages; 0 keeps every record"
)
#: An input that names a scheme ("ftp://...") is a URL, whatever the scheme.
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]+)://")


class InputError(Exception):
    """An input that cannot be read; the message names it and says why."""


def _encoding(label: str) -> str:
    """``--encoding``: a codec Python knows (or a web label w3lib maps to one)."""
    from w3lib.encoding import resolve_encoding

    try:
        codecs.lookup(resolve_encoding(label) or label)
    except LookupError:
        raise argparse.ArgumentTypeError(
            f"{label!r} is not an encoding Python knows; give one such as utf-8, cp1252, "
            "gb18030, or leave it out to detect it"
        ) from None
    return label


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.func(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `newsspider extract ... | head`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    return code


class _Parser(argparse.ArgumentParser):
    """Usage errors in one line, like every other error (argparse prints the whole usage)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message}; see {self.prog} --help\n")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="newsspider", description="Clean article records from news pages.")
    parser.add_argument("--version", action="version", version=f"newsspider {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    ext = sub.add_parser("extract", help="extract articles from files, a folder, a URL or stdin")
    ext.add_argument("inputs", nargs="+", metavar="PATH|URL|-")
    ext.add_argument("--min-confidence", type=float, default=DEFAULT_MIN_CONFIDENCE, metavar="X",
                     help=f"print records of confidence X or more ({_SAME})")  # fmt: skip
    ext.add_argument("--algorithm", choices=ALGORITHMS, default="default")
    ext.add_argument("--url", help="the page's URL, for stdin or a single file (resolves links)")
    ext.add_argument("--encoding", type=_encoding,
                     help="the pages' encoding when known: a codec Python knows")  # fmt: skip
    ext.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                     help="progress bar on stderr (default: when it is a terminal)")  # fmt: skip
    ext.add_argument("--format", choices=("json", "markdown"), default="json",
                     help="json: one record per line (default); markdown: each article's "
                     "title as a heading, then its body as Markdown")  # fmt: skip
    ext.set_defaults(func=_cmd_extract)

    why = sub.add_parser("explain", help="show why a page's body, metadata and confidence came out")
    why.add_argument("input", metavar="PATH|URL|-")
    why.add_argument("-o", "--output", type=Path, metavar="REPORT.html",
                     help="write the HTML report here (default: print the summary)")  # fmt: skip
    why.add_argument("--json", action="store_true", help="print the explanation as JSON")
    why.add_argument("--url", help="the page's URL, for stdin or a file (resolves links)")
    why.add_argument("--encoding", type=_encoding,
                     help="the page's encoding when known: a codec Python knows")  # fmt: skip
    why.add_argument("--min-confidence", type=float, default=DEFAULT_MIN_CONFIDENCE,
                     metavar="X", help=f"the drop line marked in the report ({_SAME})")  # fmt: skip
    why.set_defaults(func=_cmd_explain)

    warc = sub.add_parser("warc", help="extract articles from WARC files (needs FastWARC)")
    warc.add_argument("files", nargs="+", type=Path, metavar="FILE.warc[.gz]")
    warc.add_argument("-o", "--output", type=Path, required=True, metavar="OUT.jsonl",
                      help="JSONL output; OUT.jsonl.done lists the finished files")  # fmt: skip
    warc.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1, metavar="N",
                      help="worker processes (default: the CPU count)")  # fmt: skip
    warc.add_argument("--min-confidence", type=float, default=DEFAULT_MIN_CONFIDENCE, metavar="X",
                      help=f"keep records of confidence X or more ({_SAME})")  # fmt: skip
    warc.add_argument("--algorithm", choices=ALGORITHMS, default="default")
    warc.add_argument("--markdown", action="store_true",
                      help="also write each body as Markdown (the markdown field)")  # fmt: skip
    warc.add_argument("--restart", action="store_true",
                      help="ignore OUT.jsonl.done and start over (default: resume)")  # fmt: skip
    warc.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                      help="progress line on stderr (default: when it is a terminal)")  # fmt: skip
    warc.set_defaults(func=_cmd_warc)

    demo = sub.add_parser("demo", help="crawl the bundled sample site on loopback, offline")
    demo.add_argument("--out", type=Path, default=Path("demo-output"),
                      help="output directory (default: ./demo-output)")  # fmt: skip
    demo.add_argument("--json", action="store_true", help="print the summary as JSON")
    demo.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None)
    demo.add_argument("--log-level", default="WARNING", help="Scrapy log level (default WARNING)")
    demo.set_defaults(func=_cmd_demo)

    schema = sub.add_parser("schema", help="print the JSON Schema of the article records")
    schema.set_defaults(func=_cmd_schema)

    bench = sub.add_parser("bench", help="run the benchmark (source checkout only)")
    bench.add_argument("bench_args", nargs=argparse.REMAINDER)
    bench.set_defaults(func=_cmd_bench)
    return parser


# --- extract --------------------------------------------------------------------------------


def _is_url(text: str) -> bool:
    return text.startswith(("http://", "https://"))


def _check_input(item: str) -> None:
    """Raise `InputError` for an input that names an unsupported scheme or a malformed URL,
    before anything is fetched."""
    if item == "-":
        return
    scheme = _SCHEME.match(item)
    if scheme is None:
        return  # a path
    name = scheme.group(1).lower()
    if name == "file":
        path = urllib.request.url2pathname(urllib.parse.urlsplit(item).path)
        raise InputError(f"{item}: file: URLs are not read; give the path itself ({path})")
    if name not in ("http", "https"):
        raise InputError(
            f"{item}: unsupported scheme {name!r}; give an http(s) URL, a file, a folder or -"
        )
    problem = _url_problem(item)
    if problem:
        raise InputError(
            f"{item}: not a valid URL ({problem}); check it, and quote it in the shell"
        )


def _url_problem(url: str) -> str | None:
    """Why ``url`` cannot be fetched as written, or None."""
    if any(c.isspace() or ord(c) < 32 or ord(c) == 127 for c in url):
        return "it contains a space or a control character; write a space as %20"
    try:
        parts = urllib.parse.urlsplit(url)
        parts.port  # noqa: B018  (raises on a port that is not a number)
    except ValueError as exc:
        return str(exc)
    if not parts.hostname:
        return "no host name"
    return None


def _page_url(item: str, fetched_url: str | None, given_url: str | None) -> str | None:
    """The URL a page is extracted under: where it was fetched from, the ``--url`` given, or
    a file's ``file://`` URL (stdin has none)."""
    url = fetched_url or given_url
    if url is None and item != "-":
        url = Path(item).resolve().as_uri()
    return url


def _show_progress(args: argparse.Namespace) -> bool:
    """``--progress``/``--no-progress`` as given, else only on a terminal."""
    return bool(args.progress if args.progress is not None else sys.stderr.isatty())


def _confidence_in_range(command: str, value: float) -> bool:
    if 0.0 <= value <= 1.0:
        return True
    print(f"newsspider {command}: --min-confidence must be between 0 and 1", file=sys.stderr)
    return False


def _expand(inputs: Sequence[str]) -> Iterator[str]:
    """Inputs as given, with folders replaced by their HTML files (recursively, sorted)."""
    for item in inputs:
        if item == "-" or _is_url(item):
            yield item
            continue
        if _SCHEME.match(item):
            yield item  # an unsupported scheme: `_read` names it
            continue
        path = Path(item)
        if path.is_dir():
            found = sorted(
                p for p in path.rglob("*") if p.suffix.lower() in HTML_SUFFIXES and p.is_file()
            )
            if not found:
                raise InputError(f"{item}: no .html/.htm files in this folder")
            yield from map(str, found)
        else:
            yield item


def _read(item: str, stdin: TextIO) -> tuple[bytes, str | None, str | None]:
    """(page bytes, URL, encoding from the transport) for one input."""
    if item == "-":
        return stdin.buffer.read(), None, None
    _check_input(item)
    if _is_url(item):
        return _fetch(item)
    path = Path(item)
    try:
        return path.read_bytes(), None, None
    except FileNotFoundError:
        raise InputError(f"{item}: no such file or folder; check the path") from None
    except IsADirectoryError:
        raise InputError(f"{item}: is a folder; give a file (extract reads folders)") from None
    except OSError as exc:
        raise InputError(f"{item}: cannot read ({exc.strerror or exc})") from None


def _fetch(url: str) -> tuple[bytes, str | None, str | None]:
    request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            data: bytes = response.read(MAX_FETCH_BYTES)
            charset = response.headers.get_content_charset()
            return data, response.geturl(), charset
    except urllib.error.HTTPError as exc:
        raise InputError(f"{url}: HTTP {exc.code} {exc.reason}") from None
    except (urllib.error.URLError, TimeoutError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise InputError(
            f"{url}: cannot fetch ({reason}); check the address and the network"
        ) from None
    except ValueError as exc:  # http.client.InvalidURL and the like, past `_check_input`
        raise InputError(f"{url}: not a valid URL ({exc}); check it") from None


class _Bar:
    """A one-line progress bar on stderr."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.total, self.enabled, self.done = total, enabled, 0
        self._started = time.monotonic()
        self._drawn = 0.0

    def step(self) -> None:
        self.done += 1
        now = time.monotonic()
        if self.enabled and (now - self._drawn > 0.1 or self.done == self.total):
            self._drawn = now
            width = 30
            filled = width * self.done // max(self.total, 1)
            rate = self.done / max(now - self._started, 1e-6)
            sys.stderr.write(
                f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total}"
                f"  {rate:.0f} pages/s "
            )
            if self.done == self.total:
                sys.stderr.write("\n")
            sys.stderr.flush()


def _cmd_extract(args: argparse.Namespace) -> int:
    if not _confidence_in_range("extract", args.min_confidence):
        return 2
    try:
        items = list(_expand(args.inputs))
    except InputError as exc:
        print(f"newsspider extract: {exc}", file=sys.stderr)
        return 1
    bar = _Bar(len(items), enabled=_show_progress(args) and len(items) > 1)
    failed = skipped = written = 0
    for item in items:
        try:
            data, fetched_url, transport_encoding = _read(item, sys.stdin)
        except InputError as exc:
            failed += 1
            print(f"newsspider extract: {exc}", file=sys.stderr)
            bar.step()
            continue
        url = _page_url(item, fetched_url, args.url if len(items) == 1 else None)
        article = extract(
            data, url=url, encoding=args.encoding or transport_encoding, algorithm=args.algorithm
        )
        if article.confidence >= args.min_confidence:
            if args.format == "markdown":
                sys.stdout.write(_markdown_page(article, first=written == 0))
            else:
                record = asdict(ArticleItem.from_article(article))
                sys.stdout.write(json.dumps(record, ensure_ascii=False) + "\n")
            sys.stdout.flush()
            written += 1
        else:
            skipped += 1
        bar.step()
    if skipped:
        print(
            f"newsspider extract: {skipped} page(s) below --min-confidence {args.min_confidence}"
            " not printed; --min-confidence 0 prints them, newsspider explain PAGE says why",
            file=sys.stderr,
        )
    return 1 if failed else 0


def _markdown_page(article: Article, *, first: bool) -> str:
    """One article for ``--format markdown``: a rule between articles, the title as a
    heading, the body (`Article.markdown`)."""
    parts = [] if first else ["\n---\n\n"]
    if article.title:
        parts.append(f"# {escape_markdown(' '.join(article.title.split()))}\n\n")
    parts.append(article.markdown or "\n")
    return "".join(parts)


# --- explain --------------------------------------------------------------------------------


def _cmd_explain(args: argparse.Namespace) -> int:
    from newsspider.explain_report import render_report
    from newsspider.extraction.explain import explain

    if not _confidence_in_range("explain", args.min_confidence):
        return 2
    try:
        data, fetched_url, transport_encoding = _read(args.input, sys.stdin)
    except InputError as exc:
        print(f"newsspider explain: {exc}", file=sys.stderr)
        return 1
    url = _page_url(args.input, fetched_url, args.url)
    article, explanation = explain(data, url=url, encoding=args.encoding or transport_encoding)
    if args.output is not None:
        try:
            report = render_report(article, explanation, min_confidence=args.min_confidence)
            args.output.write_text(report, encoding="utf-8")
        except OSError as exc:
            print(f"newsspider explain: {args.output}: cannot write ({exc})", file=sys.stderr)
            return 1
    if args.json:
        print(explanation.to_json())
    elif args.output is None:
        _print_summary(article, explanation)
    else:
        print(f"newsspider explain: report written to {args.output}", file=sys.stderr)
    return 0


#: The text summary's block lists: body blocks and near misses shown (the rest are counted).
SUMMARY_BODY_BLOCKS = 12
SUMMARY_NEAR_MISSES = 5
SUMMARY_FEATURES = 6


def _print_summary(article: Article, explanation: Explanation) -> None:
    """One screen for the terminal (about 40 lines): the verdicts, where the body is, the
    runner-up and the closest blocks left out, the metadata found, the largest confidence
    contributions, and how to see everything."""
    from newsspider.explain_report import FEATURE_LABELS, near_misses

    out = sys.stdout
    verdict = explanation.content_filter
    decision = "keep" if verdict.get("keep") else f"drop ({verdict.get('reason')})"
    out.write(
        f"page type {article.page_type} (P(article) {article.article_probability:.3f}), "
        f"confidence {article.confidence:.3f}, content filter {decision}, "
        f"P(article present) {verdict.get('presence')}\n"
    )
    body = [b for b in explanation.blocks if b.in_body]
    out.write(f"body: {len(body)} of {len(explanation.blocks)} blocks, {len(article.body)} chars")
    if explanation.container is not None:
        c = explanation.container
        out.write(f", container {c.path} (score {c.score:g}, {c.method})\n")
        if c.runner_up_path:
            ratio = c.runner_up_score / c.score if c.score > 0 else 0.0
            out.write(
                f"runner-up: {c.runner_up_path} (score {c.runner_up_score:g}, "
                f"{ratio:.2f} of the chosen)\n"
            )
    else:
        out.write("\n")
    for block in body[:SUMMARY_BODY_BLOCKS]:
        out.write(f"  BODY #{block.index:<4} {' '.join(block.text.split())[:68]}\n")
    if len(body) > SUMMARY_BODY_BLOCKS:
        out.write(f"  ... and {len(body) - SUMMARY_BODY_BLOCKS} more body blocks\n")
    misses = near_misses(explanation)
    if misses:
        out.write("closest blocks left out:\n")
        for block in misses[:SUMMARY_NEAR_MISSES]:
            reason = block.reason or "left out"
            text = " ".join(block.text.split())[:50]
            out.write(f"  #{block.index:<4} {reason:<18} value {block.value:>6.1f}  {text}\n")
    if explanation.committee is not None:
        committee = explanation.committee
        members = ", ".join(f"{m.method} {m.agreement:.2f}" for m in committee.members)
        used = "read by the confidence" if committee.used else "not read: far from the drop line"
        out.write(f"committee agreement {committee.mean_agreement:.2f} ({members}; {used})\n")
    reasons: dict[str, int] = {}
    for block in explanation.blocks:
        if not block.in_body:
            reasons[block.reason or "not-chosen"] = reasons.get(block.reason or "not-chosen", 0) + 1
    if reasons:
        counted = ", ".join(f"{r} {n}" for r, n in sorted(reasons.items(), key=lambda x: -x[1]))
        out.write(f"left out: {counted}\n")
    missing = [s.field for s in explanation.metadata if not s.value]
    for source in explanation.metadata:
        if source.value:
            where = source.source or "the page"
            out.write(f"{source.field}: {source.value[:60]!r} (from {where})\n")
    if missing:
        out.write(f"not found: {', '.join(missing)}\n")
    confidence = explanation.confidence
    if confidence is not None:
        top = sorted(confidence.features, key=lambda f: -(abs(f.presence) + abs(f.quality)))
        out.write("largest confidence contributions (log-odds: presence, quality):\n")
        for f in top[:SUMMARY_FEATURES]:
            label = FEATURE_LABELS.get(f.name, f.name)
            out.write(f"  {f.presence:+.2f} {f.quality:+.2f}  {f.name} = {f.value:g}: {label}\n")
    out.write("every block and feature: newsspider explain PAGE -o report.html (or --json)\n")


# --- warc -----------------------------------------------------------------------------------


def _cmd_warc(args: argparse.Namespace) -> int:
    if not _confidence_in_range("warc", args.min_confidence):
        return 2
    if args.jobs < 1:
        print("newsspider warc: --jobs must be at least 1", file=sys.stderr)
        return 2
    try:
        from newsspider.warc import output_problem, run_batch
    except ImportError as exc:
        print(f"newsspider warc: needs FastWARC ({exc}); pip install 'newsspider[warc]'",
              file=sys.stderr)  # fmt: skip
        return 2
    problem = output_problem(args.output)
    if problem is not None:
        print(f"newsspider warc: -o {args.output}: {problem}", file=sys.stderr)
        return 2
    try:
        summary = run_batch(
            args.files,
            args.output,
            jobs=args.jobs,
            min_confidence=args.min_confidence,
            algorithm=args.algorithm,
            progress=_show_progress(args),
            restart=args.restart,
            markdown=args.markdown,
        )
    except OSError as exc:  # the output went away or filled up while running
        print(f"newsspider warc: -o {args.output}: cannot write ({exc.strerror or exc}); "
              "free space or give another path, then run the same command to resume",
              file=sys.stderr)  # fmt: skip
        return 1
    if summary.read == 0 and summary.already_done == 0 and summary.file_errors:
        for line in summary.file_errors:
            print(f"newsspider warc: {line}", file=sys.stderr)
        print(f"newsspider warc: no input could be read; {args.output} was not written",
              file=sys.stderr)  # fmt: skip
        return 1
    skipped = ", ".join(f"{n} {reason}" for reason, n in sorted(summary.skipped.items()))
    print(
        f"newsspider warc: {summary.read} file(s) read"
        f" ({summary.already_done} already done), {summary.pages} HTML pages,"
        f" {summary.articles} records written to {args.output}"
        + (f"; skipped: {skipped}" if skipped else ""),
        file=sys.stderr,
    )
    for line in summary.file_errors:
        print(f"newsspider warc: {line}", file=sys.stderr)
    if summary.first_record_error:
        print(f"newsspider warc: first record error: {summary.first_record_error}",
              file=sys.stderr)  # fmt: skip
    if summary.interrupted or summary.aborted:
        print(f"newsspider warc: {summary.aborted or 'interrupted'}; run the same command again "
              "to resume", file=sys.stderr)  # fmt: skip
        return 130 if summary.interrupted else 1
    return 1 if summary.file_errors else 0


# --- demo, schema, bench --------------------------------------------------------------------


def _cmd_demo(args: argparse.Namespace) -> int:
    from newsspider.demo.runner import print_summary, run_demo

    problem = _output_folder_problem(args.out)
    if problem is not None:
        print(f"newsspider demo: --out {args.out}: {problem}", file=sys.stderr)
        return 2
    show = _show_progress(args)
    if not args.json:
        print("newsspider demo: serving the sample site on 127.0.0.1, crawling with feed, "
              "sitemap and site spiders...", flush=True)  # fmt: skip
    summary = run_demo(args.out, progress=show, log_level=args.log_level)
    if args.json:
        print(json.dumps(summary.as_dict(), ensure_ascii=False, indent=2))
    else:
        print_summary(summary, sys.stdout)
    if summary.split_whole < summary.split_total:
        # `make demo` checks that stories split over pages come out joined.
        print(f"newsspider demo: {summary.split_total - summary.split_whole} stories split over"
              " pages did not come out whole", file=sys.stderr)  # fmt: skip
        return 1
    return 0


def _output_folder_problem(folder: Path) -> str | None:
    """Make the output folder ``folder``; why it cannot be, as "what; what to do", or None."""
    if folder.exists() and not folder.is_dir():
        return "is a file, not a folder; give a folder (it is created if missing)"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return f"cannot create this folder ({exc.strerror or exc}); give another path"
    if not os.access(folder, os.W_OK | os.X_OK):
        return "cannot write in this folder (permission denied); give another path"
    return None


def _cmd_schema(args: argparse.Namespace) -> int:
    from newsspider.schema import article_schema

    print(json.dumps(article_schema(), ensure_ascii=False, indent=2))
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    env = dict(os.environ)
    cwd: Path | None = None
    if importlib.util.find_spec("bench") is None:
        # `python -m bench` works from the repository root; look for it from here upward.
        for folder in (Path.cwd(), *Path.cwd().parents):
            if (folder / "bench" / "__main__.py").is_file():
                cwd = folder
                break
        else:
            print(
                "newsspider bench: the benchmark is not installed with the package; run it from "
                "a source checkout of newsspider (make bench, or python -m bench)",
                file=sys.stderr,
            )
            return 2
    command = [sys.executable, "-m", "bench", *args.bench_args]
    return subprocess.run(command, cwd=cwd, env=env, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
