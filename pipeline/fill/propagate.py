"""Arc consistency between slots that share a cell, and no word twice.

State is two lists of ints: ``dom[s]``, the candidate words of slot ``s``
as a bitset, and ``cset[cell]``, the letters still possible in a cell as a
26-bit set.  The invariant, kept by every change: each word in ``dom[s]``
has at its position ``pos`` a letter in ``cset[cells[s][pos]]``.

``revise`` pops a slot, computes which letters its words still support in
each cell, and where a cell loses letters narrows the crossing slot to the
words with a surviving letter there, queueing it in turn (AC-3).  A slot
whose domain becomes a single word takes that word away from every other
slot of its length, which is how "no word twice" is enforced on slots
completed through their crossings as well as on those chosen.
"""

from __future__ import annotations

__all__ = ["Propagator", "SMALL_DOMAIN"]

# Below this many words, reading letters off the words beats one AND per
# (position, letter): the per-slot letter-support loop is the filler's
# hottest code, so it is written twice, each for the size where it wins.
SMALL_DOMAIN = 40


class Propagator:
    """Propagation over one FillProblem with one WordIndex.

    Attributes
    ----------
    weight : list of int
        Wipe-outs seen per slot (failure weighting for slot choice).
    """

    def __init__(self, problem, index):
        self.problem = problem
        self.lidx = [index[n] for n in problem.lengths]
        self.masks = [li.masks for li in self.lidx]
        self.codes = [li.codes for li in self.lidx]
        self.crossings = problem.crossings
        self.lengths = problem.lengths
        self.same_length = [
            tuple(u for u in problem.by_length[n] if u != s) for s, n in enumerate(problem.lengths)
        ]
        self.weight = [0] * len(problem.lengths)
        self.revisions = 0

    def run(self, dom: list[int], cset: list[int], queue: list[int]) -> bool:
        """Propagate from the slots in ``queue``; False on a wipe-out.

        Notes
        -----
        AC-3 over the slot-crossing graph: each revision is O(L * 26)
        bitset ANDs (or O(|dom| * L) for small domains), and a slot is
        re-queued only when a cell it owns loses a letter.
        """
        masks_of, codes_of, crossings = self.masks, self.codes, self.crossings
        same_length, weight = self.same_length, self.weight
        queued = set(queue)
        while queue:
            s = queue.pop()
            queued.discard(s)
            self.revisions += 1
            D = dom[s]
            if not D:
                weight[s] += 1
                return False
            n = D.bit_count()
            masks = masks_of[s]
            if n <= SMALL_DOMAIN:
                codes = codes_of[s]
                sup = [0] * len(masks)
                x = D
                while x:
                    low = x & -x
                    code = codes[low.bit_length() - 1]
                    for pos, bit in enumerate(code):
                        sup[pos] |= bit
                    x ^= low
            for pos, cell, t, tp in crossings[s]:
                cs = cset[cell]
                if n <= SMALL_DOMAIN:
                    new = sup[pos] & cs
                else:
                    if not cs & (cs - 1):
                        continue  # one letter left, and D has it (invariant)
                    mp = masks[pos]
                    new = 0
                    x = cs
                    while x:
                        low = x & -x
                        if D & mp[low.bit_length() - 1]:
                            new |= low
                        x ^= low
                if new == cs:
                    continue
                if not new:
                    weight[s] += 1
                    return False
                cset[cell] = new
                if t < 0:
                    continue
                mt = masks_of[t][tp]
                allowed = 0
                x = new
                while x:
                    low = x & -x
                    allowed |= mt[low.bit_length() - 1]
                    x ^= low
                Dt = dom[t]
                Dn = Dt & allowed
                if Dn != Dt:
                    if not Dn:
                        weight[t] += 1
                        return False
                    dom[t] = Dn
                    if t not in queued:
                        queued.add(t)
                        queue.append(t)
            if n == 1:
                # D is one word: no other slot of this length may use it.
                for u in same_length[s]:
                    Du = dom[u]
                    if Du & D:
                        Du &= ~D
                        if not Du:
                            weight[u] += 1
                            return False
                        dom[u] = Du
                        if u not in queued:
                            queued.add(u)
                            queue.append(u)
        return True
