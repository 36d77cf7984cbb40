"""The answers a page carries, worked out at build time (scripts/site/page_answers.py, issue
13): for every calculator it places, the answer rules_pkg gives on CPython for the inputs
the form starts with (its defaults and the page's preset); exact answers only (nothing
rolled); and never markup, whatever text an answer holds."""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

import pytest
from test_page_registry import parse

import rules_pkg
from rules_pkg import RulesError
from scripts.site import page_answers, page_registry


def _starting(calc: Any, preset: dict[str, str]) -> dict[str, Any]:
    """The inputs a form starts with, as the calculator's own values (not as the form
    holds them): the check below does not go through page_answers.form_values."""
    return {i.name: preset.get(i.name, i.default) for i in calc.inputs}


def _built_pages(site_dir: Path) -> list[tuple[Path, list[tuple[str, dict[str, str]]],
                                               list[dict[str, Any]]]]:
    """Each built page with calculators: its hosts (id, preset) and the answers it carries."""
    out = []
    for page in sorted(site_dir.rglob("index.html")):
        tags = parse(page.read_text("utf-8"))
        hosts = [(a["data-calc"] or "", json.loads(a.get("data-preset") or "{}"))
                 for _, a in tags if "ts-calc" in (a.get("class") or "").split()]
        if not hosts:
            continue
        blocks = [a for _, a in tags if a.get("class") == "ts-answers"]
        assert len(blocks) <= 1, page
        assert all("hidden" in b for b in blocks), page
        answers = page_answers.carried(blocks[0]["data-answers"] or "") if blocks else []
        out.append((page, hosts, answers))
    return out


def test_every_calculator_ships_rules_pkg_s_answer_for_its_starting_inputs(
        site_dir: Path) -> None:
    """Every calculator, in registry order, on every page that places it: the page
    carries exactly Result.to_dict() for the inputs its form starts with, or nothing
    when the engine refuses those inputs; and no answer the page does not place."""
    pages = _built_pages(site_dir)
    checked: dict[str, int] = {}
    for calc in rules_pkg.calculators():  # registry order
        for page, hosts, answers in pages:
            for calc_id, preset in hosts:
                if calc_id != calc.id:
                    continue
                start = _starting(calc, preset)
                try:
                    expected = calc.run(**start).to_dict()
                except RulesError:  # refused: no answer for these starting inputs
                    assert not [a for a in answers if a["calc"] == calc.id
                                and a["inputs"] == page_answers.form_values(calc, preset)]
                    continue
                mine = [a for a in answers if a["calc"] == calc.id and all(
                    i.coerce(a["inputs"][i.name]) == i.coerce(start[i.name]) for i in calc.inputs)]
                assert len(mine) == 1, (page, calc.id, preset)
                # JSON both sides: what the page carries is what the bridge would send
                assert mine[0]["result"] == json.loads(json.dumps(expected)), (page, calc.id)
                assert set(mine[0]["inputs"]) == {i.name for i in calc.inputs}  # no roll, seed
                checked[calc.id] = checked.get(calc.id, 0) + 1
        assert checked.get(calc.id), f"no page carries an answer for {calc.id}"
    for page, hosts, answers in pages:  # nothing else: each answer is a placed calculator's
        placed = {c for c, _ in hosts}
        assert {a["calc"] for a in answers} <= placed, page
        assert len({json.dumps(a, sort_keys=True) for a in answers}) == len(answers), page
    assert len(checked) == len(rules_pkg.calculators())


def test_nothing_rolled_is_worked_out_ahead(site_dir: Path) -> None:
    """Exact answers only: a roll's dice come from a real roll in the browser."""
    for _page, _hosts, answers in _built_pages(site_dir):
        for a in answers:
            assert a["result"]["dice"] == [], a["calc"]
            assert not {"roll", "seed"} & set(a["inputs"]), a["calc"]


