// node --test: the encounter store's pure parts (issue 24): how deep stored JSON nests
// (counted without parsing: a 100,000-deep value is set aside, never parsed and written
// back), and the merge of two tabs' logs by event id.
import assert from "node:assert/strict";
import { test } from "node:test";

import { jsonDepth, MAX_DEPTH, mergeEvents } from "../../calculators/encounter/store.js";

test("depth is counted without parsing, strings skipped", () => {
  for (const [text, depth] of [["", 0], ["5", 0], ["[]", 1], ['{"a": [1, {"b": 2}]}', 3],
    ['["]]]]]", [[[1]]]]', 4], ['["\\"[[[[", 1]', 1], ['"[[["', 0]]) {
    assert.equal(jsonDepth(String(text), 100), depth, String(text));
  }
});

test("a 100,000-deep value is found out at once, past the limit", () => {
  assert.ok(jsonDepth("[".repeat(100_000) + "]".repeat(100_000), MAX_DEPTH) > MAX_DEPTH);
  assert.ok(jsonDepth('{"a":'.repeat(100_000), MAX_DEPTH) > MAX_DEPTH);
});

test("two tabs' logs merge by id: stored order kept, ours appended, none lost or doubled", () => {
  const a = { eid: "a", type: "add" };
  const b = { eid: "b", type: "add" };
  const c = { eid: "c", type: "next_turn" };
  assert.deepEqual(mergeEvents([a, b], [a, c]), [a, b, c]);
  assert.deepEqual(mergeEvents([a], [a]), [a]);
  assert.deepEqual(mergeEvents([], [c, a]), [c, a]);
});

test("a log that holds every stored event keeps its own order (two copies merged by Python)", () => {
  const a = { eid: "a", type: "add" };
  const b = { eid: "b", type: "add" };
  const c = { eid: "c", type: "next_turn" };
  // the union of two devices' copies, ordered by rules_pkg/encounter/merge.py, stands
  assert.deepEqual(mergeEvents([a, c], [a, b, c]), [a, b, c]);
  // anything the stored copy has that ours lacks keeps the stored order first
  assert.deepEqual(mergeEvents([a, c], [a, b]), [a, c, b]);
});
