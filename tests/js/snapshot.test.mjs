// node --test: the snapshot container. scripts/snapshot/sparse.mjs writes it at build
// time and calculators/python/snapshot.mjs's expand() reads it in the browser: they must agree.
import assert from "node:assert/strict";
import { test } from "node:test";

import { expand, snapshotURL } from "../../calculators/python/snapshot.mjs";
import { PAGE, sparse } from "../../scripts/snapshot/sparse.mjs";

/** Memory with zero pages between non-zero ones, and a short last page. */
function memory() {
  const m = new Uint8Array(PAGE * 7 + 100);
  m[5] = 1; // page 0
  m.fill(9, PAGE * 2, PAGE * 4); // pages 2-3: one run
  m[PAGE * 7 + 99] = 255; // the short last page
  return m;
}

test("expand(sparse(m)) gives m back, byte for byte, and drops the zero pages", () => {
  const m = memory();
  const packed = sparse(m);
  assert.ok(packed.length < m.length);
  assert.deepEqual(expand(packed), m);
});

test("a file of another format or a truncated one is refused with a clear message", () => {
  assert.throws(() => expand(new TextEncoder().encode("NOTASNAPSHOT....")), /unknown format/);
  const packed = sparse(memory());
  assert.throws(() => expand(packed.subarray(0, packed.length - 10)), /truncated or corrupt/);
});

test("the snapshot carries its wrapper's version (?snap=) so a new build fetches anew", () => {
  assert.equal(
    snapshotURL("https://x.example/tableside/assets/calculators/python/pyodide-snapshot.mjs?snap=abc"),
    "https://x.example/tableside/assets/runtime/snapshot.bin.gz?snap=abc");
});
