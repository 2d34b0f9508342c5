// The wallet check's cases (docs/wallet-check.md#the-cases). A `pay` case is a real payment request
// a wallet must pay through the relay; a `refuse` case is a valid request broken in exactly one
// way, which a wallet must refuse. Every envelope is signed with the check's own key and checked
// against lib/connect's Connect Payment schema before anything is broken, so that a refuse case
// is wrong in its one way only.
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { randomBytes } from 'node:crypto';
import {
  ConnectPaymentSchema,
  buildConnectUri,
  buildDogecoinUri,
  encodeH,
  pubkeyHash15,
  schnorrPublicKey,
  signEnvelope,
  payloadJson,
} from '../connect';
import { formatKoinu, parseKoinu } from '../money';
import type { CheckKey } from './key';

export type Expect = 'pay' | 'refuse';

export const PAY_CASES = ['plain', 'escaped_names', 'thirty_items', 'data_output', 'signing_item', 'connect_uri', 'double_fee'] as const;
export const REFUSE_CASES = [
  'altered_signature',
  'changed_payload',
  'wrong_h',
  'short_h',
  'expired',
  'bad_version',
  'missing_field',
] as const;
export type CaseName = (typeof PAY_CASES)[number] | (typeof REFUSE_CASES)[number];
export const CASE_NAMES: readonly CaseName[] = [...PAY_CASES, ...REFUSE_CASES];

export const expectOf = (name: CaseName): Expect => ((REFUSE_CASES as readonly string[]).includes(name) ? 'refuse' : 'pay');

/** The store default rate (docs/relay.md): 0.01 DOGE per kB. The double_fee case asks twice this. */
export const DEFAULT_FEE_PER_KB = 1_000_000n;
export const MAX_SIZE = 100_000;
export const TIMEOUT_SEC = 900;
/** The bytes the data cases ask to be carried in an OP_RETURN output ("Counter wallet check"). */
export const CHECK_DATA = bytesToHex(new TextEncoder().encode('Counter wallet check'));

/** An output the relay checks a submitted tx against (amount in koinu). */
export interface CheckOutput {
  type: 'p2pkh' | 'data';
  address: string | null;
  amount: bigint | null;
  data: string | null;
}

export interface BuiltCase {
  /** The Connect Envelope as served at /dc/<id>, exactly these bytes. */
  envelope: string;
  uri: string;
  outputs: CheckOutput[];
  feePerKb: bigint;
  maxSize: number;
  expiresAt: Date;
}

export interface CaseInput {
  id: string;
  name: CaseName;
  address: string;
  key: CheckKey;
  publicUrl: string;
  now: Date;
}

type Item = Record<string, unknown>;
const item = (id: string, name: string, unit: string, count = 1): Item => ({
  type: 'item',
  id,
  name,
  desc: '',
  icon: '',
  count,
  unit,
  total: formatKoinu(parseKoinu(unit) * BigInt(count)),
  tax: '',
});

/** The items, outputs and fee rate of a case: what it asks the wallet to show and pay. */
function contentOf(name: CaseName, address: string): { vendorName: string; items: Item[]; outputs: CheckOutput[]; feePerKb: bigint } {
  const pay = (amount: string): CheckOutput => ({ type: 'p2pkh', address, amount: parseKoinu(amount), data: null });
  const data: CheckOutput = { type: 'data', address: null, amount: null, data: CHECK_DATA };
  const base = { vendorName: 'Counter wallet check', feePerKb: DEFAULT_FEE_PER_KB };
  switch (name) {
    case 'escaped_names':
      return {
        ...base,
        vendorName: 'Café Ünïcode ~ Dogé > ? 🐕',
        items: [item('creme', 'Crème brûlée > ? ~ 日本', '1.5')],
        outputs: [pay('1.5')],
      };
    case 'thirty_items':
      return { ...base, items: Array.from({ length: 30 }, (_, i) => item(`item-${i + 1}`, `Item ${i + 1}`, '0.1')), outputs: [pay('3')] };
    case 'data_output':
      return { ...base, items: [item('coffee', 'Coffee', '1.25')], outputs: [pay('1.25'), data] };
    case 'signing_item':
      return {
        ...base,
        items: [
          item('coffee', 'Coffee', '1.25'),
          { type: 'signing', id: 'stamp', name: 'Wallet check stamp', desc: 'Data written on the chain', icon: '' },
        ],
        outputs: [pay('1.25'), data],
      };
    case 'double_fee':
      return { ...base, feePerKb: DEFAULT_FEE_PER_KB * 2n, items: [item('tea', 'Tea', '1')], outputs: [pay('1')] };
    default:
      return { ...base, items: [item('tea', 'Tea', '1')], outputs: [pay('1')] };
  }
}

