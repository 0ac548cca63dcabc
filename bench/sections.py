"""The README's four-section book (minis, a graded daily section, themed puzzles, Sundays), built and judged.

Usage: .venv/bin/python bench/sections.py [--cores 2] [--lexicon outputs/lexicon]
       [--configfile config/sections-example.yaml] [--keep] [--json FILE]

Runs ``snakemake --cores N --configfile config/sections-example.yaml`` in a
scratch copy of the workflow, the lexicon built once beforehand (or taken
from ``--lexicon``) and copied in, as the issue's goal excludes it, and
prints against the goals:

* the wall time (goal: 3 minutes on 2 cores), both PDFs' pages, and every
  puzzle checked: its ``.ipuz`` read back, its grid complete, every entry
  in the word list, every clue there;
* each themed puzzle: its theme entries the longest entries of its grid
  (every other entry shorter than the shortest of them) and in symmetric
  slots (each entry's 180-degree image a theme slot of the same length);
  and how many of the themed candidates the fill tried it filled;
* each graded section: the rank correlation (Spearman) of the puzzles'
  difficulty index with their position (goal 0.8), and its easiest and
  hardest fifth side by side: the entries' mean list score and wordfreq
  Zipf frequency (rarer words score and count lower), and the share of
  clues that are hard.

(``bench/themes.py`` times the theme stage's attempts on their own: the
goal of 90% of attempts giving a set, a pattern and a fill within 30 s.)

This is a script, not a test: nothing in tests/ runs it.
"""

from __future__ import annotations

import argparse
import csv
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from workflowkit import bench_lexicon, copy_workflow, install_lexicon  # noqa: E402
from pipeline.config import load_config  # noqa: E402
from pipeline.model.puzzle import read_ipuz  # noqa: E402
from pipeline.model.sections import sections_of  # noqa: E402
from pipeline.theme.place import theme_problems  # noqa: E402

GOAL_SECONDS = 180.0
GOAL_RANK = 0.8


def _met(ok: bool) -> str:
    return "met" if ok else "NOT MET"


def ranks(values: list[float]) -> list[float]:
    """Ranks from 1, ties sharing their mean rank.

    >>> ranks([10, 30, 20, 20])
    [1.0, 4.0, 2.5, 2.5]
    """
    order = sorted(range(len(values)), key=values.__getitem__)
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in order[i : j + 1]:
            out[k] = (i + j) / 2 + 1
        i = j + 1
    return out


