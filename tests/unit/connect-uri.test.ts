import { FIXTURES_DIR } from '../helpers/fixtures';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { describe, expect, it } from 'vitest';
import {
  UriError,
  buildConnectUri,
  buildDogecoinUri,
  decodeH,
  encodeH,
  parsePaymentUri,
  pubkeyHash15,
  trimEnvelopeUrl,
  type UriErrorCode,
} from '../../lib/connect';

const FIXTURES = FIXTURES_DIR;
type UriVectors = {
  build: {
    pay_to: string;
    amount: string;
    connect_url: string;
    pubkey_xonly_hex: string;
    expected_h: string;
    expected_pubkey_hash15_hex: string;
    expected_uri: string;
  }[];
  parse_valid: {
    name: string;
    uri: string;
    expect: { is_connect_uri: boolean; address?: string; amount?: string; connect_url?: string; pubkey_hash15_hex?: string };
  }[];
  parse_invalid: { name: string; uri: string }[];
  implementation_rules_not_in_tests: string[];
};
const V = JSON.parse(readFileSync(path.join(FIXTURES, 'dogeconnect-uri-vectors.json'), 'utf8')) as UriVectors;
const B = V.build[0];
const PUB = hexToBytes(B.pubkey_xonly_hex);
const ADDR = B.pay_to;
const H = B.expected_h;
const H15 = B.expected_pubkey_hash15_hex;

function uriError(fn: () => unknown): UriError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(UriError);
    return e as UriError;
  }
  throw new Error('expected a UriError');
}
const expectCode = (fn: () => unknown, code: UriErrorCode) => expect(uriError(fn).code).toBe(code);
const parseInvalid = (name: string) => {
  const v = V.parse_invalid.find((x) => x.name === name);
  if (!v) throw new Error(`fixture case ${name} missing`);
  return v.uri;
};

describe('fixture: build', () => {
  it('fixture has the expected shape', () => {
    expect(V.build).toHaveLength(1);
    expect(V.parse_valid).toHaveLength(3);
    expect(V.parse_invalid).toHaveLength(4);
    expect(V.implementation_rules_not_in_tests).toHaveLength(4);
  });
  it.each(V.build)('$name: exact expected_uri', (b) => {
    const uri = buildDogecoinUri({
      address: b.pay_to,
      amount: b.amount,
      envelopeUrl: b.connect_url,
      pubkey: hexToBytes(b.pubkey_xonly_hex),
    });
    expect(uri).toBe(b.expected_uri);
    // pubkey as hex gives the same
    expect(buildDogecoinUri({ address: b.pay_to, amount: b.amount, envelopeUrl: b.connect_url, pubkey: b.pubkey_xonly_hex })).toBe(
      b.expected_uri,
    );
  });
  it('h and hash15 match the fixture', () => {
    expect(bytesToHex(pubkeyHash15(PUB))).toBe(H15);
    expect(encodeH(pubkeyHash15(PUB))).toBe(H);
    expect(H).toHaveLength(20);
  });
});

describe('fixture: parse_valid', () => {
  it.each(V.parse_valid)('$name', ({ uri, expect: ex }) => {
    const r = parsePaymentUri(uri);
    expect(r.kind).toBe(ex.is_connect_uri ? 'connect' : 'plain');
    expect(r.scheme).toBe('dogecoin');
    if (ex.address !== undefined) expect(r.address).toBe(ex.address);
    if (ex.amount !== undefined) expect(r.amount).toBe(ex.amount);
    if (r.kind === 'connect') {
      expect(r.trimmedUrl).toBe(ex.connect_url);
      expect(r.envelopeUrl).toBe('https://' + ex.connect_url);
      if (ex.pubkey_hash15_hex) expect(bytesToHex(r.hash15)).toBe(ex.pubkey_hash15_hex);
    } else {
      expect(ex.connect_url).toBeUndefined();
    }
  });
  it('the round-trip case parses to the full structure', () => {
    expect(parsePaymentUri(B.expected_uri)).toEqual({
      kind: 'connect',
      scheme: 'dogecoin',
      envelopeUrl: B.connect_url,
      trimmedUrl: 'example.com/dc/1QAB-POvTh2R88nybE8Wwg',
      hash15: hexToBytes(H15),
      address: ADDR,
      amount: '12.25',
      amountKoinu: 1225000000n,
    });
  });
  it('plain URI has no connect fields', () => {
    expect(parsePaymentUri(`dogecoin:${ADDR}?amount=8.25`)).toEqual({
      kind: 'plain',
      scheme: 'dogecoin',
      address: ADDR,
      amount: '8.25',
      amountKoinu: 825000000n,
    });
  });
});

