"""Stage 7, the reportlab renderer: real PDFs, checked with poppler and pypdf.

Each test reads back a PDF the renderer wrote: its pages (pypdf), its text
page by page and where each word sits (pdftotext, ``-bbox``), its fonts
(pdffonts) and, once, its pixels (pdftoppm).
"""

from __future__ import annotations

import re
import subprocess

import pytest

from pipeline.render import Book, RenderError, render_pdf
from pipeline.render.book import FONT_HARD_MIN, TRIMS, fold_text, get_trim, plan_book
from renderkit import (
    PATTERN_15,
    PATTERN_5,
    _black_groups,
    _book,
    _norm,
    _pdffonts,
    _pdftotext,
    _puzzle,
    _solid_blobs,
    _words,
    needs_poppler,
)


# -- reading the PDF back -----------------------------------------------------------
def _pages_text(path) -> list[str]:
    """pdftotext -raw of each page (index 0 is page 1)."""
    text = _pdftotext(path, raw=True)
    return text.split("\f")[:-1]


def _region(words, top: float, bottom: float, left: float = 0.0, right: float = 1e9) -> str:
    """The words lying wholly in a region, joined by spaces."""
    return " ".join(w for x0, y0, x1, y1, w in words if y0 >= top and y1 <= bottom and x0 >= left and x1 <= right)


def _clue_texts(puzzle):
    for direction in ("across", "down"):
        for _slot, _answer, clue in puzzle.entries(direction):
            yield _norm(fold_text(clue, lambda ch: ord(ch) < 0x2000 or ch in "’“”—"))


def _render(tmp_path_factory, name, book):
    out = tmp_path_factory.mktemp(name) / "book.pdf"
    return book, out, render_pdf(book, out)


# -- fixtures: one render per book, shared by the tests ---------------------------------
@pytest.fixture(scope="module")
def rl_pdf(tmp_path_factory):
    """The test book on letter: one page per puzzle."""
    return _render(tmp_path_factory, "letter", _book())


@pytest.fixture(scope="module", params=["6x9", "large-print"])
def facing_pdf(request, tmp_path_factory):
    """The test book on the trims whose layout is ``facing``: grid left, clues right."""
    return _render(tmp_path_factory, request.param, _book(request.param))


# -- the page plan ------------------------------------------------------------------
def test_page_count_and_stats(rl_pdf):
    from pypdf import PdfReader

    book, out, stats = rl_pdf
    plan = plan_book(book)
    # title, copyright, contents, one page per puzzle, one solutions page
    assert stats["pages"] == plan.total == 2 + 1 + 3 + 1 == len(PdfReader(out).pages)
    assert stats["contents_pages"] == 1 and stats["solution_pages"] == 1 and stats["puzzle_pages"] == 3
    assert stats["layout"] == "page" and stats["trim"] == "letter" and stats["page_size"] == [612.0, 792.0]
    assert 8.0 <= stats["min_font_size"] <= 14.0 and stats["below_floor"] == []
    assert stats["path"] == str(out)


@needs_poppler
def test_text_has_every_clue(rl_pdf):
    book, out, _ = rl_pdf
    text = _norm(_pdftotext(out, raw=True))
    for p in book.puzzles:
        for clue in _clue_texts(p):
            assert clue in text, clue
    for word in ("Solutions", "ACROSS", "DOWN", "Puzzle 3", "Test Crosswords", "WordNet 3.0", "Zoë's café -- ??"):
        assert _norm(word) in text


def _contents(pages: list[str], plan) -> list[tuple[str, int]]:
    """``(label, page)`` of each contents line, as printed."""
    lines = []
    for text in pages[2 : 2 + len(plan.contents)]:
        for line in text.splitlines():
            m = re.fullmatch(r"(Puzzle \d+.*?|Solutions)[ .]*?(\d+)", line.strip())
            if m:
                lines.append((m.group(1).rstrip(" ."), int(m.group(2))))
    return lines


def _headed(text: str) -> set[int]:
    """Puzzle numbers named on a page."""
    return {int(k) for k in re.findall(r"Puzzle (\d+)", text)}


@needs_poppler
@pytest.mark.parametrize("which", ["letter", "facing"])
def test_contents_lists_every_puzzle_on_the_page_it_is_on(rl_pdf, facing_pdf, which):
    book, out, stats = rl_pdf if which == "letter" else facing_pdf
    plan = plan_book(book)
    pages = _pages_text(out)
    assert len(pages) == stats["pages"]
    lines = _contents(pages, plan)
    assert [label.split(":")[0] for label, _ in lines] == [f"Puzzle {k + 1}" for k in range(len(book.puzzles))] + [
        "Solutions"
    ]
    assert lines[0][0] == "Puzzle 1: Warm-up"
    for k, (_label, page) in enumerate(lines[:-1]):
        # the puzzle is on that page (its heading, its running head), and no other puzzle is
        assert _headed(pages[page - 1]) == {k + 1}, (k, page)
        assert pages[page - 1].lstrip().startswith(f"Puzzle {k + 1}"), (k, page)
    solutions = lines[-1][1]
    assert pages[solutions - 1].lstrip().startswith("Solutions")
    assert "Solutions" not in pages[solutions - 2]


