// Over 400 lines: the environment is read in this one place at start-up, into one frozen object
// (nothing else reads process.env).
import { readFileSync } from 'node:fs';
import { BlockList, isIP } from 'node:net';
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
  /** 32 bytes; null means "load or generate DATA_DIR/data-key" (demo mode only). */
  readonly dataKey: Buffer | null;
  /**
   * DATA_KEY_PREVIOUS: keys DATA_KEY replaced, read (never written) until `marpe rotate-data-key`
   * has re-encrypted every row with DATA_KEY (docs/operations.md, "Rotating DATA_KEY").
   */
  readonly previousDataKeys: readonly Buffer[];
  /** Scheme, host and port, no trailing slash. */
  readonly publicOrigin: string;
  /** True when PUBLIC_ORIGIN was not set and defaults to http://localhost:PORT. */
  readonly publicOriginIsDefault: boolean;
  readonly isHttps: boolean;
  readonly parentSiteUrl: string;
  readonly logLevel: LogLevel;
  /**
   * Fastify's `trustProxy`: false (default) uses the socket's address as the client's; true, a
   * hop count or a list of addresses/CIDRs trusts X-Forwarded-For from those proxies. The per-client
   * limits (SMS sends) need the real client address behind a reverse proxy.
   */
  readonly trustProxy: boolean | number | string[];
  /**
   * DRAIN_SECONDS: on SIGTERM, how long readiness answers 503 while requests are still served,
   * so a load balancer takes the instance out before it stops accepting connections.
   */
  readonly drainSeconds: number;
  /** Prometheus metrics: off unless METRICS_PORT or METRICS_TOKEN is set (docs/operations.md). */
  readonly metrics: MetricsConfig;
  /**
   * OpenTelemetry traces: on when an OTLP endpoint or a traces exporter is named by the standard
   * OTEL_* variables (and OTEL_SDK_DISABLED is not true), else null; the exporters and the tracer
   * provider read the rest of them themselves.
   */
  readonly tracing: TracingConfig | null;
  /** Days processed outbox rows, delivered webhooks and expired challenges are kept. */
  readonly retentionDays: number;
  /** Days given-up (failed) outbox rows and webhook deliveries are kept, for inspection. */
  readonly retentionDeadDays: number;
  readonly sms: SmsConfig;
  /**
   * Where the card provider's payment frame lives, no trailing slash: the frame is
   * `${cardFrameBaseUrl}/<terminal>/iframenew.php`. Tranzila's `https://direct.tranzila.com`, or
   * in demo mode the built-in sandbox at `${publicOrigin}/api/sandbox`. Its origin is the one
   * card-frame origin the CSP's frame-src allows.
   */
  readonly cardFrameBaseUrl: string;
  /**
   * The card provider's server API, no trailing slash: charges are confirmed and frames pinned
   * through it. Tranzila's `https://api.tranzila.com`; null in demo mode unless set: the
   * sandbox's stand-in (`/api/sandbox/tranzila-api`), called in-process.
   */
  readonly providerApiBaseUrl: string | null;
  readonly whatsapp: WhatsAppConfig;
  readonly shaam: ShaamConfig;
  readonly calendar: CalendarConfig;
  /**
   * MESSAGE_CAP_*_MAX: the operator's ceilings on every clinic's message caps. A clinic (key or
   * desk owner) sets its caps at or below them; the caps in force are min(clinic's, ceiling).
   */
  readonly messageCapCeilings: MessageCapCeilings;
}

/** The operator's ceilings on the clinics' message caps (modules/integration/message-caps.ts). */
export interface MessageCapCeilings {
  readonly perRecipientPerHour: number;
  readonly perRecipientPerDay: number;
  readonly perClinicPerDay: number;
}

/** The ceilings when the operator sets none: a little room above the clinics' defaults (3, 10, 500). */
export const DEFAULT_MESSAGE_CAP_CEILINGS: MessageCapCeilings = Object.freeze({
  perRecipientPerHour: 5,
  perRecipientPerDay: 20,
  perClinicPerDay: 2000,
});

/** The fields of a Google service account's key Marpe uses (modules/calendar-sync). */
export interface ServiceAccountKey {
  readonly client_email: string;
  readonly private_key: string;
  readonly private_key_id?: string;
}

