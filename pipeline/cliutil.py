"""What every ``xw`` command shares: exit codes, the stage-failed error, progress lines, the
``--blocklist`` and ``--wordlist`` options' values (`pipeline.cli` parses, `pipeline.commands_data`
and `pipeline.commands_book` run)."""

from __future__ import annotations

import sys
from pathlib import Path

from .model.errors import InputError

__all__ = ["EXIT_OK", "EXIT_FAILED", "EXIT_INPUT", "EXIT_UNFILLABLE", "EXIT_TIMEOUT", "StageFailed", "InputError",
           "progress_printer", "blocklist_of", "wordlist_path"]  # fmt: skip

EXIT_OK, EXIT_FAILED, EXIT_INPUT, EXIT_UNFILLABLE, EXIT_TIMEOUT = 0, 1, 2, 3, 4


class StageFailed(Exception):
    """The stage ran on good input but could not finish its output."""


def progress_printer(quiet: bool):
    """A function printing ``xw: MESSAGE`` lines on stderr, or None when ``quiet``."""
    if quiet:
        return None
    return lambda msg: print(f"xw: {msg}", file=sys.stderr, flush=True)


def blocklist_of(args):
    """The Blocklist the ``--blocklist``/``--no-blocklist`` options name."""
    from .model.cluetext import DEFAULT_BLOCKLIST, load_blocklists

    if args.no_blocklist:
        return load_blocklists([])
    return load_blocklists(args.blocklist or [DEFAULT_BLOCKLIST])


def wordlist_path(args) -> Path:
    """``--wordlist``, or the default list (built into the user's cache folder when missing)."""
    if args.wordlist is not None:
        return args.wordlist
    from .lexicon.store import default_lexicon

    return default_lexicon(progress=progress_printer(args.quiet))
