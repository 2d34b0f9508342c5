// docs/dogeconnect-vectors.json (docs/wallet-sdk.md, "Test vectors"): the script regenerates the
// file byte for byte, and Counter's relay and connect code and the wallet SDK agree with every
// vector: signing, payload bytes, URIs both ways, h in both alphabets, status bodies, and the
// error every invalid case must raise.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { base64url } from '@scure/base';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { describe, expect, it } from 'vitest';
import {
  PaymentStatusSchema,
  UriError,
  buildConnectUri,
  buildDogecoinUri,
  decodeH,
  encodeH,
  parsePaymentUri,
  payloadJson,
  pubkeyHash15,
  sha256d,
  signEnvelope,
  verifyPaymentEnvelope as relayVerify,
} from '../../lib/connect';
import { paymentStatus } from '../../lib/payments';
import { readPaymentQr, readPaymentStatus, verifyPaymentEnvelope as walletVerify } from '../../lib/wallet';
import { buildVectors, vectorsText } from '../../scripts/dogeconnect-vectors-data';

const ROOT = resolve(__dirname, '../..');
const FILE = join(ROOT, 'docs', 'dogeconnect-vectors.json');
const text = readFileSync(FILE, 'utf8');
const V = JSON.parse(text);

const codeOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    return (e as { code?: string }).code ?? String(e);
  }
  return 'no error';
};

