import { isEmail } from './email.js';

// Payment rules (docs/product/payments.md). Money is counted in
// agorot (integers) everywhere inside the product; shekel decimals appear only in the contract's
// `amount` and in the card frame's parameters, both made from agorot by exact integer arithmetic.
//
// Zod-free, so that the payment pages can apply them without bringing zod into the browser;
// payments.ts builds the contract's schemas on them.

/** The card provider's success code (docs/product/payments.md#result). */
export const PAYMENT_SUCCESS_CODE = '000';

/**
 * Whose page takes the card: Tranzila (the product's card provider), or in demo mode the built-in
 * sandbox that stands in for it and charges nothing.
 */
export const CARD_PROVIDERS = ['tranzila', 'sandbox'] as const;
export type CardProvider = (typeof CARD_PROVIDERS)[number];

/** The largest number of payments a request may offer (the provider allows up to 36 instalments). */
export const MAX_PAYMENTS = 36;

/** A request's sum: 1 agora up to ₪1,000,000. */
export const MAX_AMOUNT_AGOROT = 100_000_000;

/** Shekels (a number with at most 2 decimals) to agorot; null when it is not such a number. */
export function toAgorot(shekels: number): number | null {
  if (!Number.isFinite(shekels)) return null;
  const agorot = Math.round(shekels * 100);
  // 0.1 + 0.2 style noise is fine; 12.345 is not a sum of agorot.
  if (Math.abs(agorot - shekels * 100) > 1e-6 * Math.max(1, Math.abs(shekels))) return null;
  return Number.isSafeInteger(agorot) ? agorot : null;
}

/** Agorot to shekels as a number (exact for any sum up to MAX_AMOUNT_AGOROT). */
export const toShekels = (agorot: number): number => agorot / 100;

