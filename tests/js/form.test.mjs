// The form's limits that follow other inputs read the declaration the engine checks
// (rules_pkg.registry.Bound.to_dict): a table keyed by other inputs, or per x one + plus.
import assert from "node:assert/strict";
import { test } from "node:test";

import { boundOf } from "../../calculators/form.mjs";

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
