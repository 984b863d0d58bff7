import type { IntegrationClinic, UpdateClinicBody } from '@marpe/shared';
import type { MessageCapCeilings } from '../../platform/config.js';
import { invalidField } from '../../platform/errors.js';
import { isValidTimeZone, zonedDate } from '../../platform/zoned-time.js';
import type { ClinicActor } from '../../platform/http/integration-routes.js';
import { effectiveMessageCaps, messageCapCeilings } from '../integration/message-caps.js';
import type { ClinicRow, ClinicValues } from './setup-repository.js';
import { canonicalTimeZone, createSetupSteps, type ClinicServiceDeps } from './setup-steps.js';

const DAY = 86_400_000;

function toClinic(row: ClinicRow): IntegrationClinic {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    image_url: row.imageUrl,
    logo_url: row.logoUrl,
    phone: row.phone,
    email: row.email,
    address: { street: row.street, home_number: row.homeNumber, city: row.city },
    opening_hours: row.openingHours,
    timezone: row.timezone,
    settings: {
      is_accept_new_patients: row.isAcceptNewPatients,
      is_auto_sms_enabled: row.isAutoSmsEnabled,
      messaging_channel: row.messagingChannel,
      card_terminal: row.cardTerminal,
      cancel_notice_minutes: row.cancelNoticeMinutes,
      max_upcoming_appointments: row.maxUpcomingAppointments,
      calendar_event_detail: row.calendarEventDetail,
      message_caps: messageCapsBody(
        effectiveMessageCaps({
          perRecipientPerHour: row.messageCapPerRecipientHour,
          perRecipientPerDay: row.messageCapPerRecipientDay,
          perClinicPerDay: row.messageCapPerClinicDay,
        }),
      ),
      waitlist_offers_per_entry_per_day: row.waitlistOffersPerEntryPerDay,
      change_notices: {
        booked: row.notifyBooked,
        moved: row.notifyMoved,
        cancelled: row.notifyCancelled,
      },
      calendar_all_day_events_block: row.calendarAllDayEventsBlock,
    },
    default_marpe_rules: {
      slot_step_minutes: row.defaultSlotStepMinutes,
      min_notice_minutes: row.defaultMinNoticeMinutes,
      booking_horizon_days: row.defaultBookingHorizonDays,
    },
    message_cap_ceilings: messageCapsBody(messageCapCeilings()),
  };
}

const messageCapsBody = (caps: MessageCapCeilings) => ({
  per_recipient_per_hour: caps.perRecipientPerHour,
  per_recipient_per_day: caps.perRecipientPerDay,
  per_clinic_per_day: caps.perClinicPerDay,
});

/** 400 naming the first cap above the operator's ceiling: a clinic may only set them lower. */
function checkMessageCaps(caps: NonNullable<UpdateClinicBody['settings']>['message_caps']): void {
  if (!caps) return;
  const ceilings = messageCapsBody(messageCapCeilings());
  const variables = {
    per_recipient_per_hour: 'MESSAGE_CAP_RECIPIENT_HOUR_MAX',
    per_recipient_per_day: 'MESSAGE_CAP_RECIPIENT_DAY_MAX',
    per_clinic_per_day: 'MESSAGE_CAP_CLINIC_DAY_MAX',
  } as const;
  for (const name of Object.keys(variables) as (keyof typeof variables)[]) {
    const value = caps[name];
    if (value !== undefined && value > ceilings[name]) {
      throw invalidField(
        `settings.message_caps.${name}`,
        `At most ${ceilings[name]}: the ceiling this server's operator set (${variables[name]})`,
      );
    }
  }
}

