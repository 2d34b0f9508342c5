// Draws the installable app's icons (docs/using-counter.md#installing-the-till-as-an-app-and-when-the-network-drops)
// into public/icons/ with sharp (Next's own image library): the Counter mark, a gold disc with "Ð", at 192 and 512 px, plus a maskable
// 512 px icon whose mark stays inside the 80 % safe zone on a full-bleed background.
// Run once after changing the artwork: `node scripts/make-icons.mjs`; the PNGs are committed.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import sharp from 'sharp';

const OUT = resolve(import.meta.dirname, '..', 'public', 'icons');
const GOLD = '#c2a633';
const INK = '#3b3210';
const BG = '#1d1b16';

/** The mark on a transparent square: a disc filling `scale` of it, "Ð" in the middle. */
function svg(size, { scale = 1, background = null } = {}) {
  const r = (size / 2) * scale;
  const c = size / 2;
  const font = r * 1.25;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">
  ${background ? `<rect width="${size}" height="${size}" fill="${background}"/>` : ''}
  <circle cx="${c}" cy="${c}" r="${r}" fill="${GOLD}"/>
  <text x="${c}" y="${c + font * 0.36}" font-family="DejaVu Sans, Arial, sans-serif" font-weight="bold" font-size="${font}" fill="${INK}" text-anchor="middle">Ð</text>
</svg>`;
}

mkdirSync(OUT, { recursive: true });
const jobs = [
  ['icon-192.png', svg(192)],
  ['icon-512.png', svg(512)],
  ['icon-maskable-512.png', svg(512, { scale: 0.72, background: BG })],
  ['apple-touch-icon.png', svg(180, { scale: 0.8, background: BG })],
];
for (const [name, s] of jobs) {
  await sharp(Buffer.from(s)).png({ compressionLevel: 9, palette: true }).toFile(join(OUT, name));
  console.log('wrote', join('public', 'icons', name));
}