describe('docs/dogeconnect-vectors.json', () => {
  it('is what the script writes, byte for byte, on every run', () => {
    expect(vectorsText()).toBe(text);
    expect(vectorsText()).toBe(vectorsText());
    const dir = mkdtempSync(join(tmpdir(), 'dc-vectors-'));
    try {
      const out = join(dir, 'v.json');
      const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'dogeconnect-vectors.mjs'), '--out', out], {
        encoding: 'utf8',
        cwd: ROOT,
      });
      expect(r.status, r.stderr).toBe(0);
      expect(readFileSync(out).equals(readFileSync(FILE))).toBe(true);
      expect(spawnSync(process.execPath, [join(ROOT, 'scripts', 'dogeconnect-vectors.mjs'), '--check'], { cwd: ROOT }).status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('covers what it promises: envelopes, both URI forms, h in both alphabets, every status, invalid cases', () => {
    expect(V.envelopes.length).toBeGreaterThanOrEqual(3);
    expect(V.statuses.map((s: { state: string }) => s.state)).toEqual(['unpaid', 'accepted', 'confirmed', 'declined']);
    expect(V.keys.h_urlsafe).toMatch(/[-_]/);
    expect(V.keys.h_standard).toMatch(/[+/]/);
    expect(V.uris.build.some((b: { dogecoin_uri: string }) => /%2F/.test(b.dogecoin_uri))).toBe(true);
    expect(V.uris.parse_invalid.length).toBeGreaterThanOrEqual(8);
    expect(V.invalid_envelopes.length).toBeGreaterThanOrEqual(8);
  });

  it('envelopes: Counter signs the same bytes and signature; both verifiers accept; the payload reads under a URL-safe decoder', () => {
    const secret = hexToBytes(V.keys.relay_secret_hex);
    const h15 = decodeH(V.keys.h_urlsafe);
    for (const e of V.envelopes) {
      expect(payloadJson(e.payment), e.name).toBe(e.payload_json);
      const signed = signEnvelope(e.payment, secret, hexToBytes(e.aux_rand_hex));
      expect(signed.envelope, e.name).toEqual(e.envelope);
      expect(JSON.stringify(signed.envelope)).toBe(e.envelope_json);
      expect(bytesToHex(signed.payloadBytes)).toBe(e.payload_bytes_hex);
      expect(bytesToHex(sha256d(signed.payloadBytes))).toBe(e.payload_sha256d_hex);
      expect(e.envelope.payload).not.toMatch(/[+/]/);
      expect(bytesToHex(base64url.decode(e.envelope.payload))).toBe(e.payload_bytes_hex);
      expect(relayVerify(e.envelope, { expectedHash15: h15 }).payment).toEqual(e.payment);
      const w = walletVerify(e.envelope, h15, { now: () => Date.parse(e.payment.issued) + 1000 });
      expect(w.payment.id).toBe(e.payment.id);
      expect(w.payment.total).toBe(e.payment.total);
    }
  });

  it('h: both alphabets decode to the key hash; Counter emits the URL-safe one', () => {
    for (const h of V.h) {
      expect(bytesToHex(pubkeyHash15(hexToBytes(h.pubkey_hex)))).toBe(h.hash15_hex);
      expect(encodeH(hexToBytes(h.hash15_hex))).toBe(h.h_urlsafe);
      expect(bytesToHex(decodeH(h.h_urlsafe))).toBe(h.hash15_hex);
      expect(bytesToHex(decodeH(h.h_standard))).toBe(h.hash15_hex);
    }
  });

  it('URIs: Counter builds both forms exactly; Counter and the wallet SDK parse every valid one as expected and refuse every invalid one with its error', () => {
    for (const b of V.uris.build) {
      expect(buildDogecoinUri({ address: b.address, amount: b.amount, envelopeUrl: b.envelope_url, pubkey: b.pubkey_hex }), b.name).toBe(
        b.dogecoin_uri,
      );
      expect(buildConnectUri({ envelopeUrl: b.envelope_url, pubkey: b.pubkey_hex }), b.name).toBe(b.dogeconnect_uri);
      for (const uri of [b.dogecoin_uri, b.dogeconnect_uri]) {
        const p = parsePaymentUri(uri);
        expect(p.kind === 'connect' && p.envelopeUrl, `${b.name} ${uri}`).toBe(b.envelope_url);
        expect(p.kind === 'connect' && bytesToHex(p.hash15)).toBe(V.keys.pubkey_hash15_hex);
      }
    }
    for (const c of V.uris.parse_valid) {
      for (const parse of [parsePaymentUri, readPaymentQr]) {
        const p = parse(c.uri);
        expect(p.kind === 'connect', c.name).toBe(c.expect.is_connect_uri);
        if (c.expect.address)
          expect(p.kind === 'connect' && p.scheme === 'dogeconnect' ? undefined : (p as { address?: string }).address, c.name).toBe(
            c.expect.address,
          );
        expect((p as { amount?: string }).amount, c.name).toBe(c.expect.amount);
        if (p.kind === 'connect') {
          expect(p.envelopeUrl, c.name).toBe(c.expect.envelope_url);
          expect(bytesToHex(p.hash15), c.name).toBe(c.expect.pubkey_hash15_hex);
        }
      }
    }
    for (const c of V.uris.parse_invalid) {
      expect(
        codeOf(() => parsePaymentUri(c.uri)),
        c.name,
      ).toBe(c.error);
      expect(
        codeOf(() => readPaymentQr(c.uri)),
        c.name,
      ).toBe(c.error);
      expect(() => parsePaymentUri(c.uri)).toThrow(UriError);
    }
  });

  it('invalid envelopes: Counter and the wallet SDK raise the listed error', () => {
    for (const c of V.invalid_envelopes) {
      const h15 = decodeH(c.h);
      const now = Date.parse(c.now);
      expect(
        codeOf(() => walletVerify(c.envelope, h15, { now: () => now })),
        c.name,
      ).toBe(c.error);
      if (c.error !== 'expired')
        expect(
          codeOf(() => relayVerify(c.envelope, { expectedHash15: h15 })),
          c.name,
        ).toBe(c.error);
    }
  });

  it("statuses: Counter's relay writes each body; the spec schema and the wallet SDK read it back unchanged", () => {
    const rows: Record<string, Parameters<typeof paymentStatus>[0]> = {};
    for (const s of V.statuses) {
      const b = s.body;
      rows[s.state] = {
        id: b.id,
        status: b.status,
        txid: b.txid ?? null,
        requiredConfirmations: b.required ?? 1,
        confirmations: b.confirmed ?? 0,
        confirmedAt: b.confirmed_at ? new Date(b.confirmed_at) : null,
        reason: b.reason ?? '',
      };
      expect(paymentStatus(rows[s.state])).toEqual(b);
      expect(PaymentStatusSchema.safeParse(b).success, s.state).toBe(true);
      expect(readPaymentStatus(b)).toEqual(b);
    }
    expect(buildVectors().statuses).toEqual(V.statuses);
  });
});