/** Google Calendar sync (modules/calendar-sync, docs/calendar-sync.md). */
export interface CalendarConfig {
  /**
   * GOOGLE_SERVICE_ACCOUNT_KEY_FILE or GOOGLE_SERVICE_ACCOUNT_KEY. Null: no calendar syncs, except
   * in demo mode, where an in-process stand-in of Google's API plays the part.
   */
  readonly serviceAccountKey: ServiceAccountKey | null;
  /** Google Calendar API v3, no trailing slash; null in demo mode without a key (the stand-in). */
  readonly apiBaseUrl: string | null;
  /** Where the service account's signed assertion is exchanged for a token. */
  readonly tokenUrl: string;
  /** How long the last check before a booking waits for Google's freeBusy. */
  readonly freeBusyTimeoutMs: number;
  /**
   * GOOGLE_SERVICE_ACCOUNT_CLINICS: the clinics whose caregivers may name a calendar for the
   * service account to sync. Every clinic that can reach the account can read and write any
   * calendar shared with it, so the operator names them ('all' on a server of one clinic, and in
   * demo mode by default).
   */
  readonly serviceAccountClinics: 'all' | readonly number[];
  /**
   * GOOGLE_OAUTH_CLIENT_ID and _SECRET: each caregiver connects their own calendar by consent.
   * Null without a client id: no connection links (in demo mode, the stand-in plays Google).
   */
  readonly oauth: GoogleOAuthConfig | null;
  /**
   * MICROSOFT_CLIENT_ID and _SECRET: caregivers connect a Microsoft 365 / Outlook calendar by
   * consent. Null without a client id (in demo mode, the stand-in plays Microsoft).
   */
  readonly microsoft: MicrosoftConfig | null;
}

/** Marpe's app registration at the Microsoft identity platform, and where Graph is. */
export interface MicrosoftConfig {
  readonly clientId: string;
  readonly clientSecret: string;
  /** `https://login.microsoftonline.com/{tenant}/oauth2/v2.0` (MICROSOFT_TENANT, default common). */
  readonly authorityUrl: string;
  /** Microsoft Graph v1.0, no trailing slash. */
  readonly graphBaseUrl: string;
}

export const MICROSOFT_LOGIN_ORIGIN = 'https://login.microsoftonline.com';
export const MICROSOFT_GRAPH_BASE_URL = 'https://graph.microsoft.com/v1.0';

/** Marpe's OAuth client at Google (a "Web application" client of the operator's project). */
export interface GoogleOAuthConfig {
  readonly clientId: string;
  readonly clientSecret: string;
  /** Where the caregiver's browser is sent to consent. */
  readonly authorizeUrl: string;
  /** Where a disconnect revokes the caregiver's token. */
  readonly revokeUrl: string;
}

export const GOOGLE_AUTHORIZE_URL = 'https://accounts.google.com/o/oauth2/v2/auth';
export const GOOGLE_REVOKE_URL = 'https://oauth2.googleapis.com/revoke';

export const GOOGLE_CALENDAR_API_BASE_URL = 'https://www.googleapis.com/calendar/v3';
export const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';

/** A service account key's JSON; null when it is not one Marpe can use. */
export function parseServiceAccountKey(text: string): ServiceAccountKey | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const key = value as Record<string, unknown>;
  if (
    typeof key.client_email !== 'string' ||
    !/^[^@\s]+@[^@\s]+$/.test(key.client_email) ||
    typeof key.private_key !== 'string' ||
    !key.private_key.includes('PRIVATE KEY')
  ) {
    return null;
  }
  return Object.freeze({
    client_email: key.client_email,
    private_key: key.private_key,
    ...(typeof key.private_key_id === 'string' ? { private_key_id: key.private_key_id } : {}),
  });
}

export const traceExporters = ['otlp', 'console'] as const;
export const otlpProtocols = ['http/protobuf', 'http/json'] as const;

/** What OTEL_TRACES_EXPORTER and OTEL_EXPORTER_OTLP_(TRACES_)PROTOCOL say (docs/operations.md). */
export interface TracingConfig {
  readonly exporters: readonly (typeof traceExporters)[number][];
  readonly protocol: (typeof otlpProtocols)[number];
}

export interface MetricsConfig {
  /** `/metrics` on a port of its own (the token is then optional); null: none. */
  readonly port: number | null;
  /** `Authorization: Bearer <token>` required; without a port, `/metrics` is on the main port. */
  readonly token: string | null;
}

/** Meta's WhatsApp Cloud API and embedded sign-up (modules/whatsapp, modules/messaging). */
export interface WhatsAppConfig {
  /** Scheme, host and optional path prefix of the Graph API, no trailing slash. */
  readonly graphApiBaseUrl: string;
  /**
   * The Meta app and its embedded sign-up configuration. Null outside demo mode when
   * META_APP_ID, META_APP_SECRET and META_CONFIG_ID are not set: clinics cannot connect then.
   */
  readonly appId: string | null;
  readonly configId: string | null;
  /** Null in demo mode without real credentials: the code exchange is refused (503). */
  readonly appSecret: string | null;
  /** Meta's JS SDK; its origin joins script-src on the connection page only. */
  readonly sdkUrl: string;
}

/** The Tax Authority's OAuth endpoints (modules/shaam). */
export interface ShaamConfig {
  readonly authorizeUrl: string;
  readonly tokenUrl: string;
  readonly scope: string;
}

export const GRAPH_API_BASE_URL = 'https://graph.facebook.com';
export const META_SDK_URL = 'https://connect.facebook.net/en_US/sdk.js';
/**
 * Demo mode's stand-ins for META_APP_ID and META_CONFIG_ID: the connection page loads and opens
 * Meta's dialog, which refuses them. Real credentials are needed to connect (docs/operations.md).
 */
