"""Exhaustive mode: count (or list) every fill of a grid.

Designed for open ``n x n`` grids, the double word squares of the seeds
(``000``: 90.6 million 4x4 squares; ``001``: every 4x4 crossword with no
word twice, a square and its transpose counted once, and the "palindromic"
squares that survive rotation; ``003``: the NPR square whose sixteen
letters all differ).  Any grid works: letters in the grid text are kept,
and a grid with black squares is counted slot by slot.

Open grids are filled row by row.  Each column keeps the down words still
possible given the rows placed so far, as a node of a prefix trie over the
column's words; the letters that node allows in the next cell give, through
``masks[pos][letter]``, the bitset of across words that fit the row, one OR
per allowed letter set (memoised) and one AND per column.  The last row is
never enumerated: every word of that bitset completes every column, so its
popcount is the number of fills below.  The last *two* rows are counted
together: a depth-first walk over the letters of the next to last row
(pruned as soon as no last row is left) adds one popcount per row word that
survives.  With no word twice the same walk counts, its tables missing the
last rows that would repeat their own column; the other repeats turn on a
few letters and are ruled out by a few more ANDs, or checked word by word
on the rare prefixes where they can happen (see
``_Rows._two_rows_distinct_counter``).

Transposing a square maps its fills onto its fills (when the given letters
are symmetric), so the search keeps only squares whose first column is not
below their first row, and counts ``2 * (column > row) + (column == row)``:
half the work.  The same split gives the transpose-once count
``(column > row) + ((column == row) + symmetric) / 2``.  With no word twice
no square is its own transpose (its first row would be its first column),
so the distinct count is ``2 * (column > row)`` and transpose-once is half
of it.
"""

from __future__ import annotations

import time

from ..model.grid import BLACK, EMPTY, Grid
from ..model.symmetry import transpose
from .index import LETTERS, LengthIndex, WordIndex
from .problem import FillProblem

__all__ = ["count_fills", "iter_fills", "rotation_squares", "reversible_words"]

_ALL = (1 << 26) - 1
# Letters strictly above / at or above letter x, as 26-bit sets.
_GT = [_ALL & ~((2 << x) - 1) for x in range(26)]
_GE = [_ALL & ~((1 << x) - 1) for x in range(26)]
# Partial results that stay in the left-block cache before it is emptied.
_CACHE_LIMIT = 1 << 12


def count_fills(
    grid: Grid,
    index: WordIndex,
    distinct_words: bool = False,
    transpose_once: bool = False,
    distinct_letters: bool = False,
    progress=None,
    timeout: float | None = None,
    stats: dict | None = None,
) -> int:
    """The number of fills of ``grid`` from ``index``.

    Parameters
    ----------
    grid : Grid
        ``.`` cells are filled, letters are kept, ``#`` cells are black.
    index : WordIndex
        Every entry, across and down, must be one of its words.
    distinct_words : bool
        No word twice among all entries (seed ``001``'s rule).
    transpose_once : bool
        Count a fill and its transpose (rows read as columns) once; a fill
        equal to its transpose counts once too.  A transpose that is not
        itself a fill of ``grid`` does not pair.
    distinct_letters : bool
        All letters of the filled grid differ (seed ``003``).  Implies no
        word twice.
    progress : callable, optional
        Called with a one-line message now and then during long counts.
    timeout : float, optional
        Seconds; past it the count stops with ``TimeoutError``.
    stats : dict, optional
        Filled in with ``"counted"`` (partial fills whose remaining rows
        were counted by popcount), ``"enumerated"`` (last-row words checked
        one by one) and ``"seconds"``.

    Returns
    -------
    int

    Raises
    ------
    TimeoutError
        When ``timeout`` runs out.

    Examples
    --------
    >>> from pipeline.model.grid import parse_grid
    >>> idx = WordIndex({w: 50 for w in ["AB", "BA", "AA"]})
    >>> count_fills(parse_grid("..\\n.."), idx)
    7
    >>> count_fills(parse_grid("..\\n.."), idx, transpose_once=True)
    6
    >>> count_fills(parse_grid("..\\n.."), idx, distinct_words=True)
    0

    Notes
    -----
    Open grids: rows in order, per-column prefix tries, candidates for a row
    as one AND per column of memoised letter-set masks, and a popcount for
    each way to fill the next to last row.  The work is that of visiting
    every partial fill of the first ``rows - 2`` rows, each in O(cols)
    bitset operations of ``|words| / 64`` machine words, plus the walk over
    the next to last row's letters; fills themselves are never visited.
    Distinct words add O(cols) work per partial fill and check word by word
    only the rows whose prefix could repeat a row or a column; two columns
    with the same prefix fall back to visiting the next to last row's
    words.  All letters distinct visits the first ``rows - 1`` rows.  Grids
    with black squares: a most-constrained-slot search with forward
    checking and a popcount for the last slot.  Transpose-once on a square
    whose given letters are not symmetric lists the fills to pair them.
    """
    start = time.perf_counter()
    deadline = None if timeout is None else start + timeout
    dw = distinct_words or distinct_letters
    if _open(grid):
        rows = _Rows(grid, index, dw, distinct_letters, progress, deadline)
        closed = rows.closed
        if transpose_once and not closed:
            total = sum(1 for _ in iter_fills(grid, index, distinct_words, True, distinct_letters, timeout=timeout))
        else:
            total = rows.count(halve=closed, transpose_once=transpose_once)
        counted, enumerated = rows.counted, rows.enumerated
    else:
        if transpose_once:
            total = sum(1 for _ in iter_fills(grid, index, distinct_words, True, distinct_letters, timeout=timeout))
            counted = enumerated = 0
        else:
            slots = _Slots(grid, index, dw, distinct_letters, deadline)
            total = slots.count()
            counted, enumerated = slots.counted, slots.enumerated
    if stats is not None:
        stats.update(counted=counted, enumerated=enumerated, seconds=time.perf_counter() - start)
    return total


