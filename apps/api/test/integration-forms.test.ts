// Over 400 lines: its tests share one app and one database per engine (a file's set-up costs
// seconds an engine), so an API area stays one file.
import { and, eq } from 'drizzle-orm';
import { getDocument, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  formSchemaSchema,
  type CreatedFormRequest,
  type FormRequest,
  type FormSchema,
  type FormTemplate,
  type FormTemplateSummary,
  type InputData,
  withIdCheckDigit,
} from '@marpe/shared';
import type { App } from '../src/app.js';
import { demoFormSchema } from '../src/demo/demo-form.js';
import type { Database } from '../src/platform/db/client.js';
import { auditLog, clinics, formRequests } from '../src/platform/db/schema.js';
import { clinicRow } from './fixtures.js';
import {
  buildTestApp,
  engines,
  testConfig,
  useSentMessages,
  useTestDatabase,
  xsrfPair,
} from './helper.js';

const DAY = 86_400_000;
/** Wednesday 2027-03-24, 10:00 in Israel (UTC+2). */
const START = Date.parse('2027-03-24T10:00:00+02:00');
const ORIGIN = 'https://marpe.example';

const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const SVG = `data:image/svg+xml;base64,${Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="100" viewBox="0 0 300 100"><path d="M10 80 C 40 10, 65 10, 95 80 S 150 150, 180 80" stroke="black" stroke-width="3" fill="none"/></svg>',
).toString('base64')}`;

const ALLERGIES = 'אלרגיה לפניצילין מגיל 12, תגובה קשה מאוד.';

/** An adult's answers to the demo form, with an allergy described in a Hebrew sentence. */
const answers = (): InputData => ({
  first_name: 'דנה',
  last_name: 'לוי',
  id_number: withIdCheckDigit('03984512'),
  birth_date: '15/05/1990',
  phone: '050-1234567',
  email: 'dana@example.com',
  gender: 'female',
  last_visit_date: '',
  has_allergies: true,
  allergies_details: ALLERGIES,
  takes_medication: false,
  blood_thinners: false,
  diabetes: true,
  heart_disease: false,
  smoking: 'past',
  consent: true,
  patient_signature: PNG,
});

interface PdfText {
  pages: number;
  /** Each text item: its string and where it ends on the page (points from the left). */
  items: { str: string; left: number; right: number }[];
  images: number;
  pageWidth: number;
}

async function readPdf(bytes: Buffer): Promise<PdfText> {
  const pdf = await getDocument({ data: new Uint8Array(bytes), isEvalSupported: false }).promise;
  const items: PdfText['items'] = [];
  let images = 0;
  let pageWidth = 0;
  for (let n = 1; n <= pdf.numPages; n++) {
    const page = await pdf.getPage(n);
    pageWidth = page.getViewport({ scale: 1 }).width;
    const content = await page.getTextContent();
    for (const item of content.items) {
      if (!('str' in item) || item.str.trim() === '') continue;
      const left = item.transform[4] as number;
      items.push({ str: item.str, left, right: left + item.width });
    }
    const operators = await page.getOperatorList();
    images += operators.fnArray.filter((fn) => fn === OPS.paintImageXObject).length;
  }
  await pdf.destroy();
  return { pages: pdf.numPages, items, images, pageWidth };
}

const texts = (pdf: PdfText) => pdf.items.map((item) => item.str);

