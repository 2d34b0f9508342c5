// Polls until a condition holds or the time is up, and returns the last value seen (the
// caller's expect() then reports what it was).
export async function until<T>(fn: () => Promise<T> | T, ok: (v: T) => boolean, ms = 30_000, stepMs = 200): Promise<T> {
  const end = Date.now() + ms;
  let v = await fn();
  while (!ok(v) && Date.now() < end) {
    await new Promise((r) => setTimeout(r, stepMs));
    v = await fn();
  }
  return v;
}
