// Leaving this page when the table has moved on (a rematch started, or back to the waiting room).

import { CFG } from "./state.js";

let pending = null;

/** Ask the room fragment whether the table changed: 200 = go to the table page, 204 = stay. */
export function movedOnCheck() {
  if (!CFG.room_url || pending) return;
  pending = setTimeout(async () => {
    pending = null;
    try {
      const r = await fetch(CFG.room_url, { credentials: "same-origin", headers: { "HX-Request": "true" } });
      if (r.status === 200) location.assign(CFG.table_url);
    } catch (e) { /* the next lobby event tries again */ }
  }, 250);
}
