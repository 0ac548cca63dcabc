"""Fuzzing the LaTeX renderer: 10,000 seeded random hostile clues typeset in one book.

Each clue is a mix of what breaks TeX or a font: the ten specials, TeX
code (``\\input{/etc/passwd}``, ``\\write18``, ``\\def``, ``^^5c``),
unbalanced braces, runs of 60 to 120 characters without a space (letters,
URLs, specials), text in many scripts, combining marks, emoji, right-to-left text and its
controls, control and format characters, odd spaces, quotes, dashes and
ellipses.  They fill 136 puzzles of 74 clues (every slot of a 15x15), with
hostile titles and front matter too, rendered by pdfLaTeX in one book: it
must compile, run no code, and print every string -- as `tex_escape`
folds it -- where it belongs: each puzzle's title and clues are read back
in their order from the page the plan gives it (pdftotext), the front
matter from the pages before.  (Before tex_escape gave long runs places
to break, 232 of the 10,210 strings ran off the page and were cut.)
"""

from __future__ import annotations

import random
import re
import unicodedata

from pipeline.model.puzzle import Puzzle
from pipeline.render import Book
from pipeline.render.book import fold_text, plan_book
from pipeline.render.texescape import _printable, tex_escape
from renderkit import PATTERN_15, _fill, _norm, needs_poppler, needs_tex, render_hostile_latex
from test_render import _unescaped_specials

SEED = 7_2026
PUZZLES = 136  # x 74 clues = 10,064 clues, and 136 titles and the front matter
STRINGS_AT_LEAST = 10_000

_SPECIALS = list("\\{}$&#^_%~")
_TEX_CODE = [
    r"\def", r"\def\x{", r"\gdef\@title{x}", r"\input{/etc/passwd}", r"\input /etc/passwd ", r"\include{x}",
    r"\write18{touch pwned}", r"\immediate\write18{touch pwned}", r"\openout1=pwned.tex", r"\read16 to \x",
    "\\\\", r"\\[2pt]", r"\par", r"\relax", r"\end{document}", r"\begin{verbatim}", r"\verb|x|", r"\csname x\endcsname",
    r"\catcode`\{=12", r"\catcode`\^^M=13", r"\makeatletter\@@end", r"\expandafter\x", r"\iffalse", r"\fi", r"\else",
    r"\newcommand{\x}{y}", r"\let\par\relax", r"\usepackage{x}", r"\jobname", r"\@", r"\\\\\\", r"\ ", "\\",
    "^^M", "^^J", "^^5c", "^^5cinput{x}", "^^7b", "^^7d", "^^@", "^^^^2028", "^^", "^^e9", "$$", "$x^2$", "#1", "##",
    "%", "%%\n", "~~", "&&", "__", r"\#", r"\{", "\\}",
]  # fmt: skip
_BRACES = ["{", "}", "{{", "}}", "{{{", "}}}", "}{", "{}", "{{}", "}}{", "{\\}", "\\{}"]
_SCRIPTS = [
    "Ελληνικά", "Москва", "Україна", "שלום", "مرحبا", "فارسی", "हिन्दी", "বাংলা", "ไทย", "東京", "中文字", "日本語",
    "ひらがな", "カタカナ", "한국어", "ქართული", "Հայերեն", "አማርኛ", "ᏣᎳᎩ", "ᚠᚢᚦ", "𝐀𝐁𝐂", "𝔉𝔯𝔞𝔨", "ＦＵＬＬ",
    "Łódź", "Kraków", "Şişli", "Ağrı", "Tiếng Việt", "Ærøskøbing", "Straße", "Øresund", "Þingvellir", "ŋəʃ",
    "naïve", "façade", "Zoë", "señor", "¿Qué?", "¡Olé!", "½ ¼ ¾", "© ® ™", "µ° ±×÷", "§¶", "€100", "£5", "¥3",
]  # fmt: skip
_COMBINING = [
    "e\u0301", "a\u0308\u0323", "\u0301", "\u0301\u0301\u0301", "Z\u0334\u0321\u0327a\u0337l\u0336g\u0338o\u0335",
    "o\u0302\u0303\u0304\u0305", "n\u0303", "\u20dd", "x\u20e3",
]  # fmt: skip
_EMOJI = ["🙂", "👍🏽", "👨\u200d👩\u200d👧", "🇫🇷", "1\ufe0f\u20e3", "❤\ufe0f", "🧩", "🏳\ufe0f\u200d🌈", "😀😃😄"]
_RTL = ["שלום עולם", "مرحبا بالعالم", "\u202eevil\u202c", "\u200fRLM", "\u200eLRM", "\u2067isolate\u2069", "\u202bembed\u202c"]
_CONTROLS = [chr(c) for c in [*range(0, 32), 127, *range(0x80, 0xA0)]] + [
    "\ud800", "\udfff", "\ue000", "\uffff", "\ufffe", "\u0378", "\U0010ffff",
]  # fmt: skip
_SPACES = [" ", "  ", "\t", "\n", "\r\n", "\r", "\u00a0", "\u202f", "\u2009", "\u2003", "\u3000", "\u200b", "\u200c",
           "\u200d", "\ufeff", "\u00ad", "\u2028", "\u2029", "\x0b", "\x0c", "\x85", "\u2060", "\u180e"]  # fmt: skip
