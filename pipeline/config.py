"""The pipeline's config checked against its schema, with short messages.

``config/config.schema.yaml`` (JSON Schema draft 2020-12) is the one
statement of what each key may hold; this module reads it, fills in its
defaults as Snakemake's ``validate`` does, and turns each failure into one
line naming the key path and the problem::

    config: books: 0 is less than the minimum of 1
    config: margins.inner: 0.1 is less than the minimum of 0.25
    config: colour: unknown key

instead of jsonschema's page of schema text.  Beyond the schema it checks
what the schema cannot say: the chosen style's ``pattern_rules`` against
the grid size (`pipeline.model.rules.style_rules`), a bound's ``min`` not
above its ``max``, and numbers that are not finite (``nan`` passes every
``minimum``).  The Snakefile calls `check_config` before anything runs;
``xw check-config`` runs the same check on a file.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

from .model.errors import InputError

__all__ = [
    "SCHEMA_PATH", "config_problems", "check_config", "check_config_or_exit", "fill_plan", "load_config",
    "parse_config_option", "PATTERNS_PER_PUZZLE", "SPARE_PATTERNS",
]  # fmt: skip

#: ``patterns_per_shard: auto`` makes this many candidate patterns per puzzle ...
PATTERNS_PER_PUZZLE = 3
#: ... and this many more per book.
SPARE_PATTERNS = 10

#: The schema beside the default config, ``config/config.schema.yaml``.
SCHEMA_PATH = Path(__file__).resolve().parent.parent / "config" / "config.schema.yaml"
_JSON_TYPES = {"integer": "a whole number", "number": "a number", "string": "a string", "boolean": "true or false",
               "array": "a list", "object": "a mapping", "null": "null"}  # fmt: skip


def _load_yaml(path, what: str):
    """``(data, line)``: a YAML file's contents and the line its top-level value starts on."""
    import yaml

    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(f"{what} not found", path) from None
    except IsADirectoryError:
        raise InputError("is a directory, expected a file", path) from None
    except UnicodeDecodeError as e:
        raise InputError(f"not valid UTF-8 (byte {e.start})", path) from None
    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
        data = None if node is None else loader.construct_document(node)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        problem = getattr(e, "problem", None) or str(e).splitlines()[0]
        raise InputError(f"not valid YAML: {problem}", path, None if mark is None else mark.line + 1) from None
    finally:
        loader.dispose()
    return data, None if node is None else node.start_mark.line + 1


def _validator(schema: dict):
    """A draft 2020-12 validator that fills in defaults and counts 2.0 as no integer."""
    from jsonschema import Draft202012Validator, validators

    def is_integer(checker, instance) -> bool:
        return isinstance(instance, int) and not isinstance(instance, bool)

    checker = Draft202012Validator.TYPE_CHECKER.redefine("integer", is_integer)
    base = validators.extend(Draft202012Validator, type_checker=checker)
    properties = base.VALIDATORS["properties"]

    def properties_with_defaults(validator, props, instance, schema):
        # As Snakemake's validate (jsonschema FAQ), but only into a mapping:
        # a string where a mapping belongs is a type error, not a crash here.
        if isinstance(instance, dict):
            for name, sub in props.items():
                if "default" in sub:
                    instance.setdefault(name, sub["default"])
        yield from properties(validator, props, instance, schema)

    return validators.extend(base, {"properties": properties_with_defaults})(schema)


