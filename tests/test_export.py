"""Stage 7 exports: Across Lite ``.puz`` files and NYT-submission PDFs, and ``xw export``.

The ``.puz`` files are read back with puzpy and their checksums recomputed
here from the format's description, independently of puzpy; the PDFs are
read with poppler and pypdf.
"""

from __future__ import annotations

import json
import struct
import subprocess

import puz
import pytest

from pipeline.cli import main
from pipeline.model.grid import Grid
from pipeline.model.puzzle import Puzzle, read_ipuz, write_ipuz
from pipeline.render import RenderError
from pipeline.render import puzfile
from pipeline.render.nyt import CLUE_SIZE, render_submission
from pipeline.render.pdf import _clean
from pipeline.render.puzfile import puz_bytes, verify_puz, write_puz
from renderkit import NASTY, PATTERN_5, PATTERN_15, _norm, _pdffonts, _pdftotext, _puzzle, needs_poppler

CAFE = "Zoë’s café — 東京"


def _across_lite_order(puzzle: Puzzle) -> list[tuple[int, str]]:
    """``(number, direction)`` as Across Lite lists clues: by number, across first."""
    keys = [(s.number, s.direction) for s in puzzle.grid.slots()]
    return sorted(keys, key=lambda k: (k[0], 0 if k[1] == "across" else 1))


def _ipuz_puzzle(tmp_path, name: str, puzzle: Puzzle) -> Puzzle:
    """``puzzle`` written as ``.ipuz`` and read back, as the clue stage hands it on."""
    path = tmp_path / name
    write_ipuz(path, puzzle)
    return read_ipuz(path)


# -- the checksums, from the format's description (not puzpy's code) -----------------
def _cksum(data: bytes, c: int = 0) -> int:
    for b in data:
        c = (c >> 1) | ((c & 1) << 15)
        c = (c + b) & 0xFFFF
    return c


def _parse(data: bytes):
    """Header checksums, grids and strings of a ``.puz``, cut out by offset."""
    w, h, n = data[0x2C], data[0x2D], struct.unpack_from("<H", data, 0x2E)[0]
    solution = data[0x34 : 0x34 + w * h]
    fill = data[0x34 + w * h : 0x34 + 2 * w * h]
    strings = data[0x34 + 2 * w * h :].split(b"\0")
    title, author, copyright_ = strings[:3]
    clues, notes, rest = strings[3 : 3 + n], strings[3 + n], strings[4 + n :]
    return {
        "global": struct.unpack_from("<H", data, 0)[0],
        "cib": struct.unpack_from("<H", data, 0x0E)[0],
        "low": data[0x10:0x14],
        "high": data[0x14:0x18],
        "cib_region": data[0x2C:0x34],
        "solution": solution,
        "fill": fill,
        "title": title,
        "author": author,
        "copyright": copyright_,
        "clues": clues,
        "notes": notes,
        "rest": rest,
    }


def _expected_checksums(f) -> tuple[int, int, bytes, bytes]:
    def text(c: int) -> int:
        for s in (f["title"], f["author"], f["copyright"]):
            if s:
                c = _cksum(s + b"\0", c)
        for clue in f["clues"]:
            c = _cksum(clue, c)
        if f["notes"]:
            c = _cksum(f["notes"] + b"\0", c)
        return c

    cib = _cksum(f["cib_region"])
    glob = text(_cksum(f["fill"], _cksum(f["solution"], cib)))
    parts = [cib, _cksum(f["solution"]), _cksum(f["fill"]), text(0)]
    low = bytes(m ^ (c & 0xFF) for m, c in zip(b"ICHE", parts))
    high = bytes(m ^ (c >> 8) for m, c in zip(b"ATED", parts))
    return glob, cib, low, high


# -- .puz ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def puz15(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("puz")
    source = _puzzle(PATTERN_15, 2, "Rivers & Mountains")
    source.copyright = "(c) 2025 A. Setter"
    puzzle = _ipuz_puzzle(tmp, "p2.ipuz", source)
    out = tmp / "p2.puz"
    warnings = write_puz(puzzle, out, source="p2.ipuz")
    return puzzle, out, warnings