@needs_poppler
def test_running_heads_and_folios(rl_pdf):
    book, out, stats = rl_pdf
    trim = TRIMS["letter"]
    top, bottom, height = trim.top * 72, trim.bottom * 72, trim.height * 72
    for page in range(1, stats["pages"] + 1):
        words = _words(out, page)
        head = _region(words, 0, top)
        foot = _region(words, height - bottom, height)
        if page <= 2:  # title and copyright pages: neither
            assert head == "" and foot == "", page
            continue
        assert foot == str(page)
        middle = 306.0
        outer = _region(words, 0, top, *((middle, 1e9) if page % 2 else (0, middle)))
        inner = _region(words, 0, top, *((0, middle) if page % 2 else (middle, 1e9)))
        assert inner == "Test Crosswords", page
        expect = {3: "Contents", 4: "Puzzle 1: Warm-up", 5: "Puzzle 2: Rivers & Mountains", 7: "Solutions 1-3"}
        if page in expect:
            assert outer == expect[page], page


@needs_poppler
def test_facing_layout_grid_left_clues_right(facing_pdf):
    book, out, stats = facing_pdf
    plan = plan_book(book)
    assert stats["layout"] == plan.layout == "facing"
    assert stats["pages"] == plan.total and stats["puzzle_pages"] == 2 * len(book.puzzles)
    pages = _pages_text(out)
    for k, puzzle in enumerate(book.puzzles):
        left = plan.puzzle_pages[k]
        assert left % 2 == 0, "the grid is on a left-hand page"
        grid_page, clue_page = _norm(pages[left - 1]), _norm(pages[left])
        assert grid_page.startswith(f"Puzzle {k + 1}") and "ACROSS" not in grid_page
        assert clue_page.startswith(f"Puzzle {k + 1} Clues ACROSS")
        for clue in _clue_texts(puzzle):
            assert clue in clue_page, (k, clue)
    for blank in plan.blank_pages:
        assert pages[blank - 1].strip() == ""


@needs_poppler
@pytest.mark.parametrize("which", ["letter", "facing"])
def test_fonts_all_embedded(rl_pdf, facing_pdf, which):
    fonts = _pdffonts((rl_pdf if which == "letter" else facing_pdf)[1])
    assert fonts, "no fonts listed"
    assert all(emb == "yes" for _name, emb in fonts), fonts
    assert all("Vera" in name for name, _ in fonts), fonts  # no base-14 Helvetica


def test_outline_has_contents_puzzles_and_solutions(rl_pdf):
    from pypdf import PdfReader

    book, out, _ = rl_pdf
    reader = PdfReader(out)
    entries = [(o.title, reader.get_destination_page_number(o) + 1) for o in reader.outline]
    plan = plan_book(book)
    assert entries == [
        ("Contents", 3),
        ("Puzzle 1: Warm-up", plan.puzzle_pages[0]),
        ("Puzzle 2: Rivers & Mountains", plan.puzzle_pages[1]),
        ("Puzzle 3: Salt_and ~Pepper~", plan.puzzle_pages[2]),
        ("Solutions", plan.solution_first),
    ]


# -- page sizes and margins -----------------------------------------------------------
@pytest.mark.parametrize("trim", ["letter", "8.5x11", "a4", "6x9", "large-print"])
def test_page_size_is_trim(tmp_path, trim):
    from pypdf import PdfReader

    out = tmp_path / "b.pdf"
    book = _book(trim)
    book.puzzles = book.puzzles[:2]
    stats = render_pdf(book, out)
    t = get_trim(trim)
    assert stats["page_size"] == pytest.approx([t.width * 72, t.height * 72], abs=0.01)
    assert stats["layout"] == t.layout and stats["trim"] == t.name
    reader = PdfReader(out)
    assert len(reader.pages) == stats["pages"] == plan_book(book).total
    for page in reader.pages:
        assert float(page.mediabox.width) == pytest.approx(t.width * 72, abs=0.05)
        assert float(page.mediabox.height) == pytest.approx(t.height * 72, abs=0.05)


@needs_poppler
def test_margins_override_moves_the_text_block(tmp_path):
    book = _book()
    book.margins = {"inner": 1.5}
    out = tmp_path / "b.pdf"
    stats = render_pdf(book, out)
    gutter = (1.5 + 0.125) * 72  # inner margin plus the binding offset
    outer = TRIMS["letter"].outer * 72
    for page in range(3, stats["pages"] + 1):
        words = _words(out, page)
        left, right = (gutter, 612 - outer) if page % 2 else (outer, 612 - gutter)
        xs = [w[0] for w in words] + [w[2] for w in words]
        assert min(xs) == pytest.approx(left, abs=0.5), page  # the heading starts at the block's left edge
        assert max(xs) <= right + 0.5, page  # and nothing passes its right edge
        heads = [w for w in words if w[1] < TRIMS["letter"].top * 72]
        assert max(w[2] for w in heads) == pytest.approx(right, abs=0.5), page  # heads flush right
    default = tmp_path / "d.pdf"
    render_pdf(_book(), default)
    assert min(w[0] for w in _words(default, 3)) == pytest.approx((0.75 + 0.125) * 72, abs=0.5)


