"""The score scale checked against hand judgments: where does "fine in a daily paper" start?

Usage: .venv/bin/python bench/calibrate.py sample [--lexicon DIR] [--per-band 90] [--seed 1] > sheet.txt
       .venv/bin/python bench/calibrate.py fit [--lexicon DIR] [--judged FILE]

Where the scale puts 50 (`pipeline.lexicon.scoring.points`) and how it
scores inflections are judgments, and this script checks them: people
judge a sample of entries as a crossword editor would, blind to our
scores, and the fit shows where the judgments change from "corner" to
"fine" against where our 50 is.  (The first fit, of the 2026-11-23 list,
showed plurals and verb forms scored 9-17 points below where the judges
put them: hence `BASE_LIFT`.)

``sample`` draws a judging sheet from a built lexicon (``grades.tsv``):
the one-word entries of 3 to 8 letters scored from the signals (readings
``word``, ``inflection``, ``name``, ``blank``; the house list is judged
already), ``--per-band`` of them from each five-point band from 25 to 64,
shuffled, one answer a line, with no score.  Judges write ``F`` (a
Monday-Wednesday daily paper prints it and most solvers know it), ``C``
(real, but a constructor uses it only when a corner needs it) or ``A``
(avoid) after each answer.

``fit`` reads the judged sheet (default ``pipeline/data/calibration.tsv``)
against the lexicon's present scores and prints, by reading kind and by
length, how often "scored 50+" agrees with "judged F", then the shift of
the 50-point line (in points) that would agree best.  It is a script, not
a test; ``tests/test_lexicon.py`` holds the scores to the judgments.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pipeline.lexicon.store import default_lexicon  # noqa: E402
from pipeline.lexicon.view import CALIBRATION, agreement, read_grades, read_judgments  # noqa: E402

KINDS = ("word", "inflection", "name", "blank")


def grades(lexicon: Path) -> dict[str, tuple[int, str]]:
    """``grades.tsv`` as answer -> (score, reading kind), the entries kept."""
    return {a: (int(score), kind) for a, (score, kind, _) in read_grades(lexicon / "grades.tsv").items()
            if score != "-"}  # fmt: skip


def sample(lexicon: Path, per_band: int, seed: int) -> list[str]:
    bands = defaultdict(list)
    for answer, (score, kind) in sorted(grades(lexicon).items()):
        if kind in KINDS and 3 <= len(answer) <= 8 and 25 <= score < 65:
            bands[score // 5].append(answer)
    rng = random.Random(seed)
    out = [a for b in sorted(bands) for a in rng.sample(bands[b], min(per_band, len(bands[b])))]
    rng.shuffle(out)
    return out


def fit(lexicon: Path, judged_path: Path) -> None:
    g = grades(lexicon)
    judged = read_judgments(judged_path)
    pairs = defaultdict(list)
    missing = 0
    for answer, j in judged.items():
        if answer not in g:
            missing += 1
            continue
        score, kind = g[answer]
        pairs["all"].append((score, j))
        pairs[f"kind {kind}"].append((score, j))
        pairs[f"{min(len(answer), 7)}{'+' if len(answer) >= 7 else ''} letters"].append((score, j))
    print(f"{len(judged)} judged answers ({missing} no longer in the list), "
          f"{sum(j == 'F' for j in judged.values())} judged F")
    print(f"{'group':16s} {'n':>5s} {'F':>5s} {'agree':>6s}  best shift (agree)   F share by score band 25..60")
    for name in sorted(pairs, key=lambda k: (k != "all", k)):
        p = pairs[name]
        best = max(range(-15, 16), key=lambda d: (agreement(p, d), -abs(d)))
        by_band = []
        for lo in range(25, 65, 5):
            band = [j for s, j in p if lo <= s < lo + 5]
            by_band.append(f"{100 * sum(j == 'F' for j in band) / len(band):3.0f}" if band else "  -")
        print(f"{name:16s} {len(p):5d} {sum(j == 'F' for _, j in p):5d} {100 * agreement(p):5.1f}%  "
              f"{best:+3d} ({100 * agreement(p, best):5.1f}%)        {' '.join(by_band)}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("command", choices=("sample", "fit"))
    ap.add_argument("--lexicon", type=Path, default=None, help="a built lexicon (default: xw's own)")
    ap.add_argument("--per-band", type=int, default=90)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--judged", type=Path, default=CALIBRATION)
    args = ap.parse_args(argv)
    lexicon = args.lexicon or default_lexicon().parent
    if args.command == "sample":
        print("\n".join(sample(lexicon, args.per_band, args.seed)))
    else:
        fit(lexicon, args.judged)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
