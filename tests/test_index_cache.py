"""The fill's index cache and ``xw fill`` as a standalone tool.

``xw fill`` keeps the index of each list it reads in the user's cache folder
($XDG_CACHE_HOME/xwbook/index), keyed by the list's bytes; the cache only
makes a fill start sooner, it never changes what the fill finds.  Every
test here points XDG_CACHE_HOME into its own tmp_path (conftest.py points
the whole session away from ~/.cache too).
"""

from __future__ import annotations

import itertools
import json
import os
import random
import re
import subprocess
import sys

import pytest

from pipeline import choices
from pipeline.fill import Filler, WordIndex, load_index
from pipeline.fill.index import default_cache_dir
from pipeline.fill.quality import fill_graded
from pipeline.model.errors import InputError
from pipeline.model.grid import parse_grid
from pipeline.model.wordlist import _read_lines, _read_plain

from conftest import BENCH_GRIDS, ROOT

OPEN_5 = "\n".join(["....."] * 5) + "\n"


def _xw(*args, cache_home):
    env = {**os.environ, "XDG_CACHE_HOME": str(cache_home)}
    return subprocess.run(
        [sys.executable, "-m", "pipeline.cli", *map(str, args)], capture_output=True, text=True, cwd=ROOT, env=env
    )


def _scored_list(seed: int = 0) -> str:
    """Every 5-letter word over A-C, scores with decimals, a few bare (50), lines in shuffled order."""
    rnd = random.Random(seed)
    words = ["".join(t) for t in itertools.product("ABC", repeat=5)]
    rnd.shuffle(words)
    lines = [w if k % 17 == 0 else f"{w};{rnd.choice([10, 35.5, 50, 62.25, 80, 99])}" for k, w in enumerate(words)]
    return "\n".join(lines) + "\n"


def _entries(cache_home):
    folder = cache_home / "xwbook" / "index"
    return sorted(folder.iterdir()) if folder.exists() else []


@pytest.fixture
def small(tmp_path):
    grid = tmp_path / "g.txt"
    grid.write_text(OPEN_5)
    wordlist = tmp_path / "w.txt"
    words = ["".join(t) for t in itertools.product("ABC", repeat=5)]
    wordlist.write_text("".join(f"{w};{50 + k % 40}\n" for k, w in enumerate(words)))
    return grid, wordlist


def test_xw_fill_caches_the_index_by_default_keyed_by_the_lists_bytes(tmp_path, small):
    grid, wordlist = small
    home = tmp_path / "home-cache"
    first = _xw("fill", grid, "--wordlist", wordlist, "--json", cache_home=home)
    assert first.returncode == 0, first.stderr
    (entry,) = _entries(home)
    stamp = entry.stat().st_mtime_ns
    again = _xw("fill", grid, "--wordlist", wordlist, "--json", cache_home=home)
    assert again.returncode == 0 and _entries(home) == [entry]
    assert entry.stat().st_mtime_ns == stamp, "read, not rebuilt"
    assert json.loads(again.stdout)["grid"] == json.loads(first.stdout)["grid"]
    # An edited list is indexed afresh: its own entry, and the fill sees the edit.
    used = json.loads(first.stdout)["words"][0]
    wordlist.write_text("".join(line for line in wordlist.read_text().splitlines(True) if not line.startswith(used)))
    edited = _xw("fill", grid, "--wordlist", wordlist, "--json", cache_home=home)
    assert edited.returncode == 0 and len(_entries(home)) == 2
    assert used not in json.loads(edited.stdout)["words"]


def test_no_cache_writes_nothing_and_cache_dir_still_chooses_the_folder(tmp_path, small):
    grid, wordlist = small
    home = tmp_path / "home-cache"
    r = _xw("fill", grid, "--wordlist", wordlist, "--no-cache", cache_home=home)
    assert r.returncode == 0, r.stderr
    assert not home.exists()
    r = _xw("fill", grid, "--wordlist", wordlist, "--cache", tmp_path / "mine", cache_home=home)
    assert r.returncode == 0 and not home.exists() and len(list((tmp_path / "mine").iterdir())) == 1
    r = _xw("fill", grid, "--wordlist", wordlist, "--cache", tmp_path / "mine", "--no-cache", cache_home=home)
    assert r.returncode == 2 and "not allowed with" in r.stderr


