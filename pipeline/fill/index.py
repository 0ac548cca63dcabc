"""The word-list index: words as bits, by (length, position, letter).

For each length the words are sorted best score first and numbered; word
``k`` is bit ``k`` of a bitset, and ``masks[pos][letter]`` is the set of
words with ``letter`` at ``pos``, so a slot's candidates for a pattern are
one AND per fixed letter, and whether a letter can stand in a cell is one
AND and a test for zero.  The filler's C kernel keeps these bitsets as
arrays (``kernel``); the word-square counter uses them as Python ints
(``masks``, made on first use).

`load_index` keeps each index it builds in a cache folder, in a binary
format that loads in milliseconds: per length the words as one block of
bytes, their scores as float64 and their alphabetical order.  A length's
word list, scores, ``position`` dict and kernel copy are made from those
blocks only when something asks for them, so a fill pays only for the
lengths its grid has.
"""

from __future__ import annotations

import bisect
import os
import struct
import sys
from array import array
from pathlib import Path

from ..model.fileio import cache_key, prune_beside, sealed, unsealed, write_bytes
from ..model.wordlist import read_wordlist
from ._kernel import Words

__all__ = ["LengthIndex", "WordIndex", "load_index", "default_cache_dir", "LETTERS"]

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
# 5: the binary entry (was: a pickle); the key also covers the reader's and this module's code.
_CACHE_VERSION = 5
_KEEP_ENTRIES = 8  # a cache folder keeps the 8 entries written last


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

    Notes
    -----
    Every attribute but ``length`` is made on first use: an index read from
    the cache holds only its blocks of bytes (see `load_index`) until then.
    `find` answers from the alphabetical order without making ``position``.
    """

    __slots__ = ("length", "_count", "_words", "_scores", "_position", "_kernel", "_masks", "_blocks")

    def __init__(self, length: int, scored: list[tuple[str, float]]):
        scored = sorted(scored, key=lambda ws: (-ws[1], ws[0]))
        self._set(length, [w for w, _ in scored], [s for _, s in scored])

    def _set(self, length: int, words: list[str], scores: list[float]) -> None:
        self.length = length
        self._count = len(words)
        self._words, self._scores = words, scores
        self._position = self._kernel = self._masks = self._blocks = None

    @classmethod
    def _ordered(cls, length: int, words: list[str], scores: list[float]) -> LengthIndex:
        """The words of ``length`` already in the index's order, with their scores."""
        li = cls.__new__(cls)
        li._set(length, words, scores)
        return li

    @classmethod
    def _from_blocks(cls, length: int, count: int, text: bytes, scores, order, ints) -> LengthIndex:
        """A length read from a cache entry (the blocks `_entry_bytes` wrote)."""
        li = cls.__new__(cls)
        li.length, li._count = length, count
        li._words = li._scores = li._position = li._kernel = li._masks = None
        li._blocks = (text, scores, order, ints)
        return li

    def __getstate__(self):
        # Pickled as words and scores; the rest is remade when used.
        return (self.length, self.words, self.scores)

    def __setstate__(self, state):
        self._set(*state)

    @property
    def words(self) -> list[str]:
        if self._words is None:
            # One decode and one split in C: the block is "WORD\n" per word.
            self._words = str(self._blocks[0], "ascii").split("\n")[:-1]
        return self._words

    @property
    def scores(self) -> list[float]:
        if self._scores is None:
            _, scores, _, ints = self._blocks
            self._scores = scores.cast("d").tolist()
            if ints:  # a bare WORD's score is the int 50: kept an int, as read_wordlist gave it
                for k in _nonzero(ints):
                    self._scores[k] = int(self._scores[k])
        return self._scores

    @property
    def position(self) -> dict[str, int]:
        if self._position is None:
            self._position = dict(zip(self.words, range(self._count)))
        return self._position

    @property
    def kernel(self) -> Words:
        """The words for the C kernel, which keeps its own bitsets (``masks`` again, in C arrays)."""
        if self._kernel is None:
            if self._blocks is not None:
                codes = self._blocks[0].translate(_CODES, b"\n")
            else:
                codes = "".join(self._words).encode("ascii").translate(_CODES)
            self._kernel = Words(self.length, codes)
        return self._kernel

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
        return (1 << self._count) - 1

    def __len__(self) -> int:
        return self._count

    def find(self, word: str) -> int | None:
        """The number of ``word`` (a word of this length), or None if it is not listed.

        Examples
        --------
        >>> li = LengthIndex(3, [("CAT", 60), ("COT", 50), ("DOG", 40)])
        >>> li.find("COT"), li.find("CUT")
        (1, None)

        Notes
        -----
        An index read from the cache answers by binary search in its
        alphabetical order, O(log n) and about 5 us, so checking a fill's
        words needs no ``position`` dict (for 300,000 words, 50 ms to make).
        """
        if self._position is not None or self._blocks is None:
            return self.position.get(word)
        text, _, order, _ = self._blocks
        try:
            key = word.encode("ascii")
        except UnicodeEncodeError:
            return None
        step = self.length + 1
        lo, hi = 0, self._count
        while lo < hi:
            mid = (lo + hi) // 2
            start = order[mid] * step
            if text[start : start + self.length] < key:
                lo = mid + 1
            else:
                hi = mid
        if lo < self._count:
            k = order[lo]
            if text[k * step : k * step + self.length] == key:
                return k
        return None

    def count_at_least(self, min_score: float) -> int:
        """How many words score ``min_score`` or more (a prefix, as they are sorted).

        Examples
        --------
        >>> li = LengthIndex(3, [("CAT", 60), ("COT", 50), ("DOG", 40)])
        >>> li.count_at_least(50), li.count_at_least(50.5), li.count_at_least(0)
        (2, 1, 3)
        """
        return bisect.bisect_right(self.scores, -min_score, key=lambda s: -s)