export const DEMO_META_APP_ID = '000000000000000';
export const DEMO_META_CONFIG_ID = '000000000000000';
/** The Tax Authority's endpoints: production, and the sandbox demo mode uses. */
export const SHAAM_PRODUCTION_BASE_URL = 'https://openapi.taxes.gov.il/shaam/production';
export const SHAAM_SANDBOX_BASE_URL = 'https://openapi.taxes.gov.il/shaam/tsandbox';

/** Tranzila's card frame (the default outside demo mode). */
export const TRANZILA_FRAME_BASE_URL = 'https://direct.tranzila.com';
/** Tranzila's server API (the default outside demo mode). */
export const TRANZILA_API_BASE_URL = 'https://api.tranzila.com';

export const smsProviders = ['log', 'http', 'twilio', 'inforu'] as const;
export type SmsProviderName = (typeof smsProviders)[number];

/** Twilio's REST API (the default of TWILIO_API_BASE). */
export const TWILIO_API_BASE = 'https://api.twilio.com';
/** InforU Mobile's XML gateway (the default of INFORU_API_BASE). */
export const INFORU_API_BASE = 'https://uapi.inforu.co.il';

/**
 * `log` (demo: prints and records); `http`: the gateway at `url`; `twilio` and `inforu`: those
 * providers' own APIs, with delivery receipts (see modules/messaging).
 */
export type SmsConfig =
  | { readonly provider: 'log' }
  | {
      readonly provider: 'http';
      readonly url: string;
      readonly token: string;
      /** The sender name or number the gateway shows. */
      readonly sender: string;
    }
  | {
      readonly provider: 'twilio';
      readonly apiBaseUrl: string;
      readonly accountSid: string;
      /** Signs the status callbacks; also the password of the requests without an API key. */
      readonly authToken: string;
      /** An API key pair to send with instead of the auth token; null to use the auth token. */
      readonly apiKey: { readonly sid: string; readonly secret: string } | null;
      /** One of the two is set: a Messaging Service picks the sender itself. */
      readonly messagingServiceSid: string | null;
      readonly sender: string | null;
    }
  | {
      readonly provider: 'inforu';
      readonly apiBaseUrl: string;
      readonly username: string;
      readonly apiToken: string;
      readonly sender: string;
    };

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

