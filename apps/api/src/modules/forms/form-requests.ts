import { eq } from 'drizzle-orm';
import {
  normaliseIsraeliMobile,
  type CreateFormRequestBody,
  type FormRequestsQuery,
  type InitData,
  type ResendFormRequestBody,
} from '@marpe/shared';
import { audit } from '../../platform/audit.js';
import { cancelLinkRequest } from '../../platform/cancel-link-request.js';
import type { Database, Executor } from '../../platform/db/client.js';
import { clinics } from '../../platform/db/schema.js';
import { AppError } from '../../platform/errors.js';
import type { FormLink } from './form-links.js';
import type { FormsService } from './forms-service.js';
import type { ClinicFormRequest, FilledForm } from './read-form-requests.js';
import {
  messageCapError,
  takeMessageCap,
  type MessageCapRefusal,
} from '../integration/message-caps.js';
import type { Messaging } from '../messaging/messaging.js';
import type { MessagingChannel } from '../../platform/db/schema.js';
import { renderFormPdf } from './forms-pdf.js';

export interface FormRequestsDeps {
  db: Database;
  forms: Pick<
    FormsService,
    | 'createLink'
    | 'replaceLink'
    | 'findPatient'
    | 'listRequests'
    | 'findRequest'
    | 'cancelRequest'
    | 'readFilledForm'
  >;
  messaging: Pick<Messaging, 'queueMessage' | 'kick'>;
  clock: () => number;
}

export interface CreatedFormRequestLink {
  id: number;
  url: string;
  expiresAt: Date;
  /** The channel the link went by; null when it was not sent. */
  sentBy: MessagingChannel | null;
}

/** The SMS that carries a form link, in the clinic's name. */
export function formLinkSms(clinicName: string, url: string): string {
  return `${clinicName}: נא למלא את הטופס בקישור הבא\n${url}`;
}

const requestNotFound = (id: number) => new AppError('not_found', 404, `No form request ${id}`);

/** The phone a link goes to, stored form (05XXXXXXXX); null when none was asked for. */
function phoneToSend(sendToPhone: string | undefined): string | null {
  if (sendToPhone === undefined) return null;
  const phone = normaliseIsraeliMobile(sendToPhone);
  if (phone === null) {
    throw new AppError('validation_failed', 400, 'Invalid request: send_to_phone', {
      issues: [{ path: 'send_to_phone', message: 'Expected an Israeli mobile number' }],
    });
  }
  return phone;
}

/** What a link's form may start with about its patient: keys of docs/forms.md's examples. */
function patientInitData(patient: {
  firstName: string;
  lastName: string;
  idNumber: string;
  phone: string;
  clinicName: string;
}): InitData {
  return {
    firstName: patient.firstName,
    lastName: patient.lastName,
    fullName: `${patient.firstName} ${patient.lastName}`.trim(),
    idNumber: patient.idNumber,
    // As people write it: 052-7000001.
    phone: /^05\d{8}$/.test(patient.phone)
      ? `${patient.phone.slice(0, 3)}-${patient.phone.slice(3)}`
      : patient.phone,
    clinicName: patient.clinicName,
  };
}

