// The translations (docs/using-counter.md#languages): every language file has exactly the keys of en.json, no
// empty string, the same ICU placeholders (a translated {amount} must still be {amount}), and
// parses as ICU MessageFormat; amounts are never written inside a message, only as {placeholders}
// ("DOGE" may name the currency in a label, never follow a number). The back office and the
// setup page have their sections too.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import IntlMessageFormat from 'intl-messageformat';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { LOCALES } from '@/lib/i18n/locales';

type Tree = { [k: string]: string | Tree };
const load = (l: string) => JSON.parse(readFileSync(join(__dirname, '../../messages', `${l}.json`), 'utf8')) as Tree;

function flatten(t: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(t)) {
    if (typeof v === 'string') out.set(prefix + k, v);
    else for (const [kk, vv] of flatten(v, `${prefix}${k}.`)) out.set(kk, vv);
  }
  return out;
}

/** The argument and tag names of a message ({name}, {n, plural, …}, <price></price>), from the ICU parser. */
function placeholders(msg: string): string[] {
  const names = new Set<string>();
  const walk = (els: MessageFormatElement[]) => {
    for (const el of els) {
      if ('value' in el && typeof el.value === 'string' && el.type !== TYPE.literal) names.add(el.value);
      if (el.type === TYPE.tag) walk(el.children);
      if (el.type === TYPE.plural || el.type === TYPE.select) for (const o of Object.values(el.options)) walk(o.value);
    }
  };
  walk(parse(msg));
  return [...names].sort();
}

const en = flatten(load('en'));

describe('messages', () => {
  it('en.json is not empty and has the till, login, receipt, navigation, back office and setup', () => {
    for (const ns of [
      'till.',
      'payment.',
      'sales.',
      'login.',
      'receipt.',
      'nav.',
      'notReady.',
      'admin.',
      'readiness.',
      'adminInvoices.',
      'adminInvoice.',
      'adminCatalog.',
      'adminUsers.',
      'adminSettings.',
      'adminRates.',
      'adminReports.',
      'adminNode.',
      'adminAudit.',
      'setup.',
    ]) {
      expect(
        [...en.keys()].some((k) => k.startsWith(ns)),
        ns,
      ).toBe(true);
    }
  });
  for (const l of LOCALES) {
    describe(l, () => {
      const m = flatten(load(l));
      it('has exactly the keys of en.json', () => {
        expect([...m.keys()].sort()).toEqual([...en.keys()].sort());
      });
      it('has no empty string', () => {
        for (const [k, v] of m) expect(v.trim(), k).not.toBe('');
      });
      it('keeps every placeholder and parses as ICU MessageFormat', () => {
        for (const [k, v] of m) {
          expect(placeholders(v), k).toEqual(placeholders(en.get(k)!));
          expect(() => new IntlMessageFormat(v, l), k).not.toThrow();
        }
      });
      it('writes no amount of money itself (digits with a separator, Ð, or a number of DOGE)', () => {
        const labels = new Set(['till.taxRateError', 'adminSettings.fiatRate']); // "7.5" as a typing example; "Fiat per 1 DOGE"
        for (const [k, v] of m) expect(/Ð|\d[.,]\d{2}\b|\d\s*DOGE\b/.test(v) && !labels.has(k), k).toBe(false);
      });
      if (l !== 'en') {
        it('is a translation, not a copy of English (beyond names and shared words)', () => {
          const same = [...m].filter(([k, v]) => v === en.get(k));
          expect(same.length / m.size).toBeLessThan(0.15);
        });
      }
    });
  }
});
