// Optional sounds (off by default), synthesized with WebAudio, no files: a card laid is a short
// filtered noise "snap", a take is a longer swish of cards, the turn and the end are soft chimes.

let ctx = null;
let noise = null;

function audio() {
  if (!ctx) {
    const AC = window.AudioContext || window.webkitAudioContext;
    if (!AC) return null;
    ctx = new AC();
  }
  if (ctx.state === "suspended") ctx.resume();
  return ctx;
}

/** One second of white noise, made once. */
function noiseBuffer(a) {
  if (!noise) {
    noise = a.createBuffer(1, a.sampleRate, a.sampleRate);
    const d = noise.getChannelData(0);
    for (let i = 0; i < d.length; i++) d[i] = Math.random() * 2 - 1;
  }
  return noise;
}

/** A burst of band-passed noise: card on cloth (short, bright) or cards sliding (long, swept). */
function rustle(start, dur, freq, { gain = 0.35, sweep = 0, q = 0.9 } = {}) {
  const a = audio();
  if (!a) return;
  const t0 = a.currentTime + start;
  const src = a.createBufferSource();
  src.buffer = noiseBuffer(a);
  const bp = a.createBiquadFilter();
  bp.type = "bandpass";
  bp.Q.value = q;
  bp.frequency.setValueAtTime(freq, t0);
  if (sweep) bp.frequency.exponentialRampToValueAtTime(freq * sweep, t0 + dur);
  const g = a.createGain();
  g.gain.setValueAtTime(0.0001, t0);
  g.gain.exponentialRampToValueAtTime(gain, t0 + Math.min(0.008, dur / 4));
  g.gain.exponentialRampToValueAtTime(0.0001, t0 + dur);
  src.connect(bp).connect(g).connect(a.destination);
  src.start(t0, Math.random() * 0.5);
  src.stop(t0 + dur + 0.02);
}

function tone(freq, start, dur, gain = 0.05) {
  const a = audio();
  if (!a) return;
  const t0 = a.currentTime + start;
  const osc = a.createOscillator();
  const g = a.createGain();
  osc.type = "sine";
  osc.frequency.setValueAtTime(freq, t0);
  g.gain.setValueAtTime(0.0001, t0);
  g.gain.exponentialRampToValueAtTime(gain, t0 + 0.015);
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
      if (name === "card") { rustle(0, 0.05, 2600, { gain: 0.5, q: 0.7 }); rustle(0.012, 0.09, 900, { gain: 0.25 }); }
      else if (name === "take") { for (let i = 0; i < 4; i++) rustle(i * 0.045, 0.16, 1800, { gain: 0.22, sweep: 0.5 }); }
      else if (name === "deal") { for (let i = 0; i < 6; i++) rustle(i * 0.07, 0.05, 2400, { gain: 0.3 }); }
      else if (name === "turn") { tone(660, 0, 0.18); tone(990, 0.1, 0.22, 0.035); }
      else if (name === "error") rustle(0, 0.12, 300, { gain: 0.4, q: 2 });
      else if (name === "tick") rustle(0, 0.02, 4000, { gain: 0.15, q: 3 });
      else if (name === "win") { tone(523, 0, 0.16); tone(659, 0.12, 0.16); tone(784, 0.24, 0.3); }
      else if (name === "lose") { tone(392, 0, 0.22); tone(311, 0.2, 0.36); }
    } catch (e) { /* audio is a nicety */ }
  },
};
