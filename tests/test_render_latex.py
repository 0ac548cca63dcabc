"""Stage 7, the LaTeX renderer: real PDFs typeset by pdfLaTeX, checked with poppler and pypdf.

Each module fixture typesets one book once; the tests read its PDF back
(page text, word boxes, pixels) and hold it to the page plan.
"""

from __future__ import annotations

import re
import subprocess

import pytest

from pipeline.model.puzzle import Puzzle
from pipeline.render import Book, RenderError, render_latex
from pipeline.render.book import FONT_HARD_MIN, TRIMS, get_trim, plan_book
from renderkit import (
    HAVE_TEX,
    NASTY,
    PATTERN_15,
    PATTERN_5,
    _book,
    _fill,
    _norm,
    _pdffonts,
    _pdftotext,
    _puzzle,
    _words,
    needs_poppler,
    needs_tex,
)


# -- reading the PDF back ---------------------------------------------------------------
def _page_text(path, page: int, raw: bool = False) -> str:
    """The text of one page (``raw``: in the order TeX wrote it, one clue column after the other)."""
    cmd = ["pdftotext", *(["-raw"] if raw else []), "-f", str(page), "-l", str(page), str(path), "-"]
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def _head_and_foot(path, page: int, book: Book):
    """The words in the top margin and in the bottom margin of ``page``."""
    trim = book.page_trim
    words = _words(path, page)
    head = [w for w in words if w[3] < trim.top * 72]
    foot = [w for w in words if w[1] > (trim.height - trim.bottom) * 72]
    return head, foot


def _clues(puzzle: Puzzle) -> list[str]:
    return [clue for d in ("across", "down") for _s, _a, clue in puzzle.entries(d)]


def _flat(text: str) -> str:
    """Text without spaces and hyphens: TeX breaks lines, and hyphenates, where it likes."""
    return re.sub(r"[\s\-]+", "", _norm(text))


_CONTENTS_LINE = re.compile(r"(Puzzle (\d+)|Solutions)[^.]*?(?:\s?\.)+\s*(\d+)")


