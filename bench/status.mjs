// `status`: POST /relay/status per second at 64 clients with 10,000 payments in the database,
// against the framework floor (a trivial route handler in the same app) and bare node:http.
import { runHotRead } from './lib/hot-read.mjs';

const benchmark = {
  name: 'status',
  description: 'POST /relay/status, 64 clients, 10,000 payments (PGlite)',
  run: (opts) =>
    runHotRead(
      {
        name: 'status',
        target: 0.8,
        request: (app, ids) => ({ url: `${app.url}/relay/status`, method: 'POST', bodies: ids.map((id) => JSON.stringify({ id })) }),
      },
      opts,
    ),
};

export default benchmark;
