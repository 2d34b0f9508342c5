// Regenerates docs/dogeconnect-vectors.json (docs/wallet-sdk.md, "Test vectors") from fixed keys
// and fixed BIP-340 auxiliary randomness: the output is the same bytes on every run.
//   node scripts/dogeconnect-vectors.mjs            write docs/dogeconnect-vectors.json
//   node scripts/dogeconnect-vectors.mjs --out F    write F instead
//   node scripts/dogeconnect-vectors.mjs --check    exit 1 when the file differs from a fresh build
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createJiti } from 'jiti';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const jiti = createJiti(import.meta.url, { alias: { '@': root } });
const { vectorsText } = await jiti.import(join(root, 'scripts', 'dogeconnect-vectors-data.ts'));
const text = vectorsText();
const args = process.argv.slice(2);
const target = args.includes('--out') ? args[args.indexOf('--out') + 1] : join(root, 'docs', 'dogeconnect-vectors.json');
if (args.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(target, 'utf8');
  } catch {
    /* missing: differs */
  }
  if (current !== text) {
    console.error(`${target} is not what scripts/dogeconnect-vectors.mjs builds: regenerate it`);
    process.exit(1);
  }
  console.log(`${target} is up to date`);
} else {
  writeFileSync(target, text);
  console.log(`wrote ${target} (${Buffer.byteLength(text)} bytes)`);
}