/** The clinic side of form links: make (and send), list, resend, cancel, and read what came back. */
export function createFormRequests(deps: FormRequestsDeps) {
  const { db, forms, messaging, clock } = deps;

  async function get(clinicId: number, id: number): Promise<ClinicFormRequest> {
    const request = await forms.findRequest(clinicId, id);
    if (!request) throw requestNotFound(id);
    return request;
  }

  /** Queues the link's message to `phone` by the clinic's channel, in the caller's transaction. */
  async function queueLink(
    tx: Executor,
    clinicId: number,
    phone: string,
    link: FormLink,
  ): Promise<MessagingChannel> {
    const [clinic] = await tx
      .select({ name: clinics.name })
      .from(clinics)
      .where(eq(clinics.id, clinicId));
    // By the clinic's channel: WhatsApp once connected and chosen, else SMS.
    return messaging.queueMessage(tx, {
      clinicId,
      to: phone,
      body: formLinkSms(clinic?.name ?? '', link.url),
      // A link that no longer works is not worth a message.
      expiresAt: link.expiresAt,
      kind: 'form_link',
    });
  }

  return {
    /**
     * A new link; with `send_to_phone`, its message leaves with the same commit. With
     * `patient_id_number` (one of the clinic's patients, else 404 patient_not_found) the request
     * is listed with them and its initData starts with what the clinic knows of them.
     */
    async create(
      clinicId: number,
      body: CreateFormRequestBody,
      actor: string,
    ): Promise<CreatedFormRequestLink> {
      const phone = phoneToSend(body.send_to_phone);
      type Outcome =
        { refused: MessageCapRefusal } | { link: FormLink; sentBy: MessagingChannel | null };
      const outcome = await db.transaction(async (tx): Promise<Outcome> => {
        let initData = body.init_data;
        if (body.patient_id_number !== undefined) {
          const patient = await forms.findPatient(clinicId, body.patient_id_number, tx);
          if (!patient) {
            throw new AppError(
              'patient_not_found',
              404,
              `No patient ${body.patient_id_number} in this clinic`,
            );
          }
          initData = { ...patientInitData(patient), ...body.init_data };
        }
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
            initData,
            expiresInDays: body.expires_in_days,
            patientIdNumber: body.patient_id_number,
          },
          tx,
        );
        const sentBy = phone === null ? null : await queueLink(tx, clinicId, phone, made);
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
            ...(body.patient_id_number === undefined ? {} : { patient: true }),
          },
          at: new Date(clock()),
        });
        return { link: made, sentBy };
      });
      if ('refused' in outcome) throw messageCapError(outcome.refused);
      const { link, sentBy } = outcome;
      if (phone !== null) messaging.kick();
      return { id: link.requestId, url: link.url, expiresAt: link.expiresAt, sentBy };
    },

    /**
     * A fresh link for a pending, unexpired request (409 otherwise): the old one stops working,
     * the answers kept so far stay; with `send_to_phone` the new one is sent by the clinic's
     * channel.
     */
    async resend(
      clinicId: number,
      id: number,
      body: ResendFormRequestBody,
      actor: string,
    ): Promise<CreatedFormRequestLink> {
      const phone = phoneToSend(body.send_to_phone);
      type Outcome =
        { refused: MessageCapRefusal } | { link: FormLink; sentBy: MessagingChannel | null };
      const outcome = await db.transaction(async (tx): Promise<Outcome> => {
        // Known and live before a message is counted against the caps.
        const current = await forms.findRequest(clinicId, id, tx);
        if (!current) throw requestNotFound(id);
        if (current.status !== 'pending') {
          throw new AppError('conflict', 409, `Form request ${id} is ${current.status}`);
        }
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
        const made = await forms.replaceLink(tx, {
          clinicId,
          requestId: id,
          expiresInDays: body.expires_in_days,
        });
        if (made === 'not_found') throw requestNotFound(id);
        if (made === 'ended') {
          throw new AppError('conflict', 409, `Form request ${id} is no longer pending`);
        }
        const sentBy = phone === null ? null : await queueLink(tx, clinicId, phone, made);
        await audit(tx, {
          clinicId,
          actor,
          action: 'form_request.resend',
          targetType: 'form_request',
          targetId: id,
          details: { expires_at: made.expiresAt.toISOString(), sent_to_phone: phone !== null },
          at: new Date(clock()),
        });
        return { link: made, sentBy };
      });
      if ('refused' in outcome) throw messageCapError(outcome.refused);
      const { link, sentBy } = outcome;
      if (phone !== null) messaging.kick();
      return { id: link.requestId, url: link.url, expiresAt: link.expiresAt, sentBy };
    },

    list(clinicId: number, query: FormRequestsQuery): Promise<ClinicFormRequest[]> {
      return forms.listRequests(clinicId, {
        status: query.status,
        stage: query.stage,
        patientIdNumber: query.patient_id_number,
        from: query.from,
        to: query.to,
        before: query.before,
        limit: query.limit,
      });
    },

    get,

    /**
     * A pending request's link stops working (404 like an unknown one). Cancelling a cancelled
     * request changes nothing; a submitted one cannot be cancelled (409).
     */
    async cancel(clinicId: number, id: number, actor: string): Promise<ClinicFormRequest> {
      return cancelLinkRequest(db, {
        clinicId,
        id,
        actor,
        at: () => new Date(clock()),
        target: 'form_request',
        cancel: (tx) => forms.cancelRequest(tx, clinicId, id),
        find: (tx) => forms.findRequest(clinicId, id, tx),
        notFound: requestNotFound(id),
        finished: { status: 'submitted', message: `Form request ${id} is already submitted` },
        view: (request) => request,
      });
    },

    /** The answers with the form as the patient saw it; 404 before the submit. */
    async submission(clinicId: number, id: number): Promise<FilledForm> {
      await get(clinicId, id);
      const filled = await forms.readFilledForm(clinicId, id);
      if (!filled) throw new AppError('not_found', 404, `Form request ${id} is not submitted`);
      return filled;
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