describe('fixture: parse_invalid', () => {
  it('wrong scheme => bad_scheme', () => {
    expectCode(() => parsePaymentUri(parseInvalid('wrong scheme')), 'bad_scheme');
  });
  it('bad base64 h (with dc present) => bad_h', () => {
    expectCode(() => parsePaymentUri(parseInvalid('bad base64 h')), 'bad_h');
  });
  it('dc without h: the Go library errors; we follow the protocol and fall back to a plain payment', () => {
    expect(parsePaymentUri(parseInvalid('dc without h'))).toEqual({
      kind: 'plain',
      scheme: 'dogecoin',
      address: ADDR,
      amount: '1',
      amountKoinu: 100000000n,
    });
  });
  it('h without dc: the Go library errors; we follow the protocol and fall back to a plain payment', () => {
    expect(parsePaymentUri(parseInvalid('h without dc'))).toEqual({
      kind: 'plain',
      scheme: 'dogecoin',
      address: ADDR,
      amount: '1',
      amountKoinu: 100000000n,
    });
  });
});

describe('fixture: implementation_rules_not_in_tests', () => {
  it('connect only when dc is non-empty and h decodes to exactly 15 bytes; empty dc or h falls back', () => {
    expect(parsePaymentUri(`dogecoin:${ADDR}?amount=1&dc=&h=${H}`).kind).toBe('plain');
    expect(parsePaymentUri(`dogecoin:${ADDR}?amount=1&dc=example.com/dc/1&h=`).kind).toBe('plain');
    expect(parsePaymentUri(`dogecoin:${ADDR}?amount=1&dc=example.com/dc/1&h=${H}`).kind).toBe('connect');
  });
  it('an h that is not 15 bytes makes a connect URI invalid (h_length), it does not fall back', () => {
    const h14 = encodeB64url(new Uint8Array(14));
    const h16 = encodeB64url(new Uint8Array(16));
    expectCode(() => parsePaymentUri(`dogecoin:${ADDR}?dc=example.com/dc/1&h=${h14}`), 'h_length');
    expectCode(() => parsePaymentUri(`dogecoin:${ADDR}?dc=example.com/dc/1&h=${h16}`), 'h_length');
  });
  it('builder rejects a public key that is not exactly 32 bytes', () => {
    for (const pubkey of [PUB.slice(1), new Uint8Array([2, ...PUB]), new Uint8Array(0), 'abcd', 'zz'.repeat(32)]) {
      expectCode(() => buildDogecoinUri({ address: ADDR, amount: '1', envelopeUrl: B.connect_url, pubkey }), 'bad_pubkey');
      expectCode(() => buildConnectUri({ envelopeUrl: B.connect_url, pubkey }), 'bad_pubkey');
    }
  });
  it('address is the opaque part; amount, dc and h are optional query parameters', () => {
    expect(parsePaymentUri(`dogecoin:${ADDR}`)).toEqual({ kind: 'plain', scheme: 'dogecoin', address: ADDR });
    expect(parsePaymentUri(`dogecoin:${ADDR}?label=Shop&message=hi`)).toEqual({ kind: 'plain', scheme: 'dogecoin', address: ADDR });
    const r = parsePaymentUri(`dogecoin:${ADDR}?h=${H}&dc=example.com%2Fdc%2Fx`);
    expect(r).toMatchObject({ kind: 'connect', address: ADDR, trimmedUrl: 'example.com/dc/x' });
    expect(r.amount).toBeUndefined();
  });
});

function encodeB64url(b: Uint8Array) {
  return Buffer.from(b).toString('base64url');
}

