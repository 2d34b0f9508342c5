// Next.js calls register() once per server process. On the Node.js runtime we migrate the
// database, seed settings and (later) start the chain worker, before serving traffic.
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  // Every request is stamped with its socket peer before Next.js sees it (lib/api/client-address.ts).
  (await import('./lib/api/client-address')).installPeerStamp();
  const { boot } = await import('./lib/boot');
  try {
    await boot();
  } catch (err) {
    const { log } = await import('./lib/log');
    log.error('startup failed', { error: err as Error });
    throw err;
  }
}
