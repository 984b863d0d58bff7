// Over 400 lines: its tests share one app and one database per engine (a file's set-up costs
// seconds an engine), so an API area stays one file.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AuditLogEntry } from '@marpe/shared';
import type { App } from '../src/app.js';
import { demoFormSchema } from '../src/demo/demo-form.js';
import type { Database } from '../src/platform/db/client.js';
import { auditLog } from '../src/platform/db/schema.js';
import { insertClinics } from './fixtures.js';
import { buildTestApp, engines, useTestDatabase, xsrfPair } from './helper.js';
import { insertStaffSession } from './sessions.js';

const HOUR = 3_600_000;
const NOW = Date.parse('2027-03-24T10:00:00+02:00');

/** The smallest PNG (1×1, transparent). */
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface Caller {
  cookies: Record<string, string>;
  headers: Record<string, string>;
  actor: string;
}

/**
 * Every change a person makes at the desk is in the audit log with who made it: each
 * state-changing `/api/integration` route, called as a desk session, writes an entry whose actor
 * is `staff:<account id>` and whose `actor_name` is the member's name. The walk fails on a write
 * the list below does not know, so a new route must say what it audits.
 */
describe.each(engines)('the desk: every write audited with who made it (%s)', (engine) => {
  const database = useTestDatabase(engine);
  let app: App;
  let db: Database;
  let clinicId: number;
  let otherClinicId: number;
  let owner: Caller;

  beforeAll(async () => {
    app = await buildTestApp(database.current.handle, {
      clock: () => NOW,
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
    [clinicId, otherClinicId] = await insertClinics(db, ['מרפאת אלון', 'מרפאת ברוש']);
    owner = await desk(clinicId, 'owner');
  });

  async function desk(clinic: number, role: 'owner' | 'front_desk'): Promise<Caller> {
    const session = await insertStaffSession(db, { clinicId: clinic, role, now: NOW });
    const xsrf = await xsrfPair(app);
    return {
      cookies: { ...session.cookies, ...xsrf.cookies },
      headers: xsrf.headers,
      actor: `staff:${session.accountId}`,
    };
  }

  async function call(caller: Caller, method: Method, url: string, payload?: object | Buffer) {
    return app.inject({
      method,
      url: `/api/integration${url}`,
      payload,
      cookies: caller.cookies,
      headers: {
        ...caller.headers,
        ...(Buffer.isBuffer(payload) ? { 'content-type': 'image/png' } : {}),
      },
    });
  }

  async function auditLogOf(caller: Caller, query = '') {
    const response = await call(caller, 'GET', `/audit-log${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<AuditLogEntry[]>();
  }

  it('walks every state-changing integration route as an owner and as front desk', async () => {
    const frontDesk = await desk(clinicId, 'front_desk');
    const seen = new Set<string>();
    let lastId = 0;

    /** Makes the write, then expects new audit entries: the action, all by the caller. */
    async function write(
      caller: Caller,
      method: Method,
      url: string,
      payload: object | Buffer | undefined,
      action: string,
      status = [200, 201, 204],
    ) {
      const response = await call(caller, method, url, payload);
      expect(status, `${method} ${url}: ${response.body}`).toContain(response.statusCode);
      const entries = (await auditLogOf(owner)).filter((e) => e.id > lastId);
      expect(
        entries.map((e) => e.action),
        `${method} ${url}`,
      ).toContain(action);
      for (const entry of entries) {
        expect(entry.actor, `${method} ${url} → ${entry.action}`).toBe(caller.actor);
        expect(entry.actor_name, `${method} ${url}`).toMatch(/^צוות \d+$/);
      }
      lastId = Math.max(lastId, ...entries.map((e) => e.id));
      seen.add(`${method} ${url.replace(/\/\d+(?=\/|$)/g, '/{id}')}`);
      return response;
    }

    // Set-up (owners).
    await write(owner, 'PATCH', '/clinic', { description: 'מרפאה משפחתית' }, 'clinic.update');
    const image = await write(owner, 'POST', '/images', png, 'image.upload');
    expect(image.statusCode).toBe(201);
    const type = (
      await write(
        owner,
        'POST',
        '/appointment-types',
        { name: 'בדיקה', duration_minutes: 30 },
        'appointment_type.create',
      )
    ).json<{ id: number }>();
    await write(
      owner,
      'PATCH',
      `/appointment-types/${type.id}`,
      { name: 'בדיקה תקופתית' },
      'appointment_type.update',
    );
    const caregiver = (
      await write(
        owner,
        'POST',
        '/caregivers',
        {
          name: 'ד"ר דנה',
          license_number: '12345',
          appointment_type_ids: [type.id],
          marpe_rules: { weekly_hours: { thursday: [{ start: '08:00', end: '16:00' }] } },
        },
        'caregiver.create',
      )
    ).json<{ id: number }>();
    await write(
      owner,
      'PATCH',
      `/caregivers/${caregiver.id}`,
      { license_number: '54321' },
      'caregiver.update',
    );
    await write(
      owner,
      'PUT',
      '/reminders/settings',
      {
        enabled: true,
        lead_minutes: [1440],
        channel: 'sms',
        quiet_hours: { start: '22:00', end: '08:00' },
        observe_shabbat_and_holidays: true,
      },
      'reminders.update',
    );
    await write(
      owner,
      'PUT',
      '/payment-provider',
      { app_key: 'clinic-app', secret: 'the-provider-secret' },
      'payment_provider.set',
    );
    await write(owner, 'DELETE', '/payment-provider', undefined, 'payment_provider.remove');
    const closure = (
      await write(owner, 'POST', '/closures', { date: '2027-04-20', note: 'חג' }, 'closure.create')
    ).json<{ id: number }>();
    await write(owner, 'DELETE', `/closures/${closure.id}`, undefined, 'closure.delete');
    await write(owner, 'PUT', '/setup/steps/closures', { done: true }, 'setup_step.done');
    seen.add('PUT /setup/steps/{id}');
    const webhook = (
      await write(
        owner,
        'POST',
        '/webhooks',
        { url: 'https://pms.example/hooks' },
        'webhook_endpoint.create',
      )
    ).json<{ id: number }>();
    await write(
      owner,
      'PATCH',
      `/webhooks/${webhook.id}`,
      { is_active: false },
      'webhook_endpoint.update',
    );
    await write(owner, 'DELETE', `/webhooks/${webhook.id}`, undefined, 'webhook_endpoint.delete');
    await write(
      owner,
      'POST',
      `/caregivers/${caregiver.id}/calendar-feed`,
      undefined,
      'calendar_feed.create',
    );
    await write(
      owner,
      'DELETE',
      `/caregivers/${caregiver.id}/calendar-feed`,
      undefined,
      'calendar_feed.revoke',
    );
    const template = (
      await write(
        owner,
        'POST',
        '/form-templates',
        { name: 'שאלון רפואי', schema: demoFormSchema },
        'form_template.create',
      )
    ).json<{ id: number }>();
    await write(
      owner,
      'PUT',
      `/form-templates/${template.id}`,
      { name: 'שאלון רפואי', schema: demoFormSchema },
      'form_template.update',
    );
    await write(
      owner,
      'PATCH',
      `/form-templates/${template.id}`,
      { name: 'שאלון רפואי מעודכן' },
      'form_template.update',
    );

    // The day's work (both roles).
    const booked = (
      await write(
        frontDesk,
        'POST',
        '/appointments',
        {
          caregiver_id: caregiver.id,
          appointment_type_id: type.id,
          start_date: '2027-03-25T09:00:00+02:00',
          patient: {
            id_number: '039845128',
            phone: '0521234567',
            first_name: 'דנה',
            last_name: 'לוי',
          },
          outside_working_hours: true,
        },
        'appointment.book',
      )
    ).json<{ id: number }>();
    await write(
      frontDesk,
      'PATCH',
      '/patients/039845128',
      { phone: '0527654321' },
      'patient.update_phone',
    );
    await write(
      frontDesk,
      'POST',
      '/patients/039845128/reassign',
      {
        phone: '0527654321',
        first_name: 'דנה',
        last_name: 'לוי',
        identity_document_checked: true,
        reason: 'הציגה תעודת זהות',
      },
      'patient.reassign',
    );
    await write(
      frontDesk,
      'POST',
      `/appointments/${booked.id}/reschedule`,
      { start_date: '2027-03-25T10:00:00+02:00', outside_working_hours: true },
      'appointment.reschedule',
    );
    await write(
      frontDesk,
      'POST',
      `/appointments/${booked.id}/cancel`,
      { reason: 'ביקשה לדחות' },
      'appointment.cancel',
    );
    await write(
      frontDesk,
      'PUT',
      `/caregivers/${caregiver.id}/busy-times`,
      {
        from: '2027-03-25T00:00:00+02:00',
        to: '2027-03-26T00:00:00+02:00',
        items: [
          {
            external_id: 'a',
            start: '2027-03-25T12:00:00+02:00',
            end: '2027-03-25T13:00:00+02:00',
          },
        ],
      },
      'busy_times.replace',
    );
    const formRequest = (
      await write(
        frontDesk,
        'POST',
        '/form-requests',
        { template_id: template.id },
        'form_request.create',
      )
    ).json<{ id: number }>();
    await write(
      frontDesk,
      'POST',
      `/form-requests/${formRequest.id}/resend`,
      {},
      'form_request.resend',
    );
    await write(
      frontDesk,
      'POST',
      `/form-requests/${formRequest.id}/cancel`,
      undefined,
      'form_request.cancel',
    );
    const payment = (
      await write(
        frontDesk,
        'POST',
        '/payment-requests',
        { amount: 250, terminal: 'marpedemo', patient_name_remarks: 'דנה לוי' },
        'payment_request.create',
      )
    ).json<{ id: number }>();
    await write(
      frontDesk,
      'POST',
      `/payment-requests/${payment.id}/cancel`,
      undefined,
      'payment_request.cancel',
    );

    // Staff (owners).
    const invited = (
      await write(
        owner,
        'POST',
        '/staff/invitations',
        { name: 'נועה', phone: '0527000009', role: 'front_desk', send_sms: false },
        'staff.invite',
      )
    ).json<{ id: number }>();
    await write(
      owner,
      'DELETE',
      `/staff/invitations/${invited.id}`,
      undefined,
      'staff.invitation_revoke',
    );
    const members = (await call(owner, 'GET', '/staff')).json<{
      members: { id: number; role: string }[];
    }>().members;
    const deskMember = members.find((m) => m.role === 'front_desk');
    await write(owner, 'PATCH', `/staff/${deskMember?.id}`, { role: 'owner' }, 'staff.role_change');
    await write(owner, 'DELETE', `/staff/${deskMember?.id}`, undefined, 'staff.remove');

    // An owner makes a key for the clinic's software, and revokes one it used.
    await write(owner, 'POST', '/api-keys', { name: 'מערכת הניהול' }, 'api_key.create');
    const key = await app.apiKeys.create(clinicId, 'pms', 'cli');
    lastId = Math.max(lastId, ...(await auditLogOf(owner)).map((e) => e.id));
    await write(owner, 'DELETE', `/api-keys/${key.id}`, undefined, 'api_key.revoke');

    // What set-up removes last.
    await write(
      owner,
      'DELETE',
      `/form-templates/${template.id}`,
      undefined,
      'form_template.delete',
    );
    await write(owner, 'DELETE', `/caregivers/${caregiver.id}`, undefined, 'caregiver.deactivate');
    // A type no appointment was of (one that was stays, and answers 409).
    const spare = (
      await call(owner, 'POST', '/appointment-types', { name: 'ייעוץ', duration_minutes: 15 })
    ).json<{ id: number }>();
    lastId = Math.max(lastId, ...(await auditLogOf(owner)).map((e) => e.id));
    await write(
      owner,
      'DELETE',
      `/appointment-types/${spare.id}`,
      undefined,
      'appointment_type.delete',
    );

    // Every state-changing integration route the OpenAPI document lists was walked, except the
    // connections whose providers this app has none of (their start is audited alike: see
    // whatsapp.test.ts and shaam.test.ts), and the two that need a history first: a hand offer
    // needs a waiting patient and a free time (desk-waitlist.test.ts), a retry a delivery failed
    // for good (webhook-retry.test.ts); both check their audit entry there. A calendar's
    // connection link and disconnect need the server's Google OAuth client, which this app has
    // not: calendar-connect.test.ts checks their audit entries.
    const spec = (await app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
      paths: Record<string, Record<string, unknown>>;
    }>();
    const writes = Object.entries(spec.paths)
      .filter(([path]) => path.startsWith('/api/integration/'))
      .flatMap(([path, methods]) =>
        Object.keys(methods)
          .filter((m) => m !== 'get' && m !== 'head')
          .map((m) => `${m.toUpperCase()} ${path.slice('/api/integration'.length)}`),
      );
    const elsewhere = new Set([
      'POST /whatsapp/connect',
      'DELETE /whatsapp',
      'POST /shaam/connect',
      'POST /waitlist/entries/{id}/offer',
      'POST /webhook-deliveries/{id}/retry',
      'POST /caregivers/{id}/calendar-connection',
      'DELETE /caregivers/{id}/calendar-connection',
    ]);
    const missing = writes
      .map((route) => route.replace(/\{[^}]+\}/g, '{id}'))
      .filter((route) => !seen.has(route) && !elsewhere.has(route));
    expect(missing).toEqual([]);
  });

  it('filters the log by actor, action prefix and time, and pages on with before', async () => {
    const other = await desk(clinicId, 'owner');
    await call(owner, 'PATCH', '/clinic', { description: 'א' });
    await call(other, 'PATCH', '/clinic', { description: 'ב' });
    await call(owner, 'POST', '/appointment-types', { name: 'בדיקה', duration_minutes: 30 });
    // An entry of another clinic never shows, whatever the filter.
    await db.insert(auditLog).values({
      clinicId: otherClinicId,
      actor: owner.actor,
      action: 'clinic.update',
      details: {},
      createdAt: new Date(NOW),
    });
    await db.insert(auditLog).values([
      {
        clinicId,
        actor: 'cli',
        action: 'clinic_create',
        details: {},
        createdAt: new Date(NOW - 2 * HOUR),
      },
      {
        clinicId,
        actor: 'cli',
        action: 'clinic%x',
        details: {},
        createdAt: new Date(NOW - HOUR),
      },
    ]);

    const all = await auditLogOf(owner);
    expect(all.map((e) => e.action)).toEqual([
      'clinic%x',
      'clinic_create',
      'appointment_type.create',
      'clinic.update',
      'clinic.update',
    ]);
    const mine = await auditLogOf(owner, `?actor=${encodeURIComponent(owner.actor)}`);
    expect(mine.map((e) => e.action)).toEqual(['appointment_type.create', 'clinic.update']);
    expect(mine.every((e) => e.actor === owner.actor)).toBe(true);

    // A prefix, its % and _ taken as they are.
    expect((await auditLogOf(owner, '?action=clinic.')).map((e) => e.actor)).toEqual([
      other.actor,
      owner.actor,
    ]);
    expect((await auditLogOf(owner, '?action=clinic_')).map((e) => e.action)).toEqual([
      'clinic_create',
    ]);
    expect(
      (await auditLogOf(owner, `?action=${encodeURIComponent('clinic%')}`)).map((e) => e.action),
    ).toEqual(['clinic%x']);

    // [from, to): the two CLI entries lie 2 and 1 hours back.
    const at = (ms: number) => encodeURIComponent(new Date(ms).toISOString());
    const window = await auditLogOf(owner, `?from=${at(NOW - 2 * HOUR)}&to=${at(NOW - HOUR)}`);
    expect(window.map((e) => e.action)).toEqual(['clinic_create']);
    expect((await auditLogOf(owner, `?from=${at(NOW)}`)).length).toBe(3);
    expect((await auditLogOf(owner, `?to=${at(NOW)}`)).map((e) => e.actor)).toEqual(['cli', 'cli']);
    // With an offset, as the desk sends its local time.
    expect(
      (await auditLogOf(owner, `?from=${encodeURIComponent('2027-03-24T09:30:00+02:00')}`)).length,
    ).toBe(3);

    // Filters and paging together.
    const firstPage = await auditLogOf(owner, '?action=clinic&limit=2');
    expect(firstPage.map((e) => e.action)).toEqual(['clinic%x', 'clinic_create']);
    const nextPage = await auditLogOf(owner, `?action=clinic&limit=2&before=${firstPage[1]?.id}`);
    expect(nextPage.map((e) => e.action)).toEqual(['clinic.update', 'clinic.update']);

    // Bad filters are a 400 naming the field.
    for (const [query, field] of [
      ['?from=yesterday', 'from'],
      ['?to=2027-03-24', 'to'],
      [`?from=${at(NOW)}&to=${at(NOW - HOUR)}`, 'to'],
      [`?actor=${'x'.repeat(101)}`, 'actor'],
      ['?action=', 'action'],
    ] as const) {
      const response = await call(owner, 'GET', `/audit-log${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(JSON.stringify(response.json()), query).toContain(field);
    }

    // An API key reads the same log, unfiltered as before.
    const key = (await app.apiKeys.create(clinicId, 'pms', 'test')).key;
    const byKey = await app.inject({
      method: 'GET',
      url: '/api/integration/audit-log',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(byKey.statusCode).toBe(200);
    expect(byKey.json<AuditLogEntry[]>().length).toBe(6);
    // Front desk does not read it.
    const frontDesk = await desk(clinicId, 'front_desk');
    expect((await call(frontDesk, 'GET', '/audit-log')).statusCode).toBe(403);
  });
});
