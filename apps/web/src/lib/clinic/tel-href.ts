/** The tel: address of a phone number as clinics write it ('03-5551234', '+972 3 555 1234'). */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, '')}`;
}
