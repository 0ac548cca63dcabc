"""Bring your own clues and words: ``xw clues shard``, ``xw clues check``, ``xw wordlist merge``.

Every clue here is made up for the test; none is published clue data.
"""

from __future__ import annotations

import functools
import json

import pytest

from pipeline import cluedb
from pipeline.cli import main
from pipeline.cluedb import build_shards, refers_elsewhere
from pipeline.model.cluefile import clue_format, read_clue_file, read_clues_for, read_shard
from pipeline.model.errors import InputError
from pipeline.model.wordlist import read_wordlist


def _run(capsys, *argv):
    """``xw -q ARGV``: exit code, the JSON summary (last stdout line), stdout lines before it, stderr."""
    code = main(["-q", *map(str, argv)])
    cap = capsys.readouterr()
    lines = cap.out.splitlines()
    summary = json.loads(lines[-1]) if lines and lines[-1].startswith("{") else None
    return code, summary, lines[:-1] if summary is not None else lines, cap.err


def _folder(path):
    """``{file name: bytes}`` of a shard folder."""
    return {p.name: p.read_bytes() for p in sorted(path.iterdir())}


def _shards(path):
    """``{ANSWER: [clue, ...]}`` of every shard in a folder."""
    out = {}
    for p in sorted(path.glob("_*.txt")):
        out.update(read_shard(p))
    return out


# -- the three input forms ----------------------------------------------------


def test_pipe_file_answers_normalised_clues_cleaned(tmp_path, capsys):
    src = tmp_path / "mine.txt"
    src.write_text(
        "# my own clues\n"
        "\n"
        "ice cream|  Cone   filler \n"
        "Crème brûlée|Custard with a crackly top\n"
        "GLOB|Blob of paste|glue\n"  # only the first '|' separates
    )
    code, summary, _, _ = _run(capsys, "clues", "shard", src, "--out", tmp_path / "clues")
    assert code == 0
    assert (tmp_path / "clues" / "_ic.txt").read_text() == "ICECREAM|Cone filler\n"
    assert (tmp_path / "clues" / "_cr.txt").read_text() == "CREMEBRULEE|Custard with a crackly top\n"
    assert (tmp_path / "clues" / "_gl.txt").read_text() == "GLOB|Blob of paste|glue\n"
    assert summary["lines"] == 3 and summary["answers"] == 3 and summary["clues"] == 3
    assert read_clues_for(tmp_path / "clues", ["ICECREAM"]) == {"ICECREAM": ["Cone filler"]}


XD_ROWS = "made\t2001\tOTTER\tRiver swimmer\nmade\t2002\totter\tWhiskered paddler\n"


@pytest.mark.parametrize(
    "name, text",
    [
        ("clues.tsv", "pubid\tyear\tanswer\tclue\n" + XD_ROWS),  # the corpus's own form
        ("clues.tsv", XD_ROWS),  # header left off: the extension says xd
        ("export.txt", "pubid\tyear\tanswer\tclue\n" + XD_ROWS),  # any name: the header says xd
    ],
)
def test_xd_tsv_with_and_without_header(tmp_path, capsys, name, text):
    src = tmp_path / name
    src.write_text(text)
    assert clue_format(src) == "xd"
    code, summary, _, _ = _run(capsys, "clues", "shard", src, "--out", tmp_path / "clues")
    assert code == 0
    assert (tmp_path / "clues" / "_ot.txt").read_text() == "OTTER|River swimmer\nOTTER|Whiskered paddler\n"
    assert summary["lines"] == 2


def test_xd_reader_names_lines_and_keeps_tabs_in_clue(tmp_path):
    src = tmp_path / "clues.tsv"
    src.write_text("pubid\tyear\tanswer\tclue\n\nmade\t2001\tOTTER\tRiver\tswimmer\n")
    assert [(a, c, n) for a, c, _, n in read_clue_file(src)] == [("OTTER", "River\tswimmer", 3)]


def test_clu_file_in_windows_1252(tmp_path, capsys):
    src = tmp_path / "_CA.clu"
    # 0x92 is cp1252's right single quote, 0xC9 its E acute: not valid UTF-8.
    src.write_bytes(b"CAF\xc9|Bistro\r\nCAMEO|Actor\x92s brief bit\r\n")
    code, summary, _, _ = _run(capsys, "clues", "shard", src, "--out", tmp_path / "clues")
    assert code == 0
    assert (tmp_path / "clues" / "_ca.txt").read_text(encoding="utf-8") == (
        "CAFE|Bistro\nCAMEO|Actor\u2019s brief bit\n"
    )
    utf8 = tmp_path / "_OB.clu"
    utf8.write_text("OBOE|Reed in the orchestra \u2014 woodwind\n", encoding="utf-8")
    assert [c for _, c, _, _ in read_clue_file(utf8)] == ["Reed in the orchestra \u2014 woodwind"]


