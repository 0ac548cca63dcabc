"""xwbook: a crossword-book pipeline.

The package is split the way the data flows::

    model  <-  stages (lexicon, patterns, connectivity, filter, encode,
                       fill, clue, render)  <-  cli  <-  Snakefile

``pipeline.model`` defines every file format once; a stage module reads
its input and writes its output only through the model, and knows nothing
of the other stages or of Snakemake.
"""

__version__ = "0.1.0"
