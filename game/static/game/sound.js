// Optional sounds (off by default): short WebAudio beeps, no files.

let ctx = null;

function audio() {
  if (!ctx) {
    const AC = window.AudioContext || window.webkitAudioContext;
    if (!AC) return null;
    ctx = new AC();
  }
  if (ctx.state === "suspended") ctx.resume();
  return ctx;
}

function tone(freq, start, dur, type = "sine", gain = 0.08) {
  const a = audio();
  if (!a) return;
  const t0 = a.currentTime + start;
  const osc = a.createOscillator();
  const g = a.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, t0);
  g.gain.setValueAtTime(0.0001, t0);
  g.gain.exponentialRampToValueAtTime(gain, t0 + 0.012);
  g.gain.exponentialRampToValueAtTime(0.0001, t0 + dur);
  osc.connect(g).connect(a.destination);
  osc.start(t0);
  osc.stop(t0 + dur + 0.02);
}

export const sounds = {
  enabled: false,
  play(name) {
    if (!this.enabled) return;
    try {
      if (name === "card") tone(660, 0, 0.07, "triangle", 0.06);
      else if (name === "turn") { tone(587, 0, 0.12); tone(880, 0.12, 0.16); }
      else if (name === "error") tone(160, 0, 0.22, "sawtooth", 0.05);
      else if (name === "tick") tone(1200, 0, 0.04, "square", 0.025);
      else if (name === "win") { tone(523, 0, 0.12); tone(659, 0.12, 0.12); tone(784, 0.24, 0.25); }
      else if (name === "lose") { tone(392, 0, 0.18); tone(330, 0.18, 0.18); tone(262, 0.36, 0.3); }
    } catch (e) { /* audio is a nicety */ }
  },
};
