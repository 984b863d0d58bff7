import { audit } from './audit.js';
import type { Database, Transaction } from './db/client.js';
import { AppError } from './errors.js';

/** One clinic's link request (a form link, a payment link) being cancelled. */
export interface LinkRequestCancel<Row extends { status: string }, View> {
  clinicId: number;
  id: number;
  actor: string;
  at: () => Date;
  /** The audit target type; the action is `${target}.cancel`. */
  target: 'form_request' | 'payment_request';
  /** Pending (expired or not) → cancelled, in `tx`; false when it was not pending. */
  cancel: (tx: Transaction) => Promise<boolean>;
  /** The request as it now stands, or null when the clinic has none of that id. */
  find: (tx: Transaction) => Promise<Row | null>;
  notFound: AppError;
  /** The status a request cannot be cancelled in (submitted, paid), and the 409's message. */
  finished: { status: Row['status']; message: string };
  view: (row: Row, tx: Transaction) => View | Promise<View>;
}

/**
 * Cancels a link request in one transaction, audited when it changed anything. Cancelling a
 * cancelled request changes nothing; one already finished answers 409, an unknown one 404.
 */
export async function cancelLinkRequest<Row extends { status: string }, View>(
  db: Database,
  request: LinkRequestCancel<Row, View>,
): Promise<View> {
  const { clinicId, id, actor, target } = request;
  return db.transaction(async (tx) => {
    if (await request.cancel(tx)) {
      await audit(tx, {
        clinicId,
        actor,
        action: `${target}.cancel`,
        targetType: target,
        targetId: id,
        at: request.at(),
      });
    }
    const row = await request.find(tx);
    if (!row) throw request.notFound;
    if (row.status === request.finished.status) {
      throw new AppError('conflict', 409, request.finished.message);
    }
    return request.view(row, tx);
  });
}
