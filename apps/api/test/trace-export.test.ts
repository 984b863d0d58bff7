import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { context, propagation, trace } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TracingConfig } from '../src/platform/config.js';
import { startTracing } from '../src/platform/telemetry.js';

// The exporters the OTEL_* variables choose, end to end: spans reach an OTLP/HTTP collector (a
// loopback fake) in the protocol named, with the service name OTEL_SERVICE_NAME gives. The
// exporters read their endpoint and the resource its name from the environment themselves.

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

const received: Received[] = [];
let collector: Server;
const saved = {
  endpoint: process.env.OTEL_EXPORTER_OTLP_ENDPOINT,
  service: process.env.OTEL_SERVICE_NAME,
};

beforeAll(async () => {
  collector = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks),
      });
      const json = request.headers['content-type'] === 'application/json';
      response.writeHead(200, {
        'content-type': json ? 'application/json' : 'application/x-protobuf',
      });
      response.end(json ? '{}' : '');
    });
  });
  collector.listen(0, '127.0.0.1');
  await once(collector, 'listening');
  const { port } = collector.address() as AddressInfo;
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = `http://127.0.0.1:${port}`;
  process.env.OTEL_SERVICE_NAME = 'marpe-trace-export-test';
});

afterAll(async () => {
  collector.close();
  await once(collector, 'close');
  if (saved.endpoint === undefined) delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  else process.env.OTEL_EXPORTER_OTLP_ENDPOINT = saved.endpoint;
  if (saved.service === undefined) delete process.env.OTEL_SERVICE_NAME;
  else process.env.OTEL_SERVICE_NAME = saved.service;
});

/** Starts tracing as main.ts does, makes one span, stops (which flushes the batch). */
async function exportOneSpan(config: TracingConfig, name: string): Promise<Received[]> {
  received.length = 0;
  const tracing = startTracing({ export: config });
  trace.getTracer('test').startSpan(name).end();
  await tracing.shutdown();
  // The provider is global: let the next start register its own.
  trace.disable();
  context.disable();
  propagation.disable();
  return [...received];
}

describe('trace export', () => {
  it('sends spans as OTLP protobuf over HTTP by default', async () => {
    const requests = await exportOneSpan(
      { exporters: ['otlp'], protocol: 'http/protobuf' },
      'GET /api/protobuf-span',
    );
    expect(requests).toHaveLength(1);
    expect(requests[0]?.path).toBe('/v1/traces');
    expect(requests[0]?.headers['content-type']).toBe('application/x-protobuf');
    // Protobuf carries strings as their UTF-8 bytes.
    expect(requests[0]?.body.includes('GET /api/protobuf-span')).toBe(true);
    expect(requests[0]?.body.includes('marpe-trace-export-test')).toBe(true);
  });

  it('sends them as OTLP JSON when the protocol says http/json', async () => {
    const requests = await exportOneSpan(
      { exporters: ['otlp'], protocol: 'http/json' },
      'GET /api/json-span',
    );
    expect(requests).toHaveLength(1);
    expect(requests[0]?.headers['content-type']).toBe('application/json');
    const body = JSON.parse(requests[0]?.body.toString() ?? '') as {
      resourceSpans: {
        resource: { attributes: { key: string; value: { stringValue?: string } }[] };
        scopeSpans: { spans: { name: string }[] }[];
      }[];
    };
    const [resourceSpans] = body.resourceSpans;
    expect(resourceSpans?.scopeSpans[0]?.spans.map((s) => s.name)).toEqual(['GET /api/json-span']);
    expect(
      resourceSpans?.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue,
    ).toBe('marpe-trace-export-test');
  });
});