def iter_fills(
    grid: Grid,
    index: WordIndex,
    distinct_words: bool = False,
    transpose_once: bool = False,
    distinct_letters: bool = False,
    progress=None,
    timeout: float | None = None,
):
    """Yield every fill of ``grid`` (as filled Grids), best-scored rows first.

    Parameters and rules as :func:`count_fills`; with ``transpose_once`` the
    fill of a pair that is yielded is the one whose rows read first in
    alphabetical order.

    Yields
    ------
    Grid

    Raises
    ------
    TimeoutError
        When ``timeout`` runs out (checked between partial fills).

    Examples
    --------
    >>> from pipeline.model.grid import parse_grid
    >>> idx = WordIndex({w: 50 for w in ["AB", "BA", "AA"]})
    >>> [g.row_strings() for g in iter_fills(parse_grid("A.\\n.."), idx, transpose_once=True)]
    [['AA', 'AA'], ['AA', 'AB'], ['AA', 'BA'], ['AB', 'BA']]

    Notes
    -----
    The search of :func:`count_fills` with the last row enumerated, so the
    cost is that of the count plus O(cells) per fill yielded.
    """
    deadline = None if timeout is None else time.perf_counter() + timeout
    dw = distinct_words or distinct_letters
    if _open(grid):
        engine = _Rows(grid, index, dw, distinct_letters, progress, deadline)
        fills = engine.fills()
    else:
        engine = _Slots(grid, index, dw, distinct_letters, deadline)
        fills = engine.fills()
    for g in fills:
        if transpose_once:
            t = transpose(g)  # a rectangle's is no fill of the grid: _is_fill checks the shape
            if t.cells != g.cells and _is_fill(grid, t, index, dw, distinct_letters):
                if t.row_strings() < g.row_strings():
                    continue
        yield g


def reversible_words(index: WordIndex, n: int) -> WordIndex:
    """The ``n``-letter words of ``index`` whose reversal is also a word.

    A square fills from these exactly when it stays a square of words under
    a 90, 180 and 270 degree rotation (a rotation reads rows as reversed
    columns and columns as rows, or both reversed).

    Examples
    --------
    >>> sorted(reversible_words(WordIndex({w: 50 for w in ["DRAW", "WARD", "DRAB"]}), 4)[4].words)
    ['DRAW', 'WARD']
    """
    li = index[n]
    return WordIndex({w: s for w, s in zip(li.words, li.scores) if w[::-1] in li.position})


def rotation_squares(
    n: int, index: WordIndex, distinct_words: bool = False, transpose_once: bool = False, limit: int | None = None
) -> list[Grid]:
    """Open ``n x n`` squares that stay squares of words when rotated.

    Seed ``001``'s "palindromic" squares: every row and column is a word,
    and so is every row and column of the square turned 90, 180 and 270
    degrees.

    Parameters
    ----------
    n : int
        The side.
    index : WordIndex
    distinct_words, transpose_once : bool
        As :func:`count_fills` (the seed used both).
    limit : int, optional
        Stop after this many.

    Returns
    -------
    list of Grid

    Examples
    --------
    >>> words = "DRAB RAGA AJAR WARD DRAW RAJA AGAR BARD".split()
    >>> squares = rotation_squares(4, WordIndex({w: 50 for w in words}), distinct_words=True)
    >>> ["DRAB", "RAGA", "AJAR", "WARD"] in [g.row_strings() for g in squares]
    True

    Notes
    -----
    A square survives every rotation exactly when each row and column reads
    as a word both ways, so this is :func:`iter_fills` over
    :func:`reversible_words`; the cost is that of that (much smaller) list.
    """
    grid = Grid(n, n, EMPTY * (n * n))
    out = []
    for g in iter_fills(grid, reversible_words(index, n), distinct_words, transpose_once):
        out.append(g)
        if limit is not None and len(out) >= limit:
            break
    return out


# -- shared helpers -----------------------------------------------------------
def _open(grid: Grid) -> bool:
    """True for a grid the row engine takes: no black cell, at least 2x2."""
    return grid.rows >= 2 and grid.cols >= 2 and BLACK not in grid.cells


def _members(bits: int) -> list[int]:
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


def _bitset(positions) -> int:
    buf = bytearray((max(positions) >> 3) + 1) if positions else bytearray()
    for p in positions:
        buf[p >> 3] |= 1 << (p & 7)
    return int.from_bytes(buf, "little")


def _letter_sets(li: LengthIndex):
    """Per word: the letters as indices, and as one 26-bit set."""
    codes = [tuple(ord(ch) - 65 for ch in w) for w in li.words]
    sets = []
    for code in codes:
        s = 0
        for x in code:
            s |= 1 << x
        sets.append(s)
    return codes, sets


def _distinct_letter_words(li: LengthIndex, sets) -> int:
    return _bitset([k for k, s in enumerate(sets) if s.bit_count() == li.length])


