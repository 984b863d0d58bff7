// Over 400 lines: its tests share one app and one database per engine (a file's set-up costs
// seconds an engine), so an API area stays one file.
import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { App } from '../src/app.js';
import { migrationsDir } from '../src/paths.js';
import { createPaymentsRepository } from '../src/modules/payments/payments-repository.js';
import type { PaymentLink } from '../src/modules/payments/create-payment-link.js';
import {
  openDatabase,
  type Database,
  type DatabaseEngine,
  type DatabaseHandle,
} from '../src/platform/db/client.js';
import {
  clinics,
  paymentCharges,
  paymentRequests,
  paymentTransactions,
} from '../src/platform/db/schema.js';
import { clinicRow } from './fixtures.js';
import { buildTestApp, engines, testConfig, useTestDatabase } from './helper.js';
import { startLoopback, type Loopback } from './loopback.js';

// One real charge confirms one request, whatever the order in which its callbacks and their
// verifications run. "Two processes" are two apps on one database, each verifying what it was
// told of; on PostgreSQL they hold separate connections and really run at once.

const START = Date.parse('2027-05-10T10:00:00+03:00');
const ORIGIN = 'https://marpe.example';
const TERMINAL = 'raceterm';
/** Each race is run this many times, half of them with the forged side started first. */
const ROUNDS = 12;

