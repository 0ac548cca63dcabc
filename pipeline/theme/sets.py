"""Theme groups and theme sets: long entries with one connection a solver can name.

A *group* is a connection and every usable entry that has it (all the
WordNet phrases ending in STORE); a *set* is the three or four of them a
grid holds, chosen so their lengths fit the symmetric layout
(:mod:`pipeline.theme.place`): two entries of one length for a pair of
rotated slots, and one of the grid's parity for the centre row.

Connections found:

``shared-first-word`` / ``shared-last-word``
    Two-word WordNet noun phrases sharing their first or last word
    (GROCERY STORE, HARDWARE STORE, COUNTRY STORE: "___ Store").  The shared
    word is a common noun or adjective (not a particle or function word), the
    other words are all different, and no phrase is jargon (WordNet gives it
    no topic domain such as physics or statistics), unkind or grim.
``category``
    Members of one WordNet category a solver knows by name
    (:data:`CATEGORIES`: U.S. states, world capitals, musical instruments),
    no two sharing a word, none holding the category's own name.
``hidden-word``
    Phrases that hide one animal across a word boundary (SPECIAL IONS hides
    LION): the animal starts in one word and ends in the next, and is no
    word of the phrase nor inside one.

Every entry is *usable*: in the word list at or above the theme floor (the
word list caps a phrase at 45, so the default floor is 45: a phrase with
sense-tagged uses in WordNet's corpus, or a single word the list rates as
well), clued in the clue shards, not blocked.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import combinations

from ..model.wordlist import normalise

__all__ = ["ThemeGroup", "ThemeSet", "CATEGORIES", "HIDDEN_ANIMALS", "STOPWORDS", "shared_word_groups",
           "category_groups", "hidden_word_groups", "BLAND", "choose_set", "theme_lengths"]  # fmt: skip

#: Words no shared-word theme is built on: particles, function words and
#: verbs of phrasal verbs, too weak to name a theme.
STOPWORDS = frozenset("""
A AN THE OF IN ON AT BY TO FOR FROM WITH AND OR BUT NOR OUT UP DOWN OFF OVER UNDER AROUND ABOUT AWAY BACK
THROUGH TOGETHER FORTH FORWARD INTO ONTO UPON AS NOT NO ALL ONE ONESELF SOMEONE SOMETHING ANY EVERY THIS THAT
IT ITS HIS HER THEIR OUR YOUR MY BE BEING GET GO GOING TAKE COME MAKE PUT GIVE SET HAVE DO DOES KEEP LET
RE NON SELF ANTI PRE POST SUB SUPER OTHER SAME SUCH VERY MORE MOST LESS LEAST MUCH MANY FEW
""".split())

#: Words too bland for a theme phrase, as its shared word or its other one:
#: they make literal, dictionary-made phrases (POLITICAL LEADER, RURAL AREA,
#: SOCIAL STRUCTURE) rather than ones a solver knows as a unit.
BLAND = frozenset("""
SOCIAL POLITICAL NATIONAL MEDICAL PUBLIC LARGE SMALL GENERAL SPECIAL CERTAIN VARIOUS MAJOR MINOR COMMON HUMAN
MENTAL PHYSICAL ECONOMIC FINANCIAL LEGAL MILITARY OFFICIAL PERSONAL PRIVATE TOTAL AVERAGE DIRECT BUSINESS RURAL
URBAN LOCAL SYSTEM STRUCTURE PROGRAM PROJECT PRINCIPLE HISTORY STATUS ACTIVITY ACTION UNIT TEXT TERM PERSON
PEOPLE THING AREA LEADER REGION PROCESS METHOD CONDITION STATE QUALITY LEVEL TYPE KIND FORM PART ELECTRICAL
MAGNETIC GIRL
""".split())

#: Categories (WordNet noun lemma, commonest sense) and the title that names them.
CATEGORIES = (
    ("American_state", "U.S. States"), ("national_capital", "World Capitals"), ("state_capital", "State Capitals"),
    ("country", "Countries"), ("island", "Islands"), ("river", "Rivers"), ("mountain", "Mountains"),
    ("musical_instrument", "Musical Instruments"), ("vegetable", "Vegetables"), ("edible_fruit", "Fruits"),
    ("flower", "Flowers"), ("bird", "Birds"), ("sport", "Sports"), ("dance", "Dances"),
    ("dessert", "Desserts"), ("cheese", "Cheeses"), ("beverage", "Drinks"), ("board_game", "Board Games"),
    ("card_game", "Card Games"), ("composer", "Composers"), ("painter", "Painters"), ("poet", "Poets"),
    ("philosopher", "Philosophers"), ("natural_science", "Sciences"),
    ("medical_science", "Medical Specialties"), ("kitchen_utensil", "Kitchen Utensils"),
    ("furniture", "Furniture"), ("footwear", "Footwear"), ("hat", "Hats"), ("boat", "Boats"),
    ("aircraft", "Aircraft"), ("precious_stone", "Gems"),
    ("pasta", "Pasta"), ("bread", "Breads"), ("cake", "Cakes"), ("sandwich", "Sandwiches"), ("soup", "Soups"),
    ("toy", "Toys"), ("holiday", "Holidays"), ("natural_language", "Languages"), ("constellation", "Constellations"),
    ("lake", "Lakes"), ("sea", "Seas"), ("desert", "Deserts"), ("dog", "Dog Breeds"), ("cat", "Cat Breeds"),
    ("hand_tool", "Hand Tools"),
    ("keyboard_instrument", "Keyboard Instruments"), ("percussion_instrument", "Percussion Instruments"),
    ("music_genre", "Music Genres"),
)  # fmt: skip

#: Animals a hidden-word theme hides (four letters or more: shorter ones hide by chance everywhere).
HIDDEN_ANIMALS = ("BEAR", "BOAR", "DEER", "LION", "MOLE", "MULE", "HARE", "LAMB", "TOAD", "WOLF", "CRAB", "SEAL",
                  "MOTH", "SWAN", "DOVE", "CROW", "HAWK", "WREN", "LARK", "GOAT", "MARE", "PONY", "COLT", "NEWT",
                  "ORCA", "IBEX", "LYNX", "PUMA", "ZEBRA", "TIGER", "CAMEL", "OTTER", "HORSE", "MOOSE", "SHEEP",
                  "SKUNK", "STORK", "EAGLE", "RAVEN", "LLAMA", "HERON", "SNAKE", "SQUID", "TROUT", "SHARK", "WHALE",
                  "GECKO", "KOALA", "PANDA", "HYENA", "BISON", "RHINO", "HIPPO", "ROBIN", "FINCH", "QUAIL")  # fmt: skip

_TOKEN = re.compile(r"[_\-\s]+")


@dataclass(frozen=True)
class ThemeGroup:
    """A connection and the usable entries that have it.

    Attributes
    ----------
    key : str
        Unique among groups: ``kind:what`` (``shared-last-word:STORE``).
    kind, title : str
    pool : tuple of (str, float)
        ``(entry, quality)``, best first.
    tokens : dict
        Each entry's words, to keep a set free of shared words.
    """

    key: str
    kind: str
    title: str
    pool: tuple[tuple[str, float], ...]
    tokens: dict


@dataclass(frozen=True)
class ThemeSet:
    """Three to five theme entries and what connects them.

    Attributes
    ----------
    key : str
        The group's key.
    kind, title : str
    pairs : tuple of (str, str)
        Entries of one length each, for a pair of symmetric slots.
    centre : str or None
        An entry for the centre row (self-symmetric).
    """

    key: str
    kind: str
    title: str
    pairs: tuple[tuple[str, str], ...]
    centre: str | None

    @property
    def entries(self) -> tuple[str, ...]:
        """Every entry: the pairs', then the centre's."""
        out = tuple(e for p in self.pairs for e in p)
        return out + ((self.centre,) if self.centre else ())


def tokens_of(lemma: str) -> tuple[str, ...] | None:
    """A lemma's words normalised to A-Z (``fire_drill`` -> ``('FIRE', 'DRILL')``), None if one will not fold."""
    try:
        out = tuple(normalise(t) for t in _TOKEN.split(lemma) if t)
    except ValueError:
        return None
    return out if all(out) else None