def _is_fill(grid: Grid, filled: Grid, index: WordIndex, dw: bool, dl: bool) -> bool:
    """Whether ``filled`` is a fill of ``grid``: shape, blacks, givens, words, rules."""
    if (filled.rows, filled.cols) != (grid.rows, grid.cols):
        return False
    for a, b in zip(grid.cells, filled.cells):
        if a == BLACK and b != BLACK or a != BLACK and (b == BLACK or b == EMPTY or a not in (EMPTY, b)):
            return False
    words = filled.words()
    if not all(w in index for w in words):
        return False
    if dw and len(set(words)) != len(words):
        return False
    letters = [ch for ch in filled.cells if ch != BLACK]
    return not dl or len(set(letters)) == len(letters)


class _Trie:
    """A prefix trie over some words of one length (the members of a bitset).

    ``kids[node][letter]`` is the child (-1 for none), ``allowed[node]`` the
    26-bit set of letters with a child, ``prefix[node]`` the letters so far,
    ``bits[node]`` the words below as a bitset (built when asked for).
    """

    __slots__ = ("kids", "allowed", "prefix", "bits")

    def __init__(self, li: LengthIndex, members: int, with_bits: bool = False):
        kids = [[-1] * 26]
        allowed = [0]
        prefix = [""]
        below: list[list[int]] = [[]]
        for k in _members(members):
            node = 0
            w = li.words[k]
            if with_bits:
                below[0].append(k)
            for pos, ch in enumerate(w):
                x = ord(ch) - 65
                child = kids[node][x]
                if child < 0:
                    child = len(kids)
                    kids.append([-1] * 26)
                    allowed.append(0)
                    prefix.append(w[: pos + 1])
                    below.append([])
                    kids[node][x] = child
                    allowed[node] |= 1 << x
                node = child
                if with_bits:
                    below[node].append(k)
        self.kids = kids
        self.allowed = allowed
        self.prefix = prefix
        self.bits = [_bitset(sorted(b)) for b in below] if with_bits else None


class _MaskMemo:
    """``memo(S)``: the words with a letter of the set ``S`` at ``pos`` (memoised OR)."""

    __slots__ = ("masks", "cache")

    def __init__(self, masks):
        self.masks = masks
        self.cache = {0: 0}

    def __call__(self, S: int) -> int:
        v = self.cache.get(S)
        if v is None:
            v = 0
            x = S
            masks = self.masks
            while x:
                low = x & -x
                v |= masks[low.bit_length() - 1]
                x ^= low
            self.cache[S] = v
        return v


_LETTERS: dict[int, tuple[int, ...]] = {}


def _letters(S: int) -> tuple[int, ...]:
    """The letters of a 26-bit set, as a tuple of indices (memoised)."""
    v = _LETTERS.get(S)
    if v is None:
        v = _LETTERS[S] = tuple(x for x in range(26) if S >> x & 1)
    return v


def _last_two_rows(entries, L2, L3, al2: int, al3: int, akids, aallowed) -> int:
    """The plain count of the last two rows: for each ``(t, X)`` of
    ``entries`` (a node of the trie of row ``r - 2`` after ``c - 2`` letters,
    and the last rows those letters leave), every way to end row ``r - 2``
    with letters ``a``, ``d`` in the last two columns adds the popcount of
    ``X & L2[a] & L3[d]``.  ``al2``, ``al3`` are the letters those columns
    allow next.

    The hot loop of a count: written flat, locals only, and a popcount only
    for a non-empty AND (the popcount of a 3000-bit int costs as much as
    ten ANDs).
    """
    LETG = _LETTERS.get
    total = 0
    for t, X in entries:
        S = al2 & aallowed[t]
        cs = LETG(S)
        if cs is None:
            cs = _letters(S)
        for a in cs:
            ds = al3 & aallowed[akids[t][a]]
            if ds:
                X2 = X & L2[a]
                if X2:
                    dl = LETG(ds)
                    if dl is None:
                        dl = _letters(ds)
                    for d in dl:
                        v = X2 & L3[d]
                        if v:
                            total += v.bit_count()
    return total


