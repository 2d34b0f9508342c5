// The public test vectors live in tests/fixtures/, each beside a `.source.txt` naming its origin.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const FIXTURES_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures');

export const fixturePath = (name: string): string => path.join(FIXTURES_DIR, name);
export const readFixtureText = (name: string): string => readFileSync(fixturePath(name), 'utf8');
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const readFixture = <T = any>(name: string): T => JSON.parse(readFixtureText(name)) as T;
