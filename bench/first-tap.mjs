// The patient's first tap on a phone over a slow mobile connection (issue 26): Lighthouse's mobile
// conditions applied for real with DevTools throttling (562.5 ms request latency, 1,474.56 kbit/s
// down, 607.5 kbit/s up, CPU 4× slower), 390×844 with touch. The patient opens the page, reads for
// 3 s, then taps; the figure is the time from the finger's touch until its answer is painted,
// both read in the page: the touch's own event time, and the frame after the answer entered the
// document. Nothing of Playwright's runs in the page meanwhile (its locators poll in the page's
// main thread, which the CPU throttling slows 4× as much as the app, and they would be timed with
// it): the tap is a raw touch at the element's centre, and the page reports its answer itself.
// Cold: the page as opened (the app not yet running); warm: the same tap once the app runs.
// Median of 3. `npm run bench` prints it beside Lighthouse; `npm run bench:first-tap -w
// @marpe/bench` alone (after `npm run build`).
import { chromium } from 'playwright-core';
import { withIdCheckDigit } from '../packages/shared/src/identity.ts';
import { demoLinkPath } from '../e2e/support/demo-links.ts';
import { chromiumArgs, chromiumPath } from '../e2e/support/chromium.mjs';
import { startMarpe } from './servers.mjs';

const readingMs = 3_000;
const runs = 3;

const slowPhone = {
  latency: 562.5,
  downloadThroughput: (1_474.56 * 1024) / 8,
  uploadThroughput: (607.5 * 1024) / 8,
  cpuRate: 4,
};

let patientSerial = 0;
/** A patient the server has never seen: the login answers with the name step. */
function newPatient() {
  patientSerial += 1;
  const serial = String((Date.now() + patientSerial * 7_919) % 10_000_000).padStart(7, '0');
  return { idNumber: withIdCheckDigit(`7${serial}`), phone: `052${serial}` };
}

/**
 * The four taps of issue 26: where the patient starts, what they do before the tap (typing, which
 * a real patient does too and which wakes nothing but the fields), the tap, and its answer: the
 * first element matching `selector` whose text holds `text`.
 */
const taps = [
  {
    name: 'clinic page → "קביעת תור" → login form',
    path: () => '/clinic/1',
    tap: (page) => page.getByRole('link', { name: 'קביעת תור' }),
    answer: { selector: 'label', text: 'מספר תעודת זהות' },
  },
  {
    name: 'login → new ID + phone + "המשך" → name step',
    path: () => '/login/1',
    before: async (page) => {
      const patient = newPatient();
      await page.getByRole('textbox', { name: 'מספר תעודת זהות' }).fill(patient.idNumber);
      await page.getByRole('textbox', { name: 'טלפון נייד' }).fill(patient.phone);
    },
    tap: (page) => page.getByRole('button', { name: 'המשך' }),
    answer: { selector: 'label', text: 'שם פרטי' },
  },
  {
    name: 'form link → "המשך" with empty fields → the errors',
    path: (links) => links.form,
    tap: (page) => page.getByRole('button', { name: 'המשך' }),
    answer: { selector: '[role="alert"]', text: 'תעודת זהות' },
  },
  {
    name: 'payment link → "המשך לתשלום" → card frame',
    path: (links) => links.payment,
    tap: (page) => page.getByRole('button', { name: 'המשך לתשלום' }),
    answer: { selector: 'iframe[title="טופס תשלום מאובטח"]', text: '' },
  },
];

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/**
 * Wakes the app without acting on anything (a touch on the page's background), and waits until
 * it runs the page. The callbacks run in the page: `globalThis` is its window.
 */
async function wakeApp(page) {
  await page.evaluate(
    () =>
      new Promise((resolve) => {
        const { document } = globalThis;
        if (globalThis.marpeReady) resolve(true);
        else document.addEventListener('marpe:app-ready', () => resolve(true), { once: true });
        document.body.dispatchEvent(new globalThis.PointerEvent('pointerdown', { bubbles: true }));
      }),
  );
}

/**
 * Runs in the page before its scripts: notes the time of each real touch, and once armed, reports
 * (through `marpeAnswered`) the paint of the first frame after an element answering the tap
 * entered the document, and the longest task between the touch and then (a tap during it would
 * wait for it). A mutation observer and a CSS selector: cheap beside the app's own work.
 */