describe('invalid QR URIs and h decoding', () => {
  it.each(['!!!invalid!!!', 'abc', '72b-LVh5K_mm7zyN9PX', '72b-LVh5K_mm7zyN9PXO=', '72b+LVh5K_mm7zyN9PXO', '72b-LVh5K_mm7zyN9P%XO'])(
    'undecodable h %j is rejected',
    (h) => {
      const e = uriError(() => parsePaymentUri(`dogecoin:${ADDR}?dc=example.com/dc/1&h=${h}`));
      expect(['bad_h', 'h_length', 'bad_encoding']).toContain(e.code);
    },
  );
  it('h that decodes but not to 15 bytes => h_length on both schemes', () => {
    const h = encodeB64url(new Uint8Array(32));
    expectCode(() => parsePaymentUri(`dogecoin:${ADDR}?dc=example.com/dc/1&h=${h}`), 'h_length');
    expectCode(() => parsePaymentUri(`dogeconnect:example.com/dc/1?h=${h}`), 'h_length');
    expectCode(() => parsePaymentUri(`dogeconnect:example.com/dc/1?h=AAAA`), 'h_length');
  });
  it('standard Base64 h is accepted, raw or percent-encoded, with or without padding', () => {
    const hash = hexToBytes(H15);
    const std = Buffer.from(hash).toString('base64'); // '72b+LVh5K/mm7zyN9PXO'
    expect(std).toMatch(/[+/]/);
    for (const h of [std, encodeURIComponent(std)]) {
      const r = parsePaymentUri(`dogecoin:${ADDR}?dc=example.com/dc/1&h=${h}`);
      expect(r.kind === 'connect' && bytesToHex(r.hash15)).toBe(H15);
    }
    expect(bytesToHex(decodeH(std))).toBe(H15);
    // padding is never needed for 15 bytes, but a padded value of another length is decoded then rejected by length
    expect(uriError(() => decodeH('AAAAAA==')).code).toBe('h_length');
    expect(uriError(() => decodeH('AAAAAA')).code).toBe('h_length');
  });
  it("'+' in a query value is a literal plus (RFC 3986), not a space", () => {
    const r = parsePaymentUri(`dogecoin:${ADDR}?dc=example.com/dc/a+b&h=72b+LVh5K/mm7zyN9PXO`);
    expect(r.kind === 'connect' && r.trimmedUrl).toBe('example.com/dc/a+b');
    expect(r.kind === 'connect' && bytesToHex(r.hash15)).toBe(H15);
    expectCode(() => parsePaymentUri(`dogecoin:${ADDR}?amount=+1`), 'bad_amount');
  });
  it('mixed URL-safe and standard alphabets in h are rejected', () => {
    expectCode(() => decodeH('72b-LVh5K/mm7zyN9PXO'), 'bad_h');
  });
  it('unescaped slashes in dc are accepted and equal the escaped form', () => {
    const a = parsePaymentUri(`dogecoin:${ADDR}?dc=example.com/dc/1QAB&h=${H}`);
    const b = parsePaymentUri(`dogecoin:${ADDR}?dc=example.com%2Fdc%2F1QAB&h=${H}`);
    expect(a).toEqual(b);
    expect(a.kind === 'connect' && a.envelopeUrl).toBe('https://example.com/dc/1QAB');
  });
  it('dedicated scheme: missing or empty path => missing_path', () => {
    expectCode(() => parsePaymentUri(`dogeconnect:?h=${H}`), 'missing_path');
    expectCode(() => parsePaymentUri(`dogeconnect:`), 'missing_path');
  });
  it('dedicated scheme: missing or empty h => missing_h (no fallback)', () => {
    expectCode(() => parsePaymentUri('dogeconnect:example.com/dc/1'), 'missing_h');
    expectCode(() => parsePaymentUri('dogeconnect:example.com/dc/1?h='), 'missing_h');
    expectCode(() => parsePaymentUri('dogeconnect:example.com/dc/1?dc=example.com/dc/1'), 'missing_h');
  });
  it('dedicated scheme: valid URI', () => {
    expect(parsePaymentUri(`dogeconnect:example.com/dc/1QAB-POvTh2R88nybE8Wwg?h=${H}`)).toEqual({
      kind: 'connect',
      scheme: 'dogeconnect',
      envelopeUrl: 'https://example.com/dc/1QAB-POvTh2R88nybE8Wwg',
      trimmedUrl: 'example.com/dc/1QAB-POvTh2R88nybE8Wwg',
      hash15: hexToBytes(H15),
    });
  });
});

