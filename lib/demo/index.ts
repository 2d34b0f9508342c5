// The devnet demo: its wallet, its catalog seed and the gate that keeps demo routes off real networks.
// What other folders use of lib/demo: they import it from here (.dependency-cruiser.cjs, lib-through-index).
export { demoWalletJson, devnetOf } from './demo-wallet';
export { demoEnabled } from './gate';
export { seedDemoCatalog } from './seed-catalog';
