"""Pattern generation: rates, pass rates, diversity and fillability, in one run.

Usage: .venv/bin/python bench/patterns.py [--count 400] [--fill 40] [--seed 1]
       [--symmetry rotational] [--wordlist outputs/lexicon/wordlist.txt]

With the defaults of ``config/config.yaml`` (15x15, blacks, slot lengths,
word bounds), it generates ``--count`` patterns in this process (one core),
then reports:

* raw patterns a second (the generator alone);
* how many are connected (networkx) and how many pass the default filter,
  and those per second of generation -- the figure issue 4 sets at 1,000;
* the batch's diversity (mean share of cells that differ between two
  patterns) and that the batch has no two alike under symmetry;
* of the first ``--fill`` passing patterns, how many the filler fills
  within 10 s with the default word list (goal: 95%).

The default word list is built with ``xw lexicon`` when it is missing (as
``bench/fill.py`` does).  Timings on the shared 2-core machine are noisy.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pipeline.connectivity import is_connected  # noqa: E402
from pipeline.fill import FILLED, Filler, load_index  # noqa: E402
from pipeline.filter import check_pattern, pattern_stats  # noqa: E402
from pipeline.model.symmetry import canonical, diversity  # noqa: E402
from pipeline.patterns import generate_patterns  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fill import DEFAULT_COUNT_LIST, count_wordlist  # noqa: E402  (bench/fill.py: builds our list if missing)

RATE_GOAL = 1000  # passing 15x15 patterns a second, one core
FILL_GOAL = 0.95  # share of default patterns filled within 10 s


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=400, help="patterns to generate")
    ap.add_argument("--fill", type=int, default=40, help="passing patterns to try to fill")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--symmetry", default=None, help="default: the config's")
    ap.add_argument("--wordlist", type=Path, default=DEFAULT_COUNT_LIST, help="WORD;score list (default: ours)")
    args = ap.parse_args()
    cfg = yaml.safe_load((ROOT / "config" / "config.yaml").read_text())
    size = cfg["grid_size"]
    symmetry = args.symmetry or cfg.get("symmetry", "rotational")

    t0, c0 = time.perf_counter(), time.process_time()
    grids = generate_patterns(
        size, size, args.count, args.seed, max_blacks=cfg["max_blacks"], min_blacks=cfg["min_blacks"],
        max_slot_length=cfg["max_slot_length"], symmetry=symmetry,
    )
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    connected = [g for g in grids if is_connected(g)]
    bounds = [(k, v.get("min"), v.get("max")) for k, v in (cfg.get("pattern_bounds") or {}).items()]
    passing = [
        g for g in connected
        if not check_pattern(pattern_stats(g), max_words=cfg["max_words"], min_words=cfg["min_words"],
                             max_blacks=cfg["max_blacks"], bounds=bounds)
    ]
    distinct = len({canonical(g) for g in grids}) == len(grids)

    wordlist, note = count_wordlist(args.wordlist)
    if wordlist is None:
        raise SystemExit(f"bench/patterns.py: {note}")
    index = load_index(wordlist)
    tried = passing[: args.fill]
    filled = 0
    for k, g in enumerate(tried):
        r = Filler(g, index, seed=k).fill(timeout=10.0)
        filled += r.status == FILLED

    rate_raw = len(grids) / cpu
    rate_pass = len(passing) / cpu
    print(f"Patterns: {size}x{size}, {symmetry} symmetry, config bounds, seed {args.seed}, one core")
    print(f"  generated      {len(grids):6d} in {cpu:.2f} CPU s ({wall:.2f} s wall): {rate_raw:8.1f} a second")
    print(f"  connected      {len(connected):6d} ({100 * len(connected) / max(1, len(grids)):.0f}%)")
    print(f"  pass filter    {len(passing):6d} ({100 * len(passing) / max(1, len(grids)):.0f}%): "
          f"{rate_pass:8.1f} a second (goal {RATE_GOAL}: {'met' if rate_pass >= RATE_GOAL else 'NOT met'})")
    print(f"  diversity      {diversity(grids):.3f} (mean share of cells that differ between two patterns)")
    print(f"  none alike under symmetry: {'yes' if distinct else 'NO'}")
    share = filled / len(tried) if tried else 0.0
    print(f"  filled in 10 s {filled}/{len(tried)} ({100 * share:.0f}%, goal {100 * FILL_GOAL:.0f}%: "
          f"{'met' if share >= FILL_GOAL else 'NOT met'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
