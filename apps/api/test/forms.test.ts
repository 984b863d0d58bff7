// Over 400 lines: its tests share one app and one database per engine (a file's set-up costs
// seconds an engine), so an API area stays one file.
import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  formSchemaSchema,
  maxTextAnswerLength,
  signatureMaxBytes,
  type InputData,
  withIdCheckDigit,
} from '@marpe/shared';
import type { App } from '../src/app.js';
import { parseFormLinkArgs, UsageError } from '../src/cli/form-link-args.js';
import { DEMO_CLINIC_ID } from '../src/demo/demo-clinic.js';
import { DEMO_FORM_NAME, demoFormSchema, seedDemoForm } from '../src/demo/demo-form.js';
import { seedDemoClinic } from '../src/demo/seed-demo-clinic.js';
import { encryptText, sealedAt, sealingKey } from '../src/platform/crypto.js';
import { headerImageOf } from '../src/platform/http/header-image.js';
import type { Database } from '../src/platform/db/client.js';
import {
  clinics,
  formDrafts,
  formRequests,
  formSubmissions,
  formTemplates,
} from '../src/platform/db/schema.js';
import { clinicRow } from './fixtures.js';
import { buildTestApp, engines, testConfig, useTestDatabase, xsrfPair } from './helper.js';

const DAY = 86_400_000;
const START = Date.parse('2027-03-24T10:00:00+02:00');

const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** A valid adult's answers to the demo form. */
const adult = (): InputData => ({
  first_name: 'דנה',
  last_name: 'לוי',
  id_number: withIdCheckDigit('03984512'),
  birth_date: '15/05/1990',
  phone: '050-1234567',
  email: 'dana@example.com',
  gender: 'female',
  last_visit_date: '',
  has_allergies: false,
  takes_medication: false,
  blood_thinners: false,
  diabetes: false,
  heart_disease: false,
  smoking: 'never',
  consent: true,
  patient_signature: PNG,
});

describe('form-link arguments', () => {
  it('reads the clinic, the template, initData pairs and days', () => {
    expect(
      parseFormLinkArgs([
        '--clinic',
        '3',
        '--template=7',
        '--init',
        'firstName=רון',
        'note=a=b',
        '--init',
        'lastName=',
        '--days',
        '10',
      ]),
    ).toEqual({
      clinicId: 3,
      templateId: 7,
      initData: { firstName: 'רון', note: 'a=b', lastName: '' },
      days: 10,
    });
    expect(parseFormLinkArgs(['--clinic', '1', '--template', '1']).days).toBe(30);
  });

  it.each([
    [[]],
    [['--clinic', '1']],
    [['--template', '1']],
    [['--clinic', 'x', '--template', '1']],
    [['--clinic', '0', '--template', '1']],
    [['--clinic', '1', '--template', '1', '--init']],
    [['--clinic', '1', '--template', '1', '--init', 'novalue']],
    [['--clinic', '1', '--template', '1', '--days', '400']],
    [['--clinic', '1', '--template', '1', '--bogus']],
  ])('refuses %j', (args) => {
    expect(() => parseFormLinkArgs(args)).toThrow(UsageError);
  });
});

describe('header image', () => {
  it('keeps absolute and root-relative URLs and roots a relative one', () => {
    expect(headerImageOf(null)).toBe('');
    expect(headerImageOf('https://cdn.example/logo.png')).toBe('https://cdn.example/logo.png');
    expect(headerImageOf('/demo/logo.svg')).toBe('/demo/logo.svg');
    expect(headerImageOf('demo/logo.svg')).toBe('/demo/logo.svg');
    expect(headerImageOf('//evil.example/x.png')).toBe('/evil.example/x.png');
  });
});

