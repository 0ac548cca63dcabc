# The crossword-book pipeline: which files each stage reads and writes.
# Every rule calls the `xw` command (pipeline/cli.py), found beside the
# Python that runs Snakemake, so the work and its tests live in the package.
# Stages and formats: README.md.

import shlex
import sys
from pathlib import Path

from snakemake.utils import min_version

from pipeline.config import check_config_or_exit, fill_plan
from pipeline.lexicon.house import default_house_dir
from pipeline.model.sections import level_floor

min_version("9.17")  # earlier 9.x ran more jobs at once than --cores


configfile: "config/config.yaml"


check_config_or_exit(config, Path(workflow.basedir) / "config" / "config.schema.yaml")


# `snakemake --report outputs/report.html` (make report): this page, then the
# outputs marked report(...) below, each with its caption from report/.
report: "report/workflow.rst"


shell.prefix(f'export PATH="{Path(sys.executable).parent}:$PATH"; ')
OUT = "outputs"
# The book's sections and the config's auto values (patterns, answer repeats, fill batches) for it.
PLAN = fill_plan(config)
BOOKS = range(1, config["books"] + 1)
PUZZLES = range(1, PLAN["puzzles"] + 1)
SHARDS = range(config["pattern_shards"])
# Sections are numbered from 1 in book order: outputs/patterns/section-{s}/.
SECTIONS = {str(i): s for i, s in enumerate(PLAN["sections"], start=1)}
PATTERN_SECTIONS = [i for i, s in SECTIONS.items() if not s.theme]
THEME_SECTIONS = [i for i, s in SECTIONS.items() if s.theme]
BATCHES = range(1, PLAN["fill_batches"] + 1)
DEFAULT_WORDLIST = f"{OUT}/lexicon/wordlist.txt"
# wordlist: null (the default list), a file (instead of it), or lists laid
# over each other, a later one's score winning ("default" names the default).
OVERLAYS = config["wordlist"] if isinstance(config["wordlist"], list) else None
WORDLIST = f"{OUT}/wordlist/merged.txt" if OVERLAYS else config["wordlist"] or DEFAULT_WORDLIST
USES_DEFAULT_LIST = not config["wordlist"] or "default" in (OVERLAYS or [])
CLUES = config["clues"] or f"{OUT}/lexicon/clues"
# The house list's files and house clues (in the installed package): editing one builds the lexicon again.
HOUSE = sorted(str(p) for p in default_house_dir().rglob("*") if p.is_file())
PDF = {
    "reportlab": f"{OUT}/books/book-{{book}}.pdf",
    "latex": f"{OUT}/books/book-{{book}}.latex.pdf",
}
RENDERER = {"": "reportlab", ".latex": "latex"}
SUFFIX = {name: suffix for suffix, name in RENDERER.items()}
RENDER_STATS = f"{OUT}/reports/book-{{book}}/render{{suffix}}.json"
# Previews show the reportlab PDF when it is made, else the first renderer's.
PREVIEW_RENDERER = "reportlab" if "reportlab" in config["renderers"] else config["renderers"][0]
PREVIEW_PAGES = range(1, config["preview_pages"] + 1)
NYT = config["nyt_submission"]
# Only the margins the config sets: --inner 0.875 --top 0.75 ... (the trim's for the rest).
MARGINS = " ".join(f"--{side} {value}" for side, value in (config["margins"] or {}).items() if value is not None)
# The same blocklists for every stage that picks answers or clues: --blocklist F ... or --no-blocklist.
BLOCKLISTS = config["blocklists"]
BLOCK_ARGS = " ".join(f"--blocklist {shlex.quote(b)}" for b in BLOCKLISTS) or "--no-blocklist"
BLOCK_FILES = [b for b in BLOCKLISTS if b != "default"]
CLUE_FILE = [config["clue_file"]] if config["clue_file"] else []
AVOID = config["missing_clues"] == "avoid"  # the filler uses only words that can get a clue
# The data's attributions (house list, WordNet, wordfreq, SCOWL) and
# WordNet's licence go on the copyright page whenever the default word
# list or clues are used.
NOTICES = (
    [f"{OUT}/lexicon/NOTICE.txt", f"{OUT}/lexicon/LICENSE-WordNet.txt"]
    if USES_DEFAULT_LIST or not config["clues"]
    else []
)


