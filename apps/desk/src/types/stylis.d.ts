// stylis ships no types and @types/stylis is not a dependency; only what the emotion caches use.
declare module 'stylis' {
  import type { StylisPlugin } from '@emotion/cache';

  export type Middleware = StylisPlugin;
  export const prefixer: StylisPlugin;
}
