// The part of lib/doge safe in a browser bundle: addresses, scripts and hashing, without scrypt (node:crypto).
export { isHex, sha256d, toHex, hash160 } from './bytes';
export { addressToScript, pubkeyToAddress } from './address';
export { getNetwork, type Network, type NetworkName } from './network';
export { classifyScript, nulldataScript, p2pkhScript } from './script';
export { decodeWif } from './wif';