describe.each(engines)('integration API: intake forms (%s)', (engine) => {
  const database = useTestDatabase(engine);
  let app: App;
  let db: Database;
  let now: number;
  let xsrf: Awaited<ReturnType<typeof xsrfPair>>;
  let a: { id: number; key: string; keyId: number };
  let b: { id: number; key: string; keyId: number };

  beforeAll(async () => {
    now = START;
    app = await buildTestApp(database.current.handle, {
      config: testConfig({ PUBLIC_ORIGIN: ORIGIN }),
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

  async function insertClinic(name: string) {
    const [row] = await db
      .insert(clinics)
      .values({
        ...clinicRow(name),
      })
      .returning({ id: clinics.id });
    if (!row) throw new Error('fixture: clinic');
    const created = await app.apiKeys.create(row.id, 'pms', 'test');
    return { id: row.id, key: created.key, keyId: created.id };
  }

  beforeEach(async () => {
    await database.current.reset();
    now = START;
    a = await insertClinic('מרפאת השן הלבנה');
    b = await insertClinic('מרפאה אחרת');
  });

  const messages = useSentMessages(() => app);

  const call = (
    key: string | null,
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
  ) =>
    app.inject({
      method,
      url: `/api/integration${url}`,
      payload,
      headers: key === null ? {} : { authorization: `Bearer ${key}` },
    });

  const issuePaths = (response: Awaited<ReturnType<typeof call>>) => {
    expect(response.statusCode, response.body).toBe(400);
    const body = response.json<{ code: string; details: { issues: { path: string }[] } }>();
    expect(body.code).toBe('validation_failed');
    return body.details.issues.map((issue) => issue.path);
  };

  const createTemplate = async (name: string, schema: unknown, key = a.key) => {
    const response = await call(key, 'POST', '/form-templates', { name, schema });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<FormTemplate>();
  };

  const createRequest = async (payload: object, key = a.key) => {
    const response = await call(key, 'POST', '/form-requests', payload);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<CreatedFormRequest>();
  };

  const tokenOf = (url: string) => url.slice(`${ORIGIN}/q/`.length);
  const publicPost = (url: string, payload: object) =>
    app.inject({ method: 'POST', url, payload, ...xsrf });
  const submit = (url: string, inputData: InputData) =>
    publicPost('/api/submit', { token: tokenOf(url), inputData });

  /** The clinic's audit entries about forms, oldest first. */
  const auditActions = async () =>
    (await db.select().from(auditLog).where(eq(auditLog.clinicId, a.id)).orderBy(auditLog.id))
      .filter((row) => row.action.startsWith('form_'))
      .map((row) => `${row.action} ${row.targetId} ${row.actor}`);

  it('answers 401 without a live key', async () => {
    const routes: [Parameters<typeof call>[1], string][] = [
      ['GET', '/form-templates'],
      ['POST', '/form-templates'],
      ['GET', '/form-templates/1'],
      ['PUT', '/form-templates/1'],
      ['PATCH', '/form-templates/1'],
      ['DELETE', '/form-templates/1'],
      ['GET', '/form-requests'],
      ['POST', '/form-requests'],
      ['GET', '/form-requests/1'],
      ['POST', '/form-requests/1/cancel'],
      ['GET', '/form-requests/1/submission'],
      ['GET', '/form-requests/1/submission.pdf'],
    ];
    for (const [method, url] of routes) {
      expect((await call(null, method, url)).statusCode, `${method} ${url}`).toBe(401);
      expect((await call('mrp_not-a-key', method, url)).statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('refuses unsound templates, naming the path', async () => {
    const step = (fields: unknown[], extra: object = {}) => [
      { title: 'שלב', next_button: 'הבא', fields, ...extra },
    ];
    const text = (name: string, extra: object = {}) => ({
      name,
      type: 'text',
      title: name,
      ...extra,
    });
    const cases: [unknown, string][] = [
      [[], 'schema'],
      [step([{ name: 'x', type: 'colour' }]), 'schema.0.fields.0.type'],
      [step([text('a'), text('b', { condition: 'a' })]), 'schema.0.fields.1'],
      [step([text('a'), { name: 'b', type: 'select', title: 'b' }]), 'schema.0.fields.1.options'],
      [
        step([
          {
            name: 's',
            type: 'select',
            options: [
              { value: 'x', label: 'X' },
              { value: 'x', label: 'Y' },
            ],
          },
        ]),
        'schema.0.fields.0.options.1.value',
      ],
      [
        step([{ name: 's', type: 'select', options: [{ value: 'x', label: 'X' }], default: 'y' }]),
        'schema.0.fields.0.default',
      ],
      [step([text('a', { options: [{ value: 'x', label: 'X' }] })]), 'schema.0.fields.0.options'],
      [step([text('a'), text('b', { conditions: 'nobody' })]), 'schema.0.fields.1.conditions'],
      [step([text('a', { conditions: 'a' })]), 'schema.0.fields.0.conditions'],
      [
        step([text('a', { conditions: 'b' }), text('b', { conditions: 'a' })]),
        'schema.0.fields.1.conditions',
      ],
      [
        step([{ name: 'c', type: 'checkbox' }, text('b', { conditions: 'c:age>18' })]),
        'schema.0.fields.1.conditions',
      ],
      [
        step([{ name: 'intro', type: 'title' }, text('b', { conditions: 'intro' })]),
        'schema.0.fields.1.conditions',
      ],
      [step([text('a'), { name: 'a', type: 'checkbox' }]), 'schema.0.fields.1.name'],
      [step([{ name: 'c', type: 'checkbox', default: 'yes' }]), 'schema.0.fields.0.default'],
      [
        step([{ name: 'c', type: 'checkbox', validations: ['required', 'emailFormat'] }]),
        'schema.0.fields.0.validations.1',
      ],
      [step([text('a')], { nextButton: 'x' }), 'schema.0'],
    ];
    for (const [schema, path] of cases) {
      const response = await call(a.key, 'POST', '/form-templates', { name: 'טופס', schema });
      expect(issuePaths(response), JSON.stringify(schema)).toContain(path);
    }
    const unnamed = await call(a.key, 'POST', '/form-templates', { name: ' ', schema: step([]) });
    expect(issuePaths(unnamed)).toContain('name');
    // The checks name what is wrong, not only where.
    const loop = await call(a.key, 'POST', '/form-templates', {
      name: 'טופס',
      schema: step([text('a', { conditions: 'b' }), text('b', { conditions: 'a' })]),
    });
    expect(loop.body).toContain('loop');
    expect(await auditActions()).toEqual([]);
  });

  it('creates, reads, lists, replaces, patches and deletes templates, audited', async () => {
    const created = await createTemplate('שאלון רפואי', demoFormSchema);
    expect(created).toMatchObject({
      name: 'שאלון רפואי',
      created_at: new Date(START).toISOString(),
    });
    expect(created.schema).toEqual(formSchemaSchema.parse(demoFormSchema));

    const one = await call(a.key, 'GET', `/form-templates/${created.id}`);
    expect(one.json()).toEqual(created);
    const list = await call(a.key, 'GET', '/form-templates');
    expect(list.json<FormTemplateSummary[]>()).toEqual([
      {
        id: created.id,
        name: 'שאלון רפואי',
        created_at: created.created_at,
        updated_at: created.updated_at,
      },
    ]);

    // Names are unique per clinic, not across clinics.
    const duplicate = await call(a.key, 'POST', '/form-templates', {
      name: 'שאלון רפואי',
      schema: demoFormSchema,
    });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json<{ code: string }>().code).toBe('conflict');
    await createTemplate('שאלון רפואי', demoFormSchema, b.key);

    now += 60_000;
    const small: FormSchema = [
      {
        title: 'פרטים',
        next_button: 'שליחה',
        fields: [{ name: 'full_name', type: 'text', title: 'שם מלא', validations: ['required'] }],
      },
    ];
    const replaced = await call(a.key, 'PUT', `/form-templates/${created.id}`, {
      name: 'שאלון קצר',
      schema: small,
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json<FormTemplate>()).toMatchObject({
      name: 'שאלון קצר',
      schema: formSchemaSchema.parse(small),
      updated_at: new Date(now).toISOString(),
    });
    expect(
      issuePaths(await call(a.key, 'PUT', `/form-templates/${created.id}`, { name: 'x' })),
    ).toContain('schema');

    const patched = await call(a.key, 'PATCH', `/form-templates/${created.id}`, { name: 'שאלון' });
    expect(patched.json<FormTemplate>()).toMatchObject({
      name: 'שאלון',
      schema: formSchemaSchema.parse(small),
    });
    expect((await call(a.key, 'PATCH', `/form-templates/${created.id}`, {})).statusCode).toBe(400);
    expect(
      issuePaths(
        await call(a.key, 'PATCH', `/form-templates/${created.id}`, {
          schema: [{ title: 'x', next_button: 'x', fields: [{ name: 'q', type: 'select' }] }],
        }),
      ),
    ).toContain('schema.0.fields.0.options');
    const other = await createTemplate('אחר', small);
    expect(
      (await call(a.key, 'PATCH', `/form-templates/${other.id}`, { name: 'שאלון' })).statusCode,
    ).toBe(409);

    // A link made before the delete keeps working with its own copy of the form.
    const link = await createRequest({ template_id: created.id });
    const deleted = await call(a.key, 'DELETE', `/form-templates/${created.id}`);
    expect(deleted.statusCode).toBe(204);
    expect((await call(a.key, 'GET', `/form-templates/${created.id}`)).statusCode).toBe(404);
    expect((await call(a.key, 'DELETE', `/form-templates/${created.id}`)).statusCode).toBe(404);
    const form = await publicPost('/api/get-form', { token: tokenOf(link.url) });
    expect(form.statusCode).toBe(200);
    expect(form.json<{ data: { schema: FormSchema } }>().data.schema).toEqual(
      formSchemaSchema.parse(small),
    );
    // …and the template's name as it was then, for the list and the PDF's header.
    const request = await call(a.key, 'GET', `/form-requests/${link.id}`);
    expect(request.json<FormRequest>()).toMatchObject({
      template_id: null,
      template_name: 'שאלון',
    });
    const sent = await publicPost('/api/submit', {
      token: tokenOf(link.url),
      inputData: { full_name: 'דנה לוי' },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const pdf = await call(a.key, 'GET', `/form-requests/${link.id}/submission.pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(texts(await readPdf(pdf.rawPayload))).toEqual(
      expect.arrayContaining(['שאלון', 'דנה לוי']),
    );

    const actor = `api_key:${a.keyId}`;
    expect(await auditActions()).toEqual([
      `form_template.create ${created.id} ${actor}`,
      `form_template.update ${created.id} ${actor}`,
      `form_template.update ${created.id} ${actor}`,
      `form_template.create ${other.id} ${actor}`,
      `form_request.create ${link.id} ${actor}`,
      `form_template.delete ${created.id} ${actor}`,
    ]);
  });

  it('makes a link the patient fills in, and serves the answers', async () => {
    const template = await createTemplate('שאלון רפואי', demoFormSchema);
    const link = await createRequest({
      template_id: template.id,
      init_data: { firstName: 'דנה', lastName: 'לוי', clinicName: 'מרפאת השן הלבנה' },
      expires_in_days: 7,
    });
    expect(link).toEqual({
      id: link.id,
      url: expect.stringMatching(/^https:\/\/marpe\.example\/q\/[\w-]{43}$/),
      expires_at: new Date(START + 7 * DAY).toISOString(),
      status: 'pending',
      sent_by: null,
    });

    const form = await publicPost('/api/get-form', { token: tokenOf(link.url) });
    expect(form.statusCode).toBe(200);
    expect(form.json<{ data: { initData: object } }>().data.initData).toEqual({
      firstName: 'דנה',
      lastName: 'לוי',
      clinicName: 'מרפאת השן הלבנה',
    });

    const before = await call(a.key, 'GET', `/form-requests/${link.id}/submission`);
    expect(before.statusCode).toBe(404);
    expect((await call(a.key, 'GET', `/form-requests/${link.id}/submission.pdf`)).statusCode).toBe(
      404,
    );

    now += 3_600_000;
    expect((await submit(link.url, answers())).statusCode).toBe(200);

    const submission = await call(a.key, 'GET', `/form-requests/${link.id}/submission`);
    expect(submission.statusCode).toBe(200);
    expect(submission.headers['cache-control']).toBe('no-store');
    expect(submission.json()).toEqual({
      values: answers(),
      submitted_at: new Date(START + 3_600_000).toISOString(),
      schema: expect.any(Array),
    });

    const request = await call(a.key, 'GET', `/form-requests/${link.id}`);
    expect(request.json()).toEqual({
      id: link.id,
      patient_id_number: '',
      patient_name: '',
      stage: 'submitted',
      opened_at: new Date(START).toISOString(),
      draft_saved_at: null,
      template_id: template.id,
      template_name: 'שאלון רפואי',
      status: 'submitted',
      created_at: new Date(START).toISOString(),
      expires_at: new Date(START + 7 * DAY).toISOString(),
      submitted_at: new Date(START + 3_600_000).toISOString(),
    });
    expect(request.body).not.toContain(tokenOf(link.url));
  });

  it('prints the submitted form: Hebrew in reading order, visible answers, signature, time', async () => {
    const template = await createTemplate('שאלון רפואי', demoFormSchema);
    const link = await createRequest({
      template_id: template.id,
      init_data: { firstName: 'דנה', lastName: 'לוי', clinicName: 'מרפאת השן הלבנה' },
    });
    expect((await submit(link.url, answers())).statusCode).toBe(200);

    const response = await call(a.key, 'GET', `/form-requests/${link.id}/submission.pdf`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="form-${link.id}.pdf"`,
    );
    expect(response.headers['cache-control']).toBe('no-store');
    const bytes = response.rawPayload;
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(bytes.toString('latin1')).toMatch(/\/Subtype \/Image/);

    const pdf = await readPdf(bytes);
    const lines = texts(pdf);
    // The same text layer however many PDFs the process made before (fonts are per document).
    const again = await call(a.key, 'GET', `/form-requests/${link.id}/submission.pdf`);
    expect(texts(await readPdf(again.rawPayload))).toEqual(lines);
    // pdf.js undoes the visual order when it extracts: logical (reading) order comes back.
    expect(lines).toEqual(expect.arrayContaining(['מרפאת השן הלבנה', 'שאלון רפואי']));
    expect(lines).toContain('מועד ההגשה: 24/03/2027 10:00');
    expect(lines).toContain('דנה');
    expect(lines).toContain('לוי');
    expect(lines).toContain(ALLERGIES);
    expect(lines.some((line) => line.includes('אני, דנה לוי, מצהיר/ה כי הפרטים'))).toBe(true);
    expect(lines).toContain('050-1234567');
    expect(lines).toContain('dana@example.com');
    // Section text, and each answer after its label; selects by label, checkboxes as yes/no.
    expect(lines).toEqual(expect.arrayContaining(['שלום דנה,', 'היסטוריה רפואית']));
    const after = (label: string) => lines[lines.indexOf(label) + 1];
    expect(after('מין')).toBe('נקבה');
    expect(after('עישון')).toBe('עישנתי בעבר');
    expect(after('סוכרת')).toBe('כן');
    expect(after('אני נוטל/ת מדללי דם')).toBe('לא');
    expect(lines).not.toContain('female');
    // Hidden by their conditions: the medication question, the guardian's part.
    expect(lines).not.toContain('אילו תרופות?');
    expect(lines.join('\n')).not.toContain('אפוטרופוס');
    // Unanswered: the last visit.
    expect(lines.join('\n')).not.toContain('מועד הביקור האחרון');
    expect(pdf.images).toBe(1);
    expect(lines).toContain('חתימת המטופל/ת');
    // Right to left: lines end at the right margin.
    const name = pdf.items.find((item) => item.str === 'מרפאת השן הלבנה');
    expect(name?.right).toBeCloseTo(pdf.pageWidth - 56, 0);
    expect(lines).toContain(`טופס ${link.id} · עמוד 1 מתוך ${pdf.pages}`);
  });

  it('prints a left-to-right form left to right, with an SVG signature as an image', async () => {
    const template = await createTemplate('Consent', [
      {
        title: 'Details',
        next_button: 'Send',
        is_ltr: true,
        fields: [
          { name: 'full_name', type: 'text', title: 'Full name', validations: ['required'] },
          { name: 'agree', type: 'checkbox', title: 'I agree', validations: ['required'] },
          { name: 'signature', type: 'signature', title: 'Signature', conditions: 'agree' },
        ],
      },
    ]);
    const link = await createRequest({ template_id: template.id });
    const sent = { full_name: 'Dana Levi', agree: true, signature: SVG };
    expect((await submit(link.url, sent)).statusCode).toBe(200);
    // Rasterised once at submit: clinic software is handed a PNG, never the SVG.
    const stored = (await call(a.key, 'GET', `/form-requests/${link.id}/submission`)).json<{
      values: { signature: string };
    }>();
    expect(stored.values.signature).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);
    const response = await call(a.key, 'GET', `/form-requests/${link.id}/submission.pdf`);
    const pdf = await readPdf(response.rawPayload);
    const lines = texts(pdf);
    expect(lines).toEqual(
      expect.arrayContaining([
        'Consent',
        'Submitted: 24/03/2027 10:00',
        'Full name',
        'Dana Levi',
        'I agree',
        'Yes',
        'Signature',
      ]),
    );
    const name = pdf.items.find((item) => item.str === 'Full name');
    expect(name?.left).toBeCloseTo(56, 0);
    expect(pdf.images).toBe(1);
  });

  it('refuses a signature whose bytes are not a PNG or JPEG picture, naming it', async () => {
    const template = await createTemplate('חתימה', [
      {
        title: 'חתימה',
        next_button: 'שליחה',
        fields: [
          { name: 'signature', type: 'signature', title: 'חתימה', validations: ['required'] },
        ],
      },
    ]);
    const link = await createRequest({ template_id: template.id });
    // The engine checks the data URL's form; the server checks the bytes are a picture.
    for (const garbage of [
      `data:image/png;base64,${Buffer.from('not a picture').toString('base64')}`,
      `data:image/jpeg;base64,${Buffer.from('<svg onload="alert(1)"/>').toString('base64')}`,
      'data:image/svg+xml,%3Csvg%3E%3Cscript%3E',
    ]) {
      const response = await submit(link.url, { signature: garbage });
      expect(response.statusCode, garbage).toBe(400);
      expect(response.json()).toMatchObject({
        details: { issues: [{ path: 'signature', message: 'invalid_signature' }] },
      });
    }
  });

  it('breaks a long form over pages', async () => {
    const fields = Array.from({ length: 60 }, (_, i) => ({
      name: `q${i}`,
      type: 'text',
      title: `שאלה מספר ${i + 1}`,
    }));
    const template = await createTemplate('שאלון ארוך', [
      { title: 'הכול', next_button: 'שליחה', fields },
    ]);
    const link = await createRequest({ template_id: template.id });
    const sent = Object.fromEntries(fields.map((f, i) => [f.name, `תשובה ${i + 1}`]));
    expect((await submit(link.url, sent)).statusCode).toBe(200);
    const response = await call(a.key, 'GET', `/form-requests/${link.id}/submission.pdf`);
    const pdf = await readPdf(response.rawPayload);
    expect(pdf.pages).toBeGreaterThan(1);
    const lines = texts(pdf);
    for (let i = 1; i <= 60; i++) {
      expect(lines[lines.indexOf(`שאלה מספר ${i}`) + 1]).toBe(`תשובה ${i}`);
    }
    expect(lines).toContain(`טופס ${link.id} · עמוד 2 מתוך ${pdf.pages}`);
  });

  it('sends the link by SMS when asked, once, in the clinic’s name', async () => {
    const template = await createTemplate('שאלון', demoFormSchema);
    const quiet = await createRequest({ template_id: template.id });
    expect(quiet.url).toMatch(/\/q\//);
    expect(await messages()).toEqual([]);

    const invalid = await call(a.key, 'POST', '/form-requests', {
      template_id: template.id,
      send_to_phone: '03-5551234',
    });
    expect(issuePaths(invalid)).toEqual(['send_to_phone']);
    expect(await db.select().from(formRequests)).toHaveLength(1);

    const sent = await createRequest({
      template_id: template.id,
      send_to_phone: '+972 52-123-4567',
    });
    const outbox = await messages();
    expect(outbox).toHaveLength(1);
    expect(outbox[0]).toMatchObject({
      to: '0521234567',
      body: `מרפאת השן הלבנה: נא למלא את הטופס בקישור הבא\n${sent.url}`,
    });
    const [entry] = (await auditActions()).filter((row) => row.startsWith('form_request.create'));
    expect(entry).toBe(`form_request.create ${quiet.id} api_key:${a.keyId}`);
    const details = await db
      .select()
      .from(auditLog)
      .where(
        and(eq(auditLog.action, 'form_request.create'), eq(auditLog.targetId, String(sent.id))),
      );
    expect(details[0]?.details).toEqual({
      template_id: template.id,
      expires_at: sent.expires_at,
      sent_to_phone: true,
    });
    expect(JSON.stringify(details)).not.toContain('4567');
  });

  it('caps the links it sends per recipient and per clinic, 429 with retry_after, audited', async () => {
    const template = await createTemplate('שאלון', demoFormSchema);
    const send = (to: string) =>
      call(a.key, 'POST', '/form-requests', { template_id: template.id, send_to_phone: to });
    // Per recipient: 3 an hour by default (the 15 the review sent to one number stop at 3).
    for (let i = 0; i < 3; i++) expect((await send('050-7000001')).statusCode).toBe(201);
    now += 10 * 60_000;
    const refused = await send('0507000001');
    expect(refused.statusCode, refused.body).toBe(429);
    expect(refused.json()).toMatchObject({
      code: 'too_many_requests',
      details: { retry_after: 50 * 60, cap: 'per_recipient_per_hour', max: 3 },
    });
    expect(refused.headers['retry-after']).toBe(String(50 * 60));
    // Nothing made or sent for it; another number still gets its link.
    expect(await db.select().from(formRequests)).toHaveLength(3);
    expect((await send('050-7000002')).statusCode).toBe(201);
    expect(await messages()).toHaveLength(4);
    const entries = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.clinicId, a.id), eq(auditLog.action, 'message.refused')));
    expect(entries.map((e) => [e.actor, e.details])).toEqual([
      [
        `api_key:${a.keyId}`,
        {
          kind: 'form_link',
          cap: 'per_recipient_per_hour',
          max: 3,
          retry_after: 3000,
          to_last_digits: '001',
        },
      ],
    ]);
    // The audit log the clinic reads lists it.
    const log = await call(a.key, 'GET', '/audit-log');
    expect(JSON.stringify(log.json())).toContain('message.refused');

    // An hour on, the number has room again, up to 10 a day.
    now += 51 * 60_000;
    for (let i = 0; i < 3; i++) expect((await send('0507000001')).statusCode).toBe(201);
    now += 61 * 60_000;
    for (let i = 0; i < 3; i++) expect((await send('0507000001')).statusCode).toBe(201);
    now += 61 * 60_000;
    expect((await send('0507000001')).statusCode).toBe(201);
    const daily = await send('0507000001');
    expect(daily.statusCode).toBe(429);
    expect(daily.json()).toMatchObject({ details: { cap: 'per_recipient_per_day', max: 10 } });

    // Per clinic, configurable: another clinic is not held back by this one's.
    const patched = await call(a.key, 'PATCH', '/clinic', {
      settings: { message_caps: { per_clinic_per_day: 13 } },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({
      settings: {
        message_caps: {
          per_recipient_per_hour: 3,
          per_recipient_per_day: 10,
          per_clinic_per_day: 13,
        },
      },
    });
    expect((await send('0507000003')).statusCode).toBe(201);
    expect((await send('0507000003')).statusCode).toBe(201);
    const clinicCap = await send('0507000004');
    expect(clinicCap.statusCode).toBe(429);
    expect(clinicCap.json()).toMatchObject({ details: { cap: 'per_clinic_per_day', max: 13 } });
    const other = await createTemplate('שאלון', demoFormSchema, b.key);
    const elsewhere = await call(b.key, 'POST', '/form-requests', {
      template_id: other.id,
      send_to_phone: '0507000004',
    });
    expect(elsewhere.statusCode).toBe(201);
    // Links without a message are not capped.
    expect(
      (await call(a.key, 'POST', '/form-requests', { template_id: template.id })).statusCode,
    ).toBe(201);
    const invalid = await call(a.key, 'PATCH', '/clinic', {
      settings: { message_caps: { per_recipient_per_hour: 0 } },
    });
    expect(issuePaths(invalid)).toEqual(['settings.message_caps.per_recipient_per_hour']);
  });

  it('lists requests by status, newest first, in pages', async () => {
    const template = await createTemplate('שאלון', demoFormSchema);
    const made: CreatedFormRequest[] = [];
    for (let i = 0; i < 5; i++) {
      made.push(await createRequest({ template_id: template.id, expires_in_days: i + 1 }));
      now += 1000;
    }
    const [first, second, third, , fifth] = made;
    if (!first || !second || !third || !fifth) throw new Error('unreachable');
    expect((await submit(third.url, answers())).statusCode).toBe(200);
    expect((await call(a.key, 'POST', `/form-requests/${second.id}/cancel`)).statusCode).toBe(200);
    now = START + DAY + 500; // the first link (1 day) has expired

    const ids = async (query: string) =>
      (await call(a.key, 'GET', `/form-requests${query}`)).json<FormRequest[]>().map((r) => r.id);
    expect(await ids('')).toEqual(made.map((r) => r.id).reverse());
    expect(await ids('?limit=2')).toEqual([made[4]?.id, made[3]?.id]);
    expect(await ids(`?limit=2&before=${made[3]?.id}`)).toEqual([third.id, second.id]);
    expect(await ids('?status=pending')).toEqual([made[4]?.id, made[3]?.id]);
    expect(await ids('?status=expired')).toEqual([first.id]);
    expect(await ids('?status=submitted')).toEqual([third.id]);
    expect(await ids('?status=cancelled')).toEqual([second.id]);
    expect(issuePaths(await call(a.key, 'GET', '/form-requests?status=done'))).toEqual(['status']);
    expect(issuePaths(await call(a.key, 'GET', '/form-requests?limit=0'))).toEqual(['limit']);
    const one = await call(a.key, 'GET', `/form-requests/${first.id}`);
    expect(one.json<FormRequest>().status).toBe('expired');
  });

  it('cancels a pending link: it answers 404 from then on', async () => {
    const template = await createTemplate('שאלון', demoFormSchema);
    const link = await createRequest({ template_id: template.id });
    const cancelled = await call(a.key, 'POST', `/form-requests/${link.id}/cancel`);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json<FormRequest>().status).toBe('cancelled');
    expect((await publicPost('/api/get-form', { token: tokenOf(link.url) })).statusCode).toBe(404);
    expect((await submit(link.url, answers())).statusCode).toBe(404);
    // Again: nothing changes, nothing more is audited.
    expect((await call(a.key, 'POST', `/form-requests/${link.id}/cancel`)).statusCode).toBe(200);
    expect((await auditActions()).filter((e) => e.startsWith('form_request.cancel'))).toEqual([
      `form_request.cancel ${link.id} api_key:${a.keyId}`,
    ]);

    const done = await createRequest({ template_id: template.id });
    expect((await submit(done.url, answers())).statusCode).toBe(200);
    const refused = await call(a.key, 'POST', `/form-requests/${done.id}/cancel`);
    expect(refused.statusCode).toBe(409);
    expect((await call(a.key, 'GET', `/form-requests/${done.id}/submission`)).statusCode).toBe(200);
  });

  it('never lets a key reach another clinic’s forms', async () => {
    const template = await createTemplate('שאלון', demoFormSchema);
    const link = await createRequest({ template_id: template.id });
    expect((await submit(link.url, answers())).statusCode).toBe(200);

    const tries: [Parameters<typeof call>[1], string, object?][] = [
      ['GET', `/form-templates/${template.id}`],
      ['PUT', `/form-templates/${template.id}`, { name: 'x', schema: demoFormSchema }],
      ['PATCH', `/form-templates/${template.id}`, { name: 'x' }],
      ['DELETE', `/form-templates/${template.id}`],
      ['POST', '/form-requests', { template_id: template.id }],
      ['GET', `/form-requests/${link.id}`],
      ['POST', `/form-requests/${link.id}/cancel`],
      ['GET', `/form-requests/${link.id}/submission`],
      ['GET', `/form-requests/${link.id}/submission.pdf`],
      ['GET', '/form-requests/2147483648'],
    ];
    for (const [method, url, payload] of tries) {
      const response = await call(b.key, method, url, payload);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await call(b.key, 'GET', '/form-templates')).json()).toEqual([]);
    expect((await call(b.key, 'GET', '/form-requests')).json()).toEqual([]);
    expect(
      (await call(a.key, 'GET', `/form-templates/${template.id}`)).json<FormTemplate>().name,
    ).toBe('שאלון');
  });
});
