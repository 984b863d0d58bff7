import {
  addressPartSchema,
  clinicNameSchema,
  clinicPhoneSchema,
  nameSchema,
  phoneSchema,
} from '@marpe/shared';
import type { z } from 'zod';
import type { NewClinicInput } from '../modules/clinics/create-clinic.js';
import { isValidTimeZone } from '../platform/zoned-time.js';
import { positiveInteger, readArgs, UsageError } from './args.js';

export const CREATE_CLINIC_USAGE = `  create-clinic --name <text> --phone <number> --street <text> --home-number <text>
                --city <text> [--timezone <zone>] [--owner-phone <mobile> --owner-name <text>]
      Creates a clinic and prints its id. It starts closed all week with no caregivers. With
      --owner-phone it also prints a one-time invitation link to the desk (valid 7 days) for
      the clinic's first owner, who sets the clinic up there (docs/desk.md); without it, load
      the clinic through the integration API (docs/integration.md). --timezone is an IANA zone
      name (default Asia/Jerusalem).`;

export const CREATE_KEY_USAGE = `  create-key --clinic <id> [--name <text>]
      Creates a key to the clinic's integration API and prints it. It is shown this once (only
      its hash is kept): store it now. --name tells the clinic's keys apart (default "default").`;

export const REVOKE_KEY_USAGE = `  revoke-key --clinic <id> --key-id <id>
      Revokes one of the clinic's API keys at once (GET /api/integration/api-keys lists them).`;

/** `--flag value` or `--flag=value` pairs of the flags a command knows; 'help' for --help. */
function readFlags(
  args: readonly string[],
  known: readonly string[],
): Map<string, string> | 'help' {
  const spec: Record<string, { type: 'string' | 'boolean'; short?: string }> = {
    help: { type: 'boolean', short: 'h' },
  };
  for (const flag of known) spec[flag.slice(2)] = { type: 'string' };
  const { values } = readArgs(args, spec);
  if (values.help) return 'help';
  const flags = new Map<string, string>();
  for (const flag of known) {
    const value = values[flag.slice(2)];
    if (typeof value === 'string') flags.set(flag, value);
  }
  return flags;
}

function required(values: Map<string, string>, flag: string, what: string): string {
  const value = values.get(flag);
  if (value === undefined) throw new UsageError(`${flag} <${what}> is required`);
  return value;
}

/** The value as the API would take it, or a usage error naming the flag. */
function checked(flag: string, value: string, schema: z.ZodType<string>): string {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new UsageError(`${flag}: ${parsed.error.issues[0]?.message ?? 'invalid value'}`);
  }
  return parsed.data;
}

export interface CreateClinicArgs extends NewClinicInput {
  /** The first owner, invited to the desk. */
  owner?: { phone: string; name: string };
}

export function parseCreateClinicArgs(args: readonly string[]): CreateClinicArgs | 'help' {
  const values = readFlags(args, [
    '--name',
    '--phone',
    '--street',
    '--home-number',
    '--city',
    '--timezone',
    '--owner-phone',
    '--owner-name',
  ]);
  if (values === 'help') return values;
  const text = (flag: string, what: string, schema: z.ZodType<string>) =>
    checked(flag, required(values, flag, what), schema);
  const result: CreateClinicArgs = {
    name: text('--name', 'text', clinicNameSchema),
    phone: text('--phone', 'number', clinicPhoneSchema),
    street: text('--street', 'text', addressPartSchema),
    homeNumber: text('--home-number', 'text', addressPartSchema),
    city: text('--city', 'text', addressPartSchema),
  };
  const timezone = values.get('--timezone');
  if (timezone !== undefined) {
    if (!isValidTimeZone(timezone)) {
      throw new UsageError(`--timezone: unknown time zone "${timezone}" (e.g. Asia/Jerusalem)`);
    }
    result.timezone = timezone;
  }
  const ownerPhone = values.get('--owner-phone');
  const ownerName = values.get('--owner-name');
  if (ownerPhone !== undefined || ownerName !== undefined) {
    if (ownerPhone === undefined) throw new UsageError('--owner-name goes with --owner-phone');
    result.owner = {
      phone: checked('--owner-phone', ownerPhone, phoneSchema),
      name: checked('--owner-name', required(values, '--owner-name', 'text'), nameSchema),
    };
  }
  return result;
}

export interface CreateKeyArgs {
  clinicId: number;
  name: string;
}

export function parseCreateKeyArgs(args: readonly string[]): CreateKeyArgs | 'help' {
  const values = readFlags(args, ['--clinic', '--name']);
  if (values === 'help') return values;
  const name = (values.get('--name') ?? 'default').trim();
  if (name === '' || name.length > 100) throw new UsageError('--name: 1 to 100 characters');
  return { clinicId: positiveInteger('--clinic', required(values, '--clinic', 'id')), name };
}

export interface RevokeKeyArgs {
  clinicId: number;
  keyId: number;
}

export function parseRevokeKeyArgs(args: readonly string[]): RevokeKeyArgs | 'help' {
  const values = readFlags(args, ['--clinic', '--key-id']);
  if (values === 'help') return values;
  return {
    clinicId: positiveInteger('--clinic', required(values, '--clinic', 'id')),
    keyId: positiveInteger('--key-id', required(values, '--key-id', 'id')),
  };
}
