import { randomToken, sha256Hex } from '../src/platform/crypto.js';
import type { Database } from '../src/platform/db/client.js';
import {
  patients,
  patientSessions,
  staffAccounts,
  staffMemberships,
  staffSessions,
} from '../src/platform/db/schema.js';

const HOUR = 3_600_000;

export interface TestPatient {
  id: number;
  clinicId: number;
  idNumber: string;
  /** National form, 05XXXXXXXX: where SMS go. */
  phone: string;
  /** A live session's bearer token. */
  token: string;
}

// Unique across a test file's calls, so patients of one test never share an ID number or phone.
let serial = 0;

/**
 * A live session for each patient, written straight to patient_sessions (the token's SHA-256, as
 * patient-auth stores it). Logging in through the SMS flow (patient-auth.test.ts) costs several
 * calls per patient and meets the per-address send limit: a race of 100 patients needs this.
 */
export async function insertSessions(
  db: Database,
  patientIds: readonly number[],
  now: number,
): Promise<string[]> {
  const tokens = patientIds.map(() => randomToken());
  if (patientIds.length === 0) return tokens;
  await db.insert(patientSessions).values(
    patientIds.map((patientId, i) => ({
      tokenHash: sha256Hex(tokens[i] as string),
      patientId,
      createdAt: new Date(now),
      lastSeenAt: new Date(now),
      expiresAt: new Date(now + 12 * HOUR),
    })),
  );
  return tokens;
}

/** `count` new patients of the clinic, each with a live session. */
export async function insertLoggedInPatients(
  db: Database,
  options: { clinicId: number; count: number; now: number },
): Promise<TestPatient[]> {
  const rows = Array.from({ length: options.count }, () => {
    serial += 1;
    const digits = String(serial).padStart(8, '0');
    return {
      clinicId: options.clinicId,
      // The column checks 9 digits only; no login call checks these.
      idNumber: `9${digits}`,
      firstName: 'מטופל',
      lastName: `מספר ${serial}`,
      phone: `05${digits}`,
    };
  });
  const inserted = await db
    .insert(patients)
    .values(rows)
    .returning({ id: patients.id, idNumber: patients.idNumber, phone: patients.phone });
  const tokens = await insertSessions(
    db,
    inserted.map((p) => p.id),
    options.now,
  );
  return inserted.map((p, i) => ({
    ...p,
    clinicId: options.clinicId,
    token: tokens[i] as string,
  }));
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/**
 * A live desk session for a new staff member of the clinic, written straight to the staff tables
 * (as staff-auth stores it): its cookie, for suites about something else than signing in.
 */
export async function insertStaffSession(
  db: Database,
  options: { clinicId: number; role: 'owner' | 'front_desk'; now: number; phone?: string },
): Promise<{ accountId: number; cookies: Record<string, string> }> {
  serial += 1;
  const phone = options.phone ?? `058${String(serial).padStart(7, '0')}`;
  const [account] = await db
    .insert(staffAccounts)
    .values({ phone, name: `צוות ${serial}` })
    .onConflictDoUpdate({ target: staffAccounts.phone, set: { phone } })
    .returning({ id: staffAccounts.id });
  if (!account) throw new Error('fixture: staff account');
  await db
    .insert(staffMemberships)
    .values({ clinicId: options.clinicId, accountId: account.id, role: options.role })
    .onConflictDoNothing();
  const token = randomToken();
  await db.insert(staffSessions).values({
    tokenHash: sha256Hex(token),
    accountId: account.id,
    method: 'sms',
    createdAt: new Date(options.now),
    lastSeenAt: new Date(options.now),
    expiresAt: new Date(options.now + 12 * HOUR),
  });
  return { accountId: account.id, cookies: { marpe_desk: token } };
}