# On a cluster (config/slurm), `group:` makes one job of each pattern shard
# of each section (patterns, connectivity, filter) and one of each book
# (merge of its fill batches, clue, render, export, preview, summary); the
# lexicon, each themed section's theme stage and each fill batch are jobs of
# their own, and encode runs on the login node (localrules, below):
# 1 + sections x shards (themed ones: 1) + books x batches + books jobs in
# all. A local run ignores groups and spreads the same jobs over its cores.


def _rule_value(v):
    return "null" if v is None else str(v).lower() if isinstance(v, bool) else v


def _rules(w):
    """A section's style and its rules as changed: --style S --rule NAME=VALUE ... (open: no blacks)."""
    style, rules = SECTIONS[w.section].pattern_rules()
    return f"--style {style} " + " ".join(f"--rule {k}={_rule_value(v)}" for k, v in rules.items())


def _section_args(what):
    """fill-book's and clue's view of the sections: --counts N ... --difficulty D ... (and their titles)."""
    sections = SECTIONS.values()
    args = f"--counts {' '.join(str(s.count) for s in sections)}"
    args += f" --difficulty {' '.join(s.difficulty_spec for s in sections)}"
    if what == "clue":
        args += " --section-titles " + " ".join(shlex.quote(s.title) for s in sections)
    return args


def candidates(section):
    """A section's candidates: its encoded patterns, or its themed candidates."""
    if SECTIONS[section].theme:
        return f"{OUT}/patterns/section-{section}/candidates.themes.tsv"
    return f"{OUT}/patterns/section-{section}/patterns.hex"


CANDIDATES = [candidates(i) for i in SECTIONS]
PATTERN_STATS = [f"{OUT}/patterns/section-{i}/stats.tsv" for i in PATTERN_SECTIONS]


wildcard_constraints:
    section=r"\d+",


rule all:
    input:
        [expand(PDF[r], book=BOOKS) for r in config["renderers"]],
        expand(f"{OUT}/puzzles/book-{{book}}/{{k}}.ipuz", book=BOOKS, k=PUZZLES),
        expand(f"{OUT}/puzzles/book-{{book}}/{{k}}.puz", book=BOOKS, k=PUZZLES),
        expand(f"{OUT}/submissions/book-{{book}}/{{k}}.pdf", book=BOOKS, k=PUZZLES) if NYT else [],
        expand(f"{OUT}/previews/book-{{book}}/page-{{i}}.png", book=BOOKS, i=PREVIEW_PAGES),
        expand(f"{OUT}/reports/book-{{book}}/summary.{{ext}}", book=BOOKS, ext=["tsv", "html"]),
        PATTERN_STATS,
        CANDIDATES,


rule lexicon:
    input:
        blocklists=BLOCK_FILES,
        house=HOUSE,
    output:
        wordlist=DEFAULT_WORDLIST,
        clues=directory(f"{OUT}/lexicon/clues"),
        grades=f"{OUT}/lexicon/grades.tsv",
        licence=f"{OUT}/lexicon/LICENSE-WordNet.txt",
        scowl=f"{OUT}/lexicon/LICENSE-SCOWL.txt",
        house=f"{OUT}/lexicon/LICENSE-house.txt",
        notice=f"{OUT}/lexicon/NOTICE.txt",
    log:
        f"{OUT}/logs/lexicon.log",
    params:
        folder=lambda w, output: Path(output.wordlist).parent,
        blocklists=BLOCK_ARGS,
    benchmark:
        f"{OUT}/benchmarks/lexicon.tsv"
    shell:
        "xw lexicon --out {params.folder} {params.blocklists} > {log} 2>&1"


