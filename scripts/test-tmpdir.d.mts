// Types for scripts/test-tmpdir.mjs (a plain ESM script, also imported by TypeScript tests).
export declare function ramTmpdir(env?: Record<string, string | undefined>): string | null;
export declare function removeTmpdir(dir: string | null): void;
