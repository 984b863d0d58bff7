/// <reference types="vitest/config" />
import react from '@vitejs/plugin-react';
import path from 'node:path';
import { defineConfig, type Plugin } from 'vite';

const api = { '/api': 'http://127.0.0.1:3000' };

/**
 * Writes dist/.vite/module-chunks.json: each source module (relative to this folder) → the chunk
 * that holds it. Vite's manifest names a chunk by its entry module only, and a page's module
 * merged into a flow's chunk (codeSplitting below) has none: scripts/prerender.mjs finds it here.
 */
function moduleChunks(): Plugin {
  return {
    name: 'marpe-module-chunks',
    apply: 'build',
    generateBundle(_options, bundle) {
      const map: Record<string, string> = {};
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk') continue;
        for (const id of output.moduleIds) {
          const relative = path.relative(import.meta.dirname, id);
          if (!relative.startsWith('..') && !relative.startsWith('\0'))
            map[relative] = output.fileName;
        }
      }
      this.emitFile({
        type: 'asset',
        fileName: '.vite/module-chunks.json',
        source: JSON.stringify(map),
      });
    },
  };
}

export default defineConfig(({ command, isSsrBuild }) => ({
  plugins: [react(), moduleChunks()],
  server: { proxy: api },
  preview: { proxy: api },
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    // SVGs stay files: a strict img-src CSP may refuse data: URLs, and hashed files cache forever.
    assetsInlineLimit: (file) => (file.endsWith('.svg') ? false : undefined),
    // scripts/prerender.mjs links each prerendered page's chunks from it, then deletes it.
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Everything main.tsx imports statically goes into the entry chunk, rather than into
          // the many shared chunks Rolldown would make that every page loads at start-up anyway.
          // `$initial` is only what the entry imports statically: no page's own code joins it.
          //
          // The pages' own code goes in one file per flow rather than one per page and shared
          // piece: a page painted from HTML fetches its app while the patient reads, and on a
          // slow mobile connection each file costs a round trip more than its bytes do (the
          // figures: ADR 033).
          groups: [
            { name: 'index', tags: ['$initial'], priority: 30 },
            {
              name: 'clinic-flow',
              // With what of lib/ only these pages use (the session, the clinic's pieces, the
              // confirm dialog) and the app's composition of these pages (ADR 045).
              test: /\/src\/(features\/(clinic|patient-auth|booking|appointments|waitlist)\/|lib\/(patient-session|clinic)\/|lib\/confirm-dialog\.tsx$|app\/clinic-flow-routes\.tsx$)/,
              priority: 20,
              includeDependenciesRecursively: false,
            },
            {
              name: 'form-flow',
              test: /\/src\/features\/(intake-form|status-pages)\/|\/node_modules\/signature_pad\//,
              priority: 20,
              includeDependenciesRecursively: false,
            },
            {
              name: 'payment-flow',
              test: /\/src\/features\/payment\//,
              priority: 20,
              includeDependenciesRecursively: false,
            },
            {
              name: 'legal',
              test: /\/src\/features\/legal\//,
              priority: 20,
              includeDependenciesRecursively: false,
            },
            // What the pages share beyond the entry: MUI's dialogs, lists and fields, our lib.
            {
              name: 'pages-shared',
              test: /\/node_modules\/|\/src\/(lib|app)\/|\/packages\/shared\//,
              priority: 10,
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
    // That entry chunk is ~600 kB minified: past this limit, something new has joined it.
    chunkSizeWarningLimit: 650,
  },
  // The server renderer (src/prerender.tsx) renders in the mode the browser's build is in (Vite
  // builds for production unless NODE_ENV says otherwise), whatever NODE_ENV the API runs with (a
  // demo or a test server runs without one): React, MUI and emotion are compiled into it in that
  // mode, not loaded from node_modules in the server's (ADR 035). A development-mode render labels
  // every class name (`…-MuiButton-root`), so none matched the browser's: the app computed and
  // inserted every style rule a second time as it started.
  ...(command === 'build' && isSsrBuild
    ? {
        ssr: { noExternal: true },
        define: {
          'process.env.NODE_ENV': JSON.stringify(process.env.NODE_ENV || 'production'),
        },
      }
    : {}),
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
  },
}));
