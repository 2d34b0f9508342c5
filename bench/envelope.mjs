// `envelope`: GET /dc/<id> per second at 64 clients, against the same two baselines.
import { runHotRead } from './lib/hot-read.mjs';

const benchmark = {
  name: 'envelope',
  description: 'GET /dc/<id>, 64 clients, 10,000 payments (PGlite)',
  run: (opts) =>
    runHotRead(
      {
        name: 'envelope',
        request: (app, ids) => ({ url: `${app.url}/dc/x`, paths: ids.map((id) => `/dc/${id}`) }),
      },
      opts,
    ),
};

export default benchmark;
