// Over 400 lines: one bench: its taps share the server, the browser and the throttled phone.
// The patient's first tap on a phone over a slow mobile connection (ADR 033, ADR 034): Lighthouse's
// mobile conditions applied for real with DevTools throttling (562.5 ms request latency, 1,474.56
// kbit/s down, 607.5 kbit/s up, CPU 4× slower), 390×844 with touch. The patient opens the page,
// reads for 3 s, then taps; the figure is the time from the finger's touch until its answer is
// painted, both read in the page: the touch's own event time, and the frame after the answer
// entered the document. Nothing of Playwright's runs in the page meanwhile (its locators poll in
// the page's main thread, which the CPU throttling slows 4× as much as the app, and they would be
// timed with it): the tap is a raw touch at the element's centre, and the page reports its answer
// itself. Cold: the page as opened (the app not yet running); warm: the same tap once the app runs.
// A tap may be a keystroke (the code's last digit), timed from the key's own event time; a dialog
// or menu counts as shown once it is fully opaque (its fade-in is part of the wait). Median of 3.
// `npm run bench` prints it beside Lighthouse; `npm run bench:first-tap -w
// @marpe/bench` alone (after `npm run build`; FIRST_TAPS=code,language for only those taps).
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { withIdCheckDigit } from '../packages/shared/src/identity.ts';
import { demoLinkPath } from '../e2e/support/demo-links.ts';
import { chromiumArgs, chromiumPath } from '../e2e/support/chromium.mjs';
import { startMarpe } from './servers.mjs';

const readingMs = 3_000;
// FIRST_TAP_RUNS=1: one run of each (with FIRST_TAP_TRACE, to look at a trace rather than time).
const runs = Number(process.env.FIRST_TAP_RUNS ?? 3);

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

const clinicId = 1;

/** A POST as the app makes it: the anti-forgery cookie comes with the first refusal. */
async function post(baseUrl, path, body, token) {
  const send = (extra = {}) =>
    fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...extra,
      },
      body: JSON.stringify(body),
    });
  const response = await send();
  if (response.status !== 403) return response;
  const [, name = '', value = ''] =
    /((?:__Host-)?XSRF-TOKEN)=([^;]+)/.exec(response.headers.get('set-cookie') ?? '') ?? [];
  return send({ cookie: `${name}=${value}`, 'x-xsrf-token': decodeURIComponent(value) });
}

