// node --test: finding the answer a page carries for a form's inputs (issue 13), with the
// shapes scripts/site/page_answers.py writes: inputs as a form holds them (text, or a
// checkbox's true/false), Result.to_dict() beside them.
import assert from "node:assert/strict";
import { test } from "node:test";

import { expand, findAnswer, parseAnswers, rebuild, sameInputs, sameResult } from "../../calculators/forms/answers.mjs";

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

test("a change carried as the input it sets and a patch gets its base's inputs and result", () => {
  const start = { calc: "d100.test", inputs: { characteristic: "40", horde: false }, result };
  // as scripts/site/answer_patch.py writes them: keep 2 tokens ([0] "summary"), the
  // summary replaced, keep 4 ("values" [2] [2] "Target"), 40 replaced; the rest kept
  const patch = [2, ["Target 41"], 4, [41]];
  const text = JSON.stringify([start,
    { of: 0, set: { characteristic: "41" }, patch },
    { of: 0, set: { horde: true }, patch: [{ i: ["x"] }] }, // not a value: none
    { of: 0, set: { horde: true }, patch: [{ d: 2 }] }, // tokens left over: none
    { of: 7, set: { horde: true }, patch: [] }]); // no such entry: none
  const list = parseAnswers(text);
  assert.equal(list.length, 4); // "of" no entry: left out; a broken patch: found, no result
  assert.deepEqual(list.map((a) => a.result === null), [false, false, true, true]);
  const got = findAnswer(list, "d100.test", { characteristic: "41", horde: false });
  assert.deepEqual(got?.result, { ...result, summary: "Target 41", values: [["Target", 41, "count"]] });
  assert.equal(findAnswer(list, "d100.test", { characteristic: "40", horde: true }), null);
  assert.deepEqual(start.inputs, { characteristic: "40", horde: false }); // not changed
});

test("a patch inserts, drops and rebuilds objects and arrays, keys as own properties", () => {
  const base = { a: [1, 2, 3], b: { frac: "1/2" } };
  // tokens: [0] "a" [2] 1 2 3 [3] "b" [0] "frac" "1/2" [1] [1]
  assert.deepEqual(rebuild(base, [4, { d: 1 }, 1, { i: [4] }]), { a: [1, 3, 4], b: { frac: "1/2" } });
  assert.deepEqual(rebuild(base, [7, { i: ["c", [2], [3]] }]), { a: [1, 2, 3], c: [], b: { frac: "1/2" } });
  assert.deepEqual(rebuild(base, []), base);
  const proto = /** @type {any} */ (rebuild({ x: 1 }, [1, ["__proto__"]]));
  assert.ok(Object.hasOwn(proto, "__proto__") && proto.x === undefined && !("polluted" in {}));
  assert.throws(() => rebuild(base, [99]));
  assert.throws(() => rebuild(base, [{ q: 1 }]));
});

test("an odds table carried without its at_least gets the sums from each row down back", () => {
  // result.py's Odds: at_least is the tail sum of exactly (1/2 + 1/3 + 1/6 = 1)
  const live = { title: "t", rows: [
    { outcome: "a", exactly: { text: "1/2", value: 0.5 }, at_least: { text: "1/1", value: 1 } },
    { outcome: "b", exactly: { text: "1/3", value: 1 / 3 }, at_least: { text: "1/2", value: 0.5 } },
    { outcome: "c", exactly: { text: "1/6", value: 1 / 6 }, at_least: { text: "1/6", value: 1 / 6 } }] };
  const carried = { title: "t", rows: [{ outcome: "a", exactly: { frac: "1/2" } },
    { outcome: "b", exactly: { frac: "1/3" } }, { outcome: "c", exactly: { frac: "1/6" } }],
  at_least: "sum" };
  assert.ok(sameResult(expand(carried), live)); // the same keys in the same order
  const broken = JSON.stringify([{ calc: "x", inputs: {}, result: { odds: [{ ...carried,
    rows: [{ outcome: "a", exactly: 0.5 }] }] } }, { calc: "y", inputs: {}, result: {} }]);
  const list = parseAnswers(broken);
  assert.deepEqual(list.filter((a) => a.result).map((a) => a.calc), ["y"]); // that one has none
  assert.equal(findAnswer(list, "x", {}), null);
  assert.equal(findAnswer(list, "y", {})?.calc, "y");
});
