"""The clue stage: every answer clued from the shards, no clue twice in a book, clean errors."""

from __future__ import annotations

import json

import pytest

from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.clue import MissingClues, assign_distinct, clue_book
from pipeline.model.cluefile import write_shards
from pipeline.model.cluetext import Blocklist, clue_leaks
from pipeline.model.errors import InputError
from pipeline.model.puzzle import read_ipuz


def _setup(tmp_path, clues):
    """Two 3x3 fills sharing ORE, WED, ARE and TED (so a book allowing two uses)."""
    fills = []
    for k, rows in enumerate((["CAT", "ORE", "WED"], ["BAT", "ORE", "WED"]), start=1):
        p = tmp_path / f"{k}.txt"
        p.write_text("\n".join(rows) + "\n")
        fills.append(p)
    shard_dir = tmp_path / "clues"
    write_shards(shard_dir, clues)
    return fills, shard_dir


CLUES = {  # two books' worth only where both puzzles share the answer
    "CAT": ["Feline"],
    "BAT": ["Cricket need"],
    "ORE": ["Mined rock", "Metal source"],
    "WED": ["Married"],
    "COW": ["Barn animal"],
    "BOW": ["Ribbon knot"],
    "ARE": ["Exist"],
    "TED": ["Spread for drying"],
}


def test_every_slot_clued_and_no_clue_twice(tmp_path):
    clues = dict(CLUES, WED=["Married", "Got hitched"], ARE=["Exist", "Live"], TED=["Spread for drying", "Turn hay"])
    fills, shards = _setup(tmp_path, clues)
    out = [tmp_path / "p1.ipuz", tmp_path / "p2.ipuz"]
    stats = clue_book(fills, shards, out, title="Puzzle {k}", author="A", copyright="C", max_answer_repeats=2)
    assert stats["puzzles"] == 2 and stats["repeated"] == 4 and stats["missing"] == 0
    seen = []
    for k, path in enumerate(out, start=1):
        puzzle = read_ipuz(path)
        assert puzzle.title == f"Puzzle {k}"
        for direction in ("across", "down"):
            for slot, answer, clue in puzzle.entries(direction):
                assert clue in clues[answer]
                seen.append(clue.lower())
    assert len(seen) == len(set(seen)), "a clue printed twice in one book"
    p1 = read_ipuz(out[0])
    assert p1.clues[("across", 4)] == "Mined rock" and read_ipuz(out[1]).clues[("across", 4)] == "Metal source"


def test_missing_clues_are_listed_and_nothing_written(tmp_path):
    clues = dict(CLUES)
    del clues["WED"]
    clues["ORE"] = ["Mined rock"]
    fills, shards = _setup(tmp_path, clues)
    out = [tmp_path / "p1.ipuz", tmp_path / "p2.ipuz"]
    with pytest.raises(MissingClues) as e:
        clue_book(fills, shards, out, max_answer_repeats=2)
    msg = str(e.value)
    assert "WED (puzzle 1, 5-Across: no clue in the shards)" in msg
    assert "ORE (puzzle 2, 4-Across: every clue already used in this book)" in msg
    assert not any(p.exists() for p in out)
    # the list beside the puzzles, ready to complete and use as clue_file
    assert str(tmp_path / "missing-clues.txt") in msg
    assert (tmp_path / "missing-clues.txt").read_text() == "WED|\nORE|\nARE|\nTED|\n"


