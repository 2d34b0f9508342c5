// The /demo pages and /demo/api routes exist only on the devnet demo chain (never on mainnet):
// on every other backend they answer 404 as if they were not there, whatever the method
// (lib/api/demo-route.ts wraps the routes).
import { staticContext } from '../app-context';
import { devnetOf } from './demo-wallet';

export function demoEnabled(): boolean {
  const { cfg, chain } = staticContext();
  return devnetOf(cfg, chain) !== null;
}
