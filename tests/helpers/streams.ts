// Live update streams (server-sent events) read as a client reads them: node:http, a socket each
// (no pooling, so a test can hold many open at once and count them against the app's caps).
import http from 'node:http';

/** One open event stream; `D` is how the test reads its events' data. */
export interface EventStream<D = unknown> {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body of a refusal (any status but 200); a 200 stream's events are parsed instead. */
  body: string;
  /** Every event of a 200 stream so far, in order, its data parsed. */
  events: { event: string; data: D }[];
  /** `payment` event statuses seen so far. */
  statuses: string[];
  /** All the text received so far, as it came. */
  raw: string;
  ended: boolean;
  close(): void;
}

/** Opens GET `url` as an event stream; resolves once the status line is in. */
export function openEventStream<D = unknown>(url: string, headers: Record<string, string>): Promise<EventStream<D>> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers, agent: false }, (res) => {
      const s: EventStream<D> = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        body: '',
        events: [],
        statuses: [],
        raw: '',
        ended: false,
        close: () => req.destroy(),
      };
      let buf = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        s.raw += d;
        if (s.status !== 200) {
          s.body += d;
          return;
        }
        buf += d;
        let i: number;
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, i);
          buf = buf.slice(i + 2);
          // Every event's data is JSON (lib/live/sse-stream.ts).
          const m = /^event: (\w+)\ndata: (.*)$/m.exec(block);
          if (!m) continue;
          const data: unknown = JSON.parse(m[2]);
          s.events.push({ event: m[1], data: data as D });
          if (m[1] === 'payment') s.statuses.push((data as { status: string }).status);
        }
      });
      const done = () => (s.ended = true);
      res.on('end', done);
      res.on('error', done);
      res.on('close', done);
      resolve(s);
    });
    req.on('error', reject);
  });
}

/** Reads a fetched event stream until its text matches `re` (or `ms` passed), then closes it; the text so far. */
export async function readFeedUntil(res: Response, re: RegExp, ms = 20_000): Promise<string> {
  const reader = res.body!.getReader();
  const dec = new TextDecoder();
  let text = '';
  const timer = setTimeout(() => void reader.cancel(), ms);
  try {
    while (!re.test(text)) {
      const { done, value } = await reader.read();
      if (done) break;
      text += dec.decode(value, { stream: true });
    }
  } finally {
    clearTimeout(timer);
    await reader.cancel().catch(() => undefined);
  }
  return text;
}
