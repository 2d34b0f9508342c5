// Polls until a condition holds or the time is up, and returns the last value seen (the
// caller's expect() then reports what it was). A test waits on a condition, never a fixed time;
// `sleep` is for pacing a load or for a quiet interval in which something must NOT happen.
/** Resolves after `ms`. */
export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function until<T>(fn: () => Promise<T> | T, ok: (v: T) => boolean, ms = 30_000, stepMs = 200): Promise<T> {
  const end = Date.now() + ms;
  let v = await fn();
  while (!ok(v) && Date.now() < end) {
    await sleep(stepMs);
    v = await fn();
  }
  return v;
}