def test_only_needed_shards_are_opened(tmp_path, monkeypatch):
    fills, shards = _setup(tmp_path, dict(CLUES, WED=["Married", "Got hitched"], ARE=["Exist", "Live"], TED=["Spread for drying", "Turn hay"]))
    (shards / "_zz.txt").write_text("ZZZ no separator here\n")  # would fail if opened
    opened = []
    import pipeline.model.cluefile as cf

    real = cf.read_shard
    monkeypatch.setattr(cf, "read_shard", lambda p, wanted=None: opened.append(p.name) or real(p, wanted))
    clue_book(fills, shards, [tmp_path / "a.ipuz", tmp_path / "b.ipuz"], max_answer_repeats=2)
    assert "_zz.txt" not in opened and "_ca.txt" in opened


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.integers(0, 12), max_size=4), max_size=25))
def test_assign_distinct_is_a_maximum_matching(options):
    import networkx as nx

    pick = assign_distinct(options)
    chosen = [p for p in pick if p is not None]
    assert len(chosen) == len(set(chosen))
    assert all(p is None or p in opts for p, opts in zip(pick, options))
    g = nx.Graph()
    items = [("i", i) for i in range(len(options))]
    g.add_nodes_from(items)
    for i, opts in enumerate(options):
        for o in opts:
            g.add_edge(("i", i), ("o", o))
    best = nx.bipartite.maximum_matching(g, top_nodes=items)
    assert len(chosen) == len(best) // 2


# -- the book's rules on the fills it is given --------------------------------


def test_an_answer_used_too_often_is_refused_naming_its_puzzles(tmp_path):
    fills, shards = _setup(tmp_path, CLUES)
    out = [tmp_path / "p1.ipuz", tmp_path / "p2.ipuz"]
    with pytest.raises(InputError) as e:
        clue_book(fills, shards, out)  # max_answer_repeats 1: no answer twice in a book
    msg = str(e.value)
    assert "ORE is used 2 times (puzzles 1, 2), more than max_answer_repeats 1 allows" in msg
    assert "CAT" not in msg and not any(p.exists() for p in out)
    # three puzzles, two uses allowed
    (tmp_path / "3.txt").write_text("BAT\nORE\nWED\n")
    with pytest.raises(InputError, match=r"ORE is used 3 times \(puzzles 1, 2, 3\), more than max_answer_repeats 2"):
        clue_book(fills + [tmp_path / "3.txt"], shards, out + [tmp_path / "p3.ipuz"], max_answer_repeats=2)


def test_blocklist_skips_a_clue_like_a_used_one_and_refuses_a_blocked_answer(tmp_path):
    clues = dict(CLUES, ORE=["Damn rock", "Metal source", "Mined rock"], WED=["Married", "Got hitched"],
                 ARE=["Exist", "Live"], TED=["Spread for drying", "Turn hay"])  # fmt: skip
    fills, shards = _setup(tmp_path, clues)
    out = [tmp_path / "p1.ipuz", tmp_path / "p2.ipuz"]
    clue_book(fills, shards, out, max_answer_repeats=2, blocklist=Blocklist(["damn"]))
    printed = {read_ipuz(p).clues[("across", 4)] for p in out}
    assert printed == {"Metal source", "Mined rock"}
    with pytest.raises(InputError, match=r"CAT \(puzzles 1\) is blocked by the blocklist"):
        clue_book(fills, shards, out, max_answer_repeats=2, blocklist=Blocklist(["cat"]))
    # only blocked clues left: missing, with the reason
    clues["CAT"] = ["Damn feline"]
    fills, shards = _setup(tmp_path, clues)
    with pytest.raises(MissingClues, match=r"CAT \(puzzle 1, 1-Across: every clue blocked by the blocklist\)"):
        clue_book(fills, shards, out, max_answer_repeats=2, blocklist=Blocklist(["damn"]))


def test_clue_file_comes_first_and_a_bad_line_is_named(tmp_path):
    clues = dict(CLUES, WED=["Married", "Got hitched"], ARE=["Exist", "Live"], TED=["Spread for drying", "Turn hay"])
    fills, shards = _setup(tmp_path, clues)
    out = [tmp_path / "p1.ipuz", tmp_path / "p2.ipuz"]
    mine = tmp_path / "mine.txt"
    mine.write_text("cat|Purring pet\nbat|Wooden club\n")
    clue_book(fills, shards, out, max_answer_repeats=2, clue_file=mine)
    assert read_ipuz(out[0]).clues[("across", 1)] == "Purring pet"
    assert read_ipuz(out[1]).clues[("across", 1)] == "Wooden club"
    for p in out:
        p.unlink()
    mine.write_text("CAT|Purring pet\nBAT\n")
    with pytest.raises(InputError) as e:
        clue_book(fills, shards, out, max_answer_repeats=2, clue_file=mine)
    assert str(mine) in str(e.value) and ":2" in str(e.value) and "no '|'" in str(e.value)
    assert not any(p.exists() for p in out)


