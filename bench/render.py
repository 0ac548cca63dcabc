"""Time both renderers on a 100-puzzle book, and check what they print.

Usage: .venv/bin/python bench/render.py [--puzzles DIR] [--trims letter 6x9] [--json FILE]

The book: the ``.ipuz`` files of ``--puzzles DIR`` (in the order of their
numbers), or, without it, book 1 of the pipeline run in a scratch copy
(Snakefile, config/, templates/, report/) with ``--config
puzzles_per_book=100 patterns_per_shard=130 max_answer_repeats=2`` (plus
any ``--config`` given; the project's ``outputs/lexicon`` is copied in when
it exists, so the word list is not rebuilt).

Then for each renderer and trim, in a fresh Python process: the book is
loaded, then ``render_pdf`` or ``render_latex`` alone is timed.  Each PDF
is checked: every font embedded (``pdffonts``), every page the trim's size
(pypdf), and its pages, smallest clue type and puzzles set below the
trim's type floor read from the renderer's statistics.  A table is
printed; ``--json FILE`` writes every row.  Not a test: nothing in tests/
runs it.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pipeline.model.errors import InputError  # noqa: E402
from pipeline.render.book import get_trim  # noqa: E402

RENDERERS = ("reportlab", "latex")
# With each answer used once (the default max_answer_repeats 1) the default list
# runs short of fresh words near 75 puzzles; a render benchmark needs the pages, not
# the variety, so answers may come back once (2 uses), as a long book of the default data needs.
DEFAULT_CONFIG = ["puzzles_per_book=100", "patterns_per_shard=130", "max_answer_repeats=2"]

# Run in a fresh process: load the book, then time the render call alone.
_CHILD = """
import json, sys, time
from pipeline.render.book import load_book
a = json.loads(sys.argv[1])
book = load_book(a["puzzles"], title=a["title"], subtitle=a["subtitle"], author=a["author"],
                 copyright_lines=a["copyright"], notice_paths=a["notices"], trim=a["trim"])
if a["renderer"] == "reportlab":
    from pipeline.render.pdf import render_pdf as render
    kwargs = {}
else:
    from pipeline.render.latex import render_latex as render
    kwargs = {"template_dir": a["templates"]}
t0 = time.perf_counter()
stats = render(book, a["out"], **kwargs)
stats["seconds"] = time.perf_counter() - t0
print(json.dumps(stats, default=str))
"""


def _ipuz_in(folder: Path) -> list[Path]:
    paths = [p for p in folder.glob("*.ipuz") if p.stem.isdigit()]
    return sorted(paths, key=lambda p: int(p.stem))


def _make_book(work: Path, overrides: list[str], cores: int) -> list[Path] | None:
    """Book 1's puzzles, made by the pipeline in ``work``; None if it failed."""
    for name in ("Snakefile", "config", "templates", "report"):
        src = ROOT / name
        if src.exists():
            (shutil.copytree if src.is_dir() else shutil.copy)(src, work / name)
    lexicon = ROOT / "outputs" / "lexicon"
    if (lexicon / "wordlist.txt").exists():
        shutil.copytree(lexicon, work / "outputs" / "lexicon")
    config = DEFAULT_CONFIG + overrides
    n = int(dict(c.split("=", 1) for c in config)["puzzles_per_book"])
    targets = [f"outputs/puzzles/book-1/{k}.ipuz" for k in range(1, n + 1)]
    cmd = [sys.executable, "-m", "snakemake", "--cores", str(cores), "--quiet", "--config", *config, "--", *targets]
    print(f"bench: making a {n}-puzzle book in {work} (snakemake, a few minutes)", file=sys.stderr, flush=True)
    run = subprocess.run(cmd, cwd=work)
    if run.returncode:
        print(f"bench: snakemake failed (exit {run.returncode}); logs kept in {work / 'outputs' / 'logs'}", file=sys.stderr)
        return None
    return [work / t for t in targets]


def _fonts(pdf: Path) -> tuple[int, bool]:
    """How many fonts ``pdffonts`` lists, and whether every one is embedded."""
    out = subprocess.run(["pdffonts", str(pdf)], check=True, capture_output=True, text=True).stdout
    rows = [line.split() for line in out.splitlines()[2:] if line.strip()]
    # name type [encoding] emb sub uni object-id gen: emb is fifth from the end
    return len(rows), all(r[-5] == "yes" for r in rows)


def _page_sizes(pdf: Path, trim: str) -> tuple[int, bool]:
    from pypdf import PdfReader

    t = get_trim(trim)
    want = (t.width * 72, t.height * 72)
    pages = PdfReader(pdf).pages
    ok = all(
        abs(float(p.mediabox.width) - want[0]) < 0.01 and abs(float(p.mediabox.height) - want[1]) < 0.01
        for p in pages
    )
    return len(pages), ok


def _min_clue_size(stats: dict):
    if isinstance(stats.get("min_font_size"), (int, float)):
        return stats["min_font_size"]
    sizes = [s for s in stats.get("clue_sizes") or [] if isinstance(s, (int, float))]
    return min(sizes) if sizes else None


