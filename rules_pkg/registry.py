"""One registry of calculators: the browser renders its forms from it.

A calculator is a pure function over validated inputs, plus the metadata
(`id`, `title`, `source`, typed `inputs`) a UI needs to build a form. Adding a
calculator means decorating a function with `@calculator(...)`; no UI code.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from .errors import InputError, RulesError
from .result import Result
from .shapes import (
    BoundDict,
    CalculatorDict,
    InputDict,
    InputKind,
    UnlikeDict,
)

MAX_SEED = 2**32 - 1
_MAX_TEXT = 200


def _key(value: Any) -> str:
    """An input's value as a Bound's table keys it (and as the form's fields hold it)."""
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


@dataclass(frozen=True)
class Bound:
    """A limit of one input that follows other inputs, declared once: the engine checks it
    (Calculator.validate) and the form reads it (to_dict), so a form never offers a value
    the engine then refuses. Either a table keyed by the values of the inputs `on` (a
    combination it does not list has no limit), or `per` x the int input `on[0]` + `plus`.
    `rows` is called once, when first needed (reading the data stays out of the import)."""

    on: tuple[str, ...]
    why: str  # the rule, in words: "the weapon's Magazine"
    rows: Callable[[], Mapping[tuple[Any, ...], int]] | None = field(default=None,
                                                                      compare=False)
    per: int = 0
    plus: int = 0

    def table(self) -> dict[tuple[str, ...], int]:
        cached: dict[tuple[str, ...], int] | None = self.__dict__.get("_table")
        if cached is None:
            rows = self.rows() if self.rows else {}
            cached = {tuple(_key(v) for v in k): n for k, n in rows.items()}
            object.__setattr__(self, "_table", cached)
        return cached

    def at(self, values: Mapping[str, Any]) -> int | None:
        """The limit for these input values (None: no limit)."""
        if self.rows is None:
            return int(self.per * values[self.on[0]] + self.plus)
        return self.table().get(tuple(_key(values[n]) for n in self.on))

    def to_dict(self) -> BoundDict:
        d: BoundDict = {"on": list(self.on), "why": self.why}
        if self.rows is None:
            d["per"], d["plus"] = self.per, self.plus
        else:
            # JSON has no tuples: lists, as registry.json gives them back (typed as pairs)
            d["table"] = cast(Any, [[list(k), n] for k, n in sorted(self.table().items())])
        return d


@dataclass(frozen=True)
class Unlike:
    """An input whose value another int input may not hold too (two combatants' initiative
    cards), declared once on one of the two: the engine refuses the pair, and the form's
    steppers of both step over the other's value."""

    on: str  # the other input
    why: str  # the rule, in words

    def to_dict(self) -> UnlikeDict:
        return {"on": self.on, "why": self.why}


@dataclass(frozen=True)
class Input:
    """One typed input of a calculator; the UI renders a control from it."""

    name: str
    label: str
    kind: InputKind = "int"
    default: Any = 0
    min: int | None = None
    max: int | None = None
    choices: tuple[tuple[str, str], ...] = ()  # (value, label)
    help: str = ""
    # Preset from the page: on a page carrying table "<from_table><value>", this input
    # starts as <value> (e.g. from_table="profile-" presets the weapon of a profile page).
    from_table: str = ""
    min_by: Bound | None = None  # limits that follow other inputs (see Bound)
    max_by: Bound | None = None
    unlike: Unlike | None = None  # a value the other input holds is refused (see Unlike)

    def coerce(self, raw: Any) -> Any:
        """Turn a raw value (a Python value, or text from a form or URL) into a valid one."""
        if self.kind == "int":
            value = _to_int(raw, self.label)
            if self.min is not None and value < self.min:
                raise RulesError(f"{self.label} must be at least {self.min} (got {value})")
            if self.max is not None and value > self.max:
                raise RulesError(f"{self.label} must be at most {self.max} (got {value})")
            return value
        if self.kind == "bool":
            if isinstance(raw, bool):
                return raw
            text = str(raw).strip().lower()
            if text in {"1", "true", "yes", "on"}:
                return True
            if text in {"0", "false", "no", "off", ""}:
                return False
            raise RulesError(f"{self.label} must be yes or no (got {str(raw)[:40]!r})")
        if self.kind == "choice":
            text = str(raw)
            if text not in {v for v, _ in self.choices}:
                raise RulesError(f"{self.label}: {text[:60]!r} is not one of the choices")
            return text
        text = str(raw)
        if len(text) > _MAX_TEXT:
            raise RulesError(f"{self.label} is too long (at most {_MAX_TEXT} characters)")
        return text

    def to_dict(self) -> InputDict:
        d: InputDict = {"name": self.name, "label": self.label, "kind": self.kind,
                             "default": self.default}
        if self.min is not None:
            d["min"] = self.min
        if self.max is not None:
            d["max"] = self.max
        if self.choices:
            d["choices"] = [list(c) for c in self.choices]
        if self.help:
            d["help"] = self.help
        if self.from_table:
            d["from_table"] = self.from_table
        if self.min_by is not None:
            d["min_by"] = self.min_by.to_dict()
        if self.max_by is not None:
            d["max_by"] = self.max_by.to_dict()
        if self.unlike is not None:
            d["unlike"] = self.unlike.to_dict()
        return d

    def check_bounds(self, values: Mapping[str, Any]) -> None:
        """Refuse a value outside the limits that follow the other inputs."""
        value = values[self.name]
        low = self.min_by.at(values) if self.min_by else None
        if low is not None and value < low:
            raise RulesError(f"{self.label} must be at least {low} with "
                             f"{self.min_by.why if self.min_by else ''} (got {value})")
        high = self.max_by.at(values) if self.max_by else None
        if high is not None and value > high:
            raise RulesError(f"{self.label} must be at most {high} with "
                             f"{self.max_by.why if self.max_by else ''} (got {value})")



_ASCII_INT = re.compile(r"[+-]?[0-9]+")


def _to_int(raw: Any, label: str) -> int:
    if isinstance(raw, bool):
        raise RulesError(f"{label} must be a whole number")
    if isinstance(raw, int):
        return raw
    if isinstance(raw, float) and raw.is_integer():
        return int(raw)
    text = str(raw).strip()
    if not text:
        raise RulesError(f"{label} is empty: enter a whole number")
    # ASCII digits with at most one sign: str.isdigit() also accepts "²" and "٣", and
    # lstrip("+-") accepted "+-5"; int() refuses or reinterprets those.
    if len(text) > 12 or not _ASCII_INT.fullmatch(text):
        raise RulesError(f"{label} must be a whole number written with the digits 0-9, "
                         f"e.g. 3 or -2 (got {text[:20]!r})")
    return int(text)


@dataclass(frozen=True)
class Calculator:
    id: str  # "<game>.<name>"
    game: str
    title: str
    source: str  # document and section it implements (and any standard rule it adds)
    inputs: tuple[Input, ...]
    fn: Callable[..., Result] = field(repr=False, compare=False)
    rolls: bool = False  # takes an `rng` argument and can roll dice
    # fnmatch patterns of the extracted table ids it belongs next to, e.g. "profile-*"
    tables: tuple[str, ...] = ()
    description: str = ""
    # fnmatch patterns of the extracted section ids whose rules it implements: a section
    # with no table of its own still gets its calculator (e.g. "death-save").
    sections: tuple[str, ...] = ()
    # where its rule function is defined (module, line): its place in the registry's order
    origin: tuple[str, int] = field(default=("", 0), compare=False, repr=False)

    def validate(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        known = {i.name for i in self.inputs} | {"seed", "roll"}
        unknown = sorted(set(raw) - known)
        if unknown:
            raise RulesError(f"unknown input(s) for {self.title}: {', '.join(unknown)}")
        values = {i.name: i.coerce(raw[i.name]) if i.name in raw else i.default
                  for i in self.inputs}
        for i in self.inputs:
            if i.min_by or i.max_by:
                i.check_bounds(values)
            if i.unlike is not None and values[i.name] == values[i.unlike.on]:
                other = next(x.label for x in self.inputs if x.name == i.unlike.on)
                raise RulesError(f"{i.label} cannot be {values[i.name]} when {other} is too: "
                                 f"{i.unlike.why}")
        return values

    def by_name_only(self, args: Sequence[Any], call: str) -> None:
        """Refuse values given by position: an input is known by its name only."""
        if args:
            example = ", ".join(f"{i.name}={i.default!r}" for i in self.inputs[:2])
            raise RulesError(f"{self.title}: give the inputs by name, as {call}({example}"
                             f"{', ...' if len(self.inputs) > 2 else ''}), not by position")

    def run(self, *args: Any, **raw: Any) -> Result:
        """Validate inputs (limits first, before any work) and run the rule.

        For a calculator that rolls, `roll=True` rolls dice with `random.Random(seed)`
        (a fresh random seed when none is given); otherwise it only computes.
        """
        self.by_name_only(args, "run")
        values = self.validate(raw)
        if self.rolls:
            rng: random.Random | None = None
            if Input("roll", "Roll", "bool", False).coerce(raw.get("roll", False)):
                seed = raw.get("seed")
                if seed is None or seed == "":
                    rng = random.Random()
                else:
                    rng = random.Random(Input("seed", "Seed", "int", 0, 0, MAX_SEED).coerce(seed))
            return self.answer(values, rng)
        return self.answer(values)

    def answer(self, values: Mapping[str, Any], rng: random.Random | None = None) -> Result:
        """The rule on validated values; a refusal blamed on one input is given its label."""
        try:
            return self.fn(rng=rng, **values) if self.rolls else self.fn(**values)
        except InputError as e:
            raise e.named((i.name, i.label) for i in self.inputs) from None

    def to_dict(self) -> CalculatorDict:
        return {"id": self.id, "game": self.game, "title": self.title, "source": self.source,
                "description": self.description, "rolls": self.rolls,
                "tables": list(self.tables), "sections": list(self.sections),
                "inputs": [i.to_dict() for i in self.inputs]}


_REGISTRY: dict[str, Calculator] = {}
# The registry in order, keyed by its (id, object) pairs: sorted again only when it changed.
_IN_ORDER: dict[tuple[tuple[str, int], ...], tuple[Calculator, ...]] = {}

def register(calc: Calculator) -> None:
    """Add a calculator (kernel.calculator does this for a decorated rule function)."""
    if calc.id in _REGISTRY:
        raise RuntimeError(f"calculator {calc.id} registered twice")
    _REGISTRY[calc.id] = calc


@functools.cache
def game_modules() -> tuple[str, ...]:
    """The games, found rather than listed: each module or package of rules_pkg that has
    extracted data of its own (`rules_pkg/data/<name>.json`, written by `make data`).
    Found once per process: the package's files do not change while it runs, and in the
    browser (a zip) looking costs ~0.1 s, which every calculators() and get() paid."""
    import os
    import pkgutil
    from importlib import resources

    package_path = [os.path.dirname(__file__)]  # the package's __path__, without importing it
    data_dir = resources.files("rules_pkg").joinpath("data")
    return tuple(sorted(m.name for m in pkgutil.iter_modules(package_path)
                        if data_dir.joinpath(f"{m.name}.json").is_file()))


def exports(package: str, modules: Sequence[str]) -> dict[str, Any]:
    """A game package's names, derived from its modules (in `MODULES` order) so the
    package lists none of them again: each module's names without a leading underscore,
    but for what it imports from outside the game (a class or function of another module,
    a module, its `from __future__` flag). A name two modules give two meanings fails."""
    import importlib
    import inspect

    def imported(value: Any) -> bool:
        if inspect.ismodule(value):
            return True
        defined = inspect.isclass(value) or inspect.isfunction(value) or hasattr(
            value, "__wrapped__")  # not a bound method: `spec.read` is declared where it stands
        home = value.__module__ if defined else ""
        return bool(home) and home != package and not home.startswith(package + ".")

    names: dict[str, Any] = {}
    for name in modules:
        module = importlib.import_module(f"{package}.{name}")
        for k, value in vars(module).items():
            if k.startswith("_") or k == "annotations" or imported(value):
                continue
            if k in names and names[k] is not value:
                raise RuntimeError(f"{package}: {k} means one thing in {name} and another "
                                   "in a module before it")
            names[k] = value
    return names


def calculators() -> tuple[Calculator, ...]:
    """Every registered calculator, in the order the games declare (`order`), whatever
    order their modules happened to be imported in.

    Every game is imported: one that fails to import fails here, loudly.
    """
    import importlib

    games = game_modules()
    modules = {name: getattr(importlib.import_module(f"rules_pkg.{name}"), "MODULES", ())
               for name in games}
    key = tuple((k, id(c)) for k, c in _REGISTRY.items())  # sorted once per registry
    if key not in _IN_ORDER:
        _IN_ORDER.clear()
        _IN_ORDER[key] = tuple(sorted(_REGISTRY.values(),
                                      key=lambda c: order(c, games, modules)))
    return _IN_ORDER[key]


def order(calc: Calculator, games: tuple[str, ...],
          modules: Mapping[str, tuple[str, ...]]) -> tuple[int, str, int, int]:
    """A calculator's place: its game (by name), then its module as the game package's
    `MODULES` lists them (the source's own sections, in the source's order), then the line
    its rule is defined on. A module a game does not list fails loudly; a calculator of no
    game (a test's toy) goes last."""
    module, line = calc.origin
    if calc.game not in games:
        return (len(games), calc.game, 0, line)
    package = f"rules_pkg.{calc.game}"
    if module == package:  # a game that is one module
        return (games.index(calc.game), calc.game, 0, line)
    name = module.removeprefix(package + ".").split(".", 1)[0]
    if not module.startswith(package + ".") or name not in modules[calc.game]:
        raise RuntimeError(f"{calc.id} is defined in {module or 'no module'}, which "
                           f"{package}.MODULES does not list: add it where its section "
                           "stands in the source")
    return (games.index(calc.game), calc.game, modules[calc.game].index(name), line)


def get(calc_id: str) -> Calculator:
    if calc_id in _REGISTRY:  # its game is imported: no need to import (or sort) them all
        return _REGISTRY[calc_id]
    calculators()
    try:
        return _REGISTRY[calc_id]
    except KeyError:
        raise RulesError(f"no calculator called {calc_id!r}") from None
