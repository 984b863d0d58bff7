import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromiumArgs, chromiumPath } from '../e2e/support/chromium.mjs';

const categories = ['performance', 'accessibility', 'best-practices', 'seo'];

function median(values) {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The figures of one Lighthouse report this table shows. */
function figures(lhr) {
  const score = (id) => Math.round((lhr.categories[id]?.score ?? NaN) * 100);
  const metric = (id) => lhr.audits[id]?.numericValue ?? NaN;
  return {
    perf: score('performance'),
    a11y: score('accessibility'),
    bp: score('best-practices'),
    seo: score('seo'),
    fcp: metric('first-contentful-paint'),
    lcp: metric('largest-contentful-paint'),
    tbt: metric('total-blocking-time'),
    cls: metric('cumulative-layout-shift'),
  };
}

/** Audits (of the four categories) that did not pass in a report: what keeps a score below 100. */
function failing(lhr) {
  const ids = new Set();
  for (const id of categories.slice(1)) {
    for (const ref of lhr.categories[id]?.auditRefs ?? []) {
      const audit = lhr.audits[ref.id];
      if (ref.weight > 0 && audit && audit.score !== null && audit.score < 1) ids.add(ref.id);
    }
  }
  return [...ids];
}

/**
 * Lighthouse 12.8 with its default (mobile) preset: a Moto G Power sized screen, simulated slow 4G
 * and 4× CPU slowdown, the same for every page. Each page is measured `runs` times in one Chromium
 * (storage cleared before each run) and every figure is the median of its runs, taken on its own.
 * `urls` maps a row name to the address measured.
 */
export async function lighthouseTable(urls, { runs = 3 } = {}) {
  const chrome = await chromeLauncher.launch({
    chromePath: chromiumPath,
    // chrome-launcher adds its own flags (no first run, no extensions, …); these are the e2e ones.
    chromeFlags: chromiumArgs,
  });
  const rows = {};
  try {
    for (const [name, url] of Object.entries(urls)) {
      const reports = [];
      for (let i = 0; i < runs; i++) {
        const result = await lighthouse(url, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: categories,
        });
        reports.push(result.lhr);
      }
      const all = reports.map(figures);
      const pick = (key) => median(all.map((f) => f[key]));
      rows[name] = {
        perf: pick('perf'),
        a11y: pick('a11y'),
        bp: pick('bp'),
        seo: pick('seo'),
        'FCP s': (pick('fcp') / 1000).toFixed(2),
        'LCP s': (pick('lcp') / 1000).toFixed(2),
        'TBT ms': Math.round(pick('tbt')),
        CLS: pick('cls').toFixed(3),
        // Audits failing in any run, so a lost point has a name.
        failing: [...new Set(reports.flatMap(failing))].join(' ') || '-',
      };
    }
  } finally {
    chrome.kill();
  }
  return rows;
}
