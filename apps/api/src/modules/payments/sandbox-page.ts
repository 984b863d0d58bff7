import {
  CHARGE_REF_FIELD,
  describeResponseCode,
  formatAmount,
  formatProviderSum,
  isReceiptEmail,
  MAX_PAYMENTS,
  parseProviderSum,
  PAYMENT_SUCCESS_CODE,
} from '@marpe/shared';
import { escapeHtmlAttribute as escapeHtml } from '../../platform/http/html-text.js';
import { TERMINAL_PATTERN } from './create-payment-link.js';
import type { ProviderFields } from './provider-fields.js';

// The demo's stand-in for the card provider's frame (`/api/sandbox/:terminal/iframenew.php`):
// it takes the frame's parameters (docs/product/payments.md#card-frame), shows what would be
// charged, offers test cards, and then calls our notify address as the provider would. Demo mode
// only; no card data at all.

/**
 * The frame parameters the page carries from its address to its form
 * (docs/product/payments.md#card-frame).
 */
export const frameParameterNames = [
  'sum',
  'currency',
  'cred_type',
  'npay',
  'fpay',
  'spay',
  'lang',
  'nologo',
  'trButtonColor',
  'trTextColor',
  'buttonLabel',
  'contact',
  'remarks',
  'email',
  'success_url_address',
  'fail_url_address',
  'notify_url_address',
  CHARGE_REF_FIELD,
] as const;

export interface SandboxCard {
  /** As printed on the card; the sandbox never asks for a real one. */
  number: string;
  /** The provider response code paying with it produces. */
  response: string;
}

/**
 * Test cards: one approves, the others fail with the provider's codes
 * (docs/product/payments.md#response-codes). No card number holds a response code, so a label is
 * found by its code alone ("(033)", or /033/).
 */
export const sandboxCards: readonly SandboxCard[] = [
  { number: '4580 1111 1111 1111', response: PAYMENT_SUCCESS_CODE },
  { number: '4580 2222 2222 2222', response: '006' },
  { number: '4580 3333 3333 3333', response: '033' },
  { number: '4580 4444 4444 4444', response: '036' },
  { number: '4580 5555 5555 5555', response: '004' },
];

/** The label of a test card's choice, e.g. "4580 2222 2222 2222 – מספר CVV שגוי (006)". */
export const sandboxCardLabel = (card: SandboxCard): string =>
  `${card.number} – ${describeResponseCode(card.response)} (${card.response})`;

/** A charge the page was asked for, checked. */
export interface SandboxCharge {
  terminal: string;
  amountAgorot: number;
  /** '1' single payment, '8' instalments. */
  credType: '1' | '8';
  /** Instalments only: payments after the first and their sums in agorot. */
  npay: number;
  firstAgorot: number;
  laterAgorot: number;
  email: string;
  contact: string;
  remarks: string;
  /** The request's reference the frame was opened with (CHARGE_REF_FIELD), '' when none. */
  reference: string;
  successUrl: string;
  failUrl: string;
  /** The path (and query) of our notify address, to call in-process. */
  notifyPath: string;
  /** The frame parameters as given, for the form's hidden fields. */
  parameters: ProviderFields;
}

export type SandboxParse = { ok: true; charge: SandboxCharge } | { ok: false; problems: string[] };

function ownUrl(value: string | undefined, origins: readonly string[]): URL | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return origins.includes(url.origin) ? url : null;
  } catch {
    return null;
  }
}

/**
 * Checks the frame parameters as the provider would (a sum, shekels, a payment type whose
 * instalments add up), and that every address is on one of our `origins` (the public one, and
 * the one the sandbox page was reached at), the notify one a notify-payment path: the sandbox
 * calls and redirects nowhere else.
 */
