"""The one exception type that the command line turns into a clean message."""

from __future__ import annotations

__all__ = ["InputError", "numbered_lines"]


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


def numbered_lines(text: str):
    """``(line number, line)`` for each line of ``text``, numbered as an editor numbers them.

    Only ``\\n`` ends a line (a ``\\r`` before it is dropped): ``str.splitlines``
    also breaks at form feeds, ``\\x1c``-``\\x1e``, NEL and U+2028/9, so every
    line number after one would be off from what ``wc -l``, ``sed -n`` and
    editors show, and an InputError would name the wrong line.

    Examples
    --------
    >>> list(numbered_lines("a\\fb\\r\\nc\\n"))
    [(1, 'a\\x0cb'), (2, 'c')]
    """
    parts = text.split("\n")
    if parts and parts[-1] == "":
        parts.pop()
    for lineno, line in enumerate(parts, start=1):
        yield lineno, line[:-1] if line.endswith("\r") else line
