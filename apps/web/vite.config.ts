/// <reference types="vitest/config" />
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const api = { '/api': 'http://127.0.0.1:3000' };

export default defineConfig({
  plugins: [react()],
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
          // Everything main.tsx imports statically goes into the entry chunk. Left to itself,
          // Rolldown puts the modules that lazy pages import too (i18next, MUI's styling, emotion,
          // Box, Button, react-query…) into 13 shared chunks that every page loads at start-up
          // anyway: 15 requests instead of 2 (the other is Rolldown's runtime), and 10.5 KiB
          // brotli more (the imports and exports between them, each file compressed apart).
          // `$initial` is only what the entry imports statically: no page's own code joins it.
          groups: [{ name: 'index', tags: ['$initial'] }],
        },
      },
    },
    // That entry chunk is ~600 kB minified: past this limit, something new has joined it.
    chunkSizeWarningLimit: 650,
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
  },
});
