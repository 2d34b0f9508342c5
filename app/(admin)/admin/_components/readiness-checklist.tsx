// The back office's first-run checklist (docs/operations.md#readiness): shown instead of the overview until the
// store is ready to take money. Each condition is ticked when it holds; the others say what to
// do and link to where it is done. In English each problem reads as GET /api/health words it
// (lib/readiness); other languages get the same advice from the "readiness" messages.
import Link from 'next/link';
import { useLocale, useTranslations } from 'next-intl';
import { readinessChecklist, type Problem, type ReadinessFacts } from '@/lib/readiness';
import { ReadinessRefresh } from './readiness-refresh';

export interface ProblemContext {
  publicUrl: string;
  tip: number;
}

export function ReadinessChecklist({
  problems,
  network,
  context,
}: {
  problems: Problem[];
  network: ReadinessFacts['network'];
  context: ProblemContext;
}) {
  const t = useTranslations('readiness');
  const locale = useLocale();
  const items = readinessChecklist(problems, network);
  const left = items.filter((i) => !i.done).length;
  let host = '';
  try {
    host = new URL(context.publicUrl).hostname;
  } catch {
    /* not a URL: the not-https problem says so */
  }
  const params = { network, url: context.publicUrl, host, tip: context.tip };
  const say = (p: Problem) => (locale === 'en' ? p.message : t(`p_${p.code}`, params));
  return (
    <section className="bo-card bo-checklist" aria-labelledby="checklist-title">
      <h2 id="checklist-title">{t('title')}</h2>
      <p className="muted">{t('intro', { left, n: items.length })}</p>
      <ol className="bo-checklist-items">
        {items.map((i) => (
          <li key={i.id} className={i.done ? 'bo-check done' : 'bo-check todo'} data-testid={`check-${i.id}`} data-done={i.done}>
            <span className="bo-check-mark" aria-hidden="true">
              {i.done ? '✓' : '!'}
            </span>
            <div className="bo-check-body">
              <h3>
                {t(`item_${i.id}`)} <span className="bo-check-state">{i.done ? t('done') : t('todo')}</span>
              </h3>
              {i.problems.map((p) => (
                <p key={p.code} data-code={p.code}>
                  {say(p)}
                </p>
              ))}
              {!i.done && i.href ? (
                <Link className="btn bo-btn-sm" href={i.href}>
                  {i.href === '/admin/settings' ? t('openSettings') : t('openNode')}
                </Link>
              ) : null}
            </div>
          </li>
        ))}
      </ol>
      <ReadinessRefresh />
    </section>
  );
}
