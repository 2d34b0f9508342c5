// What each picture in docs/ shows, and a fingerprint of everything that draws it. A picture is
// stale when the code, styles, icons, words or seeded catalog behind its page have changed since
// it was taken: scripts/screenshots.mjs takes them anew and records each fingerprint in
// docs/screenshots.json, and tests/unit/screenshots-fresh.test.ts fails when one no longer matches.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Each picture: the spec that takes it (and its env switch), and the files that draw its page. */
export const SCREENSHOTS = {
  'cashier.png': { spec: 'tests/e2e/pos.spec.ts', env: 'POS_DOCS_SCREENSHOT', sources: ['app/(pos)', 'public/pos-icons'] },
  'cashier-phone.png': { spec: 'tests/e2e/pos.spec.ts', env: 'POS_DOCS_SCREENSHOT', sources: ['app/(pos)', 'public/pos-icons'] },
  'cashier-payment.png': { spec: 'tests/e2e/pos.spec.ts', env: 'POS_DOCS_SCREENSHOT', sources: ['app/(pos)'] },
  'wallet-check.png': { spec: 'tests/e2e/wallet-check.spec.ts', env: 'WALLET_CHECK_DOCS_SCREENSHOT', sources: ['app/wallet-check'] },
};

/** Every page wears these: the root layout, the global styles and the shared client code. */
const SHARED = ['app/layout.tsx', 'app/globals.css', 'app/_lib'];
const CODE = /\.(tsx?|css|svg|png)$/;

function filesUnder(root, path) {
  const abs = join(root, path);
  if (!existsSync(abs)) throw new Error(`screenshot source ${path} does not exist`);
  if (!statSync(abs).isDirectory()) return [path];
  return readdirSync(abs, { recursive: true })
    .map(String)
    .filter((f) => CODE.test(f))
    .map((f) => relative(root, join(abs, f)))
    .sort();
}

/** The message namespaces the files ask for (useTranslations('till'), getTranslations({ namespace: 'x' })…). */
function namespacesOf(texts) {
  const found = new Set();
  for (const text of texts)
    for (const m of text.matchAll(/(?:useTranslations|getTranslations)\(\s*(?:\{[^}]*namespace:\s*)?['"]([\w.]+)['"]/g))
      found.add(m[1].split('.')[0]);
  return [...found].sort();
}

/** The fingerprint of one picture's page: its files, the spec that seeds and takes it, and its English words. */
export function fingerprint(root, name) {
  const shot = SCREENSHOTS[name];
  const files = [...new Set([...shot.sources, ...SHARED].flatMap((p) => filesUnder(root, p)))].sort();
  const texts = files.map((f) => readFileSync(join(root, f)));
  const messages = JSON.parse(readFileSync(join(root, 'messages', 'en.json'), 'utf8'));
  const h = createHash('sha256');
  files.forEach((f, i) => h.update(`${f}\0`).update(texts[i]).update('\0'));
  h.update(readFileSync(join(root, shot.spec)));
  for (const ns of namespacesOf(texts.filter((_, i) => /\.tsx?$/.test(files[i])).map(String)))
    h.update(`${ns}\0${JSON.stringify(messages[ns] ?? null)}\0`);
  return h.digest('hex').slice(0, 16);
}

export const MANIFEST = 'docs/screenshots.json';
