// The header-only node's plain-text diagnostics API (docs/node.md).
// What other folders use of lib/node-api: they import it from here (.dependency-cruiser.cjs, lib-through-index).
export { serveNodeEndpoint } from './endpoints';