export function parseSandboxCharge(
  terminal: string,
  fields: ProviderFields,
  origins: readonly string[],
): SandboxParse {
  const problems: string[] = [];
  if (!TERMINAL_PATTERN.test(terminal)) problems.push('terminal');
  const amountAgorot = parseProviderSum(fields.sum ?? '');
  if (amountAgorot === null || amountAgorot < 1) problems.push('sum');
  if (fields.currency !== undefined && fields.currency !== '1') problems.push('currency');

  const credType = fields.cred_type ?? '1';
  let npay = 0;
  let firstAgorot = amountAgorot ?? 0;
  let laterAgorot = 0;
  if (credType === '8') {
    npay = /^\d{1,2}$/.test(fields.npay ?? '') ? Number(fields.npay) : 0;
    firstAgorot = parseProviderSum(fields.fpay ?? '') ?? 0;
    laterAgorot = parseProviderSum(fields.spay ?? '') ?? 0;
    if (npay < 1 || npay + 1 > MAX_PAYMENTS) problems.push('npay');
    if (
      firstAgorot < 1 ||
      laterAgorot < 1 ||
      amountAgorot === null ||
      firstAgorot + npay * laterAgorot !== amountAgorot
    ) {
      problems.push('fpay', 'spay');
    }
  } else if (credType !== '1') {
    problems.push('cred_type');
  }

  const email = fields.email ?? '';
  if (email !== '' && !isReceiptEmail(email)) problems.push('email');
  const success = ownUrl(fields.success_url_address, origins);
  if (!success) problems.push('success_url_address');
  const fail = ownUrl(fields.fail_url_address, origins);
  if (!fail) problems.push('fail_url_address');
  const notify = ownUrl(fields.notify_url_address, origins);
  if (!notify || !/^\/api\/notify-payment\/[^/]+$/.test(notify.pathname)) {
    problems.push('notify_url_address');
  }
  if (
    problems.length > 0 ||
    !success ||
    !fail ||
    !notify ||
    amountAgorot === null ||
    (credType !== '1' && credType !== '8')
  ) {
    return { ok: false, problems };
  }

  const parameters: ProviderFields = {};
  for (const name of frameParameterNames) {
    const value = fields[name];
    if (value !== undefined) parameters[name] = value;
  }
  return {
    ok: true,
    charge: {
      terminal,
      amountAgorot,
      credType,
      npay,
      firstAgorot,
      laterAgorot,
      email,
      contact: fields.contact ?? '',
      remarks: fields.remarks ?? '',
      reference: fields[CHARGE_REF_FIELD] ?? '',
      successUrl: success.toString(),
      failUrl: fail.toString(),
      notifyPath: `${notify.pathname}${notify.search}`,
      parameters,
    },
  };
}

/** The provider's callback fields for a charge paid with a test card (its notify body). */
export function sandboxCallback(
  charge: SandboxCharge,
  card: SandboxCard,
  index: string,
  confirmationCode: string,
): ProviderFields {
  const approved = card.response === PAYMENT_SUCCESS_CODE;
  const callback: ProviderFields = {
    Response: card.response,
    index,
    ...(approved ? { ConfirmationCode: confirmationCode } : {}),
    sum: formatProviderSum(charge.amountAgorot),
    currency: '1',
    cred_type: charge.credType,
  };
  if (charge.credType === '8') {
    callback.npay = String(charge.npay);
    callback.fpay = formatProviderSum(charge.firstAgorot);
    callback.spay = formatProviderSum(charge.laterAgorot);
  }
  Object.assign(callback, {
    supplier: charge.terminal,
    ccno: card.number.replace(/\D/g, '').slice(-4),
    expmonth: '12',
    expyear: '30',
    contact: charge.contact,
    email: charge.email,
    remarks: charge.remarks,
  });
  // The provider sends the frame's extra parameters back with the notify.
  if (charge.reference !== '') callback[CHARGE_REF_FIELD] = charge.reference;
  return callback;
}

/** What the provider appends to the success or fail address when it sends the browser back. */
export function sandboxReturnFields(callback: ProviderFields): ProviderFields {
  const names = ['Response', 'index', 'ConfirmationCode', 'sum', 'currency', 'cred_type'];
  names.push('npay', 'fpay', 'spay');
  const fields: ProviderFields = {};
  for (const name of names) {
    const value = callback[name];
    if (value !== undefined) fields[name] = value;
  }
  return fields;
}