def test_missing_list_completed_becomes_the_clue_file(tmp_path):
    clues = dict(CLUES, WED=["Married", "Got hitched"], ARE=["Exist", "Live"], TED=["Spread for drying", "Turn hay"])
    del clues["CAT"]
    fills, shards = _setup(tmp_path, clues)
    out = [tmp_path / "p1.ipuz", tmp_path / "p2.ipuz"]
    listing = tmp_path / "missing-clues.txt"
    with pytest.raises(MissingClues, match="missing_clues: leave"):
        clue_book(fills, shards, out, max_answer_repeats=2, missing="fail")
    assert listing.read_text() == "CAT|\n" and not any(p.exists() for p in out)
    # as written, the list is not a clue file yet: its empty clue is named
    with pytest.raises(InputError, match="empty clue"):
        clue_book(fills, shards, out, max_answer_repeats=2, clue_file=listing)
    completed = tmp_path / "my-clues.txt"
    completed.write_text(listing.read_text().replace("CAT|", "CAT|Purring pet"))
    stats = clue_book(fills, shards, out, max_answer_repeats=2, missing="fail", clue_file=completed)
    assert stats["missing"] == 0 and read_ipuz(out[0]).clues[("across", 1)] == "Purring pet"
    assert not listing.exists(), "a stale list is removed once every answer is clued"


def test_leave_writes_empty_clues_that_round_trip(tmp_path):
    import ipuz

    clues = dict(CLUES, WED=["Married", "Got hitched"], ARE=["Exist", "Live"], TED=["Spread for drying", "Turn hay"])
    del clues["CAT"]
    fills, shards = _setup(tmp_path, clues)
    out = [tmp_path / "p1.ipuz", tmp_path / "p2.ipuz"]
    stats = clue_book(fills, shards, out, max_answer_repeats=2, missing="leave", missing_path=tmp_path / "r" / "m.txt")
    assert stats["missing"] == 1 and (tmp_path / "r" / "m.txt").read_text() == "CAT|\n"
    data = ipuz.read(out[0].read_text())  # still valid ipuz for the third-party reader
    assert [1, ""] in data["clues"]["Across"]
    p1 = read_ipuz(out[0])
    assert p1.clues[("across", 1)] == "" and [(s.label, a) for s, a in p1.unclued()] == [("1A", "CAT")]
    assert read_ipuz(out[1]).unclued() == []


def test_cli_clue_modes_and_bad_values(tmp_path):
    import subprocess
    import sys

    from conftest import ROOT

    clues = dict(CLUES, WED=["Married", "Got hitched"], ARE=["Exist", "Live"], TED=["Spread for drying", "Turn hay"])
    del clues["CAT"]
    fills, shards = _setup(tmp_path, clues)
    out = [str(tmp_path / "p1.ipuz"), str(tmp_path / "p2.ipuz")]

    def xw(*args):
        cmd = [sys.executable, "-m", "pipeline.cli", "clue", *map(str, fills), "--clues", str(shards), "--out", *out]
        return subprocess.run([*cmd, *args], capture_output=True, text=True, cwd=ROOT)

    r = xw("--max-answer-repeats", "2", "--missing-clues", "fail", "--missing-list", tmp_path / "rep" / "m.txt")
    assert r.returncode == 2 and "CAT (puzzle 1, 1-Across" in r.stderr and str(tmp_path / "rep" / "m.txt") in r.stderr
    assert not (tmp_path / "p1.ipuz").exists()
    r = xw("--missing-clues", "fail")
    assert r.returncode == 2 and "ORE is used 2 times" in r.stderr
    r = xw("--max-answer-repeats", "2", "--missing-clues", "leave", "--blocklist", "default")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["missing"] == 1 and (tmp_path / "missing-clues.txt").read_text() == "CAT|\n"
    r = xw("--missing-clues", "sometimes")
    assert r.returncode == 2 and "sometimes" in r.stderr


