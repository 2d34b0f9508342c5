import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { describe, expect, it } from 'vitest';
import { constantTimeEqual, issueRelayToken, verifyRelayToken } from '../../lib/connect';

const SECRET = new Uint8Array(32).map((_, i) => i + 1);
const OTHER_SECRET = new Uint8Array(32).map((_, i) => i + 2);
const ID = 'pay_1QAB-POvTh2R88nybE8Wwg';
const ISSUED = '2025-01-02T03:04:05.123Z';

describe('issueRelayToken', () => {
  const token = issueRelayToken(SECRET, ID, ISSUED);
  it('is v1.<base64url(HMAC-SHA256(secret, "counter-relay-token/v1\\n" + id + "\\n" + issued))>', () => {
    const mac = hmac(sha256, SECRET, utf8ToBytes(`counter-relay-token/v1\n${ID}\n${ISSUED}`));
    expect(token).toBe('v1.' + Buffer.from(mac).toString('base64url'));
    expect(token).toMatch(/^v1\.[A-Za-z0-9_-]{43}$/);
  });
  it('is deterministic and binds id, time and secret', () => {
    expect(issueRelayToken(SECRET, ID, ISSUED)).toBe(token);
    expect(issueRelayToken(SECRET, ID + 'x', ISSUED)).not.toBe(token);
    expect(issueRelayToken(SECRET, ID, '2025-01-02T03:04:05.124Z')).not.toBe(token);
    expect(issueRelayToken(OTHER_SECRET, ID, ISSUED)).not.toBe(token);
  });
  it('a Date and any RFC 3339 string for the same instant give the same token', () => {
    expect(issueRelayToken(SECRET, ID, new Date(ISSUED))).toBe(token);
    expect(issueRelayToken(SECRET, ID, '2025-01-02T05:04:05.123+02:00')).toBe(token);
    expect(issueRelayToken(SECRET, ID, '2025-01-02T03:04:05.1230Z')).toBe(token);
  });
  it('throws on a short secret, a bad id or a bad time', () => {
    expect(() => issueRelayToken(new Uint8Array(15), ID, ISSUED)).toThrow(TypeError);
    expect(() => issueRelayToken(SECRET, '', ISSUED)).toThrow(TypeError);
    expect(() => issueRelayToken(SECRET, 'a\nb', ISSUED)).toThrow(TypeError);
    expect(() => issueRelayToken(SECRET, ID, 'yesterday')).toThrow(TypeError);
    expect(() => issueRelayToken(SECRET, ID, new Date(NaN))).toThrow(TypeError);
  });
});

describe('verifyRelayToken', () => {
  const token = issueRelayToken(SECRET, ID, ISSUED);
  it('valid token => true (string or Date issue time)', () => {
    expect(verifyRelayToken(SECRET, ID, ISSUED, token)).toBe(true);
    expect(verifyRelayToken(SECRET, ID, new Date(ISSUED), token)).toBe(true);
  });
  it('wrong id => false', () => {
    expect(verifyRelayToken(SECRET, 'pay_other', ISSUED, token)).toBe(false);
    expect(verifyRelayToken(SECRET, ID.slice(0, -1), ISSUED, token)).toBe(false);
  });
  it('wrong time => false', () => {
    expect(verifyRelayToken(SECRET, ID, '2025-01-02T03:04:06.123Z', token)).toBe(false);
    expect(verifyRelayToken(SECRET, ID, new Date(Date.parse(ISSUED) + 1), token)).toBe(false);
  });
  it('wrong secret => false', () => {
    expect(verifyRelayToken(OTHER_SECRET, ID, ISSUED, token)).toBe(false);
  });
  it('truncated or extended token => false', () => {
    expect(verifyRelayToken(SECRET, ID, ISSUED, token.slice(0, -1))).toBe(false);
    expect(verifyRelayToken(SECRET, ID, ISSUED, token.slice(0, 3))).toBe(false);
    expect(verifyRelayToken(SECRET, ID, ISSUED, token + 'A')).toBe(false);
    expect(verifyRelayToken(SECRET, ID, ISSUED, token + '\0')).toBe(false);
  });
  it('one flipped character anywhere => false', () => {
    for (let i = 0; i < token.length; i++) {
      const c = token[i] === 'A' ? 'B' : 'A';
      expect(verifyRelayToken(SECRET, ID, ISSUED, token.slice(0, i) + c + token.slice(i + 1)), `position ${i}`).toBe(false);
    }
  });
  it('garbage and empty input => false, never throws', () => {
    const garbage: unknown[] = ['', 'v1.', 'v2.' + token.slice(3), '💩'.repeat(30), 'x'.repeat(1 << 20), null, undefined, 42, {}, [token]];
    for (const g of garbage) expect(verifyRelayToken(SECRET, ID, ISSUED, g)).toBe(false);
    expect(verifyRelayToken(new Uint8Array(0), ID, ISSUED, token)).toBe(false);
    expect(verifyRelayToken(null as unknown as Uint8Array, ID, ISSUED, token)).toBe(false);
    expect(verifyRelayToken(SECRET, '', ISSUED, token)).toBe(false);
    expect(verifyRelayToken(SECRET, undefined as unknown as string, ISSUED, token)).toBe(false);
    expect(verifyRelayToken(SECRET, ID, 'garbage', token)).toBe(false);
    expect(verifyRelayToken(SECRET, ID, undefined as unknown as string, token)).toBe(false);
  });
});

describe('constantTimeEqual', () => {
  const a = new Uint8Array([1, 2, 3, 4]);
  it('equal arrays => true; any difference or length mismatch => false', () => {
    expect(constantTimeEqual(a, new Uint8Array([1, 2, 3, 4]))).toBe(true);
    expect(constantTimeEqual(new Uint8Array(0), new Uint8Array(0))).toBe(true);
    expect(constantTimeEqual(a, new Uint8Array([1, 2, 3, 5]))).toBe(false);
    expect(constantTimeEqual(a, new Uint8Array([0, 2, 3, 4]))).toBe(false);
    expect(constantTimeEqual(a, new Uint8Array([1, 2, 3]))).toBe(false);
    expect(constantTimeEqual(a, new Uint8Array([1, 2, 3, 4, 0]))).toBe(false);
    expect(constantTimeEqual(new Uint8Array([1, 2, 3, 0]), new Uint8Array([1, 2, 3]))).toBe(false);
    expect(constantTimeEqual(a, new Uint8Array(0))).toBe(false);
  });
});
