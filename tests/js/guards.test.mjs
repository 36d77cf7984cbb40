// node --test: a shared link's values are checked before they reach a form (#9), with the
// calculator shape of the registry (rules_pkg.registry's to_dict).
import assert from "node:assert/strict";
import { test } from "node:test";

import { checkLink, linkIndex, wholeNumber } from "../../calculators/guards.mjs";

// rules_pkg/registry.py WHOLE_NUMBER, as Input.to_dict gives it to every int input
// (tests/security/test_number_reader.py checks the registry still says this)
const PATTERN = "[ \\t]*([+-]?[0-9]{1,10})[ \\t]*";
const calc = {
  id: "cyberpunk_red.ranged_hit",
  inputs: [
    { name: "ref", label: "REF", kind: "int", min: 1, max: 10, pattern: PATTERN },
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

// The one number reader (issue 24): a link's value is used exactly when the engine takes it.
const ref = calc.inputs[0];
test("whole numbers read as the engine reads them", () => {
  for (const [raw, n] of [["7", 7], ["-3", -3], ["+4", 4], [" 12 ", 12], ["\t5", 5],
    ["0000000005", 5], ["4294967295", 4294967295]]) {
    assert.equal(wholeNumber(ref, raw), n, raw);
  }
  for (const raw of ["0x0", "0x10", "1e3", "-0x1", "1_000", "1.0", "²", "٣", "+-5", "",
    "0".repeat(30), "0".repeat(29) + "5", "\u00a05", "5\ufeff", "Infinity", "NaN"]) {
    assert.equal(wholeNumber(ref, raw), null, raw);
  }
});

test("hostile link values are refused and said so, never used", () => {
  for (const raw of ["0x0", "1e1", "0".repeat(29) + "5", "  0x5"]) {
    const { values, notes } = checkLink(calc, new URLSearchParams({ ref: raw }), fallback);
    assert.deepEqual(values, {}, raw);
    assert.match(notes[0], /is not a whole number written with the digits 0-9/);
  }
});

test("n: which calculator a link is for, in plain digits only", () => {
  for (const [raw, n] of [[null, 0], ["0", 0], ["3", 3], ["9999", 9999]]) {
    const q = new URLSearchParams(raw === null ? "" : `n=${raw}`);
    assert.equal(linkIndex(q), n, String(raw));
  }
  for (const raw of ["0x0", "-0", "+0", "1e0", " 0", "00000", "0.0", ""]) {
    assert.equal(linkIndex(new URLSearchParams({ n: raw })), null, raw);
  }
});