# -- open grids: row by row ---------------------------------------------------
class _Rows:
    """The row-by-row engine for a grid with no black cell (rows, cols >= 2)."""

    def __init__(self, grid: Grid, index: WordIndex, dw: bool, dl: bool, progress, deadline):
        r, c = grid.rows, grid.cols
        self.grid, self.r, self.c = grid, r, c
        self.dw, self.dl = dw, dl
        self.progress, self.deadline = progress, deadline
        self.counted = self.enumerated = 0
        A, D = index[c], index[r]
        self.A, self.D = A, D
        self.square = A is D
        self.codes, self.lsets = _letter_sets(A)
        given = [[grid.cells[i * c + j] for j in range(c)] for i in range(r)]
        self.given = given
        self.closed = r == c and all(given[i][j] == given[j][i] for i in range(r) for j in range(c))
        # Rows: the across words that fit each row's given letters.
        base = []
        for i in range(r):
            b = A.full
            for j, ch in enumerate(given[i]):
                if ch != EMPTY:
                    b &= A.masks[j][ord(ch) - 65]
            base.append(b)
        cols = []
        for j in range(c):
            b = D.full
            for i in range(r):
                ch = given[i][j]
                if ch != EMPTY:
                    b &= D.masks[i][ord(ch) - 65]
            cols.append(b)
        # Letters each cell may take under distinct letters: its given letter,
        # or any letter not given elsewhere.
        self.cellmask = [[_ALL] * c for _ in range(r)]
        self.impossible = False
        if dl:
            givens = [ch for row in given for ch in row if ch != EMPTY]
            if len(set(givens)) != len(givens):
                self.impossible = True
            reserved = 0
            for ch in givens:
                reserved |= 1 << (ord(ch) - 65)
            for i in range(r):
                for j in range(c):
                    ch = given[i][j]
                    self.cellmask[i][j] = _ALL & ~reserved if ch == EMPTY else 1 << (ord(ch) - 65)
            da = _distinct_letter_words(A, self.lsets)
            base = [b & da for b in base]
            dd = da if self.square else _distinct_letter_words(D, _letter_sets(D)[1])
            cols = [b & dd for b in cols]
        self.base = base
        tries: dict[int, _Trie] = {}
        self.tries = []
        for b in cols:
            if b not in tries:
                tries[b] = _Trie(D, b, with_bits=dw)
            self.tries.append(tries[b])
        self.rm = [_MaskMemo(A.masks[j]) for j in range(c)]

    # -- the count ----------------------------------------------------------
    def count(self, halve: bool, transpose_once: bool) -> int:
        if self.impossible or not all(self.base) or not all(t.allowed[0] for t in self.tries):
            return 0
        fast = not self.dw and not self.dl

        def tally(h: int, e: int) -> int:
            # The count from the search's (free, tied) numbers; before the
            # symmetric fills are known (transpose-once, repeats allowed)
            # it is a lower bound.
            if not halve:
                return h
            if not transpose_once:
                return 2 * h + e
            return h + e // 2

        h, e = self._search(halve, fast, tally)
        if halve and transpose_once and not self.dw:
            return h + (e + self._symmetric()) // 2
        return tally(h, e)

    def _check_time(self):
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise TimeoutError("count ran out of time")

    def _search(self, halve: bool, fast: bool, tally):
        """(free, tied): fills counted, and with ``halve`` those whose first
        column equals their first row (the others have column above row).
        ``tally(free, tied)`` is the count so far that progress reports."""
        r, c = self.r, self.c
        A = self.A
        codes, lsets = self.codes, self.lsets
        base, cellmask = self.base, self.cellmask
        kids = [t.kids for t in self.tries]
        allowed = [t.allowed for t in self.tries]
        rm = self.rm
        dw, dl = self.dw, self.dl
        last = r - 1
        acc = [0, 0, 0]
        two_rows = self._two_rows_counter() if fast and r >= 2 else None
        two_rows_dw = self._two_rows_distinct_counter() if dw and not dl and r >= 2 else None
        last_count = self._last_row_counter() if dw else None
        mask0 = A.masks[0]
        steps = [0]
        check_time = self._check_time

        def step(i, nodes, tie, urows, ubits, ul):
            # One row: the words that fit every column, then each in turn.
            if i == last - 1 and two_rows_dw is not None:
                n = two_rows_dw(nodes, urows, tie)
                if n is not None:
                    acc[2] += 1
                    acc[0] += n
                    return
            if i == last - 1 and two_rows is not None:
                if tie is None:
                    acc[2] += 1
                    acc[0] += two_rows(nodes)
                    return
                if two_rows.tied is not None:
                    acc[2] += 1
                    h, e = two_rows.tied(nodes, tie[i], tie[last])
                    acc[0] += h
                    acc[1] += e
                    return
            steps[0] += 1
            if not steps[0] & 4095:
                check_time()
            cand = base[i] & ~ubits if dw else base[i]
            for j in range(c):
                S = allowed[j][nodes[j]]
                if dl:
                    S &= cellmask[i][j] & ~ul
                if j == 0 and tie is not None:
                    # Halving: column 0 must not read below row 0.
                    S &= _GT[tie[i]] if (dw and i == last) else _GE[tie[i]]
                cand &= rm[j](S)
                if not cand:
                    return
            if i == last:
                acc[2] += 1
                if tie is not None and not dw:
                    eq = cand & mask0[tie[i]]
                    acc[1] += eq.bit_count()
                    cand ^= eq
                acc[0] += last_count(cand, nodes, urows) if dw else cand.bit_count()
                return
            x = cand
            while x:
                low = x & -x
                k = low.bit_length() - 1
                x ^= low
                code = codes[k]
                new = [kk[nd][a] for kk, nd, a in zip(kids, nodes, code)]
                t2 = tie if tie is not None and code[0] == tie[i] else None
                if dw:
                    step(i + 1, new, t2, urows + (k,), ubits | low, ul | lsets[k])
                else:
                    step(i + 1, new, t2, urows, ubits, ul)

        # Row 0 in alphabetical order, so the two-row cache (keyed on letters
        # that include the start of row 0) can be emptied when that start changes.
        cand = base[0]
        for j in range(c):
            S = allowed[j][0] & cellmask[0][j] if dl else allowed[j][0]
            cand &= rm[j](S)
        firsts = sorted(_members(cand), key=A.words.__getitem__)
        keep = max(c - 2, 0)
        prev = None
        t0 = time.perf_counter()
        report = t0 + 2.0
        for done, k in enumerate(firsts):
            w = A.words[k]
            if w[:keep] != prev:
                prev = w[:keep]
                for counter in (two_rows, two_rows_dw):
                    if counter is not None:
                        counter.clear()
            code = codes[k]
            new = [kk[0][a] for kk, a in zip(kids, code)]
            step(1, new, code if halve else None, (k,), 1 << k, lsets[k])
            check_time()
            if self.progress is not None and time.perf_counter() > report:
                report = time.perf_counter() + 5.0
                self.progress(
                    f"count: first row {done + 1}/{len(firsts)} ({w}), {tally(acc[0], acc[1])} so far, "
                    f"{time.perf_counter() - t0:.0f} s"
                )
        self.counted += acc[2]
        return acc[0], acc[1]

    def _walker(self, distinct: bool):
        """The tables and the walk the two-row counters share.

        Returns ``(atrie, lastlist, walk)``.  ``atrie`` is a trie of the words
        row ``r - 2`` may take.  ``lastlist(j, node)[a]``, for column ``j`` at
        ``node`` and letter ``a`` of row ``r - 2``, is the set of last rows
        whose letter ``j`` ends the column as a word.  ``walk(j, t, X, key,
        out)`` goes through the letters of row ``r - 2`` in columns ``j .. c -
        3`` from ``atrie`` node ``t``, ``X`` the last rows still possible, and
        appends ``(node, X)`` for each prefix of row ``r - 2`` that leaves
        some; it depends only on the nodes ``key`` of those columns.

        With ``distinct`` (square grids, no word twice) the tables leave out
        the last rows equal to their own column, and ``walk`` appends
        ``(node, X, doubled)``: ``doubled`` is False when the last row cannot
        repeat row ``r - 2`` (some column ``j`` would read its prefix and
        then row ``r - 2``'s letter ``j`` twice, which is no word).
        """
        r, c = self.r, self.c
        A = self.A
        atrie = _Trie(A, self.base[r - 2])
        akids, aallowed = atrie.kids, atrie.allowed
        rm = self.rm
        allowed = [t.allowed for t in self.tries]
        kids = [t.kids for t in self.tries]
        lastlists = [{} for _ in range(c)]
        if distinct:
            # Column j equals the last row w only if w[j] == w[c - 1].
            masks = A.masks
            ends = []
            for j in range(c):
                e = 0
                for x in range(26):
                    e |= masks[j][x] & masks[c - 1][x]
                ends.append(e)
            bits = [t.bits for t in self.tries]

        def lastlist(j, node):
            memo = lastlists[j]
            v = memo.get(node)
            if v is None:
                al = allowed[j]
                v = [rm[j](al[k]) if k >= 0 else 0 for k in kids[j][node]]
                if distinct:
                    # The words under the column's next node end the column.
                    v = [x & ~(bits[j][k] & ends[j]) if x else 0 for x, k in zip(v, kids[j][node])]
                memo[node] = v
            return v

        nleft = c - 2

        def walk(j, t, X, key, out):
            if j == nleft:
                out.append((t, X))
                return
            L = lastlist(j, key[j])
            for a in _letters(allowed[j][key[j]] & aallowed[t]):
                Y = X & L[a]
                if Y:
                    walk(j + 1, akids[t][a], Y, key, out)

        def walk_distinct(j, t, X, key, out, doubled=True):
            if j == nleft:
                out.append((t, X, doubled))
                return
            node = key[j]
            L = lastlist(j, node)
            al = allowed[j]
            kk = kids[j][node]
            for a in _letters(al[node] & aallowed[t]):
                Y = X & L[a]
                if Y:
                    walk_distinct(j + 1, akids[t][a], Y, key, out, doubled and al[kk[a]] >> a & 1)

        return atrie, lastlist, walk_distinct if distinct else walk

    def _two_rows_counter(self):
        """A function of the column nodes before row ``r - 2``: the number of
        ways to finish the last two rows (plain counts only).

        Walks the letters of row ``r - 2`` through a trie of its words; the
        running AND ``X`` is the set of last rows still possible, so a
        branch ends as soon as it is empty, and a complete row adds
        ``popcount(X)``.  The walk over the first ``c - 2`` letters depends
        only on the first ``c - 2`` columns, so it is cached on their nodes.
        """
        r, c = self.r, self.c
        A = self.A
        atrie, lastlist, walk = self._walker(distinct=False)
        akids, aallowed = atrie.kids, atrie.allowed
        base_last = self.base[r - 1]
        rm = self.rm
        allowed = [t.allowed for t in self.tries]
        left_cache: dict = {}
        nleft = c - 2

        al2s, al3s = allowed[c - 2], allowed[c - 1]

        def finish(lf, nodes):
            n2, n3 = nodes[nleft], nodes[nleft + 1]
            L2, L3 = lastlist(nleft, n2), lastlist(nleft + 1, n3)
            return _last_two_rows(lf, L2, L3, al2s[n2], al3s[n3], akids, aallowed)

        def two_rows(nodes):
            key = tuple(nodes[:nleft])
            lf = left_cache.get(key)
            if lf is None:
                if len(left_cache) > _CACHE_LIMIT:
                    left_cache.clear()
                lf = left_cache[key] = []
                walk(0, 0, base_last, key, lf)
            return finish(lf, nodes)

        mask0 = A.masks[0]

        def tied(nodes, x, y):
            """(column 0 above row 0, column 0 equal to row 0) when column 0
            has so far read as row 0 and must read x, y (or above) in the last
            two rows.  Needs c >= 3: column 0 is in the cached walk."""
            key = tuple(nodes[:nleft])
            L0 = lastlist(0, key[0])
            above, equal = [], []
            for a in _letters(allowed[0][key[0]] & aallowed[0] & _GE[x]):
                X = base_last & L0[a]
                if not X:
                    continue
                t = akids[0][a]
                if a > x:
                    walk(1, t, X, key, above)
                else:
                    Xa = X & rm[0](_GT[y])
                    if Xa:
                        walk(1, t, Xa, key, above)
                    Xe = X & mask0[y]
                    if Xe:
                        walk(1, t, Xe, key, equal)
            return finish(above, nodes), finish(equal, nodes)

        two_rows.tied = tied if c >= 3 else None
        two_rows.clear = left_cache.clear
        return two_rows

    def _two_rows_distinct_counter(self):
        """With no word twice: a function of the column nodes and the rows
        before row ``r - 2`` (and the halving tie) giving the number of ways
        to finish the last two rows, or None when two columns share their
        prefix so far (the caller then searches on, row by row).

        The walk is that of the plain count, cached the same way, with the
        last rows that would repeat their own column left out of the tables
        (:meth:`_walker`).  Every other repeat left open turns on a few
        letters, so it costs a rule applied to a table or a check on the
        rare prefixes where it can happen, never a search:

        * a column repeats row ``i < r - 2``: only if it starts with that
          row's prefix, and then "if row ``r - 2`` has letter ``x`` in column
          ``j``, the last row has not letter ``y`` there", a rule on ``X``
          or on the column's table;
        * the last row repeats row ``i < r - 2``: only if that row is among
          the last rows the walk leaves and fits the last two columns, and
          then ``X & ~used``;
        * row ``r - 2`` repeats a row above or a column: only if it starts
          with that row's or column's prefix; the last row repeats row ``r -
          2``: only where the walk says ``doubled``.  There the words of
          rows ``r - 2`` and ``r - 1`` are checked one by one;
        * two columns repeat each other: only if their prefixes are equal,
          the case left to the caller.

        With the halving tie (column 0 has read as row 0 so far) column 0
        must end above row 0: a lower bound on row ``r - 2``'s first letter
        and one more rule for the last row.
        """
        r, c = self.r, self.c
        A = self.A
        square = self.square
        nleft = c - 2
        atrie, lastlist, walk = self._walker(distinct=square)
        if not square:
            # Rows and columns differ in length, so only rows can repeat
            # rows: every row r - 2 is checked against the last row.
            plain_walk = walk

            def walk(j, t, X, key, out):
                plain_walk(j, t, X, key, out)
                out[:] = [(t, X, True) for t, X in out]

        akids, aallowed, aprefix = atrie.kids, atrie.allowed, atrie.prefix
        acode = [tuple(ord(ch) - 65 for ch in p) for p in aprefix]
        position = A.position
        aword = [position[p] if len(p) == c else -1 for p in aprefix]  # the word at each leaf
        anode = {p: t for t, p in enumerate(aprefix) if len(p) == nleft}  # the node of each prefix
        base_last = self.base[r - 1]
        masks = A.masks
        words, codes = A.words, self.codes
        rm = self.rm
        tries = self.tries
        prefix_of = [t.prefix for t in tries]
        allowed = [t.allowed for t in tries]
        al2s, al3s = allowed[c - 2], allowed[c - 1]
        left_cache: dict = {}
        fits = [{} for _ in range(c)]

        def fit(j, node):
            # The last rows that can end column j at ``node`` at all.
            v = fits[j].get(node)
            if v is None:
                v = 0
                for x in lastlist(j, node):
                    v |= x
                fits[j][node] = v
            return v

        def two_rows(nodes, urows, tie):
            prefixes = [prefix_of[j][nodes[j]] for j in range(c)]
            if len(set(prefixes)) < c:
                return None
            key = tuple(nodes[:nleft])
            walked = left_cache.get(key)
            if walked is None:
                if len(left_cache) > _CACHE_LIMIT:
                    left_cache.clear()
                out = []
                walk(0, 0, base_last, key, out)
                X_any = 0
                for _, X, _ in out:
                    X_any |= X
                plain = [(t, X) for t, X, doubled in out if not doubled]
                walked = left_cache[key] = (out, plain, {t: (X, doubled) for t, X, doubled in out}, X_any)
            out, plain, X_at, X_any = walked
            n2, n3 = nodes[nleft], nodes[nleft + 1]
            L2, L3 = lastlist(nleft, n2), lastlist(nleft + 1, n3)
            al2, al3 = al2s[n2], al3s[n3]
            used = 0  # rows above that the last row could repeat
            for u in urows:
                if X_any >> u & 1 and fit(nleft, n2) >> u & 1 and fit(nleft + 1, n3) >> u & 1:
                    used |= 1 << u
            # Rules (column, letter of row r - 2, last rows ruled out), and
            # the nodes of row r - 2 whose words could repeat a row or a column.
            rules = []
            careful = set(map(anode.get, prefixes)) if square else set()
            for u in urows:
                p = words[u][:nleft]
                careful.add(anode.get(p))
                if square and p in prefixes:
                    j = prefixes.index(p)
                    rules.append((j, codes[u][r - 2], masks[j][codes[u][r - 1]]))
            careful.intersection_update(X_at)
            low = -1  # the least first letter of row r - 2 (halving tie)
            if tie is not None:
                low = tie[r - 2]
                rules.append((0, low, rm[0](_ALL & ~_GT[tie[r - 1]])))
            left_rules = []
            if rules:
                L2, L3 = list(L2), list(L3)
                for j, x, ruled_out in rules:
                    if j == nleft:
                        L2[x] &= ~ruled_out
                    elif j == nleft + 1:
                        L3[x] &= ~ruled_out
                    else:
                        left_rules.append((j, x, ruled_out))
            if low < 0 and not used and not left_rules:
                # The plain count, with the careful nodes redone one by one.
                total = _last_two_rows(plain, L2, L3, al2, al3, akids, aallowed)
                redo = [(t, X_at[t][0]) for t in careful if not X_at[t][1]]
                if redo:
                    total -= _last_two_rows(redo, L2, L3, al2, al3, akids, aallowed)
                for t, X, doubled in out:
                    if doubled or t in careful:
                        total += one_by_one(t, X, L2, L3, al2, al3, urows, prefixes)
                return total
            entries = []
            total = 0
            for t, X, doubled in out:
                code_t = acode[t]
                if low >= 0 and code_t[0] < low:
                    continue
                if used:
                    X &= ~used
                for j, x, ruled_out in left_rules:
                    if code_t[j] == x:
                        X &= ~ruled_out
                if not X:
                    continue
                if doubled or t in careful:
                    total += one_by_one(t, X, L2, L3, al2, al3, urows, prefixes)
                else:
                    entries.append((t, X))
            return total + _last_two_rows(entries, L2, L3, al2, al3, akids, aallowed)

        def one_by_one(t, X, L2, L3, al2, al3, urows, prefixes):
            # The plain loop with each word of row r - 2 checked: it repeats
            # no row above, the last row does not repeat it, and if it starts
            # as column ``same`` does, it does not repeat that column.
            pre = aprefix[t]
            same = prefixes.index(pre) if square and pre in prefixes else -1
            code_t = acode[t]
            total = 0
            for a in _letters(al2 & aallowed[t]):
                ta = akids[t][a]
                X2 = X & L2[a]
                if not X2:
                    continue
                for d in _letters(al3 & aallowed[ta]):
                    v = X2 & L3[d]
                    if not v:
                        continue
                    k = aword[akids[ta][d]]
                    if k in urows:
                        continue
                    if same >= 0:
                        letter = code_t[same] if same < nleft else (a if same == nleft else d)
                        if letter == a:
                            v &= ~masks[same][d]
                    total += v.bit_count() - (v >> k & 1)
            return total

        two_rows.clear = left_cache.clear
        return two_rows

    def _last_row_counter(self):
        """With no word twice: the last rows that repeat nothing, mostly by popcount.

        The candidates already miss the rows used (``~ubits``).  What is
        left to exclude is a column equal to a row, to another column, or
        to the last row itself.  A column can equal an earlier row only if
        it shares that row's prefix, and two columns can be equal only if
        their prefixes are equal; those rare cases enumerate.  A column
        equal to the last row ``w`` needs ``w`` to start with the column's
        prefix: those few candidates are found with one AND per column.
        """
        c = self.c
        A = self.A
        codes = self.codes
        tries = self.tries
        square = self.square
        rm = self.rm
        nlast = self.r - 1
        words = A.words

        def last_count(cand, nodes, urows):
            prefixes = [t.prefix[nd] for t, nd in zip(tries, nodes)]
            special = len(set(prefixes)) < c
            if square and not special:
                for u in urows:
                    if words[u][:nlast] in prefixes:
                        special = True
                        break
            if special:
                return self._enumerate_last(cand, nodes, urows)
            total = cand.bit_count()
            if square:
                bad = set()
                for j in range(c):
                    same = cand & tries[j].bits[nodes[j]]
                    while same:
                        low = same & -same
                        k = low.bit_length() - 1
                        same ^= low
                        if codes[k][nlast] == codes[k][j]:
                            bad.add(k)
                total -= len(bad)
            return total

        del rm
        return last_count

    def _enumerate_last(self, cand, nodes, urows) -> int:
        n = 0
        for k in _members(cand):
            self.enumerated += 1
            rows = [self.A.words[u] for u in urows] + [self.A.words[k]]
            cols = ["".join(row[j] for row in rows) for j in range(self.c)]
            allw = rows + cols
            if len(set(allw)) == len(allw):
                n += 1
        return n

    def _symmetric(self) -> int:
        """Fills equal to their transpose (row i == column i), for transpose-once."""
        c = self.c
        last = self.r - 1
        A = self.A
        codes = self.codes
        base = self.base
        kids = [t.kids for t in self.tries]
        allowed = [t.allowed for t in self.tries]
        rm = self.rm
        masks = A.masks

        def step(i, nodes, rows):
            cand = base[i]
            for j in range(i):
                cand &= masks[j][rows[j][i]]
            for j in range(i, c):
                cand &= rm[j](allowed[j][nodes[j]])
            if not cand or i == last:
                return cand.bit_count()
            total = 0
            x = cand
            while x:
                low = x & -x
                k = low.bit_length() - 1
                x ^= low
                code = codes[k]
                new = [kk[nd][a] for kk, nd, a in zip(kids, nodes, code)]
                total += step(i + 1, new, rows + (code,))
            return total

        return step(0, [0] * c, ())

    # -- the fills ------------------------------------------------------------
    def fills(self):
        if self.impossible:
            return
        r, c = self.r, self.c
        A = self.A
        codes, lsets = self.codes, self.lsets
        base, cellmask = self.base, self.cellmask
        kids = [t.kids for t in self.tries]
        allowed = [t.allowed for t in self.tries]
        rm = self.rm
        dw, dl = self.dw, self.dl
        words = A.words
        check_time = self._check_time

        def step(i, nodes, urows, ubits, ul):
            check_time()
            cand = base[i] & ~ubits if dw else base[i]
            for j in range(c):
                S = allowed[j][nodes[j]]
                if dl:
                    S &= cellmask[i][j] & ~ul
                cand &= rm[j](S)
                if not cand:
                    return
            x = cand
            while x:
                low = x & -x
                k = low.bit_length() - 1
                x ^= low
                if i == r - 1:
                    rows = [words[u] for u in urows] + [words[k]]
                    if dw:
                        cols = ["".join(row[j] for row in rows) for j in range(c)]
                        allw = rows + cols
                        if len(set(allw)) != len(allw):
                            continue
                    yield Grid(r, c, "".join(rows))
                    continue
                code = codes[k]
                new = [kk[nd][a] for kk, nd, a in zip(kids, nodes, code)]
                yield from step(i + 1, new, urows + (k,), ubits | low, ul | lsets[k])

        yield from step(0, [0] * c, (), 0, 0)


