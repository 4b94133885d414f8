// Berserk at a tournament table (tournaments/table_panel.html): the button sits in the page's bar
// of controls ([data-panel-dock]: the waiting room's, the game's), where a player looks before his
// first move, and is pressed without leaving the table (a JSON POST); the mark replaces it.
import { toast } from "../site/page.js";

const form = document.querySelector("form.t-berserk[data-berserk]");
const mark = document.querySelector("[data-berserk]");
const dock = document.querySelector("[data-panel-dock]");
if (mark && dock) { mark.classList.add("docked"); dock.prepend(mark); }

function chosen(text) {
  const on = document.createElement("span");
  on.className = "t-berserk-on docked";
  on.dataset.berserk = "";
  on.title = text;
  const said = document.createElement("span");
  said.className = "visually-hidden";
  said.textContent = ": " + text;
  on.append("⚔ " + form.querySelector("button").textContent.replace("⚔", "").trim() + " ✓", said);
  on.setAttribute("role", "status");
  form.replaceWith(on);
}

if (form) {
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const button = form.querySelector("button");
    button.disabled = true;
    try {
      const r = await fetch(form.action, { method: "POST", body: new FormData(form), credentials: "same-origin",
        headers: { Accept: "application/json" } });
      const answer = await r.json();
      if (answer.ok) { chosen(form.dataset.chosen); return; }
      toast(answer.message || answer.code, { ttl: 6000 });
      if (answer.code === "berserk_twice") chosen(form.dataset.chosen);
      else if (answer.code === "berserk_after_move") form.remove();
      else button.disabled = false;
    } catch (e) {
      button.disabled = false;
    }
  });
}

// a waiting room whose table closed (a no-show): berserk has nothing left to halve
const room = document.querySelector(".room-page");
if (form && room) {
  const gone = () => { if (room.querySelector(".notice-closed")) { form.remove(); watcher.disconnect(); } };
  const watcher = new MutationObserver(gone);
  watcher.observe(room, { childList: true, subtree: true });
  gone();
}
