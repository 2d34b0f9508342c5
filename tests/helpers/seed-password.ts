// A password hash in the app's stored form (lib/auth/passwords.ts: scrypt$<log2 N>$<r>$<p>$<salt>$<key>),
// computed synchronously so a spec can seed a user row before its app starts. N = 2^10, the
// lowest the app accepts, since the seed only has to sign in, not to resist guessing.
import { randomBytes, scryptSync } from 'node:crypto';

export function seedHash(password: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(password.normalize('NFKC'), salt, 32, { N: 2 ** 10, r: 8, p: 1 });
  return ['scrypt', 10, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$');
}
