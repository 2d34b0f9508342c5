// ESLint runs in `npm test` (scripts/test.mjs) and alone as `npm run lint`: the Next.js rules
// (core web vitals), the React hooks rules and the TypeScript ones. Formatting is Prettier's (.prettierrc.json), not ESLint's.
import { defineConfig, globalIgnores } from 'eslint/config';
import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTypescript from 'eslint-config-next/typescript';

// React lives in app/ only; lib/, the tests, the scripts and the benches have no component or
// hook, so the React rules (the React Compiler's analysis above all: over half of the lint's time)
// are not run over them.
const REACT_RULE = /^(react|react-hooks|jsx-a11y)\//;
const reactRulesOff = Object.fromEntries(
  [...nextVitals, ...nextTypescript]
    .flatMap((c) => Object.keys(c.rules ?? {}))
    .filter((r) => REACT_RULE.test(r))
    .map((r) => [r, 'off']),
);

export default defineConfig([
  ...nextVitals,
  ...nextTypescript,
  { files: ['lib/**', 'tests/**', 'scripts/**', 'bench/**', 'i18n/**'], rules: reactRulesOff },
  {
    rules: {
      // A leading underscore names what is taken apart only to be left out (`{ secret: _s, ...rest }`).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    // Signing out, a lost session and the lock leave the page with a full load on purpose: the
    // next page must start from nothing this one held (docs/counter.md#the-lock-screen-and-pin-sign-in).
    files: ['app/**/*.{ts,tsx}'],
    rules: { '@next/next/no-location-assign-relative-destination': 'off' },
  },
  {
    // CommonJS files (the dependency-cruiser config, next.config.js, which loads its next-intl
    // plugin only when building): require() is how they import.
    files: ['**/*.cjs', 'next.config.js'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  globalIgnores([
    '.next/**',
    'out/**',
    'build/**',
    'next-env.d.ts',
    'node_modules/**',
    'lib/db/generated/**',
    'lib/wallet/dist/**',
    'test-results/**',
    'playwright-report/**',
    'data/**',
    'data-demo/**',
    'bench/.cache/**',
    'bench/results/**',
  ]),
]);
