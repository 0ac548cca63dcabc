"""Themed candidates: how many theme-set attempts make a candidate that fills, and how fast.

Usage: .venv/bin/python bench/themes.py [--sizes 15,13,11] [--seeds 1,2] [--limit 40]
       [--wordlist outputs/lexicon/wordlist.txt] [--clues outputs/lexicon/clues]

An *attempt* is one theme set of the run's enumeration (``xw theme``'s,
:func:`pipeline.theme.enumerate_sets`: the hand-written sets first, then
WordNet's) through
:func:`pipeline.theme.attempt_set`: up to 4 layouts, 3 patterns each, with
the theme slots locked, each filled with theme letters given until one
fills (3,000 words tried a pattern, as ``xw theme`` by default).  Finding
the sets (WordNet groups, once a run) is shared out over the attempts.
For every size and seed it prints:

* the attempts that made a candidate, and those within 30 s (goal: 90%);
* time per attempt: mean, median, slowest;
* every candidate checked: its theme entries fill symmetric slots (each
  slot's 180-degree image is a theme slot of the same length), every other
  slot is shorter than the shortest theme entry, the pattern obeys the
  style's other rules, and the fill that proved it is complete.

All in this process, on one core; timings on the shared 2-core machine are noisy.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pipeline.fill.index import default_cache_dir  # noqa: E402
from pipeline.model.cluetext import load_blocklists  # noqa: E402
from pipeline.model.rules import rule_violations, style_rules  # noqa: E402
from pipeline.model.seeds import derive_seed  # noqa: E402
from pipeline.theme import attempt_set, enumerate_sets, load_inputs, theme_problems  # noqa: E402

GOAL_SECONDS = 30.0


def _check(candidate, fill, rows, cols) -> list[str]:
    """What is wrong with a candidate (empty: nothing)."""
    out = theme_problems(candidate.grid, candidate.entries)
    rules = style_rules("american", rows, cols)
    out += [v for v in rule_violations(candidate.grid, rules) if "max_slot_length" not in v]
    if fill is None or not fill.is_complete():
        out.append("the fill that proved it is not complete")
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", default="15,13,11")
    p.add_argument("--seeds", default="1,2")
    p.add_argument("--limit", type=int, default=40, help="attempts per size and seed, at most")
    p.add_argument("--wordlist", type=Path, default=ROOT / "outputs" / "lexicon" / "wordlist.txt")
    p.add_argument("--clues", type=Path, default=ROOT / "outputs" / "lexicon" / "clues")
    p.add_argument("--show", type=int, default=15, help="theme sets to print (the first of each run)")
    args = p.parse_args(argv)

    t0 = time.perf_counter()
    source, index = load_inputs(args.wordlist, args.clues, load_blocklists(["default"]), cache_dir=default_cache_dir())
    load = time.perf_counter() - t0
    t0 = time.perf_counter()
    groups = source.groups()
    hand = source.hand_groups()
    find = time.perf_counter() - t0
    print(f"inputs loaded in {load:.1f} s (word index, clues, WordNet); {len(groups)} theme groups and {len(hand)} "
          f"hand-written sets in {find:.1f} s")
    total_ok = total = 0
    bad_total = 0
    hand_ok = hand_total = 0
    shown = []
    for size in (int(s) for s in args.sizes.split(",")):
        for seed in (int(s) for s in args.seeds.split(",")):
            t0 = time.perf_counter()
            sets = enumerate_sets(groups, size, size, seed, first=hand)[: args.limit]
            share = (time.perf_counter() - t0 + find) / max(1, len(sets))
            rules = style_rules("american", size, size)
            times, ok, in_time, bad = [], 0, 0, 0
            for tset in sets:
                a = attempt_set(tset, size, size, rules, index, derive_seed(seed, "theme", tset.key))
                seconds = a.seconds + share
                times.append(seconds)
                hand_total += tset.key.startswith("hand:")
                if a.candidate is None:
                    continue
                hand_ok += tset.key.startswith("hand:")
                ok += 1
                in_time += seconds <= GOAL_SECONDS
                problems = _check(a.candidate, a.fill, size, size)
                if problems:
                    bad += 1
                    print(f"  BAD {a.candidate.title}: {'; '.join(problems[:3])}")
                if len(shown) < args.show and size == 15:
                    shown.append(a.candidate)
            total += len(sets)
            total_ok += in_time
            bad_total += bad
            if times:
                print(f"{size}x{size} seed {seed}: {len(sets)} attempts, {ok} made a candidate, {in_time} within "
                      f"{GOAL_SECONDS:.0f} s ({100 * in_time / len(sets):.0f}%); per attempt mean "
                      f"{statistics.mean(times):.2f} s, median {statistics.median(times):.2f} s, slowest "
                      f"{max(times):.2f} s; {ok - bad}/{ok} candidates pass every check")  # fmt: skip
            else:
                print(f"{size}x{size} seed {seed}: no theme sets")
    print(f"all: {total_ok}/{total} attempts made a candidate within {GOAL_SECONDS:.0f} s "
          f"({100 * total_ok / max(1, total):.0f}%, goal 90%); {bad_total} candidates failed a check")  # fmt: skip
    for c in shown:
        print(f"  {c.title:22s} {c.kind:18s} {', '.join(c.entries)}")
    print(f"{hand_ok}/{hand_total} attempts on hand-written sets made a candidate")
    return 0 if bad_total == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
