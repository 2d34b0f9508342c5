// A local webhook endpoint that records every delivery and checks its signature.
import { createServer, type Server } from 'node:http';
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
