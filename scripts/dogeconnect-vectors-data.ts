// Builds docs/dogeconnect-vectors.json: public, fixed test vectors for DogeConnect (docs/wallet-sdk.md,
// "Test vectors"). Everything is derived from fixed inputs: the relay key from a fixed phrase,
// BIP-340 auxiliary randomness given per envelope, fixed times. Running it twice gives the same
// bytes; scripts/dogeconnect-vectors.mjs writes the file, tests/unit/dogeconnect-vectors.test.ts
// regenerates it and checks that Counter's code and lib/wallet agree with every vector.
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import {
  buildConnectUri,
  buildDogecoinUri,
  encodeH,
  payloadJson,
  pubkeyHash15,
  schnorrPublicKey,
  schnorrSign,
  sha256d,
  signEnvelope,
} from '../lib/connect';
import { MAINNET } from '../lib/doge/network';
import { pubkeyToAddress } from '../lib/doge/address';
import { paymentStatus } from '../lib/payments';

const VECTORS_VERSION = 1;
const ISSUED = '2026-01-15T12:00:00.000Z';

/** A 32-byte value from a phrase: SHA-256 of its UTF-8 bytes. */
const fromPhrase = (phrase: string) => sha256(utf8ToBytes(phrase));

/**
 * The relay key: SHA-256("dogeconnect vectors relay key " + n) for the first n whose `h` holds
 * both '-' and '_' in the URL-safe alphabet, so the two Base64 alphabets give different text.
 */
function relayKey(): { n: number; secret: Uint8Array } {
  for (let n = 0; ; n++) {
    const secret = fromPhrase(`dogeconnect vectors relay key ${n}`);
    const h = encodeH(pubkeyHash15(schnorrPublicKey(secret)));
    if (h.includes('-') && h.includes('_')) return { n, secret };
  }
}

const toStandard = (urlSafe: string) => urlSafe.replace(/-/g, '+').replace(/_/g, '/');

