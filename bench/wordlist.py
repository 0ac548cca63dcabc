"""The default word list measured as constructors would: what the filler puts in grids, what the scores mean.

Usage: .venv/bin/python bench/wordlist.py [--lexicon DIR] [--seeds 10] [--patterns 60]
       [--bsq-venv DIR] [--baseline LIST] [--json FILE]

1. Builds the lexicon (``build_lexicon``, the defaults) into ``--lexicon``
   (default: a scratch folder) and times it: goal under 60 s.
2. Exports the constructors' list to measure against: Spread the Wordlist,
   as blacksquare ships it (CC BY-NC-SA: installed at benchmark time into
   its own venv, exported to a temporary file, deleted at the end; never
   committed, never used to choose, filter or score our entries).  Its
   *top tier* is its score 50 (blacksquare's 1.0); *unknown* is an entry it
   does not have at all.
3. ``xw fill`` as a user runs it, the default list and no other option
   (`fill_graded(grid, index, seed, timeout=10)`), on us15x15_78w, us15x15_72w,
   ss_15xcommon, mini7x7 and us21x21_140w, ``--seeds`` seeds each: filled
   share (goal 100%), entries in the top tier (goal >= 97%) and unknown
   (goal <= 0.5%), median search time per grid (goal: no worse than the
   baseline's, about 5 ms on a 15x15); then the same with ``xw fill --first``
   (the plain search, as ``xw fill`` filled before), for comparison.
4. The list itself: of our entries scored 50 or more, the share in the top
   tier (goal >= 95%), by length and by reading kind (``grades.tsv``); the
   entries scored 50+ of 3, 4 and 5 letters (goals 1,200 / 3,000 / 6,000),
   each with a clean clue (goal: every one); precision of each score band;
   and the calibration set's hand judgments (F / C / A) against the top tier:
   the top-tier share of the entries judged fine is the precision a score
   agreeing perfectly with the judges would reach in the bands judged.
5. ``--patterns`` default American 15x15 patterns (``config/config.yaml``'s
   style and rules) filled with the list within 10 s each: goal >= 95%.

``--baseline LIST`` runs step 3 with another ``WORD;score`` list too (e.g.
the list an older build made), side by side.  Timings on the shared 2-core
machine are noisy; compare ratios measured in one run.

This is a script, not a test: nothing in tests/ imports or runs it.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from data_report import clean_clued  # noqa: E402  (bench/data_report.py)
from fill import Blacksquare, default_grids, log  # noqa: E402  (bench/fill.py)
from patterns import fill_times  # noqa: E402  (bench/patterns.py)

from pipeline.fill import FILLED, Filler, load_index  # noqa: E402
from pipeline.fill.quality import fill_graded  # noqa: E402
from pipeline.lexicon import build_lexicon  # noqa: E402
from pipeline.lexicon.view import read_grades, read_judgments  # noqa: E402
from pipeline.model.grid import parse_grid  # noqa: E402
from pipeline.model.rules import style_rules  # noqa: E402
from pipeline.model.wordlist import read_wordlist  # noqa: E402
from pipeline.patterns import generate_patterns  # noqa: E402

GRIDS = ["us15x15_78w", "us15x15_72w", "ss_15xcommon", "mini7x7", "us21x21_140w"]
TOP = 100  # blacksquare's 1.0 (Spread the Wordlist's 50), as bench/fill.py exports it: x100
GOALS = {"filled": 1.0, "top": 0.97, "unknown": 0.005, "precision": 0.95, "patterns": 0.95, "build": 60.0}
FINE_GOALS = {3: 1200, 4: 3000, 5: 6000}
FILL_SECONDS = 10.0  # xw fill's default --timeout


def _met(ok: bool) -> str:
    return "met" if ok else "NOT met"


def fills(index, grids_dir: Path, seeds: int, reference: dict[str, float], first: bool = False) -> dict:
    """Each grid filled with ``seeds`` seeds as ``xw fill`` fills it (`fill_graded`; with ``first``,
    the plain search's first fill, as ``xw fill --first`` and ``xw fill`` before graded floors):
    per grid the attempts, overall the entries' tiers and our own scores."""
    out: dict = {"grids": {}, "entries": 0, "top": 0, "unknown": 0, "fine": 0, "below": Counter(),
                 "missing": Counter()}  # fmt: skip
    for name in GRIDS:
        grid = parse_grid((grids_dir / f"{name}.txt").read_text())
        rows = []
        for seed in range(seeds):
            if first:
                r = Filler(grid, index, seed=seed).fill(FILL_SECONDS)
            else:
                r = fill_graded(grid, index, seed=seed, timeout=FILL_SECONDS)
            rows.append({"seed": seed, "status": r.status, "seconds": r.seconds})
            if r.status != FILLED:
                continue
            for w in r.words:
                out["entries"] += 1
                out["fine"] += index.score(w) >= 50
                s = reference.get(w)
                if s is None:
                    out["unknown"] += 1
                    out["missing"][w] += 1
                elif s >= TOP:
                    out["top"] += 1
                else:
                    out["below"][w] += 1
        out["grids"][name] = rows
    return out


def print_fills(label: str, f: dict, seeds: int) -> None:
    n = len(GRIDS) * seeds
    filled = sum(r["status"] == FILLED for rows in f["grids"].values() for r in rows)
    e = max(1, f["entries"])
    print(f"{label}: filled {filled}/{n} ({100 * filled / n:.0f}%, goal 100%: {_met(filled == n)}); "
          f"{f['entries']} entries: {100 * f['top'] / e:.1f}% in the top tier (goal >= 97%: "
          f"{_met(f['top'] / e >= GOALS['top'])}), {100 * f['unknown'] / e:.2f}% unknown (goal <= 0.5%: "
          f"{_met(f['unknown'] / e <= GOALS['unknown'])}); {100 * f['fine'] / e:.1f}% scored 50+ by us")
    for name, rows in f["grids"].items():
        times = [r["seconds"] for r in rows]
        ok = sum(r["status"] == FILLED for r in rows)
        print(f"  {name:14s} {ok:2d}/{len(rows)} filled, search median {1000 * statistics.median(times):8.1f} ms, "
              f"max {1000 * max(times):8.1f} ms")
    pooled = [r["seconds"] for name in GRIDS if name.startswith(("us15", "ss_15")) for r in f["grids"][name]]
    print(f"  the 15x15 grids together: search median {1000 * statistics.median(pooled):.1f} ms")
    if f["missing"]:
        print("  unknown to the constructors' list: " + " ".join(f"{w}" for w, _ in f["missing"].most_common(40)))


def list_figures(out: Path, reference: dict[str, float]) -> dict:
    words = read_wordlist(out / "wordlist.txt")
    kinds = {a: kind for a, (score, kind, _) in read_grades(out / "grades.tsv").items() if score != "-"}
    fine = {w for w, s in words.items() if s >= 50}
    clued = clean_clued(out / "clues", {w: words[w] for w in fine})
    print(f"Entries scored 50+: {len(fine):,} of {len(words):,}; in the top tier: "
          f"{100 * sum(reference.get(w, 0) >= TOP for w in fine) / max(1, len(fine)):.1f}% "
          f"(goal >= 95%: {_met(sum(reference.get(w, 0) >= TOP for w in fine) >= GOALS['precision'] * len(fine))})")
    for n in range(3, 16):
        group = [w for w in fine if len(w) == n]
        if not group:
            continue
        top = sum(reference.get(w, 0) >= TOP for w in group)
        have = sum(1 for w in group if w in clued)
        goal = FINE_GOALS.get(n)
        tail = f"   goal {goal:,}: {_met(len(group) >= goal)}" if goal else ""
        print(f"  {n:2d} letters {len(group):6,d} scored 50+, {100 * top / len(group):5.1f}% top tier, "
              f"{have:6,d} with a clean clue{tail}")
    print(f"  every entry scored 50+ has a clean clue: {_met(len(clued) == len(fine))}")
    print("By reading (entries scored 50+: count, top-tier share):")
    by_kind = Counter(kinds.get(w, "?") for w in fine)
    for kind, count in by_kind.most_common():
        top = sum(reference.get(w, 0) >= TOP for w in fine if kinds.get(w, "?") == kind)
        print(f"  {kind:13s} {count:7,d} {100 * top / count:5.1f}%")
    print("Score bands (entries, top-tier share, unknown share):")
    for lo, hi in ((70, 101), (60, 70), (50, 60), (40, 50), (30, 40), (0, 30)):
        group = [w for w, s in words.items() if lo <= s < hi]
        if group:
            top = sum(reference.get(w, 0) >= TOP for w in group)
            unk = sum(w not in reference for w in group)
            print(f"  {lo:3d}-{min(hi, 100) - (hi <= 100):<3d} {len(group):7,d} {100 * top / len(group):5.1f}% "
                  f"{100 * unk / len(group):5.1f}%")
    return {"fine": len(fine), "by_length": {n: sum(1 for w in fine if len(w) == n) for n in (3, 4, 5)}}


def judged_figures(reference: dict[str, float]) -> dict:
    """The calibration set (hand judgments blind to scores and to any word list) against the top tier:
    how far the judges' "fine" and the constructors' top tier are one standard.  In the bands the set
    samples (scores 25-64), the share of the judges' F in the top tier is the precision a score
    agreeing perfectly with the judges would reach there."""
    judged = read_judgments()
    out = {}
    print("The calibration set's hand judgments against the top tier (share in the top tier, unknown):")
    for grade, meaning in (("F", "fine"), ("C", "corner"), ("A", "avoid")):
        group = [w for w, g in judged.items() if g == grade]
        top = sum(reference.get(w, 0) >= TOP for w in group) / max(1, len(group))
        unk = sum(w not in reference for w in group) / max(1, len(group))
        out[grade] = {"entries": len(group), "top": top, "unknown": unk}
        print(f"  {grade} ({meaning}) {len(group):4d} {100 * top:5.1f}% {100 * unk:5.1f}%")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lexicon", type=Path, help="build into this folder (default: a scratch folder)")
    ap.add_argument("--no-build", action="store_true", help="use the list already in --lexicon")
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--patterns", type=int, default=60, help="default 15x15 patterns to fill")
    ap.add_argument("--grids", type=Path, default=default_grids())
    ap.add_argument("--bsq-venv", type=Path, help="blacksquare's venv, reused or made and kept")
    ap.add_argument("--baseline", type=Path, help="another WORD;score list to fill with, side by side")
    ap.add_argument("--json", type=Path, help="write the fills and figures here")
    args = ap.parse_args()
    cfg = yaml.safe_load((ROOT / "config" / "config.yaml").read_text())

    with tempfile.TemporaryDirectory(prefix="xw-bench-wordlist-") as scratch:
        work = Path(scratch)
        out = args.lexicon or work / "lexicon"
        if not args.no_build:
            t0 = time.perf_counter()
            stats = build_lexicon(out, progress=lambda m: log(f"lexicon: {m}"))
            build = time.perf_counter() - t0
            print(f"Lexicon build: {build:.1f} s wall (goal under {GOALS['build']:.0f} s: "
                  f"{_met(build < GOALS['build'])}); {stats['entries']:,} entries, {stats['house_entries']:,} "
                  f"from the house list; left out: {stats['rejected']}")
        bsq = Blacksquare(args.bsq_venv.resolve() if args.bsq_venv else work / "bsq-venv", work)
        bsq.install()
        export = work / "constructors.txt"
        bsq.export_default(export)
        reference = read_wordlist(export)
        export.unlink()  # CC BY-NC-SA: measured against, never kept
        print(f"Measured against Spread the Wordlist as blacksquare {bsq.version} ships it ({len(reference):,} "
              f"entries, {sum(s >= TOP for s in reference.values()):,} in its top tier), exported for this run only")

        t0 = time.perf_counter()
        index = load_index(out / "wordlist.txt")
        print(f"Our list: {out / 'wordlist.txt'} ({time.perf_counter() - t0:.2f} s to load)")
        ours = fills(index, args.grids, args.seeds, reference)
        print_fills("xw fill, default list", ours, args.seeds)
        results = {"ours": ours}
        first = fills(index, args.grids, args.seeds, reference, first=True)
        print_fills("xw fill --first (the plain search's first fill), default list", first, args.seeds)
        results["first"] = first
        if args.baseline:
            base = fills(load_index(args.baseline), args.grids, args.seeds, reference, first=True)
            print_fills(f"baseline: {args.baseline} with the plain search (xw fill before this list)", base, args.seeds)
            results["baseline"] = base
            for name in GRIDS:
                a = statistics.median(r["seconds"] for r in ours["grids"][name])
                b = statistics.median(r["seconds"] for r in base["grids"][name])
                print(f"  {name:14s} median search ours / baseline: {a / b:.2f}")

        results["list"] = list_figures(out, reference)
        results["judged"] = judged_figures(reference)

        size, style = cfg["grid_size"], cfg["pattern_style"]
        overrides = (cfg.get("pattern_rules") or {}).get(style) or {}
        grids = generate_patterns(size, size, args.patterns, 1, style_rules(style, size, size, overrides), style=style)
        filled, times = fill_times(grids, index, FILL_SECONDS)
        share = filled / len(grids)
        print(f"Default patterns: {filled}/{len(grids)} {size}x{size} {style} filled within {FILL_SECONDS:g} s = "
              f"{100 * share:.0f}% (goal >= 95%: {_met(share >= GOALS['patterns'])}); median {times[len(times) // 2]:.3f} s, "
              f"slowest {times[-1]:.3f} s")
        if args.json:
            for f in (r for k, r in results.items() if k not in ("list", "judged")):
                f["below"] = dict(f["below"])
                f["missing"] = dict(f["missing"])
            args.json.write_text(json.dumps(results, indent=1, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
