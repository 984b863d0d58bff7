import type { FastifyBaseLogger } from 'fastify';
import {
  checkDraft,
  FORM_LINK_DEFAULT_DAYS,
  FORM_LINK_MAX_DAYS,
  formDraftSchema,
  formSchemaSchema,
  initDataSchema,
  isSignatureDataUrl,
  resolveForm,
  signatureMaxBytes,
  validateSubmission,
  type EndedLinkDetails,
  type FormDraft,
  type FormSchema,
  type GetFormResponse,
  type InitData,
  type InputData,
  type IntakeFormData,
} from '@marpe/shared';
import {
  decryptText,
  encryptText,
  sealedAt,
  type SealingKey,
  hmacHex,
  randomToken,
  safeEqual,
  sha256Hex,
} from '../../platform/crypto.js';
import { AppError } from '../../platform/errors.js';
import { headerImageOf } from '../../platform/http/header-image.js';
import { storedSignature } from '../../platform/signature-image.js';
import type { Executor } from '../../platform/db/client.js';
import { zonedDate } from '../../platform/zoned-time.js';
import type { Webhooks } from '../webhooks/webhooks-service.js';
import type {
  FormRequestListQuery,
  FormRequestListStage,
  FormRequestListStatus,
  FormsRepository,
} from './forms-repository.js';

const DAY = 86_400_000;

/** How long a new link works unless the caller says otherwise. */
export const DEFAULT_LINK_DAYS = FORM_LINK_DEFAULT_DAYS;
export const MAX_LINK_DAYS = FORM_LINK_MAX_DAYS;

/**
 * How long after a submit the same answers, sent again (a double tap, a retry after a lost
 * answer), still answer ok. Beyond it the link is simply used.
 */
export const RESUBMIT_WINDOW_MS = DAY;

export interface FormsServiceDeps {
  repository: FormsRepository;
  clock: () => number;
  /** deriveKey(dataKey, 'forms'): encrypts answers and keys the answers' hash. */
  /** HMACs of submitted values (the same answers again are no new submit). */
  formsKey: Buffer;
  /** Encrypts init data, drafts and answers at rest: `sealingKey(dataKeys, 'forms')`. */
  sealKey: SealingKey;
  /** config.publicOrigin: links are `${publicOrigin}/q/${token}`. */
  publicOrigin: string;
  /**
   * form.submitted, emitted in the submit's transaction. Absent only where no submit is taken
   * (the CLI, which mints links).
   */
  webhooks?: Pick<Webhooks, 'emitFormSubmitted' | 'kick'>;
  /** Where a draft that could not be read is reported (its request id only). */
  log?: Pick<FastifyBaseLogger, 'warn'>;
}

export interface CreateFormLinkInput {
  clinicId: number;
  templateId: number;
  initData?: InitData;
  /** Default DEFAULT_LINK_DAYS. */
  expiresInDays?: number;
  /** The patient it is for (their ID number, checked by the caller); '' or absent for none. */
  patientIdNumber?: string;
}

export interface FormLink {
  requestId: number;
  token: string;
  url: string;
  expiresAt: Date;
}

/** A stored submission, decrypted (for the clinic-facing API and tests). */
export interface FormAnswers {
  values: Record<string, string | boolean>;
  submittedAt: Date;
  clientAddress: string;
}

/** A request as the clinic sees it (never its token). */
export interface ClinicFormRequest {
  id: number;
  /** '' when made without a patient. */
  patientIdNumber: string;
  /** The patient's name as the clinic has it now; '' without one. */
  patientName: string;
  templateId: number | null;
  templateName: string | null;
  status: FormRequestListStatus;
  stage: FormRequestListStage;
  createdAt: Date;
  expiresAt: Date;
  openedAt: Date | null;
  draftSavedAt: Date | null;
  submittedAt: Date | null;
}

/** A submitted request with what its printout shows. */
export interface FilledForm {
  requestId: number;
  clinicName: string;
  /** null once the template is deleted. */
  templateName: string | null;
  timezone: string;
  /** The request's form with its placeholders resolved, as the patient saw it. */
  schema: FormSchema;
  values: Record<string, string | boolean>;
  submittedAt: Date;
}

