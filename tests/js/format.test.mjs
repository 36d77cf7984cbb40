// node --test: value formatting by kind (calculators/forms/format.mjs, issue #11's contract).
import assert from "node:assert/strict";
import { test } from "node:test";

import { decimal, exactOf, formatValue, legacyFraction, percent } from "../../calculators/forms/format.mjs";

const frac = (n, d) => ({ text: `${n}/${d}`, value: n / d });

test("a probability reads as a percentage, never 0 % or 100 % when it is not", () => {
  assert.equal(formatValue(frac(1, 2), "probability"), "50.0 %");
  // Forbidden Lands: at least one 6 on 1d6 is 1/6
  assert.equal(formatValue(frac(1, 6), "probability"), "16.7 %");
  assert.equal(percent(1 / 20000), "< 0.01 %");
  assert.equal(percent(1 - 1 / 20000), "> 99.99 %");
  assert.equal(percent(0), "0 %");
  assert.equal(percent(1), "100 %");
  assert.equal(percent(0.005), "0.50 %"); // below 1 %: two decimals
});

test("a mean reads as a short decimal, counts and dice as they are", () => {
  assert.equal(formatValue(frac(7, 2), "mean"), "3.5");
  assert.equal(formatValue(frac(287, 216), "mean"), "1.33");
  assert.equal(decimal(4), "4");
  assert.equal(decimal(123.456), "123.5");
  assert.equal(formatValue(frac(12, 1), "count"), "12");
  assert.equal(formatValue("2d6+1", "dice"), "2d6+1");
  assert.equal(formatValue(true, "text"), "yes");
  assert.equal(formatValue([frac(1, 4), frac(3, 4)], "probability"), "25.0 %, 75.0 %");
});

test("an entry without a kind (an older engine) keeps its fraction and percentage", () => {
  assert.equal(formatValue(frac(1, 3)), "1/3 (33.3 %)");
  assert.equal(legacyFraction(frac(0, 1)), "0/1 (0 %)");
});

test("the exact fraction is offered only where it says more than the decimal", () => {
  assert.equal(exactOf(frac(41063086679, 44079842304)), "41063086679/44079842304");
  assert.equal(exactOf(frac(3, 1)), null);
  assert.equal(exactOf(3), null);
});
