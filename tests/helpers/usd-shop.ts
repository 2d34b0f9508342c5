// A devnet shop priced in USD (docs/api.md#pricing-in-a-fiat-currency), with its rates served by
// a local rate server in the providers' real formats: the app starts with an owner and a
// bootstrap API key, the owner sets the pricing currency, and the worker's first USD rate is in.
import { expect } from 'vitest';
import { devnetAppEnv, startApp, type AppServer } from './app-server';
import { rateEnv, startRateServer, type RateServer } from './rate-server';
import { patchStoreSettings } from './hosted-stores';
import { signIn } from './sessions';
import { until } from './wait';

/** The shop's owner, who prices it in USD. */
export const USD_SHOP_OWNER = { email: 'owner@shop.test', password: 'correct horse battery staple' };

export interface UsdShop {
  app: AppServer;
  rates: RateServer;
  stop(): Promise<void>;
}

/**
 * Starts the rate server quoting `value` and the shop that reads `sources` from it every second
 * (a rate older than 3 s is stale), and waits until /api/v1/rates answers USD at `value`.
 */
export async function startUsdShop(o: { value: string; sources: string; xpub: string; key: string }): Promise<UsdShop> {
  const rates = await startRateServer({ kind: 'good', value: o.value });
  let app: AppServer | undefined;
  try {
    app = await startApp(
      devnetAppEnv({
        ...rateEnv(rates.url),
        RATE_SOURCES: o.sources,
        RATE_REFRESH_SEC: '1',
        RATE_MAX_AGE_SEC: '3',
        STORE_XPUB: o.xpub,
        BOOTSTRAP_API_KEY: o.key,
        ADMIN_EMAIL: USD_SHOP_OWNER.email,
        ADMIN_PASSWORD: USD_SHOP_OWNER.password,
      }),
    );
    await usdPriced(app.url, o);
  } catch (e) {
    await app?.stop();
    await rates.close();
    throw e;
  }
  const started = app;
  return {
    app: started,
    rates,
    async stop() {
      await started.stop();
      await rates.close();
    },
  };
}

/** The owner prices the store in USD; then waits for the worker's first USD rate, at `value`. */
async function usdPriced(url: string, o: { value: string; key: string }): Promise<void> {
  await patchStoreSettings(url, await signIn(url, USD_SHOP_OWNER.email, USD_SHOP_OWNER.password), { pricing_currency: 'USD' });
  const fresh = await until(
    async () => {
      const r = await fetch(`${url}/api/v1/rates`, { headers: { Authorization: `Bearer ${o.key}` } });
      return (await r.json().catch(() => null)) as { currency?: string; value?: string } | null;
    },
    (b) => b?.currency === 'USD' && b?.value === o.value,
    20_000,
  );
  expect(fresh).toMatchObject({ currency: 'USD', value: o.value });
}
