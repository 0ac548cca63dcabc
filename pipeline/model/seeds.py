"""Seeds for the parts of a run, derived from the one the user sets."""

from __future__ import annotations

import hashlib

__all__ = ["derive_seed"]


def derive_seed(seed: int, *parts) -> int:
    """A 63-bit seed for one part of a run (a shard, a book, a puzzle).

    The same ``seed`` and ``parts`` always give the same number, on every
    machine and Python version (SHA-256, not ``hash()``).

    Examples
    --------
    >>> derive_seed(7, "patterns", 0) == derive_seed(7, "patterns", 0)
    True
    >>> derive_seed(7, "patterns", 0) == derive_seed(7, "patterns", 1)
    False
    """
    text = ":".join(str(p) for p in (seed, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1
