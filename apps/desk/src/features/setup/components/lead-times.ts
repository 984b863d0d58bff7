/** A reminder's lead time as the form shows it: an amount of a unit ("2 hours", "1 day"). */
export type LeadUnit = 'minutes' | 'hours' | 'days';
export interface LeadTime {
  amount: string;
  unit: LeadUnit;
}

const minutesPer: Record<LeadUnit, number> = { minutes: 1, hours: 60, days: 24 * 60 };
export const leadUnits = Object.keys(minutesPer) as LeadUnit[];

/** The largest unit the minutes are a whole number of: 1440 → 1 day, 90 → 90 minutes. */
export function leadTimeOf(minutes: number): LeadTime {
  const unit = minutes % minutesPer.days === 0 ? 'days' : minutes % 60 === 0 ? 'hours' : 'minutes';
  return { amount: String(minutes / minutesPer[unit]), unit };
}

/** The minutes a lead time stands for; NaN when its amount is not a number (the schema says so). */
export function minutesOf(lead: LeadTime): number {
  const amount = parseAmount(lead.amount);
  return Number.isNaN(amount) ? Number.NaN : Math.round(amount * minutesPer[lead.unit]);
}

/** A number typed in a field ("1.5", "2"); NaN when empty or not a number. */
export function parseAmount(text: string): number {
  const trimmed = text.trim();
  return trimmed === '' ? Number.NaN : Number(trimmed);
}
