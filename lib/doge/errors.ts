/**
 * Typed errors. Each carries a stable `code` so callers can branch without parsing messages.
 * @module
 */

abstract class CodedError<C extends string> extends Error {
  readonly code: C;
  constructor(code: C, message: string) {
    super(message);
    this.code = code;
    this.name = new.target.name;
  }
}

export type NetworkErrorCode = 'unknown-network' | 'genesis';
export class NetworkError extends CodedError<NetworkErrorCode> {}

export type AddressErrorCode =
  | 'type' // not a string
  | 'base58' // bad characters or checksum
  | 'length' // wrong payload length
  | 'version' // version byte not valid for the network
  | 'key'; // WIF secret key out of range / bad compression flag
export class AddressError extends CodedError<AddressErrorCode> {}

export type ScriptErrorCode = 'truncated' | 'size';
export class ScriptError extends CodedError<ScriptErrorCode> {}

export type TxDecodeErrorCode =
  | 'truncated'
  | 'varint' // non-canonical or oversized CompactSize
  | 'count' // an item count that cannot fit in the remaining bytes
  | 'witness' // segwit (marker 0x00, flag 0x01) serialisation: not Dogecoin
  | 'no-inputs'
  | 'trailing' // bytes left after the transaction
  | 'hex';
export class TxDecodeError extends CodedError<TxDecodeErrorCode> {}

export type HeaderDecodeErrorCode =
  | 'truncated'
  | 'varint'
  | 'count'
  | 'witness'
  | 'no-inputs'
  | 'trailing'
  | 'tx-count' // headers message entry not followed by a zero tx count
  | 'too-many' // more than 2000 headers
  | 'hex';
export class HeaderDecodeError extends CodedError<HeaderDecodeErrorCode> {}

export type HeaderCheckErrorCode =
  // block-level rules (CheckAuxPowProofOfWork, ContextualCheckBlockHeader)
  | 'chain-id' // strict chain ID: version >> 16 must be 0x62
  | 'auxpow-missing' // version has the AuxPoW bit but no AuxPoW data
  | 'auxpow-unexpected' // AuxPoW data without the AuxPoW version bit
  | 'late-legacy' // legacy version after the AuxPoW start height
  | 'early-auxpow' // AuxPoW version before the AuxPoW start height
  | 'bad-bits' // negative, zero, overflowing or above the pow limit
  | 'pow' // hash above target (own scrypt, or the parent's for AuxPoW)
  // CAuxPow::check
  | 'not-generate' // coinbase index in the parent block is not 0
  | 'parent-chain-id' // the parent block carries our chain ID
  | 'chain-branch-too-long' // more than 30 chain merkle branch hashes
  | 'coinbase-merkle' // coinbase branch does not lead to the parent merkle root
  | 'no-chain-root' // chain merkle root not in the parent coinbase scriptSig
  | 'multiple-headers' // more than one merged-mining marker
  | 'header-not-before-root' // marker not immediately before the chain root
  | 'root-too-late' // no marker and the root starts after byte 20
  | 'no-size-nonce' // fewer than 8 bytes after the chain root
  | 'merkle-size' // size field != 2^(chain branch length)
  | 'chain-index'; // chain index != getExpectedIndex(nonce, chainId, h)
export class HeaderCheckError extends CodedError<HeaderCheckErrorCode> {}

export type Bip32ErrorCode = 'format' | 'version' | 'private' | 'hardened' | 'path' | 'key';
export class Bip32Error extends CodedError<Bip32ErrorCode> {}
