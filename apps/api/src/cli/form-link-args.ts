import { initDataSchema, type InitData } from '@marpe/shared';
import { DEFAULT_LINK_DAYS, MAX_LINK_DAYS } from '../modules/forms/forms-service.js';
import { positiveInteger, UsageError } from './args.js';

export { UsageError };

export interface FormLinkArgs {
  clinicId: number;
  templateId: number;
  initData: InitData;
  days: number;
}

export function parseFormLinkArgs(args: readonly string[]): FormLinkArgs {
  let clinicId: number | undefined;
  let templateId: number | undefined;
  let days = DEFAULT_LINK_DAYS;
  const initData: Record<string, string> = {};
  const addInit = (pair: string) => {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`--init takes key=value pairs, not "${pair}"`);
    initData[pair.slice(0, eq)] = pair.slice(eq + 1);
  };

  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    const [flag = '', inline] =
      arg.startsWith('--') && arg.includes('=') && !arg.startsWith('--init=')
        ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
        : [arg, undefined];
    const next = () => inline ?? args[++i];
    switch (flag) {
      case '--clinic':
        clinicId = positiveInteger('--clinic', next());
        break;
      case '--template':
        templateId = positiveInteger('--template', next());
        break;
      case '--days':
        days = positiveInteger('--days', next(), MAX_LINK_DAYS);
        break;
      case '--init': {
        let taken = 0;
        while (i + 1 < args.length && !(args[i + 1] ?? '').startsWith('--')) {
          addInit(args[++i] ?? '');
          taken++;
        }
        if (taken === 0) throw new UsageError('--init needs at least one key=value');
        break;
      }
      default:
        if (arg.startsWith('--init=')) addInit(arg.slice('--init='.length));
        else throw new UsageError(`unknown argument "${arg}"`);
    }
  }
  if (clinicId === undefined) throw new UsageError('--clinic <id> is required');
  if (templateId === undefined) throw new UsageError('--template <id> is required');
  const parsed = initDataSchema.safeParse(initData);
  if (!parsed.success) throw new UsageError('--init values must be text');
  return { clinicId, templateId, initData: parsed.data, days };
}
