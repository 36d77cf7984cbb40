// node --test: a fight in a link's #fragment (calculators/share/link.mjs, issue 27): it
// goes there and back unchanged, and a hostile link is refused with a message saying why.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  LinkError, MAX_CODE, MAX_JSON, checkFight, checkView, decode, encode, fromBase64url, playerView,
  readFragment, toBase64url, woundWords,
} from "../../calculators/share/link.mjs";

const GAME = "cyberpunk_red";
const hp = (value, hi = 40) => ({ key: "hp", label: "HP", value, lo: -999, hi, tracked: true });
const state = {
  game: GAME, round: 2, turn: 1, current: "b", order: ["b", "a"],
  combatants: [
    { id: "a", name: "Ada <b>", kind: "character", initiative: 14, values: [hp(35), { key: "hp_max", label: "HP (full)", value: 40, lo: 1, hi: 200, tracked: false },
      { key: "bullets", label: "Bullets", value: 30, lo: 0, hi: 999, tracked: true }],
      conditions: [{ name: "On Fire", rounds: 2, level: null }], injuries: [], status: [] },
    { id: "b", name: "Boss", kind: "character", initiative: 17, values: [hp(12)], conditions: [],
      injuries: [], status: ["Seriously Wounded"] },
  ],
  history: [{ event: 0, round: 1, summary: "secret plan", steps: [], notes: ["private note"] }],
};

test("a player view goes into a code and comes back as it was", async () => {
  const view = playerView(state, "Bridge fight", new Set(["a"]), 1700000000000);
  const code = await encode(view);
  assert.match(code, /^[A-Za-z0-9_-]+$/);
  assert.deepEqual(checkView(await decode(code), GAME), view);
});

test("the players get numbers only for the combatants the GM shows, and no history or notes", () => {
  const view = playerView(state, "x", new Set(["a"]), 1);
  // tracked numbers only; "out of" only where the sheet keeps a full value (not 999 bullets)
  assert.deepEqual(view.combatants[0].values, [{ label: "HP", value: 35, hi: 40 },
    { label: "Bullets", value: 30, hi: null }]);
  assert.equal(view.combatants[1].values, null);
  assert.deepEqual(view.combatants[1].words, ["Seriously Wounded"]);
  const json = JSON.stringify(view);
  assert.ok(!json.includes("secret plan") && !json.includes("private note") && !json.includes("12"));
});

test("wound words: the game's own, else how far the tracked number is from full", () => {
  assert.deepEqual(woundWords(state.combatants[1]), ["Seriously Wounded"]);
  assert.deepEqual(woundWords({ ...state.combatants[0], values: [hp(40)] }), ["Unhurt"]);
  assert.deepEqual(woundWords({ ...state.combatants[0], values: [hp(39)] }), ["Wounded"]);
  assert.deepEqual(woundWords({ ...state.combatants[0], values: [{ ...hp(0), lo: 0 }] }), ["Down"]);
});

test("base64url is the URL-safe alphabet without padding, and back", () => {
  const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
  const text = toBase64url(bytes);
  assert.match(text, /^[A-Za-z0-9_-]+$/);
  assert.deepEqual(fromBase64url(text), bytes);
});

test("readFragment tells a view from a fight and ignores other fragments", () => {
  assert.deepEqual(readFragment("#view=abc"), { kind: "view", code: "abc" });
  assert.deepEqual(readFragment("#fight=a-_"), { kind: "fight", code: "a-_" });
  assert.equal(readFragment("#round-1"), null);
});

/** @param {Promise<unknown>} p @param {RegExp} said */
async function refused(p, said) {
  await assert.rejects(p, (err) => err instanceof LinkError && said.test(err.message));
}

test("hostile: an oversized link is refused before anything is inflated", async () => {
  await refused(decode("A".repeat(MAX_CODE + 1)), /too long/);
});

test("hostile: a deflate bomb stops at the bound", async () => {
  const code = await encode({ pad: "x".repeat(MAX_JSON - 100) }); // fits as written
  await decode(code);
  const bomb = toBase64url(new Uint8Array(await new Response(new Blob(["y".repeat(MAX_JSON * 4)])
    .stream().pipeThrough(new CompressionStream("deflate-raw"))).arrayBuffer()));
  assert.ok(bomb.length < 3000);
  await refused(decode(bomb), /more than 400 kB/);
});

test("hostile: a truncated or damaged link says so", async () => {
  const code = await encode(playerView(state, "x", new Set(), 1));
  await refused(decode(code.slice(0, Math.floor(code.length / 2))), /cut short or damaged/);
  await refused(decode(`${code.slice(0, 10)}<script>`), /damaged/);
  await refused(decode(""), /no fight/);
});

test("hostile: markup in a name stays text", async () => {
  const view = playerView({ ...state, combatants: [{ ...state.combatants[0], name: "<img src=x onerror=alert(1)>" }], order: ["a"], current: "a" }, "<script>x</script>", new Set(), 1);
  const back = checkView(await decode(await encode(view)), GAME);
  assert.equal(back.combatants[0].name, "<img src=x onerror=alert(1)>");
  assert.equal(back.name, "<script>x</script>");
});

test("hostile: another game's fight and a newer version are refused, saying which", async () => {
  const view = playerView(state, "x", new Set(), 1);
  assert.throws(() => checkView(view, "horizon"), /another game \(cyberpunk_red\)/);
  assert.throws(() => checkView({ ...view, version: 9 }, GAME), /newer Tableside \(version 9/);
  const fight = { format: "tableside-encounter", schema: 3, game: GAME, name: "", events: [] };
  assert.throws(() => checkFight(fight, GAME), /newer Tableside/);
  assert.throws(() => checkFight({ ...fight, schema: 2, game: "d100" }, GAME), /another game/);
  assert.throws(() => checkFight({ ...fight, format: "other" }, GAME), /not a Tableside fight/);
});

test("hostile: a view's fields are checked: kinds, lengths, who is named", () => {
  const view = playerView(state, "x", new Set(["a"]), 1);
  assert.throws(() => checkView({ ...view, round: "2" }, GAME), /round is not a whole number/);
  assert.throws(() => checkView({ ...view, name: "n".repeat(81) }, GAME), /fight name is not text/);
  assert.throws(() => checkView({ ...view, order: ["a", "zz"] }, GAME), /turn order names someone/);
  assert.throws(() => checkView({ ...view, current: "zz" }, GAME), /current turn names someone/);
  assert.throws(() => checkView({ ...view, combatants: Array(101).fill(view.combatants[0]) }, GAME), /at most 100/);
  assert.throws(() => checkView([], GAME), /not an object/);
});

test("a fight's events need an id and a type; Python checks the rest when it merges", () => {
  const fight = { format: "tableside-encounter", schema: 2, game: GAME, name: "f",
    events: [{ eid: "e1.a", type: "add", id: "a", name: "Ada" }] };
  assert.deepEqual(checkFight(fight, GAME), fight);
  assert.throws(() => checkFight({ ...fight, events: [{ type: "add" }] }, GAME), /event 1 has no valid id/);
  assert.throws(() => checkFight({ ...fight, events: [{ eid: "a b", type: "add" }] }, GAME), /event 1/);
});