def _nonzero(flags) -> list[int]:
    """The places of the non-zero bytes of ``flags``."""
    return [k for k, f in enumerate(flags) if f]


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
        # The words by length, then best score first, ties by word: sorted by
        # word, then stably by length, then each length stably by score.  Every
        # key is a function in C, which for 300,000 words takes 0.1 s where a
        # Python key tuple per word took 0.4 s.
        order = sorted(words)
        order.sort(key=len)
        self.lengths: dict[int, LengthIndex] = {}
        start = 0
        while start < len(order):
            n = len(order[start])
            end = bisect.bisect_right(order, n, lo=start, key=len)
            group = order[start:end]
            group.sort(key=words.__getitem__, reverse=True)
            self.lengths[n] = LengthIndex._ordered(n, group, list(map(words.__getitem__, group)))
            start = end

    def __getitem__(self, length: int) -> LengthIndex:
        li = self.lengths.get(length)
        if li is None:
            li = self.lengths[length] = LengthIndex(length, [])
        return li

    def score(self, word: str) -> float | None:
        li = self.lengths.get(len(word))
        if li is None:
            return None
        k = li.find(word)
        return None if k is None else li.scores[k]

    def __contains__(self, word: str) -> bool:
        li = self.lengths.get(len(word))
        return li is not None and li.find(word) is not None


def default_cache_dir() -> Path:
    """Where ``xw fill`` keeps its index cache: ``$XDG_CACHE_HOME/xwbook/index``, else ``~/.cache/xwbook/index``."""
    base = os.environ.get("XDG_CACHE_HOME", "").strip()
    return Path(base or Path.home() / ".cache") / "xwbook" / "index"


def load_index(
    wordlist_path, cache_dir=None, min_length: int = 2, max_length: int = 25, progress=None
) -> WordIndex:
    """Read a word list and index it, through an on-disk cache when given.

    Parameters
    ----------
    wordlist_path : path
        A ``WORD;score`` list (`pipeline.model.wordlist`).
    cache_dir : path, optional
        Folder of cached indexes (`default_cache_dir` is ``xw fill``'s);
        None: read and index the list, caching nothing.
    min_length, max_length : int
        The entry lengths kept.
    progress : callable, optional
        Called with a one-line note when the cache cannot be written (the
        index is returned all the same).

    Returns
    -------
    WordIndex

    Raises
    ------
    InputError
        When the list cannot be read (see `read_wordlist`).

    Notes
    -----
    The cache key is the SHA-256 of the list's bytes and of the code that
    reads and indexes it, so an edited list is re-indexed and a stale entry
    is never used.  An entry is written to a temporary file and renamed
    into place (a killed job leaves no entry under its name), and it
    carries the SHA-256 of its own contents: an entry that does not match
    them, or whose blocks do not add up, is never read but rebuilt.  So the
    cache cannot change what a fill finds, only how soon it starts.  A
    folder keeps the 8 entries written last.

    Building is O(total letters) and a sort per length; loading an entry is
    two checksums over the list and the entry (about 3 ms for 300,000
    words) and slicing its blocks.
    """
    path = Path(wordlist_path)
    try:
        data = path.read_bytes()
    except OSError:
        data = None  # read_wordlist says what is wrong, as an InputError
    if cache_dir is None or data is None:
        return WordIndex(read_wordlist(path, min_length=min_length, max_length=max_length))
    entry = Path(cache_dir) / _entry_name(data, min_length, max_length)
    index = _read_entry(entry)
    if index is not None:
        return index
    blob = _entry_bytes(WordIndex(read_wordlist(path, min_length=min_length, max_length=max_length)))
    # The fill reads the index as every later run will (and so pays for
    # only the lengths it uses): cached or not, the same words, scores and order.
    index = _parse_entry(blob)
    try:
        write_bytes(entry, blob)
    except OSError as e:
        if progress is not None:
            progress(f"index cache not written ({e.strerror or e}: {e.filename or cache_dir}); going on without it")
        return index
    prune_beside(entry, "index-v*", _KEEP_ENTRIES)
    return index


