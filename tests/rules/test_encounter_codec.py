"""The encounter file (schema version, migrations, refusal of bad files), the page's JSON
entry point and the 'Apply to …' proposals made from calculators' results."""

from __future__ import annotations

import json

import pytest

import rules_pkg
from rules_pkg import RulesError
from rules_pkg.encounter import (
    AddCombatant,
    Hit,
    RollInitiative,
    SetCondition,
    codec,
    dump,
    fold,
    load,
)
from rules_pkg.encounter.api import handle_json
from rules_pkg.encounter.log import numbered

LOG = [AddCombatant("a", "Ada"), AddCombatant("b", "Bo"), RollInitiative(seed=4),
       Hit("b", 14, location="head"), SetCondition("a", "On Fire", 2, "Mild")]


def test_round_trip() -> None:
    text = dump("cyberpunk_red", numbered(LOG), "Warehouse")
    doc = json.loads(text)
    assert doc["format"] == "tableside-encounter" and doc["schema"] == codec.SCHEMA
    assert load(text) == ("cyberpunk_red", "Warehouse", numbered(LOG))
    assert [e["eid"] for e in doc["events"]] == ["n1", "n2", "n3", "n4", "n5"]


@pytest.mark.parametrize(("text", "message"), [
    ("{not json", "not valid JSON"),
    ("[]", "not a Tableside encounter file"),
    ('{"format": "foundry-vtt"}', "not a Tableside encounter file"),
    ('{"format": "tableside-encounter", "schema": 99, "game": "d100", "events": []}',
     "newer Tableside"),
    ('{"format": "tableside-encounter", "schema": "1", "game": "d100", "events": []}',
     "no valid schema"),
    ('{"format": "tableside-encounter", "schema": 1, "game": "chess", "events": []}',
     "no encounter rules for the game 'chess'"),
    ('{"format": "tableside-encounter", "schema": 1, "game": "d100", "events": {}}',
     "no list of events"),
    ('{"format": "tableside-encounter", "schema": 1, "game": "d100", "events": [{"type": "x"}]}',
     "event 1 has an unknown type 'x'"),
    ('{"format": "tableside-encounter", "schema": 1, "game": "d100", "events": '
     '[{"type": "add", "id": "a", "name": 5}]}', "event 1 \\(add\\) name must be text"),
    ('{"format": "tableside-encounter", "schema": 1, "game": "d100", "events": '
     '[{"type": "hit", "target": "a", "damage": 3, "evil": 1}]}', "unknown field"),
    ('{"format": "tableside-encounter", "schema": 1, "game": "d100", "events": '
     '[{"type": "hit", "target": "a", "damage": 3}]}', "event 1 \\(hit\\): no combatant 'a'"),
    ('{"format": "tableside-encounter", "schema": 1, "game": "d100", "events": '
     '[{"type": "initiative", "seed": -1}]}', "seed must be between"),
])
def test_bad_files_are_refused_with_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        load(text)


def test_an_older_schema_is_migrated(monkeypatch: pytest.MonkeyPatch) -> None:
    # As a next schema would: version 2's "hit" becomes version 3's "strike".
    def to_3(doc: dict) -> dict:
        doc["events"] = [{**e, "type": "strike"} if e["type"] == "hit" else e
                         for e in doc["events"]]
        return doc

    monkeypatch.setattr(codec, "SCHEMA", 3)
    monkeypatch.setitem(codec.MIGRATIONS, 2, to_3)
    old = json.dumps({"format": codec.FORMAT, "schema": 2, "game": "d100",
                      "events": [{"eid": "1", "type": "add", "id": "a", "name": "Ada"},
                                 {"eid": "2", "type": "hit", "target": "a", "damage": 3}]})
    migrated = codec.migrate(json.loads(old))
    assert migrated["schema"] == 3 and migrated["events"][1]["type"] == "strike"
    monkeypatch.delitem(codec.MIGRATIONS, 2)
    with pytest.raises(RulesError, match="no migration from schema 2"):
        codec.migrate(json.loads(old))


def test_schema_1_gains_event_ids_the_same_every_time() -> None:
    old = json.dumps({"format": codec.FORMAT, "schema": 1, "game": "d100", "name": "Old",
                      "events": [{"type": "add", "id": "a", "name": "Ada"},
                                 {"type": "add", "id": "b", "name": "Bo"},
                                 {"type": "hit", "target": "a", "damage": 3}]})
    game, name, log = load(old)
    assert (game, name) == ("d100", "Old")
    eids = [x.eid for x in log]
    assert [e.split("-")[0] for e in eids] == ["m1", "m2", "m3"] and len(set(eids)) == 3
    assert [x.eid for x in load(old)[2]] == eids  # deterministic: two devices agree
    again = load(dump(game, log, name))  # schema 2 from then on: the ids stay
    assert again[2] == log


