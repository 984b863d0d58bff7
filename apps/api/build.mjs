// Bundles the API into dist/main.js. npm packages stay external (installed next to it), except
// the workspace package @marpe/shared, which is TypeScript source and must be compiled in.
// Nothing is copied: migrations are read from ../drizzle relative to the bundle at run time.
import { rm } from 'node:fs/promises';
import { build } from 'esbuild';

const outdir = new URL('./dist/', import.meta.url);
await rm(outdir, { recursive: true, force: true });

/** @type {import('esbuild').Plugin} */
const externalPackages = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path === '@marpe/shared' || args.path.startsWith('@marpe/shared/')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

await build({
  entryPoints: [new URL('./src/main.ts', import.meta.url).pathname],
  outfile: new URL('./main.js', outdir).pathname,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  legalComments: 'none',
  plugins: [externalPackages],
  logLevel: 'info',
});
