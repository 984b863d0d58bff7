import type {
  AppointmentCalendarConflictEventData,
  AppointmentEventData,
  AppointmentRemindedEventData,
  AppointmentRescheduledEventData,
  WebhookEventData,
  WebhookEventPayload,
  WebhookEventType,
} from '@marpe/shared';
import { encryptText, randomToken } from '../../platform/crypto.js';
import type { Executor } from '../../platform/db/client.js';
import { toAppointmentView } from './appointment-view.js';
import { deliveryBodyAt, WEBHOOK_TOPIC, type WebhooksDeps } from './webhooks-deps.js';
import type { WebhooksRepository } from './webhooks-repository.js';

/**
 * Events: each runs inside the transaction of the change it reports and writes one delivery row
 * and one outbox row per subscribed endpoint, so an event exists exactly when the change commits.
 */
export function createWebhookEvents(
  {
    outbox,
    clock,
    secretKey,
    publicOrigin,
  }: Pick<WebhooksDeps, 'outbox' | 'clock' | 'secretKey' | 'publicOrigin'>,
  repository: WebhooksRepository,
) {
  /** Emits the event to the subscribed endpoints; `data` is built only when there is one. */
  async function emitWith<T extends WebhookEventType>(
    executor: Executor,
    clinicId: number,
    type: T,
    data: () => Promise<WebhookEventData[T]>,
  ): Promise<number> {
    const endpoints = await repository.listSubscribed(executor, clinicId, type);
    if (endpoints.length === 0) return 0;
    const createdAt = new Date(clock());
    const eventId = `evt_${randomToken(18)}`;
    const body = JSON.stringify({
      id: eventId,
      type,
      created_at: createdAt.toISOString(),
      clinic_id: clinicId,
      data: await data(),
    });
    const deliveries = await repository.insertDeliveries(
      executor,
      endpoints.map((endpoint) => ({
        endpointId: endpoint.id,
        clinicId,
        eventId,
        eventType: type,
        status: 'pending' as const,
        createdAt,
      })),
    );
    for (const delivery of deliveries) {
      await repository.setDeliveryBody(
        executor,
        delivery.id,
        encryptText(secretKey, body, deliveryBodyAt(delivery.id)),
      );
      await outbox.enqueue(executor, {
        topic: WEBHOOK_TOPIC,
        payload: { deliveryId: delivery.id, body },
        lane: 'webhooks',
      });
    }
    return deliveries.length;
  }

  async function appointmentData(
    executor: Executor,
    appointmentId: number,
  ): Promise<AppointmentEventData> {
    const row = await repository.findAppointment(executor, appointmentId);
    if (!row) throw new Error(`webhooks: no appointment ${appointmentId}`);
    return toAppointmentView(row);
  }

  return {
    /**
     * Emits an event in the caller's transaction (payment events and any other whose data the
     * caller has at hand); resolves with how many endpoints will receive it. Call `kick()` after
     * the commit so it leaves at once.
     */
    emit(executor: Executor, event: { clinicId: number } & WebhookEventPayload): Promise<number> {
      return emitWith(executor, event.clinicId, event.type, async () => event.data);
    },

    /** appointment.booked or appointment.cancelled, with the appointment as it now stands. */
    async emitAppointment(
      executor: Executor,
      type: 'appointment.booked' | 'appointment.cancelled',
      appointment: { id: number; clinicId: number },
    ): Promise<number> {
      return emitWith(executor, appointment.clinicId, type, () =>
        appointmentData(executor, appointment.id),
      );
    },

    /** appointment.rescheduled: the appointment as it now stands, and its slot before the move. */
    async emitAppointmentRescheduled(
      executor: Executor,
      appointment: { id: number; clinicId: number },
      previous: AppointmentRescheduledEventData['previous'],
    ): Promise<number> {
      return emitWith(executor, appointment.clinicId, 'appointment.rescheduled', async () => ({
        ...(await appointmentData(executor, appointment.id)),
        previous,
      }));
    },

    /** appointment.calendar_conflict: the appointment as it stands, and what clashes with it. */
    async emitAppointmentConflict(
      executor: Executor,
      appointment: { id: number; clinicId: number },
      conflict: AppointmentCalendarConflictEventData['conflict'],
    ): Promise<number> {
      return emitWith(
        executor,
        appointment.clinicId,
        'appointment.calendar_conflict',
        async () => ({
          ...(await appointmentData(executor, appointment.id)),
          conflict,
        }),
      );
    },

    /** appointment.reminded: the appointment as it now stands, and the reminder just queued. */
    async emitAppointmentReminded(
      executor: Executor,
      appointment: { id: number; clinicId: number },
      reminder: AppointmentRemindedEventData['reminder'],
    ): Promise<number> {
      return emitWith(executor, appointment.clinicId, 'appointment.reminded', async () => ({
        ...(await appointmentData(executor, appointment.id)),
        reminder,
      }));
    },

    /** form.submitted: where the answers can be read with an API key, never the answers. */
    async emitFormSubmitted(
      executor: Executor,
      submission: { clinicId: number; requestId: number; templateId: number | null; at: Date },
    ): Promise<number> {
      return emitWith(executor, submission.clinicId, 'form.submitted', async () => ({
        request_id: submission.requestId,
        template_id: submission.templateId,
        submitted_at: submission.at.toISOString(),
        submission_url: `${publicOrigin}/api/integration/form-requests/${submission.requestId}/submission`,
      }));
    },

    // Every lane: a caller may have queued other work (messages) in the same transaction.
    kick: () => outbox.kick(),
  };
}