describe.each(engines)('intake forms (%s)', (engine) => {
  const database = useTestDatabase(engine);
  let app: App;
  let db: Database;
  let now: number;
  let clinicId: number;
  let templateId: number;
  let xsrf: Awaited<ReturnType<typeof xsrfPair>>;

  beforeAll(async () => {
    now = START;
    app = await buildTestApp(database.current.handle, {
      config: testConfig({ PUBLIC_ORIGIN: 'https://marpe.example' }),
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

  beforeEach(async () => {
    await database.current.reset();
    now = START;
    const [clinic] = await db
      .insert(clinics)
      .values({
        ...clinicRow('מרפאת הבדיקות'),
        logoUrl: '/logos/test.svg',
      })
      .returning({ id: clinics.id });
    clinicId = clinic?.id ?? 0;
    const [template] = await db
      .insert(formTemplates)
      .values({ clinicId, name: 'שאלון', schema: demoFormSchema })
      .returning({ id: formTemplates.id });
    templateId = template?.id ?? 0;
  });

  const newLink = (initData = { firstName: 'דנה', lastName: 'לוי', clinicName: 'מרפאה' }) =>
    app.forms.createLink({ clinicId, templateId, initData });

  const post = (url: string, payload: unknown) =>
    app.inject({ method: 'POST', url, payload: payload as object, ...xsrf });

  const getForm = (token: string) => post('/api/get-form', { token });
  const submit = (token: string, inputData: InputData) => post('/api/submit', { token, inputData });
  const saveDraft = (token: string, inputData: InputData, stepIndex = 0) =>
    post('/api/save-form-draft', { token, inputData, stepIndex });
  const draftRows = () => db.select().from(formDrafts);
  const submissionCount = async () =>
    (await db.select({ id: formSubmissions.id }).from(formSubmissions)).length;

  it('limits each address to 120 calls a minute of a link route, others unaffected', async () => {
    const link = await newLink();
    const from = (remoteAddress: string) =>
      app.inject({
        method: 'POST',
        url: '/api/get-form',
        payload: { token: link.token },
        remoteAddress,
        ...xsrf,
      });
    // One after another, as requests arrive: the in-memory store counts a burst within one tick
    // all at once.
    const answers = [];
    for (let i = 0; i < 121; i++) answers.push(await from('10.9.8.7'));
    const statuses = answers.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(120);
    expect(statuses.filter((s) => s === 429)).toHaveLength(1);
    expect((await from('10.9.8.8')).statusCode).toBe(200);
  });

  it('loads the form of a new link, privately', async () => {
    const link = await newLink();
    expect(link.url).toBe(`https://marpe.example/q/${link.token}`);
    expect(Buffer.from(link.token, 'base64url').length).toBeGreaterThanOrEqual(16);
    expect(link.expiresAt.getTime()).toBe(START + 30 * DAY);

    const response = await getForm(link.token);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.json()).toEqual({
      data: {
        schema: formSchemaSchema.parse(demoFormSchema),
        initData: { firstName: 'דנה', lastName: 'לוי', clinicName: 'מרפאה' },
        headerImage: '/logos/test.svg',
      },
      draft: null,
      // The clinic that sent the link, which the completed and expired pages name.
      clinicId,
    });

    // Only the token's hash is stored, and initData (it names the patient) is encrypted.
    const [row] = await db.select().from(formRequests);
    expect(row?.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(link.token);
    expect(row?.initData).not.toContain('דנה');
  });

  it('answers 404 to an unknown, an expired and a used link, privately', async () => {
    const unknown = await getForm('no-such-token');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['cache-control']).toBe('no-store');
    expect(unknown.headers['referrer-policy']).toBe('no-referrer');
    expect((await submit('no-such-token', adult())).statusCode).toBe(404);

    const expiring = await newLink();
    now = START + 30 * DAY - 1;
    expect((await getForm(expiring.token)).statusCode).toBe(200);
    now = START + 30 * DAY;
    expect((await getForm(expiring.token)).statusCode).toBe(404);
    expect((await submit(expiring.token, adult())).statusCode).toBe(404);

    now = START;
    const used = await newLink();
    expect((await submit(used.token, adult())).statusCode).toBe(200);
    expect((await getForm(used.token)).statusCode).toBe(404);
  });

  it('says how a known link ended and whose it was, so the page can say it; nothing of an unknown one', async () => {
    expect((await getForm('no-such-token')).json()).not.toHaveProperty('details');

    const used = await newLink();
    expect((await submit(used.token, adult())).statusCode).toBe(200);
    // The person who just sent it is told it arrived, with the clinic's phone: no more than that.
    expect((await getForm(used.token)).json()).toEqual({
      code: 'not_found',
      message: expect.any(String),
      details: { ended: 'submitted', clinicId },
    });

    const cancelled = await newLink();
    await db.transaction((tx) => app.forms.cancelRequest(tx, clinicId, cancelled.requestId));
    expect((await getForm(cancelled.token)).json()).toMatchObject({
      details: { ended: 'cancelled', clinicId },
    });

    const expiring = await newLink();
    now = START + 30 * DAY;
    expect((await getForm(expiring.token)).json()).toMatchObject({
      details: { ended: 'expired', clinicId },
    });
  });

  describe('drafts', () => {
    const half = (): InputData => ({
      first_name: '  דנה ',
      email: 'not-yet@',
      birth_date: '15/05',
      has_allergies: true,
      patient_signature: PNG,
    });

    it('keeps the unsent answers and step encrypted, and get-form (any device) resumes them', async () => {
      const link = await newLink();
      const saved = await saveDraft(link.token, half(), 1);
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json()).toEqual({ status: 'ok' });
      expect(saved.headers['cache-control']).toBe('no-store');

      // A later save replaces it.
      expect((await saveDraft(link.token, { ...half(), last_name: 'לוי' }, 2)).statusCode).toBe(
        200,
      );
      const loaded = await getForm(link.token);
      expect(loaded.json().draft).toEqual({
        inputData: { ...half(), last_name: 'לוי' },
        stepIndex: 2,
      });

      const rows = await draftRows();
      expect(rows).toHaveLength(1);
      const raw = JSON.stringify(rows);
      for (const secret of ['דנה', 'לוי', 'not-yet', 'iVBORw0KGgo']) {
        expect(raw).not.toContain(secret);
      }
    });

    it('refuses what the form cannot hold, naming it, and keeps the last good draft', async () => {
      const link = await newLink();
      expect((await saveDraft(link.token, half())).statusCode).toBe(200);
      for (const [inputData, stepIndex, path] of [
        [{ nope: 'x' }, 0, 'nope'],
        [{ has_allergies: 'yes' }, 0, 'has_allergies'],
        [{ gender: 'unicorn' }, 0, 'gender'],
        [{ patient_signature: 'data:text/html,<b>' }, 0, 'patient_signature'],
        [{}, 99, 'stepIndex'],
      ] as const) {
        const refused = await saveDraft(link.token, inputData, stepIndex);
        expect(refused.statusCode, refused.body).toBe(400);
        expect(refused.json().details.issues.map((i: { path: string }) => i.path)).toContain(path);
      }
      expect((await post('/api/save-form-draft', { token: link.token })).statusCode).toBe(400);
      expect((await getForm(link.token)).json().draft).toEqual({ inputData: half(), stepIndex: 0 });
    });

    it('bounds each value as a submission does, and drops lone surrogates as the page cleans text', async () => {
      const link = await newLink();
      const long = 'א'.repeat(maxTextAnswerLength + 1);
      for (const answers of [{ last_name: long }, { email: `${long}@x.co` }] as InputData[]) {
        const draft = await saveDraft(link.token, answers);
        expect(draft.statusCode, draft.body).toBe(400);
        expect(draft.json().details.issues).toEqual([
          { path: Object.keys(answers)[0], message: 'too_long' },
        ]);
        const submitted = await submit(link.token, { ...adult(), ...answers });
        expect(submitted.statusCode).toBe(400);
        expect(submitted.json().details.issues).toEqual([
          { path: Object.keys(answers)[0], message: 'too_long' },
        ]);
      }
      const longest = { ...half(), medications: 'א'.repeat(maxTextAnswerLength) };
      expect((await saveDraft(link.token, longest)).statusCode).toBe(200);

      // A lone surrogate (a pasted, half-cut emoji) is dropped from answers, never a 500.
      const surrogate = await post('/api/save-form-draft', {
        token: link.token,
        inputData: { first_name: 'דנ\udfffה' },
        stepIndex: 0,
      });
      expect(surrogate.statusCode, surrogate.body).toBe(200);
      expect((await getForm(link.token)).json().draft.inputData).toEqual({ first_name: 'דנה' });
      // Elsewhere in the body it is refused, naming the field.
      const token = await post('/api/get-form', { token: 'x\udfff' });
      expect(token.statusCode).toBe(400);
      expect(token.json().details.issues).toEqual([
        { path: 'token', message: expect.stringContaining('surrogate') },
      ]);
    });

    it('drops a draft it can no longer decrypt, and still serves the form', async () => {
      const link = await newLink();
      expect((await saveDraft(link.token, half())).statusCode).toBe(200);
      // Sealed under a key the server no longer holds (DATA_KEY replaced without
      // DATA_KEY_PREVIOUS).
      const lost = sealingKey(randomBytes(32), 'forms');
      await db.update(formDrafts).set({
        draft: encryptText(
          lost,
          JSON.stringify({ inputData: half(), stepIndex: 0 }),
          sealedAt('form_drafts', 'draft', link.requestId),
        ),
      });
      const loaded = await getForm(link.token);
      expect(loaded.statusCode, loaded.body).toBe(200);
      expect(loaded.json().draft).toBeNull();
      expect(await draftRows()).toEqual([]);
      expect((await saveDraft(link.token, half())).statusCode).toBe(200);
      expect((await getForm(link.token)).json().draft).toEqual({ inputData: half(), stepIndex: 0 });
    });

    it('is deleted with the submit, and a save after it finds the link used', async () => {
      const link = await newLink();
      expect((await saveDraft(link.token, half())).statusCode).toBe(200);
      expect((await submit(link.token, adult())).statusCode).toBe(200);
      expect(await draftRows()).toEqual([]);
      expect((await saveDraft(link.token, half())).statusCode).toBe(404);
      expect(await draftRows()).toEqual([]);
    });

    it('is deleted when the link expires or is cancelled, and never served after', async () => {
      const expiring = await newLink();
      const cancelled = await newLink();
      const other = await newLink();
      for (const link of [expiring, cancelled, other]) {
        expect((await saveDraft(link.token, half())).statusCode).toBe(200);
      }
      await db.transaction((tx) => app.forms.cancelRequest(tx, clinicId, cancelled.requestId));
      expect(await draftRows()).toHaveLength(2);

      // Well past the expiry (and any earlier test's clock), so the periodic prune is due.
      now = START + 60 * DAY;
      expect((await saveDraft(expiring.token, half())).statusCode).toBe(404);
      expect((await getForm(expiring.token)).statusCode).toBe(404);
      // The expired links' drafts are gone, whether or not anyone opens them again.
      expect(await draftRows()).toEqual([]);
      expect((await getForm(other.token)).statusCode).toBe(404);
    });

    it('answers 404 for an unknown link', async () => {
      expect((await saveDraft('no-such-token', half())).statusCode).toBe(404);
    });
  });

  it('needs the XSRF header like every POST', async () => {
    const link = await newLink();
    const response = await app.inject({
      method: 'POST',
      url: '/api/get-form',
      payload: { token: link.token },
      cookies: xsrf.cookies,
    });
    expect(response.statusCode).toBe(403);
  });

  it('stores valid answers encrypted, once, and uses the link', async () => {
    const link = await newLink();
    const response = await submit(link.token, { ...adult(), first_name: '  דנה ' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['referrer-policy']).toBe('no-referrer');

    const [request] = await db.select().from(formRequests);
    expect(request?.status).toBe('submitted');
    expect(request?.submittedAt?.getTime()).toBe(START);

    const rows = await db.execute(sql`SELECT * FROM form_submissions`);
    const raw = JSON.stringify((rows as unknown as { rows: unknown[] }).rows);
    for (const secret of ['דנה', 'dana@example.com', '1234567', 'iVBORw0KGgo', 'female']) {
      expect(raw).not.toContain(secret);
    }

    const answers = await app.forms.readSubmission(link.requestId);
    expect(answers?.values).toEqual({ ...adult(), first_name: 'דנה' });
    expect(answers?.clientAddress).toBe('127.0.0.1');
  });

  it('refuses invalid answers with the failing field names and keeps the link', async () => {
    const link = await newLink();
    const response = await submit(link.token, {
      ...adult(),
      first_name: '',
      id_number: '12',
      phone: '123',
      email: 'not-an-email',
      birth_date: '31/02/1990',
      gender: 'robot',
      consent: false,
    });
    expect(response.statusCode).toBe(400);
    const body = response.json<{ code: string; details: { issues: { path: string }[] } }>();
    expect(body.code).toBe('validation_failed');
    expect(body.details.issues.map((i) => i.path).sort()).toEqual(
      ['birth_date', 'consent', 'email', 'first_name', 'gender', 'id_number', 'phone'].sort(),
    );
    expect(await submissionCount()).toBe(0);
    expect((await getForm(link.token)).statusCode).toBe(200);
  });

  it('requires a field its checkbox shows, and drops a hidden field’s value', async () => {
    const link = await newLink();
    const missing = await submit(link.token, { ...adult(), has_allergies: true });
    expect(missing.statusCode).toBe(400);
    expect(missing.json<{ message: string }>().message).toContain('allergies_details');

    // Hidden: the checkbox is off, so the value is not stored.
    const hidden = await submit(link.token, { ...adult(), allergies_details: 'פניצילין' });
    expect(hidden.statusCode).toBe(200);
    const answers = await app.forms.readSubmission(link.requestId);
    expect(answers?.values).not.toHaveProperty('allergies_details');
  });

  it('refuses a key that names no field', async () => {
    const link = await newLink();
    const response = await submit(link.token, { ...adult(), is_admin: true });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ message: string }>().message).toContain('is_admin');
  });

  it('asks a minor for the guardian’s details and signature instead of the patient’s', async () => {
    const link = await newLink();
    const minor = { ...adult(), birth_date: '01/01/2015' };
    const response = await submit(link.token, minor);
    expect(response.statusCode).toBe(400);
    const fields = response
      .json<{ details: { issues: { path: string }[] } }>()
      .details.issues.map((i) => i.path);
    expect(fields.sort()).toEqual(['guardian_id_number', 'guardian_name', 'guardian_signature']);

    const ok = await submit(link.token, {
      ...minor,
      guardian_name: 'משה לוי',
      guardian_id_number: withIdCheckDigit('01234567'),
      guardian_signature: PNG,
    });
    expect(ok.statusCode).toBe(200);
    const answers = await app.forms.readSubmission(link.requestId);
    // The patient's own signature is hidden under 18: dropped.
    expect(answers?.values).not.toHaveProperty('patient_signature');
    expect(answers?.values.guardian_signature).toBe(PNG);
  });

  it.each([
    ['a GIF', 'data:image/gif;base64,R0lGODlhAQABAAAAACw='],
    ['a remote URL', 'https://evil.example/sig.png'],
    ['HTML', 'data:text/html;base64,PHNjcmlwdD4='],
    ['a checkbox value', true],
    ['too large', `data:image/png;base64,${'A'.repeat(signatureMaxBytes)}`],
  ])('refuses a signature that is %s', async (_what, signature) => {
    const link = await newLink();
    const response = await submit(link.token, { ...adult(), patient_signature: signature });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ message: string }>().message).toContain('patient_signature');
    expect(await submissionCount()).toBe(0);
  });

  it('answers ok to the same answers again, and 404 to different ones', async () => {
    const link = await newLink();
    expect((await submit(link.token, adult())).statusCode).toBe(200);
    now += 60_000;
    const again = await submit(link.token, adult());
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ status: 'ok' });
    // Key order and hidden values do not change what was stored.
    const reordered = Object.fromEntries(Object.entries(adult()).reverse());
    expect((await submit(link.token, { ...reordered, medications: 'x' })).statusCode).toBe(200);
    expect(await submissionCount()).toBe(1);

    expect((await submit(link.token, { ...adult(), smoking: 'past' })).statusCode).toBe(404);
    expect((await submit(link.token, { ...adult(), first_name: '' })).statusCode).toBe(404);
    expect(await submissionCount()).toBe(1);

    // Past the resubmit window the link is simply used.
    now = START + 2 * DAY;
    expect((await submit(link.token, adult())).statusCode).toBe(404);
  });

  it('stores one submission when two submits race', async () => {
    const link = await newLink();
    const results = await Promise.all([
      submit(link.token, adult()),
      submit(link.token, adult()),
      submit(link.token, adult()),
    ]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(await submissionCount()).toBe(1);

    const other = await newLink();
    const mixed = await Promise.all([
      submit(other.token, adult()),
      submit(other.token, { ...adult(), smoking: 'current' }),
    ]);
    expect(mixed.map((r) => r.statusCode).sort()).toEqual([200, 404]);
    expect(await submissionCount()).toBe(2);
  });

  it('validates against the link’s snapshot, not the edited template', async () => {
    const link = await newLink();
    await db
      .update(formTemplates)
      .set({ schema: [{ title: 'x', next_button: 'x', fields: [] }] })
      .where(eq(formTemplates.id, templateId));
    expect((await submit(link.token, adult())).statusCode).toBe(200);
  });

  it('seeds the demo form idempotently', async () => {
    await seedDemoClinic(db, { now });
    const first = await seedDemoForm(db);
    expect(await seedDemoForm(db)).toBe(first);
    const rows = await db
      .select()
      .from(formTemplates)
      .where(eq(formTemplates.clinicId, DEMO_CLINIC_ID));
    expect(rows.map((r) => r.name)).toEqual([DEMO_FORM_NAME]);
    expect(formSchemaSchema.safeParse(rows[0]?.schema).success).toBe(true);
  });
});

