"""Every file of tests/badinput/ through the real command line: a clean error, nothing written.

Each case runs one command on one bad file (or one bad ``--config`` value)
and asks four things of it:

a. a non-zero exit status (2, bad input; 1 for a book that cannot be
   filled and for Snakemake);
b. a message naming the file and line (``grid/ragged-rows.txt:3: ...``),
   or for the config the key (``config: books: ...``), and what is wrong;
c. no Python traceback;
d. no partial output: the folder the command was told to write into is
   empty afterwards, temporary files too.

The ``xw`` commands run in this process through ``pipeline.cli.main``
(what the ``xw`` script calls), their output captured and any exception
that escapes it recorded as the traceback Python would print; Snakemake's
command line runs in forks of one process that imported it (the import is
most of its start-up).  A control per command shows it takes good input,
through the ``xw`` script and ``python -m snakemake`` themselves.
tests/badinput/README.md lists the files and what is wrong with each.
"""

from __future__ import annotations

import contextlib
import io
import json
import shutil
import subprocess
import sys
import traceback
from dataclasses import dataclass
from pathlib import Path

import pytest

from conftest import ROOT
from pipeline.cli import main

CORPUS = Path(__file__).resolve().parent / "badinput"
_XW_SCRIPT = Path(sys.executable).parent / "xw"
XW = [str(_XW_SCRIPT)] if _XW_SCRIPT.exists() else [sys.executable, "-m", "pipeline.cli"]
SNAKEMAKE = [sys.executable, "-m", "snakemake"]


@dataclass(frozen=True)
class Case:
    """One bad input and what its error must say.

    ``source`` is a corpus file (relative to tests/badinput/) or, for the
    ``option`` runner, a ``--config KEY=VALUE``.  ``where`` is the place the
    message must name: a line number for a file, a key for the config,
    ``None`` for a file with no line to name.
    """

    source: str
    runner: str
    where: int | str | None
    says: str
    status: int = 2
    args: tuple = ()

    @property
    def id(self) -> str:
        return f"{self.runner}:{self.source}"


def _grid(name, line, says, *args):
    return Case(f"grid/{name}", "fill", line, says, args=args)


def _hex(name, line, says):
    return Case(f"hex/{name}", "encode", line, says)


def _words(name, line, says):
    return Case(f"wordlist/{name}", "wordlist", line, says)


def _clue(name, line, says, runner="clue"):
    return Case(f"clues/{name}", runner, line, says)


def _config(name, key, says, runner="snakemake"):
    return Case(f"config/{name}", runner, key, says, status=1 if runner == "snakemake" else 2)