def test_format_option_overrides_detection(tmp_path, capsys):
    src = tmp_path / "odd.tsv"  # a pipe file with a misleading name
    src.write_text("OTTER|River swimmer\n")
    code, _, _, err = _run(capsys, "clues", "shard", src, "--out", tmp_path / "a")
    assert code == 2 and f"{src}:1: 1 tab-separated field(s)" in err
    code, _, _, _ = _run(capsys, "clues", "shard", "--format", "pipe", src, "--out", tmp_path / "b")
    assert code == 0 and (tmp_path / "b" / "_ot.txt").read_text() == "OTTER|River swimmer\n"


# -- hygiene ------------------------------------------------------------------


def test_leaks_blocked_words_cross_references_and_short_answers_dropped(tmp_path, capsys):
    src = tmp_path / "mine.txt"
    src.write_text(
        "OTTER|River swimmer\n"
        "OTTER|Otters' cousin\n"  # leaks
        "OTTER|See 17-Across\n"
        "OTTER|With 23-Down, a pair of swimmers\n"
        "OTTER|17-Across's partner\n"
        "OTTER|Theme of this puzzle\n"
        "OTTER|Animal in the starred clues\n"
        "OTTER|Damn good swimmer\n"  # the packaged blocklist has DAMN
        "OTTER|Starred in a nature film\n"  # "starred" alone is fine
        "OTTER|" + "x" * 301 + "\n"  # too long to print
        "OX|Yoked pair member\n"  # shorter than 3
        "DAMNED|Condemned\n"  # blocked answer
        "SWIMMER|Squawk\n"
    )
    blocks = tmp_path / "block.txt"
    blocks.write_text("# mine\nsquawk\n")
    code, summary, _, _ = _run(
        capsys, "clues", "shard", src, "--out", tmp_path / "clues", "--blocklist", "default", "--blocklist", blocks
    )
    assert code == 0
    assert _shards(tmp_path / "clues") == {"OTTER": ["River swimmer", "Starred in a nature film"]}
    assert summary["dropped"] == {
        "short_answer": 1, "not_in_wordlist": 0, "blocked_answer": 1, "unprintable": 1,
        "cross_reference": 5, "leak": 1, "blocked_clue": 2, "over_max_clues": 0,
    }  # fmt: skip
    d = summary["dropped"]
    assert summary["lines"] == 13 == sum(d.values()) + summary["merged"] + summary["clues"]


def test_no_blocklist_and_wordlist_filter(tmp_path, capsys):
    src = tmp_path / "mine.txt"
    src.write_text("OTTER|Damn good swimmer\nBEAVER|Dam builder\nHERON|Wader\n")
    words = tmp_path / "words.txt"
    words.write_text("OTTER;60\nBEAVER\n")
    code, summary, _, _ = _run(
        capsys, "clues", "shard", src, "--out", tmp_path / "clues", "--no-blocklist", "--wordlist", words
    )
    assert code == 0
    assert _shards(tmp_path / "clues") == {"OTTER": ["Damn good swimmer"], "BEAVER": ["Dam builder"]}
    assert summary["dropped"]["not_in_wordlist"] == 1


@pytest.mark.parametrize(
    "clue",
    ["See 17-Across", "With 23-Down", "17-Across\u2019s partner", "Theme of this puzzle", "...the starred clues",
     "A hint to the circled letters", "Like 5- and 9-Down"],  # fmt: skip
)
def test_refers_elsewhere(clue):
    assert refers_elsewhere(clue)


@pytest.mark.parametrize("clue", ["Starred in a play", "Down feather source", "Across the street", "Theme park ride"])
def test_stands_alone(clue):
    assert refers_elsewhere(clue) is None


