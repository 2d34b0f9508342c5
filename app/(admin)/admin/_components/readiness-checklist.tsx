// The back office's first-run checklist (DESIGN.md §16): shown instead of the overview until the
// store is ready to take money. Each condition is ticked when it holds; the others say what to
// do and link to where it is done.
import Link from 'next/link';
import { readinessChecklist, type Problem, type ReadinessFacts } from '@/lib/readiness';
import { ReadinessRefresh } from './readiness-refresh';

export function ReadinessChecklist({ problems, network }: { problems: Problem[]; network: ReadinessFacts['network'] }) {
  const items = readinessChecklist(problems, network);
  const left = items.filter((i) => !i.done).length;
  return (
    <section className="bo-card bo-checklist" aria-labelledby="checklist-title">
      <h2 id="checklist-title">Before the first sale</h2>
      <p className="muted">
        Counter can&apos;t take payments yet: {left} of {items.length} {items.length === 1 ? 'item is' : 'items are'} still to do.
        The cashier screen stays locked until everything here is ticked; this page updates by itself.
      </p>
      <ol className="bo-checklist-items">
        {items.map((i) => (
          <li key={i.id} className={i.done ? 'bo-check done' : 'bo-check todo'} data-testid={`check-${i.id}`} data-done={i.done}>
            <span className="bo-check-mark" aria-hidden="true">{i.done ? '✓' : '!'}</span>
            <div className="bo-check-body">
              <h3>
                {i.title} <span className="bo-check-state">{i.done ? '(done)' : '(to do)'}</span>
              </h3>
              {i.problems.map((p) => <p key={p.code} data-code={p.code}>{p.message}</p>)}
              {!i.done && i.href ? <Link className="btn bo-btn-sm" href={i.href}>{i.linkText}</Link> : null}
            </div>
          </li>
        ))}
      </ol>
      <ReadinessRefresh />
    </section>
  );
}
