import {
  checkDraft,
  formDraftSchema,
  resolveForm,
  type FormDraft,
  type GetFormResponse,
  type IntakeFormData,
} from '@marpe/shared';
import { decryptText, encryptText, sealedAt, sha256Hex } from '../../platform/crypto.js';
import { AppError } from '../../platform/errors.js';
import { initDataReader, linkNotFound, type FormsServiceDeps } from './forms-deps.js';

/** How often ended links' drafts are looked for (on form traffic, as login challenges are). */
const DRAFT_PRUNE_INTERVAL_MS = 10 * 60_000;

/** How a known link that can no longer be filled ended, at `now`. */
function endedAs(request: { status: string; expiresAt: Date }, now: number) {
  if (request.status === 'submitted') return 'submitted';
  if (request.status === 'cancelled') return 'cancelled';
  return request.expiresAt.getTime() <= now ? 'expired' : null;
}

/** The patient's side of a link before its submit: the form, and the draft of answers so far. */
export function createFormFilling(
  deps: Pick<FormsServiceDeps, 'repository' | 'clock' | 'sealKey' | 'log'>,
) {
  const { repository, clock, sealKey } = deps;
  const readInitData = initDataReader(sealKey);

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

  return {
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
  };
}