export function buildVectors(): Record<string, unknown> {
  const { n, secret } = relayKey();
  const pubkey = schnorrPublicKey(secret);
  const pubHex = bytesToHex(pubkey);
  const hUrl = encodeH(pubkeyHash15(pubkey));
  const shopSecret = fromPhrase('dogeconnect vectors shop key');
  const shop = pubkeyToAddress(secp256k1.getPublicKey(shopSecret, true), MAINNET);
  const otherSecret = fromPhrase('dogeconnect vectors other relay key');

  const base = {
    type: 'payment',
    issued: ISSUED,
    timeout: 900,
    relay: 'https://pay.example.com/relay',
    fee_per_kb: '0.01',
    max_size: 100000,
    vendor_icon: '',
    vendor_address: '',
    vendor_url: '',
    vendor_order_url: '',
    vendor_order_id: '',
    order_reference: '',
    note: '',
    fees: '0',
    taxes: '0',
    fiat_total: '',
    fiat_tax: '',
    fiat_currency: '',
    meta: {},
  };
  const payments: { name: string; about: string; aux: string; payment: Record<string, unknown> }[] = [
    {
      name: 'minimal-ascii',
      about: 'One item, one output, ASCII only: the payload JSON is JSON.stringify output unchanged.',
      aux: '00'.repeat(32),
      payment: {
        ...base,
        id: 'vec-minimal',
        vendor_name: 'Tea House',
        total: '12.5',
        items: [{ type: 'item', id: 'tea', icon: '', name: 'Green tea', desc: '', count: 1, unit: '12.5', total: '12.5', tax: '' }],
        outputs: [{ type: 'p2pkh', address: shop, amount: '12.5' }],
      },
    },
    {
      name: 'escaped-text',
      about:
        'Accents, Cyrillic, CJK, an emoji beyond U+FFFF and `> ? ~`: each written as \\uXXXX (surrogate pairs), so the Base64 has no + or /.',
      aux: bytesToHex(fromPhrase('dogeconnect vectors aux 1')),
      payment: {
        ...base,
        id: 'vec-escaped',
        vendor_name: 'Fish > Chips ~ Café',
        vendor_address: 'ул. Тверская 1, Москва',
        note: 'Sauce? ~ 寿司 🍣',
        vendor_order_url: 'https://shop.example/order?id=7&lang=ru',
        vendor_order_id: 'ORD-7',
        order_reference: 'Заказ №7',
        total: '14.25',
        taxes: '1.25',
        items: [
          { type: 'item', id: 'fish', icon: '', name: 'Crème brûlée', desc: 'Grüße', count: 1, unit: '13', total: '13', tax: '1.25' },
        ],
        outputs: [{ type: 'p2pkh', address: shop, amount: '14.25' }],
        meta: { 'com.example.table': '7 > 6' },
      },
    },
    {
      name: 'full-data-signing',
      about: 'Every field: fees, taxes, fiat, a discount, a signing item and a data output (which an ordinary wallet cannot pay).',
      aux: bytesToHex(fromPhrase('dogeconnect vectors aux 2')),
      payment: {
        ...base,
        id: 'vec-full',
        vendor_icon: 'https://shop.example/icon.png',
        vendor_name: 'Corner Shop',
        vendor_address: '1 Main St',
        vendor_url: 'https://shop.example',
        vendor_order_url: 'https://shop.example/o/42',
        vendor_order_id: '42',
        order_reference: 'A-42',
        note: 'Thank you',
        total: '23.15',
        fees: '1',
        taxes: '2.1',
        fiat_total: '4.63',
        fiat_tax: '0.42',
        fiat_currency: 'USD',
        items: [
          { type: 'item', id: 'SKU-1', icon: '', name: 'Coffee', desc: '', count: 2, unit: '10', total: '20', tax: '2.1' },
          { type: 'fee', id: 'svc', icon: '', name: 'Service', desc: '', count: 1, unit: '1', total: '1', tax: '' },
          { type: 'discount', id: 'promo', icon: '', name: 'Promo', desc: '', count: 1, unit: '-0.95', total: '-0.95', tax: '' },
          { type: 'signing', id: 'stamp', icon: '', name: 'Loyalty stamp', desc: '' },
        ],
        outputs: [
          { type: 'p2pkh', address: shop, amount: '23.15' },
          { type: 'data', data: '636f756e746572' },
        ],
        meta: { 'com.example.table': '7' },
      },
    },
  ];

  const envelopes = payments.map(({ name, about, aux, payment }) => {
    const signed = signEnvelope(payment, secret, hexToBytes(aux));
    return {
      name,
      about,
      payment,
      aux_rand_hex: aux,
      payload_json: payloadJson(payment),
      payload_bytes_hex: bytesToHex(signed.payloadBytes),
      payload_sha256d_hex: bytesToHex(sha256d(signed.payloadBytes)),
      envelope: signed.envelope,
      envelope_json: JSON.stringify(signed.envelope),
    };
  });
  const env0 = envelopes[0].envelope;

  const uriBuild = [
    { name: 'plain-host', envelope_url: 'https://pay.example.com/dc/vec-minimal', address: shop, amount: '12.5' },
    { name: 'port-and-path', envelope_url: 'https://pay.example.com:8443/relay/dc/AbC-_9', address: shop, amount: '0.00000001' },
    { name: 'reserved-characters', envelope_url: "https://pay.example.com/dc/a~b!c'd(e)*f", address: shop, amount: '100000' },
    { name: 'non-ascii-path', envelope_url: 'https://pay.example.com/dc/café', address: shop, amount: '7.25' },
  ].map((c) => ({
    ...c,
    pubkey_hex: pubHex,
    dogecoin_uri: buildDogecoinUri({ address: c.address, amount: c.amount, envelopeUrl: c.envelope_url, pubkey: pubkey }),
    dogeconnect_uri: buildConnectUri({ envelopeUrl: c.envelope_url, pubkey }),
  }));

  const h15 = bytesToHex(pubkeyHash15(pubkey));
  const dc = 'pay.example.com/dc/vec-minimal';
  const parseValid = [
    { name: 'dogecoin-encoded-dc', uri: `dogecoin:${shop}?amount=12.5&dc=${encodeURIComponent(dc)}&h=${hUrl}` },
    { name: 'dogecoin-unescaped-dc', uri: `dogecoin:${shop}?amount=12.5&dc=${dc}&h=${hUrl}` },
    { name: 'dogecoin-lowercase-percent', uri: `dogecoin:${shop}?amount=12.5&dc=${encodeURIComponent(dc).toLowerCase()}&h=${hUrl}` },
    { name: 'dogecoin-h-standard-alphabet', uri: `dogecoin:${shop}?amount=12.5&dc=${dc}&h=${encodeURIComponent(toStandard(hUrl))}` },
    { name: 'dogecoin-uppercase-scheme-and-order', uri: `DOGECOIN:${shop}?h=${hUrl}&dc=${encodeURIComponent(dc)}&amount=12.50000000` },
    { name: 'dogeconnect-h-urlsafe', uri: `dogeconnect:${dc}?h=${hUrl}` },
    { name: 'dogeconnect-h-standard-alphabet', uri: `dogeconnect:${dc}?h=${encodeURIComponent(toStandard(hUrl))}` },
    { name: 'dogeconnect-percent-encoded-path', uri: `dogeconnect:pay.example.com/dc/caf%C3%A9?h=${hUrl}` },
    { name: 'fallback-no-dc', uri: `dogecoin:${shop}?amount=12.5&h=${hUrl}` },
    { name: 'fallback-empty-h', uri: `dogecoin:${shop}?amount=12.5&dc=${encodeURIComponent(dc)}&h=` },
  ].map((c) => ({ ...c, expect: expectedParse(c.uri, { shop, h15 }) }));

  const badH = 'AAAAAAAAAAAAAAAAAAAA'; // 15 zero bytes: not the relay's key hash
  const invalidUri = [
    { name: 'unknown-scheme', uri: `bitcoin:${shop}?amount=1`, error: 'bad_scheme' },
    { name: 'h-not-base64', uri: `dogeconnect:${dc}?h=not*base64!!`, error: 'bad_h' },
    { name: 'h-too-short', uri: `dogeconnect:${dc}?h=AAAA`, error: 'h_length' },
    { name: 'h-mixed-alphabets', uri: `dogeconnect:${dc}?h=${encodeURIComponent('72b-LVh5K/mm7zyN9PXO')}`, error: 'bad_h' },
    { name: 'dogeconnect-no-h', uri: `dogeconnect:${dc}`, error: 'missing_h' },
    { name: 'dogeconnect-no-path', uri: `dogeconnect:?h=${hUrl}`, error: 'missing_path' },
    { name: 'amount-nine-decimals', uri: `dogecoin:${shop}?amount=1.000000001&dc=${dc}&h=${hUrl}`, error: 'bad_amount' },
    { name: 'bad-percent-encoding', uri: `dogecoin:${shop}?amount=1&dc=pay.example.com%2&h=${hUrl}`, error: 'bad_encoding' },
    { name: 'duplicate-h', uri: `dogecoin:${shop}?amount=1&dc=${dc}&h=${hUrl}&h=${hUrl}`, error: 'duplicate_param' },
    { name: 'dc-with-scheme', uri: `dogecoin:${shop}?amount=1&dc=${encodeURIComponent('https://' + dc)}&h=${hUrl}`, error: 'bad_dc' },
  ];

  const flipHex = (hex: string, i: number) => hex.slice(0, i) + (parseInt(hex[i], 16) ^ 1).toString(16) + hex.slice(i + 1);
  const signedRaw = (bytes: Uint8Array) => {
    // The same signing as signEnvelope, over bytes that are not a valid payment.
    const sig = bytesToHex(schnorrSign(sha256d(bytes), secret, new Uint8Array(32)));
    return { version: '1.0', payload: Buffer.from(bytes).toString('base64'), pubkey: pubHex, sig };
  };
  const noTotal = { ...(payments[0].payment as Record<string, unknown>) };
  delete noTotal.total;
  const beforeExpiry = '2026-01-15T12:05:00.000Z';
  const invalidEnvelope = [
    {
      name: 'key-hash-mismatch',
      about: 'h names another relay key (possible man in the middle)',
      h: badH,
      envelope: env0,
      error: 'bad_hash',
    },
    {
      name: 'signature-flipped',
      about: 'one bit of sig changed',
      h: hUrl,
      envelope: { ...env0, sig: flipHex(env0.sig, 10) },
      error: 'bad_signature',
    },
    {
      name: 'payload-changed',
      about: "payload of another payment under the first one's signature",
      h: hUrl,
      envelope: { ...env0, payload: envelopes[1].envelope.payload },
      error: 'bad_signature',
    },
    {
      name: 'pubkey-31-bytes',
      about: 'pubkey not 32 bytes',
      h: hUrl,
      envelope: { ...env0, pubkey: env0.pubkey.slice(2) },
      error: 'bad_pubkey_length',
    },
    { name: 'sig-63-bytes', about: 'sig not 64 bytes', h: hUrl, envelope: { ...env0, sig: env0.sig.slice(2) }, error: 'bad_sig_length' },
    { name: 'version-2', about: 'version is not "1.0"', h: hUrl, envelope: { ...env0, version: '2.0' }, error: 'bad_version' },
    {
      name: 'payload-not-base64',
      about: 'payload is not standard Base64',
      h: hUrl,
      envelope: { ...env0, payload: '!!!!' },
      error: 'bad_payload_base64',
    },
    {
      name: 'signed-not-json',
      about: 'a valid signature over bytes that are not JSON',
      h: hUrl,
      envelope: signedRaw(utf8ToBytes('not json')),
      error: 'bad_payload_json',
    },
    {
      name: 'signed-payment-without-total',
      about: 'a valid signature over a payment missing a required field',
      h: hUrl,
      envelope: signedRaw(utf8ToBytes(payloadJson(noTotal))),
      error: 'bad_payment',
    },
    {
      name: 'other-relay-key',
      about: "a valid envelope signed by another key, checked against this relay's h",
      h: hUrl,
      envelope: signEnvelope(payments[0].payment, otherSecret, new Uint8Array(32)).envelope,
      error: 'bad_hash',
    },
  ].map((c) => ({ ...c, now: beforeExpiry }));
  invalidEnvelope.push({
    name: 'expired',
    about: 'a genuine envelope after issued + timeout: the wallet must not pay',
    h: hUrl,
    envelope: env0,
    error: 'expired',
    now: '2026-01-15T12:15:00.001Z',
  });

  const rowBase = {
    id: 'vec-minimal',
    txid: null as string | null,
    requiredConfirmations: 1,
    confirmations: 0,
    confirmedAt: null as Date | null,
    reason: '',
  };
  const txid = bytesToHex(sha256d(utf8ToBytes('dogeconnect vectors tx')));
  const statuses = [
    { state: 'unpaid', row: { ...rowBase, status: 'unpaid' } },
    { state: 'accepted', row: { ...rowBase, status: 'accepted', txid, requiredConfirmations: 6, confirmations: 2 } },
    {
      state: 'confirmed',
      row: {
        ...rowBase,
        status: 'confirmed',
        txid,
        requiredConfirmations: 1,
        confirmations: 3,
        confirmedAt: new Date('2026-01-15T12:03:00.000Z'),
      },
    },
    { state: 'declined', row: { ...rowBase, status: 'declined', reason: 'cancelled by vendor' } },
  ].map((s) => ({ state: s.state, body: paymentStatus(s.row) }));

  return {
    about: [
      'DogeConnect test vectors published by Counter; how to use them: docs/wallet-sdk.md, "Test vectors".',
      'Fixed keys and fixed BIP-340 auxiliary randomness: regenerate with `node scripts/dogeconnect-vectors.mjs`.',
      'Amounts are 8-DP DOGE strings. Times are RFC 3339. Hex is lowercase.',
    ],
    version: VECTORS_VERSION,
    keys: {
      relay_secret_hex: bytesToHex(secret),
      relay_secret_derivation: `SHA-256 of the UTF-8 text "dogeconnect vectors relay key ${n}"`,
      relay_pubkey_xonly_hex: pubHex,
      pubkey_hash15_hex: h15,
      h_urlsafe: hUrl,
      h_standard: toStandard(hUrl),
      shop_address: shop,
      shop_secret_derivation: 'SHA-256 of the UTF-8 text "dogeconnect vectors shop key" (compressed P2PKH, mainnet)',
    },
    h: [
      { about: "this file's relay key", pubkey_hex: pubHex, hash15_hex: h15, h_urlsafe: hUrl, h_standard: toStandard(hUrl) },
      {
        about: 'the public vector of tests/fixtures/dogeconnect-uri-vectors.json',
        pubkey_hex: '6c52b17752f469c5411b977ba64725d40174d16e780b709b2aff68e0f5abfc50',
        hash15_hex: bytesToHex(pubkeyHash15(hexToBytes('6c52b17752f469c5411b977ba64725d40174d16e780b709b2aff68e0f5abfc50'))),
        h_urlsafe: encodeH(pubkeyHash15(hexToBytes('6c52b17752f469c5411b977ba64725d40174d16e780b709b2aff68e0f5abfc50'))),
        h_standard: toStandard(encodeH(pubkeyHash15(hexToBytes('6c52b17752f469c5411b977ba64725d40174d16e780b709b2aff68e0f5abfc50')))),
      },
    ],
    envelopes,
    uris: { build: uriBuild, parse_valid: parseValid, parse_invalid: invalidUri },
    statuses,
    invalid_envelopes: invalidEnvelope,
  };
}

