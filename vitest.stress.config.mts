// `npm run stress`: the stress runs under tests/stress (never part of `npm test`, whose
// vitest.config.mts includes tests/unit and tests/integration only). In-process, no app build.
import base from './vitest.config.mts';

const stressConfig = {
  ...base,
  test: { ...base.test, include: ['tests/stress/**/*.test.ts'], globalSetup: [], maxWorkers: 1, testTimeout: 1_800_000 },
};

export default stressConfig;