def test_prefer_chars_puts_short_clues_first_without_losing_any(tmp_path):
    clues = dict(
        CLUES,
        CAT=["Feline mammal usually having thick soft fur and no ability to roar", "Tom", "Puss"],
        WED=["Take in marriage, in a ceremony before witnesses", "Married"],
    )
    fills, shards = _setup(tmp_path, clues)
    out = [tmp_path / "p1.ipuz", tmp_path / "p2.ipuz"]
    plain = clue_book(fills[:1], shards, out[:1])
    assert read_ipuz(out[0]).clues[("across", 1)].startswith("Feline mammal")
    short = clue_book(fills[:1], shards, out[:1], prefer_chars=20)
    p = read_ipuz(out[0])
    assert p.clues[("across", 1)] == "Tom"  # the first short one, in the shard's order
    assert p.clues[("across", 5)] == "Married"
    assert short["mean_clue_chars"] < plain["mean_clue_chars"]
    # An answer whose clues are all long still gets one: a preference, not a limit.
    only_long = dict(CLUES, CAT=["Feline mammal usually having thick soft fur"])
    (tmp_path / "b").mkdir()
    fills, shards = _setup(tmp_path / "b", only_long)
    clue_book(fills[:1], shards, out[:1], prefer_chars=5)
    assert read_ipuz(out[0]).clues[("across", 1)] == "Feline mammal usually having thick soft fur"
    with pytest.raises(InputError, match="clue_prefer_chars is 0"):
        clue_book(fills[:1], shards, out[:1], prefer_chars=0)


def test_blocklist_blocks_inflections_by_spelling_not_the_innocent_words_near_them():
    """SPIC is a slur: SPICS is blocked, SPICE, SPICED and SPICES are not (they are no
    inflection of it), nor is the S of "Gershwin's" run into "hit"."""
    b = Blocklist(["spic", "shit", "urinate", "blow job"])
    assert [b.blocks_answer(w) for w in ("SPICS", "SPICE", "SPICED", "SPICES")] == ["SPICS", None, None, None]
    assert b.blocks_answer("URINATED") == "URINATED" and b.blocks_answer("SHITTING") == "SHITTING"
    assert b.blocks_clue("Gershwin's 1919 hit") is None and b.blocks_clue("Spiced tea") is None
    assert b.blocks_clue("A blow job") == "BLOWJOB" and b.blocks_clue("Oh, shit") == "SHIT"


def test_a_listed_word_is_not_read_into_the_words_an_er_makes():
    """The breakfast-table list's test (`Blocklist.lists`): PEE lists PEES and
    PEED, but PEER, PEERS and TITTER are words of their own."""
    b = Blocklist(["pee", "tit", "stab"])
    assert all(b.lists(w) for w in ("PEE", "PEES", "PEED", "STABS", "STABBED", "STABBING"))
    assert not any(b.lists(w) for w in ("PEER", "PEERS", "PEERED", "TITTER", "TITER", "STABLE"))


