"""Pattern generation: rates, pass rates, diversity and fillability, in one run.

Usage: .venv/bin/python bench/patterns.py [--count 5000] [--british 1000] [--fill 40]
       [--seed 1] [--stock-seconds 10] [--wordlist outputs/lexicon/wordlist.txt]

All in this process, on one core (CPU seconds), with the rules of
``config/config.yaml``:

* American 15x15 (``pattern_style: american`` and its ``pattern_rules``):
  ``--count`` patterns from the generator, then the default filter as the
  pipeline applies it (networkx connectivity, every rule of the style, the
  config's ``pattern_bounds``): distinct valid patterns a second -- issue 4
  asks for 1,000 -- with and without the time of the filter itself;
* the same python-constraint Problem solved by python-constraint's stock
  ``BacktrackingSolver`` for ``--stock-seconds``, as the baseline measured
  in the same run (it yields its enumeration order: distinct, but
  neighbours);
* British 15x15 with the seed's rules and The Times's (``--british``
  patterns): distinct valid a second, goal 100;
* each batch's diversity (mean share of cells that differ between two
  patterns) and that no two are alike under symmetry;
* of the first ``--fill`` valid American patterns, how many the filler
  fills within 10 s with the default word list (goal: 95%).

The default word list is built with ``xw lexicon`` when it is missing (as
``bench/fill.py`` does).  Timings on the shared 2-core machine are noisy;
compare the ratios of one run.
"""

from __future__ import annotations

import argparse
import signal
import sys
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from constraint import BacktrackingSolver  # noqa: E402

from pipeline.fill import FILLED, Filler, load_index  # noqa: E402
from pipeline.filter import check_pattern, pattern_stats  # noqa: E402
from pipeline.model.graph import is_connected  # noqa: E402
from pipeline.model.grid import Grid  # noqa: E402
from pipeline.model.rules import rule_violations, style_rules  # noqa: E402
from pipeline.model.symmetry import canonical, diversity  # noqa: E402
from pipeline.patterns import build_problem, generate_patterns  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fill import DEFAULT_COUNT_LIST, count_wordlist  # noqa: E402  (bench/fill.py: builds our list if missing)

RATE_GOAL = 1000  # distinct valid American 15x15 a second, one core
BRITISH_GOAL = 100  # distinct valid British 15x15 a second
FILL_GOAL = 0.95  # share of default patterns filled within 10 s


def _met(ok: bool) -> str:
    return "met" if ok else "NOT met"


def _passes(grid, rules, bounds) -> bool:
    """The pipeline's stages 2-3 on one pattern: networkx connectivity, the style's rules, the bounds."""
    if rules.connected and not is_connected(grid):
        return False
    if rule_violations(grid, rules, limit=1):
        return False
    return not check_pattern(pattern_stats(grid), max_words=None, max_blacks=None, bounds=bounds)


def fill_times(grids, index, seconds: float) -> tuple[int, list[float]]:
    """Fill each grid within ``seconds`` (seed: its position): how many filled, and every fill's time, sorted."""
    filled, times = 0, []
    for k, grid in enumerate(grids):
        result = Filler(grid, index, seed=k).fill(timeout=seconds)
        filled += result.status == FILLED
        times.append(result.seconds)
    return filled, sorted(times)


def _batch(label, grids, cpu, rules, bounds, goal):
    t0 = time.process_time()
    valid = [g for g in grids if _passes(g, rules, bounds)]
    check = time.process_time() - t0
    distinct = len({canonical(g) for g in valid}) == len(valid)
    print(f"{label}")
    print(f"  generated          {len(grids):6d} in {cpu:.2f} CPU s: {len(grids) / cpu:8.0f} a second")
    print(f"  pass the filter    {len(valid):6d} ({100 * len(valid) / max(1, len(grids)):.0f}%): "
          f"{len(valid) / cpu:8.0f} a second (goal {goal}: {_met(len(valid) / cpu >= goal)}); "
          f"{len(valid) / (cpu + check):.0f} a second counting the filter's own {check:.2f} s")
    print(f"  diversity          {diversity(valid):.3f} (mean share of cells that differ between two)")
    print(f"  none alike under symmetry: {'yes' if distinct else 'NO'}")
    return valid


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=5000, help="American patterns to generate")
    ap.add_argument("--british", type=int, default=1000, help="British patterns to generate")
    ap.add_argument("--fill", type=int, default=40, help="valid American patterns to try to fill")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--stock-seconds", type=float, default=10.0, help="time for python-constraint's own solver")
    ap.add_argument("--wordlist", type=Path, default=DEFAULT_COUNT_LIST, help="WORD;score list (default: ours)")
    args = ap.parse_args()
    cfg = yaml.safe_load((ROOT / "config" / "config.yaml").read_text())
    size = cfg["grid_size"]
    bounds = [(k, v.get("min"), v.get("max")) for k, v in (cfg.get("pattern_bounds") or {}).items()]
    am_overrides = (cfg.get("pattern_rules") or {}).get("american") or {}
    american = style_rules("american", size, size, am_overrides)
    british = style_rules("british", size, size, (cfg.get("pattern_rules") or {}).get("british") or {})
    print(f"Patterns {size}x{size}, seed {args.seed}, one core; American rules: {am_overrides}")

    c0 = time.process_time()
    grids = generate_patterns(size, size, args.count, args.seed, american, style="american")
    cpu = time.process_time() - c0
    valid = _batch("American (config rules)", grids, cpu, american, bounds, RATE_GOAL)
    ours_rate = len(valid) / cpu

    model = build_problem(size, size, american)
    model.problem.setSolver(BacktrackingSolver())
    stock, c0 = [], time.process_time()

    def _stop(signum, frame):
        raise TimeoutError

    # The stock solver may spend longer than that on one solution: a CPU-time alarm ends it.
    signal.signal(signal.SIGPROF, _stop)
    signal.setitimer(signal.ITIMER_PROF, args.stock_seconds)
    try:
        for s in model.problem.getSolutionIter():
            stock.append(Grid(size, size, ("#" if s[v] else "." for v in model.cell_vars)))
    except TimeoutError:
        pass
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
    stock_cpu = time.process_time() - c0
    stock_rate = len(stock) / stock_cpu
    ratio = f"{ours_rate / stock_rate:.0f}x" if stock_rate else f"more than {ours_rate * stock_cpu:.0f}x (stock: none)"
    print(f"python-constraint BacktrackingSolver, same Problem: {len(stock)} in {stock_cpu:.1f} CPU s = "
          f"{stock_rate:.1f} a second, diversity {diversity(stock):.3f}; ours / stock = {ratio}")

    c0 = time.process_time()
    brit = generate_patterns(size, size, args.british, args.seed, british, style="british")
    cpu = time.process_time() - c0
    _batch(f"British (seed 000's rules + The Times's, {british.symmetry} symmetry)", brit, cpu, british, [],
           BRITISH_GOAL)

    wordlist, note = count_wordlist(args.wordlist)
    if wordlist is None:
        raise SystemExit(f"bench/patterns.py: {note}")
    index = load_index(wordlist)
    tried = valid[: args.fill]
    filled, times = fill_times(tried, index, 10.0)
    share = filled / len(tried) if tried else 0.0
    print(f"Fill: {filled}/{len(tried)} valid American patterns filled within 10 s ({100 * share:.0f}%, goal "
          f"{100 * FILL_GOAL:.0f}%: {_met(share >= FILL_GOAL)}); median {times[len(times) // 2]:.3f} s, "
          f"slowest {times[-1]:.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
