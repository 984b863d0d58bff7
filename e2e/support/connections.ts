import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { seedDemoClinic } from '../../apps/api/src/demo/seed-demo-clinic';
import { createApiKeys } from '../../apps/api/src/modules/integration/api-keys';
import { acquireDataDirLock } from '../../apps/api/src/platform/data-dir-lock';
import { openDatabase } from '../../apps/api/src/platform/db/client';

/** The demo clinic the server would seed, and an API key for it (as `npm run marpe -- create-key` makes). */
export async function seedClinicWithKey(
  dataDir: string,
): Promise<{ clinicId: number; key: string }> {
  const lock = await acquireDataDirLock(dataDir);
  try {
    const database = await openDatabase({ databaseUrl: null, dataDir });
    try {
      await database.migrate();
      await seedDemoClinic(database.db);
      const created = await createApiKeys({ db: database.db, clock: Date.now }).create(
        1,
        'e2e',
        'cli',
      );
      return { clinicId: created.clinicId, key: created.key };
    } finally {
      await database.close();
    }
  } finally {
    lock.release();
  }
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface FakeAnswer {
  status: number;
  headers?: Record<string, string>;
  body: string;
}

/** A loopback server standing in for a third party: records requests, answers with `answer`. */
export async function startFakeServer(answer: (request: RecordedRequest) => FakeAnswer) {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake.test');
      const request: RecordedRequest = {
        method: req.method ?? '',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(request);
      const { status, headers, body } = answer(request);
      res.writeHead(status, headers).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
