// Over 400 lines: its tests share one app and one database per engine (a file's set-up costs
// seconds an engine), so an API area stays one file.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type {
  AuditLogEntry,
  CreatedStaffInvitation,
  IntegrationClinic,
  StaffInvitationView,
  StaffList,
  StaffSession,
} from '@marpe/shared';
import type { App } from '../src/app.js';
import { staffMemberships } from '../src/platform/db/schema.js';
import type { Database } from '../src/platform/db/client.js';
import { insertClinics } from './fixtures.js';
import { buildTestApp, engines, useSentMessages, useTestDatabase, xsrfPair } from './helper.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const START = Date.parse('2027-03-24T10:00:00+02:00');

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** A browser of the desk: its cookies (desk session and XSRF) and the XSRF header. */
interface Browser {
  cookies: Record<string, string>;
  headers: Record<string, string>;
}

describe.each(engines)('the desk: staff sign-in and the clinic API (%s)', (engine) => {
  const database = useTestDatabase(engine);
  let app: App;
  let db: Database;
  let now = START;
  let clinicA: number;
  let clinicB: number;
  let keyA: string;
  const sent = useSentMessages(() => app);

  beforeAll(async () => {
    app = await buildTestApp(database.current.handle, {
      clock: () => now,
      outboxPollIntervalMs: HOUR,
    });
    await app.ready();
    db = database.current.handle.db;
  });
  afterAll(async () => {
    await app.close();
  });
  beforeEach(async () => {
    await database.current.reset();
    now = START;
    [clinicA, clinicB] = await insertClinics(db, ['מרפאת אלון', 'מרפאת ברוש']);
    keyA = (await app.apiKeys.create(clinicA, 'pms', 'test')).key;
  });

  async function newBrowser(): Promise<Browser> {
    return xsrfPair(app);
  }

  /** Keeps the cookies an answer sets, as a browser would (an empty value clears one). */
  function keepCookies(browser: Browser, setCookie: string | string[] | undefined) {
    for (const cookie of [setCookie ?? []].flat()) {
      const match = /^([^=]+)=([^;]*)/.exec(cookie);
      if (!match?.[1]) continue;
      const cleared = match[2] === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(cookie);
      browser.cookies = Object.fromEntries(
        Object.entries({ ...browser.cookies, [match[1]]: match[2] ?? '' }).filter(
          ([name]) => !(cleared && name === match[1]),
        ),
      );
    }
  }

  async function call(
    browser: Browser,
    method: Method,
    url: string,
    payload?: object,
    extra: Record<string, string> = {},
  ) {
    const response = await app.inject({
      method,
      url,
      payload,
      cookies: browser.cookies,
      headers: { ...browser.headers, ...extra },
    });
    keepCookies(browser, response.headers['set-cookie']);
    return response;
  }

  const lastCode = async (phone: string) => {
    const message = (await sent()).find((m) => m.to === phone);
    const code = /(\d{6})/.exec(message?.body ?? '')?.[1];
    if (!code) throw new Error(`no code sent to ${phone}`);
    return code;
  };

  async function invite(
    key: string,
    body: { name: string; phone: string; role: 'owner' | 'front_desk' },
  ): Promise<CreatedStaffInvitation> {
    const response = await app.inject({
      method: 'POST',
      url: '/api/integration/staff/invitations',
      headers: { authorization: `Bearer ${key}` },
      payload: { ...body, send_sms: false },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  }

  /** Accepts an invitation in a new browser: the browser holds a desk session afterwards. */
  async function join(invitation: CreatedStaffInvitation): Promise<Browser> {
    const token = invitation.url.split('/').pop() as string;
    const browser = await newBrowser();
    const codeResponse = await call(browser, 'POST', `/api/staff-auth/invitations/${token}/code`);
    expect(codeResponse.statusCode, codeResponse.body).toBe(200);
    const { twoFactorToken } = codeResponse.json<{ twoFactorToken: string }>();
    const verified = await call(browser, 'POST', '/api/staff-auth/two-factor', {
      twoFactorToken,
      code: await lastCode(invitation.phone),
    });
    expect(verified.statusCode, verified.body).toBe(200);
    now += 61_000;
    return browser;
  }

  it('an invitation shows what it is for, and its code makes the holder a member', async () => {
    const invitation = await invite(keyA, {
      name: 'רונית מזרחי',
      phone: '052-7000001',
      role: 'owner',
    });
    expect(invitation.url).toMatch(/\/desk\/invite\/[\w-]{20,}$/);
    const token = invitation.url.split('/').pop() as string;
    const view = await app.inject({ method: 'GET', url: `/api/staff-auth/invitations/${token}` });
    expect(view.json<StaffInvitationView>()).toMatchObject({
      clinic_name: 'מרפאת אלון',
      name: 'רונית מזרחי',
      role: 'owner',
      phone_hint: '001',
    });

    const browser = await join(invitation);
    const cookie = Object.keys(browser.cookies).find((name) => name.includes('marpe_desk'));
    expect(cookie).toBeDefined();
    const session = await call(browser, 'GET', '/api/staff-auth/session');
    expect(session.json<StaffSession>()).toMatchObject({
      account: { name: 'רונית מזרחי', phone: '0527000001' },
      memberships: [{ clinic_id: clinicA, clinic_name: 'מרפאת אלון', role: 'owner' }],
      method: 'sms',
      idle_timeout_minutes: 60,
      has_passkey: false,
    });

    // Used: the link has ended.
    const again = await app.inject({ method: 'GET', url: `/api/staff-auth/invitations/${token}` });
    expect(again.statusCode).toBe(404);
    expect(again.json<{ code: string }>().code).toBe('invitation_not_found');

    // The clinic API answers the session as it answers the clinic's key.
    const clinic = await call(browser, 'GET', '/api/integration/clinic');
    expect(clinic.statusCode, clinic.body).toBe(200);
    expect(clinic.json<IntegrationClinic>().id).toBe(clinicA);
  });

  it("the session cookie is httpOnly, SameSite=Strict, and the code's SMS names the desk", async () => {
    const invitation = await invite(keyA, { name: 'דנה', phone: '0527000011', role: 'owner' });
    const token = invitation.url.split('/').pop() as string;
    const browser = await newBrowser();
    const { twoFactorToken } = (
      await call(browser, 'POST', `/api/staff-auth/invitations/${token}/code`)
    ).json<{ twoFactorToken: string }>();
    const message = (await sent()).find((m) => m.to === '0527000011');
    expect(message?.body).toContain('דלפק מרפא');
    const code = /(\d{6})/.exec(message?.body ?? '')?.[1] as string;
    const response = await call(browser, 'POST', '/api/staff-auth/two-factor', {
      twoFactorToken,
      code,
    });
    const setCookie = [response.headers['set-cookie'] ?? []]
      .flat()
      .find((c) => c.startsWith('marpe_desk='));
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Strict/i);
    expect(setCookie).toMatch(/Path=\//);
    expect(setCookie).toMatch(/Max-Age=43200/);
  });

  it('sign-in answers alike for any phone, and only a staff phone gets the code', async () => {
    await join(await invite(keyA, { name: 'נועה', phone: '0527000003', role: 'front_desk' }));
    now += 2 * MINUTE;
    const sentBefore = (await sent()).length;
    const browser = await newBrowser();
    const staff = await call(browser, 'POST', '/api/staff-auth/sign-in', { phone: '0527000003' });
    const stranger = await call(browser, 'POST', '/api/staff-auth/sign-in', {
      phone: '0527999999',
    });
    expect(staff.statusCode).toBe(200);
    expect(stranger.statusCode).toBe(200);
    const messages = (await sent()).slice(0, -sentBefore);
    expect(messages.filter((m) => m.to === '0527000003')).toHaveLength(1);
    expect(messages.filter((m) => m.to === '0527999999')).toHaveLength(0);
    // Whatever the stranger types, the code is wrong.
    const wrong = await call(browser, 'POST', '/api/staff-auth/two-factor', {
      twoFactorToken: stranger.json<{ twoFactorToken: string }>().twoFactorToken,
      code: '123456',
    });
    expect(wrong.statusCode).toBe(404);
    // The same 60 s cooldown as the patients' codes.
    const tooSoon = await call(browser, 'POST', '/api/staff-auth/sign-in', { phone: '0527000003' });
    expect(tooSoon.statusCode).toBe(429);
    const ok = await call(browser, 'POST', '/api/staff-auth/two-factor', {
      twoFactorToken: staff.json<{ twoFactorToken: string }>().twoFactorToken,
      code: await lastCode('0527000003'),
    });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('a wrong code five times over kills the code', async () => {
    await join(await invite(keyA, { name: 'נועה', phone: '0527000003', role: 'front_desk' }));
    now += 2 * MINUTE;
    const browser = await newBrowser();
    const { twoFactorToken } = (
      await call(browser, 'POST', '/api/staff-auth/sign-in', { phone: '0527000003' })
    ).json<{ twoFactorToken: string }>();
    const code = await lastCode('0527000003');
    const wrong = code === '000000' ? '111111' : '000000';
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push(
        (await call(browser, 'POST', '/api/staff-auth/two-factor', { twoFactorToken, code: wrong }))
          .statusCode,
      );
    }
    expect(statuses).toEqual([404, 404, 404, 404, 404, 429]);
    const right = await call(browser, 'POST', '/api/staff-auth/two-factor', {
      twoFactorToken,
      code,
    });
    expect(right.statusCode).toBe(429);
  });

  it('front desk may work the diary but not keys, webhooks, the card terminal, staff or settings', async () => {
    const desk = await join(
      await invite(keyA, { name: 'שירה דוד', phone: '0527000002', role: 'front_desk' }),
    );
    expect((await call(desk, 'GET', '/api/integration/clinic')).statusCode).toBe(200);
    expect((await call(desk, 'GET', '/api/integration/caregivers')).statusCode).toBe(200);
    expect(
      (await call(desk, 'GET', '/api/integration/appointments?from=2027-03-24&to=2027-03-30'))
        .statusCode,
    ).toBe(200);
    for (const [method, url] of [
      ['GET', '/api/integration/api-keys'],
      ['GET', '/api/integration/webhooks'],
      ['GET', '/api/integration/payment-provider'],
      ['GET', '/api/integration/staff'],
      ['GET', '/api/integration/audit-log'],
      ['PATCH', '/api/integration/clinic'],
    ] as const) {
      const response = await call(
        desk,
        method,
        url,
        method === 'PATCH' ? { name: 'x' } : undefined,
      );
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(response.json<{ code: string }>().code).toBe('forbidden');
    }
  });

  it("a session's writes need the anti-forgery token and come from the desk's own site", async () => {
    const owner = await join(
      await invite(keyA, { name: 'רונית', phone: '0527000001', role: 'owner' }),
    );
    const withoutToken = await app.inject({
      method: 'PATCH',
      url: '/api/integration/clinic',
      payload: { name: 'מרפאת אלון החדשה' },
      cookies: owner.cookies,
    });
    expect(withoutToken.statusCode).toBe(403);
    expect(withoutToken.json<{ code: string }>().code).toBe('xsrf');
    const crossSite = await call(
      owner,
      'PATCH',
      '/api/integration/clinic',
      { name: 'מרפאת אלון החדשה' },
      { 'sec-fetch-site': 'cross-site' },
    );
    expect(crossSite.statusCode).toBe(403);
    const ok = await call(owner, 'PATCH', '/api/integration/clinic', { name: 'מרפאת אלון החדשה' });
    expect(ok.statusCode, ok.body).toBe(200);

    // Audited with who made it, and the audit log names them.
    const log = await call(owner, 'GET', '/api/integration/audit-log');
    const entry = log.json<AuditLogEntry[]>().find((e) => e.action === 'clinic.update');
    expect(entry?.actor).toMatch(/^staff:\d+$/);
    expect(entry?.actor_name).toBe('רונית');
  });

  it("another clinic's data stays out of reach, whatever the header says", async () => {
    const owner = await join(
      await invite(keyA, { name: 'רונית', phone: '0527000001', role: 'owner' }),
    );
    const other = await call(owner, 'GET', '/api/integration/clinic', undefined, {
      'x-marpe-clinic': String(clinicB),
    });
    expect(other.statusCode).toBe(403);

    // A member of both clinics names the one they act for.
    const keyB = (await app.apiKeys.create(clinicB, 'pms', 'test')).key;
    const second = await invite(keyB, { name: 'רונית', phone: '0527000001', role: 'front_desk' });
    now += 2 * MINUTE;
    await join(second);
    const unnamed = await call(owner, 'GET', '/api/integration/clinic');
    expect(unnamed.statusCode).toBe(400);
    expect(unnamed.json<{ code: string }>().code).toBe('clinic_required');
    const named = await call(owner, 'GET', '/api/integration/clinic', undefined, {
      'x-marpe-clinic': String(clinicB),
    });
    expect(named.json<IntegrationClinic>().id).toBe(clinicB);
    // Front desk at B: B's keys stay closed to them.
    const keys = await call(owner, 'GET', '/api/integration/api-keys', undefined, {
      'x-marpe-clinic': String(clinicB),
    });
    expect(keys.statusCode).toBe(403);
  });

  it('owners invite, change roles and remove staff; the last owner stays', async () => {
    const owner = await join(
      await invite(keyA, { name: 'רונית', phone: '0527000001', role: 'owner' }),
    );
    const created = await call(owner, 'POST', '/api/integration/staff/invitations', {
      name: 'שירה דוד',
      phone: '0527000002',
      role: 'front_desk',
    });
    expect(created.statusCode, created.body).toBe(201);
    const invitation = created.json<CreatedStaffInvitation>();
    // Sent by SMS with its link.
    const sms = (await sent()).find((m) => m.to === '0527000002');
    expect(sms?.body).toContain(invitation.url);
    expect(sms?.body).toContain('מרפאת אלון');
    now += 2 * MINUTE;
    await join(invitation);

    const list = (await call(owner, 'GET', '/api/integration/staff')).json<StaffList>();
    expect(list.members.map((m) => [m.name, m.role])).toEqual([
      ['רונית', 'owner'],
      ['שירה דוד', 'front_desk'],
    ]);
    expect(list.invitations).toEqual([]);
    const me = list.members.find((m) => m.role === 'owner');
    const shira = list.members.find((m) => m.role === 'front_desk');

    const demoteLast = await call(owner, 'PATCH', `/api/integration/staff/${me?.id}`, {
      role: 'front_desk',
    });
    expect(demoteLast.statusCode).toBe(409);
    expect(demoteLast.json<{ code: string }>().code).toBe('last_owner');
    const removeLast = await call(owner, 'DELETE', `/api/integration/staff/${me?.id}`);
    expect(removeLast.statusCode).toBe(409);

    expect(
      (await call(owner, 'PATCH', `/api/integration/staff/${shira?.id}`, { role: 'owner' }))
        .statusCode,
    ).toBe(204);
    expect((await call(owner, 'DELETE', `/api/integration/staff/${me?.id}`)).statusCode).toBe(204);
    // Removed: the session can no longer act for the clinic.
    expect((await call(owner, 'GET', '/api/integration/clinic')).statusCode).toBe(403);
    const rows = await db
      .select()
      .from(staffMemberships)
      .where(eq(staffMemberships.clinicId, clinicA));
    expect(rows.map((r) => r.role)).toEqual(['owner']);
  });

  it('a cancelled invitation no longer opens', async () => {
    const invitation = await invite(keyA, { name: 'דנה', phone: '0527000011', role: 'owner' });
    const revoke = await app.inject({
      method: 'DELETE',
      url: `/api/integration/staff/invitations/${invitation.id}`,
      headers: { authorization: `Bearer ${keyA}` },
    });
    expect(revoke.statusCode).toBe(204);
    const token = invitation.url.split('/').pop() as string;
    const browser = await newBrowser();
    const code = await call(browser, 'POST', `/api/staff-auth/invitations/${token}/code`);
    expect(code.statusCode).toBe(404);
  });

  it('sessions end when idle for an hour, at 12 hours, and everywhere on request', async () => {
    const phone = '0527000001';
    const first = await join(await invite(keyA, { name: 'רונית', phone, role: 'owner' }));
    const signIn = async (): Promise<Browser> => {
      now += 2 * MINUTE;
      const browser = await newBrowser();
      const { twoFactorToken } = (
        await call(browser, 'POST', '/api/staff-auth/sign-in', { phone })
      ).json<{ twoFactorToken: string }>();
      const verified = await call(browser, 'POST', '/api/staff-auth/two-factor', {
        twoFactorToken,
        code: await lastCode(phone),
      });
      expect(verified.statusCode, verified.body).toBe(200);
      return browser;
    };
    const status = async (browser: Browser) =>
      (await call(browser, 'GET', '/api/staff-auth/session')).statusCode;

    const second = await signIn();
    const secondStart = now;
    expect(await status(first)).toBe(200);
    // Idle: a call within the hour keeps a session; 61 minutes without one end it.
    now += 59 * MINUTE;
    expect(await status(second)).toBe(200);
    now += 2 * MINUTE;
    expect(await status(first)).toBe(401);
    // Absolute: 12 hours after sign-in, however busy.
    while (now + 30 * MINUTE < secondStart + 12 * HOUR) {
      now += 30 * MINUTE;
      expect(await status(second)).toBe(200);
    }
    now = secondStart + 12 * HOUR + MINUTE;
    expect(await status(second)).toBe(401);

    // Everywhere: one browser ends every session of the account.
    const third = await signIn();
    const fourth = await signIn();
    expect((await call(third, 'POST', '/api/staff-auth/sign-out-everywhere')).statusCode).toBe(204);
    expect((await call(fourth, 'GET', '/api/integration/clinic')).statusCode).toBe(401);
    expect(await status(third)).toBe(401);
  });

  it('a key caller sees no change', async () => {
    const response = await app.inject({
      method: 'PATCH',
      url: '/api/integration/clinic',
      headers: { authorization: `Bearer ${keyA}` },
      payload: { name: 'מרפאת אלון' },
    });
    expect(response.statusCode).toBe(200);
  });
});
