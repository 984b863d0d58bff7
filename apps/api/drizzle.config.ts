import { defineConfig } from 'drizzle-kit';

// Only `generate` is used: migrations are applied by the app at start-up (see src/platform/db/migrate.ts),
// because drizzle-kit's own migrate cannot load PGlite's btree_gist extension.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/platform/db/schema.ts',
  out: './drizzle',
  breakpoints: true,
});
