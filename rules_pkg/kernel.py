"""The calculator kernel: a rule function's signature is its form.

Each input is declared once, in the signature of the rule function, with its default:

    @calculator(title=..., source=...)  # in rules_pkg/<game>/: the id is <game>.check
    def check(*, ref: Annotated[int, In("REF", 1, 10)] = 5, ...) -> Result: ...

The kind of the form control follows from the type (`int`, `bool`, `str` with choices, `str`).
A group of inputs shared by several calculators (an attacker, a defender, armour) is a frozen
dataclass whose fields are declared the same way; a parameter typed with it becomes those
inputs and the function gets the dataclass. `calculator` returns a function that validates
its named inputs exactly as the browser's do, so a Python caller and the browser get the same
defaults and the same refusals.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import random
import re
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, get_args, get_origin

from . import data
from .dice import Draw, sample
from .registry import Bound, Calculator, Input, Unlike, register
from .result import Die, Highlight, Result

__all__ = ["Bound", "Document", "Each", "In", "Part", "Roll", "Unlike", "calculator",
           "derive_inputs", "rolled"]

T = typing.TypeVar("T")
Faces = tuple[tuple[int, int], ...]  # the dice a seeded run drew, as (sides, face)


@dataclass(frozen=True)
class In:
    """What the form needs beyond the type and the default: label, limits, choices, help."""

    label: str
    min: int | None = None
    max: int | None = None
    choices: tuple[tuple[str, str], ...] = ()  # (value, label)
    help: str = ""
    from_table: str = ""  # see Input.from_table
    kind: str = ""  # only to force "text" or "choice" where the type cannot say
    min_by: Bound | None = None  # a limit that follows other inputs (registry.Bound)
    max_by: Bound | None = None
    unlike: Unlike | None = None  # registry.Unlike: a value the other input holds


@dataclass(frozen=True)
class Each:
    """Inputs that follow the data (one per row of a modifier table, say).

    `Annotated[Mapping[str, Any], Each(rows)]`: `rows()` gives the inputs, each declared
    there once with its default; the function gets their values by name.
    """

    inputs: Callable[[], Sequence[Input]]


@dataclass(frozen=True)
class _Param:
    """How one parameter of the rule function is filled: one input, or a group of them."""

    name: str
    group: type | None  # the dataclass of a group, or None for a single input
    inputs: tuple[Input, ...]
    each: bool = False  # inputs from Each: the function gets a mapping


def _input(name: str, hint: Any, default: Any, where: str) -> Input:
    if get_origin(hint) is not typing.Annotated:
        raise TypeError(f"{where}: input {name!r} needs Annotated[type, In(...)]")
    base, *extras = get_args(hint)
    meta = next((e for e in extras if isinstance(e, In)), None)
    if meta is None:
        raise TypeError(f"{where}: input {name!r} has no In(...) declaration")
    if default is inspect.Parameter.empty or default is dataclasses.MISSING:
        raise TypeError(f"{where}: input {name!r} needs a default (written in the signature)")
    kind: Any
    if meta.kind:
        kind = meta.kind
    elif base is bool:
        kind = "bool"
    elif base is int:
        kind = "int"
    elif meta.choices:
        kind = "choice"
    else:
        kind = "text"
    return Input(name, meta.label, kind, default, meta.min, meta.max, tuple(meta.choices),
                 meta.help, meta.from_table, meta.min_by, meta.max_by, meta.unlike)


def derive_inputs(fn: Callable[..., Any]) -> tuple[_Param, ...]:
    """The inputs a rule function declares in its signature (`rng` is not an input)."""
    where = f"{fn.__module__}.{fn.__qualname__}"
    hints = typing.get_type_hints(fn, include_extras=True)
    params: list[_Param] = []
    for p in inspect.signature(fn).parameters.values():
        if p.name == "rng":
            continue
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            raise TypeError(f"{where}: *args/**kwargs cannot be form inputs")
        hint = hints.get(p.name)
        each = next((e for e in get_args(hint)[1:] if isinstance(e, Each)), None)
        if each is not None:
            params.append(_Param(p.name, None, tuple(each.inputs()), each=True))
        elif isinstance(hint, type) and dataclasses.is_dataclass(hint):
            ghints = typing.get_type_hints(hint, include_extras=True)
            group = tuple(_input(f.name, ghints[f.name], f.default, f"{where}.{p.name}")
                          for f in dataclasses.fields(hint))
            params.append(_Param(p.name, hint, group))
        else:
            params.append(_Param(p.name, None, (_input(p.name, hint, p.default, where),)))
    return tuple(params)


def _arguments(params: Sequence[_Param], values: Mapping[str, Any]) -> dict[str, Any]:
    args: dict[str, Any] = {}
    for p in params:
        if p.each:
            args[p.name] = {i.name: values[i.name] for i in p.inputs}
        elif p.group is None:
            args[p.name] = values[p.name]
        else:
            args[p.name] = p.group(**{i.name: values[i.name] for i in p.inputs})
    return args


def _derived_id(fn: Callable[..., Any]) -> str:
    package, _, rest = fn.__module__.partition(".")
    game = rest.partition(".")[0]
    if package != "rules_pkg" or not game:
        raise TypeError(f"{fn.__module__}.{fn.__qualname__}: outside rules_pkg.<game>, "
                        "a calculator needs id=")
    return f"{game}.{fn.__name__}"


def calculator(*, title: str, source: str, id: str = "", tables: Sequence[str] = (),
               description: str = "", sections: Sequence[str] = (),
               ) -> Callable[[Callable[..., Result]], Callable[..., Result]]:
    """Register a rule function as a calculator; its signature declares the inputs.

    The id is `<game>.<function name>`, the game being the package the function is in
    (`rules_pkg.<game>.…`); `id=` is written only where the id differs from that.
    A function with an `rng` parameter rolls dice when asked (`roll=True`, `seed=`).
    The returned function takes named inputs only, validated as the browser's are.
    """

    def decorate(fn: Callable[..., Result]) -> Callable[..., Result]:
        calc_id = id or _derived_id(fn)
        game = calc_id.split(".", 1)[0]
        params = derive_inputs(fn)
        inputs = tuple(i for p in params for i in p.inputs)
        rolls = "rng" in inspect.signature(fn).parameters

        def call(rng: random.Random | None = None, **values: Any) -> Result:
            args = _arguments(params, values)
            return fn(rng=rng, **args) if rolls else fn(**args)

        calc = Calculator(calc_id, game, title, source, inputs, call, rolls, tuple(tables),
                          description, tuple(sections),
                          origin=(fn.__module__, fn.__code__.co_firstlineno))
        register(calc)

        @functools.wraps(fn)
        def named_only(*args: Any, **raw: Any) -> Result:
            calc.by_name_only(args, fn.__name__)
            rng = raw.pop("rng", None)
            if rng is not None and rolls:  # a caller's own random.Random (tests)
                return calc.answer(calc.validate(raw), rng)
            return calc.run(**raw)

        named_only.calculator = calc  # type: ignore[attr-defined]
        return named_only

    return decorate


@dataclass(frozen=True)
class Part:
    """A part of a source several calculators stand on: the words each one's `source`
    starts with, and the tables and sections they all go by, written once."""

    source: str
    tables: tuple[str, ...] = ()
    sections: tuple[str, ...] = ()

    def calculator(self, *, title: str, at: str = "", id: str = "", description: str = "",
                   tables: Sequence[str] | None = None,
                   ) -> Callable[[Callable[..., Result]], Callable[..., Result]]:
        """`calculator` for a rule of this part; `at`: where in it (added to its source);
        `tables`: where a rule of the part whose own table it is stands instead."""
        return calculator(title=title, source=self.source + at, id=id,
                          tables=self.tables if tables is None else tables,
                          description=description, sections=self.sections)


@dataclass(frozen=True)
class Document:
    """A source whose calculators stand in the sections they cite.

    `at`: the sections a rule is placed in, as the source titles them ("§ Melee combat,
    § Cover"), cited first; `see`: the further sections it reads. Each section's id is
    looked up in the extracted data, so the placement is written once and a citation of a
    section the source does not have fails at import.
    """

    game: str
    title: str

    def calculator(self, *, title: str, at: str, see: str = "", id: str = "",
                   tables: Sequence[str] = (),
                   ) -> Callable[[Callable[..., Result]], Callable[..., Result]]:
        cited = re.findall(r"§ ([^§]+?)(?:, )?(?=§|$)", at)
        if not cited:
            raise TypeError(f"{title}: at= names no section (\"§ Title, § Title\")")
        return calculator(title=title, source=f"{self.title} {at}" + (f", {see}" if see else ""),
                          id=id, tables=tables,
                          sections=tuple(data.section_id(self.game, c) for c in cited))


# -- an outcome written once: the exact answer, or the same outcome on seeded dice -------------
@dataclass(frozen=True)
class Roll:
    """What one seeded roll adds to the exact answer: its own summary, the dice shown, and
    values put first (what was rolled; `more`: put last), steps and highlights put after the
    exact ones."""

    summary: str
    dice: tuple[Die, ...] = ()
    values: tuple[tuple[Any, ...], ...] = ()
    more: tuple[tuple[Any, ...], ...] = ()
    steps: tuple[str, ...] = ()
    highlight: tuple[Highlight, ...] = ()
    notes: tuple[str, ...] = ()


def rolled(exact: Result, rng: random.Random | None, outcome: Callable[[Draw], T],
           say: Callable[[T, Faces], Roll], closing: tuple[str, ...] = (),
           given: T | None = None) -> Result:
    """The exact answer; when asked to roll, `outcome` (the very program whose distribution
    the exact answer is, see dice.expand) is run once on seeded dice and `say` reports it.
    `given`: an outcome rolled at the table and typed in, reported the same way (with no
    dice shown) when not rolling here. `closing`: the steps that end the explanation either
    way (after a roll's own)."""
    if rng is not None:
        got, faces = sample(outcome, rng)
    elif given is not None:
        got, faces = given, ()
    else:
        return dataclasses.replace(exact, steps=exact.steps + closing)
    r = say(got, faces)
    return dataclasses.replace(
        exact, summary=r.summary, dice=exact.dice + r.dice, values=r.values + exact.values + r.more,
        steps=exact.steps + r.steps + closing, highlight=exact.highlight + r.highlight,
        notes=exact.notes + r.notes)