/** The clinic's profile and settings. */
export function createClinicProfile(
  deps: Pick<ClinicServiceDeps, 'repository' | 'reminders' | 'cache' | 'clock'>,
) {
  const { repository, reminders, clock } = deps;
  const { db } = repository;
  const { clinicOf, changeSetup, audited } = createSetupSteps(deps);

  return {
    async getClinic(clinicId: number): Promise<IntegrationClinic> {
      return toClinic(await clinicOf(db, clinicId));
    },

    async updateClinic(
      clinicActor: ClinicActor,
      body: UpdateClinicBody,
    ): Promise<IntegrationClinic> {
      const now = clock();
      checkMessageCaps(body.settings?.message_caps);
      let timezone: string | undefined;
      if (body.timezone !== undefined) {
        if (!isValidTimeZone(body.timezone)) {
          throw invalidField('timezone', 'Expected an IANA time zone name, e.g. Asia/Jerusalem');
        }
        timezone = canonicalTimeZone(body.timezone);
      }
      const { address, settings, default_marpe_rules: rules } = body;
      const values: ClinicValues = Object.fromEntries(
        Object.entries({
          name: body.name,
          description: body.description,
          imageUrl: body.image_url,
          logoUrl: body.logo_url,
          phone: body.phone,
          email: body.email,
          street: address?.street,
          homeNumber: address?.home_number,
          city: address?.city,
          openingHours: body.opening_hours,
          timezone,
          isAcceptNewPatients: settings?.is_accept_new_patients,
          isAutoSmsEnabled: settings?.is_auto_sms_enabled,
          messagingChannel: settings?.messaging_channel,
          cardTerminal: settings?.card_terminal,
          cancelNoticeMinutes: settings?.cancel_notice_minutes,
          maxUpcomingAppointments: settings?.max_upcoming_appointments,
          calendarEventDetail: settings?.calendar_event_detail,
          messageCapPerRecipientHour: settings?.message_caps?.per_recipient_per_hour,
          messageCapPerRecipientDay: settings?.message_caps?.per_recipient_per_day,
          messageCapPerClinicDay: settings?.message_caps?.per_clinic_per_day,
          waitlistOffersPerEntryPerDay: settings?.waitlist_offers_per_entry_per_day,
          notifyBooked: settings?.change_notices?.booked,
          notifyMoved: settings?.change_notices?.moved,
          notifyCancelled: settings?.change_notices?.cancelled,
          calendarAllDayEventsBlock: settings?.calendar_all_day_events_block,
          defaultSlotStepMinutes: rules?.slot_step_minutes,
          defaultMinNoticeMinutes: rules?.min_notice_minutes,
          defaultBookingHorizonDays: rules?.booking_horizon_days,
        }).filter(([, value]) => value !== undefined),
      );

      const clinic = await changeSetup(clinicActor.clinicId, async (tx, current) => {
        if (
          values.messagingChannel === 'whatsapp' &&
          !(await repository.hasWhatsappConnection(tx, clinicActor.clinicId))
        ) {
          throw invalidField(
            'settings.messaging_channel',
            'Connect WhatsApp first (the WhatsApp connection page); until then messages go by SMS',
          );
        }
        if (Object.keys(values).length > 0) {
          await repository.updateClinic(tx, clinicActor.clinicId, values);
        }
        const newZone = timezone !== undefined && timezone !== current.timezone ? timezone : null;
        if (newZone !== null) {
          // local_date is the start's date in the clinic's zone; the one-booking-per-date rule
          // compares it. Bookings that ended over a day ago no longer meet a new booking's date.
          const booked = await repository.listBookedSince(
            tx,
            clinicActor.clinicId,
            new Date(now - 2 * DAY),
          );
          for (const row of booked) {
            await repository.setLocalDate(tx, row.id, zonedDate(row.startAt.getTime(), newZone));
          }
        }
        // Whole-day leads, quiet hours and rest days are clock times in the clinic's zone, and a
        // reminder due as online cancellation closes goes just before it closes.
        if (
          newZone !== null ||
          (values.cancelNoticeMinutes !== undefined &&
            values.cancelNoticeMinutes !== current.cancelNoticeMinutes)
        ) {
          await reminders.replanClinic(tx, clinicActor.clinicId);
        }
        await audited(tx, clinicActor, now, {
          action: 'clinic.update',
          targetType: 'clinic',
          targetId: clinicActor.clinicId,
          details: { changes: { ...body, ...(timezone === undefined ? {} : { timezone }) } },
        });
        return clinicOf(tx, clinicActor.clinicId);
      });
      return toClinic(clinic);
    },
  };
}