def test_puz_reads_back_with_puzpy(puz15):
    puzzle, out, warnings = puz15
    assert warnings == []
    p = puz.read(str(out))  # puz.load checks the global, CIB and masked checksums
    g = puzzle.grid
    assert (p.width, p.height) == (g.cols, g.rows) == (15, 15)
    assert p.solution == "".join(ch.replace("#", ".") for ch in g.cells)
    assert p.fill == "".join("." if ch == "#" else "-" for ch in g.cells)
    assert (p.title, p.author, p.copyright, p.notes) == ("Rivers & Mountains", "A. Setter", "(c) 2025 A. Setter", "")
    assert p.clues == [puzzle.clues[(d, n)] for n, d in _across_lite_order(puzzle)]
    numbering = p.clue_numbering()
    for entry in numbering.across + numbering.down:
        slot = next(s for s in g.slots() if (s.number, s.direction) == (entry["num"], entry["dir"]))
        assert entry["clue"] == puzzle.clues[(slot.direction, slot.number)]
        assert p.solution_grid().get_string_for_clue(entry) == g.word(slot)
    assert len(numbering.across) + len(numbering.down) == len(g.slots())


def test_puz_clue_order_across_before_down_at_a_number(puz15):
    puzzle, out, _ = puz15
    order = _across_lite_order(puzzle)
    shared = [n for n, d in order if d == "down" and (n, "across") in order]
    assert shared, "the grid has a number starting both an across and a down entry"
    clues = puz.read(str(out)).clues
    for n in shared:
        assert clues.index(puzzle.clues[("across", n)]) + 1 == clues.index(puzzle.clues[("down", n)])


def test_puz_checksums_match_the_format_description(puz15):
    puzzle, out, _ = puz15
    data = out.read_bytes()
    f = _parse(data)
    assert data[2:14] == b"ACROSS&DOWN\0" and data[0x18:0x1C] == b"1.3\0"
    assert f["rest"] == [b""], "nothing after the notes"
    glob, cib, low, high = _expected_checksums(f)
    assert (f["global"], f["cib"], f["low"], f["high"]) == (glob, cib, low, high)
    assert [c.decode("latin-1") for c in f["clues"]] == [puzzle.clues[(d, n)] for n, d in _across_lite_order(puzzle)]


def test_puz_bytes_are_deterministic(puz15, tmp_path):
    puzzle, out, _ = puz15
    again = tmp_path / "again.puz"
    write_puz(puzzle, again)
    assert again.read_bytes() == out.read_bytes() == puz_bytes(puzzle)


def test_ipuz_round_trips_through_the_ipuz_package(tmp_path):
    import ipuz

    source = _puzzle(PATTERN_5, 1, "Warm-up")
    path = tmp_path / "p1.ipuz"
    write_ipuz(path, source)
    data = ipuz.read(path.read_text(encoding="utf-8"))  # raises IPUZException if the file is not valid ipuz
    g = source.grid
    assert ["".join(row) for row in data["solution"]] == g.row_strings()
    assert {(n, t) for n, t in data["clues"]["Across"]} == {(s.number, c) for s, _, c in source.entries("across")}
    assert {(n, t) for n, t in data["clues"]["Down"]} == {(s.number, c) for s, _, c in source.entries("down")}
    # ...and what the ipuz package writes back is the same puzzle, down to the .puz bytes.
    path2 = tmp_path / "p1-again.ipuz"
    path2.write_text(ipuz.write(data), encoding="utf-8")
    back = read_ipuz(path2)
    assert back.grid == g and back.clues == source.clues and back.title == "Warm-up"
    assert puz_bytes(back) == puz_bytes(source)


