"""Clues an editor would print: the figures of the clue issue that a script can compute.

Usage: .venv/bin/python bench/clues.py [--lexicon DIR] [--book DIR] [--sample N --review-out FILE]

1. The whole clue database (``--lexicon``, default ``outputs/lexicon``:
   its ``clues/`` shards): clue lines, answers, and the give-aways by the
   one rule (`pipeline.model.cluetext.clue_leaks`), goal 0; where each
   answer's first clue comes from (the house list and house clues, or
   generated), and how many answers have clues at both levels.
2. A printed book (``--book``, default ``outputs/puzzles``: every
   ``.ipuz`` under it): clues printed, give-aways (goal 0), clues over 60
   characters (goal 0) and the median length (goal at most 25), the
   share printed from the house list and house clues, and the share of
   hard clues (`xw clues review` gives each clue's source and level).
3. With ``--sample N``: N random printed pairs for a blind review, written
   to ``--review-out`` as ``answer<TAB>clue`` lines with no source (the
   editor grades them A/B/C with ``../shared/CLUE_STYLE.md``), and their
   sources to ``FILE.key``.

The figures that need an editor (the A/B/C shares) are not computed here.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pipeline.model.cluefile import clue_key, clue_level, is_shard_name, read_shard  # noqa: E402
from pipeline.model.cluetext import clue_leaks  # noqa: E402
from pipeline.review import house_clue_keys, review_clues  # noqa: E402

PRINTED_MAX, MEDIAN_MAX = 60, 25


def _met(ok: bool) -> str:
    return "met" if ok else "NOT met"


def _house_clues() -> set[tuple[str, str]]:
    return {(answer, key) for answer, keys in house_clue_keys().items() for key in keys}


def database(folder: Path, house: set) -> None:
    lines = answers = 0
    leaks: list[str] = []
    first = Counter()
    both = 0
    for path in sorted(p for p in (folder / "clues").iterdir() if is_shard_name(p.name)):
        for answer, texts in read_shard(path).items():
            answers += 1
            lines += len(texts)
            first["house" if (answer, clue_key(texts[0])) in house else "generated"] += 1
            both += len({clue_level(t)[0] for t in texts}) == 2
            leaks += [f"{answer}|{t}" for t in texts if clue_leaks(t, answer)]
    print(f"clue database {folder / 'clues'}: {lines:,} clue lines for {answers:,} answers")
    print(f"  give-aways by the rule: {len(leaks)} (goal 0: {_met(not leaks)})")
    for line in leaks[:10]:
        print(f"    {line}")
    print(f"  first clue from the house list or house clues: {first['house']:,} answers; generated: "
          f"{first['generated']:,}; with a straight and a hard clue: {both:,}")


def book(folder: Path, lexicon: Path, sample: int, review_out: Path | None, seed: int) -> None:
    paths = sorted(folder.rglob("*.ipuz"))
    if not paths:
        print(f"no .ipuz under {folder}")
        return
    printed = review_clues(paths, clue_dir=lexicon / "clues")  # each clue's source and level, as xw clues review
    lengths = [len(x.clue) for x in printed]
    leaks = [(x.answer, x.clue) for x in printed if clue_leaks(x.clue, x.answer)]
    long = [x for x in printed if len(x.clue) > PRINTED_MAX]
    from_house = sum(x.source == "house" for x in printed)
    hard = sum(x.level == "hard" for x in printed)
    median = statistics.median(lengths)
    print(f"printed book {folder}: {len(printed):,} clues in {len({(x.puzzle, x.slot) for x in printed}):,} slots")
    print(f"  give-aways: {len(leaks)} (goal 0: {_met(not leaks)})")
    for a, c in leaks[:10]:
        print(f"    {a}|{c}")
    print(f"  over {PRINTED_MAX} characters: {len(long)} (goal 0: {_met(not long)}); "
          f"median {median:g} characters (goal <= {MEDIAN_MAX}: {_met(median <= MEDIAN_MAX)}); "
          f"mean {statistics.mean(lengths):.1f}")
    print(f"  from the house list and house clues: {from_house / len(printed):.1%}; hard clues: "
          f"{hard / len(printed):.1%}")
    if sample:
        picked = random.Random(seed).sample(printed, min(sample, len(printed)))
        review_out.write_text("".join(f"{x.answer}\t{x.clue}\n" for x in picked))
        key = review_out.with_name(review_out.name + ".key")
        key.write_text("".join(f"{x.answer}\t{x.clue}\t{x.source}\t{x.level}\t{x.puzzle} {x.slot}\n" for x in picked))
        print(f"  {len(picked)} pairs for a blind review in {review_out} (sources in {key})")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lexicon", type=Path, default=ROOT / "outputs" / "lexicon")
    ap.add_argument("--book", type=Path, default=ROOT / "outputs" / "puzzles")
    ap.add_argument("--sample", type=int, default=0, help="random printed pairs for a blind review")
    ap.add_argument("--review-out", type=Path, default=Path("review.tsv"))
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    database(args.lexicon, _house_clues())
    book(args.book, args.lexicon, args.sample, args.review_out, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
