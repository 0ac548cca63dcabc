"""The default word list and clue database: the figures issue 5 asks for, in one run.

Usage: .venv/bin/python bench/data_report.py [--lexicon DIR] [--fill 60] [--seed 1]

1. Builds the lexicon (``xw lexicon``'s ``build_lexicon``, default
   blocklist) into ``--lexicon`` (default: a scratch folder) and times it:
   goal under 60 s on this machine.
2. Reads every clue line back and counts the entries with at least one
   *clean* clue -- printable (``check_clue``), within the print length, not
   giving its answer away (``clue_leaks``) and passing the blocklist -- by
   length: goals 1,500 three-letter, 5,000 four-letter, 8,000 five-letter
   entries; at least 80% of all entries clued and 100% of those the filler
   may use by default (score at least the config's ``min_score``).
3. Runs the leak checker (``xw clues check``'s ``check_shards``) over the
   whole database: goal 0 answers inside their own clues.
4. Generates ``--fill`` default patterns (``config/config.yaml``: 15x15,
   ``pattern_style`` and its ``pattern_rules``, at most 78 words) and fills
   each with the built list, 10 s each: goal 95% filled.

Timings on the shared 2-core machine are noisy: the build time is one
wall-clock run.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pipeline.cluedb import check_shards  # noqa: E402
from pipeline.fill import load_index  # noqa: E402
from pipeline.lexicon import MAX_CLUE_CHARS, build_lexicon  # noqa: E402
from pipeline.model.cluefile import check_clue, read_shard  # noqa: E402
from pipeline.model.cluetext import DEFAULT_BLOCKLIST, clue_leaks, load_blocklists  # noqa: E402
from pipeline.model.rules import style_rules  # noqa: E402
from pipeline.model.wordlist import read_wordlist  # noqa: E402
from pipeline.patterns import generate_patterns  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from patterns import fill_times  # noqa: E402  (bench/patterns.py)

BUILD_GOAL_S = 60.0
LENGTH_GOALS = {3: 1500, 4: 5000, 5: 8000}
CLUED_GOAL = 0.80
FILL_GOAL = 0.95
FILL_SECONDS = 10.0


def _met(ok: bool) -> str:
    return "met" if ok else "NOT met"


def clean_clued(folder: Path, words: dict[str, float]) -> set[str]:
    """Entries of ``words`` with at least one clean clue line in the shard folder."""
    blocklist = load_blocklists([DEFAULT_BLOCKLIST])
    clued = set()
    for path in sorted(folder.glob("_*.txt")):
        for answer, clues in read_shard(path).items():
            if answer in words and any(
                check_clue(c) is None
                and len(c) <= MAX_CLUE_CHARS
                and clue_leaks(c, answer) is None
                and blocklist.blocks_clue(c) is None
                for c in clues
            ):
                clued.add(answer)
    return clued


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lexicon", type=Path, help="build into this folder (default: a scratch folder)")
    ap.add_argument("--fill", type=int, default=60, help="default patterns to fill")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    cfg = yaml.safe_load((ROOT / "config" / "config.yaml").read_text())

    with tempfile.TemporaryDirectory(prefix="xw-data-report-") as scratch:
        out = args.lexicon or Path(scratch)
        t0 = time.perf_counter()
        stats = build_lexicon(out, progress=lambda m: print(f"  lexicon: {m}", file=sys.stderr, flush=True))
        build = time.perf_counter() - t0
        print(f"Lexicon build: {build:.1f} s wall (goal under {BUILD_GOAL_S:.0f} s: {_met(build < BUILD_GOAL_S)}); "
              f"{stats['entries']} entries ({stats['house_entries']} from the house list), "
              f"{stats['clue_lines']} clue lines; left out: {stats['rejected']}")

        words = read_wordlist(out / "wordlist.txt")
        clued = clean_clued(out / "clues", words)
        print("Entries with at least one clean clue, by length:")
        for n in range(3, 16):
            total = sum(1 for w in words if len(w) == n)
            have = sum(1 for w in clued if len(w) == n)
            goal = LENGTH_GOALS.get(n)
            tail = f"   goal {goal:,}: {_met(have >= goal)}" if goal else ""
            print(f"  {n:2d} letters {have:7,d} of {total:7,d}{tail}")
        share = len(clued) / len(words)
        print(f"Clued: {len(clued):,} of {len(words):,} entries = {100 * share:.1f}% "
              f"(goal {100 * CLUED_GOAL:.0f}%: {_met(share >= CLUED_GOAL)})")
        min_score = cfg.get("min_score") or 0
        usable = [w for w, s in words.items() if s >= min_score]
        usable_share = sum(1 for w in usable if w in clued) / len(usable)
        print(f"Clued among the {len(usable):,} entries the filler may use by default (score >= {min_score}): "
              f"{100 * usable_share:.2f}% (goal 100%: {_met(usable_share == 1.0)})")

        check = check_shards(out / "clues")
        print(f"Leak checker over {check['lines']:,} clue lines of {check['answers']:,} answers: "
              f"{check['leaks']} answers inside their own clues (goal 0: {_met(check['leaks'] == 0)})")

        size = cfg["grid_size"]
        style = cfg["pattern_style"]
        overrides = (cfg.get("pattern_rules") or {}).get(style) or {}
        rules = style_rules(style, size, size, overrides)
        grids = generate_patterns(size, size, args.fill, args.seed, rules, style=style)
        index = load_index(out / "wordlist.txt")
        filled, times = fill_times(grids, index, FILL_SECONDS)
        fill_share = filled / len(grids)
        print(f"Fill: {filled}/{len(grids)} default {size}x{size} {style} patterns ({overrides}) filled within "
              f"{FILL_SECONDS:g} s = {100 * fill_share:.0f}% (goal {100 * FILL_GOAL:.0f}%: "
              f"{_met(fill_share >= FILL_GOAL)}); median {times[len(times) // 2]:.3f} s, slowest {times[-1]:.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
