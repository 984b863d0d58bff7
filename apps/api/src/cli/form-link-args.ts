import { initDataSchema } from '@marpe/shared';
import {
  DEFAULT_LINK_DAYS,
  MAX_LINK_DAYS,
  type CreateFormLinkInput,
} from '../modules/forms/form-links.js';
import { positiveInteger, readArgs, UsageError } from './args.js';

export { UsageError };

/** The service's input with the defaults the command fills in: `days` is `expiresInDays`. */
export interface FormLinkArgs extends Required<
  Pick<CreateFormLinkInput, 'clinicId' | 'templateId' | 'initData'>
> {
  days: number;
}

export function parseFormLinkArgs(args: readonly string[]): FormLinkArgs {
  // `--init a=1 b=2`: the words after --init are its pairs too (bare words anywhere else are not).
  const { values, tokens } = readArgs(
    args,
    {
      clinic: { type: 'string' },
      template: { type: 'string' },
      days: { type: 'string' },
      init: { type: 'string' },
    },
    { positionals: true },
  );
  const initData: Record<string, string> = {};
  let inInit = false;
  for (const token of tokens) {
    let pair: string | undefined;
    if (token.kind === 'option') {
      inInit = token.name === 'init';
      if (inInit) pair = token.value;
    } else if (token.kind === 'positional') {
      if (!inInit) throw new UsageError(`unknown argument "${token.value}"`);
      pair = token.value;
    }
    if (pair === undefined) continue;
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`--init takes key=value pairs, not "${pair}"`);
    initData[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  if (values.clinic === undefined) throw new UsageError('--clinic <id> is required');
  if (values.template === undefined) throw new UsageError('--template <id> is required');
  const clinicId = positiveInteger('--clinic', values.clinic);
  const templateId = positiveInteger('--template', values.template);
  const days =
    values.days === undefined
      ? DEFAULT_LINK_DAYS
      : positiveInteger('--days', values.days, MAX_LINK_DAYS);
  const parsed = initDataSchema.safeParse(initData);
  if (!parsed.success) throw new UsageError('--init values must be text');
  return { clinicId, templateId, initData: parsed.data, days };
}
