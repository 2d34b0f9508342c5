import Link from 'next/link';

export default function PosPage() {
  return (
    <main className="shell">
      <header className="hero">
        <h1>Cashier</h1>
        <p>The cashier screen is being built: product grid, keypad, cart and live payment QR codes.</p>
      </header>
      <Link className="btn" href="/">Back to the start page</Link>
    </main>
  );
}