# The give-aways a blind editorial review rejected (issue 16), each caught by the one rule.
GIVEAWAYS = [
    ("TIE", "Necktie", "NECKTIE"), ("DOSE", "Dosage", "DOSAGE"), ("EGGSHELLS", "Shells", "SHELLS"),
    ("APPROVAL", "The formal act of approving", "APPROVING"), ("REF", "Referee", "REFEREE"),
    ("THAI", "A native or inhabitant of Thailand", "THAILAND"), ("NARC", "Agent in narcotics violations", "NARCOTICS"),
    ("ARAB", "Arabian", "ARABIAN"), ("KINS", "Related by kinship", "KINSHIP"), ("LAMA", "Priest of Lamaism", "LAMAISM"),
    ("ETAL", "Et alia", "ET ALIA"), ("HAYRACKS", "Some racks", "RACKS"), ("GUESTHOUSES", "Some houses", "HOUSES"),
    ("UNREPORTED", "Not reported", "REPORTED"), ("TOON", "Cartoon", "CARTOON"), ("PUB", "Public house", "PUBLIC"),
    ("DAMNABLY", "In a damnable manner", "DAMNABLE"), ("POSSIBLES", "Some possibilities", "POSSIBILITIES"),
    ("ANEW", "In a new way", "A NEW"), ("MPH", "Miles per hour", "MILES PER HOUR"), ("HRS", "Hours", "HOURS"),
    ("LTD", "Limited company", "LIMITED"), ("GYMS", "Gymnasiums", "GYMNASIUMS"), ("SEMIFINAL", "Semi", "SEMI"),
    ("BALLERINA", "Female ballet dancer", "BALLET"), ("MAGNETO", "Master of magnetism", "MAGNETISM"),
]  # fmt: skip
FAIR = [
    ("DOGS", "Canines"), ("SLEPT", "Dozed"), ("EASIER", "Less taxing"), ("TRES", "Three, in Madrid"),
    ("OFT", "Often, in poems"), ("OER", "Over, poetically"), ("AMA", "Org. for docs"), ("MIN", "Minute, for short"), ("FRAT", "Fraternity, for short"),
    ("CNN", "Cable news network, initially"), ("ERG", "Tiny bit of energy"), ("ALOE", "Kind of succulent"),
    ("ACID", "Uric ___"), ("ALAN", "___ Turing"), ("TICS", "Twitches"), ("FIG", "Newton filling"),
    ("FOREST", "A dense growth of trees"), ("IPHONE", "Apple smartphone"), ("TAN", "Tarnish"),
    ("LIBERTE", "Liberty, in French"), ("MARCEL", "Mime Marceau"), ("TRENDED", "Tended"), ("INDIRA", "Gandhi of India"),
]  # fmt: skip


@pytest.mark.parametrize(("answer", "clue", "word"), GIVEAWAYS)
def test_give_away_rule_catches_what_the_editor_rejected(answer, clue, word):
    assert clue_leaks(clue, answer) == word


@pytest.mark.parametrize(("answer", "clue"), FAIR)
def test_give_away_rule_passes_fair_clues_and_signalled_shortenings(answer, clue):
    assert clue_leaks(clue, answer) is None


def test_give_away_rule_takes_related_words():
    """The words of a multi-word answer, or a word's WordNet relatives, given as ``related``."""
    assert clue_leaks("Acid found in urine", "URIC") is None
    assert clue_leaks("Acid found in urine", "URIC", ["urine"]) == "URINE"
    assert clue_leaks("Camera part", "LENSCAP", ["lens cap"]) is None
    assert clue_leaks("Cover for a lens", "LENSCAP", ["lens cap"]) == "LENS"


def test_clue_stage_drops_a_give_away_from_the_users_clue_file_and_says_so(tmp_path):
    fills, shards = _setup(tmp_path, dict(CLUES, ARE=["Exist", "Live"], TED=["Spread for drying", "Turn hay"]))
    (tmp_path / "mine.txt").write_text("CAT|Catlike pet\nORE|Ore deposit\nWED|Tied the knot\n")
    out = [tmp_path / "p1.ipuz", tmp_path / "p2.ipuz"]
    stats = clue_book(fills, shards, out, max_answer_repeats=2, clue_file=tmp_path / "mine.txt")
    assert stats["clue_file_giveaways"] == ["CAT|Catlike pet", "ORE|Ore deposit"]
    assert stats["giveaways_dropped"] == 2
    p1 = read_ipuz(out[0])
    assert p1.clues[("across", 1)] == "Feline" and p1.clues[("across", 4)] == "Mined rock"
    assert p1.clues[("across", 5)] == "Tied the knot"  # the user's fair clue wins