rule merge_wordlists:
    input:
        [DEFAULT_WORDLIST if w == "default" else w for w in OVERLAYS or []],
    output:
        f"{OUT}/wordlist/merged.txt",
    log:
        f"{OUT}/logs/merge_wordlists.log",
    params:
        blocklists=BLOCK_ARGS,
    shell:
        "xw wordlist merge {input} --out {output} {params.blocklists} > {log} 2>&1"


rule patterns:
    group:
        "shard"
    output:
        f"{OUT}/patterns/section-{{section}}/raw/{{shard}}.hex",
    params:
        rows=lambda w: SECTIONS[w.section].rows,
        cols=lambda w: SECTIONS[w.section].cols,
        per_shard=lambda w: PLAN["patterns_per_shard"][int(w.section) - 1],
        # a section's own seed (the first keeps the run's: a book of one section as before sections)
        seed=lambda w: config["seed"] if w.section == "1" else f"{config['seed']}{w.section:0>3}",
        rules=_rules,
        # a small grid has few patterns (a 5x5 a handful): as many as there are
        at_most=lambda w: "--at-most" if SECTIONS[w.section].few_patterns else "",
    log:
        f"{OUT}/logs/patterns/section-{{section}}/{{shard}}.log",
    benchmark:
        f"{OUT}/benchmarks/patterns/section-{{section}}/{{shard}}.tsv"
    shell:
        "xw patterns --rows {params.rows} --cols {params.cols} --count {params.per_shard} --seed {params.seed}"
        " --shard {wildcards.shard} {params.rules} {params.at_most} --out {output} > {log} 2>&1"


rule connectivity:
    group:
        "shard"
    input:
        f"{OUT}/patterns/section-{{section}}/raw/{{shard}}.hex",
    output:
        patterns=f"{OUT}/patterns/section-{{section}}/connected/{{shard}}.hex",
        report=f"{OUT}/patterns/section-{{section}}/connected/{{shard}}.dropped.tsv",
    params:
        rules=_rules,
    log:
        f"{OUT}/logs/connectivity/section-{{section}}/{{shard}}.log",
    benchmark:
        f"{OUT}/benchmarks/connectivity/section-{{section}}/{{shard}}.tsv"
    shell:
        "xw connectivity {input} --out {output.patterns} {params.rules} --report {output.report} > {log} 2>&1"


rule filter:
    group:
        "shard"
    input:
        patterns=f"{OUT}/patterns/section-{{section}}/connected/{{shard}}.hex",
        wordlist=WORDLIST,
    output:
        patterns=f"{OUT}/patterns/section-{{section}}/filtered/{{shard}}.hex",
        stats=f"{OUT}/patterns/section-{{section}}/stats/{{shard}}.tsv",
    params:
        rules=_rules,
        bounds=lambda w: " ".join(
            f"--bound {stat}={b.get('min', '')}:{b.get('max', '')}" for stat, b in config["pattern_bounds"].items()
        ),
    log:
        f"{OUT}/logs/filter/section-{{section}}/{{shard}}.log",
    benchmark:
        f"{OUT}/benchmarks/filter/section-{{section}}/{{shard}}.tsv"
    shell:
        "xw filter {input.patterns} --out {output.patterns} --stats {output.stats}"
        " {params.rules} --wordlist {input.wordlist} {params.bounds} > {log} 2>&1"


# encode only joins the shards' files (under a second): on a cluster it runs
# on the login node, where a job of its own would wait for a node and cost
# Snakemake's start twice (a few seconds) between the shards and the fills.
localrules:
    encode,


