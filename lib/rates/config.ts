// Rate-source configuration from the environment (docs/configuration.md, docs/api.md#exchange-rates): RATE_SOURCES (a comma list
// in order of preference), RATE_REFRESH_SEC, RATE_MAX_AGE_SEC and RATE_URL_<NAME>. Pure: takes
// an env object and returns a validated config, or throws ConfigError naming the variable.
import { ConfigError } from '../config';
import { AmountError, formatDecimal, parseDecimal, type Decimal } from '../money';
import { PROVIDER_NAMES, type ProviderName } from './provider';
import { PROVIDERS } from './providers';
import { checkRate } from './sanity';
import { processEnv } from '../config';

type Env = Record<string, string | undefined>;

export type SourceSpec = { kind: 'http'; name: ProviderName; origin: string } | { kind: 'fixed'; name: string; value: Decimal };

export interface RateConfig {
  sources: SourceSpec[];
  refreshSec: number;
  maxAgeSec: number;
}

export const DEFAULT_RATE_SOURCES = 'coingecko,kraken,coinbase';

function seconds(env: Env, name: string, dflt: number): number {
  const raw = env[name]?.trim();
  if (!raw) return dflt;
  if (!/^\d{1,6}$/.test(raw) || Number(raw) < 1 || Number(raw) > 86_400)
    throw new ConfigError(name, 'must be a whole number of seconds from 1 to 86400');
  return Number(raw);
}

function origin(env: Env, name: ProviderName): string {
  const variable = `RATE_URL_${name.toUpperCase()}`;
  const raw = env[variable]?.trim();
  if (!raw) return PROVIDERS[name].defaultOrigin;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new ConfigError(variable, 'must be an http(s) origin such as http://127.0.0.1:9000');
  }
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || u.username || u.password || u.search || u.hash) {
    throw new ConfigError(variable, 'must be an http(s) origin without credentials, query or fragment');
  }
  return raw.replace(/\/+$/, ''); // a path prefix is kept: the provider's path is appended to it
}

export function loadRateConfig(env: Env = processEnv()): RateConfig {
  const list = (env.RATE_SOURCES?.trim() || DEFAULT_RATE_SOURCES)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (list.length === 0) throw new ConfigError('RATE_SOURCES', 'names no source');
  const sources: SourceSpec[] = [];
  for (const item of list) {
    const lower = item.toLowerCase();
    if (lower.startsWith('fixed:')) {
      let value: Decimal;
      try {
        value = parseDecimal(item.slice('fixed:'.length).trim());
        checkRate(value);
      } catch (e) {
        if (e instanceof AmountError || e instanceof Error) throw new ConfigError('RATE_SOURCES', `"${item}": ${e.message}`);
        throw e;
      }
      sources.push({ kind: 'fixed', name: `fixed:${formatDecimal(value)}`, value });
    } else if ((PROVIDER_NAMES as readonly string[]).includes(lower)) {
      sources.push({ kind: 'http', name: lower as ProviderName, origin: origin(env, lower as ProviderName) });
    } else {
      throw new ConfigError('RATE_SOURCES', `unknown source "${item}" (built-in: ${PROVIDER_NAMES.join(', ')}, or fixed:<value>)`);
    }
  }
  const names = sources.map((s) => s.name);
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup) throw new ConfigError('RATE_SOURCES', `lists "${dup}" twice`);
  return { sources, refreshSec: seconds(env, 'RATE_REFRESH_SEC', 60), maxAgeSec: seconds(env, 'RATE_MAX_AGE_SEC', 600) };
}
