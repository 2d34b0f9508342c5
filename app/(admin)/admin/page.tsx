import Link from 'next/link';

export default function AdminPage() {
  return (
    <main className="shell">
      <header className="hero">
        <h1>Back office</h1>
        <p>The back office is being built: invoices, catalog, settings, API keys, users and node status.</p>
      </header>
      <Link className="btn" href="/">Back to the start page</Link>
    </main>
  );
}
