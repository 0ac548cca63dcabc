"""``xw`` commands of stages 0-4: the word list and clues, patterns, themes, connectivity, filter, encode.

Each parses nothing (`pipeline.cli` does), calls its stage and returns an exit code; each imports
what it runs, so one command loads only its own stage.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from .cliutil import (EXIT_FAILED, EXIT_OK, InputError, blocklist_of,
                      progress_printer, wordlist_path)  # fmt: skip


# -- stage 0 ------------------------------------------------------------------
def cmd_lexicon(args) -> int:
    from .lexicon import build_lexicon
    from .lexicon.store import default_lexicon_dir

    options = {} if args.min_zipf is None else {"min_zipf": args.min_zipf}
    stats = build_lexicon(
        args.out or default_lexicon_dir(),
        wordnet_dir=args.wordnet,
        scowl_dir=args.scowl,
        house_dir=args.house,
        min_length=args.min_length,
        max_length=args.max_length,
        blocklist=blocklist_of(args),
        progress=progress_printer(args.quiet),
        **options,
    )
    print(json.dumps(stats, sort_keys=True))
    return EXIT_OK


def cmd_wordlist_stats(args) -> int:
    from .lexicon.view import stats, stats_table
    from .model.wordlist import read_wordlist

    words = read_wordlist(wordlist_path(args))
    print(json.dumps(stats(words), sort_keys=True) if args.json else stats_table(words))
    return EXIT_OK


def cmd_wordlist_grade(args) -> int:
    from .lexicon.view import grade_lines
    from .model.wordlist import read_wordlist

    path = wordlist_path(args)
    words = read_wordlist(path)
    grades = path.parent / "grades.tsv" if args.wordlist is None or (path.parent / "grades.tsv").is_file() else None
    for line in grade_lines(args.words, words, grades):
        print(line)
    return EXIT_OK


def cmd_clues_shard(args) -> int:
    from .cluedb import build_shards

    stats = build_shards(
        args.inputs,
        args.out,
        fmt=args.format,
        min_length=args.min_length,
        max_clues=args.max_clues,
        wordlist=args.wordlist,
        blocklist=blocklist_of(args),
        add=args.add,
        skip_bad=args.skip_bad,
        progress=progress_printer(args.quiet),
    )
    for problem in stats.pop("bad"):
        print(f"xw: clues shard: skipped {problem}", file=sys.stderr)
    if stats["bad_lines"] > 10:
        print(f"xw: clues shard: ... and {stats['bad_lines'] - 10} more bad lines skipped", file=sys.stderr)
    print(json.dumps(stats, sort_keys=True))
    return EXIT_OK


def cmd_clues_check(args) -> int:
    from .cluedb import check_shards

    stats = check_shards(args.folder, wordlist=args.wordlist, on_leak=print)
    print(json.dumps(stats, sort_keys=True))
    return EXIT_FAILED if stats["leaks"] else EXIT_OK


def cmd_clues_review(args) -> int:
    from collections import Counter

    from .review import review_clues

    clue_dir = args.clues
    if clue_dir is None and Path("outputs/lexicon/clues").is_dir():
        clue_dir = Path("outputs/lexicon/clues")  # the pipeline's own, run from the project folder
    lines = review_clues(args.targets, clue_dir=clue_dir, clue_file=args.clue_file, house_dir=args.house,
                         sample=args.sample, seed=args.seed, long_chars=args.long)  # fmt: skip
    shown = [line for line in lines if line.flags] if args.flagged else lines
    print("# puzzle\tslot\tANSWER|clue (clue_file form)\tsource\tlevel\tflags")
    for line in shown:
        print(line)
    sources = Counter(line.source for line in lines)
    flags = Counter(flag for line in lines for flag in line.flags)
    levels = Counter(line.level for line in lines)
    print(json.dumps({"clues": len(lines), "shown": len(shown), "sources": dict(sorted(sources.items())),
                      "levels": dict(sorted(levels.items())), "flags": dict(sorted(flags.items()))}),
          file=sys.stderr)  # fmt: skip
    return EXIT_OK


def cmd_wordlist_merge(args) -> int:
    from .cluedb import merge_wordlists

    stats = merge_wordlists(args.lists, args.out, prefer=args.prefer, blocklist=blocklist_of(args))
    print(json.dumps(stats, sort_keys=True))
    return EXIT_OK


# -- stages 1-4 ---------------------------------------------------------------
def cmd_patterns(args) -> int:
    from .model.hexcodec import encode_grid
    from .model.rules import parse_rule_option, style_rules
    from .model.seeds import derive_seed
    from .patterns import generate_patterns, parse_lock, write_patterns

    rows = args.rows or args.size
    cols = args.cols or args.size
    if not rows or not cols:
        raise InputError("give --size N, or --rows R and --cols C")
    overrides = dict(parse_rule_option(r) for r in args.rule)
    for name in ("max_blacks", "min_blacks", "max_slot_length", "symmetry"):
        if getattr(args, name) is not None:
            overrides[name] = getattr(args, name)
    rules = style_rules(args.style, rows, cols, overrides, where="--rule")
    seed = args.seed if args.shard is None else derive_seed(args.seed, "patterns", args.shard)
    locked = [parse_lock(t) for t in args.lock]
    # --at-most: a small grid has few patterns; as many as there are, up to --count
    grids = generate_patterns(rows, cols, args.count, seed, rules, style=args.style, progress=progress_printer(args.quiet),
                              locked=locked, at_most=args.at_most)  # fmt: skip
    if args.out:
        write_patterns(args.out, grids)
    else:
        for g in grids:
            print(encode_grid(g))
    _say_diversity("patterns", grids, args.quiet)
    return EXIT_OK


def cmd_theme(args) -> int:
    from .fill.index import default_cache_dir
    from .model.rules import parse_rule_option
    from .theme import run_theme

    overrides = dict(parse_rule_option(r) for r in args.rule)
    cache = None if args.no_cache else args.cache or default_cache_dir()
    candidates = run_theme(
        args.out, args.rows, args.cols, args.count, args.seed, wordlist=wordlist_path(args), clue_dir=args.clues,
        blocklist=blocklist_of(args), part=args.part, parts=args.parts, style=args.style, min_score=args.min_score,
        fill_min_score=args.fill_min_score, max_nodes=args.max_nodes, cache_dir=cache, wordnet_dir=args.wordnet,
        overrides=overrides, progress=progress_printer(args.quiet),
    )  # fmt: skip
    if not args.quiet:
        print(f"xw: theme: wrote {len(candidates)} themed candidates to {args.out}", file=sys.stderr)
    return EXIT_OK


def _say_diversity(stage: str, grids, quiet: bool) -> None:
    from .model.symmetry import diversity

    if not quiet:
        print(
            f"xw: {stage}: {len(grids)} patterns, none alike under symmetry; diversity "
            f"{diversity(grids):.3f} (mean share of cells that differ between two)",
            file=sys.stderr,
        )


def cmd_connectivity(args) -> int:
    from .connectivity import keep_connected
    from .model.rules import parse_rule_option

    overrides = dict(parse_rule_option(r) for r in args.rule)
    result = keep_connected(args.input, args.out, args.style, overrides, report=args.report, where="--rule")
    print(f"xw: connectivity: kept {result.kept}, dropped {result.dropped}", file=sys.stderr)
    for lineno, _, reason in result.reasons[:10]:
        print(f"xw: connectivity: {args.input}:{lineno}: {reason}", file=sys.stderr)
    if len(result.reasons) > 10:
        print(f"xw: connectivity: ... and {len(result.reasons) - 10} more", file=sys.stderr)
    return EXIT_OK


def cmd_filter(args) -> int:
    from .filter import filter_patterns, parse_bound
    from .model.rules import parse_rule_option

    bounds = [parse_bound(b) for b in args.bound]
    overrides = dict(parse_rule_option(r) for r in args.rule)
    kept, dropped = filter_patterns(
        # Without a style, the American 15x15 limits as before; with one, its rules decide.
        args.input, args.out, args.stats,
        max_words=args.max_words if args.max_words is not None else None if args.style else 78,
        max_blacks=args.max_blacks if args.max_blacks is not None else None if args.style else 40,
        min_words=args.min_words, bounds=bounds, style=args.style, overrides=overrides,
        wordlist=args.wordlist, where="--rule",
    )
    print(f"xw: filter: kept {kept}, dropped {dropped}", file=sys.stderr)
    return EXIT_OK


def cmd_encode(args) -> int:
    from .encode import encode_patterns, merge_stats
    from .model.hexcodec import read_pattern_file

    if bool(args.stats) != bool(args.stats_out):
        raise InputError("--stats and --stats-out go together")
    n = encode_patterns(args.inputs, args.out, limit=args.limit)
    print(f"xw: encode: wrote {n} patterns to {args.out}", file=sys.stderr)
    _say_diversity("encode", [g for _, _, g in read_pattern_file(args.out)], False)
    if args.stats:
        rows = merge_stats(args.stats, args.stats_out)
        print(f"xw: encode: merged {rows} stats rows into {args.stats_out}", file=sys.stderr)
    return EXIT_OK


def cmd_hex(args) -> int:
    from .encode import decode_lines, encode_lines

    from .model.errors import numbered_lines

    lines = [line for _, line in numbered_lines(sys.stdin.read())]
    out = encode_lines(lines) if args.direction == "encode" else decode_lines(lines)
    for line in out:
        print(line)
    return EXIT_OK
