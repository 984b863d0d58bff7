import {
  FORM_LINK_DEFAULT_DAYS,
  FORM_LINK_MAX_DAYS,
  formSchemaSchema,
  initDataSchema,
  type InitData,
} from '@marpe/shared';
import { encryptText, randomToken, sha256Hex } from '../../platform/crypto.js';
import type { Executor } from '../../platform/db/client.js';
import { AppError } from '../../platform/errors.js';
import { headerImageOf } from '../../platform/http/header-image.js';
import { DAY, initDataAt, initDataReader, type FormsServiceDeps } from './forms-deps.js';

/** How long a new link works unless the caller says otherwise. */
export const DEFAULT_LINK_DAYS = FORM_LINK_DEFAULT_DAYS;
export const MAX_LINK_DAYS = FORM_LINK_MAX_DAYS;

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

/** Minting a form link, and replacing the token of one the patient has not used. */
export function createFormLinks({
  repository,
  clock,
  sealKey,
  publicOrigin,
}: Pick<FormsServiceDeps, 'repository' | 'clock' | 'sealKey' | 'publicOrigin'>) {
  const readInitData = initDataReader(sealKey);

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
  };
}
