"""The word list format: ``WORD;score``, one entry a line.

Scores run 0-100 with 50 ordinary; a bare ``WORD`` means 50.  Entries are
normalised to A-Z: accents folded, spaces, hyphens, apostrophes and other
punctuation dropped (``ice cream`` is ``ICECREAM``).  Lines that are blank
or start with ``#`` are skipped.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

from .errors import InputError, numbered_lines
from .fileio import atomic_write, read_text

__all__ = ["normalise", "read_wordlist", "write_wordlist", "DEFAULT_SCORE"]

DEFAULT_SCORE = 50
_DROP = set(" -'\u2019\u2018.,/&!?:\"()")
# Letters that NFKD does not split into a base letter and a mark.
_FOLD = {"ß": "SS", "Æ": "AE", "æ": "AE", "Œ": "OE", "œ": "OE", "Ø": "O", "ø": "O", "Ł": "L", "ł": "L",
         "Đ": "D", "đ": "D", "Þ": "TH", "þ": "TH", "ı": "I"}  # fmt: skip


def normalise(text: str) -> str:
    """Fold an entry to capitals A-Z, or raise ValueError if it cannot be.

    Examples
    --------
    >>> normalise("Crème brûlée")
    'CREMEBRULEE'
    >>> normalise("rock 'n' roll")
    'ROCKNROLL'
    """
    out = []
    for ch in text:
        ch = _FOLD.get(ch, ch)
        for part in unicodedata.normalize("NFKD", ch):
            if "a" <= part <= "z":
                out.append(part.upper())
            elif "A" <= part <= "Z":
                out.append(part)
            elif part in _DROP or unicodedata.combining(part):
                continue
            elif part.isdigit():
                raise ValueError(f"digit {part!r} in {text!r}: entries are letters only")
            else:
                raise ValueError(f"character {part!r} (U+{ord(part):04X}) in {text!r} is not a letter A-Z")
    return "".join(out)


# Digits 0-9 only: float() also takes "1_0", "nan", "inf" and other scripts' digits.
_SCORE = re.compile(r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")
# A score after the word with no ';' before it: "DOG 50", "DOG\t50", "DOG,50".
_UNSEPARATED_SCORE = re.compile(r"[^\W\d_][\s,:=]+[0-9.]+")


def _parse_score(text: str) -> float:
    if not _SCORE.fullmatch(text):
        raise ValueError
    score = float(text)
    if not 0 <= score <= 100:
        raise ValueError
    return score


def read_wordlist(path, min_length: int = 1, max_length: int = 99) -> dict[str, float]:
    """Read a word list into ``{WORD: score}``, in file order.

    Entries whose normalised length is outside ``min_length..max_length``
    are skipped (a grid cannot use them).

    A list of plain lines only (capitals, ``;``, a score of digits), as the
    lexicon writes it, is read by one regular expression (`_read_plain`:
    0.2 s for 300,000 lines, where normalising each entry takes 1.1 s); any
    other list line by line, with the same result.

    Raises
    ------
    InputError
        Naming the file and line: a character that is not a letter, an
        empty entry, a score that is not a number from 0 to 100, or an
        entry listed twice.
    """
    path = Path(path)
    text = read_text(path)
    words = _read_plain(text, min_length, max_length)
    return _read_lines(path, text, min_length, max_length) if words is None else words


# A line of the plainest kind: capitals, ';', a score of digits.
_PLAIN_LINE = re.compile(r"^([A-Z]+);([0-9]+(?:\.[0-9]+)?)\n", re.MULTILINE)


def _read_plain(text: str, min_length: int, max_length: int) -> dict[str, float] | None:
    """The list read in one pass of a regular expression, or None unless every line is plain.

    A list of plain lines only, no word twice and no score over 100, reads
    the same as `_read_lines` reads it (file order, float scores, the same
    lengths kept); on anything else, a bare word, a small letter, a
    comment, a blank line, this gives up and `_read_lines` reads the list
    or names its bad line.

    Examples
    --------
    >>> _read_plain("CAT;60\\nCOT;50.5\\nOX;40\\n", 3, 25)
    {'CAT': 60.0, 'COT': 50.5}
    >>> _read_plain("CAT;60\\ncot;50\\n", 3, 25) is None
    True
    """
    if not text.isascii():
        return None
    if not text.endswith("\n"):
        text += "\n"  # a last line without its newline is a line all the same
    pairs = _PLAIN_LINE.findall(text)
    if len(pairs) != text.count("\n"):
        return None
    scored = dict(pairs)  # word -> score text; in C, as is all that follows
    if len(scored) != len(pairs):
        return None  # a word twice
    value = {t: float(t) for t in set(scored.values())}
    if max(value.values(), default=0.0) > 100:
        return None
    words = dict(zip(scored, map(value.__getitem__, scored.values())))
    if words and (min(map(len, words)) < min_length or max(map(len, words)) > max_length):
        words = {w: s for w, s in words.items() if min_length <= len(w) <= max_length}
    return words


def _read_lines(path: Path, text: str, min_length: int, max_length: int) -> dict[str, float]:
    """`read_wordlist`, line by line: every entry normalised, every problem named with its line."""
    words: dict[str, float] = {}
    first_seen: dict[str, int] = {}
    for lineno, raw in numbered_lines(text):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if "\x00" in line:
            raise InputError("NUL byte in line", path, lineno)
        entry, sep, score_text = line.rpartition(";") if ";" in line else (line, "", "")
        try:
            word = normalise(entry)
        except ValueError as e:
            if not sep and _UNSEPARATED_SCORE.search(entry):
                problem = f"no ';' between word and score in {entry!r} (write WORD;score)"
                raise InputError(problem, path, lineno) from None
            raise InputError(str(e), path, lineno) from None
        if not word:
            raise InputError(f"no letters in entry {entry!r}", path, lineno)
        if sep:
            try:
                score = _parse_score(score_text.strip())
            except ValueError:
                raise InputError(
                    f"score {score_text.strip()!r} is not a number from 0 to 100", path, lineno
                ) from None
        else:
            score = DEFAULT_SCORE
        if word in first_seen:
            raise InputError(f"{word} is listed twice (first on line {first_seen[word]})", path, lineno)
        first_seen[word] = lineno
        if min_length <= len(word) <= max_length:
            words[word] = score
    return words


def _format_score(score: float) -> str:
    return str(int(score)) if float(score).is_integer() else f"{score:g}"


def write_wordlist(path, words: dict[str, float]) -> None:
    """Write ``{WORD: score}`` as ``WORD;score`` lines, sorted by word."""
    with atomic_write(path) as f:
        for word in sorted(words):
            f.write(f"{word};{_format_score(words[word])}\n")
