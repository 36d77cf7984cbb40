// node --test: finding the answer a page carries for a form's inputs (issue 13), with the
// shapes scripts/site/page_answers.py writes: inputs as a form holds them (text, or a
// checkbox's true/false), Result.to_dict() beside them.
import assert from "node:assert/strict";
import { test } from "node:test";

import { expand, findAnswer, parseAnswers, sameInputs, sameResult } from "../../calculators/answers.mjs";

const result = { summary: "Target 40: 40% to succeed", values: [["Target", 40, "count"]],
  steps: [], odds: [], dice: [], highlight: [], notes: [] };
const answers = [
  { calc: "d100.test", inputs: { characteristic: "40", horde: false }, result },
  { calc: "d100.test", inputs: { characteristic: "45", horde: false },
    result: { ...result, summary: "Target 45" } },
  { calc: "d100.range", inputs: { characteristic: "40", horde: false }, result },
];

test("the answer for a calculator is the one whose inputs are exactly the form's", () => {
  assert.equal(findAnswer(answers, "d100.test", { characteristic: "45", horde: false }),
    answers[1]);
  assert.equal(findAnswer(answers, "d100.range", { characteristic: "40", horde: false }),
    answers[2]);
  // a changed value, a missing or an extra input, another calculator: none
  assert.equal(findAnswer(answers, "d100.test", { characteristic: "41", horde: false }), null);
  assert.equal(findAnswer(answers, "d100.test", { characteristic: "40" }), null);
  assert.equal(findAnswer(answers, "d100.test",
    { characteristic: "40", horde: false, extra: "1" }), null);
  assert.equal(findAnswer(answers, "d100.cover", { characteristic: "40", horde: false }), null);
});

test("values compare as the form holds them: text as typed, a checkbox as true/false", () => {
  assert.ok(sameInputs({ n: "3", b: true }, { n: "3", b: true }));
  assert.ok(!sameInputs({ n: "3", b: true }, { n: "3", b: false }));
  assert.ok(!sameInputs({ n: "3" }, { n: " 3" })); // the engine would read it, but not as typed
  assert.ok(!sameInputs({ n: "3" }, { m: "3" }));
});

test("a page's answers are read defensively: broken or foreign JSON gives none", () => {
  assert.deepEqual(parseAnswers(JSON.stringify(answers)), answers);
  assert.deepEqual(parseAnswers(undefined), []);
  assert.deepEqual(parseAnswers("not json"), []);
  assert.deepEqual(parseAnswers('{"calc": "d100.test"}'), []);
  assert.deepEqual(parseAnswers('[{"calc": "d100.test", "inputs": {}}, null, 3]'), []);
});

test("the live engine's result is the same when its JSON is", () => {
  assert.ok(sameResult(JSON.parse(JSON.stringify(result)), result));
  assert.ok(!sameResult({ ...result, summary: "Target 40: 41% to succeed" }, result));
  assert.ok(!sameResult({ ...result, values: [["Target", 40]] }, result));
});

test("an exact number carried as its fraction is the live engine's number again", () => {
  // Python: json.dumps(7/54) and Fraction(1, 1) as Result.to_dict() writes them
  const live = JSON.parse('{"odds":[{"exactly":{"text":"7/54","value":0.12962962962962962},'
    + '"at_least":{"text":"1/1","value":1.0}}],"n":{"frac":3}}');
  const carried = parseAnswers(JSON.stringify([{ calc: "x", inputs: {},
    result: { odds: [{ exactly: { frac: "7/54" }, at_least: { frac: "1/1" } }], n: { frac: 3 } } }]));
  assert.ok(sameResult(carried[0].result, live));
  assert.deepEqual(expand({ frac: "1/3", more: 1 }), { frac: "1/3", more: 1 }); // not one
});

test("a change carried as the input it sets gets the inputs of the entry it changes", () => {
  const start = { calc: "d100.test", inputs: { characteristic: "40", horde: false }, result };
  const text = JSON.stringify([start,
    { calc: "d100.test", of: 0, set: { characteristic: "41" }, result: { ...result, summary: "41" } },
    { calc: "d100.range", of: 0, set: { horde: true }, result }, // another calculator's: none
    { calc: "d100.test", of: 7, set: { horde: true }, result }]); // no such entry: none
  const list = parseAnswers(text);
  assert.equal(list.length, 2);
  assert.equal(findAnswer(list, "d100.test", { characteristic: "41", horde: false })?.result.summary, "41");
  assert.equal(findAnswer(list, "d100.test", { characteristic: "40", horde: true }), null);
  assert.deepEqual(start.inputs, { characteristic: "40", horde: false }); // not changed
});
