// Structured JSON-lines logger. Values under secret-looking keys are redacted, so a careless
// call site cannot leak a password, key or token into the log.
import { processEnv } from './config';
type Level = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };
const SECRET_KEY = /pass(word)?|secret|token|api[_-]?key|authorization|cookie|seed|xprv|private|wif|database_?url|rpc_?url/i;

export type Fields = Record<string, unknown>;

export function redact(value: unknown, depth = 0): unknown {
  if (depth > 6 || value === null || typeof value !== 'object') {
    return typeof value === 'bigint' ? value.toString() : value;
  }
  if (value instanceof Error) return { name: value.name, message: value.message };
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  const out: Fields = {};
  for (const [k, v] of Object.entries(value)) out[k] = SECRET_KEY.test(k) ? '[redacted]' : redact(v, depth + 1);
  return out;
}

export interface Logger {
  debug(msg: string, fields?: Fields): void;
  info(msg: string, fields?: Fields): void;
  warn(msg: string, fields?: Fields): void;
  error(msg: string, fields?: Fields): void;
  child(fields: Fields): Logger;
}

export function createLogger(
  level: Level = (processEnv().LOG_LEVEL as Level) || 'info',
  base: Fields = {},
  sink: (line: string) => void = (line) => process.stdout.write(line + '\n'),
): Logger {
  const min = ORDER[level] ?? ORDER.info;
  const emit = (lvl: Level, msg: string, fields?: Fields) => {
    if (ORDER[lvl] < min) return;
    const rec = { time: new Date().toISOString(), level: lvl, msg, ...(redact({ ...base, ...fields }) as Fields) };
    sink(JSON.stringify(rec));
  };
  return {
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
    child: (f) => createLogger(level, { ...base, ...f }, sink),
  };
}

const g = globalThis as { __counterLog?: Logger };
export const log: Logger = g.__counterLog ?? (g.__counterLog = createLogger());