rule encode:
    input:
        patterns=expand(f"{OUT}/patterns/section-{{{{section}}}}/filtered/{{shard}}.hex", shard=SHARDS),
        stats=expand(f"{OUT}/patterns/section-{{{{section}}}}/stats/{{shard}}.tsv", shard=SHARDS),
    output:
        patterns=f"{OUT}/patterns/section-{{section}}/patterns.hex",
        stats=f"{OUT}/patterns/section-{{section}}/stats.tsv",
    log:
        f"{OUT}/logs/encode/section-{{section}}.log",
    benchmark:
        f"{OUT}/benchmarks/encode/section-{{section}}.tsv"
    shell:
        "xw encode {input.patterns} --out {output.patterns}"
        " --stats {input.stats} --stats-out {output.stats} > {log} 2>&1"


# A themed section's candidates: theme sets found in the word list and WordNet, each with a
# pattern made around its entries (pipeline/theme); three times its puzzles a book, and no set in two
# sections (--part/--parts).
rule theme:
    input:
        wordlist=WORDLIST,
        clues=CLUES,
        blocklists=BLOCK_FILES,
    output:
        f"{OUT}/patterns/section-{{section}}/candidates.themes.tsv",
    params:
        rows=lambda w: SECTIONS[w.section].rows,
        cols=lambda w: SECTIONS[w.section].cols,
        wanted=lambda w: config["books"] * (3 * SECTIONS[w.section].count + 4),
        part=lambda w: THEME_SECTIONS.index(w.section),
        parts=len(THEME_SECTIONS),
        rules=_rules,
        seed=lambda w: f"{config['seed']}{w.section:0>3}",
        blocklists=BLOCK_ARGS,
        # the theme stage checks each candidate fills at the floor of the section's easiest puzzle
        fill_min_score=lambda w: level_floor(config["min_score"], min(SECTIONS[w.section].levels())),
    log:
        f"{OUT}/logs/theme/section-{{section}}.log",
    benchmark:
        f"{OUT}/benchmarks/theme/section-{{section}}.tsv"
    shell:
        "xw theme --rows {params.rows} --cols {params.cols} --count {params.wanted} --seed {params.seed}"
        " --part {params.part} --parts {params.parts} {params.rules} --wordlist {input.wordlist} --clues {input.clues}"
        " --fill-min-score {params.fill_min_score} {params.blocklists} --out {output} > {log} 2>&1"


# A book's puzzles are filled in batches (fill_batch_size), one job each, all
# at once; the book's fill job merges them in order (pipeline/fill/batch.py).
# On a cluster each batch is a job of its own.
FILL_INPUT = dict(
    candidates=CANDIDATES,
    wordlist=WORDLIST,
    clues=[CLUES] if AVOID else [],
    clue_file=CLUE_FILE if AVOID else [],
    blocklists=BLOCK_FILES,
)


def _fill_args(w, input):
    clues = [f"--clues {shlex.quote(c)}" for c in input.clues]
    clues += [f"--clue-file {shlex.quote(c)}" for c in input.clue_file]
    return (
        f"--candidates {input.candidates} {_section_args('fill')} --wordlist {input.wordlist}"
        f" --book {w.book} --books {config['books']}"
        f" --seed {config['seed']} --timeout {config['fill_timeout_s']} --max-nodes {config['fill_max_nodes']}"
        f" --improve-nodes {config['fill_improve_nodes']} --min-score {config['min_score']}"
        f" --max-answer-repeats {PLAN['max_answer_repeats']} --answer-gap {config['answer_gap']}"
        f" --repeat-penalty {config['repeat_penalty']} --batch-size {config['fill_batch_size']}"
        f" --cache {OUT}/cache {' '.join(clues)} {BLOCK_ARGS}"
    )


rule fill_batch:
    input:
        **FILL_INPUT,
    output:
        f"{OUT}/fills/book-{{book}}/batch-{{batch}}.tsv",
    params:
        args=_fill_args,
        puzzles=PLAN["puzzles"],
    log:
        f"{OUT}/logs/fill/book-{{book}}/batch-{{batch}}.log",
    benchmark:
        f"{OUT}/benchmarks/fill/book-{{book}}/batch-{{batch}}.tsv"
    shell:
        "xw fill-book {params.args} --batch {wildcards.batch} --puzzles {params.puzzles} --out {output} > {log} 2>&1"


