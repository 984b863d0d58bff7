import { resolveForm, type FormSchema } from '@marpe/shared';
import { decryptText, sealedAt } from '../../platform/crypto.js';
import type { Executor } from '../../platform/db/client.js';
import { storedSignature } from '../../platform/signature-image.js';
import { initDataReader, type FormsServiceDeps } from './forms-deps.js';
import type {
  FormRequestListQuery,
  FormRequestListStage,
  FormRequestListStatus,
} from './forms-repository.js';

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

/** The clinic's side: its requests, their cancelling, and the answers once submitted. */
export function createFormRequestReads({
  repository,
  clock,
  sealKey,
}: Pick<FormsServiceDeps, 'repository' | 'clock' | 'sealKey'>) {
  const readInitData = initDataReader(sealKey);

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

  return {
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
