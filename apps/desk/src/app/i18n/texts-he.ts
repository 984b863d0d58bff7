import he from './he.json';
import { collectTexts } from './texts';

export const heTexts = collectTexts(
  he,
  import.meta.glob<{ default: Record<string, unknown> }>('../../features/*/i18n/he.json', {
    eager: true,
  }),
);
