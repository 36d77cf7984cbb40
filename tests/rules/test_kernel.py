"""The calculator kernel: inputs declared once, in the signature, for the whole registry."""

from __future__ import annotations

import ast
import importlib
import inspect
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import pytest

import rules_pkg
from rules_pkg import In, Result, RulesError, registry
from rules_pkg.kernel import Document, Each, calculator, derive_inputs

CALCULATORS = rules_pkg.calculators()
PACKAGE = Path(rules_pkg.__file__).parent


def public_function(calc: rules_pkg.Calculator) -> Any:
    """The decorated function a Python caller uses, found in the game's module."""
    module = importlib.import_module(f"rules_pkg.{calc.game}")
    found = [f for f in vars(module).values() if getattr(f, "calculator", None) is calc]
    assert len(found) == 1, f"{calc.id}: no public function"
    return found[0]


@pytest.mark.parametrize("calc", CALCULATORS, ids=[c.id for c in CALCULATORS])
def test_python_callers_and_the_browser_get_the_same_defaults(calc: rules_pkg.Calculator,
                                                              ) -> None:
    fn = public_function(calc)
    signature = inspect.signature(inspect.unwrap(fn)).parameters
    browser = {i["name"]: i["default"] for i in calc.to_dict()["inputs"]}
    for name, default in browser.items():
        if name in signature:  # a grouped input (Each) has its default where it is declared
            assert signature[name].default == default, f"{calc.id}.{name}"
    try:
        direct: Result | str = fn()
    except RulesError as e:
        direct = str(e)
    try:
        through_form: Result | str = calc.run(**browser)
    except RulesError as e:
        through_form = str(e)
    assert direct == through_form


@pytest.mark.parametrize("calc", CALCULATORS, ids=[c.id for c in CALCULATORS])
def test_positional_arguments_are_refused_with_a_rules_error(calc: rules_pkg.Calculator,
                                                              ) -> None:
    # issue #29 item 6: the function and the registry's run() both name the keyword form
    first = calc.inputs[0]
    keyword = f"{first.name}={first.default!r}"
    name = inspect.unwrap(public_function(calc)).__name__
    with pytest.raises(RulesError, match=re.escape(f"by name, as {name}({keyword}")):
        public_function(calc)(1)
    with pytest.raises(RulesError, match=re.escape(f"by name, as run({keyword}")):
        calc.run(5)
    with pytest.raises(RulesError, match="not by position"):
        calc.run(5, **{first.name: first.default})


def test_no_input_is_declared_outside_a_signature() -> None:
    """An Input(...) in a game module (a second place for a default) is allowed only in a
    function that an Each(...) names: inputs that follow the rows of the data. The odds
    panel's own questions (takeout.py: what no calculator of the game asks, such as
    d100's weapon dice) are declared once there."""
    for game in registry.game_modules():
        path = PACKAGE / f"{game}.py"
        paths = [path] if path.exists() else sorted((PACKAGE / game).glob("*.py"))
        for p in paths:
            if p.name == "takeout.py":
                continue
            tree = ast.parse(p.read_text("utf-8"))
            each = {n.args[0].id for n in ast.walk(tree) if isinstance(n, ast.Call)
                    and getattr(n.func, "id", "") == "Each" and isinstance(n.args[0], ast.Name)}
            for fn in ast.walk(tree):
                if not isinstance(fn, ast.FunctionDef | ast.Module):
                    continue
                body = fn.body if isinstance(fn, ast.FunctionDef) else [
                    s for s in fn.body if not isinstance(s, ast.FunctionDef)]
                calls = [n for s in body for n in ast.walk(s) if isinstance(n, ast.Call)
                         and getattr(n.func, "id", "") == "Input"]
                name = getattr(fn, "name", "<module>")
                assert not calls or name in each, f"{p.name}: Input(...) in {name}"


def test_every_game_with_data_is_imported_and_registers_calculators() -> None:
    data_games = {p.stem for p in (PACKAGE / "data").glob("*.json")}
    assert set(registry.game_modules()) == data_games
    assert {c.game for c in CALCULATORS} == data_games


# -- the kernel itself, on toy rules ---------------------------------------------------------
@dataclass(frozen=True)
class Fighter:
    ref: Annotated[int, In("REF", 1, 10)] = 5
    armed: Annotated[bool, In("Armed")] = True


def _extra() -> list[rules_pkg.Input]:
    return [rules_pkg.Input("x1", "Row 1", "bool", False)]


def _toy(*, n: Annotated[int, In("Dice", 0, 4)] = 2, side: Annotated[str, In(
        "Side", choices=(("a", "A"), ("b", "B")))] = "b", who: Fighter,
         rows: Annotated[Mapping[str, Any], Each(_extra)],
         note: Annotated[str, In("Note")] = "") -> Result:
    return Result(f"{n} {side} {who.ref} {who.armed} {dict(rows)} {note!r}")


def test_inputs_are_derived_from_the_signature() -> None:
    inputs = [i for p in derive_inputs(_toy) for i in p.inputs]
    assert [(i.name, i.kind, i.default) for i in inputs] == [
        ("n", "int", 2), ("side", "choice", "b"), ("ref", "int", 5), ("armed", "bool", True),
        ("x1", "bool", False), ("note", "text", "")]
    fn = calculator(id="toy.kernel", title="Toy", source="nowhere")(_toy)
    try:
        assert fn().summary == "2 b 5 True {'x1': False} ''"
        assert fn(ref="7", x1="yes").summary == "2 b 7 True {'x1': True} ''"
        with pytest.raises(RulesError, match="REF must be at most 10"):
            fn(ref=11)
        with pytest.raises(RulesError, match="by name"):
            fn(3)
        assert not fn.calculator.rolls  # type: ignore[attr-defined]
    finally:
        registry._REGISTRY.pop("toy.kernel")