_PUNCT = ["“", "”", "‘", "’", '"', "'", "`", "«", "»", "‹", "›", "„", "‚", "—", "–", "‒", "―", "‐", "‑", "−", "…", "⋯",
          "--", "---", "''", "``", "!`", "?`", ",,", "<<", ">>", "<", ">", "|", "[", "]", "[opt]", "...", "•", "†", "‡",
          "·", "¨", "´", "¸", "¯", "ˆ", "˜"]  # fmt: skip
_WORDS = "river mountain salt harbour lantern quiet orbit ember velvet meadow cipher falcon tundra anchor".split()


def _long_word(rnd: random.Random) -> str:
    """60 to 120 characters with no space: letters, a URL, or a run of specials."""
    n = rnd.randint(60, 120)
    kind = rnd.randrange(4)
    if kind == 0:
        return "".join(rnd.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(n))
    if kind == 1:
        return ("https://example.com/a_b/c%20d?e=f&g=h#i~j" * 4)[:n]
    if kind == 2:
        return "".join(rnd.choice("\\{}$&#^_%~-") for _ in range(n))
    return "".join(rnd.choice(_SCRIPTS + _PUNCT) for _ in range(n // 4))[:n].replace(" ", "")


def _piece(rnd: random.Random) -> str:
    kind = rnd.choices(
        ["special", "tex", "brace", "long", "script", "combining", "emoji", "rtl", "control", "space", "punct", "word"],
        weights=[10, 12, 6, 3, 10, 4, 4, 4, 6, 8, 10, 20],
    )[0]
    if kind == "special":
        return "".join(rnd.choice(_SPECIALS) for _ in range(rnd.randint(1, 4)))
    if kind == "tex":
        return rnd.choice(_TEX_CODE)
    if kind == "brace":
        return rnd.choice(_BRACES)
    if kind == "long":
        return _long_word(rnd)
    if kind == "script":
        return rnd.choice(_SCRIPTS)
    if kind == "combining":
        return rnd.choice(_COMBINING)
    if kind == "emoji":
        return rnd.choice(_EMOJI)
    if kind == "rtl":
        return rnd.choice(_RTL)
    if kind == "control":
        return "".join(rnd.choice(_CONTROLS) for _ in range(rnd.randint(1, 3)))
    if kind == "space":
        return rnd.choice(_SPACES)
    if kind == "punct":
        return rnd.choice(_PUNCT)
    return rnd.choice(_WORDS)


def hostile_string(rnd: random.Random) -> str:
    """One hostile clue: a few pieces run together or spaced, sometimes with spaces around it all."""
    pieces = [_piece(rnd) for _ in range(rnd.randint(1, 7))]
    text = "".join(p + rnd.choice(["", "", " ", rnd.choice(_SPACES)]) for p in pieces)
    if rnd.random() < 0.2:
        text = rnd.choice(_SPACES) + text + rnd.choice(_SPACES)
    if not _flat(text):
        text += " " + rnd.choice(_WORDS)  # a clue prints something (the book refuses a blank one)
    return text


def _flat(text: str) -> str:
    """``text`` as it should read in the PDF, compared without spaces and hyphens (TeX breaks lines where it likes)."""
    text = _norm(fold_text(unicodedata.normalize("NFC", text), _printable))
    for a, b in (("`", "'"), ("ˆ", "^"), ("˜", "~")):
        text = text.replace(a, b)
    return re.sub(r"[\s\-\u00ad]+", "", text)


def _fuzz_book(rnd: random.Random) -> tuple[Book, list[list[str]]]:
    puzzles, clue_lists = [], []
    for k in range(PUZZLES):
        grid = _fill(PATTERN_15, 1000 + k)
        clues = {(s.direction, s.number): hostile_string(rnd) for s in grid.slots()}
        puzzle = Puzzle(grid, clues, title=hostile_string(rnd))
        puzzles.append(puzzle)
        clue_lists.append([clue for d in ("across", "down") for _s, _a, clue in puzzle.entries(d)])
    book = Book(
        title=hostile_string(rnd),
        subtitle=hostile_string(rnd),
        author=hostile_string(rnd),
        copyright_lines=[hostile_string(rnd) for _ in range(8)],
        puzzles=puzzles,
    )
    return book, clue_lists


def test_the_strings_are_hostile_and_many():
    rnd = random.Random(SEED)
    strings = [hostile_string(rnd) for _ in range(STRINGS_AT_LEAST)]
    joined = "".join(strings)
    for must in [*_SPECIALS, r"\input{/etc/passwd}", r"\write18", r"\def", "\\\\", r"\par", "^^M", "^^5c", "\u202e",
                 "\u0301", "\u00a0", "\t", "\x00", "…", "—", "“", "🙂"]:  # fmt: skip
        assert must in joined, must
    assert sum(1 for s in strings if re.search(r"[^\s]{60,}", s)) > 100  # long words without spaces
    assert sum(1 for s in strings if s != s.strip()) > 1000  # leading or trailing spaces
    assert len({unicodedata.name(c, "?").split()[0] for c in joined}) > 40  # many scripts and kinds of character
    assert [s for s in strings if _unescaped_specials(tex_escape(s))] == []


@needs_tex
@needs_poppler
def test_ten_thousand_hostile_clues_compile_and_print(tmp_path):
    rnd = random.Random(SEED)
    book, clue_lists = _fuzz_book(rnd)
    strings = [s for clues in clue_lists for s in clues]
    strings += [p.title for p in book.puzzles] + [book.title, book.subtitle, *book.copyright_lines]
    assert len(strings) >= STRINGS_AT_LEAST
    raw = render_hostile_latex(book, tmp_path, "fuzz")
    pages = [_flat(page) for page in raw.split("\f")]  # pdftotext ends each page with a form feed
    plan = plan_book(book)
    missing = []
    for k, clues in enumerate(clue_lists):
        # The puzzle's title and clues, in order, on its page(s).
        first = plan.puzzle_pages[k] - 1
        text, at = "".join(pages[first : first + plan.pages_per_puzzle]), 0
        for s in [book.puzzles[k].title, *clues]:
            found = text.find(_flat(s), at)
            if found < 0:
                missing.append((k + 1, s))
            else:
                at = found + len(_flat(s))
    front = "".join(pages[: plan.puzzle_pages[0] - 1])
    missing += [(0, s) for s in [book.title, book.subtitle, *book.copyright_lines] if _flat(s) not in front]
    assert missing == [], f"{len(missing)} of {len(strings)} strings not found back, e.g. {missing[:5]!r}"
