#!/usr/bin/env node
// Writes tests/fixtures/payment-state-vectors.json: the payment state machine's expected
// outcomes, written BY HAND from the contract (docs/api.md, the paragraph on payments from any
// wallet, and docs/relay.md; each vector's `section` label only groups the vectors, and stays as
// published), never from the code's output, so that the table test
// (tests/unit/payment-state-vectors.test.ts) can catch a table that drifts from it.
//
// Each vector is (state, exception, trigger, facts) -> outcome, where outcome is either
// { status, exception, events, reason } or "refused" (the table must have no row: the caller
// answers 409 / 403 / ignores). Amounts are koinu as decimal strings; `total` is 2 DOGE.
// `gap` marks a vector where the code disagrees with the contract today: the test expects it to
// fail (it.fails), so fixing the code turns it red until the marker is removed.
//
// The cases live in scripts/payment-state-vectors/, one file per part of the contract
// (relay.mjs, amounts.mjs, chain.mjs, decisions.mjs; vector.mjs writes one). This file joins them
// in that order and writes the JSON.
//
// Run: node scripts/payment-state-vectors.mjs   (rewrites the JSON; commit both)
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { relayVectors } from './payment-state-vectors/relay.mjs';
import { amountVectors } from './payment-state-vectors/amounts.mjs';
import { chainVectors } from './payment-state-vectors/chain.mjs';
import { decisionVectors } from './payment-state-vectors/decisions.mjs';

const vectors = [...relayVectors, ...amountVectors, ...chainVectors, ...decisionVectors];

const out = {
  description:
    'Payment state machine vectors: (state, exception, trigger, facts) -> outcome or "refused". Written by hand from the contract; see scripts/payment-state-vectors.mjs.',
  units: 'amounts in koinu (decimal strings); total = 2 DOGE',
  vectors,
};
const target = fileURLToPath(new URL('../tests/fixtures/payment-state-vectors.json', import.meta.url));
writeFileSync(target, JSON.stringify(out, null, 1) + '\n');
console.log(`wrote ${vectors.length} vectors to ${target}`);