# -- any grid: slot by slot ---------------------------------------------------
class _Slots:
    """Count or list the fills of any grid: choose the slot with fewest
    candidates, try each word, narrow the crossing slots; the last slot's
    candidates are counted, not tried."""

    def __init__(self, grid: Grid, index: WordIndex, dw: bool, dl: bool, deadline):
        self.grid = grid
        self.p = FillProblem(grid)
        self.dw, self.dl = dw, dl
        self.deadline = deadline
        self.counted = self.enumerated = 0
        p = self.p
        self.lidx = [index[n] for n in p.lengths]
        self.impossible = any(c not in p.given for c in p.orphans)
        codes_by_len = {}
        dom = []
        for s, li in enumerate(self.lidx):
            if li.length not in codes_by_len:
                codes, sets = _letter_sets(li)
                dlw = _distinct_letter_words(li, sets) if dl else li.full
                codes_by_len[li.length] = (codes, sets, dlw)
            d = codes_by_len[li.length][2]
            for pos, cell in enumerate(p.cells[s]):
                ch = p.given.get(cell)
                if ch is not None:
                    d &= li.masks[pos][ord(ch) - 65]
            dom.append(d)
        self.dom0 = dom
        self.codes = [codes_by_len[li.length][0] for li in self.lidx]
        self.sets = [codes_by_len[li.length][1] for li in self.lidx]
        self.rm = [[_MaskMemo(li.masks[pos]) for pos in range(li.length)] for li in self.lidx]
        given_letters = [ch for ch in p.given.values()]
        if dl and len(set(given_letters)) != len(given_letters):
            self.impossible = True
        self.fixed0 = dict(p.given)

    def _search(self, listing: bool):
        p = self.p
        n = len(p.slots)
        dw, dl = self.dw, self.dl
        lengths = p.lengths
        crossings = p.crossings
        cells = p.cells
        codes, rm = self.codes, self.rm
        deadline = self.deadline

        def letters_used(fixed):
            s = 0
            for ch in fixed.values():
                s |= 1 << (ord(ch) - 65)
            return s

        def narrow(s, d, fixed, used, ul):
            # Candidates of slot s: no repeated word, no letter used elsewhere.
            if dw:
                d &= ~used.get(lengths[s], 0)
            if dl:
                free = _ALL & ~ul
                for pos, cell in enumerate(cells[s]):
                    if cell not in fixed:
                        d &= rm[s][pos](free)
            return d

        def step(dom, assigned, fixed, used):
            if deadline is not None and time.perf_counter() > deadline:
                raise TimeoutError("count ran out of time")
            ul = letters_used(fixed) if dl else 0
            best, best_n, best_d = -1, -1, 0
            left = 0
            for s in range(n):
                if s in assigned:
                    continue
                left += 1
                d = narrow(s, dom[s], fixed, used, ul)
                k = d.bit_count()
                if k == 0:
                    return
                if best < 0 or k < best_n:
                    best, best_n, best_d = s, k, d
            if best < 0:
                yield dict(fixed)
                return
            if left == 1 and not listing:
                self.counted += 1
                yield best_n
                return
            s = best
            x = best_d
            while x:
                low = x & -x
                k = low.bit_length() - 1
                x ^= low
                code = codes[s][k]
                d2 = list(dom)
                ok = True
                for pos, cell, t, tp in crossings[s]:
                    if t >= 0 and t not in assigned:
                        d2[t] &= self.lidx[t].masks[tp][code[pos]]
                        if not d2[t]:
                            ok = False
                            break
                if not ok:
                    continue
                f2 = dict(fixed)
                for cell, a in zip(cells[s], code):
                    f2[cell] = LETTERS[a]
                u2 = used
                if dw:
                    u2 = dict(used)
                    u2[lengths[s]] = u2.get(lengths[s], 0) | low
                yield from step(d2, assigned | {s}, f2, u2)

        if self.impossible or any(d == 0 for d in self.dom0):
            return
        yield from step(list(self.dom0), frozenset(), dict(self.fixed0), {})

    def count(self) -> int:
        total = 0
        for v in self._search(listing=False):
            total += v if isinstance(v, int) else 1
        return total

    def fills(self):
        g = self.grid
        for fixed in self._search(listing=True):
            cells = list(g.cells)
            for cell, ch in fixed.items():
                cells[cell] = ch
            yield Grid(g.rows, g.cols, cells)
