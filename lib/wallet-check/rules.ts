// What each case checks, in words a wallet developer can act on: the rule a wallet broke, with
// the protocol section it comes from (docs/protocol.md), and what a pass means.
import type { CaseName } from './cases';

/** What the case asks, and the rule a wallet that gets it wrong breaks. */
export const CASE_RULES: Record<CaseName, { title: string; rule: string }> = {
  plain: { title: 'A plain payment', rule: 'pay a valid request through the relay (protocol §5, step 10)' },
  escaped_names: {
    title: 'Non-ASCII names, with > ? ~ escaped in the payload',
    rule: 'read payload JSON with \\u escapes, whose Base64 has no + or / (protocol §2.B, Connect Envelope)',
  },
  thirty_items: { title: 'Thirty line items', rule: 'show and pay a payment of many items (protocol §2.B, Connect Item)' },
  data_output: { title: 'A data output', rule: 'create an OP_RETURN output carrying the data (protocol §2.B, Connect Output)' },
  signing_item: { title: 'A signing item', rule: 'show the signing item and write its data output (protocol §2.B, Connect Item)' },
  connect_uri: { title: 'The dogeconnect: URI form', rule: 'read the dedicated dogeconnect: URI (protocol §5, QR check step 3)' },
  double_fee: { title: 'fee_per_kb twice the default', rule: "meet the payment's fee_per_kb (protocol §2.B, Connect Payment)" },
  altered_signature: {
    title: 'Signature bytes altered',
    rule: 'paid an envelope whose signature does not verify (protocol §5, envelope verification step 6: verify the signature before showing the payment)',
  },
  changed_payload: {
    title: 'Payload changed after signing',
    rule: 'paid an envelope whose payload was changed after signing (protocol §5, envelope verification steps 4–6: the signature covers the payload bytes)',
  },
  wrong_h: {
    title: 'An h that does not match the key',
    rule: 'paid although SHA-256 of the relay key does not match h (protocol §5, QR check step 5: a possible man in the middle)',
  },
  short_h: {
    title: 'An h of 3 bytes, a prefix of the right hash',
    rule: 'accepted an h that is not 15 bytes (protocol §5, QR check step 2: the request is invalid)',
  },
  expired: {
    title: 'An expired payment',
    rule: 'paid after issued + timeout (protocol §5, envelope verification step 8)',
  },
  bad_version: {
    title: 'version 2.0',
    rule: 'paid an envelope whose version is not 1.0 (protocol §2.B, Connect Envelope: version MUST be 1.0)',
  },
  missing_field: {
    title: 'A required field missing (type)',
    rule: 'paid a Connect Payment without its required type field (protocol §2.B, Connect Payment: type MUST be payment)',
  },
};

export const DETAIL = {
  broadcastOnly: 'broadcast by the wallet, never submitted to the relay',
  neverPaid: 'never paid',
  refusedByRelay: (reason: string) => `the relay refused the submission: ${reason}`,
  paid: (txid: string, status: string) => `paid through the relay: ${status} (txid ${txid})`,
  submitted: (rule: string) => `submitted to the relay: ${rule}`,
  paidOnChain: (rule: string) => `paid on-chain: ${rule}`,
  refusedAfterFetch: (sec: number) => `refused: fetched the envelope and paid nothing within ${sec} s`,
  refusedAtFinish: 'refused: fetched the envelope and paid nothing before the run finished',
  neverFetched: 'refused without fetching the envelope (right for a request whose QR code is already invalid)',
  runFinished: 'the wallet check run has finished',
} as const;
