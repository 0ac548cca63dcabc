"""The one exception type that the command line turns into a clean message."""

from __future__ import annotations

__all__ = ["InputError"]


class InputError(Exception):
    """Bad input: a file, line or config key and what is wrong with it.

    Parameters
    ----------
    message : str
        What is wrong, in words a user can act on.
    path : str or os.PathLike, optional
        The file the problem is in.
    line : int, optional
        1-based line number within ``path``.

    Examples
    --------
    >>> str(InputError("no '|' between answer and clue", path="_ab.txt", line=3))
    "_ab.txt:3: no '|' between answer and clue"
    """

    def __init__(self, message: str, path=None, line: int | None = None):
        self.message = message
        self.path = None if path is None else str(path)
        self.line = line
        super().__init__(str(self))

    def __str__(self) -> str:
        where = ""
        if self.path is not None:
            where = self.path + (f":{self.line}" if self.line is not None else "") + ": "
        return where + self.message