describe('parsePaymentUri: other rules', () => {
  it('scheme matching is case-insensitive; the result scheme is lowercase', () => {
    expect(parsePaymentUri(`DOGECOIN:${ADDR}?amount=1`).scheme).toBe('dogecoin');
    expect(parsePaymentUri(`DogeConnect:example.com/dc/1?h=${H}`).scheme).toBe('dogeconnect');
  });
  it.each(['bitcoin:x', 'dogecoin', ':abc', '', 'https://example.com/dc/1', 'dogecoins:' + 'D', 'doge:' + 'D'])('bad scheme %j', (u) =>
    expectCode(() => parsePaymentUri(u), 'bad_scheme'),
  );
  it('rejects non-string input as bad_scheme', () => {
    expectCode(() => parsePaymentUri(undefined as unknown as string), 'bad_scheme');
  });
  it('missing address => missing_address; non-base58 => bad_address (no network check here)', () => {
    expectCode(() => parsePaymentUri('dogecoin:?amount=1'), 'missing_address');
    expectCode(() => parsePaymentUri('dogecoin:'), 'missing_address');
    expectCode(() => parsePaymentUri('dogecoin:D0Il?amount=1'), 'bad_address');
    expectCode(() => parsePaymentUri(`dogecoin://${ADDR}`), 'bad_address');
    // a testnet-looking address passes here: lib/doge validates the network
    expect(parsePaymentUri('dogecoin:nWSMwNnNcnUzjAPN8kZnHD5rGqnL9ifbS4').kind).toBe('plain');
  });
  it.each(['abc', '-1', '0', '1e5', '1.123456789', '10000000000.00000001', ' 1', '0x1'])('bad amount %j => bad_amount', (a) =>
    expectCode(() => parsePaymentUri(`dogecoin:${ADDR}?amount=${encodeURIComponent(a)}`), 'bad_amount'),
  );
  it('more than 8 decimals is rejected even on a connect URI (no truncation)', () => {
    expectCode(() => parsePaymentUri(`dogecoin:${ADDR}?amount=12.250000001&dc=example.com/dc/1&h=${H}`), 'bad_amount');
  });
  it('amount is canonicalised; empty amount means none', () => {
    expect(parsePaymentUri(`dogecoin:${ADDR}?amount=012.2500`).amount).toBe('12.25');
    expect(parsePaymentUri(`dogecoin:${ADDR}?amount=`).amount).toBeUndefined();
  });
  it('duplicate amount, dc or h => duplicate_param', () => {
    expectCode(() => parsePaymentUri(`dogecoin:${ADDR}?amount=1&amount=2`), 'duplicate_param');
    expectCode(() => parsePaymentUri(`dogecoin:${ADDR}?dc=a.com/1&dc=b.com/1&h=${H}`), 'duplicate_param');
    expectCode(() => parsePaymentUri(`dogeconnect:a.com/1?h=${H}&h=${H}`), 'duplicate_param');
  });
  it('unknown BIP21 req- parameters make the URI invalid; other unknown parameters are ignored', () => {
    expectCode(() => parsePaymentUri(`dogecoin:${ADDR}?req-foo=1`), 'unsupported_required_param');
    expect(parsePaymentUri(`dogecoin:${ADDR}?foo=1&&`).kind).toBe('plain');
  });
  it('invalid percent-encoding => bad_encoding', () => {
    expectCode(() => parsePaymentUri(`dogecoin:${ADDR}?dc=example.com%2&h=${H}`), 'bad_encoding');
    expectCode(() => parsePaymentUri(`dogecoin:${ADDR}?dc=%FF&h=${H}`), 'bad_encoding');
  });
  it('a dc that cannot form an https:// URL => bad_dc; the same on the dedicated path => bad_path', () => {
    for (const dc of ['https%3A%2F%2Fexample.com%2Fdc%2F1', '%2Fdc%2F1', 'exa%20mple.com/dc', 'exa%0Ample.com']) {
      expectCode(() => parsePaymentUri(`dogecoin:${ADDR}?dc=${dc}&h=${H}`), 'bad_dc');
      expectCode(() => parsePaymentUri(`dogeconnect:${dc}?h=${H}`), 'bad_path');
    }
  });
  it('a #fragment and surrounding whitespace are ignored', () => {
    const r = parsePaymentUri(`  dogeconnect:example.com/dc/1?h=${H}#frag\n`);
    expect(r.kind === 'connect' && r.trimmedUrl).toBe('example.com/dc/1');
  });
  it('http:// envelope URLs lose their scheme too; the parser always yields https://', () => {
    const uri = buildConnectUri({ envelopeUrl: 'http://localhost:3000/dc/abc', pubkey: PUB });
    expect(uri).toBe(`dogeconnect:localhost:3000/dc/abc?h=${H}`);
    expect(parsePaymentUri(uri)).toMatchObject({ envelopeUrl: 'https://localhost:3000/dc/abc', trimmedUrl: 'localhost:3000/dc/abc' });
  });
});

