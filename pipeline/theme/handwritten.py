"""Hand-written theme sets (``pipeline/data/themes/sets.tsv``): read, checked, made into theme groups.

The file is written and judged for this project set by set (CC0, see the
folder's LICENSE): one set a line, tab-separated, ``title``, ``kind`` (one of
:data:`pipeline.model.themes.KINDS`) and 4-6 candidate entries (A-Z, 7-15
letters); ``#`` starts a comment line.  The theme stage tries these sets
before the WordNet-derived ones (:func:`pipeline.theme.build.enumerate_sets`).

A hand-written entry is used when it is in the word list, has a clue that
does not give it away and is not blocked; it need not reach the theme floor
(``--min-score``): the editor judged it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..model.errors import InputError
from ..model.themes import KINDS
from .sets import ThemeGroup

__all__ = ["HandSet", "default_sets_path", "read_sets", "hand_groups", "MIN_ENTRIES", "MAX_ENTRIES"]

MIN_ENTRIES, MAX_ENTRIES = 4, 6
_ENTRY = re.compile(r"[A-Z]{7,15}")


@dataclass(frozen=True)
class HandSet:
    """One hand-written set: its title, kind and candidate entries (file order)."""

    title: str
    kind: str
    entries: tuple[str, ...]
    line: int


def default_sets_path() -> Path:
    """The project's hand-written theme sets."""
    return Path(__file__).resolve().parent.parent / "data" / "themes" / "sets.tsv"


def read_sets(path=None) -> list[HandSet]:
    """The sets of ``path`` (default :func:`default_sets_path`), file order; InputError naming file and line."""
    path = Path(path) if path is not None else default_sets_path()
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise InputError(f"{path}: cannot read the theme sets ({e.strerror or e})") from None
    out: list[HandSet] = []
    seen: dict[str, int] = {}
    titles: dict[str, int] = {}
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip("\r")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        where = f"{path}:{n}"
        fields = line.split("\t")
        if len(fields) < 2 + MIN_ENTRIES or len(fields) > 2 + MAX_ENTRIES:
            raise InputError(f"{where}: want title, kind and {MIN_ENTRIES}-{MAX_ENTRIES} entries, tab-separated; "
                             f"got {len(fields)} fields")  # fmt: skip
        title, kind, entries = fields[0].strip(), fields[1].strip(), tuple(f.strip() for f in fields[2:])
        if not title:
            raise InputError(f"{where}: empty title")
        if kind not in KINDS:
            raise InputError(f"{where}: kind {kind!r} is not one of {', '.join(KINDS)}")
        if title in titles:
            raise InputError(f"{where}: title {title!r} already on line {titles[title]}")
        titles[title] = n
        for e in entries:
            if not _ENTRY.fullmatch(e):
                raise InputError(f"{where}: entry {e!r} is not 7-15 letters A-Z")
            if e in seen:
                raise InputError(f"{where}: entry {e} already on line {seen[e]}")
            seen[e] = n
        out.append(HandSet(title, kind, entries, n))
    return out


def hand_groups(sets, usable, score) -> list[ThemeGroup]:
    """Theme groups of the hand-written ``sets``: each keeps its usable entries, best scored first.

    Parameters
    ----------
    sets : iterable of HandSet
    usable : callable
        ``usable(entry)``: in the word list, clued without a give-away, not blocked.
    score : callable
        ``score(entry)``: its word-list score (the order :func:`pipeline.theme.sets.choose_set` prefers).

    Returns
    -------
    list of ThemeGroup
        Keyed ``hand:<line>`` (file order), for the sets keeping three or more entries.
    """
    out = []
    for s in sets:
        pool = [(e, float(score(e))) for e in s.entries if usable(e)]
        if len(pool) < 3:
            continue
        ranked = tuple(sorted(pool, key=lambda kv: (-kv[1], kv[0])))
        out.append(ThemeGroup(f"hand:{s.line:04d}", s.kind, s.title, ranked, {e: (e,) for e, _ in pool}))
    return out
