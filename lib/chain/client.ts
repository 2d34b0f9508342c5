// The part of lib/chain safe in a browser bundle: the wallet birthday the settings form reads.
export { parseBirthday, type Birthday } from './birthday';
