import { eq } from 'drizzle-orm';
import {
  normaliseIsraeliMobile,
  type CreateFormRequestBody,
  type FormRequestsQuery,
} from '@marpe/shared';
import { audit } from '../../platform/audit.js';
import type { Database } from '../../platform/db/client.js';
import { clinics } from '../../platform/db/schema.js';
import { AppError } from '../../platform/errors.js';
import type { ClinicFormRequest, FormAnswers, FormLink, FormsService } from './forms-service.js';
import {
  messageCapError,
  takeMessageCap,
  type MessageCapRefusal,
} from '../integration/message-caps.js';
import type { Messaging } from '../messaging/messaging.js';
import { renderFormPdf } from './forms-pdf.js';

export interface FormRequestsDeps {
  db: Database;
  forms: Pick<
    FormsService,
    | 'createLink'
    | 'listRequests'
    | 'findRequest'
    | 'cancelRequest'
    | 'readSubmission'
    | 'readFilledForm'
  >;
  messaging: Pick<Messaging, 'queueMessage' | 'kick'>;
  clock: () => number;
}

export interface CreatedFormRequestLink {
  id: number;
  url: string;
  expiresAt: Date;
}

/** The SMS that carries a form link, in the clinic's name. */
export function formLinkSms(clinicName: string, url: string): string {
  return `${clinicName}: נא למלא את הטופס בקישור הבא\n${url}`;
}

const requestNotFound = (id: number) => new AppError('not_found', 404, `No form request ${id}`);

/** The clinic side of form links: make (and send), list, cancel, and read what came back. */
export function createFormRequests(deps: FormRequestsDeps) {
  const { db, forms, messaging, clock } = deps;

  async function get(clinicId: number, id: number): Promise<ClinicFormRequest> {
    const request = await forms.findRequest(clinicId, id);
    if (!request) throw requestNotFound(id);
    return request;
  }

  return {
    /** A new link; with `send_to_phone`, its SMS leaves with the same commit. */
    async create(
      clinicId: number,
      body: CreateFormRequestBody,
      actor: string,
    ): Promise<CreatedFormRequestLink> {
      const phone =
        body.send_to_phone === undefined ? null : normaliseIsraeliMobile(body.send_to_phone);
      if (body.send_to_phone !== undefined && phone === null) {
        throw new AppError('validation_failed', 400, 'Invalid request: send_to_phone', {
          issues: [{ path: 'send_to_phone', message: 'Expected an Israeli mobile number' }],
        });
      }
      type Outcome = { refused: MessageCapRefusal } | { link: FormLink };
      const outcome = await db.transaction(async (tx): Promise<Outcome> => {
        // Before anything is made: a refused message leaves only its audit entry.
        if (phone !== null) {
          const refused = await takeMessageCap(tx, {
            clinicId,
            to: phone,
            kind: 'form_link',
            actor,
            now: clock(),
          });
          if (refused) return { refused };
        }
        const made = await forms.createLink(
          {
            clinicId,
            templateId: body.template_id,
            initData: body.init_data,
            expiresInDays: body.expires_in_days,
          },
          tx,
        );
        if (phone !== null) {
          const [clinic] = await tx
            .select({ name: clinics.name })
            .from(clinics)
            .where(eq(clinics.id, clinicId));
          // By the clinic's channel: WhatsApp once connected and chosen, else SMS.
          await messaging.queueMessage(tx, {
            clinicId,
            to: phone,
            body: formLinkSms(clinic?.name ?? '', made.url),
            // A link that no longer works is not worth a message.
            expiresAt: made.expiresAt,
          });
        }
        await audit(tx, {
          clinicId,
          actor,
          action: 'form_request.create',
          targetType: 'form_request',
          targetId: made.requestId,
          details: {
            template_id: body.template_id,
            expires_at: made.expiresAt.toISOString(),
            sent_to_phone: phone !== null,
          },
          at: new Date(clock()),
        });
        return { link: made };
      });
      if ('refused' in outcome) throw messageCapError(outcome.refused);
      const { link } = outcome;
      if (phone !== null) messaging.kick();
      return { id: link.requestId, url: link.url, expiresAt: link.expiresAt };
    },

    list(clinicId: number, query: FormRequestsQuery): Promise<ClinicFormRequest[]> {
      return forms.listRequests(clinicId, query);
    },

    get,

    /**
     * A pending request's link stops working (404 like an unknown one). Cancelling a cancelled
     * request changes nothing; a submitted one cannot be cancelled (409).
     */
    async cancel(clinicId: number, id: number, actor: string): Promise<ClinicFormRequest> {
      return db.transaction(async (tx) => {
        if (await forms.cancelRequest(tx, clinicId, id)) {
          await audit(tx, {
            clinicId,
            actor,
            action: 'form_request.cancel',
            targetType: 'form_request',
            targetId: id,
            at: new Date(clock()),
          });
        }
        const request = await forms.findRequest(clinicId, id, tx);
        if (!request) throw requestNotFound(id);
        if (request.status === 'submitted') {
          throw new AppError('conflict', 409, `Form request ${id} is already submitted`);
        }
        return request;
      });
    },

    async submission(clinicId: number, id: number): Promise<FormAnswers> {
      await get(clinicId, id);
      const answers = await forms.readSubmission(id);
      if (!answers) throw new AppError('not_found', 404, `Form request ${id} is not submitted`);
      return answers;
    },

    async pdf(clinicId: number, id: number): Promise<Buffer> {
      await get(clinicId, id);
      const filled = await forms.readFilledForm(clinicId, id);
      if (!filled) throw new AppError('not_found', 404, `Form request ${id} is not submitted`);
      return renderFormPdf(filled, new Date(clock()));
    },
  };
}

export type FormRequests = ReturnType<typeof createFormRequests>;