rule fill:
    group:
        "book"
    input:
        **FILL_INPUT,
        batches=expand(f"{OUT}/fills/book-{{{{book}}}}/batch-{{batch}}.tsv", batch=BATCHES),
    output:
        grids=expand(f"{OUT}/fills/book-{{{{book}}}}/{{k}}.txt", k=PUZZLES),
        report=f"{OUT}/fills/book-{{book}}/report.tsv",
    params:
        args=_fill_args,
    log:
        f"{OUT}/logs/fill/book-{{book}}/merge.log",
    benchmark:
        f"{OUT}/benchmarks/fill/book-{{book}}/merge.tsv"
    shell:
        "xw fill-book {params.args} --merge {input.batches} --report {output.report} --out {output.grids} > {log} 2>&1"


# The answers left without a clue are listed in outputs/reports/book-{n}/missing-clues.txt,
# not a declared output: Snakemake deletes a failed job's outputs, and that is when it matters.
rule clue:
    group:
        "book"
    input:
        grids=expand(f"{OUT}/fills/book-{{{{book}}}}/{{k}}.txt", k=PUZZLES),
        clues=CLUES,
        clue_file=CLUE_FILE,
        blocklists=BLOCK_FILES,
        themes=[candidates(i) for i in THEME_SECTIONS],
    output:
        puzzles=expand(f"{OUT}/puzzles/book-{{{{book}}}}/{{k}}.ipuz", k=PUZZLES),
        report=f"{OUT}/reports/book-{{book}}/clues.tsv",
    params:
        author=lambda w: config["author"],
        copyright=lambda w: config["copyright"],
        repeats=PLAN["max_answer_repeats"],
        missing=config["missing_clues"],
        missing_list=f"{OUT}/reports/book-{{book}}/missing-clues.txt",
        prefer=f"--prefer-chars {config['clue_prefer_chars']}" if config["clue_prefer_chars"] else "",
        sections=_section_args("clue"),
        clue_file=lambda w, input: " ".join(f"--clue-file {shlex.quote(c)}" for c in input.clue_file),
        blocklists=BLOCK_ARGS,
        themes=lambda w, input: " ".join(f"--themes {t}" for t in input.themes),
        cache=f"{OUT}/cache",
    log:
        f"{OUT}/logs/clue/book-{{book}}.log",
    benchmark:
        f"{OUT}/benchmarks/clue/book-{{book}}.tsv"
    shell:
        "xw clue {input.grids} --clues {input.clues} {params.clue_file} --cache {params.cache} --out {output.puzzles}"
        " --report {output.report}"
        " --max-answer-repeats {params.repeats} --missing-clues {params.missing}"
        " --missing-list {params.missing_list} {params.prefer} {params.sections} {params.themes} {params.blocklists}"
        " --author {params.author:q} --copyright {params.copyright:q} > {log} 2>&1"


rule render:
    group:
        "book"
    input:
        puzzles=expand(f"{OUT}/puzzles/book-{{{{book}}}}/{{k}}.ipuz", k=PUZZLES),
        notices=NOTICES,
        templates="templates",
    output:
        pdf=f"{OUT}/books/book-{{book}}{{suffix}}.pdf",
        stats=RENDER_STATS,
    wildcard_constraints:
        book=r"\d+",
        suffix=r"|\.latex",
    params:
        renderer=lambda w: RENDERER[w.suffix],
        title=lambda w: config["title"],
        subtitle=lambda w: config["subtitle"],
        author=lambda w: config["author"],
        copyright=lambda w: config["copyright"],
        trim=config["trim"],
        layout=config["layout"],
        margins=MARGINS,
    log:
        f"{OUT}/logs/render/book-{{book}}{{suffix}}.log",
    benchmark:
        f"{OUT}/benchmarks/render/book-{{book}}{{suffix}}.tsv"
    shell:
        "xw render {params.renderer} {input.puzzles} --out {output.pdf} --book {wildcards.book}"
        " --title {params.title:q} --subtitle {params.subtitle:q} --author {params.author:q}"
        " --copyright {params.copyright:q} --trim {params.trim} --layout {params.layout} {params.margins}"
        " --templates {input.templates} --stats {output.stats} --notice {input.notices} > {log} 2>&1"