def spearman(xs: list[float], ys: list[float]) -> float:
    """Spearman's rank correlation (Pearson's on the ranks).

    >>> spearman([1, 2, 3, 4], [10, 20, 40, 30])
    0.8
    """
    rx, ry = ranks(xs), ranks(ys)
    mx, my = statistics.fmean(rx), statistics.fmean(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    sx = sum((a - mx) ** 2 for a in rx) ** 0.5
    sy = sum((b - my) ** 2 for b in ry) ** 0.5
    return round(cov / (sx * sy), 3) if sx and sy else 0.0


def _zipf(words: list[str]) -> float:
    from wordfreq import zipf_frequency

    return statistics.fmean(zipf_frequency(w.lower(), "en") for w in words)


def run(configfile: Path, cores: int, lexicon: Path, keep: bool) -> dict:
    work = copy_workflow(Path(tempfile.mkdtemp(prefix="xwbench-sections-")) / "work")
    install_lexicon(work, lexicon)
    cmd = [sys.executable, "-m", "snakemake", "--cores", str(cores), "--quiet", "--rerun-triggers", "mtime",
           "--configfile", str(configfile.resolve())]  # fmt: skip
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=work, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if proc.returncode:
        print(proc.stderr[-3000:], file=sys.stderr)
        raise SystemExit(f"snakemake failed (exit {proc.returncode}); scratch folder kept: {work}")
    out = work / "outputs"
    config = load_config([configfile])
    sections = sections_of(config)
    words = {}
    for line in (out / "lexicon" / "wordlist.txt").read_text().splitlines():
        w, _, s = line.partition(";")
        words[w] = float(s)
    pages = {}
    for name in ("book-1.pdf", "book-1.latex.pdf"):
        info = subprocess.run(["pdfinfo", str(out / "books" / name)], capture_output=True, text=True).stdout
        pages[name] = int(next(line.split()[-1] for line in info.splitlines() if line.startswith("Pages:")))
    summary = list(csv.DictReader((out / "reports" / "book-1" / "summary.tsv").open(), delimiter="\t"))[:-1]
    puzzles, bad, themed = [], [], []
    for k in range(1, sum(s.count for s in sections) + 1):
        p = read_ipuz(out / "puzzles" / "book-1" / f"{k}.ipuz")
        puzzles.append(p)
        entries = p.grid.words()
        if not p.grid.is_complete() or p.unclued() or any(w not in words for w in entries):
            bad.append(k)
        if p.theme:
            themed.append((k, p.title, p.theme, theme_problems(p.grid, p.theme)))
    fills = list(csv.DictReader((out / "fills" / "book-1" / "report.tsv").open(), delimiter="\t"))
    first, offset = 1, 0
    graded, theme_attempts = [], []
    for i, s in enumerate(sections, start=1):
        span = range(first, first + s.count)
        first += s.count
        folder = out / "patterns" / f"section-{i}"
        path = folder / ("candidates.themes.tsv" if s.theme else "patterns.hex")
        pool = sum(1 for line in path.read_text().splitlines()[int(s.theme):] if line.strip())
        if s.theme:  # the fill report's candidates are numbered through the sections' pools in turn
            mine = [r for r in fills if offset < int(r["candidate"]) <= offset + pool]
            theme_attempts.append({"section": s.title, "candidates": pool, "tried": len(mine),
                                   "filled": sum(r["status"] == "filled" for r in mine),
                                   "used": sum(bool(r["puzzle"]) for r in mine)})  # fmt: skip
        offset += pool
        if not s.graded:
            continue
        rows = [summary[k - 1] for k in span]
        index = [float(r["difficulty"]) for r in rows]
        fifth = max(1, s.count // 5)
        ends = {}
        for name, ks in (("easiest", list(span)[:fifth]), ("hardest", list(span)[-fifth:])):
            ents = [w for k in ks for w in puzzles[k - 1].grid.words()]
            hard = sum(int(summary[k - 1]["hard_clues"]) for k in ks)
            ends[name] = {
                "puzzles": f"{ks[0]}-{ks[-1]}",
                "mean_score": round(statistics.fmean(words[w] for w in ents), 1),
                "zipf": round(_zipf(ents), 2),
                "hard_clue_share": round(hard / len(ents), 3),
                "difficulty": round(statistics.fmean(float(summary[k - 1]["difficulty"]) for k in ks), 2),
            }
        graded.append({"section": s.title, "rank_correlation": spearman(list(range(len(index))), index),
                       "ends": ends})  # fmt: skip
    result = {
        "wall": round(wall, 1),
        "cores": cores,
        "pages": pages,
        "puzzles": len(puzzles),
        "bad_puzzles": bad,
        "themed": [{"puzzle": k, "title": t, "entries": list(e), "problems": pr} for k, t, e, pr in themed],
        "theme_attempts": theme_attempts,
        "graded": graded,
    }
    if keep:
        print(f"outputs kept in {out}")
    else:
        shutil.rmtree(work.parent)
    return result


def report(r: dict) -> None:
    print(f"book of {r['puzzles']} puzzles on --cores {r['cores']}: {r['wall']:.1f} s "
          f"(goal <= {GOAL_SECONDS:.0f} s: {_met(r['wall'] <= GOAL_SECONDS)})")  # fmt: skip
    print(f"  pages: {', '.join(f'{k} {v}' for k, v in r['pages'].items())}")
    print(f"  puzzles not valid (incomplete, unclued or a word not in the list): {r['bad_puzzles'] or 'none'} "
          f"({_met(not r['bad_puzzles'])})")  # fmt: skip
    ok = all(not t["problems"] for t in r["themed"])
    print(f"  themed puzzles: {len(r['themed'])}; theme entries the longest and symmetric in every one: {_met(ok)}")
    for a in r["theme_attempts"]:
        print(f"    {a['section']}: {a['candidates']} themed candidates, the fill tried {a['tried']} (with the book's "
              f"answers already used kept out), filled {a['filled']}, {a['used']} kept")  # fmt: skip
    for t in r["themed"]:
        print(f"    {t['puzzle']:>3} {t['title']}: {', '.join(t['entries'])}" + (f"  {t['problems']}" if t["problems"] else ""))
    for g in r["graded"]:
        rc = g["rank_correlation"]
        print(f"  graded section {g['section']}: difficulty index against position, Spearman {rc} "
              f"(goal >= {GOAL_RANK}: {_met(rc >= GOAL_RANK)})")  # fmt: skip
        for name, e in g["ends"].items():
            print(f"    {name} fifth (puzzles {e['puzzles']}): entries' mean score {e['mean_score']}, "
                  f"Zipf {e['zipf']}; hard clues {e['hard_clue_share']:.1%}; index {e['difficulty']}")  # fmt: skip


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cores", type=int, default=2)
    ap.add_argument("--lexicon", type=Path, help="a built lexicon folder (default: build one)")
    ap.add_argument("--configfile", type=Path, default=ROOT / "config" / "sections-example.yaml")
    ap.add_argument("--keep", action="store_true", help="keep the scratch outputs")
    ap.add_argument("--json", type=Path, help="also write the figures as JSON")
    args = ap.parse_args()
    r = run(args.configfile, args.cores, bench_lexicon(args.lexicon), args.keep)
    report(r)
    if args.json:
        args.json.write_text(json.dumps(r, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
