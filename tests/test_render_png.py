"""Page pictures: ``xw preview``, and each renderer's grid read back from its pixels.

A puzzle page of each renderer's PDF is drawn to PNG with
:func:`~pipeline.render.preview.render_previews` and the grid recovered
from the picture alone (:func:`renderkit.read_grid_png`): its rows and
columns (the grid lines counted), its black squares and its numbered
squares must be the puzzle's.
"""

from __future__ import annotations

import pytest

from pipeline.cli import main
from pipeline.model.grid import BLACK
from pipeline.render import Book, RenderError, render_latex, render_pdf
from pipeline.render.book import plan_book
from pipeline.render.preview import pdf_page_count, render_previews
from renderkit import PATTERN_15, _puzzle, needs_poppler, needs_tex, read_grid_png

DPI = 120


def _one_puzzle_book(trim: str) -> Book:
    return Book(
        title="Pictures",
        subtitle="",
        author="A. Setter",
        copyright_lines=["Copyright 2025 A. Setter."],
        puzzles=[_puzzle(PATTERN_15, 2, "Rivers & Mountains")],
        trim=trim,
    )


def _render(renderer: str, book: Book, out):
    if renderer == "latex":
        return render_latex(book, out)
    return render_pdf(book, out)


@pytest.fixture(scope="module")
def reportlab_book(tmp_path_factory):
    out = tmp_path_factory.mktemp("png") / "book.pdf"
    book = _one_puzzle_book("letter")
    render_pdf(book, out)
    return book, out


@needs_poppler
@pytest.mark.parametrize("trim", ["letter", "6x9"])
@pytest.mark.parametrize("renderer", ["reportlab", pytest.param("latex", marks=needs_tex)])
def test_grid_read_back_from_the_puzzle_page_picture(renderer, trim, tmp_path):
    book = _one_puzzle_book(trim)
    pdf = tmp_path / "book.pdf"
    _render(renderer, book, pdf)
    page = plan_book(book).puzzle_pages[0]
    png = tmp_path / "puzzle.png"
    render_previews(pdf, [png], first_page=page, dpi=DPI)
    seen = read_grid_png(png)
    grid = book.puzzles[0].grid
    assert (seen.rows, seen.cols) == (grid.rows, grid.cols), f"{renderer} {trim}: page {page} grid lines"
    assert seen.blacks == {divmod(i, grid.cols) for i, ch in enumerate(grid.cells) if ch == BLACK}
    assert seen.numbered == {divmod(i, grid.cols) for i in grid.numbers()}
    # square cells, evenly spaced
    steps = {b - a for a, b in zip(seen.xs, seen.xs[1:])} | {b - a for a, b in zip(seen.ys, seen.ys[1:])}
    assert max(steps) - min(steps) <= 2


@needs_poppler
def test_the_title_page_has_no_grid(reportlab_book, tmp_path):
    _, pdf = reportlab_book
    render_previews(pdf, [tmp_path / "title.png"], dpi=DPI)
    with pytest.raises(AssertionError, match="no grid"):
        read_grid_png(tmp_path / "title.png")


@needs_poppler
def test_previews_are_the_first_pages_and_the_same_bytes_every_time(reportlab_book, tmp_path):
    from PIL import Image

    _, pdf = reportlab_book
    first = [tmp_path / "a" / f"page-{i}.png" for i in (1, 2, 3)]
    stats = render_previews(pdf, first, dpi=50)
    assert stats["pages"] == 3 and stats["book_pages"] == pdf_page_count(pdf)
    assert [Image.open(p).size for p in first] == [(425, 550)] * 3  # letter at 50 dpi
    again = [tmp_path / "b" / f"page-{i}.png" for i in (1, 2, 3)]
    render_previews(pdf, again, dpi=50)
    assert [p.read_bytes() for p in first] == [p.read_bytes() for p in again]
    assert len({p.read_bytes() for p in first}) == 3  # three different pages
    assert all(p.stat().st_mode & 0o777 == 0o644 for p in first)  # readable like every other output
    # the third page alone, drawn on its own, is the same picture
    render_previews(pdf, [tmp_path / "third.png"], first_page=3, dpi=50)
    assert (tmp_path / "third.png").read_bytes() == first[2].read_bytes()


@needs_poppler
def test_too_few_pages_bad_files_and_values_write_nothing(reportlab_book, tmp_path):
    _, pdf = reportlab_book
    total = pdf_page_count(pdf)
    outs = [tmp_path / f"p{i}.png" for i in range(total + 1)]
    with pytest.raises(RenderError, match=f"has {total} pages, but pages 1-{total + 1} were asked for"):
        render_previews(pdf, outs)
    with pytest.raises(RenderError, match=f"has {total} pages, but page {total + 1} was asked for"):
        render_previews(pdf, outs[:1], first_page=total + 1)
    (tmp_path / "fake.pdf").write_text("not a pdf\n")
    with pytest.raises(RenderError, match="fake.pdf: pdfinfo could not read it"):
        render_previews(tmp_path / "fake.pdf", outs[:1])
    with pytest.raises(RenderError, match="no such PDF"):
        render_previews(tmp_path / "missing.pdf", outs[:1])
    for bad, match in (({"dpi": 5}, "dpi must be"), ({"first_page": 0}, "first page must be")):
        with pytest.raises(RenderError, match=match):
            render_previews(pdf, outs[:1], **bad)
    with pytest.raises(RenderError, match="given twice"):
        render_previews(pdf, [outs[0], outs[0]])
    assert list(tmp_path.glob("*.png")) == [] and [p.name for p in tmp_path.iterdir()] == ["fake.pdf"]


def test_missing_pdftoppm_names_the_debian_package(reportlab_book, tmp_path, monkeypatch):
    _, pdf = reportlab_book
    monkeypatch.setenv("PATH", str(tmp_path))  # no poppler here
    with pytest.raises(RenderError, match="pdftoppm not found on PATH; install poppler-utils"):
        render_previews(pdf, [tmp_path / "p.png"])
    assert not (tmp_path / "p.png").exists()


@needs_poppler
def test_xw_preview_writes_the_pages_or_says_what_is_wrong(reportlab_book, tmp_path, capsys):
    _, pdf = reportlab_book
    outs = [str(tmp_path / "out" / f"page-{i}.png") for i in (1, 2)]
    assert main(["preview", str(pdf), "--out", *outs, "--dpi", "40"]) == 0
    assert all((tmp_path / "out" / f"page-{i}.png").stat().st_size > 0 for i in (1, 2))
    assert '"pages": 2' in capsys.readouterr().out
    many = [str(tmp_path / "bad" / f"{i}.png") for i in range(60)]
    assert main(["preview", str(pdf), "--out", *many]) == 2
    err = capsys.readouterr().err
    assert err.startswith("xw preview: error: ") and "were asked for" in err and "Traceback" not in err
    assert not (tmp_path / "bad").exists()