def test_ranking_merging_and_max_clues(tmp_path, capsys):
    a = tmp_path / "a.txt"
    a.write_text(
        "OTTER|River swimmer\n"  # once, first seen
        "OTTER|Whiskered paddler\n"
        "OTTER|Kelp-bed napper\n"
        "OTTER|whiskered  PADDLER\n"  # same text as line 2
        "OTTER|Playful swimmer\n"
    )
    b = tmp_path / "b.tsv"
    b.write_text("made\t2001\tOTTER\tKelp-bed napper\nmade\t2002\tOTTER\tKelp-bed napper\n")
    code, summary, _, _ = _run(capsys, "clues", "shard", a, b, "--out", tmp_path / "all")
    assert code == 0
    # Kelp-bed napper 3 lines, Whiskered paddler 2 (first spelling kept), then ties in order of first appearance.
    assert _shards(tmp_path / "all")["OTTER"] == [
        "Kelp-bed napper", "Whiskered paddler", "River swimmer", "Playful swimmer",
    ]  # fmt: skip
    assert summary["merged"] == 3 and summary["clues"] == 4
    code, summary, _, _ = _run(capsys, "clues", "shard", a, b, "--out", tmp_path / "two", "--max-clues", "2")
    assert _shards(tmp_path / "two")["OTTER"] == ["Kelp-bed napper", "Whiskered paddler"]
    assert summary["dropped"]["over_max_clues"] == 2


def test_a_leaking_favourite_makes_room_for_the_next(tmp_path, capsys):
    src = tmp_path / "mine.txt"
    src.write_text("OTTER|Otter's kin\n" * 3 + "OTTER|River swimmer\nOTTER|Whiskered paddler\n")
    code, summary, _, _ = _run(capsys, "clues", "shard", src, "--out", tmp_path / "clues", "--max-clues", "1")
    assert _shards(tmp_path / "clues") == {"OTTER": ["River swimmer"]}
    assert summary["dropped"]["leak"] == 3 and summary["dropped"]["over_max_clues"] == 1


# -- output: deterministic, replaced whole, or added to ----------------------------


def _corpus(tmp_path):
    pipe = tmp_path / "mine.txt"
    pipe.write_text("".join(f"{w}|Made-up clue {i} for a word\n" for i, w in enumerate(
        ["ABACUS", "ABBEY", "OTTER", "OTTER", "BEAVER", "HERON", "ABACUS", "EGRET", "ZEBRA", "QUAIL"] * 20
    )))  # fmt: skip
    tsv = tmp_path / "clues.tsv"
    tsv.write_text("pubid\tyear\tanswer\tclue\n" + "".join(
        f"made\t{2000 + i}\t{w}\tInvented hint {i % 7}\n" for i, w in enumerate(["OTTER", "HERON", "WREN"] * 30)
    ))  # fmt: skip
    clu = tmp_path / "_WR.clu"
    clu.write_bytes(b"WREN|Tiny brown songbird\nWRENS|Tiny brown songbirds \x96 plural\n")
    return [pipe, tsv, clu]


def test_same_inputs_same_bytes(tmp_path, capsys, monkeypatch):
    inputs = _corpus(tmp_path)
    assert _run(capsys, "clues", "shard", *inputs, "--out", tmp_path / "one")[0] == 0
    assert _run(capsys, "clues", "shard", *inputs, "--out", tmp_path / "two")[0] == 0
    # A tiny spill buffer (many flushes to the per-shard files) gives the same bytes too.
    monkeypatch.setattr(cluedb, "_Spill", functools.partial(cluedb._Spill, limit=64))
    assert _run(capsys, "clues", "shard", *inputs, "--out", tmp_path / "three")[0] == 0
    one = _folder(tmp_path / "one")
    assert len(one) == 8 and one == _folder(tmp_path / "two") == _folder(tmp_path / "three")
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temporary folder left


def _existing(tmp_path, shards: dict[str, str], source: str):
    """A shard folder already holding ``shards`` (name: text), and a source file of ``source``."""
    out = tmp_path / "clues"
    out.mkdir()
    for name, text in shards.items():
        (out / name).write_text(text)
    src = tmp_path / "mine.txt"
    src.write_text(source)
    return out, src


def test_existing_folder_replaced(tmp_path, capsys):
    out, src = _existing(tmp_path, {"_zz.txt": "ZZZ|Snore sound\n"}, "OTTER|River swimmer\n")
    assert _run(capsys, "clues", "shard", src, "--out", out)[0] == 0
    assert _folder(out) == {"_ot.txt": b"OTTER|River swimmer\n"}


def test_add_keeps_existing_clues_first(tmp_path, capsys):
    out, src = _existing(
        tmp_path,
        {"_ot.txt": "OTTER|Kelp-bed napper\nOTTER|Whiskered paddler\n", "_zz.txt": "ZZZ|Snore sound\n"},
        "OTTER|River swimmer\nOTTER|whiskered paddler\nOTTER|Playful swimmer\nHERON|Wader\n",
    )
    code, summary, _, _ = _run(capsys, "clues", "shard", "--add", src, "--out", out, "--max-clues", "3")
    assert code == 0
    assert _shards(out) == {
        "OTTER": ["Kelp-bed napper", "Whiskered paddler", "River swimmer"],
        "ZZZ": ["Snore sound"],
        "HERON": ["Wader"],
    }
    assert summary["existing_clues"] == 3 and summary["merged"] == 1
    assert summary["dropped"]["over_max_clues"] == 1


