"""Stage 0, the lexicon: the default word list and clue database.

Built, on the user's machine, from sources a book for sale may use:

* the house list (``pipeline/data/house``, CC0 1.0): short entries WordNet
  lacks or clues badly (names, abbreviations, partials, foreign words,
  brands, places, ...), each judged by hand, with a hand-set score and
  clues written for it (`house`);
* WordNet 3.0 (Princeton University): lemmas, their inflections and the
  words of its examples are answers, its glosses, synonyms and examples
  clues (`sources`, `inflection`, `clues`); its licence travels with the
  output;
* SCOWL's size levels and wordfreq's frequencies, which with WordNet's own
  figures make the score (`scoring`); no score is ever committed.

Junk is left out with its reason (`normalise`): taxonomic names and
epithets, glued definitions, possessives and variants, abbreviations of a
synonym, unattested inflections, words that are no English word.

One module per concern: `sources` (reading WordNet, SCOWL, wordfreq),
`normalise` (surfaces to answers, junk), `inflection` (word forms and
inflected definitions), `clues` (clue text), `scoring` (the 0-100 scale),
`house` (the house list), `build` (the build), `store` (where the default
list lives for ``xw fill``), `view` (``xw wordlist stats`` and ``grade``).

Output, all written atomically into ``out_dir``::

    wordlist.txt          WORD;score lines (0-100, 50 fine in a daily paper)
    clues/_xx.txt         ANSWER|clue lines, sharded by first two letters
    grades.tsv            every candidate: score, scored reading and signals, or why it was left out
    LICENSE-WordNet.txt   WordNet's licence
    LICENSE-SCOWL.txt     SCOWL's copyright and permission notice
    LICENSE-house.txt     the house list's CC0 dedication
    NOTICE.txt            where the data came from (printed in the books)
"""

from .build import DEFAULT_MIN_ZIPF, MAX_CLUES, build_lexicon
from .clues import MAX_CLUE_CHARS
from .house import default_house_dir, read_house
from .scoring import band, familiarity, points
from .sources import find_scowl, find_wordnet

__all__ = [
    "DEFAULT_MIN_ZIPF",
    "MAX_CLUES",
    "MAX_CLUE_CHARS",
    "band",
    "build_lexicon",
    "default_house_dir",
    "familiarity",
    "find_scowl",
    "find_wordnet",
    "points",
    "read_house",
]
