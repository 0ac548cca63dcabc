"""Stage 4 and ``xw hex``: the seed's hex form, byte for byte."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.encode import decode_lines, encode_lines, encode_patterns, merge_stats
from pipeline.model.errors import InputError
from pipeline.model.grid import Grid, parse_grid
from pipeline.model.hexcodec import bin2hex, decode_pattern, encode_grid, hex2bin

BENCH = Path(__file__).resolve().parent / "data" / "grids"  # copies of ../shared/bench/grids

# The seed's test_bin2hex.py (seeds/000), verbatim; it already runs on
# Python 3.  Executed in its own namespace so its names ``bin``, ``hex`` and
# ``map`` do not shadow the builtins here.
SEED_BIN2HEX = """
bin = ['0000','0001','0010','0011','0100','0101','0110','0111','1000','1001','1010','1011','1100','1101','1110','1111',
       '0','1','00','01','10','11','000','001','010','011','100','101','110','111']
hex = "0123456789ABCDEFghijklmnopqrst"
def bin2hex(binstr):
    map = dict(zip(bin,hex))
    ret = ''
    for i in range(0,len(binstr),4):
        sub = binstr[i:i+4]
        ret += map[sub]
    return ret

def hex2bin(hexstr):
    map = dict(zip(hex,bin))
    ret = ''
    for i in hexstr:
        ret += map[i]
    return ret