describe.each(engines)('demo links (%s)', (engine) => {
  const database = useTestDatabase(engine);

  it('POST /api/dev/demo-links mints a working demo form link, in demo mode only', async () => {
    await seedDemoClinic(database.current.handle.db, { now: START });
    const demo = await buildTestApp(database.current.handle, {
      config: testConfig({ DEMO: 'true', PUBLIC_ORIGIN: 'https://demo.example' }),
      clock: () => START,
      outboxPollIntervalMs: 3_600_000,
    });
    try {
      await demo.ready();
      const xsrf = await xsrfPair(demo);
      const response = await demo.inject({ method: 'POST', url: '/api/dev/demo-links', ...xsrf });
      expect(response.statusCode).toBe(200);
      const { formUrl } = response.json<{ formUrl: string }>();
      expect(formUrl).toMatch(/^https:\/\/demo\.example\/q\/[\w-]{43}$/);
      const token = formUrl.split('/q/')[1] ?? '';
      const form = await demo.inject({
        method: 'POST',
        url: '/api/get-form',
        payload: { token },
        ...xsrf,
      });
      expect(form.statusCode).toBe(200);
      expect(form.json<{ data: { headerImage: string } }>().data.headerImage).toBe(
        '/demo/clinic-logo.svg',
      );
    } finally {
      await demo.close();
    }

    const plain = await buildTestApp(database.current.handle, {
      config: testConfig({
        DEMO: 'false',
        SMS_PROVIDER: 'http',
        SMS_HTTP_URL: 'http://127.0.0.1:9/sms',
        SMS_HTTP_TOKEN: 'unused',
        SMS_SENDER: 'Marpe',
      }),
      outboxPollIntervalMs: 3_600_000,
    });
    try {
      await plain.ready();
      const xsrf = await xsrfPair(plain);
      const response = await plain.inject({ method: 'POST', url: '/api/dev/demo-links', ...xsrf });
      expect(response.statusCode).toBe(404);
    } finally {
      await plain.close();
    }
  });
});