describe.each(engines)('one charge, one request, under any interleaving (%s)', (engine) => {
  const database = useTestDatabase(engine);
  let first: App;
  let second: App;
  let provider: Loopback;
  let db: Database;
  let clinicId: number;
  /** The provider's charges by index: what its /v1/transactions answers. */
  const charges = new Map<string, Record<string, unknown>>();

  beforeAll(async () => {
    provider = await startLoopback((request) => {
      const body = JSON.parse(request.body) as Record<string, string>;
      if (request.path === '/v1/handshake/create') return { status: 200, body: { thtk: 'thtk_x' } };
      const found = charges.get(body.transaction_index ?? '');
      return { status: 200, body: { error_code: 0, transactions: found ? [found] : [] } };
    });
    const build = () =>
      buildTestApp(database.current.handle, {
        config: testConfig({ PUBLIC_ORIGIN: ORIGIN, TRANZILA_API_BASE_URL: provider.origin }),
        clock: () => START,
        outboxPollIntervalMs: 3_600_000,
      });
    first = await build();
    second = await build();
    await Promise.all([first.ready(), second.ready()]);
    db = database.current.handle.db;
  });

  afterAll(async () => {
    await first.close();
    await second.close();
    await provider.close();
  });

  beforeEach(async () => {
    await database.current.reset();
    const [clinic] = await db
      .insert(clinics)
      .values({ ...clinicRow('מרפאת המרוץ'), cardTerminal: TERMINAL })
      .returning({ id: clinics.id });
    clinicId = clinic?.id ?? 0;
    await first.payments.setProviderCredentials(db, clinicId, {
      appKey: 'race-app-key',
      secret: 'race-secret',
    });
    charges.clear();
    provider.reset();
  });

  const link77 = () => first.payments.createLink({ clinicId, amountAgorot: 7700, maxPayments: 1 });
  const refOf = async (link: PaymentLink) =>
    (await first.payments.getPaymentRequest(link.token, { pinFrame: false })).chargeRef;

  /** The provider's callback for a ₪77 charge, as its frame posts it. */
  const callback = (index: string, reference?: string): Record<string, string> => ({
    Response: '000',
    index,
    ConfirmationCode: '0123456',
    sum: '77.00',
    currency: '1',
    cred_type: '1',
    supplier: TERMINAL,
    ccno: '4321',
    ...(reference === undefined ? {} : { marpe_ref: reference }),
  });

  /** The provider charged ₪77 under `index`, keeping `reference` with it (or none). */
  const charge = (index: string, reference: string | null) =>
    charges.set(index, {
      index,
      terminal_name: TERMINAL,
      processor_response_code: '000',
      amount: '77.00',
      currency_code: '1',
      number_of_payments: 1,
      ...(reference === null ? {} : { marpe_ref: reference }),
    });

  const status = async (id: number) =>
    (await db.select().from(paymentRequests).where(eq(paymentRequests.id, id)))[0]?.status;
  const transactionsOf = (id: number) =>
    db
      .select()
      .from(paymentTransactions)
      .where(eq(paymentTransactions.requestId, id))
      .orderBy(paymentTransactions.id);

  /**
   * One side of the race, in one "process": the callback on `link`, then at once the
   * verification of what it recorded. Returns the statuses the request went through.
   */
  async function side(app: App, link: PaymentLink, fields: Record<string, string>) {
    const response = await app.inject({
      method: 'POST',
      url: `/api/notify-payment/${link.token}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(fields).toString(),
    });
    expect(response.statusCode, response.body).toBe(200);
    const seen = [await status(link.requestId)];
    // This process's outbox worker verifies what is queued (the other side's too, if it finds it
    // first): each verification is claimed by one of them.
    await app.outbox.runOnce();
    seen.push(await status(link.requestId));
    return seen;
  }

  /**
   * Until every approved callback on these requests has its verification: a worker's run ends
   * once its own claims are done, and the other process may still hold a row.
   */
  async function settled(links: PaymentLink[]) {
    for (let attempt = 0; ; attempt++) {
      const rows = (await Promise.all(links.map((link) => transactionsOf(link.requestId)))).flat();
      if (!rows.some((r) => r.accepted && r.responseCode === '000' && r.verification === null)) {
        return;
      }
      if (attempt >= 100) throw new Error('verifications did not settle');
      await Promise.all([first.outbox.runOnce(), second.outbox.runOnce()]);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /**
   * Both sides at once, the charged one first or second; each side's statuses after its
   * callback and after its worker's run, then the final ones once all is verified.
   */
  async function race(
    round: number,
    charged: [PaymentLink, Record<string, string>],
    forged: [PaymentLink, Record<string, string>],
  ) {
    const seen =
      round % 2 === 0
        ? await Promise.all([side(first, ...charged), side(second, ...forged)])
        : await Promise.all([side(second, ...forged), side(first, ...charged)]).then(
            ([f, c]) => [c, f] as const,
          );
    await settled([charged[0], forged[0]]);
    return [
      [...seen[0], await status(charged[0].requestId)],
      [...seen[1], await status(forged[0].requestId)],
    ] as const;
  }

  it('a charge made with C’s reference pays C, never D, however its callbacks interleave', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const c = await link77();
      const d = await link77();
      const index = String(5000 + round);
      const cRef = await refOf(c);
      charge(index, cRef);
      // The forger holds link D: they post C's charge there with D's reference, with none, or
      // with C's (all three are refused, each for its own reason).
      const forgedFields = [
        callback(index, await refOf(d)),
        callback(index),
        callback(index, cRef),
      ][round % 3] as Record<string, string>;
      const [cSeen, dSeen] = await race(round, [c, callback(index, cRef)], [d, forgedFields]);

      expect(await status(c.requestId), `round ${round}`).toBe('paid');
      expect(await status(d.requestId), `round ${round}`).toBe('pending');
      // The charged request never went back to pending on the way.
      expect(cSeen, `round ${round}`).not.toContain('pending');
      expect(dSeen, `round ${round}`).not.toContain('paid');
      const claimed = await db
        .select()
        .from(paymentCharges)
        .where(eq(paymentCharges.providerIndex, index));
      expect(claimed.map((row) => row.requestId)).toEqual([c.requestId]);
    }
  });

  it('the review’s repro: C’s frame opened without the reference pays neither C nor D', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const c = await link77();
      const d = await link77();
      const index = String(6000 + round);
      // The frame's address was stripped of marpe_ref: the provider keeps no reference with the
      // charge, and its callback carries none. The same index is posted to D at once.
      charge(index, null);
      const [cSeen, dSeen] = await race(round, [c, callback(index)], [d, callback(index)]);

      for (const [link, seen] of [
        [c, cSeen],
        [d, dSeen],
      ] as const) {
        // Refused on arrival: never verifying, never paid, the link payable as it was.
        expect(seen, `round ${round}`).toEqual(['pending', 'pending', 'pending']);
        const [row] = await transactionsOf(link.requestId);
        expect(row, `round ${round}`).toMatchObject({
          accepted: false,
          rejectionReason: 'reference_missing',
          verification: 'unverifiable',
        });
      }
      expect(
        await db.select().from(paymentCharges).where(eq(paymentCharges.providerIndex, index)),
      ).toEqual([]);
    }
    // Nobody asked the provider about a charge that cannot be told apart.
    expect(provider.requests.filter((r) => r.path === '/v1/transactions')).toEqual([]);
  });

  it('a provider answer without the reference is unverifiable, never a match', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const c = await link77();
      const d = await link77();
      const index = String(7000 + round);
      // Both callbacks carry their own link's reference, but the provider kept none with the
      // charge: nothing tells whose it is.
      charge(index, null);
      const [cSeen, dSeen] = await race(
        round,
        [c, callback(index, await refOf(c))],
        [d, callback(index, await refOf(d))],
      );
      for (const [link, seen] of [
        [c, cSeen],
        [d, dSeen],
      ] as const) {
        // Verifying once its callback is in, then payable again: nobody's charge.
        expect(seen[0], `round ${round}`).toBe('verifying');
        expect(seen[2], `round ${round}`).toBe('pending');
        expect(seen, `round ${round}`).not.toContain('paid');
        const [row] = await transactionsOf(link.requestId);
        expect(row, `round ${round}`).toMatchObject({
          accepted: true,
          verification: 'unverifiable',
          rejectionReason: 'reference_missing',
        });
      }
      expect(
        await db.select().from(paymentCharges).where(eq(paymentCharges.providerIndex, index)),
      ).toEqual([]);
    }
  });
});

describe.each(engines)('the database binds a charge to its request (%s)', (engine) => {
  const database = useTestDatabase(engine);
  let db: Database;
  let clinicId: number;

  beforeEach(async () => {
    await database.current.reset();
    db = database.current.handle.db;
    const [clinic] = await db
      .insert(clinics)
      .values({ ...clinicRow('מרפאת המפתח'), cardTerminal: TERMINAL })
      .returning({ id: clinics.id });
    clinicId = clinic?.id ?? 0;
  });

  /** A ₪77 request with an approved callback for `index`: ids and reference. */
  async function requestWithCallback(index: string) {
    const chargeRef = randomBytes(12).toString('base64url');
    const [request] = await db
      .insert(paymentRequests)
      .values({
        clinicId,
        amountAgorot: 7700,
        terminal: TERMINAL,
        tokenHash: randomBytes(32).toString('hex'),
        chargeRef,
        createdAt: new Date(START),
        expiresAt: new Date(START + 86_400_000),
      })
      .returning({ id: paymentRequests.id });
    const requestId = request?.id ?? 0;
    const [transaction] = await db
      .insert(paymentTransactions)
      .values({
        requestId,
        clinicId,
        providerIndex: index,
        responseCode: '000',
        accepted: true,
        payload: {},
        receivedAt: new Date(START),
      })
      .returning({ id: paymentTransactions.id });
    return { requestId, transactionId: transaction?.id ?? 0, chargeRef };
  }

  it('refuses a claim under a reference that is not the claiming request’s own', async () => {
    const repository = createPaymentsRepository(db);
    const c = await requestWithCallback('900');
    const d = await requestWithCallback('900');
    // D claims the charge the provider keeps with C's reference: the foreign key says no.
    await expect(
      repository.claimCharge(
        db,
        { terminal: TERMINAL, providerIndex: '900', ...d, chargeRef: c.chargeRef },
        new Date(START),
      ),
    ).rejects.toThrow();
    expect(await db.select().from(paymentCharges)).toEqual([]);
    expect(
      await repository.claimCharge(
        db,
        { terminal: TERMINAL, providerIndex: '900', ...c },
        new Date(START),
      ),
    ).toBe(true);
  });

  it('lets one of two concurrent claims of one charge win, in separate transactions', async () => {
    const repository = createPaymentsRepository(db);
    for (let round = 0; round < 10; round++) {
      const index = String(950 + round);
      const c = await requestWithCallback(index);
      const d = await requestWithCallback(index);
      // Each transaction holds its request's row lock, as a verification does, then claims.
      const claim = (side: typeof c) =>
        db.transaction(async (tx) => {
          await tx.execute(
            sql`SELECT id FROM payment_requests WHERE id = ${side.requestId} FOR UPDATE`,
          );
          return repository.claimCharge(
            tx,
            { terminal: TERMINAL, providerIndex: index, ...side },
            new Date(START),
          );
        });
      const won = await Promise.all(round % 2 ? [claim(c), claim(d)] : [claim(d), claim(c)]);
      expect(won.filter(Boolean)).toHaveLength(1);
      expect(
        await db.select().from(paymentCharges).where(eq(paymentCharges.providerIndex, index)),
      ).toHaveLength(1);
    }
  });
});

describe.each(engines)('migration 0028 on a database holding charges (%s)', (engine) => {
  let handle: DatabaseHandle;
  let drop = async () => {};
  let folder: string;

  /** An empty database of this engine (the helper's come migrated to the end). */
  async function emptyDatabase(which: DatabaseEngine): Promise<void> {
    if (which === 'pglite') {
      handle = await openDatabase({ databaseUrl: null, dataDir: null });
      return;
    }
    const base = process.env.TEST_DATABASE_URL ?? '';
    const name = `marpe_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(base);
    url.pathname = `/${name}`;
    handle = await openDatabase({ databaseUrl: url.toString(), dataDir: null });
    drop = async () => {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    };
  }

  const migrateFrom = async (migrationsFolder: string) => {
    if (engine === 'pglite') {
      await migratePglite(handle.db as unknown as PgliteDatabase<Record<string, unknown>>, {
        migrationsFolder,
      });
    } else {
      await migrateNodePg(handle.db as Parameters<typeof migrateNodePg>[0], { migrationsFolder });
    }
  };

  beforeAll(async () => {
    await emptyDatabase(engine);
    // The migrations as they stood before this one: the same files, the journal cut short.
    folder = await mkdtemp(path.join(tmpdir(), 'marpe-migrations-'));
    await cp(migrationsDir, folder, { recursive: true });
    const journalPath = path.join(folder, 'meta', '_journal.json');
    const journal = JSON.parse(await readFile(journalPath, 'utf8')) as {
      entries: { idx: number; tag: string }[];
    };
    const mine = journal.entries.findIndex((entry) => entry.tag === '0028_one-charge-race');
    expect(mine).toBeGreaterThan(0);
    journal.entries = journal.entries.slice(0, mine);
    await writeFile(journalPath, JSON.stringify(journal));
  });

  afterAll(async () => {
    await handle.close();
    await drop();
    await rm(folder, { recursive: true, force: true });
  });

  it('keeps each charge with the request it paid, then holds new ones to their reference', async () => {
    await migrateFrom(folder);
    const rows = async (query: ReturnType<typeof sql>) =>
      ((await handle.db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows;
    const [clinic] = await rows(sql`
      INSERT INTO clinics (name, phone, street, home_number, city, opening_hours)
      VALUES ('מרפאה', '03-5550000', 'הרצל', '12', 'תל אביב-יפו', '{"title":null,"days":[]}')
      RETURNING id`);
    const requests = await rows(sql`
      INSERT INTO payment_requests
        (clinic_id, amount_agorot, terminal, token_hash, charge_ref, created_at, expires_at, status)
      VALUES
        (${clinic?.id}, 7700, 'oldterm', 'hash-a', 'ref-a', now(), now() + interval '1 day', 'paid'),
        (${clinic?.id}, 7700, 'oldterm', 'hash-b', 'ref-b', now(), now() + interval '1 day', 'paid')
      RETURNING id`);
    for (const [i, request] of requests.entries()) {
      // Confirmed before references were required: the provider's answer carried none.
      const [transaction] = await rows(sql`
        INSERT INTO payment_transactions
          (request_id, clinic_id, provider_index, response_code, accepted, payload, received_at,
           verification)
        VALUES (${request.id}, ${clinic?.id}, ${String(100 + i)}, '000', true, '{}', now(),
          'confirmed')
        RETURNING id`);
      await rows(sql`
        INSERT INTO payment_charges (terminal, provider_index, request_id, transaction_id, confirmed_at)
        VALUES ('oldterm', ${String(100 + i)}, ${request.id}, ${transaction?.id}, now())`);
    }

    await migrateFrom(migrationsDir);

    expect(
      await rows(sql`SELECT provider_index, request_id, charge_ref FROM payment_charges
        ORDER BY provider_index`),
    ).toEqual([
      { provider_index: '100', request_id: requests[0]?.id, charge_ref: 'ref-a' },
      { provider_index: '101', request_id: requests[1]?.id, charge_ref: 'ref-b' },
    ]);
    // From now on a charge row names the reference, and only its request's own is taken.
    const [transaction] = await rows(sql`
      INSERT INTO payment_transactions
        (request_id, clinic_id, provider_index, response_code, accepted, payload, received_at)
      VALUES (${requests[1]?.id}, ${clinic?.id}, '102', '000', true, '{}', now())
      RETURNING id`);
    await expect(
      rows(sql`
        INSERT INTO payment_charges
          (terminal, provider_index, request_id, transaction_id, charge_ref, confirmed_at)
        VALUES ('oldterm', '102', ${requests[1]?.id}, ${transaction?.id}, 'ref-a', now())`),
    ).rejects.toThrow();
    await expect(
      rows(sql`
        INSERT INTO payment_charges (terminal, provider_index, request_id, transaction_id, confirmed_at)
        VALUES ('oldterm', '102', ${requests[1]?.id}, ${transaction?.id}, now())`),
    ).rejects.toThrow();
  });
});