# -- type size: from the trim's largest down to its floor, then below it with a warning ----
def _wordy(words: int, title: str = "Wordy"):
    return _puzzle(PATTERN_15, 5, title, [" ".join(["word"] * words)] * 80)


def test_type_starts_at_the_trims_largest_size(tmp_path):
    mini = _puzzle(PATTERN_5, 1, "Mini")
    for trim in ("letter", "large-print"):
        stats = render_pdf(Book("T", "", "", [], [mini], trim=trim), tmp_path / "b.pdf")
        assert stats["min_font_size"] == TRIMS[trim].font_max


@needs_poppler
def test_below_floor_is_reported_and_warned(tmp_path, capsys):
    book = Book("T", "", "", [], [_puzzle(PATTERN_5, 1, "Mini"), _wordy(15)])
    out = tmp_path / "b.pdf"
    stats = render_pdf(book, out)
    (entry,) = stats["below_floor"]
    assert entry["puzzle"] == 2 and FONT_HARD_MIN <= entry["size"] < 8.0
    assert stats["min_font_size"] == entry["size"]
    err = capsys.readouterr().err
    assert f"xw render: warning: puzzle 2 set in {entry['size']:g}pt type, below the 8pt floor of the letter trim" in err
    # the clues really are set at that size (pdftotext's word boxes are one size high)
    heights = {round(y1 - y0, 2) for _x0, y0, _x1, y1, w in _words(out, plan_book(book).puzzle_pages[1]) if w == "word"}
    assert heights == {entry["size"]}
    assert all(clue in _norm(_pdftotext(out, raw=True)) for clue in _clue_texts(book.puzzles[1]))


def test_hopeless_puzzle_still_raises(tmp_path):
    long = "an extremely long clue that goes on and on " * 12
    p = _puzzle(PATTERN_15, 5, "Too wordy", [long] * 80)
    out = tmp_path / "b.pdf"
    for trim in ("letter", "6x9"):
        with pytest.raises(RenderError, match=rf"puzzle 1 \(Too wordy\): .* do not fit .* even in {FONT_HARD_MIN:g}pt type"):
            render_pdf(Book("T", "", "", [], [p], trim=trim), out)
        assert not out.exists()  # nothing half-written


def test_overflow_check_names_the_puzzle():
    from pipeline.render import pdf

    pdf._register_fonts()
    trim = TRIMS["letter"]
    area = pdf._area(trim, 4)
    ok = pdf._Page(what="puzzle 7")
    ok.texts.append(pdf._Text(area.left, area.top - 20, "fits", pdf._REGULAR, 10.0, box=(area.left, 0, area.left + 30, 999)))
    pdf._check_page(ok, 4, trim)
    wide = pdf._Page(what="puzzle 7", texts=[pdf._Text(area.left, area.top - 20, "does not fit", pdf._REGULAR, 10.0, box=(area.left, 0, area.left + 30, 999))])
    with pytest.raises(RenderError, match=r"page 4 \(puzzle 7\): 'does not fit' runs .* outside its column"):
        pdf._check_page(wide, 4, trim)
    grid = _puzzle(PATTERN_5, 1, "x")
    over = pdf._Page(what="puzzle 7", grids=[pdf._GridOp(area.left, area.top, 20.0, grid, False)])
    over.texts.append(pdf._Text(area.left + 10, area.top - 30, "clue", pdf._REGULAR, 10.0))
    with pytest.raises(RenderError, match="overlaps a grid"):
        pdf._check_page(over, 4, trim)
    off = pdf._Page(what="puzzle 7", grids=[pdf._GridOp(area.left + 20, area.top, area.width / 5, grid, False)])
    with pytest.raises(RenderError, match="leaves the text block"):
        pdf._check_page(off, 4, trim)


# -- reproducible, and what the first puzzle page looks like ------------------------------
def test_is_deterministic(tmp_path, rl_pdf):
    again = tmp_path / "again.pdf"
    render_pdf(_book(), again)
    assert again.read_bytes() == rl_pdf[1].read_bytes()


@needs_poppler
def test_first_puzzle_page_png(rl_pdf, tmp_path):
    from PIL import Image

    book, out, _ = rl_pdf
    first = str(plan_book(book).puzzle_pages[0])
    subprocess.run(["pdftoppm", "-r", "50", "-f", first, "-l", first, "-png", str(out), str(tmp_path / "pg")], check=True)
    pngs = list(tmp_path.glob("pg*.png"))
    assert len(pngs) == 1 and pngs[0].stat().st_size > 5000
    img = Image.open(pngs[0]).convert("L")
    assert img.size == (425, 550)  # letter at 50 dpi
    # Structure: erode away text and grid lines (a dark pixel survives only
    # if its whole 7x7 neighbourhood is dark), then count the solid blobs
    # left: one per group of edge-touching black squares of the puzzle.
    assert _solid_blobs(img, radius=3) == _black_groups(book.puzzles[0].grid)

