import { defineConfig } from 'prisma/config';

// Prisma 7 reads its datasource URL from here. The app itself never relies on this URL:
// lib/db builds a driver adapter (PGlite or pg) from DATABASE_URL / DATA_DIR at runtime.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://localhost:5432/counter' },
});
