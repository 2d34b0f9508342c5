// The mainnet header vectors of tests/fixtures/doge-mainnet-headers.json (plain, full AuxPoW and
// the 80-byte base of AuxPoW blocks) as the header tests read them, and the codes of the two
// errors lib/doge throws for a header: HeaderCheckError (a rule) and HeaderDecodeError (the bytes).
import { expect } from 'vitest';
import { HeaderCheckError, HeaderDecodeError } from '../../lib/doge';
import { readFixture } from './fixtures';

export interface FxHeader {
  height: number;
  hash: string;
  hex: string;
  auxpow: boolean;
  format: 'header80' | 'header80+auxpow' | 'header80_only_auxpow_data_absent';
  version: number;
  prev_hash: string;
  merkle_root: string;
  time: number;
  bits: string;
  nonce: number;
  auxpow_data?: {
    parent_coinbase_txid: string;
    parent_coinbase_hex: string;
    hashBlock_field: string;
    coinbase_branch: string[];
    coinbase_index: number;
    chain_branch: string[];
    chain_index: number;
    parent_header_hex: string;
    parent_hash_sha256d: string;
    parent_scrypt_hash: string;
    parent_version: number;
    parent_time: number;
    parent_bits: string;
    chain_merkle_root_in_parent_coinbase: string;
  };
}

/** The fixture: its header entries and its one `auxpow_only` blob (block 403931). */
export const mainnetHeaders = readFixture('doge-mainnet-headers.json');
export const entries: FxHeader[] = mainnetHeaders.entries;
/** Headers with their AuxPoW proof. */
export const full = entries.filter((e) => e.format === 'header80+auxpow');
/** Pre-AuxPoW headers. */
export const plain = entries.filter((e) => e.format === 'header80');
/** The 80-byte base of an AuxPoW block, its proof absent. */
export const baseOnly = entries.filter((e) => e.format === 'header80_only_auxpow_data_absent');

/** The code of the HeaderCheckError `fn` throws (fails when it throws nothing or something else). */
export function checkCode(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(HeaderCheckError);
    return (e as HeaderCheckError).code;
  }
  throw new Error('expected a HeaderCheckError');
}

/** The code of the HeaderDecodeError `fn` throws (fails when it throws nothing or something else). */
export function decodeCode(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(HeaderDecodeError);
    return (e as HeaderDecodeError).code;
  }
  throw new Error('expected a HeaderDecodeError');
}
