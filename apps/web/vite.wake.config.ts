import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The waking script of pages painted from HTML (ADR 025), built on its own after the app: as a
// second entry of the app's build it would change how the app's code is split into chunks.
// One small file, its few imports inlined; scripts/prerender.mjs finds it in its manifest.
export default defineConfig({
  publicDir: false,
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    manifest: '.vite/wake-manifest.json',
    rolldownOptions: {
      input: fileURLToPath(new URL('src/wake-on-demand.ts', import.meta.url)),
    },
  },
});
