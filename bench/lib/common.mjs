// Shared pieces of the benchmark modules.
import { randomBytes } from 'node:crypto';
import { startApp, createPayment } from './app.mjs';
import { seedPayments, seededIds } from './seed.mjs';

// A mainnet watch-only key (the vendor API tests use the same one).
export const DGUB = 'dgub8nnbYqHETn61ajXkw8Z8cHasQNrPnQpb85448DY2ie7PmNecxAm6BjTnhNCvZY3qJk1MKZ9Z5HQasQ83ARb99nmduT7dunvxgcvBFVHuvrq';

/** An app (WORKER=off unless overridden) whose database holds `n` payments besides one template. */
export async function appWithPayments(n, env = {}) {
  const key = 'bench-' + randomBytes(16).toString('hex');
  const base = { STORE_XPUB: DGUB, BOOTSTRAP_API_KEY: key, WORKER: 'off', ...env };
  const first = await startApp(base);
  const template = await createPayment(first, key);
  const dataDir = first.dataDir;
  await first.stop({ keepData: true });
  const total = await seedPayments(dataDir, template.id, n);
  const app = await startApp(base, { dataDir });
  const stop = app.stop;
  app.stop = async () => {
    await stop();
    (await import('node:fs')).rmSync(dataDir, { recursive: true, force: true });
  };
  return { app, key, template, total, ids: (count) => seededIds(template.id, n, count) };
}

export const ratio = (a, b) => (b > 0 ? Math.round((a / b) * 1000) / 1000 : null);
