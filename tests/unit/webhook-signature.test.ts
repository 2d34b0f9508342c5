import { describe, expect, it } from 'vitest';
import { signWebhook, verifyWebhookSignature } from '../../lib/webhooks/signature';

// Known vectors computed independently with OpenSSL:
//   printf '%s' '1700000000.{"id":"evt_1","type":"payment.accepted"}' | openssl dgst -sha256 -hmac 'whsec_test'
//   printf '%s' '1764000000.{"note":"Café ☕ Ð"}' | openssl dgst -sha256 -hmac 'sëcret'     (UTF-8 shell)
const V1 = {
  secret: 'whsec_test',
  body: '{"id":"evt_1","type":"payment.accepted"}',
  t: 1_700_000_000,
  mac: '4fa403ec34c6e32c4873c5577b0986a77462732b4089e2350c8067a8281fadd1',
};
const V2 = {
  secret: 'sëcret',
  body: '{"note":"Café ☕ Ð"}',
  t: 1_764_000_000,
  mac: 'ef7771b9fc91eb199a77381ec07a628b1377c6b60c26df2835797d953ef30b3d',
};

describe('signWebhook', () => {
  it('matches the OpenSSL vectors, hashing the body as UTF-8', () => {
    expect(signWebhook(V1.secret, V1.body, V1.t)).toBe(`t=${V1.t},v1=${V1.mac}`);
    expect(signWebhook(V2.secret, V2.body, V2.t)).toBe(`t=${V2.t},v1=${V2.mac}`);
  });

  it('refuses an empty secret and a non-integer or negative timestamp', () => {
    expect(() => signWebhook('', 'x', 1)).toThrow(TypeError);
    expect(() => signWebhook('s', 'x', 1.5)).toThrow(TypeError);
    expect(() => signWebhook('s', 'x', -1)).toThrow(TypeError);
    expect(() => signWebhook('s', 'x', Number.NaN)).toThrow(TypeError);
  });

  it('changes with the body, the timestamp and the secret', () => {
    const base = signWebhook('s', '{}', 10);
    expect(signWebhook('s', '{} ', 10)).not.toBe(base);
    expect(signWebhook('s', '{}', 11)).not.toBe(base);
    expect(signWebhook('t', '{}', 10)).not.toBe(base);
  });
});

describe('verifyWebhookSignature', () => {
  const header = `t=${V1.t},v1=${V1.mac}`;
  const at = (now: number, toleranceSec?: number) => ({ now, toleranceSec });

  it('accepts the known vector within the tolerance, from a string or the raw bytes', () => {
    expect(verifyWebhookSignature(V1.secret, V1.body, header, { now: V1.t })).toBe(true);
    expect(verifyWebhookSignature(V1.secret, Buffer.from(V1.body), header, { now: V1.t + 300 })).toBe(true);
    expect(verifyWebhookSignature(V2.secret, new TextEncoder().encode(V2.body), `t=${V2.t},v1=${V2.mac}`, { now: V2.t })).toBe(true);
  });

  it('enforces the tolerance in both directions (default 300 s)', () => {
    expect(verifyWebhookSignature(V1.secret, V1.body, header, at(V1.t + 300))).toBe(true);
    expect(verifyWebhookSignature(V1.secret, V1.body, header, at(V1.t - 300))).toBe(true);
    expect(verifyWebhookSignature(V1.secret, V1.body, header, at(V1.t + 301))).toBe(false);
    expect(verifyWebhookSignature(V1.secret, V1.body, header, at(V1.t - 301))).toBe(false);
    expect(verifyWebhookSignature(V1.secret, V1.body, header, at(V1.t + 3600, 3600))).toBe(true);
    expect(verifyWebhookSignature(V1.secret, V1.body, header, at(V1.t + 1, 0))).toBe(false);
    // A caller passing milliseconds by mistake fails closed.
    expect(verifyWebhookSignature(V1.secret, V1.body, header, at(V1.t * 1000))).toBe(false);
  });

  it('rejects a wrong secret, a changed body and a changed timestamp', () => {
    expect(verifyWebhookSignature('whsec_other', V1.body, header, at(V1.t))).toBe(false);
    expect(verifyWebhookSignature(V1.secret, V1.body + ' ', header, at(V1.t))).toBe(false);
    expect(verifyWebhookSignature(V1.secret, V1.body, `t=${V1.t + 1},v1=${V1.mac}`, at(V1.t))).toBe(false);
  });

  it('parses tolerantly: whitespace, case, order, unknown schemes, several v1 (any may match)', () => {
    const wrong = 'ab'.repeat(32);
    for (const h of [
      ` t = ${V1.t} , v1 = ${V1.mac} `,
      `v1=${V1.mac},t=${V1.t}`,
      `T=${V1.t},V1=${V1.mac.toUpperCase()}`,
      `t=${V1.t},v0=deadbeef,v1=${wrong},v1=${V1.mac},v2=zzz`,
      `t=${V1.t},,garbage,v1=${V1.mac}`,
      [`t=${V1.t}`, `v1=${V1.mac}`],
    ]) {
      expect(verifyWebhookSignature(V1.secret, V1.body, h, at(V1.t)), String(h)).toBe(true);
    }
    expect(verifyWebhookSignature(V1.secret, V1.body, `t=${V1.t},v1=${wrong}`, at(V1.t))).toBe(false);
  });

  it('returns false, never throws, on garbage', () => {
    const bad: unknown[] = [
      undefined,
      null,
      '',
      'garbage',
      't=,v1=',
      `v1=${V1.mac}`,
      `t=${V1.t}`,
      `t=${V1.t},v1=${V1.mac.slice(2)}`,
      `t=${V1.t},v1=${V1.mac}00`,
      `t=${V1.t},v1=${'zz'.repeat(32)}`,
      `t=-${V1.t},v1=${V1.mac}`,
      `t=${V1.t}.5,v1=${V1.mac}`,
      `t=1e9,v1=${V1.mac}`,
      `t=${V1.t},t=${V1.t},v1=${V1.mac}`,
      `t=${'9'.repeat(400)},v1=${V1.mac}`,
      'x'.repeat(10_000),
      42,
      {},
      [42],
    ];
    for (const h of bad) {
      expect(() => verifyWebhookSignature(V1.secret, V1.body, h as string, at(V1.t))).not.toThrow();
      expect(verifyWebhookSignature(V1.secret, V1.body, h as string, at(V1.t)), String(h)).toBe(false);
    }
    expect(verifyWebhookSignature('', V1.body, header, at(V1.t))).toBe(false);
    expect(verifyWebhookSignature(V1.secret, null as unknown as string, header, at(V1.t))).toBe(false);
    expect(verifyWebhookSignature(V1.secret, V1.body, header, { now: Number.NaN })).toBe(false);
    expect(verifyWebhookSignature(V1.secret, V1.body, header, undefined as unknown as { now: number })).toBe(false);
    expect(verifyWebhookSignature(V1.secret, V1.body, header, { now: V1.t, toleranceSec: -1 })).toBe(false);
  });

  it('round-trips with signWebhook', () => {
    const body = JSON.stringify({ id: 'evt_x', payment: { total: '123456789012345678' } });
    const h = signWebhook('k', body, 1_800_000_000);
    expect(verifyWebhookSignature('k', body, h, { now: 1_800_000_100 })).toBe(true);
  });
});
