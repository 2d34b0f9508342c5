// The app version, from package.json (read once; no bundler JSON import needed).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

let cached: string | undefined;
export function appVersion(): string {
  if (cached === undefined) {
    try {
      cached = String(JSON.parse(readFileSync(join(process.cwd(), 'package.json'), 'utf8')).version ?? '0.0.0');
    } catch {
      cached = '0.0.0';
    }
  }
  return cached;
}
