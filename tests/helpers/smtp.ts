// A real SMTP server in the test's process (smtp-server), on a free loopback port: what the app
// sends lands in `inbox` as the envelope's sender and recipients and the raw message. `opts`
// changes its behaviour (onRcptTo to refuse a mailbox, disabledCommands…).
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';

export interface Mail {
  from: string;
  to: string[];
  raw: string;
}

export interface TestSmtp {
  port: number;
  /** smtp://127.0.0.1:<port>, for SMTP_URL. */
  url: string;
  close(): Promise<void>;
}

export function startSmtp(inbox: Mail[], opts: Partial<SMTPServerOptions> = {}): Promise<TestSmtp> {
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authOptional: true,
    logger: false,
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        inbox.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        cb();
      });
    },
    ...opts,
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const port = (server.server.address() as { port: number }).port;
      resolve({ port, url: `smtp://127.0.0.1:${port}`, close: () => new Promise<void>((r) => server.close(() => r())) });
    });
  });
}