// The patient pages' money format, so the sum reads the same in the frame as around it: the sign
// first, one unbroken run (docs/formats.md).
const shekels = (agorot: number) => `<bdi dir="ltr" class="sum">₪${formatAmount(agorot)}</bdi>`;

// Small, and every colour pair passes WCAG AA: #212121 on white 16:1, on #fff8e1 15:1, on
// #00bcd4 7:1.
const STYLE = `
body{margin:0;font-family:system-ui,"Segoe UI",Arial,sans-serif;color:#212121;background:#fff;line-height:1.5}
main{max-width:32rem;margin:0 auto;padding:1rem}
h1{font-size:1.25rem;margin:0 0 .75rem}
.notice{background:#fff8e1;border:1px solid #6d4c00;border-radius:4px;padding:.5rem .75rem}
dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem}
dt{font-weight:600}
dd{margin:0}
.sum{white-space:nowrap}
fieldset{border:1px solid #757575;border-radius:4px;margin:1rem 0;padding:.5rem .75rem}
legend{font-weight:600;padding:0 .25rem}
.card{display:flex;gap:.5rem;align-items:center;padding:.25rem 0}
button{font:inherit;font-weight:600;color:#212121;background:#00bcd4;border:0;border-radius:4px;padding:.6rem 2rem;cursor:pointer}
:focus-visible{outline:3px solid #212121;outline-offset:2px}
`;

export const SANDBOX_HEADING = 'דף תשלום לבדיקה – אין חיוב אמיתי';

function page(body: string): string {
  return `<!doctype html>
<html lang="he" dir="rtl">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${SANDBOX_HEADING} · Marpe</title>
<style>${STYLE}</style>
</head>
<body>
<main aria-labelledby="sandbox-heading">
<h1 id="sandbox-heading">${SANDBOX_HEADING}</h1>
<p class="notice">זהו דף הדגמה של Marpe שמחקה את דף התשלום של חברת האשראי. לא מזינים בו פרטי כרטיס, ושום כרטיס אינו מחויב.</p>
${body}
</main>
</body>
</html>
`;
}

function instalmentsText(charge: SandboxCharge): string {
  if (charge.credType !== '8') return 'תשלום אחד';
  const later =
    charge.npay === 1
      ? `ועוד תשלום של ${shekels(charge.laterAgorot)}`
      : `ועוד ${charge.npay} תשלומים של ${shekels(charge.laterAgorot)} כל אחד`;
  return `${charge.npay + 1} תשלומים: תשלום ראשון של ${shekels(charge.firstAgorot)} ${later}`;
}

/** The card page: what would be charged, and a form to pay it with a test card. */
export function renderSandboxPage(charge: SandboxCharge, action: string): string {
  const hidden = Object.entries(charge.parameters)
    .map(
      ([name, value]) =>
        `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`,
    )
    .join('\n');
  const cards = sandboxCards
    .map((card, i) => {
      const id = `card-${card.response}`;
      const checked = i === 0 ? ' checked' : '';
      const [number, ...rest] = sandboxCardLabel(card).split(' – ');
      return `<div class="card"><input type="radio" name="card" id="${id}" value="${card.response}"${checked}><label for="${id}"><span dir="ltr">${escapeHtml(number ?? '')}</span> – ${escapeHtml(rest.join(' – '))}</label></div>`;
    })
    .join('\n');
  const email =
    charge.email === ''
      ? ''
      : `<dt>קבלה תישלח אל</dt><dd dir="ltr">${escapeHtml(charge.email)}</dd>`;
  return page(`<dl>
<dt>סכום לתשלום</dt><dd>${shekels(charge.amountAgorot)}</dd>
<dt>תשלומים</dt><dd>${instalmentsText(charge)}</dd>
${email}
</dl>
<form method="post" action="${escapeHtml(action)}">
${hidden}
<fieldset>
<legend>כרטיס לבדיקה</legend>
${cards}
</fieldset>
<button type="submit">תשלום</button>
</form>`);
}

/** The page for parameters the provider would refuse (or a callback that could not be sent). */
export function renderSandboxError(message: string): string {
  return page(`<h2>לא ניתן להציג את התשלום</h2>
<p>${escapeHtml(message)}</p>`);
}
