export function StatusBadge({ status, exception, expired }: { status: string; exception?: string | null; expired?: boolean }) {
  const label = status === 'unpaid' && expired ? 'expired' : status;
  return (
    <span className="bo-badges">
      <span className={`bo-badge bo-badge-${label}`}>{label}</span>
      {exception ? <span className="bo-badge bo-badge-exception">{exception.replace('_', ' ')}</span> : null}
    </span>
  );
}
