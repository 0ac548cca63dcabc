"""A constructor's view of a word list: counts by length and band, and why an entry scores what it does.

``xw wordlist stats`` prints `stats_table`; ``xw wordlist grade`` prints
`grade_lines`.  For the default list the build's ``grades.tsv`` (beside
``wordlist.txt``) says which reading of an entry was scored and from which
signals, or why a candidate was left out; for any other list only its own
score is known.
"""

from __future__ import annotations

from pathlib import Path

from ..model.errors import InputError, numbered_lines
from ..model.fileio import read_text
from ..model.wordlist import normalise
from .scoring import band

__all__ = ["BANDS", "CALIBRATION", "agreement", "grade_lines", "read_grades", "read_judgments", "stats",
           "stats_table"]  # fmt: skip

#: The score bands, best first: (name, lowest score, what it means).
BANDS = (
    ("fine", 50, "fine in a daily paper"),
    ("corner", 30, "use when a corner needs it"),
    ("avoid", 0, "avoid"),
)


def stats(words: dict[str, float]) -> dict:
    """``{"by_length": {n: {band: count}}, "total": {band: count}, "entries": n}``."""
    by_length: dict[int, dict[str, int]] = {}
    total = {name: 0 for name, _, _ in BANDS}
    for w, s in words.items():
        row = by_length.setdefault(len(w), {name: 0 for name, _, _ in BANDS})
        row[band(s)] += 1
        total[band(s)] += 1
    return {"entries": len(words), "by_length": dict(sorted(by_length.items())), "total": total}


def stats_table(words: dict[str, float]) -> str:
    """The entries of each length in each band, as a text table.

    Examples
    --------
    >>> print(stats_table({"ERA": 60, "ETUI": 35, "AREA": 70, "XQZ": 5}))
    length  entries  fine 50+  corner 30-49  avoid <30
         3        2         1             0          1
         4        2         1             1          0
       all        4         2             1          1
    """
    s = stats(words)
    head = "length  entries  fine 50+  corner 30-49  avoid <30"
    lines = [head]
    rows = list(s["by_length"].items()) + [("all", s["total"])]
    for n, row in rows:
        count = sum(row.values())
        lines.append(f"{n:>6}  {count:>7,}  {row['fine']:>8,}  {row['corner']:>12,}  {row['avoid']:>9,}")
    return "\n".join(lines)


def read_grades(path) -> dict[str, tuple[str, str, str]]:
    """``{ANSWER: (score or "-", reading or "rejected", signals or reason)}`` from a ``grades.tsv``."""
    out = {}
    for line in read_text(path).split("\n"):
        if not line or line.startswith("#"):
            continue
        answer, score, reading, why = line.split("\t", 3)
        out[answer] = (score, reading, why)
    return out


#: The calibration set: entries judged as fill by hand, blind to their scores
#: (``bench/calibrate.py`` draws and fits it; the tests hold the scores to it).
CALIBRATION = Path(__file__).resolve().parent.parent / "data" / "calibration.tsv"


def read_judgments(path=CALIBRATION) -> dict[str, str]:
    """``{ANSWER: "F" | "C" | "A"}`` (fine, corner, avoid) from ``ANSWER<TAB>grade`` lines; ``#`` comments."""
    out = {}
    for lineno, line in numbered_lines(read_text(path)):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) != 2 or parts[1].strip() not in ("F", "C", "A"):
            raise InputError(f"expected ANSWER<TAB>F, C or A, got {line!r}", path, lineno)
        out[parts[0].strip()] = parts[1].strip()
    return out


def agreement(pairs, shift: int = 0) -> float:
    """The share of ``(score, judgment)`` pairs where ``score + shift >= 50`` agrees with judgment ``F``."""
    pairs = list(pairs)
    return sum((s + shift >= 50) == (j == "F") for s, j in pairs) / max(1, len(pairs))


def grade_lines(entries, words: dict[str, float], grades_path: Path | None = None) -> list[str]:
    """What ``xw wordlist grade`` prints for each of ``entries``.

    Parameters
    ----------
    entries : iterable of str
        As the user typed them ("ice cream", "ATEAM").
    words : dict
        The list (``{WORD: score}``).
    grades_path : pathlib.Path, optional
        The build's ``grades.tsv``, for the default list.
    """
    grades = read_grades(grades_path) if grades_path is not None and grades_path.is_file() else {}
    out = []
    for entry in entries:
        try:
            answer = normalise(entry)
        except ValueError as e:
            out.append(f"{entry}: not an entry ({e})")
            continue
        score = words.get(answer)
        g = grades.get(answer)
        if score is not None:
            name, low, meaning = next(b for b in BANDS if b[0] == band(score))
            head = f"{answer}: {score:g}, {meaning} ({name}, {low}+)" if low else f"{answer}: {score:g}, {meaning}"
            if g is not None and g[1] != "rejected":
                head += f", scored as a {g[1]}"
                out.append(head)
                out += [f"    {part}" for part in g[2].split("; ")]
            else:
                out.append(head)
        elif g is not None and g[1] == "rejected":
            out.append(f"{answer}: not in the list: {g[2]}")
        else:
            out.append(f"{answer}: not in the list" + (": no source has it" if grades else ""))
    return out
