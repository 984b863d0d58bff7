import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { loggableError, loggableUrl, loggerOptions, RequestLogController } from './logger.js';

describe('loggableUrl', () => {
  const unmatched = (url: string) => loggableUrl({ method: 'GET', url });
  const matched = (route: string, url: string) =>
    loggableUrl({ method: 'GET', url, routeOptions: { url: route } });

  it('writes a route with a secret part by its route, others by their path', () => {
    expect(matched('/tranzila/:token', '/tranzila/s3cr3t?results=Response%3D000')).toBe(
      '/tranzila/[token]',
    );
    expect(matched('/api/notify-payment/:token', '/api/notify-payment/s3cr3t')).toBe(
      '/api/notify-payment/[token]',
    );
    expect(matched('/api/payment-return/:token', '/api/payment-return/s3cr3t?Response=000')).toBe(
      '/api/payment-return/[token]',
    );
    expect(matched('/whatsapp-signup/*', '/whatsapp-signup/s3cr3t')).toBe(
      '/whatsapp-signup/[token]',
    );
    expect(matched('/api/clinic/:id', '/api/clinic/1?x=1')).toBe('/api/clinic/1');
    expect(matched('/api/health', '/api/health?x=1')).toBe('/api/health');
  });

  it('drops query strings and link tokens from a path no route matched', () => {
    expect(unmatched('/api/health?x=1')).toBe('/api/health');
    expect(unmatched('/q/s3cr3t-token')).toBe('/q/[token]');
    expect(unmatched('/p/s3cr3t/extra?Response=000')).toBe('/p/[token]/extra');
    expect(unmatched('//P//s3cr3t')).toBe('/P/[token]');
    expect(unmatched('/whatsapp-signup/s3cr3t')).toBe('/whatsapp-signup/[token]');
    expect(unmatched('/whatsapp-signup')).toBe('/whatsapp-signup');
    expect(unmatched('/clinic/1')).toBe('/clinic/1');
    expect(unmatched('/tranzila/s3cr3t?results=Response%3D000')).toBe('/tranzila/[token]');
    expect(unmatched('/api/notify-payment/s3cr3t')).toBe('/api/notify-payment/[token]');
    expect(unmatched('/api/sandbox/marpedemo/iframenew.php?notify_url_address=x')).toBe(
      '/api/sandbox/marpedemo/iframenew.php',
    );
    // A token under a path nobody planned for still looks like one.
    expect(unmatched('/qq/Xk9vR2b_4LqZ0aT7wNmE1c-uYhJ3sPdF6gKiO8lBvWQ')).toBe('/qq/[token]');
    expect(unmatched('/api/appointment/patient-appointments')).toBe(
      '/api/appointment/patient-appointments',
    );
  });
});

