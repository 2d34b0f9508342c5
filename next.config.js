// next-intl without i18n routing: its plugin points Next.js at ./i18n/request.ts
// (docs/using-counter.md#languages).
// The plugin only sets build-time aliases and loaders, yet requiring it loads @swc/core's and
// @parcel/watcher's native modules (+43 MB of RSS, measured with /proc/self/maps), so the
// running server (`next start`, phase-production-server) does without it.
const { PHASE_PRODUCTION_SERVER } = require('next/constants');

// Every answer's security headers (docs/security.md); proxy.ts sends the same on the answers it makes.
const securityHeaders = require('./security-headers.json');

/** @type {import('next').NextConfig} */
const config = {
  // PGlite (WASM + data files) and the database drivers must load from node_modules at
  // runtime, not be bundled; one PGlite instance is shared through globalThis.
  serverExternalPackages: ['@electric-sql/pglite', 'pglite-prisma-adapter', 'pg', '@prisma/adapter-pg'],
  poweredByHeader: false,
  // Each route's code loads on its first request instead of all at start-up: the server is
  // ready sooner (2.5 CPU-s instead of 3.3) and keeps only the routes its users visit (RSS
  // 210 MB instead of 224 MB at start). The first visit to a page pays a few milliseconds once.
  experimental: { preloadEntriesOnStart: false },
  reactStrictMode: true,
  // `npm test` type-checks with `tsc --noEmit` beside the tests (scripts/test-checks.mjs), after
  // the build has written the route types it checks, so its build skips Next.js's own pass
  // (COUNTER_BUILD_TYPECHECK=0). Every other build type-checks as usual.
  typescript: { ignoreBuildErrors: process.env.COUNTER_BUILD_TYPECHECK === '0' },
  async headers() {
    return [
      { source: '/:path*', headers: securityHeaders },
      // The customer's checkout page (docs/using-counter.md): one payment's own page, never
      // kept by a cache or listed by a search engine; its 404 answers the same.
      {
        source: '/checkout/:path*',
        headers: [
          { key: 'Cache-Control', value: 'no-store' },
          { key: 'X-Robots-Tag', value: 'noindex' },
        ],
      },
      // The customer's display (docs/counter.md): its pairing code may sit in the URL.
      {
        source: '/display',
        headers: [
          { key: 'Cache-Control', value: 'no-store' },
          { key: 'X-Robots-Tag', value: 'noindex' },
        ],
      },
    ];
  },
};

module.exports = (phase) => (phase === PHASE_PRODUCTION_SERVER ? config : require('next-intl/plugin')('./i18n/request.ts')(config));
