// The desk (ADR 037): its JavaScript, and the diary's week view of a busy clinic — 10 caregivers
// side by side and 300 appointments in the week — from the navigation to every appointment painted,
// under Lighthouse's desktop conditions (40 ms latency, 10 Mbit/s, CPU not slowed), cold (a new
// browser profile) and warm (the same page loaded again, its code cached). Median of 3. The clinic
// is made as an operator and an owner would: `create-clinic --owner-phone` and `create-key` before
// the server starts, the caregivers and bookings through the clinic API, the owner's session from
// the invitation's code. `npm run bench` prints it; `npm run bench:desk -w @marpe/bench` alone.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium } from 'playwright-core';
import { withIdCheckDigit } from '../packages/shared/src/identity.ts';
import { chromiumArgs, chromiumPath } from '../e2e/support/chromium.mjs';
import { repoRoot, startMarpe } from './servers.mjs';

const runs = 3;
const caregiverCount = 10;
const perCaregiverPerDay = 6;
const days = 5;
const desktop = {
  latency: 40,
  downloadThroughput: (10_240 * 1024) / 8,
  uploadThroughput: (10_240 * 1024) / 8,
};
const deskDist = path.join(repoRoot, 'apps/desk/dist');

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** The CLI, as an operator runs it, on the bench's data directory (before the server opens it). */
function marpe(args, dataDir) {
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(repoRoot, 'apps/api/src/cli/marpe.ts'), ...args],
    { cwd: repoRoot, env: { ...process.env, DATA_DIR: dataDir }, encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(`marpe ${args[0]}: ${result.stderr}`);
  return result.stdout.trim().split('\n');
}

/** A date (YYYY-MM-DD) `days` after today in Israel, and the zone's offset then (+02:00, +03:00). */
function israelDate(daysAhead) {
  const at = new Date(Date.now() + daysAhead * 86_400_000);
  const date = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Jerusalem' }).format(at);
  const offset = new Intl.DateTimeFormat('en-US', {
    timeZone: 'Asia/Jerusalem',
    timeZoneName: 'longOffset',
  })
    .formatToParts(at)
    .find((part) => part.type === 'timeZoneName')
    ?.value.replace('GMT', '');
  return { date, offset: offset || '+02:00' };
}

/** The next Sunday at least a week away: a whole working week ahead, Sunday to Thursday. */
function benchWeek() {
  for (let d = 7; d < 14; d++) {
    const { date } = israelDate(d);
    if (new Date(`${date}T12:00:00Z`).getUTCDay() === 0) {
      return Array.from({ length: days }, (_, i) => israelDate(d + i));
    }
  }
  throw new Error('no Sunday');
}

async function api(url, pathname, { method = 'GET', body, headers = {} } = {}) {
  const response = await fetch(url + pathname, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${pathname}: ${response.status} ${text}`);
  return { json: text ? JSON.parse(text) : undefined, headers: response.headers };
}

/** 10 caregivers working Sunday to Thursday, and 300 clinic bookings of 300 patients that week. */
async function fillClinic(url, key, week) {
  const auth = { authorization: `Bearer ${key}` };
  const type = (
    await api(url, '/api/integration/appointment-types', {
      method: 'POST',
      headers: auth,
      body: { name: 'בדיקה', duration_minutes: 30 },
    })
  ).json;
  const hours = [{ start: '08:00', end: '18:00' }];
  const caregivers = [];
  for (let i = 1; i <= caregiverCount; i++) {
    caregivers.push(
      (
        await api(url, '/api/integration/caregivers', {
          method: 'POST',
          headers: auth,
          body: {
            name: `ד"ר מטפל ${i}`,
            license_number: `1-${10000 + i}`,
            appointment_type_ids: [type.id],
            marpe_rules: {
              weekly_hours: {
                sunday: hours,
                monday: hours,
                tuesday: hours,
                wednesday: hours,
                thursday: hours,
              },
            },
          },
        })
      ).json,
    );
  }
  const times = ['08:00', '09:30', '11:00', '12:30', '14:00', '15:30'].slice(0, perCaregiverPerDay);
  let serial = 0;
  for (const { date, offset } of week) {
    for (const caregiver of caregivers) {
      for (const time of times) {
        serial += 1;
        const digits = String(serial).padStart(7, '0');
        await api(url, '/api/integration/appointments', {
          method: 'POST',
          headers: auth,
          body: {
            caregiver_id: caregiver.id,
            appointment_type_id: type.id,
            start_date: `${date}T${time}:00${offset}`,
            outside_working_hours: true,
            patient: {
              id_number: withIdCheckDigit(`3${digits}`),
              phone: `054${digits}`,
              first_name: 'מטופל',
              last_name: `מספר ${serial}`,
            },
          },
        });
      }
    }
  }
  return serial;
}

