/**
 * Counter's Dogecoin core: network parameters, addresses, keys, scripts, transactions,
 * headers with AuxPoW, proof of work and merkle proofs. Pure functions, no I/O.
 *
 * Note for browser bundles: this index pulls in `scrypt.ts` (node:crypto). Client code that
 * only needs addresses should import `lib/doge/address`, `lib/doge/network` directly.
 * @module
 */
export * from './errors';
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
  type ReadErrorCode,
  type ReadErrorFactory,
} from './bytes';
export { type Checkpoint, MAINNET_CHECKPOINTS, TESTNET_CHECKPOINTS } from './checkpoints';
export {
  type Network,
  type NetworkName,
  type NetworkOptions,
  MAINNET,
  TESTNET,
  REGTEST,
  NETWORKS,
  getNetwork,
  isNetworkName,
} from './network';
export { base58checkEncode, base58checkDecode } from './base58';
export {
  type AddressType,
  type DecodedAddress,
  encodeAddress,
  decodeAddress,
  isValidAddress,
  addressToScript,
  scriptToAddress,
  pubkeyToAddress,
} from './address';
export { type DecodedWif, decodeWif, encodeWif, isValidWif, wifToPublicKey, wifToAddress } from './wif';
export {
  HDKey,
  HARDENED_OFFSET,
  hdVersions,
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
  MAX_OP_RETURN_SCRIPT,
  type ScriptOp,
  type ScriptType,
  type ScriptInfo,
  decodeScript,
  pushData,
  classifyScript,
  p2pkhScript,
  p2shScript,
  nulldataScript,
  scriptEquals,
} from './script';
export {
  type RawTx,
  type RawTxInput,
  type RawTxOutput,
  type TxReadOptions,
  type DecodedTx,
  type DecodedTxInput,
  type DecodedTxOutput,
  SEQUENCE_FINAL,
  SEQUENCE_RBF_THRESHOLD,
  readTx,
  writeTx,
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
export {
  HEADER_SIZE,
  VERSION_AUXPOW,
  type BlockHeader,
  type HeaderFields,
  readHeader,
  parseHeader,
  serializeHeader,
  makeHeader,
  headerHash,
  chainIdOf,
  isAuxpowVersion,
  isLegacyVersion,
} from './header';
export {
  type AuxPow,
  MERGED_MINING_HEADER,
  MAX_CHAIN_BRANCH_LENGTH,
  readAuxpow,
  parseAuxpow,
  writeAuxpow,
  serializeAuxpow,
  getExpectedIndex,
  chainMerkleRoot,
  checkAuxpow,
} from './auxpow';
export {
  type CompactTarget,
  decodeCompact,
  bitsToTarget,
  targetToBits,
  hashToBigInt,
  hashMeetsTarget,
  powHash,
  checkProofOfWork,
  headerWork,
} from './pow';
export { scryptPowHash } from './scrypt';
export {
  type HeaderEntry,
  type CheckHeaderOptions,
  MAX_HEADERS_PER_MESSAGE,
  readHeaderEntry,
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
  type PartialMerkleMatches,
  type MerkleBlock,
  MAX_PARTIAL_TREE_TXS,
  extractMatches,
  buildPartialMerkleTree,
  parseMerkleBlock,
  encodeMerkleBlock,
  verifyMerkleBlock,
} from './merkleblock';
export { type Block, type BlockTx, parseBlock, encodeBlock, checkBlockMerkleRoot } from './block';
