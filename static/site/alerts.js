// The in-page chime and vibration the player may switch on in his profile (notifications' "while
// the site is open" switches): «Ваш ход» on a table page (notifications/table.js) and a match found
// on any page (social/site.js). The switches reach every signed-in page as the JSON of
// #in-page-alerts ({sound, vibrate}); without it both stay off. A tournament's pairing chimes
// unless muted in this browser (pairingChimeOn).

import { $ } from "./page.js";

let ctx = null;

/** The player's switches on this page. */
export function alertsWanted() {
  try { return JSON.parse($("in-page-alerts").textContent) || {}; } catch (e) { return {}; }
}

/** Two soft rising tones, synthesized (no file). A browser that allows no sound plays none. */
export function chime() {
  const AC = window.AudioContext || window.webkitAudioContext;
  if (!AC) return;
  try {
    ctx = ctx || new AC();
    if (ctx.state === "suspended") ctx.resume();
    const t0 = ctx.currentTime;
    for (const [freq, at] of [[784, 0], [1046, 0.12]]) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, t0 + at);
      gain.gain.exponentialRampToValueAtTime(0.06, t0 + at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, t0 + at + 0.25);
      osc.connect(gain).connect(ctx.destination);
      osc.start(t0 + at);
      osc.stop(t0 + at + 0.3);
    }
  } catch (e) { /* sound is a nicety */ }
}

/** A short double buzz on a phone. */
export function buzz() {
  if (navigator.vibrate) navigator.vibrate([120, 60, 120]);
}

/** The chime and the buzz, each if the player switched it on; whether the chime plays. */
export function ring() {
  const wanted = alertsWanted();
  if (wanted.sound) chime();
  if (wanted.vibrate) buzz();
  return !!wanted.sound;
}

// A tournament's pairing chimes unless this browser muted it on an event page: the player joined
// the event and has seconds to reach his table, so it does not wait for the profile's chime switch.
const PAIRING_MUTED = "tournament-pairing-chime-off";

/** Whether a tournament's pairing chimes in this browser (on unless muted). */
export function pairingChimeOn() {
  try { return localStorage.getItem(PAIRING_MUTED) !== "1"; } catch (e) { return true; }
}

/** Mute or unmute a tournament's pairing chime in this browser. */
export function setPairingChime(on) {
  try {
    if (on) localStorage.removeItem(PAIRING_MUTED);
    else localStorage.setItem(PAIRING_MUTED, "1");
  } catch (e) { /* no storage: it stays on */ }
}
