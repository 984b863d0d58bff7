// Over 400 lines: its tests share one app and one database per engine (a file's set-up costs
// seconds an engine), so an API area stays one file.
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type {
  AuditLogEntry,
  CreatedStaffInvitation,
  StaffPasskey,
  StaffSession,
} from '@marpe/shared';
import type { App } from '../src/app.js';
import type { Database } from '../src/platform/db/client.js';
import { staffMemberships, staffPasskeys } from '../src/platform/db/schema.js';
import { insertClinics } from './fixtures.js';
import { buildTestApp, engines, useSentMessages, useTestDatabase, xsrfPair } from './helper.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const START = Date.parse('2027-03-24T10:00:00+02:00');
/** The tests' PUBLIC_ORIGIN (config's default): the relying party is its host name. */
const ORIGIN = 'http://localhost:3000';

type Method = 'GET' | 'POST' | 'DELETE';

interface Browser {
  cookies: Record<string, string>;
  headers: Record<string, string>;
}

const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

function uint32(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32BE(value);
  return buffer;
}

/**
 * A software authenticator, as WebAuthn specifies one: a P-256 key per credential, `none`
 * attestation, a signature counter that moves on with each use. What Chromium's virtual
 * authenticator does in the e2e journey, here without a browser.
 */
class SoftAuthenticator {
  readonly credentialId = randomBytes(16);
  counter = 0;
  private readonly privateKey: KeyObject;
  private readonly cose: Map<number, number | Uint8Array>;
  userHandle: string | null = null;

  constructor(
    private readonly origin = ORIGIN,
    private readonly rpId = new URL(ORIGIN).hostname,
  ) {
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = pair.privateKey;
    const jwk = pair.publicKey.export({ format: 'jwk' });
    this.cose = new Map<number, number | Uint8Array>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, Buffer.from(jwk.x as string, 'base64url')],
      [-3, Buffer.from(jwk.y as string, 'base64url')],
    ]);
  }

  get id() {
    return b64url(this.credentialId);
  }

  private clientData(type: string, challenge: string) {
    return Buffer.from(
      JSON.stringify({ type, challenge, origin: this.origin, crossOrigin: false }),
    );
  }

  /** navigator.credentials.create, answered as @simplewebauthn/browser sends it on. */
  register(options: { challenge: string; user: { id: string } }) {
    this.userHandle = options.user.id;
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const authData = Buffer.concat([
      sha256(this.rpId),
      Buffer.from([0x45]), // user present, user verified, attested credential data
      uint32(this.counter),
      Buffer.alloc(16), // AAGUID
      idLength,
      this.credentialId,
      Buffer.from(isoCBOR.encode(this.cose)),
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Uint8Array | Map<string, string>>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, string>()],
        ['authData', authData],
      ]),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(this.clientData('webauthn.create', options.challenge)),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** navigator.credentials.get with this (discoverable) credential. */
  authenticate(options: { challenge: string }, counter = this.counter + 1) {
    this.counter = counter;
    const clientDataJSON = this.clientData('webauthn.get', options.challenge);
    const authData = Buffer.concat([sha256(this.rpId), Buffer.from([0x05]), uint32(counter)]);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), {
      key: this.privateKey,
      dsaEncoding: 'der',
    });
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: this.userHandle ?? undefined,
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }
}

