"""Progress lines for long stages: ``n/N`` done, the rate and the time left.

A stage calls `Progress.update` after each item; a line goes out (through
the stage's ``progress`` callable, which the CLI prints to stderr and the
pipeline keeps in the stage's log) for the first item, the last, and at most
every ``every`` seconds between, so a 150-puzzle book logs a few dozen
lines, not hundreds.
"""

from __future__ import annotations

import time

__all__ = ["Progress"]


class Progress:
    """Report ``done/total`` with the rate and an estimate of the time left.

    Examples
    --------
    >>> lines = []
    >>> p = Progress(4, lines.append, "book 1", every=0)
    >>> p.update(1, "candidate 1 filled"); p.update(4)
    >>> lines[0].startswith("book 1: 1/4 ("), "left" in lines[0], lines[1].startswith("book 1: 4/4 (")
    (True, True, True)
    """

    def __init__(self, total: int, say, what: str, every: float = 2.0):
        """``say`` takes each line (None: the lines go nowhere)."""
        self.total, self.say, self.what, self.every = total, say or (lambda line: None), what, every
        self.start = time.perf_counter()
        self.last: float | None = None

    def update(self, done: int, note: str = "") -> None:
        now = time.perf_counter()
        if self.last is not None and done < self.total and now - self.last < self.every:
            return
        self.last = now
        elapsed = now - self.start
        rate = done / elapsed if elapsed > 0 else 0.0
        left = ""
        if 0 < done < self.total and rate:
            seconds = (self.total - done) / rate
            left = f", about {seconds:.0f} s left" if seconds >= 1 else ", under a second left"
        done_at = f"{rate:.2f} a second{left}" if rate else "starting"
        self.say(f"{self.what}: {done}/{self.total} ({done_at}){'; ' + note if note else ''}")
