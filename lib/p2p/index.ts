// The Dogecoin peer-to-peer wire: peers, a pool of them and bloom filters.
// What other folders use of lib/p2p: they import it from here (.dependency-cruiser.cjs, lib-through-index).
export {
  INV_TX,
  decodeInv,
  encodeInv,
  encodeGetHeaders,
  decodeReject,
  encodeFilterAdd,
  encodeFilterLoad,
  INV_BLOCK,
  INV_FILTERED_BLOCK,
  decodeU64,
  encodeU64,
  randomNonce64,
  type InvItem,
} from './wire';
export { BloomFilter, BLOOM_UPDATE_ALL, BLOOM_UPDATE_NONE } from './bloom';
export { PeerPool } from './pool';
export { Peer } from './peer';
