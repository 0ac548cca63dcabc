"""``xw`` commands of stages 5-7: fill, count, fill a book, clue, render, summary, preview, export.

Each parses nothing (`pipeline.cli` does), calls its stage and returns an exit code; each imports
what it runs, so one command loads only its own stage.
"""

from __future__ import annotations

import json
import sys

from .cliutil import (EXIT_OK, EXIT_TIMEOUT, EXIT_UNFILLABLE, InputError, StageFailed, blocklist_of,
                      progress_printer, wordlist_path)  # fmt: skip


# -- stage 5 ------------------------------------------------------------------
def cmd_fill(args) -> int:
    import time

    from .fill import FILLED, UNFILLABLE, Filler, load_index
    from .fill.index import default_cache_dir
    from .model.fileio import read_text
    from .model.grid import parse_grid

    text = read_text(args.grid)
    grid = parse_grid(text, args.grid, fillable=True)
    _check_style(grid, text, args)
    wordlist = wordlist_path(args)
    t0 = time.perf_counter()
    cache = None if args.no_cache else args.cache or default_cache_dir()
    index = load_index(wordlist, cache_dir=cache, progress=progress_printer(args.quiet))
    load_seconds = time.perf_counter() - t0
    if args.strategy == "constraint" or args.distinct_letters:
        result = _fill_other(grid, index, args)
    elif args.best:
        from .fill.quality import fill_best

        result = fill_best(
            grid, index, seed=args.seed, timeout=args.timeout, max_nodes=args.max_nodes,
            min_score=args.min_score, progress=progress_printer(args.quiet or args.json),
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


def cmd_count(args) -> int:
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
    index = load_index(wordlist_path(args), cache_dir=args.cache)
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
        n = count_fills(grid, index, progress=progress_printer(args.quiet), **rules)
    seconds = time.perf_counter() - start
    if not args.quiet:
        rate = f", {n / seconds:,.0f} a second" if seconds > 0 else ""
        print(f"xw: count: {n} fills in {seconds:.3f} s{rate} ({args.strategy})", file=sys.stderr)
    print(n)
    return EXIT_OK


def _book_sections(args, puzzles: int | None):
    """fill-book's ``--candidates``, ``--counts`` and ``--difficulty`` as `fill_book`'s sections and levels."""
    from .model.sections import book_levels

    files = args.candidates
    if puzzles is None and args.counts is None and len(files) == 1:
        return files[0], None  # --batch without --puzzles: the batch's own check says what is missing
    counts = args.counts if args.counts is not None else ([puzzles] if len(files) == 1 else None)
    if counts is None or len(counts) != len(files):
        raise InputError(f"{len(files)} --candidates files: give --counts with one number of puzzles for each")
    if any(c < 1 for c in counts):
        raise InputError("--counts: each section has 1 puzzle or more")
    levels = None if args.difficulty is None else book_levels(args.difficulty, counts)
    sections = list(zip(files, counts)) if len(files) > 1 or args.counts is not None else files[0]
    return sections, levels


def cmd_fill_book(args) -> int:
    from .fill.batch import FillShortfall, fill_batch, fill_book, merge_batches

    options = {
        "timeout": args.timeout,
        "max_nodes": args.max_nodes,
        "improve_nodes": args.improve_nodes,
        "min_score": args.min_score,
        "cache_dir": args.cache,
        "clue_dir": args.clues,
        "clue_file": args.clue_file,
        "blocklist": blocklist_of(args),
        "progress": progress_printer(args.quiet),
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
    from .model.sections import book_levels, parse_difficulty

    if args.counts is None:
        ends = [parse_difficulty(d) for d in args.difficulty]
        if len(ends) != 1 or ends[0][0] != ends[0][1]:
            raise InputError("--difficulty: one level for all the puzzles, or one a section with --counts")
        if args.section_titles:
            raise InputError("--section-titles: give --counts too (each section's puzzles)")
        return ends[0][0], None
    if sum(args.counts) != len(args.fills) or any(c < 1 for c in args.counts):
        raise InputError(f"--counts add up to {sum(args.counts)}, not the {len(args.fills)} filled grids")
    titles = args.section_titles or [""] * len(args.counts)
    if len(titles) != len(args.counts):
        raise InputError("--section-titles: one for each of --counts")
    levels = book_levels(args.difficulty, args.counts)
    return levels, [t for t, c in zip(titles, args.counts) for _ in range(c)]


def cmd_clue(args) -> int:
    from .clue import clue_book

    if len(args.fills) != len(args.out):
        raise InputError(f"{len(args.fills)} filled grids but {len(args.out)} --out paths")
    difficulty, sections = _clue_sections(args)
    from .model.themes import read_themes

    themes = [theme for path in args.themes for theme in read_themes(path)]
    stats = clue_book(
        args.fills,
        args.clues,
        args.out,
        title=args.title,
        author=args.author,
        copyright=args.copyright,
        clue_file=args.clue_file,
        blocklist=blocklist_of(args),
        max_answer_repeats=args.max_answer_repeats,
        missing=args.missing_clues,
        missing_path=args.missing_list,
        prefer_chars=args.prefer_chars,
        difficulty=difficulty,
        cache_dir=args.cache,
        progress=progress_printer(args.quiet),
        sections=sections,
        themes=themes,
        report_path=args.report,
    )
    print(json.dumps(stats, sort_keys=True))
    return EXIT_OK


# -- stage 7 ------------------------------------------------------------------
def cmd_render(args) -> int:
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

        stats = render_pdf(book, args.out, progress=progress_printer(args.quiet))
    else:
        from .render.latex import RenderError, render_latex

        try:
            stats = render_latex(book, args.out, template_dir=args.templates, progress=progress_printer(args.quiet))
        except RenderError as e:
            raise StageFailed(str(e)) from None
    line = json.dumps(stats, sort_keys=True, default=str)
    if args.stats:
        from .model.fileio import write_text

        write_text(args.stats, line + "\n")
    print(line)
    return EXIT_OK


def cmd_summary(args) -> int:
    from .summary import summarize_book

    renders = {}
    for item in args.render:
        name, sep, path = item.partition("=")
        if not sep or not name or not path:
            raise InputError(f"--render wants NAME=FILE.json, not {item!r}")
        renders[name] = path
    stats = summarize_book(args.fill_report, args.pattern_stats, renders, args.out, html_path=args.html, book=args.book,
                           clue_report=args.clue_report)  # fmt: skip
    print(json.dumps(stats, sort_keys=True))
    return EXIT_OK


def cmd_check_config(args) -> int:
    from .config import load_config

    config = load_config(args.configfile, args.config, base=args.base, schema_path=args.schema)
    print(json.dumps(config, sort_keys=True))
    return EXIT_OK


def cmd_preview(args) -> int:
    from .render.preview import render_previews

    stats = render_previews(args.pdf, args.out, first_page=args.first_page, dpi=args.dpi)
    print(json.dumps(stats, sort_keys=True))
    return EXIT_OK


def cmd_export(args) -> int:
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
    done = Progress(len(args.puz) + len(args.nyt), progress_printer(args.quiet), "files exported")
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