CASES = [
    _grid("ragged-rows.txt", 3, "row has 4 cells but the first row (line 1) has 5"),
    _grid("unknown-character.txt", 3, "column 3: '*' is not a cell"),
    _grid("empty.txt", 1, "no grid found"),
    _grid("blank-lines-only.txt", 1, "no grid found"),
    _grid("text-after-grid.txt", 5, "text after the blank line that ended the grid"),
    _grid("not-utf8.txt", 2, "not valid UTF-8"),
    _grid("nul-byte.txt", 2, "'\\x00' is not a cell"),
    _grid("one-square.txt", 1, "no words"),
    _grid("all-black.txt", 1, "no words"),
    _grid("lone-white-square.txt", 4, "column 2: a white square in no word"),
    _grid("asymmetric.txt", 2, "r2c2: not rotational-symmetric", "--style", "american"),
    _grid("too-wide.txt", 1, "row of 65 cells: a grid is at most 64 wide"),
    _grid("too-tall.txt", 65, "a grid is at most 64 rows tall"),
    _hex("non-hex-letter.hex", 2, "'Z' is not a hex digit"),
    _hex("fullwidth-digit.hex", 2, "'\uff13' is not a hex digit"),
    _hex("end-letter-uppercase.hex", 2, "'G' is not a hex digit"),
    _hex("missing-end-letter.hex", 2, "224 bits is not a square grid"),
    _hex("odd-length.hex", 2, "220 bits is not a square grid"),
    _hex("end-letter-in-middle.hex", 2, "'g' ends a pattern but more follows"),
    _hex("rectangle-size-mismatch.hex", 2, "5x7 needs 35 bits, the hex holds 16"),
    _hex("rectangle-size-zero.hex", 2, "size 0x7: rows and columns go from 1 to 64"),
    _hex("rectangle-size-words.hex", 2, "size 'fivexseven' is not ROWSxCOLS"),
    _hex("too-big.hex", 2, "65x65 is too big"),
    _hex("blank-lines-then-bad.hex", 4, "224 bits is not a square grid"),
    _hex("trailing-junk.hex", 2, "'junk' after the pattern"),
    _hex("trailing-junk-after-ratio.hex", 2, "'0.42 junk' after the pattern"),
    _hex("not-utf8.hex", 2, "not valid UTF-8"),
    _hex("nul-byte.hex", 2, "'\\x00' is not a hex digit"),
    _words("digit.txt", 3, "digit '2' in 'R2D2'"),
    _words("cjk.txt", 2, "character '\u6771' (U+6771)"),
    _words("cyrillic.txt", 2, "character '\u041a' (U+041A)"),
    _words("emoji.txt", 2, "(U+1F431)"),
    _words("accent-folds-to-duplicate.txt", 2, "CAFE is listed twice (first on line 1)"),
    _words("eszett-folds-to-duplicate.txt", 2, "STRASSE is listed twice (first on line 1)"),
    _words("empty-word.txt", 2, "no letters in entry ''"),
    _words("punctuation-only.txt", 2, "no letters in entry '---'"),
    _words("duplicate.txt", 3, "CAT is listed twice (first on line 1)"),
    _words("negative-score.txt", 2, "score '-5' is not a number from 0 to 100"),
    _words("score-over-100.txt", 2, "score '150' is not a number from 0 to 100"),
    _words("non-numeric-score.txt", 2, "score 'high' is not a number"),
    _words("underscore-score.txt", 2, "score '1_0' is not a number"),
    _words("nan-score.txt", 2, "score 'nan' is not a number"),
    _words("empty-score.txt", 2, "score '' is not a number"),
    _words("missing-separator.txt", 2, "no ';' between word and score"),
    _words("two-separators.txt", 2, "character ';'"),
    _words("nul-byte.txt", 2, "NUL byte"),
    _words("not-utf8.txt", 2, "not valid UTF-8"),
    _words("control-character.txt", 2, "(U+0007)"),
    _words("form-feed-in-comment.txt", 3, "digit '0' in 'D0G'"),
    _clue("no-pipe.txt", 2, "no '|' between answer and clue"),
    _clue("no-pipe.txt", 2, "no '|' between answer and clue", "shard"),
    _clue("tab-instead-of-pipe.txt", 2, "no '|' between answer and clue"),
    _clue("nul-byte.txt", 2, "control character U+0000 in clue"),
    _clue("nul-byte.txt", 2, "control character U+0000 in clue", "shard"),
    _clue("clue-100kB.txt", 2, "clue of 100007 characters (at most 300)"),
    _clue("not-utf8.txt", 2, "not valid utf-8"),
    _clue("not-utf8.txt", 2, "not valid utf-8", "shard"),
    _clue("empty-answer.txt", 2, "no letters in answer ''"),
    _clue("empty-answer.txt", 2, "no letters in answer ''", "shard"),
    _clue("digit-answer.txt", 2, "digit '3' in 'OR3'"),
    _clue("empty-clue.txt", 2, "empty clue"),
    _clue("escape-sequence.txt", 2, "control character U+001B in clue"),
    _clue("escape-sequence.txt", 2, "control character U+001B in clue", "shard"),
    _config("books-zero.yaml", "books", "0 is less than the minimum of 1"),
    _config("books-string.yaml", "books", "'two' is not a whole number"),
    _config("books-float.yaml", "books", "2.0 is not a whole number"),
    _config("grid-size-99.yaml", "grid_size", "99 is more than the maximum of 25"),
    _config("min-score-150.yaml", "min_score", "150 is more than the maximum of 100"),
    _config("min-score-nan.yaml", "min_score", "nan is not a finite number"),
    _config("trim-folio.yaml", "trim", "'folio' is not one of letter"),
    _config("renderers-word.yaml", "renderers[0]", "'word' is not one of reportlab, latex"),
    _config("renderers-empty.yaml", "renderers", "0 items, at least 1 allowed"),
    _config("seed-negative.yaml", "seed", "-1 is less than the minimum of 0"),
    _config("margins-inner-too-small.yaml", "margins.inner", "0.1 is less than the minimum of 0.25"),
    _config("margins-not-a-mapping.yaml", "margins", "'1in' is not a mapping"),
    _config("unknown-key.yaml", "colour", "unknown key"),
    _config("misspelt-key.yaml", "book", "unknown key (did you mean books?)"),
    _config("missing-clues-sometimes.yaml", "missing_clues", "'sometimes' is not one of avoid, fail, leave"),
    _config("pattern-rules-contradict.yaml", "pattern_rules.american", "min_words 90 > max_words 78"),
    _config("quarter-symmetry-on-rectangle.yaml", "pattern_rules.american.symmetry", "needs a square grid, not 9x15"),
    _config("bounds-min-over-max.yaml", "pattern_bounds.three_letter", "min 20 > max 10"),
    _config("bound-unknown-statistic.yaml", "pattern_bounds", "'threes' is not one of words"),
    # Snakemake reads a --configfile itself before the Snakefile runs: these two only through xw check-config.
    Case("config/yaml-syntax-error.yaml", "check-config", 3, "not valid YAML"),
    Case("config/not-a-mapping.yaml", "check-config", 1, "the config is a list, not a mapping"),
    Case("books=0", "option", "books", "0 is less than the minimum of 1", status=1),
    Case("books=two", "option", "books", "'two' is not a whole number", status=1),
    Case("min_score=nan", "option", "min_score", "nan is not a finite number", status=1),
    Case("renderers=[word]", "option", "renderers[0]", "'word' is not one of reportlab, latex", status=1),
    Case("colour=red", "option", "colour", "unknown key", status=1),
    # No list of three-letter words fills a wide-open 15x15: the book stops, and writes no grid.
    Case(
        "fill/open-15x15.hex", "fill-book", None, "filled 0 of 2 puzzles from 1 candidate patterns", status=1,
        args=("--wordlist", "fill/three-letter-words.txt"),
    ),
    Case("ipuz/truncated.ipuz", "render", 45, "not JSON"),
    Case("ipuz/truncated.ipuz", "export", 45, "not JSON"),
    # The same files through the other stages that read them: none writes a thing.
    Case("hex/trailing-junk.hex", "connectivity", 2, "'junk' after the pattern"),
    Case("hex/too-big.hex", "filter", 2, "65x65 is too big"),
    Case("wordlist/nan-score.txt", "fill-book-words", 2, "score 'nan' is not a number"),
    Case("wordlist/form-feed-in-comment.txt", "fill-book-words", 3, "digit '0' in 'D0G'"),
]
# Every config file Snakemake refuses, xw check-config refuses with the same words.
CASES += [Case(c.source, "check-config", c.where, c.says) for c in CASES if c.runner == "snakemake"]

