// Over 400 lines: its tests share one app and one database per engine (a file's set-up costs
// seconds an engine), so an API area stays one file.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  withIdCheckDigit,
  type CreatedFormRequest,
  type FormRequest,
  type FormSchema,
  type FormSubmission,
  type FormTemplate,
  type ResentFormRequest,
} from '@marpe/shared';
import type { App } from '../src/app.js';
import type { Database } from '../src/platform/db/client.js';
import {
  auditLog,
  clinics,
  formRequests,
  outbox,
  patients,
  whatsappConnections,
} from '../src/platform/db/schema.js';
import { clinicRow } from './fixtures.js';
import { buildTestApp, engines, useSentMessages, useTestDatabase, xsrfPair } from './helper.js';
import { bearer, insertStaffSession } from './sessions.js';

const MINUTE = 60_000;
const DAY = 86_400_000;
/** Wednesday 2027-03-24, 10:00 in Israel (UTC+2). */
const START = Date.parse('2027-03-24T10:00:00+02:00');
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** A small form: a greeting from initData, a text, a select, a checkbox and a signature. */
const schema: FormSchema = [
  {
    title: 'פרטים',
    next_button: 'המשך',
    fields: [
      { name: 'hello', type: 'title', title: 'שלום {{initData.firstName}}', validations: [] },
      {
        name: 'full_name',
        type: 'text',
        title: 'שם מלא',
        default: '{{initData.fullName}}',
        validations: ['required'],
      },
      {
        name: 'smoking',
        type: 'select',
        title: 'עישון',
        options: [
          { value: 'never', label: 'אף פעם' },
          { value: 'past', label: 'בעבר' },
        ],
        validations: ['required'],
      },
      { name: 'allergies', type: 'checkbox', title: 'אלרגיות', validations: [] },
      { name: 'sign', type: 'signature', title: 'חתימה', validations: ['required'] },
    ],
  },
];
const answers = { full_name: 'יעל כהן', smoking: 'past', allergies: false, sign: PNG };

type Method = 'GET' | 'POST';
type Caller = { key: string } | { desk: { cookies: Record<string, string> } };

