import type { WebhookDeliveryStatus, WebhookEventType } from '@marpe/shared';
import { and, desc, eq, lt, lte, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../platform/db/client.js';
import { appointments, webhookDeliveries, webhookEndpoints } from '../../platform/db/schema.js';
import { selectAppointmentViews } from './appointment-view.js';

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;

export interface DeliveryFilter {
  endpointId?: number;
  status?: WebhookDeliveryStatus;
  /** Only deliveries with a smaller id: the next page after the delivery `before`. */
  before?: number;
  limit: number;
}

export function createWebhooksRepository(db: Database) {
  return {
    db,

    /** The clinic's active endpoints that receive `type` (an empty list of types means all). */
    async listSubscribed(executor: Executor, clinicId: number, type: WebhookEventType) {
      return executor
        .select({ id: webhookEndpoints.id })
        .from(webhookEndpoints)
        .where(
          and(
            eq(webhookEndpoints.clinicId, clinicId),
            eq(webhookEndpoints.isActive, true),
            sql`(jsonb_array_length(${webhookEndpoints.events}) = 0 OR ${webhookEndpoints.events} @> ${JSON.stringify([type])}::jsonb)`,
          ),
        )
        .orderBy(webhookEndpoints.id);
    },

    async insertDeliveries(executor: Executor, rows: (typeof webhookDeliveries.$inferInsert)[]) {
      return executor
        .insert(webhookDeliveries)
        .values(rows)
        .returning({ id: webhookDeliveries.id });
    },

    /** Keeps the sealed body of a delivery until it succeeds (for a retry). */
    async setDeliveryBody(executor: Executor, deliveryId: number, body: string) {
      await executor
        .update(webhookDeliveries)
        .set({ body })
        .where(eq(webhookDeliveries.id, deliveryId));
    },

    /**
     * A clinic's delivery with its endpoint's state, locked until the transaction ends (two retries
     * at once: the second finds it pending); null when the clinic has no such delivery.
     */
    async findDeliveryForUpdate(executor: Executor, clinicId: number, deliveryId: number) {
      const [row] = await executor
        .select({ delivery: webhookDeliveries, endpointActive: webhookEndpoints.isActive })
        .from(webhookDeliveries)
        .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
        .where(and(eq(webhookDeliveries.clinicId, clinicId), eq(webhookDeliveries.id, deliveryId)))
        .for('update', { of: webhookDeliveries });
      return row ?? null;
    },

    /** A failed delivery on its way again: pending, its earlier tries and last error kept. */
    async requeueDelivery(executor: Executor, deliveryId: number): Promise<WebhookDeliveryRow> {
      const [row] = await executor
        .update(webhookDeliveries)
        .set({ status: 'pending' })
        .where(eq(webhookDeliveries.id, deliveryId))
        .returning();
      if (!row) throw new Error(`webhook delivery ${deliveryId} not found`);
      return row;
    },

    /** What sending a delivery needs: its status and its endpoint's address and secret. */
    async findDeliveryTarget(deliveryId: number) {
      const [row] = await db
        .select({
          status: webhookDeliveries.status,
          endpointId: webhookEndpoints.id,
          url: webhookEndpoints.url,
          circuitOpenUntil: webhookEndpoints.circuitOpenUntil,
          secret: webhookEndpoints.secret,
          previousSecret: webhookEndpoints.previousSecret,
          previousSecretUntil: webhookEndpoints.previousSecretUntil,
          isActive: webhookEndpoints.isActive,
        })
        .from(webhookDeliveries)
        .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
        .where(eq(webhookDeliveries.id, deliveryId));
      return row ?? null;
    },

    /** Records a try; `attempts` goes up by one. A delivered one drops its body (`body: null`). */
    async recordAttempt(
      deliveryId: number,
      values: Pick<
        typeof webhookDeliveries.$inferInsert,
        'status' | 'lastStatusCode' | 'lastError' | 'lastAttemptAt' | 'deliveredAt' | 'body'
      >,
    ) {
      await db
        .update(webhookDeliveries)
        .set({ ...values, attempts: sql`${webhookDeliveries.attempts} + 1` })
        .where(eq(webhookDeliveries.id, deliveryId));
    },

    /**
     * Erases the secret a rotation replaced once its overlap is over (`until` at or before `at`);
     * the retention job does the same for endpoints that send nothing.
     */
    async erasePreviousSecret(endpointId: number, at: Date) {
      await db
        .update(webhookEndpoints)
        .set({ previousSecret: null, previousSecretUntil: null })
        .where(
          and(eq(webhookEndpoints.id, endpointId), lte(webhookEndpoints.previousSecretUntil, at)),
        );
    },

    /** A 2xx: the endpoint works, its breaker closes. */
    async recordEndpointSuccess(endpointId: number) {
      await db
        .update(webhookEndpoints)
        .set({ consecutiveFailures: 0, circuitOpenUntil: null })
        .where(eq(webhookEndpoints.id, endpointId));
    },

    /**
     * One more failed try in a row; from the `threshold`th on, the breaker (re)opens until
     * `openUntil`. One statement, so concurrent failures all count.
     */
    async recordEndpointFailure(endpointId: number, threshold: number, openUntil: Date) {
      await db
        .update(webhookEndpoints)
        .set({
          consecutiveFailures: sql`${webhookEndpoints.consecutiveFailures} + 1`,
          circuitOpenUntil: sql`CASE WHEN ${webhookEndpoints.consecutiveFailures} + 1 >= ${threshold} THEN ${openUntil.toISOString()}::timestamptz ELSE ${webhookEndpoints.circuitOpenUntil} END`,
        })
        .where(eq(webhookEndpoints.id, endpointId));
    },

    async markFailed(deliveryId: number, lastError: string) {
      await db
        .update(webhookDeliveries)
        .set({ status: 'failed', lastError })
        .where(eq(webhookDeliveries.id, deliveryId));
    },

    async countEndpoints(executor: Executor, clinicId: number): Promise<number> {
      const [row] = await executor
        .select({ count: sql<number>`count(*)::int` })
        .from(webhookEndpoints)
        .where(eq(webhookEndpoints.clinicId, clinicId));
      return row?.count ?? 0;
    },

    /**
     * The id the next endpoint will have, taken from the identity's sequence before the insert:
     * its secret is encrypted bound to it.
     */
    async nextEndpointId(executor: Executor): Promise<number> {
      const result = await executor.execute(
        sql`SELECT nextval(pg_get_serial_sequence('webhook_endpoints', 'id'))::int AS id`,
      );
      return Number((result as unknown as { rows: { id: number }[] }).rows[0]?.id);
    },

    async insertEndpoint(
      executor: Executor,
      values: typeof webhookEndpoints.$inferInsert,
    ): Promise<WebhookEndpointRow> {
      const [row] = await executor.insert(webhookEndpoints).values(values).returning();
      if (!row) throw new Error('webhook endpoint not saved');
      return row;
    },

    /** `forUpdate`: locks the row until the transaction ends (a rotation reads, then replaces). */
    async findEndpoint(
      executor: Executor,
      clinicId: number,
      id: number,
      options: { forUpdate?: boolean } = {},
    ) {
      const query = executor
        .select()
        .from(webhookEndpoints)
        .where(and(eq(webhookEndpoints.clinicId, clinicId), eq(webhookEndpoints.id, id)));
      const [row] = options.forUpdate ? await query.for('update') : await query;
      return row ?? null;
    },

    async listEndpoints(clinicId: number): Promise<WebhookEndpointRow[]> {
      return db
        .select()
        .from(webhookEndpoints)
        .where(eq(webhookEndpoints.clinicId, clinicId))
        .orderBy(webhookEndpoints.id);
    },

    async updateEndpoint(
      executor: Executor,
      clinicId: number,
      id: number,
      values: Partial<typeof webhookEndpoints.$inferInsert>,
    ) {
      const [row] = await executor
        .update(webhookEndpoints)
        .set(values)
        .where(and(eq(webhookEndpoints.clinicId, clinicId), eq(webhookEndpoints.id, id)))
        .returning();
      return row ?? null;
    },

    /** Deletes the endpoint with its delivery log; null when the clinic has no such endpoint. */
    async deleteEndpoint(executor: Executor, clinicId: number, id: number) {
      const [row] = await executor
        .delete(webhookEndpoints)
        .where(and(eq(webhookEndpoints.clinicId, clinicId), eq(webhookEndpoints.id, id)))
        .returning({ url: webhookEndpoints.url });
      return row ?? null;
    },

    /** The clinic's deliveries, newest first. */
    async listDeliveries(clinicId: number, filter: DeliveryFilter): Promise<WebhookDeliveryRow[]> {
      const conditions = [eq(webhookDeliveries.clinicId, clinicId)];
      if (filter.endpointId !== undefined) {
        conditions.push(eq(webhookDeliveries.endpointId, filter.endpointId));
      }
      if (filter.status !== undefined) conditions.push(eq(webhookDeliveries.status, filter.status));
      if (filter.before !== undefined) conditions.push(lt(webhookDeliveries.id, filter.before));
      // By id, the order they were written in: a stable cursor for `before`.
      return db
        .select()
        .from(webhookDeliveries)
        .where(and(...conditions))
        .orderBy(desc(webhookDeliveries.id))
        .limit(filter.limit);
    },

    /** An appointment with what its event names: caregiver, type, patient, the clinic's zone. */
    async findAppointment(executor: Executor, appointmentId: number) {
      const [row] = await selectAppointmentViews(executor).where(
        eq(appointments.id, appointmentId),
      );
      return row ?? null;
    },
  };
}

export type WebhooksRepository = ReturnType<typeof createWebhooksRepository>;
