// One badge per payment: a cancel is "cancelled" (not "declined" plus "cancelled"); other
// exceptions (double spent, marked invalid, …) add a second badge that explains the first.
export function StatusBadge({ status, exception, expired }: { status: string; exception?: string | null; expired?: boolean }) {
  const cancelled = status === 'declined' && exception === 'cancelled';
  const label = cancelled ? 'cancelled' : status === 'unpaid' && expired ? 'expired' : status;
  return (
    <span className="bo-badges">
      <span className={`bo-badge bo-badge-${label}`}>{label}</span>
      {exception && !cancelled ? <span className="bo-badge bo-badge-exception">{exception.replace('_', ' ')}</span> : null}
    </span>
  );
}
