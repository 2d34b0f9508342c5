/**
 * Counter's Dogecoin core: network parameters, addresses, keys, scripts, transactions,
 * headers with AuxPoW, proof of work and merkle proofs. Pure functions, no I/O.
 *
 * Note for browser bundles: this index pulls in `scrypt.ts` (node:crypto). Client code that
 * only needs addresses should import `lib/doge/address`, `lib/doge/network` directly.
 * @module
 */
export { NetworkError, AddressError, ScriptError, TxDecodeError, HeaderDecodeError, HeaderCheckError, Bip32Error } from './errors';
export {
  toHex,
  fromHex,
  isHex,
  reverse,
  hashToHex,
  hexToHash,
  concatBytes,
  equalBytes,
  sha256d,
  hash160,
  ByteReader,
  ByteWriter,
  encodeVarint,
  MAX_COMPACT_SIZE,
  type ReadErrorFactory,
} from './bytes';
export { MAINNET_CHECKPOINTS, TESTNET_CHECKPOINTS } from './checkpoints';
export { type Network, type NetworkName, MAINNET, TESTNET, REGTEST, NETWORKS, getNetwork, isNetworkName } from './network';
export { base58checkEncode, base58checkDecode } from './base58';
export { encodeAddress, decodeAddress, isValidAddress, addressToScript, scriptToAddress, pubkeyToAddress } from './address';
export { decodeWif, encodeWif, isValidWif, wifToPublicKey, wifToAddress } from './wif';
export {
  HDKey,
  parseExtendedKey,
  parseXpub,
  isValidXpub,
  serializeXpub,
  parsePublicPath,
  derivePublic,
  hdKeyToAddress,
  deriveAddress,
  deriveAddresses,
  hdFromSeed,
  derivePath,
} from './bip32';
export {
  OP,
  MAX_OP_RETURN_PAYLOAD,
  type ScriptInfo,
  decodeScript,
  pushData,
  classifyScript,
  p2pkhScript,
  p2shScript,
  nulldataScript,
} from './script';
export {
  type RawTx,
  type RawTxInput,
  type DecodedTx,
  SEQUENCE_RBF_THRESHOLD,
  parseTxAt,
  parseTx,
  encodeTx,
  txHash,
  txidOf,
  isCoinbase,
  signalsRbf,
  decodeTx,
} from './tx';
export { merkleRoot, merkleRootMutated, merkleBranch, merkleBranchRoot } from './merkle';
export { parseHeader, makeHeader, headerHash, chainIdOf, isAuxpowVersion, isLegacyVersion } from './header';
export { type AuxPow, parseAuxpow, serializeAuxpow, getExpectedIndex, chainMerkleRoot, checkAuxpow } from './auxpow';
export { decodeCompact, bitsToTarget, targetToBits, hashToBigInt, hashMeetsTarget, powHash, checkProofOfWork, headerWork } from './pow';
export { scryptPowHash } from './scrypt';
export {
  type HeaderEntry,
  parseHeaderWithAuxpow,
  parseHeaderEntry,
  serializeHeaderEntry,
  parseHeadersMessage,
  encodeHeadersMessage,
  checkHeader,
  isValidHeader,
} from './headers';
export {
  type PartialMerkleTree,
  MAX_PARTIAL_TREE_TXS,
  extractMatches,
  buildPartialMerkleTree,
  parseMerkleBlock,
  encodeMerkleBlock,
  verifyMerkleBlock,
} from './merkleblock';
export { parseBlock, encodeBlock, checkBlockMerkleRoot } from './block';