def test_a_document_places_a_calculator_in_the_sections_it_cites_at() -> None:
    sheet = Document("cyberpunk_red", "The sheet")

    def toy(*, n: Annotated[int, In("N", 0, 3)] = 1) -> Result:
        return Result(str(n))

    fn = sheet.calculator(title="Toy", at="§ Melee combat, § Cover (Type of Cover)",
                          see="§ Taking damage", id="toy.placed")(toy)
    try:
        calc = fn.calculator  # type: ignore[attr-defined]
        # a "(...)" after a title says which part of the section: it is still that section
        assert calc.sections == ("melee-combat", "cover")
        assert calc.source == "The sheet § Melee combat, § Cover (Type of Cover), § Taking damage"
    finally:
        registry._REGISTRY.pop("toy.placed")
    with pytest.raises(RulesError, match="no section titled 'Hacking'"):
        sheet.calculator(title="Toy", at="§ Hacking")
    with pytest.raises(TypeError, match="names no section"):
        sheet.calculator(title="Toy", at="Melee combat")


def test_a_missing_declaration_or_default_is_a_type_error() -> None:
    def no_in(*, n: int = 1) -> Result:
        return Result("x")

    def no_default(*, n: Annotated[int, In("N", 0, 1)]) -> Result:
        return Result("x")

    for fn in (no_in, no_default):
        with pytest.raises(TypeError):
            derive_inputs(fn)


def test_the_two_drifted_defaults_of_issue_10_are_one_value_now() -> None:
    # forbidden_lands: the form said defender_skill 1, the signature 0; mecha: weapon_dice
    # 1 against 0. A Python caller now gets what the form offers.
    from rules_pkg import forbidden_lands, mecha

    for fn, name in ((forbidden_lands.attack, "defender_skill"), (mecha.attack, "weapon_dice")):
        assert inspect.signature(inspect.unwrap(fn)).parameters[name].default == 1
        assert fn() == fn.calculator.run()


@pytest.mark.parametrize("calc", CALCULATORS, ids=[c.id for c in CALCULATORS])
def test_a_form_never_offers_a_size_the_engine_refuses(calc: rules_pkg.Calculator) -> None:
    """Issue #10 item 7: every whole-number input at its declared maximum, all at once, stays
    within the engine's limits (e.g. a 24-die Forbidden Lands pool against a 15-die cap)."""
    raw = {i.name: i.max for i in calc.inputs if i.kind == "int"}
    try:
        calc.run(**raw)
    except rules_pkg.LimitError as e:
        pytest.fail(f"{calc.id}: the form allows {raw} but the engine says {e}")
    except RulesError:
        pass  # a rule's own refusal (e.g. more damage than the dice can roll), not a limit


# -- an outcome written once: the kernel serves the exact answer and the seeded roll ------------
def test_no_calculator_branches_on_rng() -> None:
    """Issue #10: the kernel (kernel.rolled) decides between the odds and a roll; a rule
    module only passes `rng` on."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name == "kernel.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            test = getattr(node, "test", None)
            if isinstance(node, ast.If | ast.IfExp | ast.While) and test is not None and any(
                    isinstance(n, ast.Name) and n.id == "rng" for n in ast.walk(test)):
                found.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert not found, found


def test_rolled_reports_the_same_outcome_exact_seeded_or_typed_in() -> None:
    import random

    from rules_pkg.dice import expand, sample
    from rules_pkg.kernel import Roll, rolled
    from rules_pkg.result import Die

    def two_d6(draw: Any) -> int:
        return draw(6) + draw(6)

    def say(total: int, faces: Any) -> Roll:
        return Roll(f"rolled {total}", tuple(Die(s, f) for s, f in faces), (("Total", total),),
                    more=(("Last", total),), steps=(f"{total} on 2d6",))

    dist = expand(two_d6)
    exact = Result("mean 7", (("Mean", dist.mean()),), ("roll 2d6",))
    assert dist.mean() == 7
    plain = rolled(exact, None, two_d6, say, closing=("done",))
    assert plain.summary == "mean 7" and plain.steps == ("roll 2d6", "done") and not plain.dice
    got = rolled(exact, random.Random(4), two_d6, say, closing=("done",))
    total, faces = sample(two_d6, random.Random(4))  # the same program, the same dice
    assert got.summary == f"rolled {total}" and [d.value for d in got.dice] == [f for _, f in
                                                                                faces]
    assert [v[0] for v in got.values] == ["Total", "Mean", "Last"]
    assert got.steps == ("roll 2d6", f"{total} on 2d6", "done")
    typed = rolled(exact, None, two_d6, say, given=9)
    assert typed.summary == "rolled 9" and not typed.dice and typed.value("Total") == 9


def test_encounter_rules_are_found_for_every_game_module() -> None:
    import pkgutil
    from importlib import import_module

    from rules_pkg import encounter
    from rules_pkg.encounter import games

    # each game's encounter rules live in its own package; the core holds no game
    with_rules = {g for g in registry.game_modules() if "encounter" in {
        m.name for m in pkgutil.iter_modules(import_module(f"rules_pkg.{g}").__path__)}}
    assert set(games.RULES) == with_rules == set(registry.game_modules())
    assert all(r.sheet.game == g for g, r in games.RULES.items())
    core = {m.name for m in pkgutil.iter_modules(encounter.__path__)}
    assert not core & set(registry.game_modules())
