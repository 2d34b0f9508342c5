// Builds signed Connect Payments for wallet SDK tests (relay side of the protocol, lib/connect).
import { bytesToHex } from '@noble/hashes/utils.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { pubkeyToAddress } from '../../lib/doge/address';
import { REGTEST } from '../../lib/doge/network';
import { signEnvelope, pubkeyHash15, schnorrPublicKey, type ConnectPaymentInput } from '../../lib/connect';

export const RELAY_SECRET = new Uint8Array(32).fill(3);
export const RELAY_PUBKEY = schnorrPublicKey(RELAY_SECRET);
export const RELAY_H15 = pubkeyHash15(RELAY_PUBKEY);

/** The shop's regtest address (key 0x09…09). */
export const SHOP_ADDRESS = pubkeyToAddress(secp256k1.getPublicKey(new Uint8Array(32).fill(9), true), REGTEST);

export function makePayment(over: Partial<ConnectPaymentInput> = {}): ConnectPaymentInput {
  return {
    type: 'payment',
    id: 'pay-1',
    issued: new Date().toISOString(),
    timeout: 900,
    relay: 'https://relay.example/relay',
    relay_token: 'tok-123',
    fee_per_kb: '0.01',
    max_size: 100000,
    vendor_icon: '',
    vendor_name: 'Coffee Shop',
    vendor_address: '',
    vendor_url: '',
    vendor_order_url: '',
    vendor_order_id: 'INV-1',
    order_reference: '',
    note: '',
    total: '22.05',
    fees: '1',
    taxes: '2.1',
    fiat_total: '',
    fiat_tax: '',
    fiat_currency: '',
    items: [
      { type: 'item', id: 'SKU-1', name: 'Coffee', count: 2, unit: '9.475', total: '18.95', tax: '2.1', desc: '', icon: '' },
      { type: 'fee', id: 'svc', name: 'Service', count: 1, unit: '1', total: '1' },
      { type: 'signing', id: 'sig', name: 'Loyalty stamp' },
    ],
    outputs: [
      { type: 'p2pkh', address: SHOP_ADDRESS, amount: '22.05' },
      { type: 'data', data: '68656c6c6f' },
    ],
    meta: { 'com.example.table': '7' },
    ...over,
  } as ConnectPaymentInput;
}

export function signed(payment: object, secret = RELAY_SECRET) {
  return signEnvelope(payment, secret).envelope;
}

export const hex = bytesToHex;
