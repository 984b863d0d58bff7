import { MAX_IDENTITIES_PER_PHONE, PHONE_HINT_DIGITS, type Patient } from '@marpe/shared';
import type { Executor } from '../../platform/db/client.js';
import { hmacHex, randomToken, safeEqual, sha256Hex } from '../../platform/crypto.js';
import { AppError } from '../../platform/errors.js';
import {
  assertCodeSendAllowed,
  limits,
  pruneLimitEvents,
  takeLimit,
  tooManyRequests,
  windowFull,
} from '../../platform/limits.js';
import { generateCode, otpMessage, type CodeSmsQueue } from '../../platform/one-time-code.js';
import type { PatientAuthRepository, PatientRow } from './patient-auth-repository.js';
import { patientAuthRules, type PatientAuthRules } from './patient-auth-rules.js';

export interface PatientAuthServiceDeps {
  repository: PatientAuthRepository;
  messaging: CodeSmsQueue;
  /** Epoch milliseconds. */
  clock: () => number;
  /** Keys the code hashes (derived from DATA_KEY): a stolen table does not give the codes away. */
  codeKey: Buffer;
  /** The host of the WebOTP line. */
  host: string;
  rules?: PatientAuthRules;
}

export interface CodeRequest {
  clinicId: number;
  /** Normalised: 9 digits. */
  idNumber: string;
  /** Normalised: 05XXXXXXXX. */
  phone: string;
}

export interface SignUpRequest extends CodeRequest {
  firstName: string;
  lastName: string;
}

/** The session behind a bearer token. */
export interface PatientSession {
  sessionId: number;
  patient: PatientRow;
}

export function toPatient(row: PatientRow): Patient {
  return {
    id: row.id,
    id_number: row.idNumber,
    first_name: row.firstName,
    last_name: row.lastName,
    phone: row.phone,
  };
}

/** 409: the phone already signs in as many ID numbers at the clinic as one phone may. */
export function tooManyIdentities(): AppError {
  return new AppError(
    'too_many_identities',
    409,
    `This phone already signs in ${MAX_IDENTITIES_PER_PHONE} ID numbers at the clinic`,
    { max: MAX_IDENTITIES_PER_PHONE },
  );
}

/** 429 until the oldest row of a full window leaves it. */
/**
 * Patient verification: a code by SMS for a known patient (login) or a new one (sign-up), then
 * a session for whoever proves they hold the phone. Wrong-code answers are written before the
 * error is thrown, outside the rolled-back path, so no failure goes uncounted.
 */