def test_a_damaged_entry_is_rebuilt_not_read(tmp_path):
    wordlist = tmp_path / "w.txt"
    wordlist.write_text(_scored_list())
    cache = tmp_path / "cache"
    built = load_index(wordlist, cache_dir=cache)
    (entry,) = cache.iterdir()
    whole = entry.read_bytes()
    middle = len(whole) // 2
    for damaged in (whole[:middle], whole[:-1], whole[:middle] + bytes([whole[middle] ^ 4]) + whole[middle + 1 :],
                    b"", b"\0" * len(whole), whole + b"\n"):  # fmt: skip
        entry.write_bytes(damaged)
        again = load_index(wordlist, cache_dir=cache)
        assert again[5].words == built[5].words and again[5].scores == built[5].scores
        assert entry.read_bytes() == whole, "the damaged entry is replaced by a whole one"
    assert [p.name for p in cache.iterdir()] == [entry.name], "no temporary left behind"


def test_an_unwritable_cache_folder_does_not_stop_the_fill(tmp_path, small):
    grid, wordlist = small
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder\n")  # no folder can be made under it, even by root
    r = _xw("fill", grid, "--wordlist", wordlist, cache_home=blocked)
    assert r.returncode == 0, r.stderr
    assert parse_grid(r.stdout).is_complete()
    notes = [line for line in r.stderr.splitlines() if "cache" in line]
    assert len(notes) == 1 and "not written" in notes[0], r.stderr
    said = []
    index = load_index(wordlist, cache_dir=blocked / "index", progress=said.append)
    assert len(said) == 1 and index[5].words == load_index(wordlist)[5].words


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_same_fill_cached_or_not(tmp_path, seed):
    wordfreq = pytest.importorskip("wordfreq")
    rnd = random.Random(seed)
    words = {}
    for w in wordfreq.top_n_list("en", 60000):
        if w.isascii() and w.isalpha() and 3 <= len(w) <= 7:
            words[w.upper()] = rnd.choice([20, 45.5, 50, 70, 90.25])
    wordlist = tmp_path / "w.txt"
    # Some bare words (score 50, an int) and small letters: read_wordlist's road, not the quick one.
    lines = [(w.lower() if k % 50 == 0 else w) + ("" if k % 7 == 0 else f";{s}")
             for k, (w, s) in enumerate(words.items())]  # fmt: skip
    wordlist.write_text("\n".join(lines) + "\n")
    grid = parse_grid((BENCH_GRIDS / "mini7x7.txt").read_text())
    fresh = load_index(wordlist)
    built = load_index(wordlist, cache_dir=tmp_path / "cache")
    loaded = load_index(wordlist, cache_dir=tmp_path / "cache")
    results = []
    for index in (fresh, built, loaded):
        a = fill_graded(grid, index, seed=seed, max_nodes=20000, timeout=60)
        b = Filler(grid, index, seed=seed, exclude=list(words)[:500:3]).fill(timeout=60, max_nodes=20000)
        results.append([(r.status, r.words, r.nodes, r.score, r.min_entry_score, r.extra) for r in (a, b)])
    assert results[0] == results[1] == results[2]
    assert results[0][0][0] == "filled"
    for n in fresh.lengths:
        assert fresh[n].words == loaded[n].words and fresh[n].scores == loaded[n].scores
        assert [type(s) for s in fresh[n].scores] == [type(s) for s in loaded[n].scores]
        probe = fresh[n].words[::37] + ["Q" * n, "é" * n, fresh[n].words[0].lower()]
        assert [loaded[n].find(w) for w in probe] == [fresh[n].position.get(w) for w in probe]
    assert [w in loaded for w in ("CAT", "QQQ", "CATS")] == [w in fresh for w in ("CAT", "QQQ", "CATS")]


