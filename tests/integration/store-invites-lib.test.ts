// Store invites in lib/operator on a real PGlite database (docs/architecture.md#data): an invite
// is open for 7 days and then refused; of two takers at once exactly one wins; a refused account
// (a taken email) leaves the invite open; the operator's invite is emailed to the owner through a
// real SMTP server (smtp-server, in-process), and without one the link is still answered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/lib/db';
import { acceptInvite, createStoreWithInvite, openInvite, takeInviteWithAccount, INVITE_TTL_MS } from '@/lib/operator';
import { createUser } from '@/lib/auth';
import { seedFirstStore } from '@/lib/stores';
import { openTestDb } from '../helpers/stores';
import { startSmtp, type Mail } from '../helpers/smtp';

const PASSWORD = 'a long invite password';
const inbox: Mail[] = [];

const NO_SMTP = { env: {} };
const tokenOf = (url: string) => url.split('/invite/')[1];

describe('store invites', () => {
  let db: Db;
  beforeAll(async () => {
    db = await openTestDb();
    await seedFirstStore(db, {}); // the store the other accounts belong to
  });
  afterAll(async () => {
    await db?.close();
  });

  it("draws a new store's id after the first store's given one, whether the start-up made it or found it", async () => {
    const other = await openTestDb();
    try {
      await other.query(`INSERT INTO store (id, name) VALUES (1, 'Seeded before start-up')`);
      await seedFirstStore(other, {});
      const made = await createStoreWithInvite(
        other,
        'http://shop.test',
        'op',
        { name: 'Next', owner_email: 'n@x.test' },
        { mail: NO_SMTP },
      );
      expect(made.id).toBe(2);
    } finally {
      await other.close();
    }
    const first = await createStoreWithInvite(
      db,
      'http://shop.test',
      'op',
      { name: 'After seed', owner_email: 'a@x.test' },
      { mail: NO_SMTP },
    );
    expect(first.id).toBe(2);
  });

  it('is open for 7 days; after that the page, the new account and Accept all refuse it', async () => {
    const now = new Date('2026-11-01T10:00:00Z');
    const made = await createStoreWithInvite(
      db,
      'http://shop.test',
      'op',
      { name: 'Late shop', owner_email: 'late@x.test' },
      { now, mail: NO_SMTP },
    );
    const token = tokenOf(made.invite_url);
    const lastMoment = new Date(now.getTime() + INVITE_TTL_MS - 1);
    const expired = new Date(now.getTime() + INVITE_TTL_MS);
    expect(await openInvite(db, token, lastMoment)).toEqual({ storeId: made.id, storeName: 'Late shop', email: 'late@x.test' });
    expect(await openInvite(db, token, expired)).toBeNull();
    await expect(takeInviteWithAccount(db, token, { name: 'Late', password: PASSWORD }, expired)).rejects.toMatchObject({
      code: 'not_found',
    });
    const u = await createUser(db, { storeId: 1, email: 'someone@x.test', password: PASSWORD, role: 'cashier' });
    await expect(acceptInvite(db, token, u.id, expired)).rejects.toMatchObject({ code: 'not_found' });
    expect(await db.prisma.membership.count({ where: { storeId: made.id } })).toBe(0);
  });

  it('of two takers at once exactly one wins, and the other is refused as used', async () => {
    const made = await createStoreWithInvite(
      db,
      'http://shop.test',
      'op',
      { name: 'Race shop', owner_email: 'race@x.test' },
      { mail: NO_SMTP },
    );
    const token = tokenOf(made.invite_url);
    const u = await createUser(db, { storeId: 1, email: 'racer@x.test', password: PASSWORD, role: 'cashier' });
    const results = await Promise.allSettled([
      takeInviteWithAccount(db, token, { name: 'New', password: PASSWORD }),
      acceptInvite(db, token, u.id),
      acceptInvite(db, token, u.id),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results.filter((x) => x.status === 'rejected'))
      expect((r as PromiseRejectedResult).reason).toMatchObject({ code: 'not_found' });
    expect(await db.prisma.membership.count({ where: { storeId: made.id, role: 'owner' } })).toBe(1);
    expect(await openInvite(db, token)).toBeNull();
  });

  it('a refused account leaves the invite open: a taken email (409), a weak password (400)', async () => {
    await createUser(db, { storeId: 1, email: 'taken@x.test', password: PASSWORD, role: 'cashier' });
    const made = await createStoreWithInvite(
      db,
      'http://shop.test',
      'op',
      { name: 'Taken shop', owner_email: 'taken@x.test' },
      { mail: NO_SMTP },
    );
    const token = tokenOf(made.invite_url);
    await expect(takeInviteWithAccount(db, token, { name: 'T', password: PASSWORD })).rejects.toMatchObject({ code: 'conflict' });
    await expect(takeInviteWithAccount(db, token, { name: 'T', password: 'short' })).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(takeInviteWithAccount(db, token, { name: 'T\u0000', password: PASSWORD })).rejects.toMatchObject({
      code: 'invalid_request',
    });
    expect(await openInvite(db, token)).toMatchObject({ storeId: made.id });
  });

  it("emails the invite to the owner through the installation's SMTP server; without one the link is still answered", async () => {
    const smtp = await startSmtp(inbox);
    try {
      const env = { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, SMTP_FROM: 'Counter <relay@host.test>' };
      const made = await createStoreWithInvite(
        db,
        'https://relay.test/',
        'op',
        { name: 'Mailed <shop>', owner_email: 'Owner@Mail.test' },
        { mail: { env } },
      );
      expect(made.invite_url).toMatch(/^https:\/\/relay\.test\/invite\/[A-Za-z0-9_-]{43}$/);
      expect(inbox).toHaveLength(1);
      expect(inbox[0].to).toEqual(['owner@mail.test']);
      const raw = inbox[0].raw.replace(/=\r?\n/g, '');
      expect(raw).toContain(made.invite_url);
      expect(raw).toContain('Mailed &lt;shop&gt;');
      expect(raw).toMatch(/Subject: .*Counter/);
    } finally {
      await smtp.close();
    }
    const refusing = await startSmtp(inbox, { onRcptTo: (_a, _s, cb) => cb(new Error('no such mailbox')) });
    try {
      const env = { SMTP_URL: `smtp://127.0.0.1:${refusing.port}`, SMTP_FROM: 'relay@host.test' };
      const made = await createStoreWithInvite(
        db,
        'https://relay.test',
        'op',
        { name: 'Bounced', owner_email: 'b@mail.test' },
        { mail: { env } },
      );
      expect(made.invite_url).toContain('/invite/');
    } finally {
      await refusing.close();
    }
    const plain = await createStoreWithInvite(
      db,
      'https://relay.test',
      'op',
      { name: 'No mail', owner_email: 'n@mail.test' },
      { mail: NO_SMTP },
    );
    expect(await openInvite(db, tokenOf(plain.invite_url))).toMatchObject({ storeName: 'No mail' });
    expect(inbox).toHaveLength(1);
  });
});
