// What every `npm run marpe -- <command>` argument parser shares.

/** A mistake in the command line: printed with the usage, exit status 2. */
export class UsageError extends Error {}

export function positiveInteger(
  flag: string,
  value: string | undefined,
  max = 2_147_483_647,
): number {
  if (
    value === undefined ||
    !/^\d{1,10}$/.test(value) ||
    Number(value) < 1 ||
    Number(value) > max
  ) {
    throw new UsageError(`${flag} needs a whole number from 1 to ${max}`);
  }
  return Number(value);
}

/** `--flag=value` as [flag, value]; anything else as [arg, undefined]. */
export function splitInlineValue(arg: string): [string, string | undefined] {
  const eq = arg.indexOf('=');
  return arg.startsWith('--') && eq > 0 ? [arg.slice(0, eq), arg.slice(eq + 1)] : [arg, undefined];
}
