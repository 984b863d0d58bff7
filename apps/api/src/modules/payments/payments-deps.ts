import type { CardProvider, EndedLinkDetails } from '@marpe/shared';
import type { SealingKey } from '../../platform/crypto.js';
import type { Executor } from '../../platform/db/client.js';
import { AppError } from '../../platform/errors.js';
import type { Webhooks } from '../webhooks/webhooks-service.js';
import type { PaymentsRepository } from './payments-repository.js';
import type { TranzilaApi } from './tranzila-api.js';

/** What the payment use cases are built from; payments-service.ts composes them. */
export interface PaymentsServiceDeps {
  repository: PaymentsRepository;
  clock: () => number;
  /** config.publicOrigin: links are `${publicOrigin}/p/${token}`. */
  publicOrigin: string;
  /**
   * payment.succeeded and payment.failed, emitted in the callback's transaction. Absent only
   * where no callback is taken (the CLI, which mints links).
   */
  webhooks?: Pick<Webhooks, 'emit' | 'kick'>;
  /**
   * Whose page the card frame is: the provider's (default), or the demo sandbox standing in for it
   * (CARD_FRAME_BASE_URL on our own origin). The payment page names it.
   */
  cardProvider?: CardProvider;
  /**
   * Outside demo mode: a link is made only for a clinic whose charges can be confirmed (it has
   * provider API credentials), since an unconfirmable charge can never pay.
   */
  requireProviderCredentials?: boolean;
  /**
   * The provider's server API and how clinics' credentials are sealed. Absent only in the CLI,
   * which mints links and never verifies or opens a frame.
   */
  provider?: {
    api: TranzilaApi;
    sealKey: SealingKey;
    /** Queues a verification in the callback's transaction (the outbox's `payments.verify`). */
    queueVerification: (ex: Executor, transactionId: number) => Promise<void>;
  };
}

export const linkNotFound = (ended?: EndedLinkDetails) =>
  new AppError(
    'not_found',
    404,
    'This payment link is not valid: ask the clinic for a new one',
    ended,
  );

/** A 400 naming the bad field, in the message and as a validation issue. */
export function invalid(field: string, message: string): AppError {
  return new AppError('validation_failed', 400, `${field} ${message}`, {
    issues: [{ path: field, message }],
  });
}
