// A check that throws a plain Error: for the test helpers that both vitest and Playwright load
// (Playwright's loader cannot load vitest, whose `expect` is the usual way to say the same).
export function must(ok: unknown, message: string): asserts ok {
  if (!ok) throw new Error(message);
}
