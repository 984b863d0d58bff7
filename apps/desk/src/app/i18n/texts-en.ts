import en from './en.json';
import { collectTexts } from './texts';

export const enTexts = collectTexts(
  en,
  import.meta.glob<{ default: Record<string, unknown> }>('../../features/*/i18n/en.json', {
    eager: true,
  }),
);