/** The Connect Payment of a case, valid (checked against the schema). */
function paymentOf(
  input: CaseInput,
  issued: Date,
): { payment: Record<string, unknown>; outputs: CheckOutput[]; feePerKb: bigint; total: bigint } {
  const c = contentOf(input.name, input.address);
  const total = c.outputs.reduce((s, o) => s + (o.amount ?? 0n), 0n);
  const payment = {
    type: 'payment',
    id: input.id,
    issued: issued.toISOString(),
    timeout: TIMEOUT_SEC,
    relay: `${input.publicUrl}/relay`,
    relay_token: '',
    fee_per_kb: formatKoinu(c.feePerKb),
    max_size: MAX_SIZE,
    vendor_icon: '',
    vendor_name: c.vendorName,
    vendor_address: '',
    vendor_url: '',
    vendor_order_url: '',
    vendor_order_id: input.id,
    order_reference: input.name,
    note: '',
    total: formatKoinu(total),
    fees: '',
    taxes: '',
    fiat_total: '',
    fiat_tax: '',
    fiat_currency: '',
    items: c.items,
    outputs: c.outputs.map((o) =>
      o.type === 'data' ? { type: 'data', data: o.data } : { type: 'p2pkh', address: o.address, amount: formatKoinu(o.amount!) },
    ),
  };
  const parsed = ConnectPaymentSchema.safeParse(payment);
  if (!parsed.success)
    throw new Error(`wallet check case ${input.name} is not a valid Connect Payment: ${parsed.error.issues[0]?.message}`);
  return { payment, outputs: c.outputs, feePerKb: c.feePerKb, total };
}

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

/** Flips one bit of the signature's last byte: still 64 bytes of hex, no longer a valid signature. */
function alterSignature(sigHex: string): string {
  const sig = hexToBytes(sigHex);
  sig[63] ^= 0x01;
  return bytesToHex(sig);
}

/** Builds a case: its payment, its envelope broken in its one way (refuse cases), its URI. */
export function buildCase(input: CaseInput): BuiltCase {
  const { name, key, publicUrl, now } = input;
  // The expired case was issued two timeouts ago: issued + timeout is an hour in the past.
  const issued = name === 'expired' ? new Date(now.getTime() - 4 * TIMEOUT_SEC * 1000) : now;
  const { payment, outputs, feePerKb, total } = paymentOf(input, issued);
  if (name === 'missing_field') delete payment.type;
  const signed = signEnvelope(payment, key.signingKey);
  const envelope: Record<string, string> = { ...signed.envelope };
  if (name === 'altered_signature') envelope.sig = alterSignature(envelope.sig);
  if (name === 'bad_version') envelope.version = '2.0';
  if (name === 'changed_payload') {
    // The amount is raised after signing; the URI still says what was signed.
    const changed = {
      ...payment,
      total: formatKoinu(total * 100n),
      outputs: [{ ...(payment.outputs as Item[])[0], amount: formatKoinu(total * 100n) }],
    };
    envelope.payload = base64(new TextEncoder().encode(payloadJson(changed)));
  }
  const envelopeUrl = `${publicUrl}/dc/${input.id}`;
  let uri =
    name === 'connect_uri'
      ? buildConnectUri({ envelopeUrl, pubkey: key.pubkey })
      : buildDogecoinUri({ address: input.address, amount: total, envelopeUrl, pubkey: key.pubkey });
  if (name === 'wrong_h') uri = uri.replace(/h=[^&]+$/, `h=${encodeH(pubkeyHash15(schnorrPublicKey(new Uint8Array(randomBytes(32)))))}`);
  if (name === 'short_h')
    uri = uri.replace(/h=[^&]+$/, `h=${Buffer.from(pubkeyHash15(hexToBytes(key.pubkey)).slice(0, 3)).toString('base64url')}`);
  return {
    envelope: JSON.stringify(envelope),
    uri,
    outputs,
    feePerKb,
    maxSize: MAX_SIZE,
    expiresAt: new Date(issued.getTime() + TIMEOUT_SEC * 1000),
  };
}
