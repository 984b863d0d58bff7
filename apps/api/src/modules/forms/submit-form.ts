import {
  isSignatureDataUrl,
  resolveForm,
  signatureMaxBytes,
  validateSubmission,
  type FormSchema,
  type InputData,
} from '@marpe/shared';
import { encryptText, hmacHex, safeEqual, sealedAt, sha256Hex } from '../../platform/crypto.js';
import { AppError } from '../../platform/errors.js';
import { storedSignature } from '../../platform/signature-image.js';
import { zonedDate } from '../../platform/zoned-time.js';
import { DAY, initDataReader, linkNotFound, type FormsServiceDeps } from './forms-deps.js';

/**
 * How long after a submit the same answers, sent again (a double tap, a retry after a lost
 * answer), still answer ok. Beyond it the link is simply used.
 */
export const RESUBMIT_WINDOW_MS = DAY;

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

/** The patient's submit: the answers validated again, stored encrypted, and the link used. */
export function createFormSubmit({
  repository,
  clock,
  formsKey,
  sealKey,
  webhooks,
}: Pick<FormsServiceDeps, 'repository' | 'clock' | 'formsKey' | 'sealKey' | 'webhooks'>) {
  const readInitData = initDataReader(sealKey);

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
  };
}