/** What a wallet must read from a valid URI (the spec's parse result), computed independently of lib/connect. */
function expectedParse(uri: string, k: { shop: string; h15: string }) {
  const [scheme, rest] = [uri.slice(0, uri.indexOf(':')).toLowerCase(), uri.slice(uri.indexOf(':') + 1)];
  const [path, query = ''] = rest.split('?');
  const params = new Map<string, string>();
  for (const part of query.split('&')) {
    const eq = part.indexOf('=');
    if (eq > 0) params.set(part.slice(0, eq), decodeURIComponent(part.slice(eq + 1)));
  }
  const raw = params.get('amount');
  const amount = raw ? raw.replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '') : undefined;
  if (scheme === 'dogeconnect') {
    return { is_connect_uri: true, envelope_url: 'https://' + decodeURIComponent(path), pubkey_hash15_hex: k.h15 };
  }
  const dcv = params.get('dc');
  const h = params.get('h');
  if (!dcv || !h) return { is_connect_uri: false, address: k.shop, ...(amount ? { amount } : {}) };
  return { is_connect_uri: true, address: k.shop, ...(amount ? { amount } : {}), envelope_url: 'https://' + dcv, pubkey_hash15_hex: k.h15 };
}

/** The file's exact text: 2-space JSON and a final newline. */
export function vectorsText(): string {
  return JSON.stringify(buildVectors(), null, 2) + '\n';
}
