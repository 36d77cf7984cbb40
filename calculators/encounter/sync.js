// @ts-check
// Two tabs on one encounter (issue 24): each stores its events as a merge by id
// (encounter/store.js saveEncounter, under a Web Lock) and announces it on a
// BroadcastChannel; here a tab hears the other's change (the channel, or the `storage`
// event where there is none) and takes in the events it does not have yet.

import { CHANNEL, mergeEvents, storedEncounter } from "./store.js";

/**
 * Calls `update(events)` with the merged log whenever another tab stored events of the
 * encounter `current()` that this tab does not have. Returns a function that stops it.
 * @param {string} game
 * @param {() => import("./store.js").EncDoc} current
 * @param {(events: import("./store.js").EncEvent[]) => void} update
 */
export function followOtherTabs(game, current, update) {
  const check = () => {
    const doc = current();
    const there = storedEncounter(doc.id);
    if (!there || there.schema !== doc.schema) return;
    const merged = mergeEvents(there.events, doc.events);
    if (merged.length !== doc.events.length) update(merged);
  };
  /** @type {BroadcastChannel | null} */
  let channel = null;
  try {
    channel = new BroadcastChannel(CHANNEL);
    channel.onmessage = (e) => { if (e.data?.game === game) check(); };
  } catch { /* no BroadcastChannel */ }
  /** @param {StorageEvent} e */
  const onStorage = (e) => { if (e.key === null || e.key === CHANNEL) check(); };
  addEventListener("storage", onStorage);
  return () => {
    channel?.close();
    removeEventListener("storage", onStorage);
  };
}
