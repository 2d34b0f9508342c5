// The layers of Counter, checked on every `npm test` (tests/unit/architecture-layers.test.ts)
// and by hand with `npx depcruise lib app`. docs/architecture.md#layers explains them.
const { existsSync, readdirSync } = require('node:fs');
const { join } = require('node:path');

// Modules with a public surface: if lib/X/index.ts exists, app/ imports lib/X only through it.
const withIndex = readdirSync(join(__dirname, 'lib'), { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join(__dirname, 'lib', d.name, 'index.ts')))
  .map((d) => d.name);

// Every lib folder sits in one layer, lowest first, and imports only folders of its own layer or
// below (docs/architecture.md#layers). A folder in no layer stops the check with its name.
const LAYERS = [
  ['foundation', ['money', 'doge', 'text', 'time', 'net', 'db']],
  ['protocol', ['connect', 'p2p', 'catalog', 'i18n', 'stores']],
  ['services', ['auth', 'chain', 'rates', 'stock', 'wallet']],
  ['payment-core', ['payments']],
  ['over-the-core', ['relay', 'webhooks', 'invoices', 'receipts', 'refunds', 'node-api', 'demo', 'operator']],
  ['screens', ['backoffice', 'pos', 'checkout', 'reports', 'cash', 'display', 'wallet-check']],
  ['delivery', ['live', 'api']],
];
const placed = LAYERS.flatMap(([, folders]) => folders);
const unplaced = readdirSync(join(__dirname, 'lib'), { withFileTypes: true })
  .filter((d) => d.isDirectory() && !placed.includes(d.name))
  .map((d) => d.name);
if (unplaced.length) throw new Error(`.dependency-cruiser.cjs: lib/${unplaced.join(', lib/')} in no layer`);
const above = (i) => LAYERS.slice(i + 1).flatMap(([, folders]) => folders);
// The faces over the payment core: each calls lib/payments and none calls another.
const FACES = ['relay', 'webhooks', 'live'];

// Temporary exceptions: known violations that another change is about to remove, each a `from`
// path the rule skips, with the reason. The payment core's (the pay-sql ↔ state/relay-accept
// cycle) went with its move into lib/payments; the list is meant to stay empty.
const KNOWN = {
  'no-circular': [],
};
const known = (rule) => KNOWN[rule] ?? [];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'lib-not-next',
      comment: 'lib/ is the domain: it never imports Next.js or app/, so it can be tested without a server.',
      severity: 'error',
      from: { path: '^lib/' },
      to: { path: ['^app/', '^node_modules/next/', '^next(/|$)'] },
    },
    ...LAYERS.slice(0, -1).map(([layer, folders], i) => ({
      name: 'layers-point-down',
      comment: `The ${layer} layer (lib/${folders.join(', lib/')}) never imports a layer above it.`,
      severity: 'error',
      from: { path: `^lib/(${folders.join('|')})/` },
      to: { path: `^lib/(${above(i).join('|')})/` },
    })),
    {
      name: 'faces-apart',
      comment: 'The wallet-facing relay, the webhooks and the live path each stand on lib/payments alone: none imports another.',
      severity: 'error',
      from: { path: `^lib/(${FACES.join('|')})/` },
      to: { path: `^lib/(${FACES.join('|')})/`, pathNot: `^lib/$1/` },
    },
    {
      name: 'wallet-check-above',
      comment:
        'The wallet check stands on the relay, the chain and the protocol; none of them imports it (the relay and the ' +
        'chain watch reach it through the ports the composition root fills: docs/wallet-check.md#what-the-relay-records).',
      severity: 'error',
      from: { path: '^lib/(relay|payments|webhooks|live)/' },
      to: { path: '^lib/wallet-check/' },
    },
    {
      name: 'domain-not-http',
      comment: 'Domain code returns typed errors; only lib/api and app/ know HTTP (lib/api helpers).',
      severity: 'error',
      from: { path: '^lib/', pathNot: '^lib/api/' },
      to: { path: '^lib/api/' },
    },
    {
      name: 'app-through-index',
      comment:
        'app/ imports a lib module that has an index.ts only through that index (its public surface), ' +
        'or, for client components, through its client.ts (the part safe in a browser bundle).',
      severity: 'error',
      from: { path: '^app/' },
      to: { path: `^lib/(${withIndex.join('|')})/`, pathNot: `^lib/(${withIndex.join('|')})/(index|client)\\.ts$` },
    },
    {
      name: 'lib-through-index',
      comment:
        "A lib folder, or one of lib's own files (config, boot, the worker…), imports another lib folder only through " +
        'its index.ts, or for code a browser bundle reaches, its client.ts: what a folder offers is what these export.',
      severity: 'error',
      from: { path: '^lib/([^/]+)' },
      to: { path: '^lib/[^/]+/', pathNot: ['^lib/$1/', '^lib/[^/]+/(index|client)\\.ts$'] },
    },
    {
      name: 'no-circular',
      comment: 'No import cycle anywhere in lib/ and app/.',
      severity: 'error',
      from: { path: '^(lib|app)/', pathNot: known('no-circular') },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['^lib/wallet/dist/', '^lib/db/generated/', '\\.next/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.d.ts', '.js', '.mjs', '.cjs', '.json'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
  },
};