def test_non_latin1_text_is_folded_with_a_warning_per_string(tmp_path):
    source = _puzzle(PATTERN_15, 3, "Sūdoku’s Cousin", NASTY)
    puzzle = _ipuz_puzzle(tmp_path, "p3.ipuz", source)
    out = tmp_path / "p3.puz"
    warnings = write_puz(puzzle, out, source="puzzle 3")
    slot = [s for s in puzzle.grid.slots()][NASTY.index(CAFE)]
    label = f"{slot.number}-{slot.direction.title()}"
    assert warnings == [
        "puzzle 3, title: \"Sūdoku’s Cousin\" printed as \"Sudoku's Cousin\"",
        f"puzzle 3, {label}: \"{CAFE}\" printed as \"Zoë's café -- ??\"",
    ]
    p = puz.read(str(out))
    assert p.title == "Sudoku's Cousin"
    assert puzzle.clues[(slot.direction, slot.number)] == CAFE
    assert "Zoë's café -- ??" in p.clues  # Latin-1 letters are kept
    assert r"Ten specials \ { } $ & # ^ _ % ~ in a row" in p.clues  # ASCII untouched, no warning


@pytest.mark.parametrize("cell, shown", [("AB", "'AB'"), ("Ö", "'Ö'"), (".", "'.'"), ("3", "'3'")])
def test_non_letter_square_is_an_error_naming_the_cell(tmp_path, cell, shown):
    g = Grid.from_rows(["CAT", "ARE", "TEN"])
    g.cells[4] = cell  # row 2, column 2
    puzzle = Puzzle(g, {(s.direction, s.number): "Clue" for s in g.slots()})
    out = tmp_path / "bad.puz"
    with pytest.raises(RenderError) as e:
        write_puz(puzzle, out, source="bad.ipuz")
    msg = str(e.value)
    assert msg.startswith("bad.ipuz: cell row 2 column 2 (in 4-Across and 2-Down) holds " + shown), msg
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_unclued_entry_is_an_error_naming_the_clue(tmp_path):
    g = Grid.from_rows(["CAT", "ARE", "TEN"])
    puzzle = Puzzle(g, {(s.direction, s.number): "Clue" for s in g.slots()})
    puzzle.clues[("down", 3)] = "  "
    with pytest.raises(RenderError, match=r"^x\.ipuz: 3-Down \(TEN\) has no clue$"):
        write_puz(puzzle, tmp_path / "x.puz", source="x.ipuz")
    assert list(tmp_path.iterdir()) == []


def test_puzpy_itself_rejects_a_bad_checksum(puz15):
    _, out, _ = puz15
    data = bytearray(out.read_bytes())
    for offset, name in ((0x00, "global"), (0x0E, "header"), (0x10, "magic"), (0x17, "magic")):
        bad = bytearray(data)
        bad[offset] ^= 0x01
        with pytest.raises(puz.PuzzleFormatError) as e:
            puz.load(bytes(bad))
        assert e.value.message == f"{name} checksum does not match"


