// ESLint runs in `npm test` (scripts/lint.mjs): the Next.js rules (core web vitals), the React
// hooks rules and the TypeScript ones. Formatting is Prettier's (.prettierrc.json), not ESLint's.
import { defineConfig, globalIgnores } from 'eslint/config';
import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTypescript from 'eslint-config-next/typescript';

export default defineConfig([
  ...nextVitals,
  ...nextTypescript,
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
  globalIgnores([
    '.next/**', 'out/**', 'build/**', 'next-env.d.ts', 'node_modules/**', 'lib/db/generated/**', 'lib/wallet/dist/**',
    'test-results/**', 'playwright-report/**', 'data/**', 'data-demo/**', 'bench/.cache/**', 'bench/results/**',
  ]),
]);
