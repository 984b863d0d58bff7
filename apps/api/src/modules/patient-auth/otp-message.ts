import { randomInt } from 'node:crypto';

/** A one-time code: six digits, each drawn from a CSPRNG. */
export function generateCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/**
 * The SMS carrying a one-time code: Hebrew, naming the clinic, and ending with the WebOTP line
 * (`@host #code`, https://wicg.github.io/web-otp/) so the phone offers to fill the code in on
 * our site, and only there.
 */
export function otpMessage(input: {
  code: string;
  clinicName: string;
  host: string;
  validMinutes: number;
}): string {
  return [
    `${input.code} הוא קוד האימות שלך ב${input.clinicName}.`,
    `הקוד בתוקף ${input.validMinutes} דקות. אין למסור אותו לאף אחד.`,
    '',
    `@${input.host} #${input.code}`,
  ].join('\n');
}