def test_inputs_are_as_the_form_holds_them() -> None:
    """forms/form.mjs writes String(value) into a box, a checkbox's state, a select's value (the
    default when the value is not a choice); readInputs reads those back."""
    calc = rules_pkg.get("d100.test")
    kinds = {i.kind for i in calc.inputs}
    assert {"int", "bool", "choice"} <= kinds
    values = page_answers.form_values(calc, {})
    for i in calc.inputs:
        shown = values[i.name]
        if i.kind == "bool":
            assert shown is bool(i.default)
        else:
            assert shown == str(i.default) and isinstance(shown, str)
    choice = next(i for i in calc.inputs if i.kind == "choice")
    assert page_answers.form_values(calc, {choice.name: "no such choice"})[choice.name] \
        == str(choice.default)
    flag = next(i for i in calc.inputs if i.kind == "bool")
    assert page_answers.form_values(calc, {flag.name: "yes"})[flag.name] is True
    assert page_answers.form_values(calc, {flag.name: "0"})[flag.name] is False


def test_refused_or_unknown_starting_inputs_give_no_answer() -> None:
    """A weapon the source gives no Reload number: the engine refuses; so no answer."""
    with pytest.raises(RulesError):
        rules_pkg.get("horizon.reload").run(weapon="simple-weapon")
    assert page_answers.answer("horizon.reload", '{"weapon": "simple-weapon"}') is None
    assert page_answers.answer("no.such_calculator", "{}") is None
    assert page_answers.block([("no.such_calculator", {})]) == ""


def test_hostile_text_stays_in_the_attribute(monkeypatch: pytest.MonkeyPatch) -> None:
    nasty = "</div><img src=x onerror=alert(1)>' onmouseover='x' & \"q\""
    entry = json.dumps({"calc": "g.x", "inputs": {"n": nasty},
                        "result": {"summary": nasty, "steps": [nasty]}}, ensure_ascii=False)
    monkeypatch.setattr(page_answers, "answer", lambda calc_id, preset: entry)
    tags = parse(page_answers.block([("g.x", {})]))
    assert [t for t, _ in tags] == ["div"]  # no img, no second element
    assert set(tags[0][1]) == {"class", "hidden", "data-answers"}  # no injected attribute
    assert json.loads(tags[0][1]["data-answers"] or "") == [json.loads(entry)]


def test_a_page_s_markdown_gets_both_blocks() -> None:
    text = ('<div class="ts-calc" data-calc="d100.test" data-preset=\'{}\'></div>\n'
            '<div class="ts-calc" data-calc="d100.test" data-preset=\'{}\'></div>\n')
    out = page_registry.with_registry(text)
    tags = [a.get("class") for _, a in parse(out)]
    assert tags.count("ts-registry") == 1 and tags.count("ts-answers") == 1
    answers = page_answers.carried(next(a for _, a in parse(out)
                                       if a.get("class") == "ts-answers")["data-answers"] or "")
    start = page_answers.form_values(rules_pkg.get("d100.test"), {})
    assert [a["inputs"] == start for a in answers].count(True) == 1  # the same start: once
    assert {a["calc"] for a in answers} == {"d100.test"}


def _one_change_from(calc: Any, start: dict[str, Any], inputs: dict[str, Any]) -> str | None:
    """The one input `inputs` changes from `start` (None: the same inputs)."""
    names = [i.name for i in calc.inputs if str(inputs[i.name]) != str(start[i.name])]
    assert len(names) <= 1, (calc.id, names)
    return names[0] if names else None


def test_every_page_carries_one_input_changes_within_its_budget(site_dir: Path) -> None:
    """Besides its starting answers, a page carries answers for changes of one input from
    a placed calculator's starting inputs, each rules_pkg's own answer for those inputs,
    and stays within its budget: BUDGET_GZIP, or CHANGES_GZIP beyond its starting answers
    (which go whatever their size)."""
    changes = 0
    for page, hosts, answers in _built_pages(site_dir):
        starts = [(c, page_answers.form_values(rules_pkg.get(c), p)) for c, p in hosts]
        only_starting = True
        for a in answers:
            calc = rules_pkg.get(a["calc"])
            moved = [_one_change_from(calc, s, a["inputs"]) for c, s in starts
                     if c == a["calc"] and sum(str(a["inputs"][i.name]) != str(s[i.name])
                                               for i in calc.inputs) <= 1]
            assert moved, (page, a["calc"], a["inputs"])  # one input from a start, at most
            if None not in moved:
                only_starting = False
                changes += 1
                expected = calc.run(**a["inputs"]).to_dict()
                assert a["result"] == json.loads(json.dumps(expected)), (page, a["inputs"])
        text = page.read_text("utf-8")
        element = text[text.index('<div class="ts-answers"'):]
        element = element[:element.index("</div>") + len("</div>")]
        starting = page_answers.gzip_size(page_answers.block(hosts, changes=False))
        assert only_starting or page_answers.gzip_size(element) <= page_answers.budget(starting)
    assert changes > 0