def test_leak_rule_an_answer_ending_with_a_clue_word():
    assert clue_leaks("Some groceries", "GREENGROCERIES") == "GROCERIES"
    assert clue_leaks("Phone with Siri", "IPHONE") == "PHONE"
    assert clue_leaks("Ocean horse", "SEAHORSE") == "HORSE"
    assert clue_leaks("Apple smartphone", "IPHONE") is None  # SMARTPHONE ends with PHONE, not the other way


# --------------------------------------------------------------------------
# Levels: a puzzle's difficulty chooses its clues; the user's corrections win


LEVELLED = dict(
    CLUES,
    CAT=["Feline", "hard: Jazz fan"],
    ORE=["Mined rock", "hard: Lode load"],
    WED=["Married", "hard: Tied the knot"],
    ARE=["Exist", "hard: Live"],
    TED=["Spread for drying", "hard: Turned hay"],
    COW=["Barn animal", "hard: Intimidate"],
)


def _printed(path) -> dict[str, str]:
    puzzle = read_ipuz(path)
    return {answer: clue for d in ("across", "down") for _, answer, clue in puzzle.entries(d)}


@pytest.mark.parametrize("difficulty, expected", [
    ("easy", {"CAT": "Feline", "ORE": "Mined rock", "WED": "Married", "COW": "Barn animal", "ARE": "Exist"}),
    ("hard", {"CAT": "Jazz fan", "ORE": "Lode load", "WED": "Tied the knot", "COW": "Intimidate", "ARE": "Live",
              "TED": "Turned hay"}),
])  # fmt: skip
def test_an_easy_puzzle_prints_straight_clues_and_a_hard_one_hard_clues(tmp_path, difficulty, expected):
    fills, shards = _setup(tmp_path, LEVELLED)
    out = tmp_path / "p1.ipuz"
    stats = clue_book(fills[:1], shards, [out], difficulty=difficulty)
    printed = _printed(out)
    assert {a: printed[a] for a in expected} == expected  # the level tag itself is never printed
    assert stats["hard_clues"] == (len(expected) if difficulty == "hard" else 0)


def test_a_medium_puzzle_alternates_levels_and_each_puzzle_may_have_its_own(tmp_path):
    fills, shards = _setup(tmp_path, LEVELLED)
    stats = clue_book(fills[:1], shards, [tmp_path / "p1.ipuz"], difficulty="medium")
    printed = _printed(tmp_path / "p1.ipuz")
    hard = [a for a, clue in printed.items() if "hard: " + clue in LEVELLED[a]]
    assert stats["hard_clues"] == len(hard) == 3  # every other entry of six, all with both levels
    out = [tmp_path / "e.ipuz", tmp_path / "h.ipuz"]
    clue_book(fills, shards, out, difficulty=["easy", "hard"], max_answer_repeats=2)
    assert _printed(out[0])["CAT"] == "Feline" and _printed(out[1])["ORE"] == "Lode load"
    with pytest.raises(ValueError, match="one difficulty per filled grid"):
        clue_book(fills, shards, out, difficulty=["easy"], max_answer_repeats=2)


def test_a_difficulty_not_known_is_refused(tmp_path):
    fills, shards = _setup(tmp_path, LEVELLED)
    with pytest.raises(InputError, match="difficulty is 'brutal'"):
        clue_book(fills[:1], shards, [tmp_path / "p.ipuz"], difficulty="brutal")


def test_a_correction_in_clue_file_is_printed_at_every_difficulty(tmp_path):
    fills, shards = _setup(tmp_path, LEVELLED)
    mine = tmp_path / "mine.txt"
    mine.write_text("# my corrections\nCAT|Whiskered pet\nORE|hard: Vein contents\n")
    for difficulty in ("easy", "medium", "hard"):
        out = tmp_path / f"{difficulty}.ipuz"
        clue_book(fills[:1], shards, [out], clue_file=mine, difficulty=difficulty)
        printed = _printed(out)
        assert printed["CAT"] == "Whiskered pet" and printed["ORE"] == "Vein contents", difficulty


