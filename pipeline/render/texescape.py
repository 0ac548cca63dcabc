"""Turning any text into TeX that prints it literally.

Every string that reaches TeX -- titles, clues, licence notices, answer
letters -- goes through :func:`tex_escape`, so puzzle data can never run
TeX code: ``\\input{secrets.txt}`` or ``\\write18{rm -rf ~}`` print as the
characters they are, and unbalanced braces cannot break the document.
"""

from __future__ import annotations

import unicodedata

from .book import fold_text

__all__ = ["tex_escape"]

# The ten characters TeX treats specially, and a few that T1 fonts turn into
# ligatures or that start optional arguments.
_SPECIALS = {
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
    # Not special, but unsafe in a T1 font or after a macro:
    "<": r"\textless{}",  # << is a guillemet ligature in T1
    ">": r"\textgreater{}",
    "|": r"\textbar{}",
    "[": "{[}",  # never read as an optional argument
    "]": "{]}",
    "\u00a0": r"\nobreakspace{}",  # no-break space (what a TeX tie ~ is)
}

# Typographic characters outside Latin-1 that pdfLaTeX prints well.
_TYPOGRAPHIC = {
    "\u2018": "`",
    "\u2019": "'",
    "\u201c": "``",
    "\u201d": "''",
    "\u2013": "--",
    "\u2014": "---",
    "\u2026": r"\dots{}",
    "\u2022": r"\textbullet{}",
    "\u2020": r"\dag{}",
    "\u2021": r"\ddag{}",
    "\u2122": r"\texttrademark{}",
    "\u0152": r"\OE{}",
    "\u0153": r"\oe{}",
}

# Pairs that T1 fonts join into one glyph: !` and ?` (inverted marks),
# ,, (low quotes), `` and '' (double quotes), << and >> (guillemets, escaped
# anyway) and -- (dash).  A curly or straight double quote becomes `` or ''
# on purpose; two apostrophes typed in a row stay two apostrophes.
_LIGATURE_PAIRS = {("!", "`"), ("?", "`"), (",", ","), ("-", "-"), ("'", "'"), ("`", "`")}
_QUOTE_OPENERS = " ([{`\u00a0"

# A run of more than _LONG_RUN characters without a space (a URL, a string of
# specials, a word of 60 letters) gets places to break: TeX would otherwise
# set it on one line, past the column and off the page.  After punctuation a
# plain break (\allowbreak, as url.sty does), between letters a hyphen (\-);
# never more than _MAX_GAP characters apart, never closer than _MIN_GAP.
_LONG_RUN = 16
_MAX_GAP = 10
_MIN_GAP = 3
_BREAK_AFTER = set("/.,;:?!&=_#%\\{}~^$|<>[]@+*)-\u2013\u2014\u2026")
_ALLOW_BREAK = r"\allowbreak{}"


def _printable(ch: str) -> bool:
    o = ord(ch)
    return 0x20 <= o < 0x7F or 0xA0 <= o <= 0xFF or ch in _TYPOGRAPHIC


def tex_escape(text: str) -> str:
    r"""Escape ``text`` so that pdfLaTeX prints it literally.

    Parameters
    ----------
    text : str
        Any text (a clue, a title, a licence line).

    Returns
    -------
    str
        TeX source for a T1-encoded, UTF-8 (``inputenc``) document:

        * the ten specials ``\ { } $ & # ^ _ % ~`` are escaped (``\`` becomes
          ``\textbackslash{}``, ``^`` ``\textasciicircum{}``, ``~``
          ``\textasciitilde{}``), as are ``< > | [ ]``;
        * curly quotes and dashes become TeX's quotes, ``--`` and ``---``; a
          straight ``"`` becomes an opening or closing quote by position;
          hyphens, apostrophes or backquotes typed in a row stay separate
          characters (no dash or quote ligature the text did not ask for);
        * a no-break space becomes ``\nobreakspace{}``; a soft hyphen, like
          other format characters, is dropped;
        * Latin-1 letters are kept (UTF-8), also when typed as a letter and a
          combining accent; other characters are folded to ASCII (``ł`` ->
          ``l``, ``ś`` -> ``s``) or, failing that, ``?``;
        * control characters are dropped, tabs and line breaks become spaces
          (so text can never end a paragraph inside a macro argument);
        * a run of more than 16 characters without a space may break after
          its punctuation (``\allowbreak``) and, at most 10 characters
          apart, between letters with a hyphen (``\-``): a URL or a
          60-letter word wraps in its column instead of running off the page.

    Examples
    --------
    >>> print(tex_escape(r"\input{notes} 100% & $5"))
    \textbackslash{}input\{notes\} 100\% \& \$5
    >>> print(tex_escape("Zoë’s café — 東京"))
    Zoë's café --- ??

    Notes
    -----
    O(len(text)).  The output never contains an unescaped special, so it is
    safe inside any macro argument, and the same text always gives the same
    TeX.
    """
    text = fold_text(unicodedata.normalize("NFC", str(text)), _printable)
    breaks = _break_points(text)
    out: list[str] = []
    prev = " "
    for i, ch in enumerate(text):
        if ch in _SPECIALS:
            piece = _SPECIALS[ch]
        elif ch in _TYPOGRAPHIC:
            piece = _TYPOGRAPHIC[ch]
        elif ch == '"':
            piece = "``" if prev in _QUOTE_OPENERS else "''"
        else:
            piece = ch
        # Keep two pieces from fusing into a ligature the text did not have.
        if out and (out[-1][-1], piece[0]) in _LIGATURE_PAIRS:
            out.append("{}")
        out.append(piece)
        if i in breaks:
            out.append(breaks[i])
        prev = ch
    return "".join(out)


def _break_points(text: str) -> dict[int, str]:
    """``{i: TeX}``: where a long run of ``text`` may break after character ``i``, and how.

    Examples
    --------
    >>> print(tex_escape("see https://example.com/a_b?c=d now"))
    see https:\\allowbreak{}//example.\\allowbreak{}com/\\allowbreak{}a\\_b?\\allowbreak{}c=d now
    >>> print(tex_escape("x" * 24))
    xxxxxxxxxx\\-xxxxxxxxxx\\-xxxx
    """
    out: dict[int, str] = {}
    start = 0
    for end in [*(i for i, ch in enumerate(text) if ch == " "), len(text)]:
        if end - start > _LONG_RUN:
            since = 0
            for i in range(start, end - 1):
                since += 1
                ch, nxt = text[i], text[i + 1]
                if since >= _MIN_GAP and ch in _BREAK_AFTER:
                    out[i], since = _ALLOW_BREAK, 0
                elif since >= _MAX_GAP:
                    out[i] = "\\-" if ch.isalpha() and nxt.isalpha() else _ALLOW_BREAK
                    since = 0
        start = end + 1
    return out
