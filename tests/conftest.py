"""Shared fixtures: paths to the benchmark grids and small word lists."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"
# Copies of ../shared/bench/grids, so a clone alone runs the tests.
BENCH_GRIDS = DATA / "grids"


def need_tool(*names):
    """Skip unless every program in ``names`` is on PATH (CI installs them)."""
    missing = [n for n in names if shutil.which(n) is None]
    if missing and os.environ.get("CI"):
        pytest.fail(f"CI must install {', '.join(missing)}")
    if missing:
        pytest.skip(f"needs {', '.join(missing)}")


@pytest.fixture
def bench_grid():
    def read(name: str) -> str:
        return (BENCH_GRIDS / name).read_text()

    return read


@pytest.fixture(autouse=True, scope="session")
def _user_cache_in_a_temporary_folder(tmp_path_factory):
    """What the tools keep in the user's cache folder (``xw fill``'s index cache,
    the default lexicon) goes to a temporary one: the suite never writes to ~/.cache."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("user-cache")))
        yield


@pytest.fixture(scope="session")
def lexicon() -> Path:
    """A built lexicon folder: the pipeline's (outputs/lexicon), or the default one built for the tests."""
    here = ROOT / "outputs" / "lexicon"
    if (here / "wordlist.txt").is_file() and (here / "clues").is_dir():
        return here
    from pipeline.lexicon.store import default_lexicon

    return default_lexicon().parent


@pytest.fixture(scope="session")
def inputs(lexicon):
    """The theme stage's inputs on ``lexicon``: its ThemeSource and word index (`pipeline.theme.load_inputs`)."""
    from pipeline.model.cluetext import load_blocklists
    from pipeline.theme import load_inputs

    return load_inputs(lexicon / "wordlist.txt", lexicon / "clues", load_blocklists(["default"]))