def test_review_lists_printed_clues_with_source_level_and_flags(tmp_path, capsys):
    from pipeline.cli import main as xw
    from pipeline.review import review_clues

    clues = dict(LEVELLED, COW=["___ bell"], TED=["Any of various ways of spreading mown grass out to dry"])
    fills, shards = _setup(tmp_path, clues)
    mine = tmp_path / "mine.txt"
    mine.write_text("CAT|Whiskered pet\n")
    out = tmp_path / "book"
    out.mkdir()
    clue_book(fills[:1], shards, [out / "1.ipuz"], clue_file=mine, difficulty="easy")
    house = tmp_path / "house"
    (house / "clues").mkdir(parents=True)
    (house / "clues" / "mine.txt").write_text("wed|Married|hard: Tied the knot\n")
    lines = {line.answer: line for line in review_clues([out], clue_dir=shards, clue_file=mine, house_dir=house)}
    assert lines["WED"].source == "house"
    assert lines["CAT"].source == "yours" and lines["CAT"].clue == "Whiskered pet"
    assert lines["ORE"].level == "easy" and lines["ORE"].slot == "4-Across" and lines["ORE"].puzzle == "book/1.ipuz"
    assert lines["COW"].flags == ("blank",)
    assert "long" in lines["TED"].flags
    assert lines["ORE"].source == "shards"  # a clue folder of one's own, not a lexicon build
    # the command prints each as a clue_file line, ready to correct
    assert xw(["clues", "review", str(out), "--clues", str(shards), "--house", str(house), "--flagged"]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert "book/1.ipuz\t1-Down\tCOW|___ bell\tshards\teasy\tblank" in printed
    assert not any("ORE|" in line for line in printed)  # unflagged: left out with --flagged


def test_shard_cache_reads_the_same_clues_and_never_a_stale_or_damaged_entry(tmp_path):
    from pipeline.model.cluefile import read_clues_for

    fills, shard_dir = _setup(tmp_path, {**CLUES, "OBOE": ["Reed instrument", "hard: Orchestra tuner"]})
    cache = tmp_path / "cache"
    answers = [*CLUES, "OBOE", "NONE"]
    plain = read_clues_for(shard_dir, answers)
    assert read_clues_for(shard_dir, answers, cache_dir=cache) == plain  # built ...
    (entry,) = cache.glob("clues-v*")
    assert read_clues_for(shard_dir, answers, cache_dir=cache) == plain  # ... and read
    # An edited shard is read afresh (a new entry), a damaged entry is rebuilt.
    with open(shard_dir / "_or.txt", "a") as f:
        f.write("ORE|Vein contents\n")
    assert read_clues_for(shard_dir, ["ORE"], cache_dir=cache)["ORE"][-1] == "Vein contents"
    assert len(list(cache.glob("clues-v*"))) == 2
    entry.write_bytes(entry.read_bytes()[:-9] + b"XXXXXXXXX")
    (shard_dir / "_or.txt").write_text("ORE|Mined rock\nORE|Metal source\n")
    assert read_clues_for(shard_dir, answers, cache_dir=cache) == plain
    # A bad line is named, cache or not, and nothing is cached for it.
    (shard_dir / "_ca.txt").write_text("CAT|Feline\nCAT\n")
    with pytest.raises(InputError, match=r"_ca\.txt:2: no '\|'"):
        read_clues_for(shard_dir, answers, cache_dir=cache)
    # The clue stage reads through it to the same puzzles.
    (shard_dir / "_ca.txt").write_text("CAT|Feline\n")
    kw = {"max_answer_repeats": 2, "missing": "leave"}
    a = clue_book(fills, shard_dir, [tmp_path / "a1.ipuz", tmp_path / "a2.ipuz"], **kw)
    b = clue_book(fills, shard_dir, [tmp_path / "b1.ipuz", tmp_path / "b2.ipuz"], cache_dir=cache, **kw)
    assert a == b and (tmp_path / "a2.ipuz").read_text() == (tmp_path / "b2.ipuz").read_text()
