"""The names ``xw`` offers as choices, without the modules that give them meaning.

``xw`` builds its whole parser whatever the command, so the names it
offers for ``--style``, ``--trim`` and ``--layout`` were imported from
`pipeline.model.rules` (which imports networkx: 0.1 s) and
`pipeline.render.book` on every start, ``xw fill`` included.  Here they
are names only; ``STYLES``, ``TRIMS``, ``TRIM_ALIASES`` and ``LAYOUTS`` of
those modules stay the definitions, and tests/test_index_cache.py checks
that these name the same things.
"""

__all__ = ["STYLE_NAMES", "TRIM_NAMES", "TRIM_ALIAS_NAMES", "LAYOUTS"]

#: `pipeline.model.rules.STYLES`, by name.
STYLE_NAMES = ("american", "british")
#: `pipeline.render.book.TRIMS` and `TRIM_ALIASES`, by name.
TRIM_NAMES = ("letter", "a4", "6x9", "large-print")
TRIM_ALIAS_NAMES = ("8.5x11", "us-letter", "large")
#: `pipeline.render.book.LAYOUTS`.
LAYOUTS = ("auto", "page", "facing")