def test_add_drops_an_existing_clue_that_gives_its_answer_away(tmp_path, capsys):
    """A folder built under an older give-away rule is held to today's: the rule covers every source."""
    out, src = _existing(tmp_path, {"_ti.txt": "TIE|Necktie\nTIE|Draw\n"}, "TIE|Knot a cravat\nTIE|Neck tie\n")
    code, summary, _, _ = _run(capsys, "clues", "shard", "--add", src, "--out", out)
    assert code == 0
    assert _shards(out) == {"TIE": ["Draw", "Knot a cravat"]}
    assert summary["dropped"]["leak"] == 2


def test_bad_line_names_file_and_line_and_leaves_old_folder(tmp_path, capsys):
    out = tmp_path / "clues"
    out.mkdir()
    (out / "_ot.txt").write_text("OTTER|River swimmer\n")
    before = _folder(out)
    good = tmp_path / "good.txt"
    good.write_text("HERON|Wader\n")
    cases = {
        "nobar.txt": ("HERON|Wader\nEGRET Wader too\n", "nobar.txt:2: no '|' between answer and clue"),
        "digits.txt": ("R2D2|Droid\n", "digits.txt:1: digit '2'"),
        "ctrl.txt": ("EGRET|Wad\x07er\n", "ctrl.txt:1: control character U+0007 in clue"),
        "short.tsv": ("made\t2001\tEGRET\nmade\t2001\tEGRET\tWader\n", "short.tsv:1: 3 tab-separated field(s)"),
    }
    for name, (text, message) in cases.items():
        src = tmp_path / name
        src.write_text(text)
        code, summary, _, err = _run(capsys, "clues", "shard", good, src, "--out", out)
        assert code == 2 and summary is None
        assert err.startswith("xw clues: error: ") and message in err and len(err.splitlines()) == 1
        assert _folder(out) == before
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


def test_bad_line_raises_input_error(tmp_path):
    src = tmp_path / "mine.txt"
    src.write_text("OTTER|River swimmer\nOTTER\n")
    with pytest.raises(InputError) as e:
        build_shards([src], tmp_path / "clues")
    assert (e.value.path, e.value.line) == (str(src), 2)
    assert not (tmp_path / "clues").exists()


def test_skip_bad_counts_and_reports(tmp_path, capsys):
    src = tmp_path / "mine.txt"
    src.write_text("OTTER|River swimmer\nOTTER\nR2D2|Droid\nHERON|Wa\x00der\nHERON|Wader\n")
    code, summary, _, err = _run(capsys, "clues", "shard", "--skip-bad", src, "--out", tmp_path / "c")
    assert code == 0
    assert summary["bad_lines"] == 3 and summary["lines"] == 2 and summary["clues"] == 2
    assert f"skipped {src}:2: no '|'" in err and f"{src}:4: control character U+0000" in err
    assert _shards(tmp_path / "c") == {"OTTER": ["River swimmer"], "HERON": ["Wader"]}


def test_undecodable_line_in_a_utf8_file(tmp_path, capsys):
    src = tmp_path / "mine.txt"  # pipe files are UTF-8: only .clu files fall back to Windows-1252
    src.write_bytes(b"OTTER|River swimmer\nCAF\xc9|Bistro\n")
    code, _, _, err = _run(capsys, "clues", "shard", src, "--out", tmp_path / "c")
    assert code == 2 and f"{src}:2: not valid utf-8" in err
    code, summary, _, _ = _run(capsys, "clues", "shard", "--skip-bad", src, "--out", tmp_path / "c")
    assert code == 0 and summary["bad_lines"] == 1 and _shards(tmp_path / "c") == {"OTTER": ["River swimmer"]}


def test_refuses_to_replace_a_folder_that_is_not_shards(tmp_path, capsys):
    out = tmp_path / "notes"
    out.mkdir()
    (out / "diary.txt").write_text("private\n")
    src = tmp_path / "mine.txt"
    src.write_text("OTTER|River swimmer\n")
    code, _, _, err = _run(capsys, "clues", "shard", src, "--out", out)
    assert code == 2 and "not clue shards (diary.txt)" in err
    assert (out / "diary.txt").read_text() == "private\n"


