// Over 400 lines: every variable's parse and refusal side by side, one `loadConfig` per case.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, type Env } from './config.js';

const hexKey = 'ab'.repeat(32);
const base64Key = Buffer.alloc(32, 7).toString('base64');

/** The SMS gateway every configuration without demo mode needs. */
const httpSms = {
  SMS_PROVIDER: 'http',
  SMS_HTTP_URL: 'https://sms.example.com/v1/messages',
  SMS_HTTP_TOKEN: 'gateway-token',
  SMS_SENDER: 'Marpe',
};

function problemsOf(env: Env): string[] {
  try {
    loadConfig(env, '/srv/marpe');
  } catch (error) {
    if (error instanceof ConfigError) return error.message.split('\n');
    throw error;
  }
  throw new Error('expected the configuration to be refused');
}

describe('loadConfig', () => {
  it('has working defaults for a local demo', () => {
    const config = loadConfig({}, '/srv/marpe');
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      dataDir: path.resolve('/srv/marpe', 'data'),
      databaseUrl: null,
      nodeEnv: 'development',
      demo: true,
      dataKey: null,
      publicOrigin: 'http://localhost:3000',
      publicOriginIsDefault: true,
      isHttps: false,
      parentSiteUrl: 'http://localhost:3000/',
      // Request lines would bury the login codes the demo prints.
      logLevel: 'warn',
      trustProxy: false,
      sms: { provider: 'log' },
    });
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.sms)).toBe(true);
  });

  it('derives the default origin from PORT and resolves DATA_DIR against the working directory', () => {
    const config = loadConfig({ PORT: '4100', DATA_DIR: 'var/db' }, '/srv/marpe');
    expect(config.publicOrigin).toBe('http://localhost:4100');
    expect(config.dataDir).toBe('/srv/marpe/var/db');
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      DATA_DIR: '/var/lib/marpe',
      DATABASE_URL: 'postgres://marpe@db:5432/marpe',
      NODE_ENV: 'production',
      DEMO: 'false',
      DATA_KEY: hexKey,
      PUBLIC_ORIGIN: 'https://app.example.com/',
      PARENT_SITE_URL: 'https://example.com/dental',
      LOG_LEVEL: 'silent',
      TRUST_PROXY: '10.0.0.0/8,127.0.0.1',
      ...httpSms,
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      dataDir: '/var/lib/marpe',
      databaseUrl: 'postgres://marpe@db:5432/marpe',
      nodeEnv: 'production',
      demo: false,
      publicOrigin: 'https://app.example.com',
      publicOriginIsDefault: false,
      isHttps: true,
      parentSiteUrl: 'https://example.com/dental',
      logLevel: 'silent',
      trustProxy: ['10.0.0.0/8', '127.0.0.1'],
      sms: {
        provider: 'http',
        url: 'https://sms.example.com/v1/messages',
        token: 'gateway-token',
        sender: 'Marpe',
      },
    });
    expect(config.dataKey).toEqual(Buffer.from(hexKey, 'hex'));
  });

  it('defaults PARENT_SITE_URL to PUBLIC_ORIGIN + /', () => {
    expect(loadConfig({ DEMO: 'true', PUBLIC_ORIGIN: 'https://a.example' }).parentSiteUrl).toBe(
      'https://a.example/',
    );
  });

  it('accepts DATA_KEY as base64 and DEMO as 1/0', () => {
    const config = loadConfig({ DATA_KEY: base64Key, DEMO: '0', ...httpSms });
    expect(config.dataKey).toEqual(Buffer.alloc(32, 7));
    expect(config.demo).toBe(false);
    expect(loadConfig({ DEMO: '1', NODE_ENV: 'test' }).demo).toBe(true);
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' })).toMatchObject({
      port: 3000,
      databaseUrl: null,
    });
  });

  it('refuses TRUST_PROXY=true outside demo mode: a hop count or proxy list only', () => {
    const real = { NODE_ENV: 'production', DATA_KEY: hexKey, ...httpSms };
    expect(problemsOf({ ...real, TRUST_PROXY: 'true' })).toEqual([
      expect.stringContaining('TRUST_PROXY=true trusts any X-Forwarded-For'),
    ]);
    expect(loadConfig({ ...real, TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ ...real, TRUST_PROXY: '10.0.0.0/8' }).trustProxy).toEqual(['10.0.0.0/8']);
  });

  it('defaults DEMO off in production', () => {
    expect(loadConfig({ NODE_ENV: 'production', DATA_KEY: hexKey, ...httpSms }).demo).toBe(false);
    // Outside a demo, a line per request by default.
    expect(loadConfig({ NODE_ENV: 'production', DATA_KEY: hexKey, ...httpSms }).logLevel).toBe(
      'info',
    );
  });

  it.each([
    ['PORT', { PORT: '0' }, 'PORT must be an integer 1-65535'],
    ['PORT', { PORT: '70000' }, 'PORT must be an integer 1-65535'],
    ['PORT', { PORT: 'http' }, 'PORT must be an integer 1-65535'],
    ['NODE_ENV', { NODE_ENV: 'staging' }, 'NODE_ENV must be one of development, production, test'],
    ['DATA_KEY', { DATA_KEY: 'too-short' }, 'DATA_KEY must be 32 bytes'],
    ['DATA_KEY', { DATA_KEY: Buffer.alloc(16).toString('base64') }, 'DATA_KEY must be 32 bytes'],
    ['PUBLIC_ORIGIN', { PUBLIC_ORIGIN: 'https://app.example.com/path' }, 'PUBLIC_ORIGIN must be'],
    ['PUBLIC_ORIGIN', { PUBLIC_ORIGIN: 'app.example.com' }, 'PUBLIC_ORIGIN must be'],
    ['PUBLIC_ORIGIN', { PUBLIC_ORIGIN: 'ftp://app.example.com' }, 'PUBLIC_ORIGIN must be'],
    ['PUBLIC_ORIGIN', { PUBLIC_ORIGIN: 'https://app.example.com/?' }, 'PUBLIC_ORIGIN must be'],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://x@y/z' }, 'DATABASE_URL must be'],
    ['DEMO', { DEMO: 'yes' }, 'DEMO must be'],
    ['LOG_LEVEL', { LOG_LEVEL: 'loud' }, 'LOG_LEVEL must be one of'],
    ['PARENT_SITE_URL', { PARENT_SITE_URL: 'not a url' }, 'PARENT_SITE_URL must be'],
    ['TRUST_PROXY', { TRUST_PROXY: 'yes' }, 'TRUST_PROXY must be true, false, a hop count'],
    ['TRUST_PROXY', { TRUST_PROXY: '10.0.0.0/8,proxy.local' }, 'TRUST_PROXY must be'],
    ['TRUST_PROXY', { TRUST_PROXY: '10.0.0.1;10.0.0.2' }, 'TRUST_PROXY must be'],
    ['TRUST_PROXY', { TRUST_PROXY: '-1' }, 'TRUST_PROXY must be'],
    ['TRUST_PROXY', { TRUST_PROXY: 'abc' }, 'TRUST_PROXY must be'],
    ['TRUST_PROXY', { TRUST_PROXY: '123' }, 'TRUST_PROXY must be'],
    ['TRUST_PROXY', { TRUST_PROXY: '10.0.0.0/33' }, 'TRUST_PROXY must be'],
    [
      'SMS_PROVIDER',
      { SMS_PROVIDER: 'vonage' },
      'SMS_PROVIDER must be one of log, http, twilio, inforu',
    ],
    ['SMS_HTTP_URL', { ...httpSms, SMS_HTTP_URL: 'sms.example.com' }, 'SMS_HTTP_URL must be'],
    ['SMS_SENDER', { ...httpSms, SMS_SENDER: 'Marpe Dental Clinic' }, 'SMS_SENDER must be'],
    ['SMS_SENDER', { ...httpSms, SMS_SENDER: 'מרפא' }, 'SMS_SENDER must be'],
  ])('names %s when it is bad', (_name, env, expected) => {
    const problems = problemsOf(env);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^Invalid configuration: /);
    expect(problems[0]).toContain(expected);
  });

  it('lists every bad variable, one line each', () => {
    const problems = problemsOf({ PORT: 'x', NODE_ENV: 'y', LOG_LEVEL: 'z' });
    expect(problems).toHaveLength(3);
    expect(problems.join('\n')).toMatch(/PORT[\s\S]*NODE_ENV[\s\S]*LOG_LEVEL/);
  });

  it('refuses DEMO in production', () => {
    expect(
      problemsOf({ NODE_ENV: 'production', DEMO: 'true', DATA_KEY: hexKey, ...httpSms }),
    ).toEqual(['Invalid configuration: DEMO must not be enabled when NODE_ENV=production']);
  });

  it('requires DATA_KEY outside demo mode, whatever NODE_ENV says', () => {
    for (const env of [
      { NODE_ENV: 'production' },
      { DEMO: 'false' },
      { DEMO: 'false', NODE_ENV: 'test' },
    ]) {
      const problems = problemsOf({ ...env, ...httpSms });
      expect(problems).toHaveLength(1);
      expect(problems[0]).toContain('DATA_KEY is required outside demo mode');
    }
  });

  describe('demo mode without DEMO', () => {
    const refusal = (reasons: string) =>
      `Invalid configuration: demo mode refused: ${reasons}. Set DEMO=true to run the demo there anyway, ` +
      'or run for real with NODE_ENV=production (or DEMO=false), DATA_KEY and the SMS gateway (SMS_HTTP_URL, SMS_HTTP_TOKEN, SMS_SENDER)';

    it("is on for npm start's environment on a fresh checkout (scripts/start.mjs sets nothing)", () => {
      // What `npm start` passes: npm's own variables, none of Marpe's.
      const npmStart = {
        npm_lifecycle_event: 'start',
        npm_package_name: 'marpe',
        PATH: '/usr/bin',
      };
      expect(loadConfig(npmStart)).toMatchObject({ demo: true, host: '127.0.0.1', dataKey: null });
    });

    it.each([
      ['localhost', { HOST: 'localhost', PUBLIC_ORIGIN: 'http://localhost:3000' }],
      ['127.0.0.2', { HOST: '127.0.0.2', PUBLIC_ORIGIN: 'http://127.0.0.1:3000' }],
      ['::1', { HOST: '::1', PUBLIC_ORIGIN: 'http://[::1]:3000' }],
      ['*.localhost', { PUBLIC_ORIGIN: 'https://marpe.localhost' }],
      ['test', { NODE_ENV: 'test', PORT: '4100' }],
    ])('is on when everything is local (%s)', (_name, env) => {
      expect(loadConfig(env).demo).toBe(true);
    });

    it.each([
      ['HOST', { HOST: '0.0.0.0' }, 'HOST 0.0.0.0 is not a loopback address'],
      ['HOST', { HOST: '10.1.2.3' }, 'HOST 10.1.2.3 is not a loopback address'],
      ['HOST', { HOST: '::' }, 'HOST :: is not a loopback address'],
      ['HOST', { HOST: 'marpe.example' }, 'HOST marpe.example is not a loopback address'],
      [
        'PUBLIC_ORIGIN',
        { PUBLIC_ORIGIN: 'https://app.example.com' },
        'PUBLIC_ORIGIN https://app.example.com is not a localhost origin',
      ],
      [
        'PUBLIC_ORIGIN',
        { PUBLIC_ORIGIN: 'http://localhost.example.com:3000', NODE_ENV: 'test' },
        'PUBLIC_ORIGIN http://localhost.example.com:3000 is not a localhost origin',
      ],
      [
        'DATABASE_URL',
        { DATABASE_URL: 'postgres://marpe@127.0.0.1:5432/marpe' },
        'DATABASE_URL points at a database server',
      ],
      [
        'all three',
        {
          HOST: '0.0.0.0',
          PUBLIC_ORIGIN: 'https://app.example.com',
          DATABASE_URL: 'postgres://marpe@db/marpe',
        },
        'HOST 0.0.0.0 is not a loopback address; PUBLIC_ORIGIN https://app.example.com is not a localhost origin; DATABASE_URL points at a database server',
      ],
    ])('is refused when %s looks like a deployment', (_name, env, reasons) => {
      expect(problemsOf(env)).toEqual([refusal(reasons)]);
    });

    it('runs there when DEMO=true says so, and not at all with DEMO=false', () => {
      const deployment = {
        HOST: '0.0.0.0',
        PUBLIC_ORIGIN: 'https://demo.example.com',
        DATABASE_URL: 'postgres://marpe@db/marpe',
      };
      expect(loadConfig({ ...deployment, DEMO: 'true' })).toMatchObject({
        demo: true,
        sms: { provider: 'log' },
        cardFrameBaseUrl: 'https://demo.example.com/api/sandbox',
      });
      expect(
        loadConfig({ ...deployment, DEMO: 'false', DATA_KEY: hexKey, ...httpSms }),
      ).toMatchObject({
        demo: false,
        cardFrameBaseUrl: 'https://direct.tranzila.com',
      });
    });
  });

  it.each([
    ['true', true],
    ['false', false],
    ['2', 2],
    ['10.0.0.0/8,127.0.0.1', ['10.0.0.0/8', '127.0.0.1']],
    [' 10.0.0.0/8 , ::1 ', ['10.0.0.0/8', '::1']],
  ])('reads TRUST_PROXY=%j', (value, expected) => {
    expect(loadConfig({ TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });

  it('reads DRAIN_SECONDS, 0 unless set, and refuses what is not a number of seconds', () => {
    expect(loadConfig({}).drainSeconds).toBe(0);
    expect(loadConfig({ DRAIN_SECONDS: '15' }).drainSeconds).toBe(15);
    for (const value of ['-1', '1.5', '301', 'soon']) {
      expect(problemsOf({ DRAIN_SECONDS: value })).toEqual([
        'Invalid configuration: DRAIN_SECONDS must be a whole number of seconds from 0 to 300',
      ]);
    }
  });

  it('opens the Google service account to the clinics GOOGLE_SERVICE_ACCOUNT_CLINICS names: all in demo mode unless told, none otherwise', () => {
    expect(loadConfig({}).calendar.serviceAccountClinics).toBe('all');
    expect(
      loadConfig({ DEMO: 'false', DATA_KEY: base64Key, ...httpSms }).calendar.serviceAccountClinics,
    ).toEqual([]);
    expect(
      loadConfig({ GOOGLE_SERVICE_ACCOUNT_CLINICS: ' 1, 4 ' }).calendar.serviceAccountClinics,
    ).toEqual([1, 4]);
    expect(
      loadConfig({
        DEMO: 'false',
        DATA_KEY: base64Key,
        ...httpSms,
        GOOGLE_SERVICE_ACCOUNT_CLINICS: 'all',
      }).calendar.serviceAccountClinics,
    ).toBe('all');
    for (const value of ['0', '1,,2', 'everyone', '1;2']) {
      expect(problemsOf({ GOOGLE_SERVICE_ACCOUNT_CLINICS: value })).toEqual([
        'Invalid configuration: GOOGLE_SERVICE_ACCOUNT_CLINICS must be "all" or clinic ids separated by commas (e.g. 1,4)',
      ]);
    }
  });

  it('turns metrics on with METRICS_PORT or METRICS_TOKEN only', () => {
    expect(loadConfig({}).metrics).toEqual({ port: null, token: null });
    expect(loadConfig({ METRICS_PORT: '9464' }).metrics).toEqual({ port: 9464, token: null });
    expect(loadConfig({ METRICS_TOKEN: 'a-long-metrics-token' }).metrics).toEqual({
      port: null,
      token: 'a-long-metrics-token',
    });
    expect(problemsOf({ METRICS_TOKEN: 'short' })).toEqual([
      'Invalid configuration: METRICS_TOKEN must be at least 16 printable characters, no spaces',
    ]);
    expect(problemsOf({ METRICS_PORT: '3000' })[0]).toMatch(/METRICS_PORT must differ from PORT/);
  });

  it('traces only when an OTLP endpoint or a traces exporter is named', () => {
    const otlp = { exporters: ['otlp'], protocol: 'http/protobuf' };
    expect(loadConfig({}).tracing).toBeNull();
    expect(loadConfig({ OTEL_SERVICE_NAME: 'marpe' }).tracing).toBeNull();
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }).tracing).toEqual(
      otlp,
    );
    expect(
      loadConfig({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/v1/traces' }).tracing,
    ).toEqual(otlp);
    expect(loadConfig({ OTEL_TRACES_EXPORTER: 'console' }).tracing).toEqual({
      exporters: ['console'],
      protocol: 'http/protobuf',
    });
    expect(
      loadConfig({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c' }).tracing,
    ).toBeNull();
    expect(
      loadConfig({ OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c' }).tracing,
    ).toBeNull();
  });

  it('reads the exporters and the OTLP protocol as the SDK does, refusing what is not installed', () => {
    expect(
      loadConfig({
        OTEL_TRACES_EXPORTER: 'console, otlp',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      }).tracing,
    ).toEqual({ exporters: ['otlp', 'console'], protocol: 'http/json' });
    expect(
      loadConfig({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf',
      }).tracing,
    ).toEqual({ exporters: ['otlp'], protocol: 'http/protobuf' });
    expect(loadConfig({ OTEL_TRACES_EXPORTER: 'console,none' }).tracing).toEqual({
      exporters: ['otlp'],
      protocol: 'http/protobuf',
    });
    expect(problemsOf({ OTEL_TRACES_EXPORTER: 'zipkin' })).toEqual([
      'Invalid configuration: OTEL_TRACES_EXPORTER must be otlp, console or none (a comma-separated list)',
    ]);
    expect(
      problemsOf({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }),
    ).toEqual([
      'Invalid configuration: OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json (gRPC is not supported)',
    ]);
  });

  it('keeps done rows 30 days and given-up ones 90 unless told otherwise', () => {
    expect(loadConfig({})).toMatchObject({ retentionDays: 30, retentionDeadDays: 90 });
    expect(loadConfig({ RETENTION_DAYS: '7', RETENTION_DEAD_DAYS: '14' })).toMatchObject({
      retentionDays: 7,
      retentionDeadDays: 14,
    });
    expect(loadConfig({ RETENTION_DAYS: '120' }).retentionDeadDays).toBe(120);
    expect(problemsOf({ RETENTION_DAYS: '0' })).toEqual([
      'Invalid configuration: RETENTION_DAYS must be a whole number of days from 1 to 3650',
    ]);
    expect(problemsOf({ RETENTION_DAYS: '30', RETENTION_DEAD_DAYS: '10' })[0]).toMatch(
      /RETENTION_DEAD_DAYS must be at least RETENTION_DAYS/,
    );
  });

  it('does not trust proxies unless told', () => {
    expect(loadConfig({ TRUST_PROXY: '' }).trustProxy).toBe(false);
  });

  it('uses the log SMS provider in demo mode and the HTTP one otherwise', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).sms).toEqual({ provider: 'log' });
    expect(loadConfig({ NODE_ENV: 'production', DATA_KEY: hexKey, ...httpSms }).sms).toEqual({
      provider: 'http',
      url: 'https://sms.example.com/v1/messages',
      token: 'gateway-token',
      sender: 'Marpe',
    });
    // The gateway can be tried from a demo too.
    expect(loadConfig({ ...httpSms, SMS_SENDER: '+972501234567' }).sms).toMatchObject({
      provider: 'http',
      sender: '+972501234567',
    });
  });

  it('requires the gateway settings for the HTTP SMS provider, the default without demo mode', () => {
    expect(problemsOf({ DEMO: 'false', DATA_KEY: hexKey })).toEqual([
      'Invalid configuration: SMS_HTTP_URL is required when SMS_PROVIDER=http',
      'Invalid configuration: SMS_HTTP_TOKEN is required when SMS_PROVIDER=http',
      'Invalid configuration: SMS_SENDER is required when SMS_PROVIDER=http',
    ]);
    expect(problemsOf({ SMS_PROVIDER: 'http', SMS_HTTP_URL: 'https://sms.example.com' })).toEqual([
      'Invalid configuration: SMS_HTTP_TOKEN is required when SMS_PROVIDER=http',
      'Invalid configuration: SMS_SENDER is required when SMS_PROVIDER=http',
    ]);
  });

  it('points the card frame at Tranzila, or at the sandbox in demo mode', () => {
    expect(
      loadConfig({ DEMO: 'true', PUBLIC_ORIGIN: 'https://demo.example' }).cardFrameBaseUrl,
    ).toBe('https://demo.example/api/sandbox');
    expect(loadConfig({ PORT: '4100' }).cardFrameBaseUrl).toBe('http://localhost:4100/api/sandbox');
    expect(loadConfig({ DEMO: 'false', DATA_KEY: hexKey, ...httpSms }).cardFrameBaseUrl).toBe(
      'https://direct.tranzila.com',
    );
    expect(
      loadConfig({ NODE_ENV: 'production', DATA_KEY: hexKey, ...httpSms }).cardFrameBaseUrl,
    ).toBe('https://direct.tranzila.com');
    // Set: used as is, without a trailing slash, in demo mode too.
    expect(
      loadConfig({ CARD_FRAME_BASE_URL: 'https://frames.example.com/tranzila/' }).cardFrameBaseUrl,
    ).toBe('https://frames.example.com/tranzila');
  });

  it.each([
    'direct.tranzila.com',
    'ftp://direct.tranzila.com',
    'https://direct.tranzila.com/?x=1',
    'https://user:pw@direct.tranzila.com',
  ])('refuses CARD_FRAME_BASE_URL=%s', (value) => {
    const problems = problemsOf({ CARD_FRAME_BASE_URL: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('CARD_FRAME_BASE_URL must be an http:// or https:// URL');
  });

  it('refuses the log SMS provider outside demo mode, whatever NODE_ENV says', () => {
    for (const env of [{ NODE_ENV: 'production' }, { DEMO: 'false' }]) {
      expect(problemsOf({ ...env, DATA_KEY: hexKey, SMS_PROVIDER: 'log' })).toEqual([
        'Invalid configuration: SMS_PROVIDER=log prints messages (login codes included) to the output; it is refused outside demo mode',
      ]);
    }
  });

  it('connects WhatsApp only with a Meta app outside demo mode, and has stand-ins in it', () => {
    const production = { NODE_ENV: 'production', DATA_KEY: hexKey, ...httpSms };
    expect(loadConfig(production).whatsapp).toEqual({
      graphApiBaseUrl: 'https://graph.facebook.com',
      appId: null,
      configId: null,
      appSecret: null,
      sdkUrl: 'https://connect.facebook.net/en_US/sdk.js',
    });
    expect(loadConfig({}).whatsapp).toMatchObject({
      appId: '000000000000000',
      configId: '000000000000000',
      appSecret: null,
    });
    const config = loadConfig({
      ...production,
      GRAPH_API_BASE_URL: 'http://127.0.0.1:9000/graph/',
      META_APP_ID: '1234567890',
      META_APP_SECRET: 'app-secret',
      META_CONFIG_ID: '987654321',
      META_SDK_URL: 'http://127.0.0.1:9001/sdk.js',
    });
    expect(config.whatsapp).toEqual({
      graphApiBaseUrl: 'http://127.0.0.1:9000/graph',
      appId: '1234567890',
      configId: '987654321',
      appSecret: 'app-secret',
      sdkUrl: 'http://127.0.0.1:9001/sdk.js',
    });
    expect(Object.isFrozen(config.whatsapp)).toBe(true);
  });

  it('wants the Meta app id, secret and configuration id together', () => {
    expect(problemsOf({ META_APP_ID: '1234567890' })).toEqual([
      'Invalid configuration: META_APP_ID, META_APP_SECRET, META_CONFIG_ID go together: set all three or none',
    ]);
  });

  it("uses the Tax Authority's production endpoints, its sandbox in demo mode, or the ones set", () => {
    const production = { NODE_ENV: 'production', DATA_KEY: hexKey, ...httpSms };
    expect(loadConfig(production).shaam).toEqual({
      authorizeUrl: 'https://openapi.taxes.gov.il/shaam/production/longtimetoken/oauth2/authorize',
      tokenUrl: 'https://openapi.taxes.gov.il/shaam/production/longtimetoken/oauth2/token',
      scope: 'scope',
    });
    expect(loadConfig({}).shaam.tokenUrl).toBe(
      'https://openapi.taxes.gov.il/shaam/tsandbox/longtimetoken/oauth2/token',
    );
    expect(
      loadConfig({
        SHAAM_AUTHORIZE_URL: 'http://127.0.0.1:9002/authorize?tenant=x',
        SHAAM_TOKEN_URL: 'http://127.0.0.1:9002/token',
        SHAAM_SCOPE: 'invoices read',
      }).shaam,
    ).toEqual({
      authorizeUrl: 'http://127.0.0.1:9002/authorize?tenant=x',
      tokenUrl: 'http://127.0.0.1:9002/token',
      scope: 'invoices read',
    });
  });

  it.each([
    ['GRAPH_API_BASE_URL', { GRAPH_API_BASE_URL: 'https://graph.facebook.com/?v=1' }],
    ['META_APP_ID', { META_APP_ID: 'app', META_APP_SECRET: 's', META_CONFIG_ID: '1' }],
    ['META_CONFIG_ID', { META_APP_ID: '1', META_APP_SECRET: 's', META_CONFIG_ID: 'x1' }],
    ['META_SDK_URL', { META_SDK_URL: 'connect.facebook.net/sdk.js' }],
    ['SHAAM_AUTHORIZE_URL', { SHAAM_AUTHORIZE_URL: 'not a url' }],
    ['SHAAM_TOKEN_URL', { SHAAM_TOKEN_URL: 'https://user:pw@taxes.example/token' }],
    ['SHAAM_SCOPE', { SHAAM_SCOPE: ' scope' }],
  ])('names %s when it is bad', (name, env) => {
    const problems = problemsOf(env);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(`Invalid configuration: ${name} must be`);
  });
});

describe('loadConfig: Twilio and InforU', () => {
  const live = {
    NODE_ENV: 'production',
    DATA_KEY: hexKey,
    PUBLIC_ORIGIN: 'https://app.marpe.example',
  };
  const accountSid = `AC${'0f'.repeat(16)}`;
  const authToken = 'e'.repeat(32);
  const twilio = {
    ...live,
    SMS_PROVIDER: 'twilio',
    TWILIO_ACCOUNT_SID: accountSid,
    TWILIO_AUTH_TOKEN: authToken,
    TWILIO_MESSAGING_SERVICE_SID: `MG${'1e'.repeat(16)}`,
  };
  const inforu = {
    ...live,
    SMS_PROVIDER: 'inforu',
    INFORU_USERNAME: 'clinic-user',
    INFORU_API_TOKEN: '6f1d2c3b-aaaa-4bbb-8ccc-0123456789ab',
    SMS_SENDER: 'Marpe',
  };

  it('reads Twilio with a Messaging Service, its API on api.twilio.com', () => {
    expect(loadConfig(twilio, '/srv/marpe').sms).toEqual({
      provider: 'twilio',
      apiBaseUrl: 'https://api.twilio.com',
      accountSid,
      authToken,
      apiKey: null,
      messagingServiceSid: `MG${'1e'.repeat(16)}`,
      sender: null,
    });
  });

  it('reads Twilio with an API key pair and a sender, and a test base URL', () => {
    const withoutService: Env = { ...twilio, TWILIO_MESSAGING_SERVICE_SID: undefined };
    const sms = loadConfig(
      {
        ...withoutService,
        SMS_SENDER: '+972559990000',
        TWILIO_API_KEY_SID: `SK${'2d'.repeat(16)}`,
        TWILIO_API_KEY_SECRET: 'abcDEF0123456789abcDEF0123456789',
        TWILIO_API_BASE: 'http://127.0.0.1:4010/',
      },
      '/srv/marpe',
    ).sms;
    expect(sms).toMatchObject({
      apiBaseUrl: 'http://127.0.0.1:4010',
      apiKey: { sid: `SK${'2d'.repeat(16)}`, secret: 'abcDEF0123456789abcDEF0123456789' },
      messagingServiceSid: null,
      sender: '+972559990000',
    });
  });

  it('names what Twilio lacks', () => {
    expect(
      problemsOf({ ...live, SMS_PROVIDER: 'twilio', TWILIO_API_KEY_SID: `SK${'2d'.repeat(16)}` }),
    ).toEqual([
      'Invalid configuration: TWILIO_ACCOUNT_SID is required when SMS_PROVIDER=twilio',
      'Invalid configuration: TWILIO_AUTH_TOKEN is required when SMS_PROVIDER=twilio',
      'Invalid configuration: TWILIO_API_KEY_SID and TWILIO_API_KEY_SECRET go together: set both or none',
      'Invalid configuration: TWILIO_MESSAGING_SERVICE_SID or SMS_SENDER (a number as +972…, or a sender name) is required when SMS_PROVIDER=twilio',
    ]);
  });

  it.each([
    ['TWILIO_ACCOUNT_SID', { TWILIO_ACCOUNT_SID: 'AC123' }],
    ['TWILIO_AUTH_TOKEN', { TWILIO_AUTH_TOKEN: 'not-hex-token' }],
    ['TWILIO_MESSAGING_SERVICE_SID', { TWILIO_MESSAGING_SERVICE_SID: 'MG1' }],
    ['TWILIO_API_KEY_SID', { TWILIO_API_KEY_SID: 'AK123' }],
    ['TWILIO_API_BASE', { TWILIO_API_BASE: 'api.twilio.com' }],
    ['INFORU_API_TOKEN', { INFORU_API_TOKEN: 'has spaces in it' }],
    ['INFORU_API_BASE', { INFORU_API_BASE: 'ftp://uapi.inforu.co.il' }],
  ])('names %s when it is bad', (name, env) => {
    const problems = problemsOf({ ...twilio, ...env });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(`Invalid configuration: ${name} must be`);
  });

  it('reads InforU, its XML gateway on uapi.inforu.co.il', () => {
    expect(loadConfig(inforu, '/srv/marpe').sms).toEqual({
      provider: 'inforu',
      apiBaseUrl: 'https://uapi.inforu.co.il',
      username: 'clinic-user',
      apiToken: '6f1d2c3b-aaaa-4bbb-8ccc-0123456789ab',
      sender: 'Marpe',
    });
  });

  it('names what InforU lacks', () => {
    expect(problemsOf({ ...live, SMS_PROVIDER: 'inforu' })).toEqual([
      'Invalid configuration: INFORU_USERNAME is required when SMS_PROVIDER=inforu',
      'Invalid configuration: INFORU_API_TOKEN is required when SMS_PROVIDER=inforu',
      'Invalid configuration: SMS_SENDER is required when SMS_PROVIDER=inforu',
    ]);
  });

  it('needs PUBLIC_ORIGIN outside demo mode: the receipts are posted to it', () => {
    const withoutOrigin: Env = { ...inforu, PUBLIC_ORIGIN: undefined };
    expect(problemsOf(withoutOrigin)).toContain(
      'Invalid configuration: PUBLIC_ORIGIN is required when SMS_PROVIDER=inforu: delivery receipts are posted to it',
    );
  });
});
