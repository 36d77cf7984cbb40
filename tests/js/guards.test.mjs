// node --test: a shared link's values are checked before they reach a form (#9), with the
// calculator shape of the registry (rules_pkg.registry's to_dict).
import assert from "node:assert/strict";
import { test } from "node:test";

import { checkLink } from "../../calculators/guards.mjs";

const calc = {
  id: "cyberpunk_red.ranged_hit",
  inputs: [
    { name: "ref", label: "REF", kind: "int", min: 1, max: 10 },
    { name: "range", label: "Range", kind: "choice", choices: [["0-6", "0–6 m"], ["7-12", "7–12 m"]] },
    { name: "aimed", label: "Aimed shot", kind: "bool" },
  ],
};
const fallback = (input) => ({ ref: 6, range: "0-6", aimed: false })[input.name];

test("values a calculator accepts pass through as written", () => {
  const q = new URLSearchParams("calc=cyberpunk_red.ranged_hit&ref=8&range=7-12&aimed=1&roll=1");
  assert.deepEqual(checkLink(calc, q, fallback), {
    values: { ref: "8", range: "7-12", aimed: "1" }, notes: [] });
});

test("a refused value is named with its reason and the page's own value is kept", () => {
  const q = new URLSearchParams("ref=11&range=100m&aimed=maybe&extra=1&roll=2");
  const { values, notes } = checkLink(calc, q, fallback);
  assert.deepEqual(values, {});
  assert.deepEqual(notes, [
    "REF: “11” is above the largest value, 10; the page's own value (6) is used instead.",
    notes[1], notes[2], // choice and bool wording: checked below
    "“extra” is not an input of this calculator; it was ignored.",
    "roll: “2” is not 1 or 0; nothing was rolled.",
  ]);
  assert.match(notes[1], /^Range: “100m” .*\(0–6 m\) is used instead\.$/);
  assert.match(notes[2], /^Aimed shot: “maybe” .*\(no\) is used instead\.$/);
});

test("digits other than ASCII are refused, not read as numbers", () => {
  const { values, notes } = checkLink(calc, new URLSearchParams("ref=٨"), fallback);
  assert.deepEqual(values, {});
  assert.equal(notes.length, 1);
});