# The good inputs the runners need beside each bad one, and a control per runner.
GOOD_WORDS = "BAT;50\nORE;50\nWET;50\nBOW;50\nARE;50\nTET;40\ncaf\u00e9;60\nstra\u00dfe;40\n"
GOOD_CLUES = "BAT|Flier\nORE|Mined rock\nWET|Damp\nBOW|Archer's need\nARE|Exist\nTET|Vietnamese new year\n"
SEED_A = "3EF9C51EBFAFAAF8FE37577BFB9D5CEFEF75763F8FAAFAFEBC51CFBEg"


def _ipuz() -> str:
    return json.dumps(
        {
            "version": "http://ipuz.org/v2",
            "kind": ["http://ipuz.org/crossword#1"],
            "dimensions": {"width": 3, "height": 3},
            "puzzle": [[1, 2, 3], [4, 0, 0], [5, 0, 0]],
            "solution": [["B", "A", "T"], ["O", "R", "E"], ["W", "E", "T"]],
            "clues": {
                "Across": [[1, "Flier"], [4, "Mined rock"], [5, "Damp"]],
                "Down": [[1, "Archer's need"], [2, "Exist"], [3, "Vietnamese new year"]],
            },
            "title": "Puzzle 1",
        },
        indent=2,
    )


@pytest.fixture(scope="module")
def support(tmp_path_factory):
    """Good files beside the bad ones: a word list, a filled grid, clue shards, a puzzle, a workflow copy."""
    d = tmp_path_factory.mktemp("support")
    (d / "words.txt").write_text(GOOD_WORDS)
    (d / "filled.txt").write_text("BAT\nORE\nWET\n")
    (d / "clues.txt").write_text(GOOD_CLUES)
    (d / "shards").mkdir()
    (d / "puzzle.ipuz").write_text(_ipuz())
    (d / "open-3x3.hex").write_text("FFh\n")  # filled from the good list: BAT ORE WET, BOW ARE TET
    work = d / "workflow"
    work.mkdir()
    for item in ("Snakefile", "config", "templates", "report"):
        src = ROOT / item
        (shutil.copytree if src.is_dir() else shutil.copy)(src, work / item)
    return d


