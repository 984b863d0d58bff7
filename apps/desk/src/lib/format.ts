/** A mobile number as people write it: 052-7000001 (stored as 0527000001). */
export function formatPhone(phone: string): string {
  return /^05\d{8}$/.test(phone) ? `${phone.slice(0, 3)}-${phone.slice(3)}` : phone;
}

const locales = { he: 'he-IL', en: 'en-GB' } as const;

/** The reader's locale for dates and numbers: Hebrew (Israel), or British English (day first). */
export const localeOf = (language: string): string => (language === 'en' ? locales.en : locales.he);

/** An instant as the clinic reads it: its date and time in the clinic's zone (when known). */
export function formatInstant(iso: string, language: string, timeZone?: string): string {
  return new Intl.DateTimeFormat(localeOf(language), {
    dateStyle: 'short',
    timeStyle: 'short',
    ...(timeZone ? { timeZone } : {}),
  }).format(new Date(iso));
}