def _bench_one(renderer: str, trim: str, puzzles: list[Path], meta: dict, out: Path) -> dict:
    args = dict(meta, renderer=renderer, trim=trim, out=str(out), puzzles=[str(p) for p in puzzles])
    t0 = time.perf_counter()
    run = subprocess.run([sys.executable, "-c", _CHILD, json.dumps(args)], cwd=ROOT, capture_output=True, text=True)
    process = time.perf_counter() - t0
    row = {"renderer": renderer, "trim": trim, "puzzles": len(puzzles), "process_seconds": round(process, 2)}
    if run.returncode:
        lines = run.stderr.strip().splitlines() or ["no message"]
        row["error"] = lines[-1]
        return row
    stats = json.loads(run.stdout.strip().splitlines()[-1])
    fonts, embedded = _fonts(out)
    pages, sizes_ok = _page_sizes(out, trim)
    below = stats.get("below_floor")
    row.update(
        seconds=round(stats["seconds"], 2),
        pages=stats["pages"],
        pdf_pages=pages,
        page_size_ok=sizes_ok,
        fonts=fonts,
        fonts_embedded=embedded,
        min_clue_size=_min_clue_size(stats),
        below_floor=len(below) if isinstance(below, list) else None,
        layout=stats.get("layout"),
        bytes=out.stat().st_size,
    )
    return row


def _table(rows: list[dict]) -> str:
    head = f"{'renderer':<10}{'trim':<13}{'layout':<8}{'render s':>9}{'proc s':>8}{'pages':>7}{'size ok':>9}"
    head += f"{'fonts':>7}{'embedded':>10}{'min pt':>8}{'<floor':>8}"
    lines = [head]
    for r in rows:
        if "error" in r:
            lines.append(f"{r['renderer']:<10}{r['trim']:<13}failed: {r['error']}")
            continue
        yes = {True: "yes", False: "NO"}
        lines.append(
            f"{r['renderer']:<10}{r['trim']:<13}{r['layout'] or '-':<8}{r['seconds']:>9.2f}{r['process_seconds']:>8.2f}"
            f"{r['pages']:>7}{yes[r['page_size_ok'] and r['pages'] == r['pdf_pages']]:>9}{r['fonts']:>7}"
            f"{yes[r['fonts_embedded']]:>10}{r['min_clue_size'] if r['min_clue_size'] is not None else '-':>8}"
            f"{r['below_floor'] if r['below_floor'] is not None else '-':>8}"
        )
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--puzzles", type=Path, metavar="DIR", help="a folder of 1.ipuz, 2.ipuz, ... to render")
    ap.add_argument("--trims", nargs="+", default=["letter", "a4", "6x9", "large-print"])
    ap.add_argument("--renderers", nargs="+", choices=RENDERERS, default=list(RENDERERS))
    ap.add_argument("--notice", nargs="*", type=Path, help="licence texts (default: outputs/lexicon's, if there)")
    ap.add_argument("--config", nargs="*", default=[], help="more key=value overrides for the pipeline run")
    ap.add_argument("--cores", type=int, default=8)
    ap.add_argument("--json", type=Path, metavar="FILE", help="also write every row as JSON")
    ap.add_argument("--keep", action="store_true", help="keep the scratch folder and print its path")
    args = ap.parse_args()
    for tool in ("pdffonts",) + (("latexmk", "pdflatex") if "latex" in args.renderers else ()):
        if not shutil.which(tool):
            print(f"bench: {tool} not found; install poppler-utils and TeX Live (make tex)", file=sys.stderr)
            return 2
    try:
        for trim in args.trims:
            get_trim(trim)  # an unknown trim stops here, before anything runs
    except InputError as e:
        print(f"bench: {e}", file=sys.stderr)
        return 2
    work = Path(tempfile.mkdtemp(prefix="xwbench-render-"))
    try:
        if args.puzzles:
            puzzles = _ipuz_in(args.puzzles)
            if not puzzles:
                print(f"bench: no 1.ipuz, 2.ipuz, ... in {args.puzzles}", file=sys.stderr)
                return 2
            lexicon = ROOT / "outputs" / "lexicon"
        else:
            puzzles = _make_book(work, args.config, args.cores)
            if puzzles is None:
                args.keep = True  # the logs say why
                return 1
            lexicon = work / "outputs" / "lexicon"
        notices = args.notice
        if notices is None:
            notices = [p for p in (lexicon / "NOTICE.txt", lexicon / "LICENSE-WordNet.txt") if p.exists()]
        config = yaml.safe_load((ROOT / "config" / "config.yaml").read_text())
        meta = {
            "title": config["title"].replace("{n}", "1"),
            "subtitle": config["subtitle"],
            "author": config["author"],
            "copyright": [config["copyright"]] if config["copyright"] else [],
            "notices": [str(p) for p in notices],
            "templates": str(ROOT / "templates"),
        }
        print(f"bench: {len(puzzles)} puzzles from {puzzles[0].parent}", file=sys.stderr, flush=True)
        rows = []
        for renderer in args.renderers:
            for trim in args.trims:
                out = work / f"{renderer}-{trim}.pdf"
                rows.append(_bench_one(renderer, trim, puzzles, meta, out))
                print(f"bench: {renderer} {trim} done", file=sys.stderr, flush=True)
        print(_table(rows))
        if args.json:
            args.json.write_text(json.dumps({"puzzles": str(puzzles[0].parent), "rows": rows}, indent=2) + "\n")
        if args.keep:
            print(f"puzzles and PDFs kept in {work}")
        return 1 if any("error" in r for r in rows) else 0
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