export function createPatientAuthService(deps: PatientAuthServiceDeps) {
  const { repository, messaging, clock, codeKey, host } = deps;
  const rules = deps.rules ?? patientAuthRules;
  const hashCode = (tokenHash: string, code: string) => hmacHex(codeKey, `${tokenHash}:${code}`);
  let lastPrune = 0;

  async function pruneNowAndThen(now: number) {
    if (now - lastPrune < 10 * 60_000) return;
    lastPrune = now;
    await repository.prune({
      challenges: new Date(now - rules.challengeRetentionMs),
      failures: new Date(now - rules.lockoutEscalationWindowMs),
      sessions: new Date(now - rules.challengeRetentionMs),
    });
    await pruneLimitEvents(repository.db, now);
  }

  /**
   * The lockout of a patient (clinic + ID number) whose wrong codes fill a window, or null: while
   * the last hour holds the maximum (sliding), and after the k-th full window within a day
   * (k ≥ 2) for 2^(k−1) hours from the last failure, at most `maxLockoutMs`.
   */
  async function lockout(
    ex: Executor,
    clinicId: number,
    idNumber: string,
    now: number,
  ): Promise<AppError | null> {
    const { maxFailuresPerPatient: max, failureWindowMs: window } = rules;
    const recent = await repository.failuresSince(ex, clinicId, idNumber, new Date(now - window));
    if (recent.count >= max) return windowFull(recent, window, now);
    const day = await repository.failuresSince(
      ex,
      clinicId,
      idNumber,
      new Date(now - rules.lockoutEscalationWindowMs),
    );
    const fullWindows = Math.floor(day.count / max);
    if (fullWindows < 2 || !day.newest) return null;
    const lockMs = Math.min(window * 2 ** (fullWindows - 1), rules.maxLockoutMs);
    const until = day.newest.getTime() + lockMs;
    return until > now ? tooManyRequests(until, now) : null;
  }

  /**
   * The wrong-phone answer shows the last digits on file, so it is counted: a few a day per
   * clinic + ID number, then 429 (harvesting phones by ID number is slow). Committed on its own:
   * the answer is an error.
   */
  async function invalidPhoneOnce(clinicId: number, idNumber: string, phoneOnFile: string) {
    await repository.db.transaction((tx) =>
      takeLimit(tx, limits.phoneHint, `${clinicId}:${idNumber}`, clock()),
    );
    return invalidPhone(phoneOnFile);
  }

  async function findClinic(clinicId: number) {
    const clinic = await repository.findClinic(clinicId);
    if (!clinic) throw new AppError('clinic_not_found', 404, 'Clinic not found');
    return clinic;
  }

  function invalidPhone(phoneOnFile: string): AppError {
    return new AppError(
      'invalid_phone',
      400,
      'This ID number is registered with a different phone',
      undefined,
      phoneOnFile.slice(-PHONE_HINT_DIGITS),
    );
  }

  /** Checks the limits, replaces the earlier code, stores the new one and queues its SMS. */
  async function sendCode(
    request: CodeRequest & { clinicName: string; clientAddress: string },
    challenge: {
      purpose: 'login' | 'sign_up';
      patientId: number | null;
      firstName?: string;
      lastName?: string;
    },
  ): Promise<string> {
    const now = clock();
    await pruneNowAndThen(now);
    const token = randomToken();
    const tokenHash = sha256Hex(token);
    const code = generateCode();

    await repository.db.transaction(async (tx) => {
      await repository.lockSendLimits(tx, request.phone, request.clientAddress);
      const locked = await lockout(tx, request.clinicId, request.idNumber, now);
      if (locked) throw locked;
      await assertCodeSendAllowed(tx, repository, request, rules, now);

      await repository.replacePendingChallenges(tx, request.clinicId, request.idNumber);
      const expiresAt = new Date(now + rules.codeTtlMs);
      await repository.insertChallenge(tx, {
        tokenHash,
        clinicId: request.clinicId,
        purpose: challenge.purpose,
        patientId: challenge.patientId,
        idNumber: request.idNumber,
        phone: request.phone,
        firstName: challenge.firstName ?? null,
        lastName: challenge.lastName ?? null,
        codeHash: hashCode(tokenHash, code),
        clientAddress: request.clientAddress,
        createdAt: new Date(now),
        expiresAt,
      });
      await messaging.queueCode(tx, {
        clinicId: request.clinicId,
        to: request.phone,
        body: otpMessage({
          code,
          clinicName: request.clinicName,
          host,
          validMinutes: rules.codeTtlMs / 60_000,
        }),
        expiresAt,
        deliveryRef: tokenHash,
      });
    });
    messaging.kick();
    return token;
  }

  async function createSession(ex: Executor, patientId: number, now: number): Promise<string> {
    const token = randomToken();
    await repository.insertSession(ex, {
      tokenHash: sha256Hex(token),
      patientId,
      createdAt: new Date(now),
      lastSeenAt: new Date(now),
      expiresAt: new Date(now + rules.sessionAbsoluteMs),
    });
    return token;
  }

  type Verification =
    { kind: 'ok'; patient: PatientRow; token: string } | { kind: 'error'; error: AppError };

  return {
    /** `POST /patient-auth/login`. */
    async login(request: CodeRequest & { clientAddress: string }): Promise<string> {
      const clinic = await findClinic(request.clinicId);
      const patient = await repository.findPatient(
        repository.db,
        request.clinicId,
        request.idNumber,
      );
      // The same answer whatever the phone: an unknown ID number tells nothing more.
      if (!patient) throw new AppError('patient_not_found', 404, 'Patient not found');
      if (patient.phone !== request.phone) {
        throw await invalidPhoneOnce(request.clinicId, request.idNumber, patient.phone);
      }
      return sendCode(
        { ...request, clinicName: clinic.name },
        { purpose: 'login', patientId: patient.id },
      );
    },

    /**
     * `POST /patient-auth/sign-up`: the patient is created only once the code is verified. An ID
     * number that is already a patient is a login (the names are not theirs to change here).
     */
    async signUp(request: SignUpRequest & { clientAddress: string }): Promise<string> {
      const clinic = await findClinic(request.clinicId);
      const patient = await repository.findPatient(
        repository.db,
        request.clinicId,
        request.idNumber,
      );
      if (patient) {
        if (patient.phone !== request.phone) {
          throw await invalidPhoneOnce(request.clinicId, request.idNumber, patient.phone);
        }
        return sendCode(
          { ...request, clinicName: clinic.name },
          { purpose: 'login', patientId: patient.id },
        );
      }
      if (!clinic.isAcceptNewPatients) {
        throw new AppError(
          'not_accepting_new_patients',
          403,
          'The clinic does not accept new patients online',
        );
      }
      // Checked again, under a lock, when the code creates the patient.
      const identities = await repository.lockAndCountIdentities(
        repository.db,
        request.clinicId,
        request.phone,
      );
      if (identities >= MAX_IDENTITIES_PER_PHONE) throw tooManyIdentities();
      return sendCode(
        { ...request, clinicName: clinic.name },
        {
          purpose: 'sign_up',
          patientId: null,
          firstName: request.firstName,
          lastName: request.lastName,
        },
      );
    },

    /** `POST /patient-auth/two-factor`. */
    async verify(request: {
      idNumber: string;
      code: string;
      twoFactorToken: string;
    }): Promise<{ patient: Patient; token: string }> {
      const now = clock();
      const tokenHash = sha256Hex(request.twoFactorToken);
      const invalidToken = new AppError(
        'invalid_two_factor_token',
        400,
        'The code has expired or was replaced; request a new one',
      );

      const result = await repository.db.transaction(async (tx): Promise<Verification> => {
        const challenge = await repository.lockChallenge(tx, tokenHash);
        if (
          !challenge ||
          !safeEqual(challenge.idNumber, request.idNumber) ||
          challenge.status === 'used' ||
          challenge.status === 'replaced' ||
          challenge.expiresAt.getTime() <= now
        ) {
          return { kind: 'error', error: invalidToken };
        }
        const dead = new AppError(
          'too_many_requests',
          429,
          'Too many wrong codes; request a new code later',
        );
        if (challenge.status === 'dead') return { kind: 'error', error: dead };

        const locked = await lockout(tx, challenge.clinicId, challenge.idNumber, now);
        if (locked) return { kind: 'error', error: locked };

        if (!safeEqual(hashCode(tokenHash, request.code), challenge.codeHash)) {
          const failedAttempts = challenge.failedAttempts + 1;
          const isDead = failedAttempts > rules.maxWrongCodesPerChallenge;
          await repository.updateChallenge(tx, challenge.id, {
            failedAttempts,
            ...(isDead ? { status: 'dead' as const } : {}),
          });
          await repository.recordFailure(tx, challenge.clinicId, challenge.idNumber, new Date(now));
          return {
            kind: 'error',
            error: isDead ? dead : new AppError('wrong_code', 404, 'Wrong code'),
          };
        }

        await repository.updateChallenge(tx, challenge.id, { status: 'used' });
        let patient: PatientRow | null;
        if (challenge.purpose === 'login' && challenge.patientId !== null) {
          patient = await repository.findPatientById(tx, challenge.patientId);
        } else {
          const existing = await repository.findPatient(tx, challenge.clinicId, challenge.idNumber);
          if (
            !existing &&
            (await repository.lockAndCountIdentities(tx, challenge.clinicId, challenge.phone)) >=
              MAX_IDENTITIES_PER_PHONE
          ) {
            return { kind: 'error', error: tooManyIdentities() };
          }
          patient =
            existing ??
            (await repository.insertPatient(tx, {
              clinicId: challenge.clinicId,
              idNumber: challenge.idNumber,
              firstName: challenge.firstName ?? '',
              lastName: challenge.lastName ?? '',
              phone: challenge.phone,
            })) ??
            (await repository.findPatient(tx, challenge.clinicId, challenge.idNumber));
        }
        // The patient record changed since the code was sent (deleted, or its phone changed,
        // or a concurrent sign-up with another phone): the code proves nothing about it.
        if (!patient || patient.phone !== challenge.phone) {
          return { kind: 'error', error: invalidToken };
        }
        await repository.clearFailures(tx, challenge.clinicId, challenge.idNumber);
        const token = await createSession(tx, patient.id, now);
        return { kind: 'ok', patient, token };
      });

      if (result.kind === 'error') throw result.error;
      return { patient: toPatient(result.patient), token: result.token };
    },

    /** The live session of a bearer token, or null; keeps an active session alive. */
    async authenticate(token: string): Promise<PatientSession | null> {
      if (token.length < 20 || token.length > 200) return null;
      const now = clock();
      const session = await repository.findLiveSession(
        sha256Hex(token),
        new Date(now),
        new Date(now - rules.sessionIdleMs),
      );
      if (!session) return null;
      if (now - session.lastSeenAt.getTime() >= rules.sessionTouchEveryMs) {
        await repository.touchSession(session.sessionId, new Date(now));
      }
      return { sessionId: session.sessionId, patient: session.patient };
    },

    async logout(sessionId: number): Promise<void> {
      await repository.revokeSession(sessionId, new Date(clock()));
    },
  };
}

export type PatientAuthService = ReturnType<typeof createPatientAuthService>;