def call(**req: object) -> dict:
    return json.loads(handle_json(json.dumps(req)))


def test_api_fold_sheet_export_import() -> None:
    events = [json.loads(json.dumps(e)) for e in json.loads(dump("horizon", numbered([
        AddCombatant("a", "Ada"), RollInitiative(seed=1)])))["events"]]
    reply = call(op="fold", game="horizon", events=events)
    assert reply["ok"] and reply["state"]["round"] == 1 and reply["state"]["current"] == "a"
    assert reply["state"]["combatants"][0]["values"][1]["label"] == "Defense left"
    assert call(op="sheet", game="mecha")["sheet"]["notes"][0].startswith("Not in the source")
    text = call(op="export", game="horizon", name="Ruins", events=events)["text"]
    back = call(op="import", text=text)
    assert back["ok"] and back["game"] == "horizon" and back["events"] == events
    bad = call(op="import", text="{}")
    assert not bad["ok"] and "not a Tableside encounter file" in bad["message"]
    assert not call(op="fold", game="horizon", events=[{"type": "hit"}])["ok"]
    assert json.loads(handle_json("[1]"))["message"] == "a request is a JSON object"


def test_api_inputs_run_as_a_combatant() -> None:
    events = json.loads(dump("d100", numbered([
        AddCombatant("a", "Ada"), AddCombatant("b", "Bo"), SetCondition("a", "Blind"),
        SetCondition("b", "Stunned")])))["events"]
    reply = call(op="inputs", game="d100", calc="d100.test", actor="a", target="b",
                 events=events)
    assert reply["inputs"]["blind"] is True and reply["inputs"]["stunned"] is True
    assert reply["inputs"]["deaf"] is False
    both = call(op="inputs", game="d100", calcs=["d100.test", "d100.cover"], actor="a",
                target="", events=events)["inputs"]
    assert both["d100.test"]["blind"] is True and "stunned" not in both["d100.test"]
    assert both["d100.cover"] == {}


def propose(game: str, calc: str, **inputs: object) -> list:
    result = rules_pkg.get(calc).run(**inputs).to_dict()
    inputs = {k: v for k, v in inputs.items() if k not in ("roll", "seed")}
    return call(op="propose", game=game, calc=calc, inputs=inputs, result=result)["proposals"]


def test_proposals_from_calculators() -> None:
    (p,) = propose("cyberpunk_red", "cyberpunk_red.damage", dice=3, rolled=16, sp=11,
                   location="head", melee=True)
    assert p["event"] == {**p["event"], "type": "hit", "damage": 16, "location": "head",
                          "melee": True, "target": ""}
    (p,) = propose("cyberpunk_red", "cyberpunk_red.fire", severity="Deadly")
    assert p["event"]["name"] == "On Fire" and p["event"]["level"] == "Deadly"
    p, spent = propose("horizon", "horizon.attack", ap=10, attacks=2)
    assert p["event"]["damage"] == 24 and p["label"] == "24 damage"
    assert spent["role"] == "actor" and spent["event"]["changes"] == [["magazine", -2]]
    # a hit on the target's own armour (#25): the damage before it, with the dice rolled
    (p,) = propose("forbidden_lands", "forbidden_lands.armour", damage=3, armour=3,
                   roll=True, seed=3)
    assert p["event"]["type"] == "hit" and p["event"]["damage"] == 3
    assert len(p["event"]["dice"]) == 3
    assert propose("mecha", "mecha.damage")  == []  # not rolled: nothing to apply
    (p,) = propose("mecha", "mecha.damage", roll=True, seed=2)
    assert p["event"]["bypass"] is False and p["event"]["dice"] == []
    assert call(op="propose", game="d100", calc="horizon.attack", inputs={}, result={}
                )["proposals"] == []


def test_applied_proposal_folds() -> None:
    (p,) = propose("cyberpunk_red", "cyberpunk_red.damage", dice=3, rolled=14, sp=11)
    events = json.loads(dump("cyberpunk_red", numbered([AddCombatant("a", "Ada")])))["events"]
    events.append({**p["event"], "target": "a", "eid": "apply-1"})
    state = call(op="fold", game="cyberpunk_red", events=events)["state"]
    hp = next(v for v in state["combatants"][0]["values"] if v["key"] == "hp")
    assert hp["value"] == 37
    log = load(call(op="export", game="cyberpunk_red", events=events)["text"])[2]
    assert fold("cyberpunk_red", [x.event for x in log]).round == 0
