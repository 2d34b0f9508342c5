// Server-rendered sales-per-day bar chart (no chart library): pure SVG with a title per bar.
import { useLocale, useTranslations } from 'next-intl';
import { chartBars, type SalesDay } from '@/lib/backoffice';
import { dogeAmount } from '@/lib/i18n';

export function SalesChart({ days }: { days: SalesDay[] }) {
  const t = useTranslations('admin');
  const locale = useLocale();
  const W = 720;
  const H = 200;
  const { bars, max } = chartBars(days, W, H);
  const total = days.reduce((s, d) => s + d.totalKoinu, 0n);
  const count = days.reduce((s, d) => s + d.count, 0);
  return (
    <figure className="bo-chart" aria-label={t('chartLabel', { days: days.length })}>
      <figcaption id="bo-sales-chart-caption">
        <span>{t('chartCaption', { days: days.length })}</span>
        <b>
          {dogeAmount(total, locale)} · {t('sales', { n: count })}
        </b>
      </figcaption>
      <svg viewBox={`0 0 ${W} ${H + 22}`} role="img" aria-labelledby="bo-sales-chart-caption" className="bo-chart-svg">
        <line x1="0" y1={H} x2={W} y2={H} className="bo-chart-axis" />
        {max > 0n ? (
          <text x="4" y="12" className="bo-chart-label">
            {dogeAmount(max, locale)}
          </text>
        ) : (
          <text x={W / 2} y={H / 2} textAnchor="middle" className="bo-chart-label">
            {t('chartNoSales')}
          </text>
        )}
        {bars.map((b, i) => (
          <g key={b.day}>
            <rect
              x={b.x}
              y={b.y}
              width={b.width}
              height={Math.max(b.height, b.height > 0 ? 2 : 0)}
              rx="3"
              className="bo-chart-bar"
              data-day={b.day}
            >
              <title>
                {locale === 'en' ? b.label : t('chartBar', { day: b.day, total: dogeAmount(days[i].total, locale), n: days[i].count })}
              </title>
            </rect>
            {i % 5 === 0 || i === bars.length - 1 ? (
              <text
                x={i === 0 ? b.x : i === bars.length - 1 ? b.x + b.width : b.x + b.width / 2}
                y={H + 16}
                textAnchor={i === 0 ? 'start' : i === bars.length - 1 ? 'end' : 'middle'}
                className="bo-chart-label"
              >
                {b.day.slice(5)}
              </text>
            ) : null}
          </g>
        ))}
      </svg>
    </figure>
  );
}