/** Agorot as the provider's decimal text: always two decimals, a dot, no separators ("1250.50"). */
export function formatProviderSum(agorot: number): string {
  const sign = agorot < 0 ? '-' : '';
  const abs = Math.abs(agorot);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Provider decimal text ("1250.5", "1250.50", "1250") to agorot; null unless exactly that. */
export function parseProviderSum(text: string): number | null {
  const match = /^\s*(\d{1,9})(?:\.(\d{1,2}))?\s*$/.exec(text);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/**
 * docs/product/payments.md#amounts: thousands separators, no decimals when whole, else 2 ("1,250",
 * "1,250.50"). The digits and separators are the same in Hebrew and English.
 */
export function formatAmount(agorot: number): string {
  const whole = agorot % 100 === 0;
  return new Intl.NumberFormat('en-US', {
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: whole ? 0 : 2,
  }).format(agorot / 100);
}

export interface InstalmentSplit {
  /** How many payments after the first (the frame's `npay`). */
  npay: number;
  /** The first payment, in agorot (`fpay`). */
  firstAgorot: number;
  /** Each later payment, in agorot (`spay`). */
  laterAgorot: number;
}

/**
 * docs/product/payments.md#instalments: each later payment is the amount divided by the count,
 * rounded down to 2 decimals; the first is the remainder. Computed in agorot, so
 * `first + npay × later` is the amount exactly.
 */
export function splitInstalments(amountAgorot: number, count: number): InstalmentSplit {
  if (!Number.isSafeInteger(amountAgorot) || amountAgorot <= 0) {
    throw new RangeError('amount must be a positive whole number of agorot');
  }
  if (!Number.isInteger(count) || count < 1) throw new RangeError('count must be at least 1');
  const laterAgorot = Math.floor(amountAgorot / count);
  return {
    npay: count - 1,
    firstAgorot: amountAgorot - laterAgorot * (count - 1),
    laterAgorot,
  };
}

/**
 * The frame's colours and button (docs/product/payments.md#card-frame): the theme's cyan with dark
 * text (≥ 4.5:1).
 */
export const CARD_FRAME_STYLE = {
  buttonColor: '00BCD4',
  textColor: '212121',
  buttonLabel: 'לתשלום',
} as const;

export interface CardFrameUrlInput {
  /** Where the provider lives: `https://direct.tranzila.com`, or the demo sandbox's `…/api/sandbox`. */
  baseUrl: string;
  terminal: string;
  amountAgorot: number;
  /** The number of payments the patient chose, 1…numPayments. */
  payments: number;
  email: string;
  /** The patient's ID number (`contact`). */
  patientId: string;
  remarks: string;
  /** Our origin: return and notify addresses are built on it. */
  publicOrigin: string;
  /** The link token. */
  token: string;
  /** The provider's handshake token: the frame then charges exactly this sum. */
  thtk?: string | null;
  /** The request's reference (CHARGE_REF_FIELD), kept by the provider with the charge. */
  chargeRef?: string;
}

/**
 * The frame parameter carrying the request's own reference. The provider returns the frame's
 * extra parameters with the notify callback and keeps them with the transaction, so a charge
 * names the request it was made for (docs/decisions/029-one-charge-one-request.md).
 */
export const CHARGE_REF_FIELD = 'marpe_ref';

/** Where the provider returns the browser (by GET or POST); it answers 303 to `/tranzila/:token`. */
export const paymentReturnPath = (token: string): string =>
  `/api/payment-return/${encodeURIComponent(token)}`;

/** The provider's server-to-server callback. */
export const notifyPaymentPath = (token: string): string =>
  `/api/notify-payment/${encodeURIComponent(token)}`;

/** The SPA's result route (the payment provider's segment, docs/product/site.md#routes). */
export const paymentResultPath = (token: string): string =>
  `/tranzila/${encodeURIComponent(token)}`;

/** The card frame's address with every parameter of docs/product/payments.md#card-frame. */
export function buildCardFrameUrl(input: CardFrameUrlInput): string {
  const base = input.baseUrl.replace(/\/+$/, '');
  const url = new URL(`${base}/${encodeURIComponent(input.terminal)}/iframenew.php`);
  const origin = input.publicOrigin.replace(/\/+$/, '');
  const back = `${origin}${paymentReturnPath(input.token)}`;
  const params: Record<string, string> = {
    sum: formatProviderSum(input.amountAgorot),
    currency: '1',
    cred_type: input.payments > 1 ? '8' : '1',
  };
  if (input.payments > 1) {
    const split = splitInstalments(input.amountAgorot, input.payments);
    params.npay = String(split.npay);
    params.fpay = formatProviderSum(split.firstAgorot);
    params.spay = formatProviderSum(split.laterAgorot);
  }
  Object.assign(params, {
    lang: 'il',
    nologo: '1',
    trButtonColor: CARD_FRAME_STYLE.buttonColor,
    trTextColor: CARD_FRAME_STYLE.textColor,
    buttonLabel: CARD_FRAME_STYLE.buttonLabel,
    contact: input.patientId,
    remarks: input.remarks,
    email: input.email,
    success_url_address: back,
    fail_url_address: back,
    notify_url_address: `${origin}${notifyPaymentPath(input.token)}`,
  });
  if (input.chargeRef) params[CHARGE_REF_FIELD] = input.chargeRef;
  if (input.thtk) Object.assign(params, { thtk: input.thtk, new_process: '1' });
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url.toString();
}

/**
 * The receipt email must match the email pattern, as emailFormat in forms
 * (docs/product/payments.md#receipt-email).
 */
export const isReceiptEmail = (value: string): boolean => isEmail(value);

/**
 * The card payment response codes in Hebrew, shown after 'שגיאה בתשלום: '
 * (docs/product/payments.md#response-codes).
 */
const responseCodeDescriptions: Readonly<Record<string, string>> = {
  '000': 'עסקה אושרה',
  '001': 'כרטיס חסום',
  '002': 'כרטיס גנוב',
  '003': 'יש לפנות לחברת האשראי',
  '004': 'סירוב',
  '006': 'מספר CVV שגוי',
  '033': 'כרטיס פגום',
  '036': 'פג תוקף הכרטיס',
  '039': 'ספרת ביקורת שגויה',
  '057': 'לא הוזנו מספר תעודת זהות ו/או CVV2',
  '058': 'לא הוזנו מספר תעודת זהות ו/או CVV2',
  '059': 'לא הוזנו מספר תעודת זהות ו/או CVV2',
  '065': 'מטבע שגוי',
  '173': 'עסקה כפולה',
  '200': 'שגיאת יישום',
  '401': 'מספר התשלומים גבוה מהמותר',
  '447': 'מספר כרטיס שגוי',
  '700': 'עסקת בדיקה אושרה',
  '701': 'מספר בנק שגוי',
  '702': 'מספר סניף שגוי',
  '703': 'מספר חשבון שגוי',
  '704': 'שילוב שגוי של בנק, סניף וחשבון',
  '708': 'סכום החיוב אפס או שלילי',
  '800': 'העסקה בוטלה',
  '900': 'אימות 3D Secure נכשל',
  '903': 'חשד להונאה',
  '951': 'שגיאת פרוטוקול',
  '952': 'התשלום לא הושלם',
  '954': 'התשלום נכשל',
  '955': 'שגיאה במצב התשלום',
  '959': 'התשלום הסתיים ללא הצלחה',
};

/**
 * The 100–180 group (docs/product/payments.md#response-codes): terminal permissions and card
 * restrictions.
 */
const TERMINAL_RESTRICTION_DESCRIPTION = 'אין הרשאה במסוף או הגבלה על הכרטיס';

/**
 * The Hebrew description of a provider response code; '' for a code docs/product/payments.md does
 * not list.
 */
export function describeResponseCode(code: string): string {
  const text = code.trim();
  const known = responseCodeDescriptions[text];
  if (known !== undefined) return known;
  if (/^\d{3}$/.test(text) && Number(text) >= 100 && Number(text) <= 180) {
    return TERMINAL_RESTRICTION_DESCRIPTION;
  }
  return '';
}

/**
 * The result route's `results` query (docs/product/payments.md#result): a URL-encoded `key=value&…`
 * string. Returns its pairs; `Response` is the code.
 */
export function parsePaymentResults(results: string): Record<string, string> {
  const pairs: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(results)) pairs[key] = value;
  return pairs;
}
