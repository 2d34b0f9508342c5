// Types for scripts/test-failures.mjs (a plain ESM script, also imported by TypeScript tests).
export declare function firstLine(text: unknown): string;
export declare function vitestFailures(report: unknown, root: string): string[];
export declare function playwrightFailures(report: unknown): string[];