describe.each(engines)('the desk: passkeys (%s)', (engine) => {
  const database = useTestDatabase(engine);
  let app: App;
  let db: Database;
  let now = START;
  let clinicA: number;
  let keyA: string;
  const sent = useSentMessages(() => app);

  beforeAll(async () => {
    app = await buildTestApp(database.current.handle, {
      clock: () => now,
      outboxPollIntervalMs: HOUR,
    });
    await app.ready();
    db = database.current.handle.db;
  });
  afterAll(async () => {
    await app.close();
  });
  beforeEach(async () => {
    await database.current.reset();
    now = START;
    [clinicA] = await insertClinics(db, ['מרפאת אלון']);
    keyA = (await app.apiKeys.create(clinicA, 'pms', 'test')).key;
  });

  function keepCookies(browser: Browser, setCookie: string | string[] | undefined) {
    for (const cookie of [setCookie ?? []].flat()) {
      const match = /^([^=]+)=([^;]*)/.exec(cookie);
      if (!match?.[1]) continue;
      const name = match[1];
      const cleared = match[2] === '' || /max-age=0/i.test(cookie);
      browser.cookies = Object.fromEntries(
        Object.entries({ ...browser.cookies, [name]: match[2] ?? '' }).filter(
          ([key]) => !(cleared && key === name),
        ),
      );
    }
  }

  async function call(browser: Browser, method: Method, url: string, payload?: object) {
    const response = await app.inject({
      method,
      url,
      payload,
      cookies: browser.cookies,
      headers: browser.headers,
    });
    keepCookies(browser, response.headers['set-cookie']);
    return response;
  }

  /** A member of clinic A, signed in by an invitation's code in a browser of their own. */
  async function member(name: string, phone: string): Promise<Browser> {
    const response = await app.inject({
      method: 'POST',
      url: '/api/integration/staff/invitations',
      headers: { authorization: `Bearer ${keyA}` },
      payload: { name, phone, role: 'owner', send_sms: false },
    });
    const invitation = response.json<CreatedStaffInvitation>();
    const token = invitation.url.split('/').pop() as string;
    const browser = await xsrfPair(app);
    const { twoFactorToken } = (
      await call(browser, 'POST', `/api/staff-auth/invitations/${token}/code`)
    ).json<{ twoFactorToken: string }>();
    const message = (await sent()).find((m) => m.to === phone);
    const code = /(\d{6})/.exec(message?.body ?? '')?.[1] as string;
    const verified = await call(browser, 'POST', '/api/staff-auth/two-factor', {
      twoFactorToken,
      code,
    });
    expect(verified.statusCode, verified.body).toBe(200);
    return browser;
  }

  async function registrationOptions(browser: Browser) {
    const response = await call(browser, 'POST', '/api/staff-auth/passkeys/registration-options');
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{
      challenge: string;
      rp: { id: string; name: string };
      user: { id: string; name: string; displayName: string };
      pubKeyCredParams: { alg: number; type: string }[];
      excludeCredentials: { id: string; type: string }[];
      authenticatorSelection: { residentKey: string; userVerification: string };
      attestation: string;
      timeout: number;
    }>();
  }

  async function addPasskey(browser: Browser, authenticator: SoftAuthenticator, name: string) {
    const options = await registrationOptions(browser);
    const response = await call(browser, 'POST', '/api/staff-auth/passkeys', {
      name,
      response: authenticator.register(options),
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<StaffPasskey>();
  }

  async function signInOptions(browser: Browser) {
    const response = await call(browser, 'POST', '/api/staff-auth/passkey-sign-in/options');
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{
      challenge: string;
      rpId: string;
      allowCredentials?: unknown[];
      userVerification: string;
    }>();
  }

  const codeOf = (response: { json: <T>() => T }) => response.json<{ code: string }>().code;

  it('registration and sign-in options are what the browser needs for a discoverable passkey', async () => {
    const owner = await member('רונית מזרחי', '0527000001');
    const options = await registrationOptions(owner);
    expect(options.rp).toEqual({ name: 'Marpe', id: 'localhost' });
    expect(options.user.name).toBe('0527000001');
    expect(options.user.displayName).toBe('רונית מזרחי');
    // The user handle is opaque bytes (base64url), not the phone.
    expect(Buffer.from(options.user.id, 'base64url').toString()).toMatch(/^marpe-staff-\d+$/);
    expect(options.challenge).toMatch(/^[\w-]{20,}$/);
    expect(options.pubKeyCredParams.map((p) => p.alg)).toContain(-7);
    expect(options.authenticatorSelection).toMatchObject({
      residentKey: 'required',
      userVerification: 'preferred',
    });
    expect(options.attestation).toBe('none');
    expect(options.excludeCredentials).toEqual([]);

    // A second passkey's options exclude the first, so one device does not hold two.
    const authenticator = new SoftAuthenticator();
    await addPasskey(owner, authenticator, 'המחשב בקבלה');
    const next = await registrationOptions(owner);
    expect(next.excludeCredentials).toEqual([
      expect.objectContaining({ id: authenticator.id, type: 'public-key' }),
    ]);
    expect(next.challenge).not.toBe(options.challenge);

    // Sign-in asks any passkey of this site (none listed: the browser offers its own).
    const signIn = await signInOptions(await xsrfPair(app));
    expect(signIn.rpId).toBe('localhost');
    expect(signIn.allowCredentials ?? []).toEqual([]);
    expect(signIn.userVerification).toBe('preferred');
    expect(signIn.challenge).toMatch(/^[\w-]{20,}$/);

    // Options are for signed-in accounts only.
    const stranger = await xsrfPair(app);
    const refused = await call(stranger, 'POST', '/api/staff-auth/passkeys/registration-options');
    expect(refused.statusCode).toBe(401);
  });

  it('a passkey signs its account in without a code; the counter moves on; audited', async () => {
    const owner = await member('רונית מזרחי', '0527000001');
    const authenticator = new SoftAuthenticator();
    const added = await addPasskey(owner, authenticator, 'המחשב בקבלה');
    expect(added).toMatchObject({ name: 'המחשב בקבלה', last_used_at: null });
    const session = (await call(owner, 'GET', '/api/staff-auth/session')).json<StaffSession>();
    expect(session.has_passkey).toBe(true);

    const smsBefore = (await sent()).length;
    for (let i = 0; i < 2; i++) {
      now += MINUTE;
      const browser = await xsrfPair(app);
      const options = await signInOptions(browser);
      const signedIn = await call(browser, 'POST', '/api/staff-auth/passkey-sign-in', {
        response: authenticator.authenticate(options),
      });
      expect(signedIn.statusCode, signedIn.body).toBe(200);
      expect(signedIn.json<StaffSession>()).toMatchObject({
        account: { name: 'רונית מזרחי' },
        method: 'passkey',
      });
      expect((await call(browser, 'GET', '/api/integration/clinic')).statusCode).toBe(200);
    }
    expect((await sent()).length).toBe(smsBefore);
    const [row] = await db.select().from(staffPasskeys);
    expect(row?.counter).toBe(2);
    expect(row?.lastUsedAt?.getTime()).toBe(now);

    const log = (await call(owner, 'GET', '/api/integration/audit-log')).json<AuditLogEntry[]>();
    expect(log.find((e) => e.action === 'staff.passkey_add')).toMatchObject({
      actor: expect.stringMatching(/^staff:\d+$/),
      actor_name: 'רונית מזרחי',
      target_type: 'staff_passkey',
      target_id: String(added.id),
      details: { name: 'המחשב בקבלה' },
    });
  });

  it('a challenge is used once: a replayed registration or sign-in is refused', async () => {
    const owner = await member('רונית מזרחי', '0527000001');
    const authenticator = new SoftAuthenticator();
    const options = await registrationOptions(owner);
    const made = authenticator.register(options);
    const first = await call(owner, 'POST', '/api/staff-auth/passkeys', {
      name: 'א',
      response: made,
    });
    expect(first.statusCode, first.body).toBe(201);
    const again = await call(owner, 'POST', '/api/staff-auth/passkeys', {
      name: 'ב',
      response: made,
    });
    expect(again.statusCode).toBe(400);
    expect(codeOf(again)).toBe('passkey_failed');

    const browser = await xsrfPair(app);
    const signInOptionsOnce = await signInOptions(browser);
    const assertion = authenticator.authenticate(signInOptionsOnce);
    const ok = await call(browser, 'POST', '/api/staff-auth/passkey-sign-in', {
      response: assertion,
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const replay = await call(await xsrfPair(app), 'POST', '/api/staff-auth/passkey-sign-in', {
      response: assertion,
    });
    expect(replay.statusCode).toBe(400);
    expect(codeOf(replay)).toBe('passkey_failed');

    // A challenge the server never gave, and one given for registering, do not sign in.
    const invented = await call(await xsrfPair(app), 'POST', '/api/staff-auth/passkey-sign-in', {
      response: authenticator.authenticate({ challenge: b64url(randomBytes(32)) }),
    });
    expect(invented.statusCode).toBe(400);
    const registerChallenge = await registrationOptions(owner);
    const crossed = await call(await xsrfPair(app), 'POST', '/api/staff-auth/passkey-sign-in', {
      response: authenticator.authenticate(registerChallenge),
    });
    expect(crossed.statusCode).toBe(400);
  });

  it('a challenge expires after 5 minutes', async () => {
    const owner = await member('רונית מזרחי', '0527000001');
    const authenticator = new SoftAuthenticator();
    const options = await registrationOptions(owner);
    now += 5 * MINUTE + 1000;
    const late = await call(owner, 'POST', '/api/staff-auth/passkeys', {
      name: 'א',
      response: authenticator.register(options),
    });
    expect(late.statusCode).toBe(400);
    expect(codeOf(late)).toBe('passkey_failed');
  });

  it("another account's challenge or passkey is refused", async () => {
    const ronit = await member('רונית מזרחי', '0527000001');
    now += 2 * MINUTE;
    const shira = await member('שירה דוד', '0527000002');
    // Shira answers the options Ronit was given: the challenge is Ronit's, not hers.
    const ronitsOptions = await registrationOptions(ronit);
    const stolen = await call(shira, 'POST', '/api/staff-auth/passkeys', {
      name: 'א',
      response: new SoftAuthenticator().register(ronitsOptions),
    });
    expect(stolen.statusCode).toBe(400);
    expect(codeOf(stolen)).toBe('passkey_failed');

    const ronitsKey = await addPasskey(ronit, new SoftAuthenticator(), 'של רונית');
    // Shira neither sees nor removes Ronit's passkey.
    expect((await call(shira, 'GET', '/api/staff-auth/passkeys')).json()).toEqual([]);
    const removed = await call(shira, 'DELETE', `/api/staff-auth/passkeys/${ronitsKey.id}`);
    expect(removed.statusCode).toBe(404);
    expect(codeOf(removed)).toBe('passkey_not_found');
    expect((await call(ronit, 'GET', '/api/staff-auth/passkeys')).json()).toHaveLength(1);

    // One credential is one account's: the same credential id cannot be stored for Shira too.
    const shared = new SoftAuthenticator();
    await addPasskey(ronit, shared, 'משותף');
    const twice = await call(shira, 'POST', '/api/staff-auth/passkeys', {
      name: 'משותף',
      response: shared.register(await registrationOptions(shira)),
    });
    expect(twice.statusCode).toBe(400);
  });

  it('a signature counter that goes back is refused (a cloned authenticator)', async () => {
    const owner = await member('רונית מזרחי', '0527000001');
    const authenticator = new SoftAuthenticator();
    await addPasskey(owner, authenticator, 'המחשב בקבלה');
    const browser = await xsrfPair(app);
    const ok = await call(browser, 'POST', '/api/staff-auth/passkey-sign-in', {
      response: authenticator.authenticate(await signInOptions(browser), 5),
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const clone = await call(browser, 'POST', '/api/staff-auth/passkey-sign-in', {
      response: authenticator.authenticate(await signInOptions(browser), 3),
    });
    expect(clone.statusCode).toBe(400);
    expect(codeOf(clone)).toBe('passkey_failed');
  });

  it('a removed passkey, or a member no longer at any clinic, does not sign in', async () => {
    const owner = await member('רונית מזרחי', '0527000001');
    const authenticator = new SoftAuthenticator();
    const passkey = await addPasskey(owner, authenticator, 'המחשב בקבלה');
    expect((await call(owner, 'DELETE', `/api/staff-auth/passkeys/${passkey.id}`)).statusCode).toBe(
      204,
    );
    const browser = await xsrfPair(app);
    const gone = await call(browser, 'POST', '/api/staff-auth/passkey-sign-in', {
      response: authenticator.authenticate(await signInOptions(browser)),
    });
    expect(gone.statusCode).toBe(400);
    const log = (await call(owner, 'GET', '/api/integration/audit-log')).json<AuditLogEntry[]>();
    expect(log[0]).toMatchObject({ action: 'staff.passkey_remove', actor_name: 'רונית מזרחי' });

    const second = new SoftAuthenticator();
    await addPasskey(owner, second, 'הטאבלט');
    await db.delete(staffMemberships).where(eq(staffMemberships.clinicId, clinicA));
    const noClinic = await call(browser, 'POST', '/api/staff-auth/passkey-sign-in', {
      response: second.authenticate(await signInOptions(browser)),
    });
    expect(noClinic.statusCode).toBe(400);
    expect(codeOf(noClinic)).toBe('passkey_failed');
  });
});
