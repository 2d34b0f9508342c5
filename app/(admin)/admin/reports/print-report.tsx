'use client';
import { ActionButton } from '@/app/_lib/action-button';

export function PrintReport({ label }: { label: string }) {
  return (
    <ActionButton className="btn btn-primary" onClick={() => window.print()}>
      {label}
    </ActionButton>
  );
}