/** `expired` for a pending request past its expiry at `now`. */
function statusAt(
  row: { status: FormRequestListStatus; expiresAt: Date },
  now: number,
): FormRequestListStatus {
  return row.status === 'pending' && row.expiresAt.getTime() <= now ? 'expired' : row.status;
}

/** A pending request's stage: how far the patient got (a draft, an opened link, neither). */
function stageAt(
  row: {
    status: FormRequestListStatus;
    expiresAt: Date;
    openedAt: Date | null;
    draftSavedAt: Date | null;
  },
  now: number,
): FormRequestListStage {
  const status = statusAt(row, now);
  if (status !== 'pending') return status;
  if (row.draftSavedAt !== null) return 'draft_saved';
  return row.openedAt !== null ? 'opened' : 'sent';
}

/** What the clinic sees of a row at `now`. */
function clinicRequestAt(row: Omit<ClinicFormRequest, 'stage'>, now: number): ClinicFormRequest {
  return { ...row, status: statusAt(row, now), stage: stageAt(row, now) };
}

/** How often ended links' drafts are looked for (on form traffic, as login challenges are). */
const DRAFT_PRUNE_INTERVAL_MS = 10 * 60_000;

const linkNotFound = (ended?: EndedLinkDetails) =>
  new AppError(
    'not_found',
    404,
    'This form link is not valid: ask the clinic for a new one',
    ended,
  );

/** How a known link that can no longer be filled ended, at `now`. */
function endedAs(request: { status: string; expiresAt: Date }, now: number) {
  if (request.status === 'submitted') return 'submitted';
  if (request.status === 'cancelled') return 'cancelled';
  return request.expiresAt.getTime() <= now ? 'expired' : null;
}

/** JSON with the keys sorted: the same values always give the same text. */
export function canonicalJson(values: Record<string, string | boolean>): string {
  const sorted = Object.keys(values)
    .sort()
    .map((key) => [key, values[key]] as const);
  return JSON.stringify(Object.fromEntries(sorted));
}

function signatureFieldNames(schema: FormSchema): Set<string> {
  return new Set(
    schema.flatMap((step) => step.fields.filter((f) => f.type === 'signature').map((f) => f.name)),
  );
}

function todayIn(epochMs: number, timezone: string) {
  const [year, month, day] = zonedDate(epochMs, timezone).split('-').map(Number);
  return { year: year ?? 0, month: month ?? 0, day: day ?? 0 };
}

