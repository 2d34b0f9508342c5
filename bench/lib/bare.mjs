// The physical-limit baseline: a bare node:http server answering a fixed JSON body, in its
// own process (like the app) so that it does not share the load generator's event loop.
import { spawn } from 'node:child_process';
import { freePort } from './app.mjs';

const SERVER = `
const http = require('node:http');
const body = JSON.stringify({ id: 'x', status: 'unpaid' });
http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  });
}).listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('ready\\n'));
`;

export async function startBare() {
  const port = await freePort();
  const child = spawn(process.execPath, ['-e', SERVER], { env: { PORT: String(port) }, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((res, rej) => {
    child.stdout.on('data', (d) => String(d).includes('ready') && res());
    child.once('exit', () => rej(new Error('bare server exited')));
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => new Promise((r) => (child.once('exit', r), child.kill('SIGTERM'))) };
}