def test_xw_fill_prints_the_same_cached_or_not(tmp_path, small):
    grid, wordlist = small
    outputs = []
    for extra in (["--no-cache"], [], []):
        r = _xw("fill", grid, "--wordlist", wordlist, "--json", "--seed", "3", *extra, cache_home=tmp_path / "c")
        assert r.returncode == 0, r.stderr
        out = json.loads(r.stdout)
        outputs.append({k: v for k, v in out.items() if k not in ("seconds", "load_seconds")})
    assert outputs[0] == outputs[1] == outputs[2]


@pytest.mark.parametrize(
    "text",
    [
        "CAT;60\nCOT;50.5\nDOG;040\nOX;70\n",
        "CAT;60\nCOT;50\nDOG;40",  # no newline at the end
        "CAT;60\ncot;50\n",
        "CAT\nCOT;50\n",
        "# a comment\nCAT;60\n",
        "CAT;60\n\nCOT;50\n",
        "CAT;60\r\nCOT;50\r\n",
        "CRÈME;60\n",
        "ICE CREAM;60\n",
        "CAT;60\nCAT;50\n",
        "CAT;101\n",
        "CAT;1e2\n",
        "CAT;5.\n",
        "1CAT;60\n",
        "CAT;60;70\nDOG\n",
        "",
    ],
)
def test_the_quick_reader_reads_as_the_line_reader_or_leaves_it_to_it(tmp_path, text):
    path = tmp_path / "w.txt"
    path.write_bytes(text.encode())
    try:
        expected = _read_lines(path, text, 3, 25)
    except InputError as e:
        expected = e
    quick = _read_plain(text, 3, 25)
    if isinstance(expected, InputError):
        assert quick is None
        with pytest.raises(InputError, match=re.escape(str(expected))):
            load_index(path, min_length=3, cache_dir=tmp_path / "cache")
    else:
        assert quick is None or (quick == expected and list(quick) == list(expected))
        index = load_index(path, min_length=3, cache_dir=tmp_path / "cache")
        assert {w: index.score(w) for w in expected} == expected


def test_a_cache_folder_keeps_the_entries_written_last(tmp_path):
    cache = tmp_path / "cache"
    for k in range(11):
        path = tmp_path / f"w{k}.txt"
        path.write_text(f"CAT;{k}\n")
        load_index(path, cache_dir=cache)
        entry = max(cache.iterdir(), key=lambda p: p.stat().st_mtime_ns)
        os.utime(entry, ns=(k * 10**9, k * 10**9))  # in order, whatever the clock's grain
    assert len(list(cache.iterdir())) == 8


def test_the_default_cache_folder_follows_xdg_cache_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert default_cache_dir() == tmp_path / "xwbook" / "index"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_cache_dir() == tmp_path / "home" / ".cache" / "xwbook" / "index"


def test_xw_fill_loads_neither_networkx_nor_the_renderers():
    code = (
        "import sys; from pipeline.cli import build_parser; build_parser(); import pipeline.fill.quality; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('networkx', 'reportlab', 'jinja2') "
        "or m in ('pipeline.model.rules', 'pipeline.render.book')))"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0 and r.stdout.strip() == "[]", r.stdout + r.stderr


def test_the_parsers_names_are_the_definitions():
    from pipeline.model.rules import STYLES
    from pipeline.render.book import LAYOUTS, TRIM_ALIASES, TRIMS

    assert set(choices.STYLE_NAMES) == set(STYLES)
    assert list(choices.TRIM_NAMES) == list(TRIMS) and list(choices.TRIM_ALIAS_NAMES) == list(TRIM_ALIASES)
    assert choices.LAYOUTS == LAYOUTS


def test_an_index_pickles_whether_built_or_loaded(tmp_path):
    import pickle

    wordlist = tmp_path / "w.txt"
    wordlist.write_text(_scored_list())
    for index in (load_index(wordlist), load_index(wordlist, cache_dir=tmp_path / "c"),
                  load_index(wordlist, cache_dir=tmp_path / "c")):  # fmt: skip
        copy = pickle.loads(pickle.dumps(index))
        assert copy[5].words == index[5].words and copy[5].scores == index[5].scores
        assert isinstance(copy, WordIndex) and copy.score(copy[5].words[3]) == index[5].scores[3]
