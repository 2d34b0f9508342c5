// Types for scripts/test-checks.mjs (a plain ESM script, also imported by TypeScript tests).
export interface CheckResult {
  name: string;
  code: number;
  /** stdout and stderr, as the check wrote them. */
  output: string;
  seconds: number;
}
export declare function runCollected(
  file: string,
  argv: readonly string[],
  env?: Record<string, string | undefined>,
): Promise<{ code: number; output: string; missing: boolean }>;
export declare function backgroundCheck(
  name: string,
  cmd: string,
  args: readonly string[],
  env?: Record<string, string | undefined>,
): { name: string; done: Promise<CheckResult> };
