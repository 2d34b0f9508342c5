// Local webhook endpoints that record every delivery and check its signature: a plain one that
// answers 200, and a scripted one whose answers (a status, a delay, a hang) a test plans ahead
// and whose clock for the signature check the test sets.
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import { verifyWebhookSignature } from '@/lib/webhooks/signature';
import { freePort } from './ports';

/** A delivery's JSON body (the fields tests read); null when it was not JSON. */
export interface WebhookBody {
  id?: string;
  type?: string;
  payment?: { id: string };
  [field: string]: unknown;
}

export interface Received {
  id: string | undefined;
  type: string | undefined;
  body: WebhookBody | null;
  signatureValid: boolean;
  eventIdHeader: string | undefined;
}

export async function startWebhookReceiver(secret: string): Promise<{ url: string; events: Received[]; close(): Promise<void> }> {
  const events: Received[] = [];
  const port = await freePort();
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', () => {
      const sig = String(req.headers['x-counter-signature'] ?? '');
      let body: WebhookBody | null = null;
      try {
        body = JSON.parse(raw);
      } catch {
        /* recorded as null */
      }
      events.push({
        id: body?.id,
        type: body?.type,
        body,
        signatureValid: verifyWebhookSignature(secret, raw, sig, { now: Math.floor(Date.now() / 1000) }),
        eventIdHeader: req.headers['x-counter-event-id'] as string | undefined,
      });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${port}/hook`, events, close: () => new Promise((r) => server.close(() => r())) };
}

/** How the receiver answers one request: a status (with headers, a body, after a delay), or never. */
export type ReceiverBehaviour = { status: number; headers?: Record<string, string>; body?: string; delayMs?: number } | 'hang';

/** One request the scripted receiver took, and whether its signature verified. */
export interface ScriptedDelivery {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  verified: boolean;
  signedAt: number; // the t= of the signature header
}

export interface ScriptedReceiver {
  url: string;
  port: number;
  received: ScriptedDelivery[];
  /** Responses for the next requests, in order; when empty, 200. */
  plan: ReceiverBehaviour[];
  /** Unix seconds the receiver verifies against (the test clock). */
  nowSec: () => number;
  reset(): void;
  close(): Promise<void>;
}

/** A receiver that verifies each delivery against `secret` and answers as its `plan` says. */
export async function startScriptedReceiver(secret: string): Promise<ScriptedReceiver> {
  const port = await freePort();
  const hanging = new Set<ServerResponse>();
  const self: ScriptedReceiver = {
    url: `http://127.0.0.1:${port}/hooks/counter`,
    port,
    received: [],
    plan: [],
    nowSec: () => Math.floor(Date.now() / 1000),
    reset() {
      self.received.length = 0;
      self.plan.length = 0;
      for (const res of hanging) res.destroy();
      hanging.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        self.reset();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const sig = req.headers['x-counter-signature'];
      self.received.push({
        path: req.url ?? '',
        headers: req.headers,
        body: raw.toString('utf8'),
        verified: verifyWebhookSignature(secret, raw, sig, { now: self.nowSec() }),
        signedAt: Number(/t=(\d+)/.exec(String(sig))?.[1]),
      });
      const b = self.plan.shift() ?? { status: 200 };
      if (b === 'hang') {
        hanging.add(res);
        return;
      }
      const send = () => {
        res.writeHead(b.status, { 'Content-Type': 'text/plain', ...b.headers });
        res.end(b.body ?? '');
      };
      if (b.delayMs) setTimeout(send, b.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return self;
}
