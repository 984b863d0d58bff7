import type { AuditLogEntry } from '@marpe/shared';
import type { TFunction } from 'i18next';

/** The areas the action filter offers: each filters by its prefix (`appointment.`). */
export const auditResources = [
  'appointment',
  'patient',
  'form_request',
  'form_template',
  'payment_request',
  'payment_provider',
  'waitlist',
  'caregiver',
  'appointment_type',
  'busy_times',
  'closure',
  'clinic',
  'setup_step',
  'reminders',
  'image',
  'staff',
  'api_key',
  'webhook_endpoint',
  'webhook_delivery',
  'calendar_feed',
  'whatsapp',
  'shaam',
  'message',
] as const;

/** Actors that are not a person or a key (`reminders`, `waitlist`: what Marpe sends by itself). */
export const otherActors = [
  'cli',
  'whatsapp_signup',
  'shaam_auth',
  'calendar_link',
  'reminders',
  'waitlist',
] as const;

const idAfter = (actor: string, prefix: string) =>
  actor.startsWith(prefix) ? actor.slice(prefix.length) : null;

/** Who did it, as people say it: the staff member's name, the key's, or what else it was. */
export function actorLabel(t: TFunction, entry: Pick<AuditLogEntry, 'actor' | 'actor_name'>) {
  const keyId = idAfter(entry.actor, 'api_key:');
  if (keyId !== null) {
    return entry.actor_name
      ? t('actors.apiKey', { name: entry.actor_name })
      : t('actors.unknownApiKey', { id: keyId });
  }
  const staffId = idAfter(entry.actor, 'staff:');
  if (staffId !== null) return entry.actor_name ?? t('actors.unknownStaff', { id: staffId });
  const patientId = idAfter(entry.actor, 'patient:');
  if (patientId !== null) return t('actors.patient', { id: patientId });
  return t(`actors.${entry.actor}`, { defaultValue: entry.actor_name ?? entry.actor });
}

/** What was done, in words; an action the desk does not know yet reads as its code. */
export function actionLabel(t: TFunction, action: string): string {
  return /^[a-z_]+\.[a-z_]+$/.test(action)
    ? t(`actions.${action}`, { defaultValue: action })
    : action;
}

/** The entry's object and details, short: "Appointment no. 12 · name: …". */
export function detailsOf(t: TFunction, entry: AuditLogEntry): string[] {
  const parts: string[] = [];
  if (entry.target_type && entry.target_id) {
    const type = t(`targets.${entry.target_type}`, { defaultValue: entry.target_type });
    parts.push(t('table.target', { type, id: entry.target_id }));
  }
  for (const [key, value] of Object.entries(entry.details)) {
    if (value === null || value === undefined || value === '') continue;
    const text =
      typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
        ? String(value)
        : JSON.stringify(value);
    parts.push(`${key}: ${text}`);
  }
  return parts;
}

/** Offset of the zone from UTC at an instant, in ms (local minus UTC). */
function offsetAt(epoch: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(epoch));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const local = Date.UTC(
    get('year'),
    get('month') - 1,
    get('day'),
    get('hour'),
    get('minute'),
    get('second'),
  );
  return local - Math.floor(epoch / 1000) * 1000;
}

/** The instant a clinic day (`YYYY-MM-DD`) begins in its zone, ISO 8601 UTC. */
export function dayStartIn(date: string, timeZone: string, addDays = 0): string {
  const [year = 0, month = 1, day = 1] = date.split('-').map(Number);
  const midnight = Date.UTC(year, month - 1, day + addDays);
  let instant = midnight - offsetAt(midnight, timeZone);
  // Across a DST change the offset at the guess may differ from the one at the answer.
  instant = midnight - offsetAt(instant, timeZone);
  return new Date(instant).toISOString();
}
