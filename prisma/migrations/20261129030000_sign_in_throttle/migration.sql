-- Sign-in throttling moves from each process's memory into the database (docs/security.md), so
-- that every app process sharing the database counts the same attempts. One row per throttled
-- key ("account|…", "client|…", "terminal|…", "pin-user|…", "pair|…"): the attempts counted,
-- the lock (NULL when none) and the last attempt. An attempt is counted by one conditional
-- INSERT … ON CONFLICT DO UPDATE … WHERE the key is not locked, before the password or PIN is
-- looked at (lib/auth/sign-in-throttle.ts). Rows quiet for an hour are pruned (last_at index).
CREATE TABLE "sign_in_throttle" (
    "key" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL,
    "locked_until" TIMESTAMPTZ(3),
    "last_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "sign_in_throttle_pkey" PRIMARY KEY ("key")
);
CREATE INDEX "sign_in_throttle_last_at_idx" ON "sign_in_throttle"("last_at");