def _stem(token: str) -> str:
    return token[:-1] if token.endswith("S") and len(token) > 3 else token


def theme_lengths(rows: int, cols: int) -> tuple[int, int]:
    """The shortest and longest theme entry a ``rows x cols`` grid takes across.

    60% of the width, up to the width; in a grid 12 or fewer wide, the
    width less one: shorter theme entries there cap the other slots so low
    that the style's black and word bounds leave no pattern (an 11x11 with
    7-letter themes would need every other slot at most 6 long).

    Examples
    --------
    >>> theme_lengths(15, 15), theme_lengths(11, 11), theme_lengths(21, 21)
    ((9, 15), (10, 11), (13, 21))
    """
    return (cols - 1 if cols <= 12 else -(-cols * 3 // 5)), cols


def shared_word_groups(phrases: Iterable[tuple[str, tuple[str, ...], float]], familiarity: Callable[[str], float],
                       min_shared: float = 4.0, min_other: float = 3.0) -> list[ThemeGroup]:  # fmt: skip
    """Groups of two-word phrases sharing their first or their last word.

    Parameters
    ----------
    phrases : iterable of (entry, words, quality)
        Usable two-word phrases (entry = the words run together).
    familiarity : callable
        A word's wordfreq Zipf frequency (lower case in).
    min_shared, min_other : float
        Zipf the shared word, and each other word, needs.

    Returns
    -------
    list of ThemeGroup
        One per shared word with three or more phrases, in key order.
    """
    by: dict[tuple[str, str], dict[str, float]] = {}
    words: dict[str, tuple[str, ...]] = {}
    for entry, toks, quality in phrases:
        if len(toks) != 2 or toks[0] == toks[1] or any(len(t) < 3 or t in STOPWORDS or t in BLAND for t in toks):
            continue
        if any(familiarity(t.lower()) < min_other for t in toks):
            continue
        words[entry] = toks
        for kind, shared in (("shared-first-word", toks[0]), ("shared-last-word", toks[1])):
            if familiarity(shared.lower()) >= min_shared:
                pool = by.setdefault((kind, shared), {})
                pool[entry] = max(quality, pool.get(entry, 0.0))
    out = []
    for (kind, shared), pool in sorted(by.items()):
        if len(pool) < 3:
            continue
        title = f"{shared.title()} ___" if kind == "shared-first-word" else f"___ {shared.title()}"
        ranked = tuple(sorted(pool.items(), key=lambda kv: (-kv[1], kv[0])))
        out.append(ThemeGroup(f"{kind}:{shared}", kind, title, ranked, {e: words[e] for e in pool}))
    return out


def category_groups(members: Iterable[tuple[str, str, str, Iterable[tuple[str, tuple[str, ...], float]]]]
                    ) -> list[ThemeGroup]:  # fmt: skip
    """Groups of category members: ``(root lemma, title, head word, [(entry, words, quality), ...])`` each.

    A member holding the head word or a word of the title (WATERDOG for Dog
    Breeds, SOFTDRINK for Drinks) gives the theme away and is left out; a
    category needs three members.
    """
    out = []
    for root, title, head, found in members:
        pool: dict[str, float] = {}
        toks: dict[str, tuple[str, ...]] = {}
        giveaways = {_stem(w) for w in [head] + [normalise(t) for t in title.split()] if len(w) >= 3}
        for entry, words, quality in found:
            if any(g in entry for g in giveaways):
                continue
            if quality > pool.get(entry, -1.0):
                pool[entry], toks[entry] = quality, words
        if len(pool) >= 3:
            ranked = tuple(sorted(pool.items(), key=lambda kv: (-kv[1], kv[0])))
            out.append(ThemeGroup(f"category:{root}", "category", title, ranked, toks))
    return out


def hidden_word_groups(phrases: Iterable[tuple[str, tuple[str, ...], float]], hidden: Iterable[str] = HIDDEN_ANIMALS
                       ) -> list[ThemeGroup]:  # fmt: skip
    """Groups of phrases that each hide one word across a word boundary.

    The hidden word starts in one word of the phrase and ends in the next,
    and is no whole word of it (SPECIAL IONS hides LION; LION KING does not).
    Title: ``Hidden Lion`` (the solver finds one in every theme entry).
    """
    hidden = sorted(set(hidden))
    by: dict[str, dict[str, float]] = {h: {} for h in hidden}
    words: dict[str, tuple[str, ...]] = {}
    for entry, toks, quality in phrases:
        if len(toks) < 2:
            continue
        bounds, at = [], 0
        for t in toks[:-1]:
            at += len(t)
            bounds.append(at)
        for h in hidden:
            if h in toks or any(h in t for t in toks):
                continue
            start = entry.find(h)
            while start >= 0:
                if any(start < b < start + len(h) for b in bounds):
                    by[h][entry] = quality
                    words[entry] = toks
                    break
                start = entry.find(h, start + 1)
    out = []
    for h in hidden:
        pool = by[h]
        if len(pool) >= 3:
            ranked = tuple(sorted(pool.items(), key=lambda kv: (-kv[1], kv[0])))
            out.append(ThemeGroup(f"hidden-word:{h}", "hidden-word", f"Hidden {h.title()}", ranked,
                                  {e: words[e] for e in pool}))  # fmt: skip
    return out


def _compatible(chosen: list[str], entry: str, tokens: dict, shared: str | None) -> bool:
    """Whether ``entry`` shares no word (but the theme's) with the chosen ones, and hides none of them."""
    mine = {_stem(t) for t in tokens.get(entry, (entry,))} - {shared}
    for other in chosen:
        theirs = {_stem(t) for t in tokens.get(other, (other,))} - {shared}
        if mine & theirs or entry in other or other in entry:
            return False
    return True


def choose_set(group: ThemeGroup, rows: int, cols: int, used: set[str] = frozenset(),
               sizes: tuple[int, ...] = (3, 4)) -> ThemeSet | None:  # fmt: skip
    """The best set of ``group``'s entries that fits a ``rows x cols`` grid, none in ``used``; None if none fits.

    A set of 3 is a pair of one length and a centre entry (odd grids: its
    length of the width's parity, so it sits centred and self-symmetric); a
    set of 4 is two pairs.  Entries share no word but the theme's and hold no
    other entry.  Of the sets that fit, the one whose entries' qualities sum
    highest (ties: alphabetical), trying the ``sizes`` in order.

    Examples
    --------
    >>> g = ThemeGroup("k", "category", "T", (("ABCDEFGHI", 60), ("BCDEFGHIJ", 55), ("CDEFGHIJKLM", 50),
    ...                                       ("DEFGHIJKL", 40)), {})
    >>> s = choose_set(g, 15, 15)
    >>> s.pairs, s.centre
    ((('ABCDEFGHI', 'BCDEFGHIJ'),), 'CDEFGHIJKLM')
    """
    low, high = theme_lengths(rows, cols)
    shared = group.key.split(":", 1)[1] if group.kind.startswith("shared") else None
    pool = [(e, q) for e, q in group.pool if e not in used and low <= len(e) <= high]
    by_len: dict[int, list[tuple[str, float]]] = {}
    for e, q in pool:
        by_len.setdefault(len(e), []).append((e, q))

    def pairs_of(length, chosen):
        ok = [(e, q) for e, q in by_len.get(length, ()) if _compatible(chosen, e, group.tokens, shared)]
        for (a, qa), (b, qb) in combinations(ok, 2):
            if _compatible(chosen + [a], b, group.tokens, shared):
                yield (a, b), qa + qb

    centre_ok = rows % 2 == 1
    for size in sizes:
        best = None
        lengths = sorted(by_len)
        if size == 3 and centre_ok:
            for L in lengths:
                for pair, qp in pairs_of(L, []):
                    for M in lengths:
                        if (cols - M) % 2:
                            continue
                        for c, qc in by_len[M]:  # best first: the first compatible one is this M's best
                            if c in pair or not _compatible(list(pair), c, group.tokens, shared):
                                continue
                            cand = (qp + qc, ((pair,), c))
                            if best is None or _better(cand, best):
                                best = cand
                            break
        elif size == 4:
            for i, L1 in enumerate(lengths):
                for p1, q1 in pairs_of(L1, []):
                    for L2 in lengths[i:]:
                        for p2, q2 in pairs_of(L2, list(p1)):
                            cand = (q1 + q2, ((p1, p2), None))
                            if best is None or _better(cand, best):
                                best = cand
        if best is not None:
            pairs, centre = best[1]
            return ThemeSet(group.key, group.kind, group.title, pairs, centre)
    return None


def _better(a, b) -> bool:
    """Higher quality, then the alphabetically first entries."""
    if a[0] != b[0]:
        return a[0] > b[0]
    ea = [e for p in a[1][0] for e in p] + [a[1][1] or ""]
    eb = [e for p in b[1][0] for e in p] + [b[1][1] or ""]
    return ea < eb
