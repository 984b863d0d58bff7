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
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
  },
});