/** An http(s) URL without credentials, query or fragment: a base other paths are added to. */
function isBaseUrl(value: string): boolean {
  const url = parseHttpUrl(value);
  return url !== null && url.username === '' && url.password === '' && !/[?#]/.test(value);
}

const baseUrl = optional(
  z.string().refine(isBaseUrl, 'must be an http:// or https:// URL without query string'),
);
const metaId = optional(
  z.string().regex(/^\d{1,30}$/, "must be the numeric id Meta's dashboard shows"),
);

/** An IPv4/IPv6 address, optionally with a prefix length: what proxy-addr accepts. */
function isAddressOrCidr(value: string): boolean {
  const [address = '', prefix, ...rest] = value.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
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

const days = z
  .string()
  .regex(/^\d{1,4}$/, 'must be a whole number of days from 1 to 3650')
  .transform(Number)
  .refine((n) => n >= 1 && n <= 3650, 'must be a whole number of days from 1 to 3650');

/** A whole number from 1 to `max`: the bounds the clinics' columns allow. */
// The values the SDK takes, but gRPC: its exporter and client (about 10 MB) are not installed, and
// a collector listens for OTLP over HTTP too. Failing at start beats a server that traces nothing.
const otlpProtocol = optional(
  z.enum(otlpProtocols, 'must be http/protobuf or http/json (gRPC is not supported)'),
);

/** The SDK's list: commas, `none` first turns traces off, `null` is skipped. */
const traceExporterList = optional(
  z
    .string()
    .transform((v) => [...new Set(v.split(',').map((name) => name.trim()))])
    .refine(
      (names) => names.every((n) => ['otlp', 'console', 'none', 'null', ''].includes(n)),
      'must be otlp, console or none (a comma-separated list)',
    ),
);

function tracingOf(e: {
  OTEL_SDK_DISABLED?: string | undefined;
  OTEL_TRACES_EXPORTER?: string[] | undefined;
  OTEL_EXPORTER_OTLP_ENDPOINT?: string | undefined;
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?: string | undefined;
  OTEL_EXPORTER_OTLP_PROTOCOL?: TracingConfig['protocol'] | undefined;
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL?: TracingConfig['protocol'] | undefined;
}): TracingConfig | null {
  if (e.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return null;
  const named = (e.OTEL_TRACES_EXPORTER ?? []).filter((n) => n !== '' && n !== 'null');
  if (named[0] === 'none') return null;
  if (named.length === 0 && !e.OTEL_EXPORTER_OTLP_ENDPOINT && !e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT)
    return null;
  // As the SDK does: nothing named, or `none` among others, means OTLP.
  const exporters = traceExporters.filter((n) => named.includes(n));
  return {
    exporters: exporters.length === 0 || named.includes('none') ? ['otlp'] : exporters,
    protocol:
      e.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? e.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf',
  };
}

const capCeiling = (max: number) =>
  optional(
    z
      .string()
      .regex(/^\d{1,6}$/, `must be a whole number from 1 to ${max}`)
      .transform(Number)
      .refine((n) => n >= 1 && n <= max, `must be a whole number from 1 to ${max}`),
  );

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
  DATA_KEY_PREVIOUS: optional(
    z.string().transform((v, ctx) => {
      const keys = v.split(',').map((part) => parseDataKey(part));
      if (keys.some((key) => key === null)) {
        ctx.addIssue({
          code: 'custom',
          message: 'must be 32-byte keys (base64 or 64 hex characters) separated by commas',
        });
        return z.NEVER;
      }
      return keys as Buffer[];
    }),
  ),
  PUBLIC_ORIGIN: optional(
    z.string().refine(isBareOrigin, 'must be an origin such as https://app.example.com (no path)'),
  ),
  PARENT_SITE_URL: optional(
    z.string().refine((v) => parseHttpUrl(v) !== null, 'must be an http:// or https:// URL'),
  ),
  LOG_LEVEL: optional(z.enum(logLevels, `must be one of ${logLevels.join(', ')}`)),
  TRUST_PROXY: optional(
    z.string().transform((v, ctx) => {
      const text = v.trim();
      if (text === 'true' || text === 'false') return text === 'true';
      if (/^\d{1,2}$/.test(text)) return Number(text);
      const list = text.split(',').map((s) => s.trim());
      if (list.every(isAddressOrCidr)) return list;
      ctx.addIssue({
        code: 'custom',
        message: 'must be true, false, a hop count, or comma-separated addresses/CIDRs',
      });
      return z.NEVER;
    }),
  ),
  DRAIN_SECONDS: optional(
    z
      .string()
      .regex(/^\d{1,3}$/, 'must be a whole number of seconds from 0 to 300')
      .transform(Number)
      .refine((n) => n <= 300, 'must be a whole number of seconds from 0 to 300'),
  ),
  METRICS_PORT: optional(
    z
      .string()
      .regex(/^\d{1,5}$/, 'must be an integer 1-65535')
      .transform(Number)
      .refine((n) => n >= 1 && n <= 65535, 'must be an integer 1-65535'),
  ),
  METRICS_TOKEN: optional(
    z.string().regex(/^[\x21-\x7e]{16,}$/, 'must be at least 16 printable characters, no spaces'),
  ),
  MESSAGE_CAP_RECIPIENT_HOUR_MAX: capCeiling(100),
  MESSAGE_CAP_RECIPIENT_DAY_MAX: capCeiling(1000),
  MESSAGE_CAP_CLINIC_DAY_MAX: capCeiling(100_000),
  RETENTION_DAYS: optional(days),
  RETENTION_DEAD_DAYS: optional(days),
  OTEL_SDK_DISABLED: optional(z.string()),
  OTEL_TRACES_EXPORTER: traceExporterList,
  OTEL_EXPORTER_OTLP_ENDPOINT: optional(z.string()),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: optional(z.string()),
  OTEL_EXPORTER_OTLP_PROTOCOL: otlpProtocol,
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: otlpProtocol,
  SMS_PROVIDER: optional(z.enum(smsProviders, `must be one of ${smsProviders.join(', ')}`)),
  SMS_HTTP_URL: optional(
    z.string().refine((v) => parseHttpUrl(v) !== null, 'must be an http:// or https:// URL'),
  ),
  SMS_HTTP_TOKEN: optional(z.string()),
  SMS_SENDER: optional(
    z
      .string()
      .regex(/^([A-Za-z0-9 ]{1,11}|\+?\d{3,15})$/, 'must be 1-11 letters/digits or a number'),
  ),
  TWILIO_ACCOUNT_SID: optional(
    z.string().regex(/^AC[0-9a-f]{32}$/, 'must be the account SID: AC and 32 hex digits'),
  ),
  TWILIO_AUTH_TOKEN: optional(
    z.string().regex(/^[0-9a-f]{32}$/, "must be the account's auth token: 32 hex digits"),
  ),
  TWILIO_API_KEY_SID: optional(
    z.string().regex(/^SK[0-9a-f]{32}$/, 'must be an API key SID: SK and 32 hex digits'),
  ),
  TWILIO_API_KEY_SECRET: optional(
    z.string().regex(/^[A-Za-z0-9]{16,64}$/, "must be the API key's secret (letters and digits)"),
  ),
  TWILIO_MESSAGING_SERVICE_SID: optional(
    z.string().regex(/^MG[0-9a-f]{32}$/, 'must be a Messaging Service SID: MG and 32 hex digits'),
  ),
  TWILIO_API_BASE: baseUrl,
  INFORU_USERNAME: optional(
    z.string().regex(/^[\x21-\x7e]{1,100}$/, 'must be the InforU user name (no spaces)'),
  ),
  INFORU_API_TOKEN: optional(
    z.string().regex(/^[\x21-\x7e]{8,200}$/, 'must be the InforU API token (no spaces)'),
  ),
  INFORU_API_BASE: baseUrl,
  TRANZILA_API_BASE_URL: optional(
    z
      .string()
      .refine(
        isBaseUrl,
        'must be an http:// or https:// URL without query string, such as https://api.tranzila.com',
      ),
  ),
  CARD_FRAME_BASE_URL: optional(
    z
      .string()
      .refine(
        isBaseUrl,
        'must be an http:// or https:// URL without query string, such as https://direct.tranzila.com',
      ),
  ),
  GRAPH_API_BASE_URL: baseUrl,
  META_APP_ID: metaId,
  META_APP_SECRET: optional(z.string().regex(/^\S{1,200}$/, 'must be the app secret (no spaces)')),
  META_CONFIG_ID: metaId,
  META_SDK_URL: optional(
    z.string().refine((v) => parseHttpUrl(v) !== null, 'must be an http:// or https:// URL'),
  ),
  SHAAM_AUTHORIZE_URL: optional(
    z.string().refine((v) => parseHttpUrl(v) !== null, 'must be an http:// or https:// URL'),
  ),
  SHAAM_TOKEN_URL: baseUrl,
  SHAAM_SCOPE: optional(
    z.string().regex(/^[\x21-\x7e]+( [\x21-\x7e]+)*$/, 'must be OAuth scopes separated by spaces'),
  ),
  GOOGLE_SERVICE_ACCOUNT_KEY_FILE: optional(z.string()),
  GOOGLE_SERVICE_ACCOUNT_KEY: optional(
    z
      .string()
      .refine(
        (v) => parseServiceAccountKey(v) !== null,
        "must be a service account key's JSON (client_email and private_key)",
      ),
  ),
  GOOGLE_SERVICE_ACCOUNT_CLINICS: optional(
    z
      .string()
      .regex(
        /^\s*(all|[1-9]\d{0,9}(\s*,\s*[1-9]\d{0,9})*)\s*$/,
        'must be "all" or clinic ids separated by commas (e.g. 1,4)',
      ),
  ),
  GOOGLE_CALENDAR_API_BASE_URL: baseUrl,
  GOOGLE_OAUTH_TOKEN_URL: baseUrl,
  GOOGLE_OAUTH_CLIENT_ID: optional(
    z.string().regex(/^[\x21-\x7e]{1,200}$/, "must be the OAuth client's id (no spaces)"),
  ),
  GOOGLE_OAUTH_CLIENT_SECRET: optional(
    z.string().regex(/^[\x21-\x7e]{1,200}$/, "must be the OAuth client's secret (no spaces)"),
  ),
  GOOGLE_OAUTH_AUTHORIZE_URL: optional(
    z.string().refine((v) => parseHttpUrl(v) !== null, 'must be an http:// or https:// URL'),
  ),
  GOOGLE_OAUTH_REVOKE_URL: baseUrl,
  MICROSOFT_CLIENT_ID: optional(
    z
      .string()
      .regex(/^[\x21-\x7e]{1,200}$/, "must be the app registration's client id (no spaces)"),
  ),
  MICROSOFT_CLIENT_SECRET: optional(
    z.string().regex(/^[\x21-\x7e]{1,200}$/, "must be the app registration's secret (no spaces)"),
  ),
  MICROSOFT_TENANT: optional(
    z
      .string()
      .regex(
        /^[A-Za-z0-9.-]{1,100}$/,
        'must be common, organizations, consumers, a tenant id or a domain',
      ),
  ),
  MICROSOFT_LOGIN_URL: baseUrl,
  MICROSOFT_GRAPH_BASE_URL: baseUrl,
  CALENDAR_FREEBUSY_TIMEOUT_MS: optional(
    z
      .string()
      .regex(/^\d{2,5}$/, 'must be milliseconds, 10 to 30000')
      .transform(Number)
      .refine((n) => n >= 10 && n <= 30_000, 'must be milliseconds, 10 to 30000'),
  ),
});

/** The SMS provider's settings, once loadConfig has checked that the ones it needs are set. */
function smsConfigOf(provider: SmsProviderName, e: z.infer<typeof envSchema>): SmsConfig {
  switch (provider) {
    case 'http':
      return Object.freeze({
        provider,
        url: e.SMS_HTTP_URL ?? '',
        token: e.SMS_HTTP_TOKEN ?? '',
        sender: e.SMS_SENDER ?? '',
      });
    case 'twilio':
      return Object.freeze({
        provider,
        apiBaseUrl: (e.TWILIO_API_BASE ?? TWILIO_API_BASE).replace(/\/+$/, ''),
        accountSid: e.TWILIO_ACCOUNT_SID ?? '',
        authToken: e.TWILIO_AUTH_TOKEN ?? '',
        apiKey:
          e.TWILIO_API_KEY_SID && e.TWILIO_API_KEY_SECRET
            ? Object.freeze({ sid: e.TWILIO_API_KEY_SID, secret: e.TWILIO_API_KEY_SECRET })
            : null,
        messagingServiceSid: e.TWILIO_MESSAGING_SERVICE_SID ?? null,
        sender: e.SMS_SENDER ?? null,
      });
    case 'inforu':
      return Object.freeze({
        provider,
        apiBaseUrl: (e.INFORU_API_BASE ?? INFORU_API_BASE).replace(/\/+$/, ''),
        username: e.INFORU_USERNAME ?? '',
        apiToken: e.INFORU_API_TOKEN ?? '',
        sender: e.SMS_SENDER ?? '',
      });
    default:
      return Object.freeze({ provider: 'log' });
  }
}

/** GOOGLE_SERVICE_ACCOUNT_CLINICS; unset: every clinic in demo mode, none otherwise. */
function serviceAccountClinicsOf(value: string | undefined, demo: boolean): 'all' | number[] {
  if (value === undefined) return demo ? 'all' : [];
  if (value.trim() === 'all') return 'all';
  return value.split(',').map((part) => Number(part.trim()));
}

/** The service account key of GOOGLE_SERVICE_ACCOUNT_KEY(_FILE); problems are named. */
function serviceAccountKeyOf(
  e: { GOOGLE_SERVICE_ACCOUNT_KEY_FILE?: string; GOOGLE_SERVICE_ACCOUNT_KEY?: string },
  cwd: string,
  problems: string[],
): ServiceAccountKey | null {
  if (e.GOOGLE_SERVICE_ACCOUNT_KEY_FILE && e.GOOGLE_SERVICE_ACCOUNT_KEY) {
    problems.push(
      'GOOGLE_SERVICE_ACCOUNT_KEY_FILE and GOOGLE_SERVICE_ACCOUNT_KEY: set one, not both',
    );
    return null;
  }
  if (e.GOOGLE_SERVICE_ACCOUNT_KEY) return parseServiceAccountKey(e.GOOGLE_SERVICE_ACCOUNT_KEY);
  if (!e.GOOGLE_SERVICE_ACCOUNT_KEY_FILE) return null;
  let text: string;
  try {
    text = readFileSync(path.resolve(cwd, e.GOOGLE_SERVICE_ACCOUNT_KEY_FILE), 'utf8');
  } catch (error) {
    problems.push(
      `GOOGLE_SERVICE_ACCOUNT_KEY_FILE cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
    return null;
  }
  const key = parseServiceAccountKey(text);
  if (!key) {
    problems.push(
      "GOOGLE_SERVICE_ACCOUNT_KEY_FILE must hold a service account key's JSON (client_email and private_key)",
    );
  }
  return key;
}

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

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** 127.0.0.0/8, ::1 (IPv4-mapped too), `localhost` and `*.localhost`; `[::1]` as a URL has it. */
export function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  const family = isIP(name);
  return family !== 0 && loopback.check(name, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * Without DEMO, demo mode is on only where nobody but this machine can reach it: listening on
 * loopback, with a localhost public origin, on the embedded database. Anything else looks like a
 * deployment, and a deployment that forgot its settings must not quietly become a demo (its login
 * codes on an open page): the configuration is refused until DEMO says which one is meant.
 */
function impliedDemo(e: {
  HOST?: string | undefined;
  PUBLIC_ORIGIN?: string | undefined;
  DATABASE_URL?: string | undefined;
}): boolean {
  const reasons: string[] = [];
  if (e.HOST !== undefined && !isLoopbackHost(e.HOST)) {
    reasons.push(`HOST ${e.HOST} is not a loopback address`);
  }
  if (e.PUBLIC_ORIGIN !== undefined && !isLoopbackHost(new URL(e.PUBLIC_ORIGIN).hostname)) {
    reasons.push(`PUBLIC_ORIGIN ${new URL(e.PUBLIC_ORIGIN).origin} is not a localhost origin`);
  }
  if (e.DATABASE_URL !== undefined) {
    reasons.push('DATABASE_URL points at a database server');
  }
  if (reasons.length === 0) return true;
  throw new ConfigError([
    `demo mode refused: ${reasons.join('; ')}. Set DEMO=true to run the demo there anyway, ` +
      'or run for real with NODE_ENV=production (or DEMO=false), DATA_KEY and the SMS gateway (SMS_HTTP_URL, SMS_HTTP_TOKEN, SMS_SENDER)',
  ]);
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
  const demo = e.DEMO ?? (production ? false : impliedDemo(e));
  // Everything demo mode relaxes (a generated key, printed codes, plain-http webhooks…) is
  // refused the moment demo mode is off, whatever NODE_ENV says.
  if (!demo && !e.DATA_KEY) {
    problems.push(
      'DATA_KEY is required outside demo mode (32 bytes as base64 or 64 hex characters, e.g. `openssl rand -base64 32`)',
    );
  }
  if (e.TRUST_PROXY === true && !demo) {
    // Every hop of X-Forwarded-For trusted: any client names its own address and walks past
    // every per-address limit.
    problems.push(
      'TRUST_PROXY=true trusts any X-Forwarded-For a client sends; outside demo mode give the number of proxies in front of Marpe (e.g. 1) or their addresses',
    );
  }
  const smsProvider = e.SMS_PROVIDER ?? (demo ? 'log' : 'http');
  if (smsProvider === 'log' && !demo) {
    problems.push(
      'SMS_PROVIDER=log prints messages (login codes included) to the output; it is refused outside demo mode',
    );
  }
  if (smsProvider === 'http') {
    for (const name of ['SMS_HTTP_URL', 'SMS_HTTP_TOKEN', 'SMS_SENDER'] as const) {
      if (!e[name]) problems.push(`${name} is required when SMS_PROVIDER=http`);
    }
  }
  if (smsProvider === 'twilio') {
    for (const name of ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN'] as const) {
      if (!e[name]) problems.push(`${name} is required when SMS_PROVIDER=twilio`);
    }
    if (Boolean(e.TWILIO_API_KEY_SID) !== Boolean(e.TWILIO_API_KEY_SECRET)) {
      problems.push('TWILIO_API_KEY_SID and TWILIO_API_KEY_SECRET go together: set both or none');
    }
    if (!e.TWILIO_MESSAGING_SERVICE_SID && !e.SMS_SENDER) {
      problems.push(
        'TWILIO_MESSAGING_SERVICE_SID or SMS_SENDER (a number as +972…, or a sender name) is required when SMS_PROVIDER=twilio',
      );
    }
  }
  if (smsProvider === 'inforu') {
    for (const name of ['INFORU_USERNAME', 'INFORU_API_TOKEN', 'SMS_SENDER'] as const) {
      if (!e[name]) problems.push(`${name} is required when SMS_PROVIDER=inforu`);
    }
  }
  if ((smsProvider === 'twilio' || smsProvider === 'inforu') && !demo && !e.PUBLIC_ORIGIN) {
    // The provider posts its delivery receipts to PUBLIC_ORIGIN: a default localhost never hears them.
    problems.push(
      `PUBLIC_ORIGIN is required when SMS_PROVIDER=${smsProvider}: delivery receipts are posted to it`,
    );
  }
  if (Boolean(e.MICROSOFT_CLIENT_ID) !== Boolean(e.MICROSOFT_CLIENT_SECRET)) {
    problems.push('MICROSOFT_CLIENT_ID and MICROSOFT_CLIENT_SECRET go together: set both or none');
  }
  if (Boolean(e.GOOGLE_OAUTH_CLIENT_ID) !== Boolean(e.GOOGLE_OAUTH_CLIENT_SECRET)) {
    problems.push(
      'GOOGLE_OAUTH_CLIENT_ID and GOOGLE_OAUTH_CLIENT_SECRET go together: set both or none',
    );
  }
  const metaNames = ['META_APP_ID', 'META_APP_SECRET', 'META_CONFIG_ID'] as const;
  if (metaNames.some((name) => e[name]) && !metaNames.every((name) => e[name])) {
    problems.push(`${metaNames.join(', ')} go together: set all three or none`);
  }
  // Its own port listens on HOST: beyond loopback, anyone who reaches it would read the
  // metrics (routes, message and payment counts) unless a token is asked for.
  if (e.METRICS_PORT !== undefined && !e.METRICS_TOKEN && !isLoopbackHost(e.HOST ?? '127.0.0.1')) {
    problems.push(
      `METRICS_TOKEN is required when METRICS_PORT serves /metrics on HOST ${e.HOST ?? ''}, which is not a loopback address (or keep HOST on loopback)`,
    );
  }
  if (e.METRICS_PORT !== undefined && e.METRICS_PORT === (e.PORT ?? 3000)) {
    problems.push(
      'METRICS_PORT must differ from PORT (unset it to serve /metrics on PORT with METRICS_TOKEN)',
    );
  }
  const retentionDays = e.RETENTION_DAYS ?? 30;
  const retentionDeadDays = e.RETENTION_DEAD_DAYS ?? Math.max(90, retentionDays);
  if (retentionDeadDays < retentionDays) {
    problems.push(
      'RETENTION_DEAD_DAYS must be at least RETENTION_DAYS: failed rows are kept longer',
    );
  }
  const serviceAccountKey = serviceAccountKeyOf(e, cwd, problems);
  if (problems.length > 0) throw new ConfigError(problems);
  const sms = smsConfigOf(smsProvider, e);

  const port = e.PORT ?? 3000;
  const publicOrigin = e.PUBLIC_ORIGIN ? new URL(e.PUBLIC_ORIGIN).origin : null;
  const origin = publicOrigin ?? `http://localhost:${port}`;

  return Object.freeze({
    port,
    host: e.HOST ?? '127.0.0.1',
    dataDir: path.resolve(cwd, e.DATA_DIR ?? './data'),
    databaseUrl: e.DATABASE_URL ?? null,
    nodeEnv,
    demo,
    dataKey: e.DATA_KEY ?? null,
    previousDataKeys: e.DATA_KEY_PREVIOUS ?? [],
    publicOrigin: origin,
    publicOriginIsDefault: publicOrigin === null,
    isHttps: origin.startsWith('https:'),
    parentSiteUrl: e.PARENT_SITE_URL ?? `${origin}/`,
    // A demo prints login codes on standard output: request lines (info) would bury them.
    logLevel: e.LOG_LEVEL ?? (demo ? 'warn' : 'info'),
    trustProxy: e.TRUST_PROXY ?? false,
    drainSeconds: e.DRAIN_SECONDS ?? 0,
    metrics: Object.freeze({ port: e.METRICS_PORT ?? null, token: e.METRICS_TOKEN ?? null }),
    tracing: tracingOf(e),
    retentionDays,
    retentionDeadDays,
    messageCapCeilings: Object.freeze({
      perRecipientPerHour:
        e.MESSAGE_CAP_RECIPIENT_HOUR_MAX ?? DEFAULT_MESSAGE_CAP_CEILINGS.perRecipientPerHour,
      perRecipientPerDay:
        e.MESSAGE_CAP_RECIPIENT_DAY_MAX ?? DEFAULT_MESSAGE_CAP_CEILINGS.perRecipientPerDay,
      perClinicPerDay: e.MESSAGE_CAP_CLINIC_DAY_MAX ?? DEFAULT_MESSAGE_CAP_CEILINGS.perClinicPerDay,
    }),
    sms,
    providerApiBaseUrl:
      (e.TRANZILA_API_BASE_URL ?? (demo ? null : TRANZILA_API_BASE_URL))?.replace(/\/+$/, '') ??
      null,
    cardFrameBaseUrl: (
      e.CARD_FRAME_BASE_URL ?? (demo ? `${origin}/api/sandbox` : TRANZILA_FRAME_BASE_URL)
    ).replace(/\/+$/, ''),
    whatsapp: Object.freeze({
      graphApiBaseUrl: (e.GRAPH_API_BASE_URL ?? GRAPH_API_BASE_URL).replace(/\/+$/, ''),
      appId: e.META_APP_ID ?? (demo ? DEMO_META_APP_ID : null),
      configId: e.META_CONFIG_ID ?? (demo ? DEMO_META_CONFIG_ID : null),
      appSecret: e.META_APP_SECRET ?? null,
      sdkUrl: e.META_SDK_URL ?? META_SDK_URL,
    }),
    shaam: Object.freeze({
      authorizeUrl:
        e.SHAAM_AUTHORIZE_URL ??
        `${demo ? SHAAM_SANDBOX_BASE_URL : SHAAM_PRODUCTION_BASE_URL}/longtimetoken/oauth2/authorize`,
      tokenUrl:
        e.SHAAM_TOKEN_URL ??
        `${demo ? SHAAM_SANDBOX_BASE_URL : SHAAM_PRODUCTION_BASE_URL}/longtimetoken/oauth2/token`,
      // What the Tax Authority's own examples ask for.
      scope: e.SHAAM_SCOPE ?? 'scope',
    }),
    calendar: Object.freeze({
      serviceAccountKey,
      apiBaseUrl:
        (
          e.GOOGLE_CALENDAR_API_BASE_URL ??
          (demo && !serviceAccountKey ? null : GOOGLE_CALENDAR_API_BASE_URL)
        )?.replace(/\/+$/, '') ?? null,
      tokenUrl: e.GOOGLE_OAUTH_TOKEN_URL ?? GOOGLE_TOKEN_URL,
      freeBusyTimeoutMs: e.CALENDAR_FREEBUSY_TIMEOUT_MS ?? 1500,
      serviceAccountClinics: serviceAccountClinicsOf(e.GOOGLE_SERVICE_ACCOUNT_CLINICS, demo),
      oauth: e.GOOGLE_OAUTH_CLIENT_ID
        ? Object.freeze({
            clientId: e.GOOGLE_OAUTH_CLIENT_ID,
            clientSecret: e.GOOGLE_OAUTH_CLIENT_SECRET ?? '',
            authorizeUrl: e.GOOGLE_OAUTH_AUTHORIZE_URL ?? GOOGLE_AUTHORIZE_URL,
            revokeUrl: e.GOOGLE_OAUTH_REVOKE_URL ?? GOOGLE_REVOKE_URL,
          })
        : null,
      microsoft: e.MICROSOFT_CLIENT_ID
        ? Object.freeze({
            clientId: e.MICROSOFT_CLIENT_ID,
            clientSecret: e.MICROSOFT_CLIENT_SECRET ?? '',
            authorityUrl: `${(e.MICROSOFT_LOGIN_URL ?? MICROSOFT_LOGIN_ORIGIN).replace(/\/+$/, '')}/${e.MICROSOFT_TENANT ?? 'common'}/oauth2/v2.0`,
            graphBaseUrl: (e.MICROSOFT_GRAPH_BASE_URL ?? MICROSOFT_GRAPH_BASE_URL).replace(
              /\/+$/,
              '',
            ),
          })
        : null,
    }),
  });
}