def _contents(path, plan) -> list[tuple[str, int]]:
    """``(label, page)`` for each contents line, read from the contents pages with ``-layout`` (columns side by side)."""
    found = []
    for page in range(3, 3 + len(plan.contents)):
        text = subprocess.run(
            ["pdftotext", "-layout", "-f", str(page), "-l", str(page), str(path), "-"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        for line in text.splitlines():
            found += [(m.group(1), int(m.group(3))) for m in _CONTENTS_LINE.finditer(line)]
    return found


def _headings(text: str) -> set[int]:
    """The puzzle numbers a page's text names ("Puzzle 7")."""
    return {int(n) for n in re.findall(r"\bPuzzle (\d+)\b", text)}


# -- books -----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def tex_pdf(tmp_path_factory):
    """The three-puzzle test book on letter paper, one puzzle a page."""
    if not HAVE_TEX:
        pytest.skip("latexmk/pdflatex not installed")
    d = tmp_path_factory.mktemp("tex")
    book = _book()
    stats = render_latex(book, d / "book.pdf")
    return book, d / "book.pdf", stats


@pytest.fixture(scope="module")
def facing_6x9(tmp_path_factory):
    """70 puzzles on 6x9, facing pages: two contents pages, so a blank page before the first grid."""
    if not HAVE_TEX:
        pytest.skip("latexmk/pdflatex not installed")
    d = tmp_path_factory.mktemp("facing")
    puzzles = [_puzzle(PATTERN_5, s, f"Mini {s}") for s in range(1, 69)]
    puzzles[10:10] = [_puzzle(PATTERN_15, 2, "Rivers & Mountains")]
    puzzles.append(_puzzle(PATTERN_15, 3, "Salt_and ~Pepper~", NASTY))
    book = Book("Facing Book", "", "", ["(c) 2025 A. Setter"], puzzles, trim="6x9")
    stats = render_latex(book, d / "book.pdf")
    return book, d / "book.pdf", stats


@pytest.fixture(scope="module")
def large_print(tmp_path_factory):
    if not HAVE_TEX:
        pytest.skip("latexmk/pdflatex not installed")
    d = tmp_path_factory.mktemp("large")
    book = _book("large-print")
    stats = render_latex(book, d / "book.pdf")
    return book, d / "book.pdf", stats


def _mini_book(trim: str = "letter", margins=None) -> Book:
    puzzles = [_puzzle(PATTERN_5, 1, "Small"), _puzzle(PATTERN_5, 2, "Smaller")]
    return Book("Minis", "", "", [], puzzles, trim=trim, layout="page", margins=margins or {})


# -- the plan: pages, contents, sizes ------------------------------------------------------
@needs_tex
def test_latex_page_count_and_size(tex_pdf):
    from pypdf import PdfReader

    book, out, stats = tex_pdf
    plan = plan_book(book)
    reader = PdfReader(out)
    assert len(reader.pages) == stats["pages"] == plan.total == 2 + 1 + 3 + 1
    assert (stats["contents_pages"], stats["puzzle_pages"], stats["solution_pages"]) == (1, 3, 1)
    assert stats["layout"] == "page" and stats["page_size"] == [612.0, 792.0] and stats["rounds"] == 1
    assert len(stats["clue_sizes"]) == 3 and all(8 <= s <= 14 for s in stats["clue_sizes"])
    assert stats["clue_sizes"][0] == 14  # the mini's few clues in the largest type
    box = reader.pages[0].mediabox
    assert (float(box.width), float(box.height)) == pytest.approx((612, 792), abs=0.1)


@needs_tex
@needs_poppler
@pytest.mark.parametrize("which", ["tex_pdf", "facing_6x9"])
def test_latex_contents_point_at_the_pages_the_puzzles_are_on(which, request):
    book, out, stats = request.getfixturevalue(which)
    plan = plan_book(book)
    assert stats["contents_pages"] == len(plan.contents) == (1 if which == "tex_pdf" else 2)
    lines = sorted(_contents(out, plan), key=lambda line: int(line[0].split()[1]) if " " in line[0] else 10**6)
    assert [label for label, _ in lines] == [f"Puzzle {k}" for k in range(1, len(book.puzzles) + 1)] + ["Solutions"]
    for k, (_label, page) in enumerate(lines[:-1], start=1):
        puzzle = book.puzzles[k - 1]
        assert page == plan.puzzle_pages[k - 1]
        here = _page_text(out, page)
        assert _headings(here) == {k}, (k, page)
        clue_page = page + (1 if plan.layout == "facing" else 0)
        clues = _flat(_page_text(out, clue_page, raw=True))
        assert _flat(_clues(puzzle)[-1]) in clues, (k, clue_page)
    # the solutions: where the contents say, the plan's puzzles on each page, to the last page
    assert lines[-1][1] == plan.solution_first
    for i, ks in enumerate(plan.solutions):
        text = _page_text(out, plan.solution_first + i)
        assert plan.solution_label(i) in text and "Solutions\n" in text
        assert _headings(text) == {k + 1 for k in ks}
    assert plan.solution_first + len(plan.solutions) - 1 == stats["pages"]


@needs_tex
@needs_poppler
def test_latex_running_heads_and_folios(tex_pdf):
    book, out, _ = tex_pdf
    plan = plan_book(book)
    trim = book.page_trim
    for page in (1, 2):  # title and copyright: no head, no folio
        head, foot = _head_and_foot(out, page, book)
        assert head == [] and foot == [], page
    pages = [3, *plan.puzzle_pages, plan.solution_first]
    outer = ["Contents"] + [f"Puzzle {k}: {p.title}" for k, p in enumerate(book.puzzles, 1)] + ["Solutions 1-3"]
    for page, label in zip(pages, outer):
        head, foot = _head_and_foot(out, page, book)
        left = trim.left_margin(page) * 72
        middle = left + trim.text_width * 36
        outside = [w for w in head if (w[0] > middle) == (page % 2 == 1)]  # right on a recto, left on a verso
        inside = [w for w in head if w not in outside]
        assert _norm(" ".join(w[4] for w in outside)) == _norm(label), page
        assert " ".join(w[4] for w in inside) == book.title, page
        assert [w[4] for w in foot] == [str(page)]
        assert abs((foot[0][0] + foot[0][2]) / 2 - middle) < 2, page  # centred under the text block
        assert min(w[0] for w in head) == pytest.approx(left, abs=0.5)  # head spans the text block
        assert max(w[2] for w in head) == pytest.approx(left + trim.text_width * 72, abs=0.5)


@needs_tex
@needs_poppler
def test_latex_long_titles_wrap_in_headings_and_are_cut_in_running_heads(tmp_path):
    long = "A very long title about rivers, mountains, harbours and the quiet lanterns of the sea " * 2
    book = _mini_book()
    book.title = "The Enormous Omnibus of Crosswords for Every Day of the Year and Beyond"
    book.puzzles[1].title = long
    out = tmp_path / "b.pdf"
    stats = render_latex(book, out)
    plan = plan_book(book)
    assert stats["pages"] == plan.total
    page = plan.puzzle_pages[1]  # a right-hand page: outer side right
    head, _foot = _head_and_foot(out, page, book)
    middle = (book.page_trim.left_margin(page) + book.page_trim.text_width / 2) * 72
    inside, outside = [w for w in head if w[2] < middle], [w for w in head if w[0] > middle]
    assert len(inside) + len(outside) == len(head)  # nothing straddles the middle, nothing overlaps
    outer, inner = (" ".join(w[4] for w in side) for side in (outside, inside))
    assert outer.replace(" ", "").endswith("...") and inner.replace(" ", "").endswith("...")  # \dots: ". . ."
    assert outer.startswith("Puzzle 2: A very long title") and inner.startswith("The Enormous Omnibus")
    text = _norm(_page_text(out, page))  # the heading itself wraps, in full
    assert _norm(long.strip()) in text and _headings(text) == {2}


@needs_tex
def test_latex_page_size_is_the_trim(tmp_path):
    from pypdf import PdfReader

    for trim in ["letter", "8.5x11", "a4", "6x9", "large-print"]:
        book = _mini_book(trim)
        stats = render_latex(book, tmp_path / f"{trim}.pdf")
        reader = PdfReader(tmp_path / f"{trim}.pdf")
        want = (get_trim(trim).width * 72, get_trim(trim).height * 72)
        assert len(reader.pages) == stats["pages"] == plan_book(book).total
        for page in reader.pages:
            assert (float(page.mediabox.width), float(page.mediabox.height)) == pytest.approx(want, abs=0.1), trim
        assert stats["page_size"] == pytest.approx(list(want), abs=0.01)
    assert TRIMS["large-print"].width * 72 == 612


@needs_tex
@needs_poppler
def test_latex_margins_move_the_text_block(tmp_path):
    plain, moved = _mini_book(), _mini_book(margins={"inner": 1.5, "top": 1.5})
    spots = {}
    for name, book in (("plain", plain), ("moved", moved)):
        render_latex(book, tmp_path / f"{name}.pdf")
        # page 5 is a right-hand page: its left margin is the binding side
        heading = [w for w in _words(tmp_path / f"{name}.pdf", 5) if w[4] == "Puzzle"][1]  # [0] is in the head
        spots[name] = heading
        assert heading[0] == pytest.approx(book.page_trim.left_margin(5) * 72, abs=0.5), name
    assert spots["moved"][0] - spots["plain"][0] == pytest.approx((1.5 - 0.75) * 72, abs=0.5)
    assert spots["moved"][1] - spots["plain"][1] == pytest.approx((1.5 - 0.75) * 72, abs=0.5)


# -- facing pages ---------------------------------------------------------------------
@needs_tex
@needs_poppler
@pytest.mark.parametrize("which", ["facing_6x9", "large_print"])
def test_latex_facing_grid_left_clues_right(which, request):
    from PIL import Image

    book, out, stats = request.getfixturevalue(which)
    plan = plan_book(book)
    trim = book.page_trim
    assert stats["layout"] == plan.layout == "facing"
    assert stats["puzzle_pages"] == 2 * len(book.puzzles) and stats["pages"] == plan.total
    assert all(trim.font_floor <= s <= trim.font_max for s in stats["clue_sizes"]) and not stats["below_floor"]
    for page in plan.blank_pages:  # nothing at all: no head, no folio
        assert _page_text(out, page).strip() == ""
    assert plan.blank_pages == ([5] if which == "facing_6x9" else [])
    big = [k for k, p in enumerate(book.puzzles) if p.grid.cols == 15]
    for k in big[:2]:
        grid_page = plan.puzzle_pages[k]
        assert grid_page % 2 == 0  # a left-hand page
        grid_text, clue_text = _flat(_page_text(out, grid_page)), _flat(_page_text(out, grid_page + 1, raw=True))
        clues = [_flat(c) for c in _clues(book.puzzles[k])]
        assert not any(c in grid_text for c in clues[:5])
        assert all(c in clue_text for c, raw in zip(clues, _clues(book.puzzles[k])) if raw not in NASTY), k
        # the grid fills the text block's width (squares capped at 36bp): find its ink
        png = out.parent / f"grid-{k}"
        subprocess.run(
            ["pdftoppm", "-r", "72", "-gray", "-png", "-f", str(grid_page), "-l", str(grid_page), str(out), str(png)],
            check=True,
        )
        img = Image.open(next(out.parent.glob(f"grid-{k}-*.png")))
        top = int((trim.top * 72) + 60)  # below the running head and the heading
        box = img.crop((0, top, img.width, int((trim.height - trim.bottom) * 72))).point(lambda v: 255 if v < 128 else 0)
        x0, _y0, x1, _y1 = box.getbbox()
        want = min(36 * 15, trim.text_width * 72)
        assert x1 - x0 == pytest.approx(want, abs=8), (k, x1 - x0, want)


# -- type sizes: the floor, and below it ------------------------------------------------------
@needs_tex
@needs_poppler
def test_latex_below_floor_is_reported(tmp_path, capsys):
    wordy = "lantern harbour " * 6  # ~80 characters: does not fit at 8pt beside a 15x15 grid on letter
    clues = [f"{wordy}{i}" for i in range(80)]
    book = Book("T", "", "", [], [_puzzle(PATTERN_5, 1, "Fine"), _puzzle(PATTERN_15, 5, "Wordy", clues)], layout="page")
    out = tmp_path / "b.pdf"
    stats = render_latex(book, out)
    assert len(stats["below_floor"]) == 1
    entry = stats["below_floor"][0]
    assert entry["puzzle"] == 2 and FONT_HARD_MIN <= entry["size"] < 8 == TRIMS["letter"].font_floor
    assert stats["clue_sizes"][1] == entry["size"] and stats["clue_sizes"][0] >= 8
    err = capsys.readouterr().err
    assert "puzzle 2" in err and f"{entry['size']:g}pt" in err and "8pt floor" in err
    assert stats["pages"] == plan_book(book).total
    text = _flat(_page_text(out, plan_book(book).puzzle_pages[1], raw=True))
    assert all(_flat(c) in text for c in _clues(book.puzzles[1]))  # all on the puzzle's one page


def test_latex_refuses_a_puzzle_that_cannot_fit(tmp_path):
    if not HAVE_TEX:
        pytest.skip("latexmk/pdflatex not installed")
    long = "an extremely long clue that goes on and on " * 12
    p = _puzzle(PATTERN_15, 5, "Too wordy", [long] * 80)
    with pytest.raises(RenderError, match=r"do not fit .* even in 6pt type"):
        render_latex(Book("T", "", "", [], [p]), tmp_path / "b.pdf")
    assert not (tmp_path / "b.pdf").exists()


@needs_tex
@pytest.mark.parametrize("trim, size", [("letter", 60), ("6x9", 40)])
def test_latex_refuses_a_grid_too_large_for_the_page(tmp_path, trim, size):
    # a large grid is alone on its page, in squares down to 10bp (a 25x25 on 6x9 fits)
    big = _puzzle(["." * size] * size, 3, "Huge")
    with pytest.raises(RenderError, match=rf"puzzle 2 \(Huge\): its {size}x{size} grid needs squares of at least 10bp"):
        render_latex(Book("T", "", "", [], [_puzzle(PATTERN_5, 1, "Fine"), big], trim=trim), tmp_path / "b.pdf")
    assert not (tmp_path / "b.pdf").exists()


@needs_tex
def test_latex_broken_template_is_a_render_error(tmp_path):
    (tmp_path / "book.tex.j2").write_text("\\documentclass{book} ((( book.nosuchfield ))) ((* if *))")
    with pytest.raises(RenderError, match="LaTeX template book.tex.j2"):
        render_latex(_mini_book(), tmp_path / "b.pdf", template_dir=tmp_path)
    (tmp_path / "book.tex.j2").write_text("\\documentclass{book}\\begin{document}((( book.nosuchfield )))\\end{document}")
    with pytest.raises(RenderError, match="nosuchfield"):
        render_latex(_mini_book(), tmp_path / "b.pdf", template_dir=tmp_path)
    (tmp_path / "book.tex.j2").write_text("\\documentclass{book}\\begin{document}\\undefinedmacro\\end{document}")
    with pytest.raises(RenderError, match=r"(?s)pdflatex failed .*Undefined control sequence"):
        render_latex(_mini_book(), tmp_path / "b.pdf", template_dir=tmp_path)
    assert not (tmp_path / "b.pdf").exists()


@needs_tex
@needs_poppler
@pytest.mark.parametrize("trim, safety", [("letter", 0.9), ("6x9", 0.6)])
def test_latex_spilled_puzzle_is_detected_and_tightened(tmp_path, monkeypatch, trim, safety):
    """Make the fit estimate too optimistic: TeX's page marks, or its log's overfull pages, must catch it.

    On one page, a puzzle's heading, grid and clue columns are one block: too
    tall, TeX ships the page overfull.  On a facing clue page the multicols
    clues run onto the next page.
    """
    from pipeline.render import latex, latexfit

    overfull = []
    real = latex._overfull_pages
    monkeypatch.setattr(latex, "_overfull_pages", lambda log: overfull.append(real(log)) or overfull[-1])
    monkeypatch.setattr(latexfit, "_SAFETY", safety)
    monkeypatch.setattr(latexfit, "_SLACK_LINES", 0.0)
    book = _book(trim)
    book.puzzles = book.puzzles[1:]
    out = tmp_path / "b.pdf"
    stats = latex.render_latex(book, out)
    assert stats["rounds"] > 1
    plan = plan_book(book)
    assert bool(overfull[0]) == (plan.layout == "page") and overfull[-1] == {}
    assert stats["pages"] == plan.total == 2 + 1 + 2 * plan.pages_per_puzzle + 1
    bottom = (book.page_trim.height - book.page_trim.bottom) * 72
    for k, start in enumerate(plan.puzzle_pages):  # now every clue is on its page, above the bottom margin
        page = start + plan.pages_per_puzzle - 1
        words = _words(out, page)
        _head, foot = _head_and_foot(out, page, book)
        assert [w[4] for w in foot] == [str(page)]
        assert max(w[3] for w in words if w not in foot) < bottom + 2.5
        text = _flat(_page_text(out, page, raw=True))
        assert all(_flat(c) in text for c in _clues(book.puzzles[k]) if c not in NASTY)


# -- the PDF itself ---------------------------------------------------------------------
@needs_tex
@needs_poppler
def test_latex_text_has_every_clue(tex_pdf):
    book, out, _ = tex_pdf
    text = _norm(_pdftotext(out, raw=True))
    for p in book.puzzles:
        for clue in _clues(p):
            if clue in NASTY:
                continue  # checked literally below
            assert _norm(clue) in text, clue
    assert "Solutions" in text and "Rivers & Mountains" in text


@needs_tex
@needs_poppler
def test_latex_fonts_all_embedded(tex_pdf, facing_6x9):
    for _book_, out, _stats in (tex_pdf, facing_6x9):
        fonts = _pdffonts(out)
        assert fonts and all(emb == "yes" for _name, emb in fonts), fonts


@needs_tex
def test_latex_is_deterministic(tex_pdf, tmp_path):
    again = tmp_path / "again.pdf"
    render_latex(_book(), again, workdir=tmp_path / "work")
    assert again.read_bytes() == tex_pdf[1].read_bytes()


@needs_tex
@needs_poppler
def test_latex_hostile_text_prints_literally(tmp_path):
    from pypdf import PdfReader

    work = tmp_path / "work"
    work.mkdir()
    (work / "secrets.txt").write_text("TOPSECRET\n")
    grid = _fill(PATTERN_5, 7)
    clues = {(s.direction, s.number): NASTY[i % len(NASTY)] for i, s in enumerate(grid.slots())}
    book = Book(
        title=r"Book $x$ & {Co} \input{secrets.txt}",
        subtitle="Sub_title ~ #1",
        author="Ann & Bob",
        copyright_lines=[r"(c) 2025 \write18{touch pwned}", "Zoë’s café — 東京"],
        puzzles=[Puzzle(grid, clues, title=r"\textbf{Bold} 50% off")],
        trim="6x9",
    )
    out = tmp_path / "nasty.pdf"
    stats = render_latex(book, out, workdir=work)
    assert stats["pages"] == plan_book(book).total == 6  # title, copyright, contents, grid, clues, solutions
    text = _norm(_pdftotext(out))
    for literal in [
        r"\input{secrets.txt}",
        r"\write18{rm -rf /}",
        "Unbalanced {{} braces",
        r"Ten specials \ { } $ & # ^ _ % ~ in a row",
        r"\end{document} too soon",
        r"\textbf{Bold} 50% off",
        "Zoë's café -- ??",
        r"Book $x$ & {Co}",
        "Sub_title ~ #1",
    ]:
        assert _norm(literal) in text, literal
    assert "TOPSECRET" not in text
    assert not (work / "pwned").exists()
    box = PdfReader(out).pages[0].mediabox
    assert (float(box.width), float(box.height)) == pytest.approx((432, 648), abs=0.1)


def test_latex_missing_engine_says_what_to_install(tmp_path, monkeypatch):
    empty = tmp_path / "bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    with pytest.raises(RenderError, match=r"apt-get install latexmk texlive-latex-base"):
        render_latex(_book(), tmp_path / "b.pdf")
    assert not (tmp_path / "b.pdf").exists()