export function createFormsService(deps: FormsServiceDeps) {
  const { repository, clock, formsKey, sealKey, publicOrigin, webhooks } = deps;

  /** A link's init data, bound to its token hash (the row's id is not known before its insert). */
  const initDataAt = (tokenHash: string) => sealedAt('form_requests', 'init_data', tokenHash);

  function readInitData(request: { initData: string; tokenHash: string }): InitData {
    return initDataSchema.parse(
      JSON.parse(decryptText(sealKey, request.initData, initDataAt(request.tokenHash))),
    );
  }

  let lastDraftPrune = 0;
  async function pruneDraftsNowAndThen(now: number) {
    if (now - lastDraftPrune < DRAFT_PRUNE_INTERVAL_MS) return;
    lastDraftPrune = now;
    await repository.pruneDrafts(new Date(now));
  }

  async function readDraft(requestId: number, steps: number): Promise<FormDraft | null> {
    const sealed = await repository.findDraft(requestId);
    if (sealed === null) return null;
    let draft: FormDraft;
    try {
      draft = formDraftSchema.parse(
        JSON.parse(decryptText(sealKey, sealed, sealedAt('form_drafts', 'draft', requestId))),
      );
    } catch (error) {
      // A key no longer held (DATA_KEY replaced without DATA_KEY_PREVIOUS), a damaged row: the
      // patient loses the unsent answers, never the link.
      deps.log?.warn(
        { requestId, reason: error instanceof Error ? error.name : 'unknown' },
        'forms: dropped a draft that could not be read',
      );
      await repository.deleteDraft(repository.db, requestId);
      return null;
    }
    // The schema is the link's snapshot, so the step exists; clamped all the same.
    return { ...draft, stepIndex: Math.min(draft.stepIndex, steps - 1) };
  }

  /** A signature as stored: PNG/JPEG bytes checked, SVG rasterised once; else a 400 naming it. */
  async function keptSignature(name: string, dataUrl: string): Promise<string> {
    if (dataUrl === '') return dataUrl;
    const stored = await storedSignature(dataUrl);
    if (stored === null) {
      throw new AppError('validation_failed', 400, `Invalid answers: ${name}`, {
        issues: [{ path: name, message: 'invalid_signature' }],
      });
    }
    return stored;
  }

  /** The decrypted answers of a request, or null before its submit. */
  async function readSubmission(requestId: number): Promise<FormAnswers | null> {
    const submission = await repository.findSubmission(repository.db, requestId);
    if (!submission) return null;
    const answers = JSON.parse(
      decryptText(sealKey, submission.answers, sealedAt('form_submissions', 'answers', requestId)),
    ) as FormAnswers['values'];
    const signatures = JSON.parse(
      decryptText(
        sealKey,
        submission.signatures,
        sealedAt('form_submissions', 'signatures', requestId),
      ),
    ) as FormAnswers['values'];
    // Submissions stored before signatures were rasterised may hold an SVG: never handed out.
    for (const [name, value] of Object.entries(signatures)) {
      if (typeof value === 'string' && value.startsWith('data:image/svg')) {
        signatures[name] = (await storedSignature(value)) ?? '';
      }
    }
    return {
      values: { ...answers, ...signatures },
      submittedAt: submission.submittedAt,
      clientAddress: submission.clientAddress,
    };
  }

  /**
   * Validates again exactly as the page does, against the stored schema with its placeholders
   * resolved (a read-only default is the value kept); hidden fields' values are dropped.
   */
  function validate(
    request: { schema: FormSchema; initData: string; tokenHash: string },
    inputData: InputData,
    epochMs: number,
    timezone: string,
  ) {
    const schema = resolveForm(request.schema, readInitData(request));
    const { values, errors } = validateSubmission(schema, inputData, todayIn(epochMs, timezone));
    const failures: Record<string, string> = { ...errors };
    // Belt and braces: whatever the engine allowed, a stored signature is an image under the limit.
    for (const name of signatureFieldNames(schema)) {
      const value = values[name];
      if (value === undefined || value === '' || value === false) continue;
      if (typeof value !== 'string' || !isSignatureDataUrl(value, signatureMaxBytes)) {
        failures[name] ??= 'invalid_signature';
      }
    }
    return { values: values as Record<string, string | boolean>, failures };
  }

  return {
    /** Pass `ex` to make the link in the caller's transaction (with its SMS and audit entry). */
    async createLink(input: CreateFormLinkInput, ex?: Executor): Promise<FormLink> {
      const template = await repository.findTemplate(input.clinicId, input.templateId, ex);
      if (!template) {
        throw new AppError('not_found', 404, 'No such form template in this clinic');
      }
      const initData = initDataSchema.parse(input.initData ?? {});
      const days = input.expiresInDays ?? DEFAULT_LINK_DAYS;
      if (!Number.isInteger(days) || days < 1 || days > MAX_LINK_DAYS) {
        throw new AppError('bad_request', 400, `A link lasts 1 to ${MAX_LINK_DAYS} days`);
      }
      const now = clock();
      const token = randomToken();
      const expiresAt = new Date(now + days * DAY);
      const requestId = await repository.insertRequest(
        {
          clinicId: input.clinicId,
          templateId: template.id,
          templateName: template.name,
          schema: formSchemaSchema.parse(template.schema),
          initData: encryptText(sealKey, JSON.stringify(initData), initDataAt(sha256Hex(token))),
          headerImage: headerImageOf(template.logoUrl),
          tokenHash: sha256Hex(token),
          status: 'pending',
          patientIdNumber: input.patientIdNumber ?? '',
          createdAt: new Date(now),
          expiresAt,
        },
        ex,
      );
      return { requestId, token, url: `${publicOrigin}/q/${token}`, expiresAt };
    },

    /**
     * A fresh link for the clinic's pending, unexpired request, in the caller's transaction: the
     * old token stops working; the form, its answers so far (the draft) and its initData stay.
     * The link works until `expiresInDays` from now, or until the request's expiry. `not_found`
     * for no such request, `ended` for one submitted, cancelled or expired.
     */
    async replaceLink(
      tx: Executor,
      input: { clinicId: number; requestId: number; expiresInDays?: number },
    ): Promise<FormLink | 'not_found' | 'ended'> {
      const request = await repository.lockClinicRequest(tx, input.clinicId, input.requestId);
      if (!request) return 'not_found';
      const now = clock();
      if (request.status !== 'pending' || request.expiresAt.getTime() <= now) return 'ended';
      const days = input.expiresInDays;
      if (days !== undefined && (!Number.isInteger(days) || days < 1 || days > MAX_LINK_DAYS)) {
        throw new AppError('bad_request', 400, `A link lasts 1 to ${MAX_LINK_DAYS} days`);
      }
      const token = randomToken();
      const tokenHash = sha256Hex(token);
      const expiresAt = days === undefined ? request.expiresAt : new Date(now + days * DAY);
      // initData is sealed to the token's hash: sealed again to the new one.
      const initData = encryptText(
        sealKey,
        JSON.stringify(readInitData(request)),
        initDataAt(tokenHash),
      );
      await repository.replaceToken(tx, request.id, { tokenHash, initData, expiresAt });
      return { requestId: request.id, token, url: `${publicOrigin}/q/${token}`, expiresAt };
    },

    /** The form of a pending, unexpired link, with its draft; 404 otherwise. */
    async getForm(token: string): Promise<GetFormResponse> {
      const now = clock();
      await pruneDraftsNowAndThen(now);
      const request = await repository.findRequest(sha256Hex(token));
      if (!request || request.status !== 'pending' || request.expiresAt.getTime() <= now) {
        if (!request) throw linkNotFound();
        // An ended link's answers are no one's to read any more. The page still says how it
        // ended and whose it was (the person who just sent it is told it arrived).
        await repository.deleteDraft(repository.db, request.id);
        const ended = endedAs(request, now);
        throw linkNotFound(ended ? { ended, clinicId: request.clinicId } : undefined);
      }
      if (request.openedAt === null) await repository.markOpened(request.id, new Date(now));
      const data: IntakeFormData = {
        schema: request.schema,
        initData: readInitData(request),
        headerImage: request.headerImage,
      };
      return {
        data,
        draft: await readDraft(request.id, request.schema.length),
        clinicId: request.clinicId,
      };
    },

    /**
     * Replaces the draft of a pending, unexpired link: values the form could hold (any state of
     * a half-filled form), encrypted; 400 names a key it could not; 404 for an ended link.
     */
    async saveDraft(token: string, draft: FormDraft): Promise<void> {
      const now = clock();
      await pruneDraftsNowAndThen(now);
      const request = await repository.findRequest(sha256Hex(token));
      if (!request || request.status !== 'pending' || request.expiresAt.getTime() <= now) {
        throw linkNotFound();
      }
      const schema = resolveForm(request.schema, readInitData(request));
      const failures: Record<string, string> = { ...checkDraft(schema, draft.inputData) };
      if (draft.stepIndex >= schema.length) failures.stepIndex = 'invalid_value';
      const failed = Object.keys(failures);
      if (failed.length > 0) {
        throw new AppError('validation_failed', 400, `Invalid draft: ${failed.join(', ')}`, {
          issues: failed.map((name) => ({ path: name, message: failures[name] ?? 'invalid' })),
        });
      }
      const text = JSON.stringify(draft);
      const seal = (requestId: number) =>
        encryptText(sealKey, text, sealedAt('form_drafts', 'draft', requestId));
      // Ended between the read and the write (a submit in another tab): the link is gone.
      if (!(await repository.saveDraft(sha256Hex(token), new Date(now), seal))) {
        throw linkNotFound();
      }
    },

    /**
     * Stores the validated answers and uses the link, in one transaction holding the request's
     * row lock, so two submits at once store one submission. The same answers again shortly
     * after answer ok; anything else on a used link is 404.
     */
    async submit(token: string, inputData: InputData, clientAddress: string): Promise<void> {
      const firstSubmit = await repository.db.transaction(async (tx) => {
        const row = await repository.lockRequest(tx, sha256Hex(token));
        if (!row || row.request.status === 'cancelled') throw linkNotFound();
        const { request, timezone } = row;
        const now = clock();

        if (request.status === 'submitted') {
          const submission = await repository.findSubmission(tx, request.id);
          if (!submission || now - submission.submittedAt.getTime() > RESUBMIT_WINDOW_MS) {
            throw linkNotFound();
          }
          // Validated as on the first submit (same date), so the same input gives the same values.
          const { values, failures } = validate(
            request,
            inputData,
            submission.submittedAt.getTime(),
            timezone,
          );
          const hash = hmacHex(formsKey, canonicalJson(values));
          if (Object.keys(failures).length > 0 || !safeEqual(hash, submission.valuesHash)) {
            throw linkNotFound();
          }
          return false;
        }

        if (request.expiresAt.getTime() <= now) throw linkNotFound();
        const { values, failures } = validate(request, inputData, now, timezone);
        const failed = Object.keys(failures);
        if (failed.length > 0) {
          throw new AppError('validation_failed', 400, `Invalid answers: ${failed.join(', ')}`, {
            issues: failed.map((name) => ({ path: name, message: failures[name] ?? 'invalid' })),
          });
        }

        const signatureNames = signatureFieldNames(request.schema);
        const answers: Record<string, string | boolean> = {};
        const signatures: Record<string, string | boolean> = {};
        for (const [name, value] of Object.entries(values)) {
          if (!signatureNames.has(name)) answers[name] = value;
          else
            signatures[name] = typeof value === 'string' ? await keptSignature(name, value) : value;
        }
        const at = new Date(now);
        await repository.insertSubmission(tx, {
          requestId: request.id,
          clinicId: request.clinicId,
          answers: encryptText(
            sealKey,
            JSON.stringify(answers),
            sealedAt('form_submissions', 'answers', request.id),
          ),
          signatures: encryptText(
            sealKey,
            JSON.stringify(signatures),
            sealedAt('form_submissions', 'signatures', request.id),
          ),
          valuesHash: hmacHex(formsKey, canonicalJson(values)),
          clientAddress,
          submittedAt: at,
        });
        await repository.markSubmitted(tx, request.id, at);
        await repository.deleteDraft(tx, request.id);
        await webhooks?.emitFormSubmitted(tx, {
          clinicId: request.clinicId,
          requestId: request.id,
          templateId: request.templateId,
          at,
        });
        return true;
      });
      // A repeated submit is the same event: it was reported with the first.
      if (firstSubmit) webhooks?.kick();
    },

    /** The clinic's patient (a link's initData starts with what the clinic knows), or null. */
    findPatient: repository.findPatient,

    /** The clinic's template of that name (the demo form), or null. */
    async findTemplateId(clinicId: number, name: string): Promise<number | null> {
      return (await repository.findTemplateByName(clinicId, name))?.id ?? null;
    },

    async listRequests(
      clinicId: number,
      query: FormRequestListQuery,
    ): Promise<ClinicFormRequest[]> {
      const now = clock();
      const rows = await repository.listRequests(clinicId, query, new Date(now));
      return rows.map((row) => clinicRequestAt(row, now));
    },

    /** The clinic's request, or null when the clinic has none of that id. */
    async findRequest(
      clinicId: number,
      requestId: number,
      ex?: Executor,
    ): Promise<ClinicFormRequest | null> {
      const row = await repository.findClinicRequest(clinicId, requestId, ex);
      return row && clinicRequestAt(row, clock());
    },

    /** Pending (expired or not) → cancelled, in the caller's transaction; false otherwise. */
    async cancelRequest(ex: Executor, clinicId: number, requestId: number): Promise<boolean> {
      const cancelled = await repository.cancelRequest(ex, clinicId, requestId);
      if (cancelled) await repository.deleteDraft(ex, requestId);
      return cancelled;
    },

    /** The clinic's submitted request as the patient filled it in; null before its submit. */
    async readFilledForm(clinicId: number, requestId: number): Promise<FilledForm | null> {
      const request = await repository.findRequestForPrint(clinicId, requestId);
      if (!request) return null;
      const answers = await readSubmission(request.id);
      if (!answers) return null;
      return {
        requestId: request.id,
        clinicName: request.clinicName,
        templateName: request.templateName,
        timezone: request.timezone,
        schema: resolveForm(request.schema, readInitData(request)),
        values: answers.values,
        submittedAt: answers.submittedAt,
      };
    },

    readSubmission,
  };
}

export type FormsService = ReturnType<typeof createFormsService>;
