"""Stage 7, the reportlab renderer: real PDFs, checked with poppler and pypdf."""

from __future__ import annotations

import subprocess

import pytest

from pipeline.render import Book, RenderError, render_pdf
from pipeline.render.book import TRIMS, fold_text
from renderkit import (
    NASTY,
    PATTERN_5,
    PATTERN_15,
    _black_groups,
    _book,
    _norm,
    _pdffonts,
    _pdftotext,
    _puzzle,
    _solid_blobs,
    _solution_pages,
    needs_poppler,
)


# -- reportlab ----------------------------------------------------------------------
@pytest.fixture(scope="module")
def rl_pdf(tmp_path_factory):
    out = tmp_path_factory.mktemp("rl") / "book.pdf"
    book = _book()
    stats = render_pdf(book, out)
    return book, out, stats


def test_reportlab_page_count_and_stats(rl_pdf):
    from pypdf import PdfReader

    book, out, stats = rl_pdf
    n = len(book.puzzles)
    solution_pages = _solution_pages(book, stats["solutions_per_page"])
    assert stats["pages"] == 1 + 1 + n + solution_pages
    assert len(PdfReader(out).pages) == stats["pages"]
    assert 7.0 <= stats["min_font_size"] <= 9.5


@needs_poppler
def test_reportlab_text_has_every_clue(rl_pdf):
    book, out, _ = rl_pdf
    text = _norm(_pdftotext(out, raw=True))
    for p in book.puzzles:
        for direction in ("across", "down"):
            for slot, _answer, clue in p.entries(direction):
                assert _norm(fold_text(clue, lambda ch: ord(ch) < 0x2000 or ch in "’“”—")) in text, clue
    for word in ("Solutions", "ACROSS", "DOWN", "Puzzle 3", "Test Crosswords", "WordNet 3.0", "Zoë's café -- ??"):
        assert _norm(word) in text


@needs_poppler
def test_reportlab_fonts_all_embedded(rl_pdf):
    fonts = _pdffonts(rl_pdf[1])
    assert fonts, "no fonts listed"
    assert all(emb == "yes" for _name, emb in fonts), fonts
    assert all("Vera" in name for name, _ in fonts), fonts  # no base-14 Helvetica


@pytest.mark.parametrize("trim", ["letter", "6x9", "a4"])
def test_reportlab_page_size_is_trim(tmp_path, trim):
    from pypdf import PdfReader

    out = tmp_path / "b.pdf"
    book = _book(trim)
    if trim == "6x9":  # a 15x15 with 74 clues needs a bigger page than 6x9
        book.puzzles = [book.puzzles[0], _puzzle(PATTERN_5, 8, "Small", NASTY)]
    render_pdf(book, out)
    t = TRIMS[trim]
    for page in PdfReader(out).pages:
        assert float(page.mediabox.width) == pytest.approx(t.width * 72, abs=0.05)
        assert float(page.mediabox.height) == pytest.approx(t.height * 72, abs=0.05)


def test_reportlab_is_deterministic(tmp_path, rl_pdf):
    again = tmp_path / "again.pdf"
    render_pdf(_book(), again)
    assert again.read_bytes() == rl_pdf[1].read_bytes()


def test_reportlab_refuses_to_clip(tmp_path):
    long = "an extremely long clue that goes on and on " * 12
    p = _puzzle(PATTERN_15, 5, "Too wordy", [long] * 80)
    out = tmp_path / "b.pdf"
    with pytest.raises(RenderError, match="do not fit"):
        render_pdf(Book("T", "", "", [], [p]), out)
    assert not out.exists()  # nothing half-written


@needs_poppler
def test_reportlab_first_puzzle_page_png(rl_pdf, tmp_path):
    from PIL import Image

    book, out, _ = rl_pdf
    subprocess.run(["pdftoppm", "-r", "50", "-f", "3", "-l", "3", "-png", str(out), str(tmp_path / "pg")], check=True)
    pngs = list(tmp_path.glob("pg*.png"))
    assert len(pngs) == 1 and pngs[0].stat().st_size > 5000
    img = Image.open(pngs[0]).convert("L")
    assert img.size == (425, 550)  # letter at 50 dpi
    # Structure: erode away text and grid lines (a dark pixel survives only
    # if its whole 7x7 neighbourhood is dark), then count the solid blobs
    # left: one per group of edge-touching black squares of the puzzle.
    assert _solid_blobs(img, radius=3) == _black_groups(book.puzzles[0].grid)
