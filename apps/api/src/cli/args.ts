import { parseArgs } from 'node:util';

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

type Spec = Readonly<Record<string, { type: 'string' | 'boolean'; short?: string }>>;

type Token = NonNullable<ReturnType<typeof parseArgs>['tokens']>[number];

export interface ReadArgs<S extends Spec> {
  values: { [K in keyof S]?: S[K]['type'] extends 'boolean' ? boolean : string };
  /** In order, for commands that read what follows a flag (`--init a=1 b=2`). */
  tokens: Token[];
}

/** The flag a `node:util` parseArgs message names (`'--city <value>'`, `'--verbose'`). */
const flagIn = (message: string) => /'([^' ]+)/.exec(message)?.[1] ?? message;

/**
 * `--flag value` and `--flag=value` of the flags `spec` names (node:util's parseArgs, strict), as
 * UsageErrors in the words the commands always used: `unknown argument "--x"`, `--x needs a value`.
 * `positionals`: let bare words through (in `tokens`) instead of refusing them.
 */
export function readArgs<S extends Spec>(
  args: readonly string[],
  spec: S,
  options: { positionals?: boolean } = {},
): ReadArgs<S> {
  try {
    const { values, tokens } = parseArgs({
      args: [...args],
      options: spec,
      strict: true,
      allowPositionals: options.positionals ?? false,
      tokens: true,
    });
    return { values: values as ReadArgs<S>['values'], tokens };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const message = error instanceof Error ? error.message : String(error);
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
      throw new UsageError(`${flagIn(message)} needs a value`);
    }
    if (
      code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ||
      code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL'
    ) {
      throw new UsageError(`unknown argument "${flagIn(message)}"`);
    }
    throw error;
  }
}
