// Runs `prisma generate` without the native schema engine, which cannot be downloaded on
// machines without general internet access. Generation itself does not need the engine;
// the CLI only insists that a binary path exists, so we point it at a stub.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'counter-prisma-'));
const stub = join(dir, 'schema-engine');
writeFileSync(stub, '#!/bin/sh\necho "schema engine unavailable: migrations are applied by lib/db/migrate" >&2\nexit 1\n');
chmodSync(stub, 0o755);

const env = {
  ...process.env,
  PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? stub,
  CHECKPOINT_DISABLE: '1',
  PRISMA_HIDE_UPDATE_MESSAGE: '1',
};
const r = spawnSync('npx', ['--no-install', 'prisma', 'generate'], { stdio: 'inherit', env });
process.exit(r.status ?? 1);