# .puz beside each .ipuz (Across Lite); with nyt_submission, an NYT-style
# submission PDF per puzzle too (filled grid, double-spaced clue list).
rule export:
    group:
        "book"
    input:
        expand(f"{OUT}/puzzles/book-{{{{book}}}}/{{k}}.ipuz", k=PUZZLES),
    output:
        puz=expand(f"{OUT}/puzzles/book-{{{{book}}}}/{{k}}.puz", k=PUZZLES),
        nyt=expand(f"{OUT}/submissions/book-{{{{book}}}}/{{k}}.pdf", k=PUZZLES) if NYT else [],
    params:
        author=lambda w: config["author"],
        nyt=lambda w, output: " ".join(["--nyt", *output.nyt]) if NYT else "",
    log:
        f"{OUT}/logs/export/book-{{book}}.log",
    benchmark:
        f"{OUT}/benchmarks/export/book-{{book}}.tsv"
    shell:
        "xw export {input} --puz {output.puz} {params.nyt} --constructor {params.author:q} > {log} 2>&1"


if PREVIEW_PAGES:

    rule preview:
        group:
            "book"
        input:
            PDF[PREVIEW_RENDERER],
        output:
            [
                report(
                    f"{OUT}/previews/book-{{book}}/page-{i}.png",
                    caption="report/preview.rst",
                    category="Previews",
                    subcategory="Book {book}",
                    labels={"book": "{book}", "page": str(i)},
                )
                for i in PREVIEW_PAGES
            ],
        params:
            dpi=100,
        log:
            f"{OUT}/logs/preview/book-{{book}}.log",
        benchmark:
            f"{OUT}/benchmarks/preview/book-{{book}}.tsv"
        shell:
            "xw preview {input} --out {output} --dpi {params.dpi} > {log} 2>&1"


# One table per book: its patterns' statistics, its fill and each PDF's pages
# and clue type (pipeline/summary.py), as TSV and as HTML for the report.
rule summary:
    group:
        "book"
    input:
        fills=f"{OUT}/fills/book-{{book}}/report.tsv",
        clues=f"{OUT}/reports/book-{{book}}/clues.tsv",
        patterns=PATTERN_STATS,
        renders=[RENDER_STATS.replace("{suffix}", SUFFIX[r]) for r in config["renderers"]],
    output:
        tsv=report(
            f"{OUT}/reports/book-{{book}}/summary.tsv",
            caption="report/summary.rst",
            category="Book statistics",
            subcategory="Book {book}",
            labels={"book": "{book}", "table": "summary (TSV)"},
        ),
        html=report(
            f"{OUT}/reports/book-{{book}}/summary.html",
            caption="report/summary.rst",
            category="Book statistics",
            subcategory="Book {book}",
            labels={"book": "{book}", "table": "summary"},
        ),
    params:
        renders=lambda w, input: " ".join(f"{r}={p}" for r, p in zip(config["renderers"], input.renders)),
    log:
        f"{OUT}/logs/summary/book-{{book}}.log",
    benchmark:
        f"{OUT}/benchmarks/summary/book-{{book}}.tsv"
    shell:
        "xw summary --fill-report {input.fills} --clue-report {input.clues} --pattern-stats {input.patterns}"
        " --render {params.renders}"
        " --out {output.tsv} --html {output.html} --book {wildcards.book} > {log} 2>&1"