describe.each(engines)("the desk's intake forms: the clinic API it calls (%s)", (engine) => {
  const database = useTestDatabase(engine);
  let app: App;
  let db: Database;
  let now: number;
  let xsrf: Awaited<ReturnType<typeof xsrfPair>>;
  let clinicId: number;
  let otherClinicId: number;
  let key: string;
  let otherKey: string;
  let owner: Caller;
  let frontDesk: Caller;
  let otherFrontDesk: Caller;
  let template: FormTemplate;
  const yael = {
    idNumber: withIdCheckDigit('31234567'),
    firstName: 'יעל',
    lastName: 'כהן',
    phone: '0527654321',
  };
  const moshe = {
    idNumber: withIdCheckDigit('21234567'),
    firstName: 'משה',
    lastName: 'לוי',
    phone: '0541112233',
  };

  beforeAll(async () => {
    now = START;
    app = await buildTestApp(database.current.handle, {
      clock: () => now,
      outboxPollIntervalMs: 3_600_000,
    });
    await app.ready();
    db = database.current.handle.db;
    xsrf = await xsrfPair(app);
  });
  afterAll(async () => {
    await app.close();
  });

  const messages = useSentMessages(() => app);

  const call = (caller: Caller, method: Method, url: string, payload?: object) =>
    app.inject({
      method,
      url: `/api/integration${url}`,
      payload,
      ...('key' in caller
        ? { headers: bearer(caller.key) }
        : {
            cookies: { ...xsrf.cookies, ...caller.desk.cookies },
            headers: { ...xsrf.headers, 'sec-fetch-site': 'same-origin' },
          }),
    });

  const tokenOf = (url: string) => url.slice(url.indexOf('/q/') + 3);
  const publicPost = (url: string, payload: object) =>
    app.inject({ method: 'POST', url, payload, ...xsrf });
  const getForm = (url: string) => publicPost('/api/get-form', { token: tokenOf(url) });

  const issuePaths = (response: Awaited<ReturnType<typeof call>>) => {
    expect(response.statusCode, response.body).toBe(400);
    return response
      .json<{ code: string; details: { issues: { path: string }[] } }>()
      .details.issues.map((i) => i.path);
  };

  async function send(caller: Caller, body: object = {}) {
    const response = await call(caller, 'POST', '/form-requests', {
      template_id: template.id,
      ...body,
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<CreatedFormRequest>();
  }

  async function one(caller: Caller, id: number) {
    const response = await call(caller, 'GET', `/form-requests/${id}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<FormRequest>();
  }

  const list = async (caller: Caller, query = '') => {
    const response = await call(caller, 'GET', `/form-requests${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<FormRequest[]>();
  };
  const ids = async (caller: Caller, query = '') => (await list(caller, query)).map((r) => r.id);

  beforeEach(async () => {
    await database.current.reset();
    now = START;
    const [main, other] = await db
      .insert(clinics)
      .values([clinicRow('מרפאת הטפסים'), clinicRow('מרפאה אחרת')])
      .returning({ id: clinics.id });
    if (!main || !other) throw new Error('fixture: clinics');
    clinicId = main.id;
    otherClinicId = other.id;
    key = (await app.apiKeys.create(clinicId, 'pms', 'test')).key;
    otherKey = (await app.apiKeys.create(otherClinicId, 'pms', 'test')).key;
    owner = { desk: await insertStaffSession(db, { clinicId, role: 'owner', now }) };
    frontDesk = { desk: await insertStaffSession(db, { clinicId, role: 'front_desk', now }) };
    otherFrontDesk = {
      desk: await insertStaffSession(db, { clinicId: otherClinicId, role: 'front_desk', now }),
    };
    await db.insert(patients).values([
      { clinicId, ...yael },
      { clinicId, ...moshe },
      // The same person at the other clinic: never listed with this clinic's requests.
      { clinicId: otherClinicId, ...yael, firstName: 'יעלי' },
    ]);
    const created = await call({ key }, 'POST', '/form-templates', { name: 'שאלון', schema });
    expect(created.statusCode, created.body).toBe(201);
    template = created.json<FormTemplate>();
  });

  it('follows a request from sent to opened, draft saved and submitted (front desk)', async () => {
    const link = await send(frontDesk, { patient_id_number: yael.idNumber, expires_in_days: 7 });
    expect(link.sent_by).toBeNull();
    const sent = await one(frontDesk, link.id);
    expect(sent).toEqual({
      id: link.id,
      patient_id_number: yael.idNumber,
      patient_name: 'יעל כהן',
      stage: 'sent',
      opened_at: null,
      draft_saved_at: null,
      template_id: template.id,
      template_name: 'שאלון',
      status: 'pending',
      created_at: new Date(START).toISOString(),
      expires_at: new Date(START + 7 * DAY).toISOString(),
      submitted_at: null,
    });

    // The form starts with what the clinic knows of the patient.
    now += MINUTE;
    const form = await getForm(link.url);
    expect(form.statusCode, form.body).toBe(200);
    expect(form.json<{ data: { initData: object } }>().data.initData).toEqual({
      firstName: 'יעל',
      lastName: 'כהן',
      fullName: 'יעל כהן',
      idNumber: yael.idNumber,
      phone: '052-7654321',
      clinicName: 'מרפאת הטפסים',
    });
    const opened = await one(frontDesk, link.id);
    expect(opened).toMatchObject({ stage: 'opened', opened_at: new Date(now).toISOString() });
    // Opened again: the first time stays.
    now += MINUTE;
    expect((await getForm(link.url)).statusCode).toBe(200);
    expect((await one(frontDesk, link.id)).opened_at).toBe(new Date(now - MINUTE).toISOString());

    now += MINUTE;
    const draft = await publicPost('/api/save-form-draft', {
      token: tokenOf(link.url),
      inputData: { full_name: 'יעל' },
      stepIndex: 0,
    });
    expect(draft.statusCode, draft.body).toBe(200);
    expect(await one(frontDesk, link.id)).toMatchObject({
      stage: 'draft_saved',
      draft_saved_at: new Date(now).toISOString(),
      status: 'pending',
    });

    now += MINUTE;
    const submitted = await publicPost('/api/submit', {
      token: tokenOf(link.url),
      inputData: answers,
    });
    expect(submitted.statusCode, submitted.body).toBe(200);
    expect(await one(frontDesk, link.id)).toMatchObject({
      stage: 'submitted',
      status: 'submitted',
      draft_saved_at: null,
      submitted_at: new Date(now).toISOString(),
    });

    // The answers come with the form as the patient saw it (placeholders resolved).
    const submission = await call(frontDesk, 'GET', `/form-requests/${link.id}/submission`);
    expect(submission.statusCode, submission.body).toBe(200);
    const body = submission.json<FormSubmission>();
    expect(body.values).toEqual(answers);
    expect(body.schema[0]?.fields[0]?.title).toBe('שלום יעל');
    expect(body.schema[0]?.fields[1]?.default).toBe('יעל כהן');
    const pdf = await call(frontDesk, 'GET', `/form-requests/${link.id}/submission.pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
  });

  it('keeps init_data sent with a patient over what the clinic knows', async () => {
    const link = await send(owner, {
      patient_id_number: moshe.idNumber,
      init_data: { firstName: 'מוישה', note: 'ביקור ראשון' },
    });
    const form = await getForm(link.url);
    expect(form.json<{ data: { initData: object } }>().data.initData).toMatchObject({
      firstName: 'מוישה',
      lastName: 'לוי',
      note: 'ביקור ראשון',
    });
    // Without a patient, init_data is exactly what was sent.
    const plain = await send({ key }, { init_data: { firstName: 'דנה' } });
    const plainForm = await getForm(plain.url);
    expect(plainForm.json<{ data: { initData: object } }>().data.initData).toEqual({
      firstName: 'דנה',
    });
    expect(await one({ key }, plain.id)).toMatchObject({
      patient_id_number: '',
      patient_name: '',
    });
  });

  it('checks patient_id_number: 400 naming it when malformed, 404 when not the clinic’s', async () => {
    const malformed = await call(frontDesk, 'POST', '/form-requests', {
      template_id: template.id,
      patient_id_number: '123456789',
    });
    expect(issuePaths(malformed)).toEqual(['patient_id_number']);
    const unknown = await call(frontDesk, 'POST', '/form-requests', {
      template_id: template.id,
      patient_id_number: withIdCheckDigit('11111111'),
    });
    expect(unknown.statusCode, unknown.body).toBe(404);
    expect(unknown.json<{ code: string }>().code).toBe('patient_not_found');
    // A patient of the other clinic only is not this clinic's.
    const elsewhere = await call({ key: otherKey }, 'POST', '/form-templates', {
      name: 'שאלון',
      schema,
    });
    const foreign = await call({ key: otherKey }, 'POST', '/form-requests', {
      template_id: elsewhere.json<FormTemplate>().id,
      patient_id_number: moshe.idNumber,
    });
    expect(foreign.json<{ code: string }>().code).toBe('patient_not_found');
    // A short ID number is padded as the clinic stores it.
    const short = await send(frontDesk, { patient_id_number: yael.idNumber.replace(/^0+/, '') });
    expect((await one(frontDesk, short.id)).patient_id_number).toBe(yael.idNumber);
    expect(await db.select().from(formRequests)).toHaveLength(1);
    expect(issuePaths(await call(frontDesk, 'GET', '/form-requests?patient_id_number=12'))).toEqual(
      ['patient_id_number'],
    );
  });

  it('shows cancelled and expired requests as such', async () => {
    const cancelled = await send(frontDesk, { patient_id_number: yael.idNumber });
    const response = await call(frontDesk, 'POST', `/form-requests/${cancelled.id}/cancel`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<FormRequest>()).toMatchObject({
      stage: 'cancelled',
      status: 'cancelled',
    });
    const expiring = await send(frontDesk, { expires_in_days: 1 });
    expect((await getForm(expiring.url)).statusCode).toBe(200);
    now = START + DAY;
    // (A desk session ends after an hour without activity: a key reads on.)
    expect(await one({ key }, expiring.id)).toMatchObject({
      stage: 'expired',
      status: 'expired',
    });
    expect((await getForm(expiring.url)).statusCode).toBe(404);
  });

  it('filters by stage, status, patient and the days made on (clinic time), in pages', async () => {
    // Tuesday 23:30 in Israel is still Tuesday there (21:30 UTC).
    now = Date.parse('2027-03-23T23:30:00+02:00');
    const tuesday = await send(frontDesk, { patient_id_number: yael.idNumber });
    now = Date.parse('2027-03-24T00:30:00+02:00');
    const opened = await send(frontDesk, { patient_id_number: moshe.idNumber });
    now = START;
    const drafted = await send(frontDesk, { patient_id_number: yael.idNumber });
    const submitted = await send(frontDesk, { patient_id_number: yael.idNumber });
    const cancelled = await send(frontDesk);
    expect((await getForm(opened.url)).statusCode).toBe(200);
    expect(
      (
        await publicPost('/api/save-form-draft', {
          token: tokenOf(drafted.url),
          inputData: {},
          stepIndex: 0,
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (await publicPost('/api/submit', { token: tokenOf(submitted.url), inputData: answers }))
        .statusCode,
    ).toBe(200);
    await call(frontDesk, 'POST', `/form-requests/${cancelled.id}/cancel`);

    expect(await ids(frontDesk)).toEqual([
      cancelled.id,
      submitted.id,
      drafted.id,
      opened.id,
      tuesday.id,
    ]);
    expect(await ids(frontDesk, '?stage=sent')).toEqual([tuesday.id]);
    expect(await ids(frontDesk, '?stage=opened')).toEqual([opened.id]);
    expect(await ids(frontDesk, '?stage=draft_saved')).toEqual([drafted.id]);
    expect(await ids(frontDesk, '?stage=submitted')).toEqual([submitted.id]);
    expect(await ids(frontDesk, '?stage=cancelled')).toEqual([cancelled.id]);
    expect(await ids(frontDesk, '?status=pending')).toEqual([drafted.id, opened.id, tuesday.id]);
    expect(await ids(frontDesk, `?patient_id_number=${yael.idNumber}`)).toEqual([
      submitted.id,
      drafted.id,
      tuesday.id,
    ]);
    expect(
      await ids(frontDesk, `?patient_id_number=${yael.idNumber}&status=pending&limit=1`),
    ).toEqual([drafted.id]);
    expect(await ids(frontDesk, '?from=2027-03-24')).toEqual([
      cancelled.id,
      submitted.id,
      drafted.id,
      opened.id,
    ]);
    expect(await ids(frontDesk, '?to=2027-03-23')).toEqual([tuesday.id]);
    expect(await ids(frontDesk, '?from=2027-03-23&to=2027-03-23')).toEqual([tuesday.id]);
    expect(await ids(frontDesk, '?from=2027-03-25')).toEqual([]);
    expect(await ids(frontDesk, `?limit=2&before=${drafted.id}`)).toEqual([opened.id, tuesday.id]);
    expect((await list(frontDesk, `?patient_id_number=${moshe.idNumber}`))[0]).toMatchObject({
      patient_name: 'משה לוי',
      stage: 'opened',
    });
    expect(issuePaths(await call(frontDesk, 'GET', '/form-requests?stage=read'))).toEqual([
      'stage',
    ]);
    expect(issuePaths(await call(frontDesk, 'GET', '/form-requests?from=2027-02-30'))).toEqual([
      'from',
    ]);
  });

  it('resends a fresh link: the old one ends, the draft stays; audited', async () => {
    const link = await send(frontDesk, { patient_id_number: yael.idNumber, expires_in_days: 7 });
    expect(
      (
        await publicPost('/api/save-form-draft', {
          token: tokenOf(link.url),
          inputData: { full_name: 'יעל כ' },
          stepIndex: 0,
        })
      ).statusCode,
    ).toBe(200);
    now += MINUTE;
    const response = await call(frontDesk, 'POST', `/form-requests/${link.id}/resend`, {
      send_to_phone: '052-7654321',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const resent = response.json<ResentFormRequest>();
    expect(resent).toEqual({
      id: link.id,
      url: expect.stringMatching(/\/q\/[\w-]{43}$/),
      expires_at: link.expires_at,
      status: 'pending',
      sent_by: 'sms',
      previous_link_ended: true,
    });
    expect(resent.url).not.toBe(link.url);
    expect((await getForm(link.url)).statusCode).toBe(404);
    const form = await getForm(resent.url);
    expect(form.statusCode).toBe(200);
    const opened = form.json<{ data: { initData: object }; draft: { inputData: object } }>();
    expect(opened.draft.inputData).toEqual({ full_name: 'יעל כ' });
    expect(opened.data.initData).toMatchObject({ firstName: 'יעל' });
    const sms = await messages();
    expect(sms).toHaveLength(1);
    expect(sms[0]).toMatchObject({ to: '0527654321', body: expect.stringContaining(resent.url) });

    // Without a phone and with a new expiry: nothing sent.
    const again = await call(owner, 'POST', `/form-requests/${link.id}/resend`, {
      expires_in_days: 30,
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json<ResentFormRequest>()).toMatchObject({
      sent_by: null,
      expires_at: new Date(now + 30 * DAY).toISOString(),
    });
    // No body at all: the link is made all the same.
    const bare = await call({ key }, 'POST', `/form-requests/${link.id}/resend`);
    expect(bare.statusCode, bare.body).toBe(200);
    expect(await messages()).toHaveLength(1);

    const entries = await db
      .select({ action: auditLog.action, details: auditLog.details })
      .from(auditLog)
      .where(and(eq(auditLog.clinicId, clinicId), eq(auditLog.action, 'form_request.resend')));
    expect(entries).toHaveLength(3);
    expect(entries[0]?.details).toEqual({ expires_at: link.expires_at, sent_to_phone: true });
    expect(JSON.stringify(entries)).not.toContain('4321');

    // The submit goes through the last link only.
    const last = bare.json<ResentFormRequest>();
    expect(
      (await publicPost('/api/submit', { token: tokenOf(resent.url), inputData: answers }))
        .statusCode,
    ).toBe(404);
    expect(
      (await publicPost('/api/submit', { token: tokenOf(last.url), inputData: answers }))
        .statusCode,
    ).toBe(200);
  });

  it('refuses to resend a request that is no longer pending (409) and checks the phone', async () => {
    const link = await send(frontDesk);
    expect(
      issuePaths(
        await call(frontDesk, 'POST', `/form-requests/${link.id}/resend`, {
          send_to_phone: '03-5551234',
        }),
      ),
    ).toEqual(['send_to_phone']);
    expect(
      issuePaths(await call(frontDesk, 'POST', `/form-requests/${link.id}/resend`, { url: 'x' }))
        .length,
    ).toBeGreaterThan(0);
    await call(frontDesk, 'POST', `/form-requests/${link.id}/cancel`);
    const cancelled = await call(frontDesk, 'POST', `/form-requests/${link.id}/resend`, {
      send_to_phone: '0527654321',
    });
    expect(cancelled.statusCode, cancelled.body).toBe(409);
    const expiring = await send(frontDesk, { expires_in_days: 1 });
    now += DAY;
    expect(
      (await call({ key }, 'POST', `/form-requests/${expiring.id}/resend`, {})).statusCode,
    ).toBe(409);
    now = START;
    const done = await send(frontDesk);
    await publicPost('/api/submit', { token: tokenOf(done.url), inputData: answers });
    expect((await call(frontDesk, 'POST', `/form-requests/${done.id}/resend`, {})).statusCode).toBe(
      409,
    );
    // Nothing was sent or counted for the refused ones.
    expect(await messages()).toEqual([]);
  });

  it("sends the link by the clinic's channel: WhatsApp once chosen and connected", async () => {
    const bySms = await send(frontDesk, { send_to_phone: '0527654321' });
    expect(bySms.sent_by).toBe('sms');
    await db.update(clinics).set({ messagingChannel: 'whatsapp' }).where(eq(clinics.id, clinicId));
    await db.insert(whatsappConnections).values({
      clinicId,
      wabaId: 'waba',
      phoneNumberId: 'phone',
      businessId: 'business',
      accessToken: 'sealed',
      connectedAt: new Date(now),
    });
    const byWhatsApp = await send(frontDesk, {
      send_to_phone: '0527654321',
      patient_id_number: yael.idNumber,
    });
    expect(byWhatsApp.sent_by).toBe('whatsapp');
    const resent = await call(frontDesk, 'POST', `/form-requests/${byWhatsApp.id}/resend`, {
      send_to_phone: '0527654321',
    });
    expect(resent.json<ResentFormRequest>().sent_by).toBe('whatsapp');
    const topics = (await db.select({ topic: outbox.topic }).from(outbox)).map((r) => r.topic);
    expect(topics.sort()).toEqual(['sms', 'whatsapp', 'whatsapp']);
  });

  it("never shows one clinic's requests to another", async () => {
    const link = await send(frontDesk, { patient_id_number: yael.idNumber });
    await publicPost('/api/submit', { token: tokenOf(link.url), inputData: answers });
    const pending = await send(frontDesk, { patient_id_number: yael.idNumber });
    for (const caller of [otherFrontDesk, { key: otherKey }]) {
      expect(await list(caller)).toEqual([]);
      expect(await list(caller, `?patient_id_number=${yael.idNumber}`)).toEqual([]);
      for (const [method, url] of [
        ['GET', `/form-requests/${link.id}`],
        ['GET', `/form-requests/${link.id}/submission`],
        ['GET', `/form-requests/${link.id}/submission.pdf`],
        ['POST', `/form-requests/${pending.id}/resend`],
        ['POST', `/form-requests/${pending.id}/cancel`],
      ] as const) {
        const response = await call(caller, method, url, method === 'POST' ? {} : undefined);
        expect(response.statusCode, `${method} ${url}`).toBe(404);
      }
    }
    // The other clinic's own patient of the same ID number is named with its own requests only.
    const elsewhere = await call({ key: otherKey }, 'POST', '/form-templates', {
      name: 'שאלון',
      schema,
    });
    const theirs = await call(otherFrontDesk, 'POST', '/form-requests', {
      template_id: elsewhere.json<FormTemplate>().id,
      patient_id_number: yael.idNumber,
    });
    expect(theirs.statusCode, theirs.body).toBe(201);
    expect((await list(otherFrontDesk)).map((r) => r.patient_name)).toEqual(['יעלי כהן']);
    expect((await list(frontDesk)).map((r) => r.patient_name)).toEqual(['יעל כהן', 'יעל כהן']);
    expect((await one(frontDesk, pending.id)).stage).toBe('sent');
  });

  it('lets the front desk and owners work with forms, and no one signed out', async () => {
    for (const caller of [frontDesk, owner]) {
      const link = await send(caller, { patient_id_number: yael.idNumber });
      expect((await call(caller, 'POST', `/form-requests/${link.id}/resend`, {})).statusCode).toBe(
        200,
      );
      expect((await call(caller, 'POST', `/form-requests/${link.id}/cancel`)).statusCode).toBe(200);
      expect((await call(caller, 'GET', '/form-templates')).statusCode).toBe(200);
    }
    const signedOut = await app.inject({
      method: 'POST',
      url: '/api/integration/form-requests/1/resend',
      payload: {},
      ...xsrf,
    });
    expect(signedOut.statusCode).toBe(401);
  });
});
