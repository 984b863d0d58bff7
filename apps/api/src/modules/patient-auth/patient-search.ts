import { and, asc, eq, like, or, sql, type SQL } from 'drizzle-orm';
import type { IntegrationPatient, PatientSearchQuery } from '@marpe/shared';
import type { Database } from '../../platform/db/client.js';
import { patients } from '../../platform/db/schema.js';
import { toPatient } from './patient-auth-service.js';

/** What a phone may be spelled with besides its digits: `+972 52-700 0001`, `(052) 7000001`. */
const phoneSpelling = /^[+\d][\d\s\-().]*$/;

/** `%`, `_` and `\` are LIKE's own: a typed one means itself. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The spellings a typed number's prefix may take in `patients.phone` (05XXXXXXXX). */
export function phonePrefixes(digits: string): string[] {
  const prefixes = new Set<string>([digits]);
  if (digits.startsWith('00972')) prefixes.add(`0${digits.slice(5).replace(/^0/, '')}`);
  else if (digits.startsWith('972')) prefixes.add(`0${digits.slice(3).replace(/^0/, '')}`);
  else if (!digits.startsWith('0')) prefixes.add(`0${digits}`);
  return [...prefixes].filter((prefix) => prefix.length > 0);
}

/**
 * How a search reads what was typed: one number when it is a number in any spelling (an ID
 * number or a phone, prefixes), otherwise words, each a prefix of the first or the last name or,
 * when it is digits, of the ID number or phone; every word must match, in any order.
 */
export function searchTerms(q: string): { numbers: string[]; words: string[] } {
  const text = q.trim();
  if (phoneSpelling.test(text)) {
    const digits = text.replace(/\D/g, '');
    if (digits.length > 0) return { numbers: [digits], words: [] };
  }
  const numbers: string[] = [];
  const words: string[] = [];
  for (const token of text.split(/\s+/).filter(Boolean)) {
    if (/^\d+$/.test(token.replace(/[-().+]/g, ''))) numbers.push(token.replace(/\D/g, ''));
    else words.push(token);
  }
  return { numbers, words };
}

/**
 * A name column starts with the typed word, whatever the case: `lower(col) LIKE lower('word%')`, the
 * form the `(clinic_id, lower(col) text_pattern_ops)` indexes serve (ILIKE cannot use a btree).
 */
const nameStartsWith = (
  column: typeof patients.firstName | typeof patients.lastName,
  word: string,
): SQL => sql`lower(${column}) LIKE lower(${`${escapeLike(word)}%`})`;

/** `GET /api/integration/patients`: the clinic's patients matching what the desk typed. */
export function createPatientSearch({ db }: { db: Database }) {
  return {
    async search(clinicId: number, query: PatientSearchQuery): Promise<IntegrationPatient[]> {
      const { numbers, words } = searchTerms(query.q);
      const conditions: SQL[] = [];
      const exact: SQL[] = [];
      for (const digits of numbers) {
        const phones = phonePrefixes(digits);
        conditions.push(
          or(
            like(patients.idNumber, `${escapeLike(digits)}%`),
            // A whole ID number typed without its leading zeros.
            digits.length < 9 ? eq(patients.idNumber, digits.padStart(9, '0')) : undefined,
            ...phones.map((prefix) => like(patients.phone, `${escapeLike(prefix)}%`)),
          ) as SQL,
        );
        exact.push(
          or(
            eq(patients.idNumber, digits.padStart(9, '0')),
            ...phones.map((prefix) => eq(patients.phone, prefix)),
          ) as SQL,
        );
      }
      for (const word of words) {
        conditions.push(
          or(
            nameStartsWith(patients.firstName, word),
            nameStartsWith(patients.lastName, word),
          ) as SQL,
        );
        exact.push(
          or(
            sql`lower(${patients.firstName}) = lower(${word})`,
            sql`lower(${patients.lastName}) = lower(${word})`,
          ) as SQL,
        );
      }
      // Nothing typed: every patient, by name (the desk's patients page opens on it).
      const byName = [asc(patients.lastName), asc(patients.firstName), asc(patients.id)];
      // Whole words and whole numbers first, then by name.
      const order =
        exact.length === 0
          ? byName
          : [sql<number>`(CASE WHEN ${and(...exact)} THEN 0 ELSE 1 END)`, ...byName];
      const rows = await db
        .select()
        .from(patients)
        .where(and(eq(patients.clinicId, clinicId), ...conditions))
        .orderBy(...order)
        .limit(query.limit)
        .offset(query.offset);
      return rows.map(toPatient);
    },

    /** `GET /api/integration/patients/{idNumber}`: one patient of the clinic, or null. */
    async find(clinicId: number, idNumber: string): Promise<IntegrationPatient | null> {
      const [row] = await db
        .select()
        .from(patients)
        .where(and(eq(patients.clinicId, clinicId), eq(patients.idNumber, idNumber)));
      return row ? toPatient(row) : null;
    },
  };
}

export type PatientSearch = ReturnType<typeof createPatientSearch>;
