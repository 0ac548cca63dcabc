"""The word-list index: words as bits, by (length, position, letter).

For each length the words are sorted best score first and numbered; word
``k`` is bit ``k`` of a bitset, and ``masks[pos][letter]`` is the set of
words with ``letter`` at ``pos``, so a slot's candidates for a pattern are
one AND per fixed letter, and whether a letter can stand in a cell is one
AND and a test for zero.  The filler's C kernel keeps these bitsets as
arrays (``kernel``); the word-square counter uses them as Python ints
(``masks``, made on first use), whose AND, OR and popcount run in C.
"""

from __future__ import annotations

import bisect
import hashlib
import os
import pickle
from pathlib import Path

from ..model.fileio import write_bytes
from ..model.wordlist import read_wordlist
from ._kernel import Words

__all__ = ["LengthIndex", "WordIndex", "load_index", "LETTERS"]

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_CACHE_VERSION = 4  # 4: the entry starts with the SHA-256 of the pickle after it


class LengthIndex:
    """The words of one length as bitsets.

    Attributes
    ----------
    words : list of str
        Best score first, ties by word.
    scores : list of float
    position : dict
        Word to its number.
    kernel : Words
        The words for the C search kernel, which keeps its own bitsets.
    masks : list of list of int
        ``masks[pos][letter]``: the words with that letter (0-25) at ``pos``,
        as Python ints (for the word-square counter; made on first use).
    full : int
        All words.
    """

    __slots__ = ("length", "words", "scores", "position", "kernel", "_masks")

    def __init__(self, length: int, scored: list[tuple[str, float]]):
        scored = sorted(scored, key=lambda ws: (-ws[1], ws[0]))
        self.length = length
        self.words = [w for w, _ in scored]
        self.scores = [s for _, s in scored]
        self.position = {w: k for k, w in enumerate(self.words)}
        self.kernel = _kernel_words(length, self.words)
        self._masks = None

    def __getstate__(self):
        # The kernel's copy is rebuilt when loaded, the masks when used.
        return {k: getattr(self, k) for k in ("length", "words", "scores", "position")}

    def __setstate__(self, state):
        for k, v in state.items():
            setattr(self, k, v)
        self.kernel = _kernel_words(self.length, self.words)
        self._masks = None

    @property
    def masks(self) -> list[list[int]]:
        if self._masks is None:
            # Each mask from a list of bit positions: one int per mask, made
            # once, instead of OR-ing 100k single bits into a growing int.
            members = [[[] for _ in range(26)] for _ in range(self.length)]
            for k, w in enumerate(self.words):
                for pos, ch in enumerate(w):
                    members[pos][ord(ch) - 65].append(k)
            self._masks = [[_bits(m) for m in per_pos] for per_pos in members]
        return self._masks

    @property
    def full(self) -> int:
        return (1 << len(self.words)) - 1

    def __len__(self) -> int:
        return len(self.words)

    def count_at_least(self, min_score: float) -> int:
        """How many words score ``min_score`` or more (a prefix, as they are sorted).

        Examples
        --------
        >>> li = LengthIndex(3, [("CAT", 60), ("COT", 50), ("DOG", 40)])
        >>> li.count_at_least(50), li.count_at_least(50.5), li.count_at_least(0)
        (2, 1, 3)
        """
        return bisect.bisect_right(self.scores, -min_score, key=lambda s: -s)


def _kernel_words(length: int, words: list[str]) -> Words:
    """The words as the C kernel's bitsets (``masks`` again, in C arrays)."""
    return Words(length, "".join(words).encode("ascii").translate(_CODES))


_CODES = bytes.maketrans(LETTERS.encode(), bytes(range(26)))


def _bits(positions: list[int]) -> int:
    if not positions:
        return 0
    # bytes -> int is done in C; far faster than shifting bit by bit.
    top = positions[-1]
    buf = bytearray((top >> 3) + 1)
    for p in positions:
        buf[p >> 3] |= 1 << (p & 7)
    return int.from_bytes(buf, "little")


class WordIndex:
    """Every length of a word list, indexed for the filler.

    Examples
    --------
    >>> idx = WordIndex({"CAT": 60, "COT": 50, "DOG": 40})
    >>> idx[3].words
    ['CAT', 'COT', 'DOG']
    >>> bin(idx[3].masks[1][ord("O") - 65])
    '0b110'
    """

    def __init__(self, words: dict[str, float]):
        by_length: dict[int, list[tuple[str, float]]] = {}
        for w, s in words.items():
            by_length.setdefault(len(w), []).append((w, s))
        self.lengths = {n: LengthIndex(n, ws) for n, ws in sorted(by_length.items())}

    def __getitem__(self, length: int) -> LengthIndex:
        li = self.lengths.get(length)
        if li is None:
            li = self.lengths[length] = LengthIndex(length, [])
        return li

    def score(self, word: str) -> float | None:
        li = self.lengths.get(len(word))
        if li is None:
            return None
        k = li.position.get(word)
        return None if k is None else li.scores[k]

    def __contains__(self, word: str) -> bool:
        li = self.lengths.get(len(word))
        return li is not None and word in li.position


def load_index(wordlist_path, cache_dir=None, min_length: int = 2, max_length: int = 25) -> WordIndex:
    """Read a word list and index it, through an on-disk cache when given.

    The cache key is the list's bytes (SHA-256), so an edited list is
    re-indexed and a stale cache is never used.  An entry is written to a
    temporary file and renamed into place (a killed job leaves no entry
    under its name), and it carries the SHA-256 of its own contents: an
    entry that does not match them is never read, but rebuilt.  So the
    cache cannot change what a fill finds, only how soon it starts.

    Notes
    -----
    Building is O(total letters); loading a cached index is one checksum
    and one unpickle.
    """
    path = Path(wordlist_path)
    if cache_dir is not None:
        digest = hashlib.sha256(path.read_bytes()).hexdigest()[:24]
        cache = Path(cache_dir) / f"index-v{_CACHE_VERSION}-{min_length}-{max_length}-{digest}.pickle"
        index = _read_cache(cache)
        if index is not None:
            return index
    index = WordIndex(read_wordlist(path, min_length=min_length, max_length=max_length))
    if cache_dir is not None:
        os.makedirs(cache_dir, exist_ok=True)
        payload = pickle.dumps(index, protocol=pickle.HIGHEST_PROTOCOL)
        write_bytes(cache, hashlib.sha256(payload).digest() + payload)
    return index


def _read_cache(cache: Path) -> WordIndex | None:
    """The index in ``cache`` if the entry is whole (its checksum matches), else None."""
    try:
        data = cache.read_bytes()
    except OSError:
        return None
    checksum, payload = data[:32], data[32:]
    if len(checksum) < 32 or hashlib.sha256(payload).digest() != checksum:
        return None  # damaged or of another format: rebuilt
    try:
        index = pickle.loads(payload)
    except Exception:
        return None
    return index if isinstance(index, WordIndex) else None
