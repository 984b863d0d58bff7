import { toShekels, type PaymentRequestData } from '@marpe/shared';
import { sha256Hex } from '../../platform/crypto.js';
import { headerImageOf } from '../../platform/http/header-image.js';
import { linkNotFound, type PaymentsServiceDeps } from './payments-deps.js';
import { providerCredentials } from './provider-credentials.js';
import { ProviderUnavailableError } from './tranzila-api.js';

/**
 * get-payment-request (docs/product/payments.md#calls): a pending, unexpired request, or one
 * verifying or paid (whatever its expiry: the page shows it as processing or paid); 404 otherwise.
 * A pending request of a clinic with provider credentials carries a handshake token pinning the
 * frame to its sum; without one (no credentials, or the provider unreachable) the frame opens as
 * before and the charge is still verified. `pinFrame: false` reads the request for its state alone
 * (the payment result page rendered on the server): no frame opens from it, so no handshake.
 */
export async function getPaymentRequest(
  deps: Pick<PaymentsServiceDeps, 'repository' | 'clock' | 'provider' | 'cardProvider'>,
  token: string,
  { pinFrame = true }: { pinFrame?: boolean } = {},
): Promise<PaymentRequestData> {
  const { repository, clock } = deps;
  const row = await repository.findRequestByTokenHash(sha256Hex(token));
  if (!row) throw linkNotFound();
  const { request } = row;
  const settled = request.status === 'paid' || request.status === 'verifying';
  if (!settled && (request.status !== 'pending' || request.expiresAt.getTime() <= clock())) {
    // Whose link it was and how it ended, so the page can say so with the clinic's phone.
    throw linkNotFound({
      ended: request.status === 'cancelled' ? 'cancelled' : 'expired',
      clinicId: request.clinicId,
    });
  }
  let thtk: string | null = null;
  if (pinFrame && request.status === 'pending' && deps.provider) {
    const credentials = await providerCredentials(deps, request.clinicId);
    if (credentials) {
      try {
        thtk = await deps.provider.api.createHandshake(
          credentials,
          request.terminal,
          request.amountAgorot,
        );
      } catch (error) {
        if (!(error instanceof ProviderUnavailableError)) throw error;
      }
    }
  }
  // A settled link past its expiry still says so, but no longer who it was for, what for, or
  // with which card (ADR 032).
  const anonymous = settled && request.expiresAt.getTime() <= clock();
  const paying =
    request.status === 'paid' && !anonymous
      ? await repository.findPayingTransaction(request.id)
      : null;
  return {
    amount: toShekels(request.amountAgorot),
    terminal: request.terminal,
    patientId: anonymous ? '' : request.patientIdNumber,
    patientNameRemarks: anonymous ? '' : request.patientNameRemarks,
    patientEmail: anonymous ? '' : request.patientEmail,
    clinicLogo: headerImageOf(row.logoUrl),
    numPayments: request.maxPayments,
    status: request.status === 'cancelled' ? 'pending' : request.status,
    thtk,
    chargeRef: request.chargeRef,
    clinicName: row.clinicName,
    clinicId: request.clinicId,
    clinicPhone: row.clinicPhone,
    clinicTimeZone: row.clinicTimeZone,
    purpose: anonymous ? '' : request.purpose,
    cardProvider: deps.cardProvider ?? 'tranzila',
    receipt: paying && {
      amount: toShekels(request.amountAgorot),
      payments: paying.payments,
      cardLast4: paying.cardLast4,
      confirmationCode: paying.confirmationCode,
      email: paying.payload.email?.trim() ?? '',
      paidAt: (request.paidAt ?? paying.receivedAt).toISOString(),
    },
  };
}