def test_verifier_detects_every_corrupted_byte(tmp_path):
    puzzle = _ipuz_puzzle(tmp_path, "p1.ipuz", _puzzle(PATTERN_5, 1, "Warm-up", [CAFE]))
    data = puz_bytes(puzzle)
    verify_puz(data, puzzle)
    for i in range(len(data)):
        bad = bytearray(data)
        bad[i] ^= 0x20
        with pytest.raises(RenderError, match="the .puz"):
            verify_puz(bytes(bad), puzzle)
    for bad in (data[:-1], data[: len(data) // 2], data + b"\r\n"):
        with pytest.raises(RenderError):
            verify_puz(bad, puzzle)


def test_verifier_compares_with_the_puzzle_not_only_the_checksums(tmp_path):
    puzzle = _puzzle(PATTERN_5, 1, "Warm-up")
    other = _puzzle(PATTERN_5, 1, "Warm-up")
    key = ("down", 2)
    other.clues[key] = other.clues[key] + "!"
    with pytest.raises(RenderError, match="2-Down clue"):
        verify_puz(puz_bytes(other), puzzle, "p.ipuz")  # a valid file, but not of this puzzle


def test_a_file_that_does_not_read_back_is_removed(tmp_path, monkeypatch):
    puzzle = _puzzle(PATTERN_5, 1, "Warm-up")
    out = tmp_path / "p.puz"

    def flaky_disk(path, data):
        path.write_bytes(data[:100] + bytes([data[100] ^ 1]) + data[101:])

    monkeypatch.setattr(puzfile, "write_bytes", flaky_disk)
    with pytest.raises(RenderError, match="checksum"):
        write_puz(puzzle, out)
    assert not out.exists()


# -- the NYT submission PDF ---------------------------------------------------------
@pytest.fixture(scope="module")
def nyt(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("nyt")
    source = _puzzle(PATTERN_15, 3, "Salt & Pepper", NASTY)
    source.clues[("down", 1)] = "A clue long enough to need a second line and then a third one " * 2
    puzzle = _ipuz_puzzle(tmp, "p3.ipuz", source)
    out = tmp / "p3-nyt.pdf"
    stats = render_submission(
        puzzle, out, constructor="Ann Setter", contact="12 Main St, Springfield\nann@example.org", source="p3.ipuz"
    )
    return puzzle, out, stats


def _page_texts(path) -> list[str]:
    from pypdf import PdfReader

    return [page.extract_text() for page in PdfReader(path).pages]


def _baselines(path, page_index: int) -> list[tuple[float, float, str]]:
    """``(y, size, text)`` of every string drawn on a page, from the PDF's text matrices."""
    from pypdf import PdfReader

    out = []

    def visit(text, cm, tm, font, size):
        if text.strip():
            out.append((round(tm[5], 3), size, text.strip()))

    PdfReader(path).pages[page_index].extract_text(visitor_text=visit)
    return out


def test_nyt_stats_and_warnings(nyt):
    from pypdf import PdfReader

    puzzle, out, stats = nyt
    assert stats["pages"] == len(PdfReader(out).pages) == stats["grid_pages"] + stats["clue_pages"]
    assert stats["grid_pages"] == 1 and stats["clue_pages"] >= 2
    assert len(stats["warnings"]) == 1 and stats["warnings"][0].startswith("p3.ipuz, ")
    assert '"Zoë’s café — ??"' in stats["warnings"][0]


@needs_poppler
def test_nyt_has_every_clue_and_answer_after_the_grid_page(nyt):
    puzzle, out, stats = nyt
    clue_text = _norm(_pdftotext(out, raw=True).split("\f", 1)[1])  # pages 2 on
    words = set(clue_text.split())
    for direction in ("across", "down"):
        for slot, answer, clue in puzzle.entries(direction):
            assert _norm(_clean(clue)) in clue_text, clue
            assert answer in words, (slot.label, answer)
    assert clue_text.index("ACROSS") < clue_text.index("DOWN")


@needs_poppler
def test_nyt_page_one_is_the_grids(nyt):
    puzzle, out, _ = nyt
    page1 = subprocess.run(["pdftotext", "-l", "1", str(out), "-"], capture_output=True, text=True, check=True).stdout
    numbers = sorted(set(puzzle.grid.numbers().values()))
    tokens = page1.split()
    for n in numbers:
        assert tokens.count(str(n)) >= 2, n  # once in the filled grid, once in the blank one
    letters = [t for t in tokens if t.isalpha() and t.isupper() and len(t) == 1]
    assert len(letters) >= sum(ch != "#" for ch in puzzle.grid.cells) - 5  # the answer letters
    assert "solution" in page1 and "grid" in page1
    assert "ACROSS" not in page1 and "Unbalanced" not in page1


@needs_poppler
def test_nyt_fonts_are_all_embedded(nyt):
    _, out, _ = nyt
    fonts = _pdffonts(out)
    assert fonts and all(emb == "yes" for _, emb in fonts), fonts
    assert all("Vera" in name for name, _ in fonts), fonts


def test_nyt_clue_lines_are_double_spaced(nyt):
    puzzle, out, stats = nyt
    lines = 0
    for k in range(stats["grid_pages"], stats["pages"]):
        clue_lines = sorted({y for y, size, _ in _baselines(out, k) if size == CLUE_SIZE}, reverse=True)
        gaps = [a - b for a, b in zip(clue_lines, clue_lines[1:])]
        double = 2 * 1.2 * CLUE_SIZE  # twice the single-spaced leading
        assert gaps and min(gaps) == pytest.approx(double, abs=0.01)
        for gap in gaps:  # a blank line between Across and Down keeps to the same grid
            assert gap / double == pytest.approx(round(gap / double), abs=0.001)
        lines += len(clue_lines)
    assert lines >= len(puzzle.grid.slots()) + 2 + 2  # every clue, two headings, the wrapped 1-Down


@needs_poppler
def test_nyt_answers_right_aligned_in_their_own_column(nyt):
    import re

    puzzle, out, stats = nyt
    bbox = subprocess.run(["pdftotext", "-bbox", "-f", "2", str(out), "-"], capture_output=True, text=True, check=True).stdout
    words = re.findall(r'<word xMin="([\d.]+)" yMin="[\d.]+" xMax="([\d.]+)" yMax="[\d.]+">([^<]*)</word>', bbox)
    answers = {a for _, a, _ in puzzle.entries("across") + puzzle.entries("down")}
    right = [float(x1) for x0, x1, w in words if w in answers]
    assert len(right) >= len(answers)
    assert max(right) - min(right) < 0.01 and max(right) == pytest.approx(612 - 54, abs=0.5)
    clue_right = [float(x1) for x0, x1, w in words if w not in answers and float(x0) < 300]
    longest = max(len(a) for a in answers)
    assert max(clue_right) < min(float(x0) for x0, x1, w in words if w in answers and len(w) == longest)


def test_nyt_head_on_every_page(nyt):
    _, out, stats = nyt
    texts = _page_texts(out)
    for n, text in enumerate(texts, start=1):
        assert "Ann Setter" in text and "ann@example.org" in text and "12 Main St" in text
        assert f"{n} of {len(texts)}" in text


def test_nyt_bytes_are_deterministic_and_letter_size(nyt, tmp_path):
    from pypdf import PdfReader

    puzzle, out, _ = nyt
    again = tmp_path / "again.pdf"
    render_submission(puzzle, again, constructor="Ann Setter", contact="12 Main St, Springfield\nann@example.org", source="p3.ipuz")
    assert again.read_bytes() == out.read_bytes()
    box = PdfReader(out).pages[0].mediabox
    assert (float(box.width), float(box.height)) == (612, 792)


def test_nyt_big_grid_gets_a_page_per_grid(tmp_path):
    g = Grid.from_rows(["".join("ABCDE"[(r + c) % 5] for c in range(21)) for r in range(21)])
    puzzle = Puzzle(g, {(s.direction, s.number): f"Clue {s.label}" for s in g.slots()}, author="B. Maker")
    stats = render_submission(puzzle, tmp_path / "big.pdf")
    assert stats["grid_pages"] == 2
    texts = _page_texts(tmp_path / "big.pdf")
    assert "B. Maker" in texts[0]  # the author stands in for a missing constructor
    assert "Clue 1A" not in texts[0] + texts[1] and "Clue 1A" in texts[2]


def test_nyt_refuses_an_unclued_puzzle(tmp_path):
    g = Grid.from_rows(["CAT", "ARE", "TEN"])
    puzzle = Puzzle(g, {(s.direction, s.number): "Clue" for s in g.slots()})
    puzzle.clues[("across", 4)] = ""
    with pytest.raises(RenderError, match=r"^p\.ipuz: 4-Across \(ARE\) has no clue$"):
        render_submission(puzzle, tmp_path / "x.pdf", source="p.ipuz")
    assert list(tmp_path.iterdir()) == []


# -- xw export ----------------------------------------------------------------------
def _run(capsys, *argv):
    code = main(["-q", *map(str, argv)])
    cap = capsys.readouterr()
    return code, cap.out, cap.err


@pytest.fixture
def two_ipuz(tmp_path):
    a = tmp_path / "in" / "p1.ipuz"
    b = tmp_path / "in" / "p2.ipuz"
    a.parent.mkdir()
    write_ipuz(a, _puzzle(PATTERN_5, 1, "Warm-up", [CAFE]))
    write_ipuz(b, _puzzle(PATTERN_15, 2, "Rivers"))
    return a, b


def test_cli_export_end_to_end(tmp_path, capsys, two_ipuz):
    a, b = two_ipuz
    out = tmp_path / "out"
    code, stdout, stderr = _run(
        capsys, "export", a, b, "--puz", out / "1.puz", out / "2.puz", "--nyt", out / "1.pdf", out / "2.pdf",
        "--constructor", "Ann Setter", "--contact", r"ann@example.org\n555-0100",
    )  # fmt: skip
    assert code == 0, stderr
    assert json.loads(stdout.strip().splitlines()[-1]) == {"puzzles": 2, "puz_written": 2, "nyt_written": 2, "warnings": 2}
    warnings = stderr.strip().splitlines()
    assert len(warnings) == 2 and all(w.startswith(f"xw export: warning: {a}, 1-Across: ") for w in warnings)
    assert warnings[0].endswith(f"(in {out / '1.puz'})") and warnings[1].endswith(f"(in {out / '1.pdf'})")
    assert puz.read(str(out / "1.puz")).clues[0] == "Zoë's café -- ??"
    assert puz.read(str(out / "2.puz")).title == "Rivers"
    head = _page_texts(out / "2.pdf")[0]
    assert "Ann Setter" in head and "ann@example.org\n555-0100" in head
    assert sorted(p.name for p in out.iterdir()) == ["1.pdf", "1.puz", "2.pdf", "2.puz"]


def test_cli_export_puz_only(tmp_path, capsys, two_ipuz):
    a, _ = two_ipuz
    code, stdout, _ = _run(capsys, "export", a, "--puz", tmp_path / "1.puz")
    assert code == 0 and json.loads(stdout)["nyt_written"] == 0
    puz.read(str(tmp_path / "1.puz"))


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--puz", "1.puz"], "2 puzzles but 1 --puz paths"),
        (["--puz", "1.puz", "2.puz", "--nyt", "1.pdf"], "2 puzzles but 1 --nyt paths"),
        (["--puz", "1.puz", "1.puz"], "every --puz and --nyt path must be different"),
    ],
)
def test_cli_export_count_mismatch_exits_2_and_writes_nothing(tmp_path, capsys, two_ipuz, extra, message):
    a, b = two_ipuz
    out = tmp_path / "out"
    argv = [str(out / x) if x.endswith((".puz", ".pdf")) else x for x in extra]
    code, stdout, stderr = _run(capsys, "export", a, b, *argv)
    assert code == 2 and stdout == ""
    assert stderr.startswith("xw export: error: " + message) and stderr.count("\n") == 1, stderr
    assert "Traceback" not in stderr
    assert not out.exists()


def test_cli_export_bad_puzzle_leaves_no_partial_output(tmp_path, capsys, two_ipuz):
    a, _ = two_ipuz
    bad = _puzzle(PATTERN_5, 4, "Unclued")
    bad.clues[("down", 2)] = ""
    b = tmp_path / "in" / "bad.ipuz"
    write_ipuz(b, bad)
    out = tmp_path / "out"
    code, stdout, stderr = _run(
        capsys, "export", a, b, "--puz", out / "1.puz", out / "2.puz", "--nyt", out / "1.pdf", out / "2.pdf"
    )
    assert code == 2 and stdout == ""
    answer = next(bad.grid.word(s) for s in bad.grid.slots() if s.label == "2D")
    assert stderr == f"xw export: error: {b}: 2-Down ({answer}) has no clue\n"
    assert list(out.iterdir()) == []  # 1.puz was written first, and removed


def test_cli_export_unreadable_input(tmp_path, capsys):
    bad = tmp_path / "bad.ipuz"
    bad.write_text("{not json")
    code, _, stderr = _run(capsys, "export", bad, "--puz", tmp_path / "x.puz")
    assert code == 2 and stderr.startswith(f"xw export: error: {bad}:1: not JSON")
    assert not (tmp_path / "x.puz").exists()

