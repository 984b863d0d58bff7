import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium } from 'playwright-core';
import { chromiumArgs, chromiumPath } from '../e2e/support/chromium.mjs';
import { repoRoot } from './servers.mjs';

const distDir = path.join(repoRoot, 'apps/web/dist');

function sizes(file) {
  const raw = fs.readFileSync(file);
  return {
    raw: raw.length,
    gzip: zlib.gzipSync(raw, { level: 9 }).length,
    brotli: zlib.brotliCompressSync(raw, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 },
    }).length,
  };
}

const kb = (n) => (n / 1024).toFixed(1);

/** The sizes of the scripts a page fetched, added up. */
function totalOf(scripts) {
  const total = { raw: 0, gzip: 0, brotli: 0 };
  for (const script of scripts) {
    const s = sizes(path.join(distDir, script));
    total.raw += s.raw;
    total.gzip += s.gzip;
    total.brotli += s.brotli;
  }
  return total;
}

/**
 * Loads each route of the server at `baseUrl` in a fresh Chromium context and adds up the
 * JavaScript it fetched, in KiB as built, brotli and gzip; then the patient's first act (a Tab,
 * which wakes a page painted from HTML, ADR 025) and the brotli KiB fetched by then.
 */
export async function bundleSizes(baseUrl, routes) {
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  const rows = [];
  try {
    for (const route of routes) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const scripts = new Set();
      page.on('response', (res) => {
        const url = new URL(res.url());
        if (url.origin === baseUrl && url.pathname.endsWith('.js')) scripts.add(url.pathname);
      });
      await page.goto(baseUrl + route, { waitUntil: 'networkidle' });
      const total = totalOf(scripts);
      const files = scripts.size;
      await page.keyboard.press('Tab');
      await page.waitForLoadState('networkidle');
      // networkidle may come before the waking script's import() has started: wait for quiet.
      await page.waitForTimeout(500);
      await page.waitForLoadState('networkidle');
      const acted = totalOf(scripts);
      await context.close();
      rows.push({
        route,
        files,
        'raw KiB': kb(total.raw),
        'gzip KiB': kb(total.gzip),
        'brotli KiB': kb(total.brotli),
        'at first act brotli KiB': kb(acted.brotli),
      });
    }
  } finally {
    await browser.close();
  }
  return rows;
}
