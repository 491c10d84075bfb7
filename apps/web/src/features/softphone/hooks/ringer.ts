/**
 * The ring: a WebAudio double beep every 2 s (440/480 Hz, like a North American ring) while a call
 * rings. Silently does nothing where audio is unavailable or not yet allowed by the browser.
 */
let ctx: AudioContext | null = null;
let timer: ReturnType<typeof setInterval> | null = null;

function beep(): void {
  try {
    ctx ??= new AudioContext();
    const now = ctx.currentTime;
    for (const [f, at] of [
      [440, 0],
      [480, 0],
      [440, 0.5],
      [480, 0.5],
    ] as const) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.frequency.value = f;
      gain.gain.value = 0.05;
      osc.connect(gain).connect(ctx.destination);
      osc.start(now + at);
      osc.stop(now + at + 0.4);
    }
  } catch (error) {
    // No audio: no Web Audio here (TypeError), or the browser refuses it (a DOMException).
    if (!(error instanceof DOMException) && !(error instanceof TypeError)) throw error;
  }
}

/** Starts ringing (idempotent). */
export function startRinging(): void {
  if (timer) return;
  beep();
  timer = setInterval(beep, 2000);
}

/** Stops ringing. */
export function stopRinging(): void {
  if (timer) clearInterval(timer);
  timer = null;
}
