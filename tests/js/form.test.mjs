// The form's limits that follow other inputs read the declaration the engine checks
// (rules_pkg.registry.Bound.to_dict): a table keyed by other inputs, or per x one + plus.
import assert from "node:assert/strict";
import { test } from "node:test";

import { boundOf, stepped, unlikeOf } from "../../calculators/forms/form.mjs";

test("a table bound follows the inputs it is keyed by; an unlisted combination has none", () => {
  // horizon.attack: "Magazine: 3Shots" for the Rusty Pistol; strikes use none
  const bound = { on: ["weapon", "mode"], table: [[["rusty-pistol", "normal"], 3]] };
  const form = { weapon: "rusty-pistol", mode: "normal" };
  assert.equal(boundOf(bound, (n) => form[n]), 3);
  form.mode = "thrown";
  assert.equal(boundOf(bound, (n) => form[n]), undefined);
});

test("a linear bound is per x the other input + plus, read as the form holds it (text)", () => {
  // cyberpunk_red.damage: a total rolled on 2d6 is at most 12
  assert.equal(boundOf({ on: ["dice"], per: 6, plus: 0 }, () => "2"), 12);
  assert.equal(boundOf({ on: ["dice"], per: 6, plus: 0 }, () => "two"), undefined);
  assert.equal(boundOf(undefined, () => "2"), undefined);
});

test("a stepper steps over the value another input holds, and stays where none is left", () => {
  // forbidden_lands.initiative_swap: "two combatants cannot hold the same initiative card"
  assert.equal(stepped(1, 1, [1], [10], [2]), 3);
  assert.equal(stepped(3, -1, [1], [10], [2]), 1);
  assert.equal(stepped(9, 1, [1], [10], [10]), 9); // 10 is theirs: nowhere to go
  assert.equal(stepped(2, -1, [1], [10], [1]), 2);
  assert.equal(stepped(4, 1, [1], [10], [null]), 5); // theirs not a number: no skip
  assert.equal(stepped(50, -1, [1], [3], []), 3); // past a limit: back within it
});

test("the pair is declared once, and both inputs read it", () => {
  const calc = /** @type {any} */ ({ inputs: [
    { name: "your_card", unlike: { on: "their_card", why: "" } }, { name: "their_card" }] });
  assert.deepEqual(unlikeOf(calc, calc.inputs[0]), ["their_card"]);
  assert.deepEqual(unlikeOf(calc, calc.inputs[1]), ["your_card"]);
});