def _command(runner: str, source: str, out: Path, support: Path, args=(), puzzles: int = 2) -> tuple[list[str], Path]:
    """The command line of ``runner`` on ``source``, writing into ``out``, and the folder it runs in."""
    snakemake = SNAKEMAKE + ["--cores", "1", "--dry-run"]
    words = str(support / "words.txt")
    commands = {
        "fill": XW + ["fill", source, "--wordlist", words, "--timeout", "5", *args],
        "encode": XW + ["encode", source, "--out", str(out / "patterns.hex")],
        "wordlist": XW + ["wordlist", "merge", source, "--out", str(out / "words.txt")],
        "clue": XW + ["clue", str(support / "filled.txt"), "--clues", str(support / "shards"), "--clue-file", source,
                      "--out", str(out / "1.ipuz"), "--no-blocklist"],  # fmt: skip
        "shard": XW + ["clues", "shard", source, "--out", str(out / "shards")],
        "fill-book": XW + ["fill-book", "--candidates", source, *(args or ["--wordlist", words]), "--book", "1",
                           "--books", "1", "--seed", "1", "--timeout", "5", "--no-blocklist",
                           "--report", str(out.parent / "report.tsv"),
                           "--out", *(str(out / f"{k}.txt") for k in range(1, puzzles + 1))],  # fmt: skip
        "connectivity": XW + ["connectivity", source, "--out", str(out / "c.hex"), "--report", str(out / "c.tsv")],
        "filter": XW + ["filter", source, "--out", str(out / "f.hex"), "--stats", str(out / "f.tsv"),
                        "--style", "american"],  # fmt: skip
        "fill-book-words": XW + ["fill-book", "--candidates", str(support / "open-3x3.hex"), "--wordlist", source,
                                 "--book", "1", "--books", "1", "--report", str(out / "report.tsv"),
                                 "--out", str(out / "1.txt"), "--no-blocklist"],  # fmt: skip
        "render": XW + ["render", "reportlab", source, "--out", str(out / "book.pdf")],
        "export": XW + ["export", source, "--puz", str(out / "1.puz")],
        "check-config": XW + ["check-config", source],
        "snakemake": snakemake + ["--configfile", str(CORPUS / source)],
        "option": snakemake + ["--config", source],
    }
    cwd = support / "workflow" if runner in ("snakemake", "option") else CORPUS
    return commands[runner], cwd


