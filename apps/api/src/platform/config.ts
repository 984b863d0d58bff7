import path from 'node:path';
import { z } from 'zod';

export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof logLevels)[number];

export const nodeEnvs = ['development', 'production', 'test'] as const;
export type NodeEnv = (typeof nodeEnvs)[number];

export interface Config {
  readonly port: number;
  readonly host: string;
  /** Absolute path. */
  readonly dataDir: string;
  /** A PostgreSQL server to use instead of the embedded PGlite in `dataDir`. */
  readonly databaseUrl: string | null;
  readonly nodeEnv: NodeEnv;
  readonly demo: boolean;
  /** 32 bytes; null means "load or generate DATA_DIR/data-key" (never in production). */
  readonly dataKey: Buffer | null;
  /** Scheme, host and port, no trailing slash. */
  readonly publicOrigin: string;
  /** True when PUBLIC_ORIGIN was not set and defaults to http://localhost:PORT. */
  readonly publicOriginIsDefault: boolean;
  readonly isHttps: boolean;
  readonly parentSiteUrl: string;
  readonly logLevel: LogLevel;
}

export type Env = Readonly<Record<string, string | undefined>>;

export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.map((p) => `Invalid configuration: ${p}`).join('\n'));
    this.name = 'ConfigError';
  }
}

// An empty variable (`PORT=`) counts as unset.
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

function parseHttpUrl(value: string): URL | null {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== ''
      ? url
      : null;
  } catch {
    return null;
  }
}

function isBareOrigin(value: string): boolean {
  const url = parseHttpUrl(value);
  return (
    url !== null &&
    url.pathname === '/' &&
    url.username === '' &&
    url.password === '' &&
    // URL drops an empty "?" or "#"; the raw text must not have them either.
    !/[?#]/.test(value)
  );
}

const envSchema = z.object({
  PORT: optional(
    z
      .string()
      .regex(/^\d{1,5}$/, 'must be an integer 1-65535')
      .transform(Number)
      .refine((n) => n >= 1 && n <= 65535, 'must be an integer 1-65535'),
  ),
  HOST: optional(z.string().trim().min(1, 'must be a host name or IP address')),
  DATA_DIR: optional(z.string()),
  DATABASE_URL: optional(
    z.string().refine((v) => {
      try {
        const url = new URL(v);
        return url.protocol === 'postgres:' || url.protocol === 'postgresql:';
      } catch {
        return false;
      }
    }, 'must be a postgres:// or postgresql:// URL'),
  ),
  NODE_ENV: optional(z.enum(nodeEnvs, `must be one of ${nodeEnvs.join(', ')}`)),
  DEMO: optional(
    z
      .enum(['true', 'false', '1', '0'], 'must be true, false, 1 or 0')
      .transform((v) => v === 'true' || v === '1'),
  ),
  DATA_KEY: optional(
    z.string().transform((v, ctx) => {
      const key = parseDataKey(v);
      if (!key) {
        ctx.addIssue({
          code: 'custom',
          message: 'must be 32 bytes written as base64 or as 64 hex characters',
        });
        return z.NEVER;
      }
      return key;
    }),
  ),
  PUBLIC_ORIGIN: optional(
    z.string().refine(isBareOrigin, 'must be an origin such as https://app.example.com (no path)'),
  ),
  PARENT_SITE_URL: optional(
    z.string().refine((v) => parseHttpUrl(v) !== null, 'must be an http:// or https:// URL'),
  ),
  LOG_LEVEL: optional(z.enum(logLevels, `must be one of ${logLevels.join(', ')}`)),
});

/** Decodes a 32-byte key written as 64 hex characters or as base64 / base64url. */
export function parseDataKey(value: string): Buffer | null {
  const text = value.trim();
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(text)) {
    const key = Buffer.from(text, 'base64');
    return key.length === 32 ? key : null;
  }
  return null;
}

/** Parses the environment; throws ConfigError naming every bad variable. */
export function loadConfig(env: Env = process.env, cwd: string = process.cwd()): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${String(issue.path[0])} ${issue.message}`),
    );
  }
  const e = parsed.data;
  const problems: string[] = [];

  const nodeEnv = e.NODE_ENV ?? 'development';
  const production = nodeEnv === 'production';
  if (production && e.DEMO === true) {
    problems.push('DEMO must not be enabled when NODE_ENV=production');
  }
  if (production && !e.DATA_KEY) {
    problems.push(
      'DATA_KEY is required when NODE_ENV=production (32 bytes as base64 or 64 hex characters)',
    );
  }
  if (problems.length > 0) throw new ConfigError(problems);

  const port = e.PORT ?? 3000;
  const publicOrigin = e.PUBLIC_ORIGIN ? new URL(e.PUBLIC_ORIGIN).origin : null;
  const origin = publicOrigin ?? `http://localhost:${port}`;

  return Object.freeze({
    port,
    host: e.HOST ?? '127.0.0.1',
    dataDir: path.resolve(cwd, e.DATA_DIR ?? './data'),
    databaseUrl: e.DATABASE_URL ?? null,
    nodeEnv,
    demo: e.DEMO ?? !production,
    dataKey: e.DATA_KEY ?? null,
    publicOrigin: origin,
    publicOriginIsDefault: publicOrigin === null,
    isHttps: origin.startsWith('https:'),
    parentSiteUrl: e.PARENT_SITE_URL ?? `${origin}/`,
    logLevel: e.LOG_LEVEL ?? 'info',
  });
}