/** The owner accepts the invitation as the desk does; answers the session's cookies. */
async function ownerCookies(url, invitationUrl, ownerPhone) {
  const token = invitationUrl.split('/').pop();
  const health = await fetch(`${url}/api/health`);
  const xsrf = /XSRF-TOKEN=([^;]+)/.exec(health.headers.get('set-cookie') ?? '')?.[1];
  const headers = { cookie: `XSRF-TOKEN=${xsrf}`, 'x-xsrf-token': xsrf };
  const { twoFactorToken } = (
    await api(url, `/api/staff-auth/invitations/${token}/code`, { method: 'POST', headers })
  ).json;
  const messages = (await api(url, '/api/dev/messages')).json;
  const code = /#(\d{6})\s*$/.exec(messages.find((m) => m.to === ownerPhone)?.body ?? '')?.[1];
  const { headers: answer } = await api(url, '/api/staff-auth/two-factor', {
    method: 'POST',
    headers,
    body: { twoFactorToken, code },
  });
  const session = /marpe_desk=([^;]+)/.exec(answer.get('set-cookie') ?? '')?.[1];
  if (!session) throw new Error('no desk session');
  return [
    { name: 'marpe_desk', value: session, url },
    { name: 'XSRF-TOKEN', value: xsrf, url },
  ];
}

/** The desk's JavaScript: every script it ships, and what the week view fetched, in brotli KiB. */
function brotliKiB(files) {
  let total = 0;
  for (const file of files) {
    total += zlib.brotliCompressSync(fs.readFileSync(file), {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 },
    }).length;
  }
  return (total / 1024).toFixed(1);
}

async function timeWeekView(browser, url, cookies, monday, expected) {
  const context = await browser.newContext({
    viewport: { width: 1366, height: 768 },
    locale: 'he-IL',
  });
  await context.addCookies(cookies);
  // These callbacks run in the page: `globalThis` is its window.
  await context.addInitScript((count) => {
    const { document, MutationObserver, performance, requestAnimationFrame } = globalThis;
    const mark = () => {
      if (document.querySelectorAll('.diary-appointment').length < count) return false;
      requestAnimationFrame(() =>
        setTimeout(() => {
          globalThis.deskPainted = performance.now();
        }, 0),
      );
      return true;
    };
    new MutationObserver((_records, observer) => {
      if (mark()) observer.disconnect();
    }).observe(document, { childList: true, subtree: true });
  }, expected);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, ...desktop });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  const scripts = new Set();
  page.on('response', (response) => {
    const pathname = new URL(response.url()).pathname;
    if (pathname.startsWith('/desk/assets/') && pathname.endsWith('.js')) scripts.add(pathname);
  });
  const address = `${url}/desk/diary?view=week&date=${monday}`;
  const times = [];
  for (const pass of ['cold', 'warm']) {
    await page.evaluate(() => delete globalThis.deskPainted).catch(() => undefined);
    await page.goto(address);
    await page.waitForFunction(() => globalThis.deskPainted !== undefined, null, {
      timeout: 60_000,
    });
    times.push({ pass, ms: await page.evaluate(() => globalThis.deskPainted) });
  }
  await context.close();
  return {
    cold: times[0].ms,
    warm: times[1].ms,
    scripts: [...scripts].map((p) => path.join(deskDist, p.replace('/desk/', ''))),
  };
}

/**
 * A server with the busy clinic: 10 caregivers and 300 appointments in next week. Answers the
 * server, the owner's session cookies, the week's days and the number of appointments.
 */
export async function busyClinic() {
  const ownerPhone = '0527100001';
  let invitationUrl;
  let key;
  const server = await startMarpe({
    prepare: ({ dataDir }) => {
      const created = marpe(
        [
          'create-clinic',
          '--name',
          'מרפאת הספסל',
          '--phone',
          '03-5550000',
          '--street',
          'הרצל',
          '--home-number',
          '1',
          '--city',
          'תל אביב-יפו',
          '--owner-phone',
          ownerPhone,
          '--owner-name',
          'בעלת המרפאה',
        ],
        dataDir,
      );
      invitationUrl = created[1];
      key = marpe(['create-key', '--clinic', created[0]], dataDir)[0];
    },
  });
  try {
    const week = benchWeek();
    const appointments = await fillClinic(server.url, key, week);
    const cookies = await ownerCookies(server.url, invitationUrl, ownerPhone);
    // The bookings' reminders and messages are worked by the server's outbox for a few seconds
    // after: the measured loads must not share the server with that.
    await new Promise((resolve) => setTimeout(resolve, 8_000));
    return { server, cookies, week, appointments };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

export async function deskTable() {
  const { server, cookies, week, appointments } = await busyClinic();
  try {
    const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
    const results = [];
    try {
      for (let i = 0; i < runs; i++) {
        results.push(await timeWeekView(browser, server.url, cookies, week[0].date, appointments));
      }
    } finally {
      await browser.close();
    }
    const allScripts = fs
      .readdirSync(path.join(deskDist, 'assets'))
      .filter((f) => f.endsWith('.js'))
      .map((f) => path.join(deskDist, 'assets', f));
    return [
      {
        figure: `week view, ${caregiverCount} caregivers, ${appointments} appointments: cold (ms)`,
        value: Math.round(median(results.map((r) => r.cold))),
        goal: '≤ 1,000',
      },
      {
        figure: 'the same, warm (ms)',
        value: Math.round(median(results.map((r) => r.warm))),
        goal: '',
      },
      {
        figure: 'JS the week view fetched (KiB brotli)',
        value: brotliKiB(results[0].scripts),
        goal: '',
      },
      { figure: 'JS of the whole desk (KiB brotli)', value: brotliKiB(allScripts), goal: '' },
    ];
  } finally {
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.table(await deskTable());
}