# -- the cache entry ------------------------------------------------------------
# An entry: the SHA-256 of the rest; the head (magic with the byte order,
# version, number of lengths); per length (length, count, 1 if some scores
# are ints); then per length its blocks:
#   text    "WORD\n" per word, best first (count * (length + 1) bytes)
#   scores  float64 per word (8 * count)
#   order   uint32 word numbers in alphabetical order of the words (4 * count)
#   ints    one byte per word, 1 where the score is an int (count; only when flagged)
_MAGIC = b"XWINDEX" + (b"L" if sys.byteorder == "little" else b"B")
_HEAD = struct.Struct("<8sII")
_LENGTH = struct.Struct("<III")
_CODE_FILES = ("fill/index.py", "model/wordlist.py")


def _entry_name(data: bytes, min_length: int, max_length: int) -> str:
    """The entry's file name: the hash of the list's bytes and of the code that indexes them."""
    return f"index-v{_CACHE_VERSION}-{min_length}-{max_length}-{cache_key(data, _CODE_FILES)[:32]}.bin"


def _entry_bytes(index: WordIndex) -> bytes:
    """``index`` as a cache entry (the format above); the same index gives the same bytes."""
    lengths = [li for li in index.lengths.values() if len(li)]
    head = [_HEAD.pack(_MAGIC, _CACHE_VERSION, len(lengths))]
    blocks = []
    for li in lengths:
        words, scores = li.words, li.scores
        ints = b""
        if set(map(type, scores)) != {float}:
            ints = bytes(map(int.__instancecheck__, scores))  # 1 where isinstance(score, int)
        head.append(_LENGTH.pack(li.length, len(li), 1 if ints else 0))
        blocks += [
            ("\n".join(words) + "\n").encode("ascii"),
            array("d", scores).tobytes(),
            array("I", sorted(range(len(words)), key=words.__getitem__)).tobytes(),
            ints,
        ]
    return sealed(b"".join(head + blocks))


def _read_entry(entry: Path) -> WordIndex | None:
    """The index in the file ``entry`` if it is whole, else None (see `_parse_entry`)."""
    try:
        return _parse_entry(entry.read_bytes())
    except OSError:
        return None


def _parse_entry(data: bytes) -> WordIndex | None:
    """The index in an entry's bytes if it is whole (its checksum matches, its blocks add up), else None."""
    body = unsealed(data)
    if body is None:
        return None  # damaged, cut short, or not an entry at all: rebuilt
    try:
        magic, version, n_lengths = _HEAD.unpack_from(body)
        if (magic, version) != (_MAGIC, _CACHE_VERSION):
            return None
        at = _HEAD.size + n_lengths * _LENGTH.size
        index = WordIndex({})
        for i in range(n_lengths):
            length, count, flagged = _LENGTH.unpack_from(body, _HEAD.size + i * _LENGTH.size)
            sizes = (count * (length + 1), 8 * count, 4 * count, count if flagged else 0)
            ends = [at + sum(sizes[: j + 1]) for j in range(4)]
            if ends[-1] > len(body) or length in index.lengths:
                return None
            text = bytes(body[at : ends[0]])
            blocks = (body[ends[0] : ends[1]], body[ends[1] : ends[2]].cast("I"), body[ends[2] : ends[3]])
            index.lengths[length] = LengthIndex._from_blocks(length, count, text, *blocks)
            at = ends[-1]
    except (struct.error, TypeError, ValueError):
        return None
    return index if at == len(body) else None
