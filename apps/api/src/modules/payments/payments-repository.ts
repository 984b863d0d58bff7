import { eq } from 'drizzle-orm';
import type { Database, Executor } from '../../platform/db/client.js';
import { clinics, isStoredId } from '../../platform/db/schema.js';
import { createCardTransactionQueries } from './card-transaction-queries.js';
import { createPaymentRequestQueries } from './payment-request-queries.js';

/** What payments read of the clinic here; payment requests and card transactions beside. */
export function createPaymentsRepository(db: Database) {
  return {
    db,
    ...createPaymentRequestQueries(db),
    ...createCardTransactionQueries(db),

    /** What a new link needs from the clinic; null when there is no such clinic. */
    async findClinic(clinicId: number, ex: Executor = db) {
      if (!isStoredId(clinicId)) return null;
      const [row] = await ex
        .select({ id: clinics.id, cardTerminal: clinics.cardTerminal })
        .from(clinics)
        .where(eq(clinics.id, clinicId));
      return row ?? null;
    },

    /** The clinic's provider API credentials, sealed secret included; null fields when unset. */
    async findProviderCredentials(ex: Executor, clinicId: number) {
      const [row] = await ex
        .select({ appKey: clinics.tranzilaAppKey, secret: clinics.tranzilaSecret })
        .from(clinics)
        .where(eq(clinics.id, clinicId));
      return row ?? null;
    },

    async saveProviderCredentials(
      ex: Executor,
      clinicId: number,
      credentials: { appKey: string | null; secret: string | null },
    ) {
      await ex
        .update(clinics)
        .set({ tranzilaAppKey: credentials.appKey, tranzilaSecret: credentials.secret })
        .where(eq(clinics.id, clinicId));
    },
  };
}

export type PaymentsRepository = ReturnType<typeof createPaymentsRepository>;
