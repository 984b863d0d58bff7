/** A mobile number as people write it: 052-7000001 (stored as 0527000001). */
export function formatPhone(phone: string): string {
  return /^05\d{8}$/.test(phone) ? `${phone.slice(0, 3)}-${phone.slice(3)}` : phone;
}

const locales = { he: 'he-IL', en: 'en-GB' } as const;

/** The reader's locale for dates and numbers: Hebrew (Israel), or British English (day first). */
export const localeOf = (language: string): string => (language === 'en' ? locales.en : locales.he);