function watchForAnswer({ selector, text }) {
  const { document } = globalThis;
  document.addEventListener('marpe:app-ready', () => (globalThis.marpeReady = true), {
    once: true,
  });
  document.addEventListener(
    'pointerdown',
    (event) => {
      if (event.isTrusted) globalThis.marpeTouchAt = event.timeStamp;
    },
    true,
  );
  let longestTask = 0;
  new globalThis.PerformanceObserver((list) => {
    for (const task of list.getEntries()) {
      const answeredAt = globalThis.marpeAnsweredAt ?? Infinity;
      if (task.startTime >= globalThis.marpeTouchAt - 1 && task.startTime < answeredAt) {
        longestTask = Math.max(longestTask, task.duration);
      }
    }
  }).observe({ type: 'longtask' });
  const present = () =>
    [...document.querySelectorAll(selector)].some((element) => element.textContent.includes(text));
  globalThis.marpeArm = () => {
    if (present()) throw new Error(`the answer (${selector} "${text}") is there before the tap`);
    const observer = new globalThis.MutationObserver(() => {
      if (!present()) return;
      observer.disconnect();
      // The frame that paints it: its rAF runs before the paint, a task posted from there after.
      globalThis.requestAnimationFrame(() =>
        setTimeout(() => {
          globalThis.marpeAnsweredAt = performance.now();
          const ms = globalThis.marpeAnsweredAt - globalThis.marpeTouchAt;
          // Long tasks are reported a moment after they end.
          setTimeout(() => globalThis.marpeAnswered({ ms, longestTask }), 300);
        }),
      );
    });
    observer.observe(document, { subtree: true, childList: true, characterData: true });
  };
}

/** One tap: milliseconds from the touch to its answer painted, and the bytes fetched meanwhile. */
async function measureTap(browser, baseUrl, tap, links, { warm }) {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 3,
    isMobile: true,
    hasTouch: true,
    locale: 'he-IL',
  });
  let answered;
  const answer = new Promise((resolve) => (answered = resolve));
  await context.exposeFunction('marpeAnswered', (figures) => answered(figures));
  await context.addInitScript(watchForAnswer, tap.answer);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: false });
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: slowPhone.latency,
    downloadThroughput: slowPhone.downloadThroughput,
    uploadThroughput: slowPhone.uploadThroughput,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: slowPhone.cpuRate });
  let bytes = 0;
  let counting = false;
  cdp.on('Network.loadingFinished', (event) => {
    if (counting) bytes += event.encodedDataLength;
  });
  try {
    await page.goto(baseUrl + tap.path(links), { waitUntil: 'load' });
    if (warm) await wakeApp(page);
    await page.waitForTimeout(readingMs);
    await tap.before?.(page);
    // The patient scrolls to it while reading: the touch must land on screen.
    const target = tap.tap(page);
    await target.scrollIntoViewIfNeeded();
    const box = await target.boundingBox();
    if (!box) throw new Error(`${tap.name}: nothing to tap`);
    const point = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    await page.evaluate(() => globalThis.marpeArm());
    counting = true;
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point] });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    const { ms, longestTask } = await Promise.race([
      answer,
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error(`${tap.name}: no answer in 30 s`)), 30_000),
      ),
    ]);
    // What the tap fetched: wait for the network to be quiet so late chunks are counted.
    await page.waitForLoadState('networkidle').catch(() => undefined);
    return { ms, longestTask, kib: bytes / 1024 };
  } finally {
    await context.close();
  }
}

/** The table: each tap cold and warm, median of `runs`, and the KiB fetched after the cold tap. */
export async function firstTapTable({ baseUrl: given } = {}) {
  const marpe = given ? null : await startMarpe();
  const baseUrl = given ?? marpe.url;
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  const rows = {};
  try {
    for (const tap of taps) {
      const cold = [];
      const warm = [];
      const fetched = [];
      const warmTask = [];
      for (let i = 0; i < runs; i++) {
        // Fresh links each run: a form or payment link is the patient's, and its page may change.
        const links = {
          form: await demoLinkPath(baseUrl, 'formUrl'),
          payment: await demoLinkPath(baseUrl, 'paymentUrl'),
        };
        const c = await measureTap(browser, baseUrl, tap, links, { warm: false });
        cold.push(c.ms);
        fetched.push(c.kib);
        const w = await measureTap(browser, baseUrl, tap, links, { warm: true });
        warm.push(w.ms);
        warmTask.push(w.longestTask);
      }
      const coldMs = median(cold);
      const warmMs = median(warm);
      rows[tap.name] = {
        'cold ms': Math.round(coldMs),
        'warm ms': Math.round(warmMs),
        'cold ÷ warm': (coldMs / warmMs).toFixed(2),
        'KiB after cold tap': Math.round(median(fetched)),
        'warm: longest task ms': Math.round(median(warmTask)),
      };
    }
  } finally {
    await browser.close();
    await marpe?.stop();
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(
    '\nFirst tap on a slow phone (DevTools throttling: 562.5 ms latency, 1.47 Mbit/s down, CPU 4×; read 3 s, tap; from the touch to its answer painted, timed in the page; median of 3):',
  );
  console.table(await firstTapTable({ baseUrl: process.env.BENCH_BASE_URL }));
}
