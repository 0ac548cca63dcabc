"""The house list: the packaged data as a constructor and an editor hold it, and its reader's errors."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from pipeline.lexicon.house import MAX_HOUSE_CLUE, default_house_dir, read_house, read_house_file
from pipeline.model.cluefile import check_clue, clue_level
from pipeline.model.cluetext import clue_leaks, load_blocklists
from pipeline.model.errors import InputError

CATEGORIES = {"abbreviations", "brands", "culture", "foreign", "interjections", "names", "people", "phrases",
              "places", "staples", "words"}  # fmt: skip


@pytest.fixture(scope="module")
def house():
    return read_house()


def test_every_category_file_and_the_licence_are_packaged():
    folder = default_house_dir()
    assert {p.stem for p in folder.glob("*.txt")} == CATEGORIES
    licence = (folder / "LICENSE").read_text()
    assert "CC0 1.0 Universal" in licence and "creativecommons.org/publicdomain/zero/1.0" in licence


def test_the_short_entries_grids_are_built_from(house):
    assert len(house) >= 7000
    by_length = Counter(len(a) for a in house)
    assert by_length[3] >= 800 and by_length[4] >= 1400 and by_length[5] >= 1800
    fine = Counter(len(a) for a, e in house.items() if e.score >= 50)
    assert fine[3] >= 500 and fine[4] >= 800 and fine[5] >= 1000
    for answer in ("EMT", "NPR", "BLVD", "AMT", "TINA", "LISA", "INEZ", "DOUG", "OUCH", "WHEW", "OCHO", "AQUI",
                   "SALUD", "TRES", "TOBE", "AMTOO", "ATEAM", "XBOX", "OSLO", "ERIE", "ALDA", "ELMO"):  # fmt: skip
        assert answer in house, answer


def test_every_entry_is_judged_and_every_clue_printable(house):
    blocklist = load_blocklists(["default"])
    for answer, e in house.items():
        assert 40 <= e.score <= 100, (answer, e.score, e.where)
        assert re.fullmatch(r"[A-Z]{3,15}", answer)
        assert e.clues and len(set(e.clues)) == len(e.clues), e.where
        assert {clue_level(c)[0] for c in e.clues} == {"easy", "hard"}, e.where  # a straight clue and a hard one
        for clue in (clue_level(c)[1] for c in e.clues):
            assert check_clue(clue) is None and len(clue) <= MAX_HOUSE_CLUE, (e.where, clue)
            first = next(ch for ch in clue if ch.isalnum())
            assert clue.lstrip("\"'(").startswith("___") or first.isupper() or first.isdigit(), (e.where, clue)
            assert clue_leaks(clue, answer, list(e.surfaces)) is None, (e.where, clue)
            assert blocklist.blocks_clue(clue) is None, (e.where, clue)
        assert blocklist.blocks_answer(answer) is None, e.where


def test_signals_an_editor_expects(house):
    """Abbreviations are signalled, foreign words say so, partials are blanks."""
    abbr = re.compile(r"Abbr\.|abbr\.|for short|initial|[Ll]etters|[A-Za-z][a-z]{0,4}\.|\b[A-Z]{2,}\b|briefly|informally|in texts?\b|online|in chat|code\b|mnemonic|Roman|\(road sign\)|in a note|[Tt]exter")
    for answer, e in house.items():
        if e.categories == ("abbreviations",):
            assert any(abbr.search(c) for c in e.clues), (e.where, e.clues)
    foreign = [e for e in house.values() if e.categories == ("foreign",)]
    signalled = [e for e in foreign if any(re.search(r"\b(in|to|of|for)\b [A-Z]|Spanish|French|German|Italian|Latin|"
                                                     r"Japanese|Hebrew|Yiddish|Hawaiian|Greek|Russian|abroad|"
                                                     r"translated|___", c) for c in e.clues)]  # fmt: skip
    assert len(signalled) >= 0.95 * len(foreign)


def test_an_answer_in_two_files_keeps_both_clue_sets_and_the_higher_score(tmp_path):
    (tmp_path / "a.txt").write_text("ERA;45|Equal rights amendment: Abbr.|hard: Failed 1970s amendment: Abbr.\n")
    (tmp_path / "b.txt").write_text("# a comment\n\nera;60|Historical period|hard: Age\n")
    house = read_house(tmp_path)
    e = house["ERA"]
    assert e.score == 60 and e.clues == ("Equal rights amendment: Abbr.", "hard: Failed 1970s amendment: Abbr.",
                                         "Historical period", "hard: Age")  # fmt: skip
    assert e.categories == ("a", "b") and e.where == "a.txt:1"


@pytest.mark.parametrize(
    "line, problem",
    [
        ("TINA|Singer Turner", "no ';score' after 'TINA'"),
        ("TINA;high|Singer Turner", "score 'high' is not a whole number from 0 to 100"),
        ("TINA;150|Singer Turner", "score '150' is not a whole number from 0 to 100"),
        ("TINA;60", "TINA has no clue"),
        ("TINA;60|Singer Turner|", "TINA: empty clue"),
        ("B-52;60|Bomber", "digit '5'"),
        ("ox;60|Yoked beast", "'OX' has 2 letters"),
        ("Tina;60|Tina Turner's first name", "gives the answer away (TINA)"),
        ("am too;55|I am, too", "gives the answer away"),
        ("EMT;60|Paramedic.", "ends with a full stop"),
        ("EMT;60|paramedic, for short", "starts in lower case"),
        ('afarm;48|"...had ___, E-I-E-I-O"', "starts in lower case"),
        ("EMT;60|" + "Long " * 14, "characters (at most 60)"),
        ("EMT;60|Paramedic, for short", "EMT has no hard clue"),
        ("EMT;60|hard: Paramedic, for short", "EMT has no easy clue"),
    ],
)
def test_a_bad_line_is_named_with_its_file_and_line(tmp_path, line, problem):
    path = tmp_path / "names.txt"
    path.write_text(f"# names\nAlan;60|Actor Alda|hard: Codebreaker Turing\n{line}\n")
    with pytest.raises(InputError) as e:
        read_house_file(path)
    assert e.value.path == str(path) and e.value.line == 3
    assert problem in str(e.value)


def test_an_answer_twice_in_one_file_names_both_lines(tmp_path):
    path = tmp_path / "names.txt"
    path.write_text("Alan;60|Actor Alda|hard: Codebreaker Turing\nalan;55|Codebreaker Turing|hard: Actor Alda\n")
    with pytest.raises(InputError) as e:
        read_house_file(path)
    assert e.value.line == 2 and "ALAN is listed twice (first on line 1)" in str(e.value)


def test_an_abbreviation_may_end_with_its_own_full_stop(tmp_path):
    path = tmp_path / "abbreviations.txt"
    path.write_text("AMT;55|Sum: Abbr.|hard: Qty.\nSTE;50|Sault ___. Marie|hard: Marie preceder, briefly\n"
                    "etc;55|And so on: Abbr.|hard: List ender: Abbr.\n")
    assert [e.answer for e in read_house_file(path)] == ["AMT", "STE", "ETC"]