def _in_process(argv: list[str], cwd: Path) -> tuple[int, str, str]:
    """``xw ARGS`` as the script runs it: status, stdout, stderr (with the traceback of anything that escapes)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.chdir(cwd), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(argv[len(XW) :])
        except SystemExit as e:  # argparse
            status = e.code if isinstance(e.code, int) else 1
        except Exception:
            traceback.print_exc()
            status = 1
    return status, out.getvalue(), err.getvalue()


# Snakemake's command line, run once per job in a fork of one process that
# imported it: the import is most of the second each `snakemake` costs.
# What a job sees is what `python -m snakemake ARGS` sees (its `main`, the
# Snakefile parsed afresh, exit status and stderr); a test below checks
# one job against the real command.
_SNAKEMAKE_DRIVER = """
import json, os, sys, traceback
from snakemake.cli import main

def job(argv, cwd, out, err):
    os.chdir(cwd)
    os.dup2(os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC), 1)
    os.dup2(os.open(err, os.O_WRONLY | os.O_CREAT | os.O_TRUNC), 2)
    try:
        main(argv)
        code = 0
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except BaseException:
        traceback.print_exc()
        code = 1
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)

jobs, running, status = json.load(sys.stdin), {}, {}
for k, (argv, cwd, out, err) in enumerate(jobs):
    if len(running) == 2:
        pid, st = os.wait()
        status[running.pop(pid)] = os.waitstatus_to_exitcode(st)
    pid = os.fork()
    if pid == 0:
        job(argv, cwd, out, err)
    running[pid] = k
while running:
    pid, st = os.wait()
    status[running.pop(pid)] = os.waitstatus_to_exitcode(st)
print(json.dumps([status[k] for k in range(len(jobs))]))
"""


def _snakemake_jobs(jobs: list[tuple[list[str], Path, Path]]) -> list[tuple[int, str, str]]:
    """``(status, stdout, stderr)`` of ``snakemake ARGS`` run in each ``(args, cwd, scratch)``."""
    spec = [[argv, str(cwd), str(d / "stdout"), str(d / "stderr")] for argv, cwd, d in jobs]
    run = subprocess.run(
        [sys.executable, "-c", _SNAKEMAKE_DRIVER], input=json.dumps(spec), capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, run.stderr[-3000:]
    read = lambda p: Path(p).read_text(errors="replace")  # noqa: E731
    return [(code, read(out), read(err)) for code, (_, _, out, err) in zip(json.loads(run.stdout), spec)]


def _leftovers(case: Case, out: Path, cwd: Path) -> list[str]:
    left = sorted(p.name for p in out.iterdir())
    if case.runner in ("snakemake", "option") and (cwd / "outputs").exists():
        left.append("outputs/")
    return left


@pytest.fixture(scope="module")
def results(support, tmp_path_factory):
    """Every case run once: {case id: {status, stdout, stderr, left}}."""
    ids = [case.id for case in CASES]
    assert len(set(ids)) == len(ids), "two cases with one id"
    done, snakemake = {}, []
    for case in CASES:
        scratch = tmp_path_factory.mktemp("case")
        out = scratch / "out"
        out.mkdir()
        argv, cwd = _command(case.runner, case.source, out, support, case.args)
        if argv[: len(XW)] == XW:
            status, stdout, stderr = _in_process(argv, cwd)
            done[case.id] = {"status": status, "stdout": stdout, "stderr": stderr, "left": _leftovers(case, out, cwd)}
        else:
            snakemake.append((case, argv[len(SNAKEMAKE) :], cwd, scratch))
    ran = _snakemake_jobs([(argv, cwd, scratch) for _, argv, cwd, scratch in snakemake])
    for (case, _, cwd, scratch), (status, stdout, stderr) in zip(snakemake, ran):
        left = _leftovers(case, scratch / "out", cwd)
        done[case.id] = {"status": status, "stdout": stdout, "stderr": stderr, "left": left}
    return done


def _expected_place(case: Case) -> str:
    if case.runner in ("snakemake", "option") or (case.runner == "check-config" and isinstance(case.where, str)):
        return f"config: {case.where}: "
    if case.where is None:
        return ""
    return f"{case.source}:{case.where}: "


def _problems(case: Case, result: dict) -> list[str]:
    """What is unclean about one case's run ([] when its error is clean)."""
    err = result["stderr"]
    problems = []
    if result["status"] != case.status:
        problems.append(f"exit status {result['status']}, expected {case.status}")
    if _expected_place(case) not in err:
        problems.append(f"message does not name {_expected_place(case)!r}")
    if case.says not in err:
        problems.append(f"message does not say {case.says!r}")
    if "Traceback" in err or 'File "' in err:
        problems.append("a traceback")
    if result["left"]:
        problems.append(f"left output behind: {result['left']}")
    if case.runner not in ("check-config", "snakemake", "option") and result["stdout"]:
        problems.append(f"printed output: {result['stdout'][:200]!r}")
    return problems


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_bad_input_gets_a_clean_error(case, results):
    result = results[case.id]
    assert _problems(case, result) == [], result["stderr"][-2000:]


