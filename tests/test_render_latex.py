"""Stage 7, the LaTeX renderer: real PDFs typeset by pdfLaTeX, checked with poppler and pypdf."""

from __future__ import annotations


import pytest

from pipeline.model.puzzle import Puzzle
from pipeline.render import Book, RenderError, render_latex
from renderkit import (
    HAVE_TEX,
    NASTY,
    PATTERN_5,
    PATTERN_15,
    _book,
    _fill,
    _norm,
    _pdffonts,
    _pdftotext,
    _puzzle,
    needs_poppler,
    needs_tex,
)


# -- LaTeX --------------------------------------------------------------------------
@pytest.fixture(scope="module")
def tex_pdf(tmp_path_factory):
    if not HAVE_TEX:
        pytest.skip("latexmk/pdflatex not installed")
    d = tmp_path_factory.mktemp("tex")
    book = _book()
    stats = render_latex(book, d / "book.pdf")
    return book, d / "book.pdf", stats


@needs_tex
def test_latex_page_count_and_size(tex_pdf):
    from pypdf import PdfReader

    book, out, stats = tex_pdf
    reader = PdfReader(out)
    assert len(reader.pages) == stats["pages"] == 2 + len(book.puzzles) + stats["solution_pages"]
    box = reader.pages[0].mediabox
    assert (float(box.width), float(box.height)) == pytest.approx((612, 792), abs=0.1)


@needs_tex
@needs_poppler
def test_latex_text_has_every_clue(tex_pdf):
    book, out, _ = tex_pdf
    text = _norm(_pdftotext(out))
    for p in book.puzzles:
        for direction in ("across", "down"):
            for slot, _answer, clue in p.entries(direction):
                if clue in NASTY:
                    continue  # checked literally below
                assert _norm(clue) in text, clue
    assert "Solutions" in text and "Rivers & Mountains" in text


@needs_tex
@needs_poppler
def test_latex_fonts_all_embedded(tex_pdf):
    fonts = _pdffonts(tex_pdf[1])
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
    assert stats["pages"] == 4
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


@needs_tex
def test_latex_spilled_puzzle_is_detected_and_tightened(tmp_path, monkeypatch):
    """Make the fit estimate far too optimistic: TeX's page numbers must catch it."""
    from pypdf import PdfReader

    from pipeline.render import latex

    monkeypatch.setattr(latex, "_SAFETY", 0.7)
    monkeypatch.setattr(latex, "_SLACK_LINES", 0.0)
    book = _book()
    book.puzzles = book.puzzles[1:]
    out = tmp_path / "b.pdf"
    stats = latex.render_latex(book, out)
    assert stats["rounds"] > 1
    assert len(PdfReader(out).pages) == stats["pages"] == 2 + 2 + 1


def test_latex_missing_engine_says_what_to_install(tmp_path, monkeypatch):
    empty = tmp_path / "bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    with pytest.raises(RenderError, match=r"apt-get install latexmk texlive-latex-base"):
        render_latex(_book(), tmp_path / "b.pdf")
    assert not (tmp_path / "b.pdf").exists()


def test_latex_refuses_a_puzzle_that_cannot_fit(tmp_path):
    if not HAVE_TEX:
        pytest.skip("latexmk/pdflatex not installed")
    long = "an extremely long clue that goes on and on " * 12
    p = _puzzle(PATTERN_15, 5, "Too wordy", [long] * 80)
    with pytest.raises(RenderError, match="do not fit"):
        render_latex(Book("T", "", "", [], [p]), tmp_path / "b.pdf")