describe('builders', () => {
  it('buildConnectUri gives dogeconnect:<trimmed>?h=<h>', () => {
    expect(buildConnectUri({ envelopeUrl: B.connect_url, pubkey: PUB })).toBe(`dogeconnect:example.com/dc/1QAB-POvTh2R88nybE8Wwg?h=${H}`);
  });
  it('round-trips both forms through the parser', () => {
    const url = 'https://pay.example.com:8443/shop/dc/Zz_9-x';
    const coin = parsePaymentUri(buildDogecoinUri({ address: ADDR, amount: 2205000000n, envelopeUrl: url, pubkey: PUB }));
    expect(coin).toMatchObject({ kind: 'connect', envelopeUrl: url, address: ADDR, amount: '22.05', amountKoinu: 2205000000n });
    const ded = parsePaymentUri(buildConnectUri({ envelopeUrl: url, pubkey: PUB }));
    expect(ded).toMatchObject({ kind: 'connect', scheme: 'dogeconnect', envelopeUrl: url });
    expect(ded.kind === 'connect' && bytesToHex(ded.hash15)).toBe(H15);
  });
  it('percent-encodes everything outside the RFC 3986 unreserved set in dc', () => {
    const uri = buildDogecoinUri({ address: ADDR, amount: '1', envelopeUrl: "https://ex.com/a%20b/(x)!*'~?q=1&r=é#f", pubkey: PUB });
    const dc = /[?&]dc=([^&]*)/.exec(uri)![1];
    expect(dc).toBe('ex.com%2Fa%2520b%2F%28x%29%21%2A%27~%3Fq%3D1%26r%3D%C3%A9%23f');
    expect(parsePaymentUri(uri)).toMatchObject({ trimmedUrl: "ex.com/a%20b/(x)!*'~?q=1&r=é#f" });
  });
  it('dedicated path keeps / and : but escapes ? # % and spaces, and round-trips', () => {
    const url = 'https://ex.com/dc/a%2Fb?x=1#y';
    const uri = buildConnectUri({ envelopeUrl: url, pubkey: PUB });
    expect(uri).toBe(`dogeconnect:ex.com/dc/a%252Fb%3Fx=1%23y?h=${H}`);
    expect(parsePaymentUri(uri)).toMatchObject({ envelopeUrl: url });
  });
  it('canonicalises the amount', () => {
    expect(buildDogecoinUri({ address: ADDR, amount: '12.250', envelopeUrl: B.connect_url, pubkey: PUB })).toBe(B.expected_uri);
  });
  it.each([
    ['amount "0"', { amount: '0' }, 'bad_amount'],
    ['amount "-1"', { amount: '-1' }, 'bad_amount'],
    ['amount with 9 decimals', { amount: '1.000000001' }, 'bad_amount'],
    ['amount 0n', { amount: 0n }, 'bad_amount'],
    ['amount MAX_MONEY + 1', { amount: 10n ** 18n + 1n }, 'bad_amount'],
    ['empty address', { address: '' }, 'missing_address'],
    ['non-base58 address', { address: 'D0' }, 'bad_address'],
    ['URL without scheme', { envelopeUrl: 'example.com/dc/1' }, 'bad_url'],
    ['ftp URL', { envelopeUrl: 'ftp://example.com/dc/1' }, 'bad_url'],
    ['bare https://', { envelopeUrl: 'https://' }, 'bad_url'],
    ['URL with a space', { envelopeUrl: 'https://exa mple.com/' }, 'bad_url'],
  ] as const)('buildDogecoinUri with %s => $2', (_label, patch, code) => {
    expectCode(() => buildDogecoinUri({ address: ADDR, amount: '1', envelopeUrl: B.connect_url, pubkey: PUB, ...patch }), code);
  });
  it('trimEnvelopeUrl strips https:// and http:// case-insensitively', () => {
    expect(trimEnvelopeUrl('https://a.com/dc/1')).toBe('a.com/dc/1');
    expect(trimEnvelopeUrl('HTTP://a.com/dc/1')).toBe('a.com/dc/1');
  });
});
