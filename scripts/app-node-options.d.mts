// Types for scripts/app-node-options.mjs (a plain ESM script, also imported by TypeScript tests).
export declare const DEFAULT_HEAP_MB: number;
export declare function appNodeOptions(env?: Record<string, string | undefined>): string;
export declare function appNodeArgs(env?: Record<string, string | undefined>): string[];
export declare const nextBin: (root: string) => string;
export declare function appMallocEnv(env?: Record<string, string | undefined>): Record<string, string>;
