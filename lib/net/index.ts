// Network address helpers.
// What other folders use of lib/net: they import it from here (.dependency-cruiser.cjs, lib-through-index).
export { ipv6Groups } from './ipv6';
