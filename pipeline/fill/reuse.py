"""How a book may use an answer again, and which clue texts it has left.

Real puzzle books repeat answers: ERA and ALOE come back, but not in the
next puzzle and not in every third one.  The policy (`ReusePolicy`):

* an answer is used in at most ``max_uses`` puzzles of a book (1: never
  twice), by default one use per `PUZZLES_PER_USE` puzzles of the book
  (`auto_max_uses`);
* between two uses of an answer come at least ``gap`` puzzles without it;
* while an answer may still return, ``penalty`` points come off its score,
  so a fresh word wins wherever one fits about as well;
* every use gets a clue text of its own: no clue is printed twice in a
  book, so an answer with two clues can be used twice at most
  (`ClueBook`), whatever ``max_uses`` says.

A book is filled in batches that run at once (`pipeline.fill.batch`).  So
that batches rarely want the same thing, each is dealt its share of the
book: batch ``j`` of ``B`` (never more batches than ``max_uses``) may use
an answer ``max_uses // B`` times, plus once more for ``max_uses % B`` of
the batches chosen by the answer's checksum (of its clue texts, when it has
fewer than ``max_uses``), and clues them from the texts dealt to it
(`ClueBook.owners`: at least its share, and no other batch's).  The shares
add up to the book's allowance and the texts are disjoint, so batches do
not overspend either together; the gap across a batch boundary is left for
the merge to check, and it repairs the puzzles that break it.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

from ..model.cluefile import clue_key, read_clues_for
from ..model.cluetext import clue_leaks
from ..model.errors import InputError

__all__ = ["PUZZLES_PER_USE", "DEFAULT_GAP", "ReusePolicy", "auto_max_uses", "Uses", "ClueBook", "dealt"]

#: A book may use an answer once per this many puzzles (`auto_max_uses`).
PUZZLES_PER_USE = 30
#: Puzzles between two uses of an answer, by default.
DEFAULT_GAP = 10


def auto_max_uses(puzzles: int) -> int:
    """In how many puzzles of a ``puzzles``-puzzle book an answer may be, by default.

    >>> [auto_max_uses(n) for n in (12, 50, 100, 150, 200)]
    [1, 1, 3, 5, 6]
    """
    return max(1, puzzles // PUZZLES_PER_USE)


def dealt(text: str, parts: int) -> int:
    """The batch (0 to ``parts - 1``) a word or clue text falls to: a checksum, the same on every machine.

    >>> dealt("ERA", 1), dealt("ERA", 3) == dealt("ERA", 3)
    (0, True)
    """
    return zlib.crc32(text.encode("utf-8")) % parts if parts > 1 else 0


@dataclass(frozen=True)
class ReusePolicy:
    """How often, and how far apart, one book may use an answer (see the module)."""

    max_uses: int = 1
    gap: int = DEFAULT_GAP
    penalty: float = 10.0

    def __post_init__(self):
        if self.max_uses < 1:
            raise InputError(f"max_answer_repeats is {self.max_uses}: give 1 (no answer twice) or more")
        if self.gap < 0:
            raise InputError(f"answer_gap is {self.gap}: give 0 (an answer may return in the next puzzle) or more")
        if not 0 <= self.penalty <= 100:
            raise InputError(f"repeat_penalty is {self.penalty:g}: give 0-100 score points")

    def uses_in(self, word: str, batch: int = 0, batches: int = 1, clues: int | None = None) -> int:
        """The uses of ``word`` batch ``batch`` of ``batches`` may spend (all of them for one batch),
        of ``max_uses`` or, when fewer, its ``clues`` (each use needs a clue text of its own).

        >>> p = ReusePolicy(max_uses=4)
        >>> sum(p.uses_in("ERA", j, 3) for j in range(3)), sorted(p.uses_in("ERA", j, 3) for j in range(3))
        (4, [1, 1, 2])
        >>> sorted(p.uses_in("ERA", j, 3, clues=1) for j in range(3))
        [0, 0, 1]
        """
        allowed = self.max_uses if clues is None else min(self.max_uses, clues)
        base, extra = divmod(allowed, batches)
        return base + ((dealt(word, batches) + batch) % batches < extra)


class Uses:
    """Where a book (or one batch of it) has used each answer so far."""

    def __init__(self, policy: ReusePolicy, batch: int = 0, batches: int = 1, clues: dict | None = None):
        self.policy = policy
        self.batch, self.batches = batch, batches
        self.clues = clues  # {word: how many clue texts}, when a batch's share is counted in them
        self.where: dict[str, list[int]] = {}
        self._limit: dict[str, int] = {}

    def limit(self, word: str) -> int:
        n = self._limit.get(word)
        if n is None:
            clues = None if self.clues is None else self.clues.get(word, 0)
            n = self._limit[word] = self.policy.uses_in(word, self.batch, self.batches, clues)
        return n

    def allows(self, word: str, position: int) -> bool:
        """Whether ``word`` may be used in the puzzle at ``position`` (0-based in the book)."""
        used = self.where.get(word, ())
        return len(used) < self.limit(word) and all(abs(position - p) > self.policy.gap for p in used)

    def banned(self, position: int) -> set[str]:
        """The answers used so far that the puzzle at ``position`` may not use."""
        return {w for w in self.where if not self.allows(w, position)}

    def penalty(self, banned) -> dict[str, float] | None:
        """Points off the answers already used that may still be used again."""
        if not self.policy.penalty:
            return None
        return {w: self.policy.penalty for w in self.where if w not in banned}

    def record(self, words, position: int) -> None:
        for w in words:
            self.where.setdefault(w, []).append(position)

    def repeated(self) -> dict[str, int]:
        """``{answer: puzzles}`` for the answers used more than once."""
        return {w: len(ps) for w, ps in sorted(self.where.items()) if len(ps) > 1}


class ClueBook:
    """Which clue texts a book has reserved, and which words that rules out.

    A word's clues are the user's ``clue_file`` lines first, then the
    shards', as the clue stage reads them.  Blocked clue texts count as
    reserved, and a clue that gives its word away is none of its clues
    (`pipeline.model.cluetext.clue_leaks`); both are looked for only in the
    clues of answers a fill actually uses (checking every clue of the list
    would cost seconds a book).  Each clue text is dealt to one batch of
    ``batches`` (`owners`); with ``deal``, batch ``batch`` uses only its own,
    so batches never want the same one.  Without it (the merge) every text
    may be used, those dealt to ``home`` (the batch of the puzzle at hand)
    first, as that batch chose them.  ``raw`` is the clues as read before,
    for another batch of the same book in the same process; ``cache_dir``
    caches the shards (`pipeline.model.cluefile.read_shards_cached`).
    """

    def __init__(self, clue_dir, words, clue_file=None, blocklist=None, batch: int = 0, batches: int = 1, raw=None,
                 deal: bool = False, cache_dir=None):  # fmt: skip
        self.raw = read_clues_for(clue_dir, words, clue_file, cache_dir) if raw is None else raw
        self.home, self.batches = batch, batches
        self.keys = {w: list(dict.fromkeys(clue_key(c) for c in cs)) for w, cs in self.raw.items()}
        self.words_of: dict[str, list[str]] = {}
        for w, ks in self.keys.items():
            for k in ks:
                self.words_of.setdefault(k, []).append(w)
        #: How many clue texts each answer has (before any is dealt away).
        self.counts = {w: len(ks) for w, ks in self.keys.items()}
        self.dealt = deal and batches > 1
        if self.dealt:  # a batch keeps the texts dealt to it
            self.keys = {w: self._dealt_to(w, ks, batch) for w, ks in self.keys.items()}
        #: ``{answer: {clue key: batch}}``: for the merge, the batch each of an answer's clue texts was
        #: dealt to (`owners`), worked out for the answers it looks at.
        self.owner: dict[str, dict[str, int]] = {}
        self.checked: set[str] = set()
        self.reserved: set[str] = set()
        self.clean: set[str] = set()
        self.blocklist = blocklist
        self.unusable = {w for w in words if not self.keys.get(w)}

    def _dealt_to(self, word: str, keys: list[str], batch: int) -> list[str]:
        """Those of ``word``'s clue ``keys`` dealt to ``batch``, in their order."""
        owner = self.owners(word, keys)
        return [k for k in keys if owner[k] == batch]

    def owners(self, word: str, keys: list[str]) -> dict[str, int]:
        """The batch each of ``word``'s clue ``keys`` is dealt to.

        A text several answers share goes to one batch by its checksum.  The
        answer's own texts go round the batches from batch ``-d mod B``
        (``d`` the answer's checksum), each to the next batch still short of
        its part of the ``n`` texts (``n // B``, and one more for the
        ``n % B`` batches from ``-d mod B`` on).  That part is at least the
        batch's share of the answer's uses (`ReusePolicy.uses_in` deals the
        extra uses by the same rule), so a batch has a text for each of its
        uses (unless shared texts crowd one batch), and batches that clue
        from their own texts never want the same one.
        """
        b, n, d = self.batches, len(keys), dealt(word, self.batches)
        short = [n // b + ((d + j) % b < n % b) for j in range(b)]
        out = {}
        for k in keys:
            if len(self.words_of[k]) > 1:
                out[k] = j = dealt(k, b)
                short[j] -= 1
        turn = 0
        for k in keys:
            if k in out:
                continue
            for _ in range(b):  # the next batch still short (or, when none is, the next)
                j = (turn - d) % b
                turn += 1
                if short[j] > 0:
                    break
            out[k] = j
            short[j] -= 1
        return out

    def _free(self, key) -> bool:
        if key in self.reserved:
            return False
        if key in self.clean:
            return True
        if self.blocklist and self.blocklist.blocks_clue(key):
            self.reserved.add(key)  # never printed: as good as used
            return False
        self.clean.add(key)  # the blocklist checked once a text
        return True

    def _keys(self, word) -> list[str]:
        """The clue keys of ``word`` that do not give it away (checked on first use, as the clue stage checks)."""
        if word not in self.checked:
            self.checked.add(word)
            if self.batches > 1 and not self.dealt:  # dealt from all its texts, before any is dropped
                self.owner[word] = self.owners(word, self.keys.get(word, []))
            if word in self.raw:
                ok = {clue_key(c) for c in self.raw[word] if not clue_leaks(c, word)}
                self.keys[word] = [k for k in self.keys.get(word, []) if k in ok]
        keys = self.keys.get(word, [])
        if self.batches > 1 and not self.dealt and len(keys) > 1:  # the texts dealt to the home batch first
            owner = self.owner[word]
            keys = sorted(keys, key=lambda k: owner[k] != self.home)
        return keys

    def left(self, word) -> int:
        """How many more puzzles could clue ``word`` with a text of its own."""
        return sum(1 for k in self._keys(word) if self._free(k))

    def _assign(self, answers):
        taken, out = set(), []
        for a in answers:
            k = next((k for k in self._keys(a) if k not in taken and self._free(k)), None)
            out.append(k)
            if k is not None:
                taken.add(k)
        return out

    def clash(self, answers):
        """The first answer that gets no clue of its own, or None."""
        for a, k in zip(answers, self._assign(answers)):
            if k is None:
                if not any(self._free(x) for x in self._keys(a)):
                    self.unusable.add(a)  # every clue it had is blocked, used or gives it away
                return a
        return None

    def reserve(self, answers) -> None:
        for k in self._assign(answers):
            self.reserved.add(k)
            for w in self.words_of[k]:
                if not any(self._free(x) for x in self._keys(w)):
                    self.unusable.add(w)
