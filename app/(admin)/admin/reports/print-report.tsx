'use client';

export function PrintReport() {
  return <button type="button" className="btn btn-primary" onClick={() => window.print()}>Print</button>;
}
