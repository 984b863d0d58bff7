import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { loggableUrl, loggerOptions, RequestLogController } from './logger.js';

describe('loggableUrl', () => {
  it('drops query strings and link tokens', () => {
    expect(loggableUrl('/api/health?x=1')).toBe('/api/health');
    expect(loggableUrl('/q/s3cr3t-token')).toBe('/q/[token]');
    expect(loggableUrl('/p/s3cr3t/extra?Response=000')).toBe('/p/[token]/extra');
    expect(loggableUrl('/clinic/1')).toBe('/clinic/1');
    expect(loggableUrl('/tranzila/s3cr3t?results=Response%3D000')).toBe('/tranzila/[token]');
    expect(loggableUrl('/api/notify-payment/s3cr3t')).toBe('/api/notify-payment/[token]');
    expect(loggableUrl('/api/payment-return/s3cr3t?Response=000')).toBe(
      '/api/payment-return/[token]',
    );
    expect(loggableUrl('/api/sandbox/marpedemo/iframenew.php?notify_url_address=x')).toBe(
      '/api/sandbox/marpedemo/iframenew.php',
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