def test_the_whole_corpus_is_clean_and_listed(results):
    clean = [c.id for c in CASES if not _problems(c, results[c.id])]
    share = len(clean) / len(CASES)
    assert share == 1.0, f"{len(clean)} of {len(CASES)} clean errors ({share:.0%})"
    files = {str(p.relative_to(CORPUS)) for p in CORPUS.rglob("*") if p.is_file() and p.name != "README.md"}
    used = {c.source for c in CASES} | {"fill/three-letter-words.txt"}
    assert files <= used, f"corpus files no case runs: {sorted(files - used)}"
    readme = (CORPUS / "README.md").read_text()
    assert [f for f in sorted(files) if f"`{f}`" not in readme] == [], "files the README does not list"


# Each runner takes good input: the cases fail for their bad file, not for how they are run.
CONTROLS = [
    ("fill", "good-grid.txt", ("--style", "american")),
    ("encode", "good.hex", ()),
    ("wordlist", "words.txt", ()),
    ("clue", "clues.txt", ()),
    ("shard", "clues.txt", ()),
    ("fill-book", "open-3x3.hex", ()),
    ("render", "puzzle.ipuz", ()),
    ("export", "puzzle.ipuz", ()),
    ("check-config", "workflow/config/config.yaml", ()),
    ("option", "books=1", ()),
]


@pytest.mark.parametrize("runner, source, args", CONTROLS, ids=[c[0] for c in CONTROLS])
def test_each_command_takes_good_input(runner, source, args, support, tmp_path):
    (support / "good-grid.txt").write_text("BAT\nORE\nWE.\n")
    (support / "good.hex").write_text(SEED_A + "\n")
    out = tmp_path / "out"
    out.mkdir()
    path = source if runner == "option" else str(support / source)
    argv, cwd = _command(runner, path, out, support, args, puzzles=1)
    run = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "Traceback" not in run.stderr
    if runner not in ("fill", "check-config", "option"):  # these print, or write nothing
        assert any(out.iterdir()), "wrote nothing"


def test_forked_snakemake_is_the_real_command(results, support):
    case = next(c for c in CASES if c.runner == "option")
    argv, cwd = _command(case.runner, case.source, support / "unused", support)
    run = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=120)
    assert (run.returncode, run.stderr) == (results[case.id]["status"], results[case.id]["stderr"])
