"""Writing files so that a crash never leaves half of one behind."""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
from pathlib import Path

__all__ = ["atomic_write", "write_text", "write_bytes", "write_all", "read_text", "prune_beside", "cache_key", "sealed",
           "unsealed"]  # fmt: skip

from .errors import InputError


@contextlib.contextmanager
def atomic_write(path, mode: str = "w", encoding: str | None = "utf-8"):
    """Open a temporary file beside ``path``; rename it over ``path`` on success.

    On any exception the temporary file is removed and ``path`` is left as
    it was, so a reader never sees a half-written file.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> with atomic_write(d / "a.txt") as f:
    ...     _ = f.write("hello")
    >>> (d / "a.txt").read_text()
    'hello'
    """
    path = Path(path)
    with _temp_beside(path, mode, encoding, rename=True) as (f, _tmp):
        yield f


@contextlib.contextmanager
def _temp_beside(path: Path, mode: str, encoding: str | None, rename: bool):
    """``(file, name)`` of a new temporary file beside ``path``.

    When the block ends the file is synced and made 0644 (mkstemp makes it
    0600; an output is readable like any other), then renamed over ``path``
    if ``rename``; on any exception it is removed and ``path`` left as it was.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix="." + path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        if "b" in mode:
            f = os.fdopen(fd, mode)
        else:
            f = os.fdopen(fd, mode, encoding=encoding, newline="\n")
        with f:
            yield f, tmp
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)
        if rename:
            os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def write_text(path, text: str) -> None:
    """Write ``text`` to ``path`` atomically (UTF-8, ``\\n`` line ends)."""
    with atomic_write(path) as f:
        f.write(text)


def write_bytes(path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically."""
    with atomic_write(path, "wb", encoding=None) as f:
        f.write(data)


def write_all(files) -> None:
    """Write several files, each atomically, renaming none into place until all are written.

    Parameters
    ----------
    files : iterable of (path, str or bytes)
        Each target and its contents (text is written UTF-8 with ``\\n``
        line ends).  The files are renamed into place in this order.

    Notes
    -----
    Each file is written to a temporary file beside its target and synced;
    only then is each renamed over its target.  So a crash or kill while
    writing (by far the longest part) leaves every target as it was, and
    one during the renames leaves some targets new and some old, each
    whole: no target is ever half-written.  An exception removes the
    temporary files not yet renamed.  O(total bytes); one file open at a
    time, however many there are.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> write_all([(d / "1.txt", "one"), (d / "2.bin", b"two")])
    >>> (d / "1.txt").read_text(), (d / "2.bin").read_bytes(), sorted(p.name for p in d.iterdir())
    ('one', b'two', ['1.txt', '2.bin'])
    """
    staged: list[tuple[str, Path]] = []
    try:
        for path, data in files:
            path = Path(path)
            staged.append((_staged(path, data.encode("utf-8") if isinstance(data, str) else data), path))
        while staged:
            tmp, path = staged[0]
            os.replace(tmp, path)
            staged.pop(0)
    except BaseException:
        for tmp, _ in staged:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
        raise


def _staged(path: Path, data: bytes) -> str:
    """``data`` in a synced temporary file beside ``path`` (mode 0644); its name."""
    with _temp_beside(path, "wb", None, rename=False) as (f, tmp):
        f.write(data)
    return tmp


def read_text(path) -> str:
    """Read a UTF-8 text file; a missing or undecodable file is an InputError."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise InputError("file not found", path=path) from None
    except IsADirectoryError:
        raise InputError("is a directory, expected a file", path=path) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise InputError(f"not valid UTF-8 (byte {e.start})", path=path, line=line) from None


def prune_beside(entry: Path, pattern: str, keep: int) -> None:
    """Remove all but the newest ``keep`` files matching ``pattern`` beside ``entry`` (never ``entry``): a cache's upkeep.

    Files another job removes meanwhile, and a folder that may be written
    but not listed, are passed over.
    """
    others = []
    try:
        for p in entry.parent.glob(pattern):
            try:
                others.append((p.stat().st_mtime, p.name, p))
            except OSError:
                continue  # removed meanwhile by another job
    except OSError:
        return  # a folder we may write but not list: left as it is
    others.sort(reverse=True)
    for _, name, p in others[keep:]:
        if name != entry.name:
            try:
                p.unlink()
            except OSError:
                pass


# -- cache entries -----------------------------------------------------------
# The word index and the clue shards are cached the same way: an entry's name
# is a hash of what it was made from and of the code that made it, and the
# entry carries the SHA-256 of its own body, so a stale or damaged one is
# never read but rebuilt.


def cache_key(data, code_files) -> str:
    """The hex SHA-256 of ``data`` (bytes, or an iterable of bytes) and of the package's ``code_files``.

    ``code_files`` are paths under the ``pipeline`` package (``"fill/index.py"``):
    an edit to the code that builds an entry gives new entries.  A file that
    cannot be read (no source beside an installed package) counts by its name.
    """
    h = hashlib.sha256()
    for chunk in [data] if isinstance(data, (bytes, bytearray, memoryview)) else data:
        h.update(chunk)
    package = Path(__file__).resolve().parent.parent
    for name in code_files:
        try:
            h.update(b"\0" + (package / name).read_bytes())
        except OSError:
            h.update(b"\0" + name.encode())
    return h.hexdigest()


def sealed(body: bytes) -> bytes:
    """``body`` with its SHA-256 in front: a cache entry's bytes (`unsealed` reads them)."""
    return hashlib.sha256(body).digest() + body


def unsealed(data: bytes) -> memoryview | None:
    """The body of a `sealed` entry, or None when it is damaged, cut short or not an entry at all."""
    body = memoryview(data)[32:]
    return body if hashlib.sha256(body).digest() == data[:32] else None