describe('loggableError', () => {
  it('keeps only what names a driver error: no message, stack, detail, query or params', () => {
    const driver = Object.assign(new Error('invalid input syntax for type integer: "039845128"'), {
      name: 'error',
      severity: 'ERROR',
      code: '23505',
      detail: 'Key (id_number)=(039845128) already exists.',
      where: "unnamed portal parameter $1 = '...'",
      constraint: 'patients_pkey',
      table: 'patients',
      routine: '_bt_check_unique',
      query: 'insert into patients values ($1, $2)',
      params: ['039845128', 'dana@example.com'],
    });
    const drizzle = Object.assign(
      new Error(
        'Failed query: insert into patients values ($1, $2)\nparams: 039845128,dana@example.com',
      ),
      { query: 'insert into patients values ($1, $2)', params: ['039845128', 'dana@example.com'] },
    );
    drizzle.cause = driver;
    const wrapped = new Error('booking failed', { cause: drizzle });

    const logged = loggableError(wrapped);
    expect(JSON.stringify(logged)).not.toMatch(/039845128|dana@example|insert into/);
    expect(logged).toMatchObject({
      type: 'Error',
      message: 'booking failed',
      cause: {
        message: 'database query failed (statement and parameters not logged)',
        cause: {
          message: 'database error 23505',
          sqlState: '23505',
          constraint: 'patients_pkey',
          table: 'patients',
          routine: '_bt_check_unique',
        },
      },
    });
  });

  it('keeps an ordinary error as pino would, its own fields included', () => {
    const error = Object.assign(new Error('gateway down'), { statusCode: 502 });
    expect(loggableError(error)).toMatchObject({
      type: 'Error',
      message: 'gateway down',
      stack: expect.stringContaining('gateway down'),
      statusCode: 502,
    });
    expect(loggableError('not an error')).toBe('not an error');
  });

  it("drops the token of a link page's address from an error's message and stack", () => {
    const token = 'Xk3vQ9pL2mN7rT5w';
    const error = new Error(`/q/${token}: route module intake-form-page did not load`);
    const logged = loggableError(error) as { message: string; stack: string };
    expect(logged.message).toBe('/q/[token]: route module intake-form-page did not load');
    expect(logged.stack).toContain('/q/[token]: route module');
    expect(JSON.stringify(logged)).not.toContain(token);
    const payment = loggableError(new Error(`render of "/p/${token}?x=1" failed`));
    expect((payment as { message: string }).message).toBe('render of "/p/[token]?x=1" failed');
    expect((loggableError(new Error('/clinic/1 failed')) as { message: string }).message).toBe(
      '/clinic/1 failed',
    );
  });
});

describe('request logging', () => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  async function appWritingTo(lines: Record<string, unknown>[]): Promise<FastifyInstance> {
    const requestLog = new RequestLogController();
    const stream = { write: (line: string) => void lines.push(JSON.parse(line)) };
    const built = Fastify({
      logger: { ...loggerOptions({ logLevel: 'info' }), stream },
      logController: requestLog,
    });
    requestLog.useLogger(built.log);
    built.get('/q/:token', (request) => {
      request.log.info(
        { token: 'tok-1', body: { code: '123456' }, headers: { authorization: 'Bearer x' } },
        'handled',
      );
      return { ok: true };
    });
    built.get('/boom', () => {
      throw Object.assign(new Error('failed'), { code: 'E_SECRET' });
    });
    await built.ready();
    return built;
  }

  it('writes one line per request, when it is answered, without query string or token', async () => {
    const lines: Record<string, unknown>[] = [];
    app = await appWritingTo(lines);
    await app.inject({ method: 'GET', url: '/q/s3cr3t?code=otp-4821' });

    const requestLines = lines.filter((l) => l.msg !== 'handled');
    expect(requestLines).toEqual([
      expect.objectContaining({
        level: 30,
        msg: 'request completed',
        reqId: expect.any(String),
        req: { method: 'GET', url: '/q/[token]' },
        res: { statusCode: 200 },
        responseTime: expect.any(Number),
      }),
    ]);
    expect(JSON.stringify(lines)).not.toMatch(/s3cr3t|otp-4821/);
  });

  it('still redacts tokens, codes and credentials in every other line', async () => {
    const lines: Record<string, unknown>[] = [];
    app = await appWritingTo(lines);
    await app.inject({ method: 'GET', url: '/q/x' });

    const handled = lines.find((l) => l.msg === 'handled');
    expect(handled).toMatchObject({
      token: '[redacted]',
      body: { code: '[redacted]' },
      headers: { authorization: '[redacted]' },
    });
    // The handler's line and the request line share the request id.
    const completed = lines.find((l) => l.msg === 'request completed');
    expect(completed?.reqId).toBe(handled?.reqId);
  });

  it('redacts the error of a failed request', async () => {
    const lines: Record<string, unknown>[] = [];
    app = await appWritingTo(lines);
    await app.inject({ method: 'GET', url: '/boom' });
    expect(JSON.stringify(lines)).not.toContain('E_SECRET');
    expect(lines.find((l) => l.msg === 'request completed')).toMatchObject({
      res: { statusCode: 500 },
    });
  });
});
