import { useTranslations } from 'next-intl';
import { tillStateOfView } from '@/lib/payments';
import { exceptionLabel, statusLabel } from './labels';

// One badge per payment: a cancel is "cancelled" (not "declined" plus "cancelled"); other
// exceptions (double spent, marked invalid, …) add a second badge that explains the first.
// Labels in the user's language; the class names keep the codes.
export function StatusBadge({ status, exception, expired }: { status: string; exception?: string | null; expired?: boolean }) {
  const t = useTranslations('admin');
  const label = tillStateOfView({ status, exception, expired });
  const cancelled = label === 'cancelled';
  return (
    <span className="bo-badges">
      <span className={`bo-badge bo-badge-${label}`}>{statusLabel(t, label)}</span>
      {exception && !cancelled ? <span className="bo-badge bo-badge-exception">{exceptionLabel(t, exception)}</span> : null}
    </span>
  );
}
