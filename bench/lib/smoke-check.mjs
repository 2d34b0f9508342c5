// What `npm run bench -- --smoke` checks of its own report: every benchmark module ran on small
// data and reported finite ratios, so none of them rots. Figures are never judged here (speed is
// read from a full run, docs/performance.md); only that each benchmark completed, and that the
// loads it drove were answered (no 5xx on status, every pre-signed payment accepted).

/** Problems found in a smoke report; empty when it is complete. */
export function smokeProblems(report, modules) {
  const problems = [];
  const check = (ok, what) => {
    if (!ok) problems.push(what);
  };
  check(report.cpus > 0, 'report has no CPU count');
  check(/^([0-9a-f]{40}(\+dirty)?|unknown)$/.test(report.commit), `report commit ${report.commit}`);
  const names = Object.keys(report.results).sort();
  check(JSON.stringify(names) === JSON.stringify([...modules].sort()), `benchmarks ${names.join(',')} ≠ ${[...modules].sort().join(',')}`);
  for (const [name, r] of Object.entries(report.results)) {
    if (!r.available) {
      check(/^not yet available/.test(r.note ?? ''), `${name}: unavailable without a note`);
      continue;
    }
    check(r.error === undefined, `${name}: ${r.error}`);
    check((r.ratios?.length ?? 0) > 0, `${name}: no ratios`);
    for (const x of r.ratios ?? []) {
      check(Number.isFinite(x.value), `${name}: ${x.name} is not finite`);
      check(['PASS', 'MISS', 'report'].includes(x.verdict), `${name}: ${x.name} verdict ${x.verdict}`);
    }
  }
  const m = (name) => report.results[name]?.metrics;
  if (m('status')) check(m('status').status.status['5xx'] === 0, 'status: 5xx answers');
  if (m('pay')) {
    for (const run of m('pay').runs)
      check(run.accepted === run.submitted, `pay at ${run.connections} clients: ${run.accepted}/${run.submitted} accepted`);
    check(m('pay').rpc_backend_litecoind.accepted > 0, 'pay on litecoind: nothing accepted');
  }
  if (m('stores')) {
    for (const run of [m('stores').pay_one_store, m('stores').pay_many_stores])
      check(run.accepted === run.submitted, `stores: ${run.accepted}/${run.submitted} payments accepted`);
    for (const [name, x] of Object.entries(m('stores').latency))
      check(x.status['2xx'] === x.total && x.total > 0, `stores: ${name} non-2xx answers`);
  }
  if (m('invoices')) check(m('invoices').load.status['2xx'] === m('invoices').load.total, 'invoices: non-2xx answers');
  return problems;
}
