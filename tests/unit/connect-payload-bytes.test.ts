// Payload bytes any decoder reads (docs/relay.md): for random payments, with non-ASCII text and
// `> ? ~` anywhere a vendor can put text, the envelope's Base64 holds no `+` or `/`, a strict
// URL-safe decoder reads the same JSON value, and both Counter's verifier and the wallet SDK's
// accept the signature.
import fc from 'fast-check';
import { base64url } from '@scure/base';
import { describe, expect, it } from 'vitest';
import { payloadJson, signEnvelope, verifyPaymentEnvelope as relayVerify } from '../../lib/connect';
import { formatKoinu } from '../../lib/money';
import { verifyPaymentEnvelope as walletVerify } from '../../lib/wallet';
import { RELAY_H15, RELAY_SECRET, SHOP_ADDRESS, makePayment } from '../helpers/connect-payment';

// Text a vendor types: the characters that break a URL-safe decoder, accents, Cyrillic, CJK,
// emoji (beyond U+FFFF), controls, and any other Unicode string.
const tricky = fc.constantFrom('>', '?', '~', '/', '+', '&', '=', '"', '\\', 'é', 'Ж', '中', '😀', '\u007f', '\u0085', '\n', '\t', ' ');
const text = fc.oneof(
  fc.array(fc.oneof(tricky, fc.string({ maxLength: 4 })), { maxLength: 12 }).map((a) => a.join('')),
  fc.string({ unit: 'binary', maxLength: 24 }),
  fc.string({ unit: 'grapheme', maxLength: 24 }),
);
const nonEmpty = text.map((s) => s || 'x');
const koinu = fc.bigInt({ min: 1n, max: 10n ** 13n }); // up to 100,000 DOGE a line, 99 lines stay under the cap

const payment = fc
  .record({
    vendor_name: nonEmpty,
    vendor_address: text,
    note: text,
    order_reference: text,
    vendor_order_id: text,
    query: text,
    total: koinu,
    items: fc.array(fc.record({ name: nonEmpty, desc: text, count: fc.integer({ min: 1, max: 99 }), unit: koinu }), {
      minLength: 1,
      maxLength: 30,
    }),
    meta: fc.dictionary(fc.constantFrom('com.example.table', 'com.example.note', 'org.shop.x'), text),
  })
  .map((r) =>
    makePayment({
      issued: '2099-01-01T00:00:00Z',
      vendor_name: r.vendor_name,
      vendor_address: r.vendor_address,
      note: r.note,
      order_reference: r.order_reference,
      vendor_order_id: r.vendor_order_id,
      vendor_order_url: `https://shop.example/order?q=${encodeURIComponent(r.query)}&x=>~?`,
      total: formatKoinu(r.total),
      items: r.items.map((it, i) => ({
        type: 'item',
        id: `sku-${i}`,
        name: it.name,
        desc: it.desc,
        icon: '',
        count: it.count,
        unit: formatKoinu(it.unit),
        total: formatKoinu(it.unit * BigInt(it.count)),
        tax: '',
      })),
      outputs: [{ type: 'p2pkh', address: SHOP_ADDRESS, amount: formatKoinu(r.total) }],
      meta: r.meta,
    }),
  );

describe('payload bytes any decoder reads', () => {
  it('random payments: no + or / in the Base64, the same JSON under a strict URL-safe decoder, and both verifiers accept', () => {
    fc.assert(
      fc.property(payment, (p) => {
        const { envelope, payloadBytes } = signEnvelope(p, RELAY_SECRET);
        expect(envelope.payload).not.toMatch(/[+/]/);
        // every payload byte is printable ASCII other than > ? ~ (one expect for the lot: one per
        // byte was most of this test's time, a payload being kilobytes)
        expect(payloadBytes.findIndex((b) => b < 0x20 || b > 0x7d || b === 0x3e || b === 0x3f)).toBe(-1);
        const urlSafe = base64url.decode(envelope.payload); // throws on + or /
        expect(Buffer.from(urlSafe).equals(Buffer.from(payloadBytes))).toBe(true);
        expect(JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(urlSafe))).toEqual(JSON.parse(JSON.stringify(p)));
        expect(relayVerify(envelope, { expectedHash15: RELAY_H15 }).payment.vendor_name).toBe(p.vendor_name);
        expect(walletVerify(envelope, RELAY_H15).payment.note).toBe(p.note);
      }),
      { numRuns: 300 },
    );
  });

  it('the cases seen failing in the wild now decode: Fish > Chips, Cyrillic, an accented menu at 14.25', () => {
    const cases = [
      makePayment({ vendor_name: 'Fish > Chips', issued: '2099-01-01T00:00:00Z' }),
      makePayment({ vendor_name: 'Кофейня «Утро»', issued: '2099-01-01T00:00:00Z' }),
      makePayment({ vendor_name: 'Café Crème', note: 'Grüße ~ à bientôt?', total: '14.25', issued: '2099-01-01T00:00:00Z' }),
    ];
    for (const p of cases) {
      const { envelope } = signEnvelope(p, RELAY_SECRET);
      expect(envelope.payload).not.toMatch(/[+/]/);
      expect(JSON.parse(Buffer.from(base64url.decode(envelope.payload)).toString('utf8'))).toEqual(JSON.parse(JSON.stringify(p)));
    }
    // Without the escaping, the same JSON text does hold + or / (the test would catch a regression).
    expect(cases.some((p) => /[+/]/.test(Buffer.from(JSON.stringify(p)).toString('base64')))).toBe(true);
  });

  it('escapes exactly: printable ASCII but > ? ~ passes through, the rest becomes \\uXXXX (surrogate pairs beyond U+FFFF)', () => {
    expect(payloadJson({ a: 'Fish > Chips? ~ok' })).toBe('{"a":"Fish \\u003e Chips\\u003f \\u007eok"}');
    expect(payloadJson({ n: 'é😀\u007f\n' })).toBe('{"n":"\\u00e9\\ud83d\\ude00\\u007f\\n"}');
    expect(payloadJson({ k: 'plain ASCII {}[]:,+/=&' })).toBe(JSON.stringify({ k: 'plain ASCII {}[]:,+/=&' }));
    expect(payloadJson({ lone: '\ud800' })).toBe('{"lone":"\\ud800"}');
    expect(() => payloadJson(undefined)).toThrow(TypeError);
  });
});
