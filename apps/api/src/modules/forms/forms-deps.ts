import type { FastifyBaseLogger } from 'fastify';
import { initDataSchema, type EndedLinkDetails, type InitData } from '@marpe/shared';
import { decryptText, sealedAt, type SealingKey } from '../../platform/crypto.js';
import { AppError } from '../../platform/errors.js';
import type { Webhooks } from '../webhooks/webhooks-service.js';
import type { FormsRepository } from './forms-repository.js';

export const DAY = 86_400_000;

/** What the intake-form use cases are built from; forms-service.ts composes them. */
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

export const linkNotFound = (ended?: EndedLinkDetails) =>
  new AppError(
    'not_found',
    404,
    'This form link is not valid: ask the clinic for a new one',
    ended,
  );

/** A link's init data, bound to its token hash (the row's id is not known before its insert). */
export const initDataAt = (tokenHash: string) => sealedAt('form_requests', 'init_data', tokenHash);

/** Opens a link's init data with `sealKey`. */
export function initDataReader(sealKey: SealingKey) {
  return (request: { initData: string; tokenHash: string }): InitData =>
    initDataSchema.parse(
      JSON.parse(decryptText(sealKey, request.initData, initDataAt(request.tokenHash))),
    );
}