def test_progress_on_stderr(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(cluedb, "PROGRESS_EVERY", 2)
    src = tmp_path / "mine.txt"
    src.write_text("OTTER|River swimmer\nHERON|Wader\nEGRET|Wader too\n")
    assert main(["clues", "shard", str(src), "--out", str(tmp_path / "c")]) == 0
    err = capsys.readouterr().err
    assert f"xw: clues shard: 2 lines read ({src})" in err


# -- xw clues check ----------------------------------------------------------------


def test_check_finds_planted_leak(tmp_path, capsys):
    folder = tmp_path / "clues"
    folder.mkdir()
    (folder / "_ot.txt").write_text("OTTER|River swimmer\nOTTER|Sea otters' relative\n")
    (folder / "_he.txt").write_text("HERON|Wader\n")
    code, summary, lines, _ = _run(capsys, "clues", "check", folder)
    assert code == 1
    assert lines == [f"{folder / '_ot.txt'}:2: OTTER|Sea otters' relative (gives away OTTERS)"]
    assert summary == {"shards": 2, "lines": 3, "answers": 2, "leaks": 1}


def test_check_clean_folder_and_wordlist_coverage(tmp_path, capsys):
    src = tmp_path / "mine.txt"
    src.write_text("OTTER|River swimmer\nOTTER|Whiskered paddler\nHERON|Wader\n")
    folder = tmp_path / "clues"
    assert _run(capsys, "clues", "shard", src, "--out", folder)[0] == 0
    words = tmp_path / "words.txt"
    words.write_text("OTTER;60\nHERON\nEGRET\nWREN\nBEAVER;40\n")
    code, summary, lines, _ = _run(capsys, "clues", "check", folder, "--wordlist", words)
    assert code == 0 and lines == []
    assert summary == {
        "shards": 2, "lines": 3, "answers": 2, "leaks": 0, "wordlist_entries": 5, "unclued": 3,
        "unclued_by_length": {"4": 1, "5": 1, "6": 1}, "clued_share": 0.4,
    }  # fmt: skip


def test_check_malformed_and_misplaced_lines(tmp_path, capsys):
    folder = tmp_path / "clues"
    folder.mkdir()
    (folder / "_ot.txt").write_text("OTTER|River swimmer\nHERON|Wader\n")
    code, _, _, err = _run(capsys, "clues", "check", folder)
    assert code == 2 and "_ot.txt:2: HERON belongs in _he.txt" in err
    (folder / "_ot.txt").write_text("OTTER|River swimmer\nOTTER|\n")
    code, _, _, err = _run(capsys, "clues", "check", folder)
    assert code == 2 and "_ot.txt:2: empty clue" in err
    assert _run(capsys, "clues", "check", tmp_path / "nowhere")[0] == 2


# -- xw wordlist merge --------------------------------------------------------------


def _lists(tmp_path):
    base = tmp_path / "default.txt"
    base.write_text("OTTER;50\nHERON;70\nDAMNED;50\nEGRET\n")
    theme = tmp_path / "theme.txt"
    theme.write_text("# theme\nOTTER;90\nHERON;40\nsea lion;80\n")
    return base, theme


def test_merge_last_list_wins(tmp_path, capsys):
    base, theme = _lists(tmp_path)
    out = tmp_path / "merged.txt"
    code, summary, _, _ = _run(capsys, "wordlist", "merge", base, theme, "--out", out)
    assert code == 0
    assert out.read_text() == "EGRET;50\nHERON;40\nOTTER;90\nSEALION;80\n"
    assert summary == {"lists": 2, "read": 7, "entries": 4, "shared": 2, "rescored": 2, "blocked": 1}
    _run(capsys, "wordlist", "merge", theme, base, "--out", out, "--no-blocklist")
    assert read_wordlist(out) == {"DAMNED": 50, "EGRET": 50, "HERON": 70, "OTTER": 50, "SEALION": 80}


def test_merge_prefer_max(tmp_path, capsys):
    base, theme = _lists(tmp_path)
    out = tmp_path / "merged.txt"
    code, summary, _, _ = _run(capsys, "wordlist", "merge", base, theme, "--out", out, "--prefer", "max")
    assert code == 0
    assert read_wordlist(out) == {"EGRET": 50, "HERON": 70, "OTTER": 90, "SEALION": 80}


def test_merge_error_names_file_and_line(tmp_path, capsys):
    base, _ = _lists(tmp_path)
    bad = tmp_path / "bad.txt"
    bad.write_text("OTTER;60\nHERON;high\n")
    out = tmp_path / "merged.txt"
    code, _, _, err = _run(capsys, "wordlist", "merge", base, bad, "--out", out)
    assert code == 2 and f"{bad}:2: score 'high'" in err
    assert not out.exists()
