/// <reference types="vitest/config" />
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The desk (ADR 037): a plain client-rendered app served by the API under /desk, with chunks of
 * its own; nothing of it reaches the patient pages' bundles.
 */
export default defineConfig({
  base: '/desk/',
  plugins: [react()],
  server: { port: 5174, proxy: { '/api': 'http://127.0.0.1:3000' } },
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    // SVGs stay files: a strict img-src CSP may refuse data: URLs, and hashed files cache forever.
    assetsInlineLimit: (file) => (file.endsWith('.svg') ? false : undefined),
    chunkSizeWarningLimit: 700,
  },
  test: {
    name: 'desk',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
  },
});
