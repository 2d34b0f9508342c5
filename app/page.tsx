import Link from 'next/link';
import { config } from '@/lib/config';
import { getDb } from '@/lib/db';
import { checkHealth } from '@/lib/health';

export const dynamic = 'force-dynamic';

export default async function Home() {
  const cfg = config();
  const health = await checkHealth(cfg, getDb);
  return (
    <>
      <header className="topbar">
        <Link href="/" className="brand">
          <span className="brand-mark">Ð</span>Counter
        </Link>
        <span className="pill">
          {cfg.network} · {cfg.chainBackend}
        </span>
      </header>
      <main className="shell">
        <section className="hero">
          <h1>Take Dogecoin at the counter.</h1>
          <p>
            Counter is a point of sale for shops that accept Dogecoin. Ring up a sale, show a DogeConnect QR code, and the built-in payment
            relay checks the customer&apos;s transaction, broadcasts it and tracks its confirmations, while a lightweight header-only node
            follows the chain and watches your wallet.
          </p>
        </section>
        <section className="cards">
          <div className="card">
            <h2>Cashier</h2>
            <p>The checkout screen for the tablet: products, keypad, cart, and a live QR code for each sale.</p>
            <Link className="btn btn-primary" href="/pos">
              Open the cashier screen
            </Link>
          </div>
          <div className="card">
            <h2>Back office</h2>
            <p>Invoices, sales, catalog, settings, API keys, webhooks, users and node status.</p>
            <Link className="btn" href="/admin">
              Open the back office
            </Link>
          </div>
          <div className="card">
            <h2>Node status</h2>
            <p>Plain-text diagnostics for operators, and the health endpoint.</p>
            {/* A JSON route handler, not a page: the browser loads it as a document. */}
            {/* eslint-disable-next-line @next/next/no-html-link-for-pages */}
            <a className="btn" href="/api/health">
              /api/health
            </a>
          </div>
        </section>
        <section className="status-grid" aria-label="System status">
          <div className="stat">
            <span className="muted">Database</span>
            <b>
              {health.db}
              {health.ok ? '' : ' (down)'}
            </b>
          </div>
          <div className="stat">
            <span className="muted">Chain tip</span>
            <b>{health.chain.tip}</b>
          </div>
          <div className="stat">
            <span className="muted">Peers</span>
            <b>{health.chain.peers}</b>
          </div>
          <div className="stat">
            <span className="muted">Version</span>
            <b>{health.version}</b>
          </div>
        </section>
        <footer>Counter {health.version}. Amounts are kept in koinu (1 DOGE = 100,000,000 koinu).</footer>
      </main>
    </>
  );
}
