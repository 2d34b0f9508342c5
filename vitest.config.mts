import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

export default defineConfig({
  resolve: { alias: { '@': fileURLToPath(new URL('./', import.meta.url)) } },
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/integration/**/*.test.ts'],
    environment: 'node',
    // Code under test that runs in-process logs warnings and errors only, so the suite's output
    // stays readable (the apps tests start keep their own LOG_LEVEL and captured logs).
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' },
    globalSetup: ['tests/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // Two cores: integration files start servers and databases; keep parallelism modest.
    maxWorkers: 2,
  },
});