def test_the_nearest_changes_come_first() -> None:
    """A stepper's +1 and -1 and a checkbox toggled before two steps away; a whole number
    never past its limits, nor past INT_REACH."""
    calc = rules_pkg.get("d100.test")
    start = page_answers.form_values(calc, {})
    found = page_answers.changes(calc, start)
    steps = {(name, str(value)): d for d, name, value in found}
    assert steps[("characteristic", "41")] == steps[("characteristic", "39")] == 1
    assert steps[("horde", "True")] == 1 and steps[("characteristic", "42")] == 2
    assert ("size", "11") not in steps and steps[("size", "5")] == 1  # size 1-10, from 4
    assert max(d for d, name, _ in found if name == "characteristic") == page_answers.INT_REACH
    block = page_answers.block([("d100.test", {})])
    carried = page_answers.carried(html.unescape(block.split("data-answers='")[1].split("'")[0]))
    kept = {(n, str(a["inputs"][n])) for a in carried for n in a["inputs"]
            if str(a["inputs"][n]) != str(start[n])}
    assert {("characteristic", "41"), ("characteristic", "39"), ("horde", "True")} <= kept
    assert page_answers.gzip_size(block) <= page_answers.BUDGET_GZIP


def test_exact_numbers_are_carried_as_their_fraction_only() -> None:
    """{"text": "p/q", "value": p/q} is carried as {"frac": "p/q"} only when p/q gives the
    value back; anything else as it is."""
    exact = {"text": "7/54", "value": 0.12962962962962962}
    assert page_answers.compact([exact]) == [{"frac": "7/54"}]
    assert page_answers.expand({"odds": [{"frac": "7/54"}]}) == {"odds": [exact]}
    for kept in ({"text": "1/3", "value": 0.3}, {"text": "4.00", "value": 4.0},
                 {"text": f"{2**60}/3", "value": 2**60 / 3}, {"value": 0.5, "text": "1/2"}):
        assert page_answers.compact(kept) == kept


def test_odds_rows_are_carried_without_their_tail_sums() -> None:
    """An odds table whose rows' at_least are each the sum of exactly from that row down
    (result.py's Odds, cumulative) is carried without them, and expand() gives the table
    back exactly, key order included; any other table is carried as it is."""
    calc = rules_pkg.get("horizon.combat_test")
    live = json.loads(json.dumps(calc.run(**page_answers.form_values(calc, {})).to_dict()))
    carried = page_answers.compact(live)
    assert carried["odds"] and all(t["at_least"] == "sum" for t in carried["odds"])
    assert all(list(r) == ["outcome", "exactly"] for t in carried["odds"] for r in t["rows"])
    back = page_answers.expand(carried)
    assert json.dumps(back) == json.dumps(live)  # the same text: values, keys and order
    half = {"text": "1/2", "value": 0.5}
    not_sums = {"title": "t", "rows": [{"outcome": "a", "exactly": half, "at_least": half},
                                       {"outcome": "b", "exactly": half, "at_least": half}]}
    assert "at_least" not in page_answers.compact(not_sums)
    assert page_answers.expand(page_answers.compact(not_sums)) == not_sums


def test_a_page_with_large_starting_answers_still_gets_room_for_changes() -> None:
    """BUDGET_GZIP for a page, but CHANGES_GZIP beyond its starting answers when those take
    more than the difference (Cyberpunk RED's Encounter page: 26 calculators)."""
    small = page_answers.BUDGET_GZIP - page_answers.CHANGES_GZIP
    assert page_answers.budget(small) == page_answers.BUDGET_GZIP
    assert page_answers.budget(small + 1) == page_answers.BUDGET_GZIP + 1
    assert page_answers.budget(9_000) == 9_000 + page_answers.CHANGES_GZIP
    sheet = [(c.id, {}) for c in rules_pkg.calculators() if c.id.startswith("cyberpunk_red.")]
    starting = page_answers.gzip_size(page_answers.block(sheet, changes=False))
    assert starting > page_answers.BUDGET_GZIP - page_answers.CHANGES_GZIP
    both = page_answers.block(sheet)
    assert starting < page_answers.gzip_size(both) <= page_answers.budget(starting)
