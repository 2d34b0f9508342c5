// Server-rendered sales-per-day bar chart (no chart library): pure SVG with a title per bar.
import { chartBars, type SalesDay } from '@/lib/backoffice/sales';
import { formatKoinu } from '@/lib/money';

export function SalesChart({ days }: { days: SalesDay[] }) {
  const W = 720;
  const H = 200;
  const { bars, max } = chartBars(days, W, H);
  const total = days.reduce((s, d) => s + d.totalKoinu, 0n);
  const count = days.reduce((s, d) => s + d.count, 0);
  return (
    <figure className="bo-chart" aria-label={`Sales per day over ${days.length} days`}>
      <figcaption id="bo-sales-chart-caption">
        <span>Sales per day, last {days.length} days</span>
        <b>{formatKoinu(total)} DOGE · {count} sale{count === 1 ? '' : 's'}</b>
      </figcaption>
      <svg viewBox={`0 0 ${W} ${H + 22}`} role="img" aria-labelledby="bo-sales-chart-caption" className="bo-chart-svg">
        <line x1="0" y1={H} x2={W} y2={H} className="bo-chart-axis" />
        {max > 0n ? <text x="4" y="12" className="bo-chart-label">{formatKoinu(max)} DOGE</text> : <text x={W / 2} y={H / 2} textAnchor="middle" className="bo-chart-label">No sales yet</text>}
        {bars.map((b, i) => (
          <g key={b.day}>
            <rect x={b.x} y={b.y} width={b.width} height={Math.max(b.height, b.height > 0 ? 2 : 0)} rx="3" className="bo-chart-bar" data-day={b.day}>
              <title>{b.label}</title>
            </rect>
            {i % 5 === 0 || i === bars.length - 1 ? <text x={i === 0 ? b.x : i === bars.length - 1 ? b.x + b.width : b.x + b.width / 2} y={H + 16} textAnchor={i === 0 ? 'start' : i === bars.length - 1 ? 'end' : 'middle'} className="bo-chart-label">{b.day.slice(5)}</text> : null}
          </g>
        ))}
      </svg>
    </figure>
  );
}