def _key(path) -> str:
    """``margins.inner``, ``renderers[0]``: a jsonschema error path as one would write it."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _short(value) -> str:
    """A value as the config would write it, cut to 60 characters."""
    if value is None:
        text = "null"
    elif isinstance(value, bool):
        text = str(value).lower()
    else:
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _message(error) -> list[str]:
    """One ``key: problem`` line per jsonschema error (several for several unknown keys)."""
    key = _key(error.absolute_path)
    where = f"{key}: " if key else ""
    kind, expected, value = error.validator, error.validator_value, error.instance
    if kind == "additionalProperties" and isinstance(value, dict):
        known = error.schema.get("properties", {})
        return [
            f"{_key([*error.absolute_path, k])}: unknown key{_known(str(k), known)}" for k in value if k not in known
        ]
    if kind == "propertyNames":
        names = error.schema["propertyNames"].get("enum", [])
        return [f"{where}{_short(value)} is not one of {', '.join(map(str, names))}"]
    if kind == "required" and isinstance(value, dict):
        return [f"{_key([*error.absolute_path, k])}: missing (a required key)" for k in expected if k not in value]
    if kind == "type":
        types = [expected] if isinstance(expected, str) else list(expected)
        return [f"{where}{_short(value)} is not {' or '.join(_JSON_TYPES.get(t, t) for t in types)}"]
    if kind == "enum":
        return [f"{where}{_short(value)} is not one of {', '.join(map(str, expected))}"]
    if kind in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        words = {"minimum": "less than the minimum of", "maximum": "more than the maximum of",
                 "exclusiveMinimum": "not more than", "exclusiveMaximum": "not less than"}  # fmt: skip
        return [f"{where}{_short(value)} is {words[kind]} {expected}"]
    if kind in ("minLength", "maxLength"):
        side = "at least" if kind == "minLength" else "at most"
        return [f"{where}{len(value)} characters, {side} {expected} allowed"]
    if kind in ("minItems", "maxItems"):
        side = "at least" if kind == "minItems" else "at most"
        return [f"{where}{len(value)} items, {side} {expected} allowed"]
    if kind == "minProperties":
        return [f"{where}empty; give at least {expected} of its keys"]
    if kind == "uniqueItems":
        return [f"{where}an item is listed twice"]
    return [f"{where}{error.message[:200]}"]


def _known(key: str, known) -> str:
    """How to say which keys there are: the one meant, all of a few, or the schema."""
    import difflib

    close = difflib.get_close_matches(key, list(known), n=1)
    if close:
        return f" (did you mean {close[0]}?)"
    if len(known) <= 8:
        return f" (known: {', '.join(known)})"
    return " (the keys are in config/config.schema.yaml)"


def _non_finite(value, path=()) -> list[str]:
    """Key paths of ``nan`` and ``inf`` numbers (``nan`` passes every bound of the schema)."""
    if isinstance(value, float) and not math.isfinite(value):
        return [f"{_key(path)}: {value!r} is not a finite number"]
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in _non_finite(v, (*path, k))]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in _non_finite(v, (*path, i))]
    return []


def _cross_key_problems(config: dict) -> list[str]:
    """What the schema cannot say: the style's rules on this grid, the sections, bounds' min <= max."""
    from .model.rules import style_rules
    from .model.sections import sections_of

    problems = []
    try:
        sections_of(config)
    except InputError as e:
        problems.append(e.message)
    style = config["pattern_style"]
    rows = config["grid_rows"] or config["grid_size"]
    cols = config["grid_cols"] or config["grid_size"]
    overrides = (config.get("pattern_rules") or {}).get(style) or {}
    try:
        style_rules(style, rows, cols, overrides, where=f"pattern_rules.{style}")
    except InputError as e:
        problems.append(e.message)
    for stat, bound in (config.get("pattern_bounds") or {}).items():
        lo, hi = bound.get("min"), bound.get("max")
        if lo is not None and hi is not None and lo > hi:
            problems.append(f"pattern_bounds.{stat}: min {lo} > max {hi}")
    return problems


def config_problems(config, schema_path=None) -> list[str]:
    """Every problem of ``config`` as a ``key: problem`` line; [] when it is good.

    Parameters
    ----------
    config : dict
        The config as Snakemake holds it (``--config`` values merged in).
        The schema's defaults are filled in, in place, as Snakemake's
        ``validate`` does.
    schema_path : str or os.PathLike, optional
        The schema; default `SCHEMA_PATH`.

    Returns
    -------
    list of str
        Ordered by key; the cross-key checks run only when the schema holds.

    Examples
    --------
    >>> import yaml
    >>> good = yaml.safe_load(SCHEMA_PATH.with_name("config.yaml").read_text())
    >>> config_problems({**good, "books": 0, "trim": "folio"})
    ['books: 0 is less than the minimum of 1', "trim: 'folio' is not one of letter, 8.5x11, 6x9, a4, large-print"]
    """
    schema, _ = _load_yaml(schema_path or SCHEMA_PATH, "config schema")
    if not isinstance(config, dict):
        return [f"the config is {type(config).__name__}, not a mapping of keys to values"]
    errors = sorted(_validator(schema).iter_errors(config), key=lambda e: [str(p) for p in e.absolute_path])
    problems = [line for e in errors for line in _message(e)] + _non_finite(config)
    if problems:
        return list(dict.fromkeys(problems))
    return _cross_key_problems(config)


def check_config(config, schema_path=None) -> dict:
    """``config`` with the schema's defaults filled in, or an InputError naming each bad key.

    Raises
    ------
    InputError
        Its message one line per problem, each ``config: KEY: problem``
        (``config: books: 0 is less than the minimum of 1``).
    """
    problems = config_problems(config, schema_path)
    if problems:
        raise InputError("\n".join(f"config: {p}" for p in problems))
    return config


def check_config_or_exit(config, schema_path=None) -> dict:
    """The Snakefile's check: `check_config`, or its lines on stderr and exit status 1.

    Snakemake prints a ``SystemExit`` raised in a Snakefile as nothing at
    all, where an exception would come with its file, line and a frame of
    traceback; so the problems are printed here, alone.
    """
    try:
        return check_config(config, schema_path)
    except InputError as e:
        print(str(e), file=sys.stderr, flush=True)
        sys.exit(1)


def parse_config_option(text: str) -> tuple[str, object]:
    """``KEY=VALUE`` read as Snakemake's ``--config`` reads it.

    The value is tried as a whole number, a decimal, ``True``/``False``,
    then YAML (``[a, b]``; scalars inside stay strings), else kept as text;
    an empty value is null.  (Snakemake's own ``snakemake.cli.parse_config``
    does the same, but importing ``snakemake.cli`` takes seconds here.)

    Examples
    --------
    >>> parse_config_option("books=3"), parse_config_option("renderers=[latex]")
    (('books', 3), ('renderers', ['latex']))
    >>> parse_config_option("nyt_submission=True"), parse_config_option("clue_file=")
    (('nyt_submission', True), ('clue_file', None))
    """
    import yaml

    key, eq, raw = text.partition("=")
    if not eq or not key:
        raise InputError(f"--config {text!r}: write KEY=VALUE, e.g. books=3")
    if raw == "":
        return key, None
    for parse in (int, float):
        try:
            return key, parse(raw)
        except ValueError:
            pass
    if raw in ("True", "False"):
        return key, raw == "True"
    try:
        value = yaml.load(raw, Loader=yaml.BaseLoader)
    except yaml.YAMLError:
        return key, raw
    return key, raw if value is None or callable(value) else value


def load_config(paths=(), options=(), base=None, schema_path=None) -> dict:
    """The config as ``snakemake --configfile PATH ... --config KEY=VALUE ...`` sees it, checked.

    Parameters
    ----------
    paths : list of str or os.PathLike
        Config files merged, in order, over ``base``.
    options : list of str
        ``KEY=VALUE`` options (`parse_config_option`) merged over them.
    base : str or os.PathLike, optional
        The Snakefile's own ``configfile:``; default ``config/config.yaml``
        beside `SCHEMA_PATH`.

    Raises
    ------
    InputError
        A missing or unreadable file, YAML that does not parse or is not a
        mapping, a malformed option, or the problems `check_config` finds.
    """
    from snakemake.utils import update_config  # how Snakemake lays one config over another

    config: dict = {}
    for path in [base or SCHEMA_PATH.with_name("config.yaml"), *paths]:
        data, line = _load_yaml(path, "config file")
        if data is None:
            continue
        if not isinstance(data, dict):
            raise InputError(f"the config is a {type(data).__name__}, not a mapping of keys to values", path, line)
        update_config(config, data)
    for option in options:
        update_config(config, dict([parse_config_option(option)]))
    return check_config(config, schema_path)


def fill_plan(config: dict) -> dict:
    """The config's sections and its ``auto`` values worked out for its books' size.

    Returns ``sections`` (`pipeline.model.sections.sections_of`),
    ``puzzles`` (a book's, over its sections), ``patterns_per_shard`` (one
    number per section: its puzzles in every book `PATTERNS_PER_PUZZLE`
    times over, plus `SPARE_PATTERNS` a book, over the shards),
    ``max_answer_repeats`` (`pipeline.fill.reuse.auto_max_uses` of the
    book's puzzles) and ``fill_batches`` (the fill jobs of one book,
    `pipeline.fill.batch.batch_count`).

    Examples
    --------
    >>> plan = fill_plan({"books": 1, "puzzles_per_book": 150, "pattern_shards": 4, "patterns_per_shard": "auto",
    ...                   "max_answer_repeats": "auto", "fill_batch_size": 50, "grid_size": 15, "grid_rows": None,
    ...                   "grid_cols": None, "pattern_style": "american", "difficulty": "medium"})
    >>> plan["patterns_per_shard"], plan["max_answer_repeats"], plan["fill_batches"]
    ([115], 5, 3)
    """
    from .fill.batch import batch_count
    from .fill.reuse import auto_max_uses
    from .model.sections import sections_of

    sections = sections_of(config)
    puzzles = sum(s.count for s in sections)
    repeats = config["max_answer_repeats"]
    repeats = auto_max_uses(puzzles) if repeats == "auto" else repeats
    per_shard = []
    for section in sections:
        n = config["patterns_per_shard"]
        if n == "auto":
            wanted = config["books"] * (section.count * PATTERNS_PER_PUZZLE + SPARE_PATTERNS)
            n = -(-wanted // config["pattern_shards"])
        per_shard.append(n)
    return {
        "sections": sections,
        "puzzles": puzzles,
        "patterns_per_shard": per_shard,
        "max_answer_repeats": repeats,
        "fill_batches": batch_count(puzzles, config["fill_batch_size"], repeats),
    }
