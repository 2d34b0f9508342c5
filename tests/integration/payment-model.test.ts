// The payment lifecycle, model-based (fast-check `commands`): random sequences of /relay/pay
// submissions, plain-wallet txs (short, exact, over, RBF-signalling, or spending a parent that
// signals it or not: unconfirmed, mined in a block of the sequence, or mined with the tx in the
// block that first brings it, so that a disconnect hands the parent's signal down) each brought
// by one of the real intake paths (rpc's
// getrawmempool diff, rpc's P2P announcements, spv's filter: tests/helpers/intake.ts; blocks
// through rpc's getblock reader), blocks, disconnected blocks, the wallet rescan over the
// sequence's blocks (the real rescan, which must find the payment's mined txs and change no
// payment: tests/helpers/model-rescan.ts), double spends mined, txs the node dropped, the clock passing the expiry, cancel, mark
// settled/invalid and refunds, against a real PGlite and the devnet backend, in-process. The
// test plays the node: it keeps a small chain and mempool and feeds the worker's hooks, as a
// worker tick would. After every step the stored payment must equal a plain in-memory model
// (tests/helpers/payment-model.ts) and keep the invariants: confirmed ⇒ confirmations ≥ required
// (unless the merchant settled it), amount_paid = the sum of its counted txs, one /pay broadcast
// per payment, and each transition's event in the outbox, in order.
//
// MODEL_RUNS (default 200) sets the number of sequences and MODEL_COMMANDS (default 12) their
// longest length; MODEL_SEED, MODEL_PATH and MODEL_REPLAY (its replayPath) replay a counterexample;
// MODEL_STATS=1 prints how often each command ran and each state was reached. MODEL_STRICT=1 adds
// a rule of the contract the code breaks today: only a tx paying a refund's exact amount pays it.
//
// The world the sequences run in (the node, the model, the comparison after each step) is
// tests/helpers/payment-model-world.ts; the commands are tests/helpers/payment-model-commands.ts.
import { afterAll, beforeAll, describe, it } from 'vitest';
import fc from 'fast-check';
import { openPaymentDriver, type PaymentDriver } from '../helpers/payment-driver';
import { closeIntakes } from '../helpers/intake';
import { paymentModelWorld, type PaymentModelWorld } from '../helpers/payment-model-world';
import { paymentModelCommands } from '../helpers/payment-model-commands';

const RUNS = Number(process.env.MODEL_RUNS ?? 200);
/** The longest sequence (MODEL_COMMANDS): 12 keeps the default run near half a minute. */
const MAX_COMMANDS = Number(process.env.MODEL_COMMANDS ?? 12);
const SEED = process.env.MODEL_SEED === undefined ? undefined : Number(process.env.MODEL_SEED);
const STRICT = new Set((process.env.MODEL_STRICT ?? '').split(',').filter(Boolean));
const STRICT_REFUND = STRICT.has('1') || STRICT.has('refund');
const PATH = process.env.MODEL_PATH;

let drv: PaymentDriver;
let world: PaymentModelWorld;
let command: ReturnType<typeof paymentModelCommands>;

beforeAll(async () => {
  drv = await openPaymentDriver();
  world = paymentModelWorld(drv, STRICT_REFUND);
  command = paymentModelCommands(world);
}, 120_000);
afterAll(async () => {
  if (process.env.MODEL_STATS === '1' && world)
    console.log(
      [...world.stats]
        .sort()
        .map(([k, n]) => `${k}: ${n}`)
        .join('\n'),
    );
  await drv?.close();
  await closeIntakes();
});

describe('payment lifecycle against a model (PGlite, devnet)', () => {
  it(
    `${RUNS} random sequences keep the stored payment equal to the model`,
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(0, 1, 1, 2),
          fc.commands([command], {
            maxCommands: MAX_COMMANDS,
            size: 'max',
            ...(process.env.MODEL_REPLAY ? { replayPath: process.env.MODEL_REPLAY } : {}),
          }),
          async (required, cmds) => {
            await fc.asyncModelRun(() => world.setup(required), cmds);
          },
        ),
        { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }), ...(PATH === undefined ? {} : { path: PATH }) },
      );
    },
    30 * 60_000,
  );
});