"""
_seed: dict = {}
exec(SEED_BIN2HEX, _seed)
seed_bin2hex, seed_hex2bin = _seed["bin2hex"], _seed["hex2bin"]

# The seed's two example patterns.
SEED_A = "3EF9C51EBFAFAAF8FE37577BFB9D5CEFEF75763F8FAAFAFEBC51CFBEg"
SEED_B = "BEFB4516BFAFAAF8FE27573BFBDD5DEFEE75723F8FAAFAFEB4516FBEh"
# SEED_A as the seed's pattern script printed it ('X' black, '.' white).
SEED_A_PRINTED = (
    "X X . . . . . X . . . . . X X. . . X X X . X . X X X . . .. X . X . . . . . . . X . X .. . . . X . X . X . X"
    " . . . .. X X X . . . . . . . X X X .. X . . . X . X . X . . . X .. . . X . . . . . . . X . . .X X . . . X ."
    " X . X . . . X X. . . X . . . . . . . X . . .. X . . . X . X . X . . . X .. X X X . . . . . . . X X X .. . ."
    " . X . X . X . X . . . .. X . X . . . . . . . X . X .. . . X X X . X . X X X . . .X X . . . . . X . . . . . X X"
)
# SEED_B as filled by the seed's fill script ('.' black, letters white).
SEED_B_FILLED = (
    "s.crumb.reman.bw.r...r.i...o.ra.a.phoebus.s.imown.e.l.r.gymsi...crimine...k..poo.n.n.veg..avo.infauna."
    "ilks.sun.l.t.dig.iphi.alanine.oft..tag.m.l.rat..i...eyeless...omots.e.o.p.watti.o.stopgap.m.td.r...a.e."
    "..i.ae.clack.lulls.r"
)


def test_seed_examples_decode_to_15x15_and_reencode_identically():
    for text in (SEED_A, SEED_B):
        g = decode_pattern(text)
        assert (g.rows, g.cols) == (15, 15)
        assert encode_grid(g) == text
        assert seed_bin2hex(g.to_bits()) == text
        assert g.to_bits() == seed_hex2bin(text)


def test_seed_examples_match_the_seeds_own_pictures():
    cells = SEED_A_PRINTED.replace(" ", "")
    assert len(cells) == 225
    assert decode_pattern(SEED_A).cells == ["#" if ch == "X" else "." for ch in cells]
    assert len(SEED_B_FILLED) == 225
    assert decode_pattern(SEED_B).cells == ["#" if ch == "." else "." for ch in SEED_B_FILLED]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="01", max_size=400))
def test_codec_equals_the_seeds_for_any_bit_string(bits):
    h = bin2hex(bits)
    assert h == seed_bin2hex(bits)
    assert hex2bin(h) == bits == seed_hex2bin(h)


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 25), st.integers(1, 25), st.data())
def test_grid_round_trip_any_size(rows, cols, data):
    bits = data.draw(st.text(alphabet="01", min_size=rows * cols, max_size=rows * cols))
    g = Grid.from_bits(bits, rows, cols)
    line = encode_grid(g)
    assert decode_pattern(line) == g
    if rows == cols:
        assert line == seed_bin2hex(bits)  # square: exactly the seed's string
    else:
        assert line == f"{rows}x{cols}:{seed_bin2hex(bits)}"
    assert encode_lines([bits if rows == cols else f"{rows}x{cols}:{bits}"]) == [line]
    assert encode_lines(decode_lines([line])) == [line]


@pytest.mark.parametrize(
    "lines, bad_line, message",
    [
        (["3EF9Z"], 1, "'Z' is not a hex digit"),
        ([SEED_A, "", "FgF"], 3, "ends a pattern but more follows"),
        ([SEED_A, SEED_B[:-1]], 2, "not a square grid"),
        (["FF"], 1, "not a square grid"),
        (["3x4:FFF", "3x3:FFF"], 2, "3x3 needs 9 bits"),
        (["axb:FF"], 1, "not ROWSxCOLS"),
    ],
)
def test_bad_hex_lines_name_the_line(lines, bad_line, message):
    with pytest.raises(InputError, match=message) as e:
        decode_lines(lines, path="in.hex")
    assert e.value.line == bad_line
    assert str(e.value).startswith(f"in.hex:{bad_line}: ")


def test_decode_lines_prints_grid_text():
    out = decode_lines([SEED_A + "\n", "\n", "5Dg\n"])
    assert len(out) == 15 + 1 + 3 and out[15] == ""
    assert parse_grid("\n".join(out[:15])) == decode_pattern(SEED_A)
    assert out[:3] == ["##.....#.....##", "...###.#.###...", ".#.#.......#.#."]
    assert out[16:] == ["#.#", "...", "#.#"]
    assert decode_lines([]) == []


def test_encode_lines_bits_and_grid_text():
    us78 = (BENCH / "us15x15_78w.txt").read_text()
    g78 = parse_grid(us78)
    lines = [
        g78.to_bits(),
        "",
        *us78.splitlines(),
        "",
        "",
        "#.#",
        "...",
        "#.#",
        "111 101 111",  # spaces between rows are allowed
        "2x3:101111",
    ]
    assert encode_lines(lines) == [encode_grid(g78), encode_grid(g78), "5Dg", "F7h", "2x3:Bl"]
    # Emogic's x/o templates and filled grids are read as patterns.
    assert encode_lines(["xoox", "oooo", "oooo", "xoox"]) == encode_lines(["#..#", "....", "....", "#..#"])
    assert encode_lines(["CAT", "A#A", "TAT"]) == encode_lines(["...", ".#.", "..."])
    assert encode_lines([]) == []


@pytest.mark.parametrize(
    "lines, bad_line, message",
    [
        (["...", "..", "..."], 2, "row has 2 cells"),
        (["", "", "...", ".%.", "..."], 4, "'%' is not a cell"),
        (["1111", "11111"], 2, "5 bits is not a square"),
        (["2x2:111"], 1, "2x2 needs 4 bits"),
    ],
)
def test_encode_lines_errors_name_the_line(lines, bad_line, message):
    with pytest.raises(InputError, match=message) as e:
        encode_lines(lines, path="typed")
    assert e.value.line == bad_line and e.value.path == "typed"


def test_encode_patterns_gathers_and_checks(tmp_path):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    rect = Grid.from_bits("1110111" * 3, 3, 7)
    a.write_text(f"{SEED_A}\n\n{SEED_B.lower()}\n")  # lower-case a-f is read, written canonical
    b.write_text(f"{SEED_A} 0.42\n{encode_grid(rect)}\n")  # duplicate, seed's "HEX ratio" form
    out = tmp_path / "final" / "patterns.hex"
    assert encode_patterns([a, b], out) == 3
    assert out.read_text() == f"{SEED_A}\n{SEED_B}\n{encode_grid(rect)}\n"
    # The seed's own decoder reads our square lines back to the same bits.
    for line, text in zip(out.read_text().splitlines(), (SEED_A, SEED_B)):
        assert seed_hex2bin(line) == decode_pattern(text).to_bits()
    assert encode_patterns([a, b], out, limit=2) == 2
    assert out.read_text().splitlines() == [SEED_A, SEED_B]
    assert encode_patterns(a, out, limit=0) == 0 and out.read_text() == ""


def test_encode_patterns_bad_line_leaves_nothing(tmp_path):
    a = tmp_path / "a.txt"
    a.write_text(f"{SEED_A}\n{SEED_B}\nFgFF\n")
    out = tmp_path / "patterns.hex"
    with pytest.raises(InputError) as e:
        encode_patterns([a], out)
    assert (e.value.path, e.value.line) == (str(a), 3)
    assert not out.exists()
    with pytest.raises(InputError, match="limit"):
        encode_patterns([a], out, limit=-1)


def test_sizes_of_real_patterns():
    # A 15x15 pattern is 56 hex digits and one extra letter, as DESIGN.md says.
    assert len(SEED_A) == 57 and SEED_A[-1] in "ghijklmnopqrst"
    for name in ("us15x15_78w", "us21x21_140w", "mini7x7"):
        g = parse_grid((BENCH / f"{name}.txt").read_text())
        line = encode_grid(g)
        assert len(line) == math.ceil(g.rows * g.cols / 4)
        assert decode_pattern(line) == g


def test_merge_stats(tmp_path):
    a, b = tmp_path / "000.tsv", tmp_path / "001.tsv"
    a.write_text("line\thex\tkept\n1\tF7h\tyes\n2\t5Dg\tno\n")
    b.write_text("line\thex\tkept\n1\t77g\tyes\n")
    out = tmp_path / "stats.tsv"
    assert merge_stats([a, b], out) == 3
    assert out.read_text().splitlines() == [
        "source\tline\thex\tkept",
        "000\t1\tF7h\tyes",
        "000\t2\t5Dg\tno",
        "001\t1\t77g\tyes",
    ]
    b.write_text("line\thex\n")
    with pytest.raises(InputError, match="header differs") as e:
        merge_stats([a, b], tmp_path / "other.tsv")
    assert (e.value.path, e.value.line) == (str(b), 1)
    assert not (tmp_path / "other.tsv").exists()
