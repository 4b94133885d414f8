// Server clock offset (server − local, ms) for deadlines shown as countdowns.

/**
 * Each new deadline was set on the server just before its frame was sent, so (deadline − its
 * length) − arrival ≈ offset − latency: the largest sample is the best estimate. The page render
 * time gives the first sample.
 */
export class Clock {
  constructor(serverNowIso) {
    this.offset = null;
    if (serverNowIso) {
      const t = Date.parse(serverNowIso);
      const nav = performance.getEntriesByType && performance.getEntriesByType("navigation")[0];
      const arrived = nav ? performance.timeOrigin + nav.responseStart : Date.now();
      if (!Number.isNaN(t)) this.offset = t - arrived;
    }
  }

  sample(deadlineIso, lengthMs, arrivedAt) {
    const d = Date.parse(deadlineIso);
    if (Number.isNaN(d) || !lengthMs) return;
    const est = d - lengthMs - arrivedAt;
    if (this.offset === null) { this.offset = est; return; }
    // accept later (larger) samples, but not a jump: a deadline longer than we think must not
    // make every countdown run early
    if (est > this.offset && est - this.offset < 2000) this.offset = est;
  }

  now() { return Date.now() + (this.offset || 0); }

  /** Milliseconds left until a server deadline (ISO string), or null. */
  left(deadlineIso) {
    if (!deadlineIso) return null;
    const d = Date.parse(deadlineIso);
    if (Number.isNaN(d)) return null;
    return d - this.now();
  }
}