/** The newest code the demo SMS provider sent to `phone` after `before` messages. */
async function codeSentTo(baseUrl, phone, before) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const messages = (await (await fetch(`${baseUrl}/api/dev/messages`)).json()).filter(
      (message) => message.to === phone,
    );
    const code = messages.length > before ? /#(\d{6})\s*$/.exec(messages[0].body)?.[1] : null;
    if (code) return code;
    if (Date.now() > deadline) throw new Error(`no code sent to ${phone}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function messageCount(baseUrl, phone) {
  const messages = await (await fetch(`${baseUrl}/api/dev/messages`)).json();
  return messages.filter((message) => message.to === phone).length;
}

/**
 * A new patient signed up through the API with one appointment a week ahead (cancellable): the
 * session token the appointments page starts from. One per table: the server sends 5 codes per
 * phone an hour, and the tap only opens the dialog.
 */
async function patientWithAppointment(baseUrl) {
  const patient = newPatient();
  const signUp = await post(baseUrl, '/api/patient-auth/sign-up', {
    clinicId,
    idNumber: patient.idNumber,
    phone: patient.phone,
    firstName: 'מדידה',
    lastName: 'הקשה',
  });
  if (signUp.status !== 200) throw new Error(`sign-up answered ${signUp.status}`);
  const { twoFactorToken } = await signUp.json();
  const code = await codeSentTo(baseUrl, patient.phone, 0);
  const verified = await post(baseUrl, '/api/patient-auth/two-factor', {
    idNumber: patient.idNumber,
    code,
    twoFactorToken,
  });
  if (verified.status !== 200) throw new Error(`two-factor answered ${verified.status}`);
  const { token } = await verified.json();

  const data = await (await fetch(`${baseUrl}/api/clinic/${clinicId}`)).json();
  const caregiver = data.caregivers.find((c) => c.first_available_slot);
  const type = data.appointmentTypes
    .filter((t) => caregiver.default_appointment_types.includes(t.id))
    .sort((a, b) => a.duration_minutes - b.duration_minutes)[0];
  const query = `clinicId=${clinicId}&caregiverId=${caregiver.id}&duration=${type.duration_minutes}`;
  const dates = await (await fetch(`${baseUrl}/api/appointment/available-dates?${query}`)).json();
  const weekAhead = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
  const date = dates.find((d) => d >= weekAhead) ?? dates.at(-1);
  const range = `&startDate=${encodeURIComponent(`${date} 00:00`)}&endDate=${encodeURIComponent(`${date} 23:59`)}`;
  const [slot] = await (
    await fetch(`${baseUrl}/api/appointment/available-slots?${query}${range}`)
  ).json();
  const booked = await post(
    baseUrl,
    '/api/appointment',
    {
      clinicId,
      caregiverId: caregiver.id,
      appointmentTypeId: type.id,
      startDate: slot.start,
      endDate: slot.end,
    },
    token,
  );
  if (booked.status !== 201) throw new Error(`booking answered ${booked.status}`);
  return { token };
}

/**
 * The taps timed: where the patient starts, what they do before the tap (typing,
 * which a real patient does too and which wakes nothing but the fields), the tap (a touch, or
 * `key`: a keystroke into the focused field), and its answer: the first element matching
 * `selector` whose text holds `text` (`visible`: and fully opaque). `setup` runs once per table
 * against the server; `session` puts its token in the page's storage before the page loads.
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
  {
    // A new patient from the clinic page's book button: ID and phone, their names, then the code
    // as it arrives; the figure is from the 6th digit's keystroke to the booking page's steps.
    name: "code's 6th digit → booking steps",
    path: () => `/login/${clinicId}?next=booking`,
    before: async (page, { baseUrl }) => {
      const patient = newPatient();
      await page.getByRole('textbox', { name: 'מספר תעודת זהות' }).fill(patient.idNumber);
      await page.getByRole('textbox', { name: 'טלפון נייד' }).fill(patient.phone);
      await page.getByRole('button', { name: 'המשך' }).click();
      await page.getByRole('textbox', { name: 'שם פרטי' }).fill('מדידה');
      await page.getByRole('textbox', { name: 'שם משפחה' }).fill('הקשה');
      const before = await messageCount(baseUrl, patient.phone);
      await page.getByRole('button', { name: 'המשך' }).click();
      const code = await codeSentTo(baseUrl, patient.phone, before);
      const field = page.getByRole('textbox', { name: 'קוד אימות' });
      await field.fill(code.slice(0, 5));
      return code.slice(5);
    },
    key: true,
    answer: { selector: 'h2', text: 'בחירת מטפל' },
  },
  {
    name: 'appointments → "ביטול תור" → cancel dialog',
    setup: patientWithAppointment,
    session: true,
    path: () => `/appointments/${clinicId}`,
    tap: (page) => page.getByRole('button', { name: 'ביטול תור', exact: true }),
    answer: { selector: '[role="dialog"]', text: 'לבטל את התור?', visible: true },
  },
  {
    name: 'clinic page → language button → menu',
    path: () => `/clinic/${clinicId}`,
    tap: (page) => page.getByRole('button', { name: 'שפה' }),
    answer: { selector: '[role="menu"]', text: 'English', visible: true },
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
function watchForAnswer({ selector, text, visible }) {
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
  document.addEventListener(
    'keydown',
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
  const found = () =>
    [...document.querySelectorAll(selector)].find((element) => element.textContent.includes(text));
  // Fully opaque: no ancestor still fading in.
  const opaque = (element) => {
    for (let node = element; node; node = node.parentElement) {
      if (Number(globalThis.getComputedStyle(node).opacity) < 1) return false;
    }
    return true;
  };
  const answered = () => {
    // The frame that paints it: its rAF runs before the paint, a task posted from there after.
    globalThis.requestAnimationFrame(() =>
      setTimeout(() => {
        globalThis.marpeAnsweredAt = performance.now();
        const ms = globalThis.marpeAnsweredAt - globalThis.marpeTouchAt;
        // Long tasks are reported a moment after they end.
        setTimeout(() => globalThis.marpeAnswered({ ms, longestTask }), 300);
      }),
    );
  };
  // A fade-in changes no node: checked once a frame until it ends.
  const whenOpaque = (element) => {
    if (opaque(element)) answered();
    else globalThis.requestAnimationFrame(() => whenOpaque(element));
  };
  globalThis.marpeArm = () => {
    if (found()) throw new Error(`the answer (${selector} "${text}") is there before the tap`);
    const observer = new globalThis.MutationObserver(() => {
      const element = found();
      if (!element) return;
      observer.disconnect();
      if (visible) whenOpaque(element);
      else answered();
    });
    observer.observe(document, { subtree: true, childList: true, characterData: true });
  };
}

/**
 * One tap: milliseconds from the touch to its answer painted, the bytes fetched meanwhile, and the
 * scripts fetched after the touch (code a tap should not wait for).
 */
async function measureTap(browser, baseUrl, tap, links, { warm, prepared }) {
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
  if (tap.session) {
    await context.addInitScript((token) => {
      globalThis.localStorage.setItem('token', token);
    }, prepared.token);
  }
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
  const scripts = [];
  cdp.on('Network.loadingFinished', (event) => {
    if (counting) bytes += event.encodedDataLength;
  });
  cdp.on('Network.requestWillBeSent', (event) => {
    if (counting && event.type === 'Script') scripts.push(new URL(event.request.url).pathname);
  });
  try {
    await page.goto(baseUrl + tap.path(links), { waitUntil: 'load' });
    if (warm) await wakeApp(page);
    await page.waitForTimeout(readingMs);
    const typed = await tap.before?.(page, { baseUrl });
    // FIRST_TAP_TRACE=<folder>: a Chromium trace of each cold tap, from just before it to the
    // answer, for DevTools' Performance panel (where a tap's time goes).
    const tracing = !warm && process.env.FIRST_TAP_TRACE;
    const trace = [];
    if (tracing) {
      cdp.on('Tracing.dataCollected', ({ value }) => trace.push(...value));
      await cdp.send('Tracing.start', {
        transferMode: 'ReportEvents',
        traceConfig: {
          includedCategories: [
            'devtools.timeline',
            'disabled-by-default-devtools.timeline',
            'disabled-by-default-devtools.timeline.frame',
            'v8.execute',
            'blink.user_timing',
            'loading',
            'disabled-by-default-v8.cpu_profiler',
          ],
        },
      });
    }
    if (tap.key) {
      await page.evaluate(() => globalThis.marpeArm());
      counting = true;
      // One keystroke into the focused field, as the phone's keyboard sends it.
      await cdp.send('Input.dispatchKeyEvent', { type: 'keyDown', text: typed, key: typed });
      await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', key: typed });
    } else {
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
    }
    const { ms, longestTask } = await Promise.race([
      answer,
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error(`${tap.name}: no answer in 30 s`)), 30_000),
      ),
    ]);
    // What the tap fetched: wait for the network to be quiet so late chunks are counted.
    await page.waitForLoadState('networkidle').catch(() => undefined);
    if (tracing) {
      const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
      await cdp.send('Tracing.end');
      await complete;
      const file = path.join(tracing, `${tap.name.replace(/[^\w]+/g, '-')}-${Date.now()}.json`);
      fs.mkdirSync(tracing, { recursive: true });
      fs.writeFileSync(file, JSON.stringify({ traceEvents: trace }));
    }
    return { ms, longestTask, kib: bytes / 1024, scripts };
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
    // FIRST_TAPS=code,language: only the taps whose names hold one of these words.
    const only = process.env.FIRST_TAPS?.split(',').filter(Boolean);
    for (const tap of taps.filter((t) => !only || only.some((word) => t.name.includes(word)))) {
      const prepared = await tap.setup?.(baseUrl);
      const cold = [];
      const warm = [];
      const fetched = [];
      const warmTask = [];
      const scripts = new Set();
      for (let i = 0; i < runs; i++) {
        // Fresh links each run: a form or payment link is the patient's, and its page may change.
        const links = {
          form: await demoLinkPath(baseUrl, 'formUrl'),
          payment: await demoLinkPath(baseUrl, 'paymentUrl'),
        };
        const c = await measureTap(browser, baseUrl, tap, links, { warm: false, prepared });
        cold.push(c.ms);
        fetched.push(c.kib);
        for (const script of c.scripts) scripts.add(script);
        const w = await measureTap(browser, baseUrl, tap, links, { warm: true, prepared });
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
        'scripts after cold tap': scripts.size,
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
