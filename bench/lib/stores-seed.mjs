// The data of the `stores` benchmark, written in bulk with SQL rather than through the API: the
// stores beyond the first, each with its own receiving wallet (an account xpub of its own), its
// own relay signing key (a BIP-340 key as lib/payments/creation/relay-key.ts makes it) and its own
// owner-scoped API key (stored as lib/auth/api-keys.ts stores one: the SHA-256 of the secret);
// then the payments, copies of a real one spread over every store (bench/lib/seed.mjs).
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { createJiti } from 'jiti';
import { ROOT } from './app.mjs';
import { seedPaymentsInto } from './seed.mjs';

const jiti = createJiti(import.meta.url, { alias: { '@': ROOT } });

/**
 * `count` distinct regtest account keys: the public children of one account key, each a valid
 * account key of its own (one point multiplication each, not a hardened path per store).
 */
export async function storeXpubs(count) {
  const doge = await jiti.import(join(ROOT, 'lib/doge/index.ts'));
  const root = doge.derivePath(doge.hdFromSeed(new Uint8Array(32).fill(44), doge.REGTEST), "m/44'/1'/0'");
  return Array.from({ length: count }, (_, i) => doge.serializeXpub(doge.derivePublic(root, [i])));
}

/**
 * Adds stores until there are `xpubs.length` (the first, made by the app's start-up, has
 * xpubs[0]), each with a relay key and an API key. Returns every store's id and API secret in
 * store order; `firstKey` is the first store's (its BOOTSTRAP_API_KEY).
 */
export async function seedStores(client, xpubs, firstKey) {
  const { schnorr } = await import('@noble/curves/secp256k1.js');
  const { roleScopes } = await jiti.import(join(ROOT, 'lib/auth/roles.ts'));
  const more = xpubs.slice(1);
  const { rows } = await client.query(
    `INSERT INTO store (name, store_xpub)
     SELECT 'Bench store ' || (i + 1), x FROM unnest($1::text[]) WITH ORDINALITY AS u(x, i) ORDER BY i
     RETURNING id`,
    [more],
  );
  const ids = rows.map((r) => Number(r.id)).sort((a, b) => a - b);
  const secrets = ids.map(() => 'ck_' + randomBytes(32).toString('base64url'));
  const relay = ids.map(() => {
    const secretKey = schnorr.utils.randomSecretKey();
    return { secretKey: Buffer.from(secretKey), pubkey: Buffer.from(schnorr.getPublicKey(secretKey)).toString('hex') };
  });
  await client.query(
    `INSERT INTO relay_key (store_id, pubkey, secret_key, token_key, active)
     SELECT s, p, k, '\\x'::bytea, TRUE FROM unnest($1::int[], $2::text[], $3::bytea[]) AS u(s, p, k)`,
    [ids, relay.map((r) => r.pubkey), relay.map((r) => r.secretKey)],
  );
  await client.query(
    `INSERT INTO api_key (store_id, id, name, prefix, key_hash, scopes)
     SELECT s, i, 'Bench', p, h, $5::text[] FROM unnest($1::int[], $2::text[], $3::text[], $4::text[]) AS u(s, i, p, h)`,
    [
      ids,
      ids.map(() => randomUUID()),
      secrets.map((s) => s.slice(0, 9)),
      secrets.map((s) => createHash('sha256').update(s, 'utf8').digest('hex')),
      [...roleScopes('owner')],
    ],
  );
  // Payments made for /relay/pay stay open until it runs, however slow their making on a loaded machine.
  await client.query(`UPDATE store SET timeout_sec = 86400`);
  const first = await client.query(`SELECT min(id) AS id FROM store`);
  return [{ id: Number(first.rows[0].id), key: firstKey }, ...ids.map((id, i) => ({ id, key: secrets[i] }))];
}

/**
 * `n` payments copied from `templateId`, payment g in store `stores[floor(g / 4) % stores.length]` (so each store has
 * every status of bench/lib/seed.mjs's mix, which cycles with g % 4), each
 * with a receive address of its own (a valid one of a random key: the views make URIs of it).
 */
export async function seedStorePayments(client, templateId, n, stores) {
  const doge = await jiti.import(join(ROOT, 'lib/doge/index.ts'));
  const network = doge.getNetwork('regtest');
  const addresses = Array.from({ length: n }, () => doge.encodeAddress('p2pkh', randomBytes(20), network));
  const total = await seedPaymentsInto(client, templateId, n, {
    columns: {
      store_id: `($4::int[])[1 + (g / 4) % ${stores.length}]`,
      address: `($5::text[])[g]`,
    },
    params: [stores.map((s) => s.id), addresses],
  });
  // As autovacuum leaves a table at rest: statistics, and the visibility map for index-only scans.
  await client.query('VACUUM ANALYZE');
  return total;
}

/** Ids of `count` seeded payments of the stores `of` picks (by store position), spread over them. */
export function seededIdsOf(templateId, n, storeCount, count, of = () => true) {
  const ids = [];
  for (let g = 1, i = 0; ids.length < count && i < n * 4; i++) {
    g = 1 + ((i * 7919) % n);
    if (of(Math.floor(g / 4) % storeCount)) ids.push(`${templateId}-${g}`);
  }
  return ids;
}
