import 'i18next';
import type he from './he.json';

// Hebrew is the source of truth: t() only accepts keys that exist in he.json.
declare module 'i18next' {
  interface CustomTypeOptions {
    resources: { translation: typeof he };
  }
}
