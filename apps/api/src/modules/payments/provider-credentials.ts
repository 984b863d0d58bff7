import { decryptText, encryptText, sealedAt } from '../../platform/crypto.js';
import type { Executor } from '../../platform/db/client.js';
import type { PaymentsServiceDeps } from './payments-deps.js';
import type { ProviderCredentials } from './tranzila-api.js';

type Deps = Pick<PaymentsServiceDeps, 'repository' | 'provider'>;

/** The clinic's provider secret is bound to the clinic's row. */
const secretAt = (clinicId: number) => sealedAt('clinics', 'tranzila_secret', clinicId);

/** The clinic's provider credentials, the secret unsealed; null when it has none. */
export async function providerCredentials(
  { repository, provider }: Deps,
  clinicId: number,
): Promise<ProviderCredentials | null> {
  if (!provider) return null;
  const row = await repository.findProviderCredentials(repository.db, clinicId);
  if (!row?.appKey || !row.secret) return null;
  return {
    appKey: row.appKey,
    secret: decryptText(provider.sealKey, row.secret, secretAt(clinicId)),
  };
}

/** Whether the clinic has set provider credentials, and its app key (never the secret). */
export async function providerSettings(
  { repository }: Deps,
  clinicId: number,
): Promise<{ appKey: string | null }> {
  const row = await repository.findProviderCredentials(repository.db, clinicId);
  return { appKey: row?.secret ? row.appKey : null };
}

/** Sets (or with null, removes) the clinic's provider API credentials, the secret sealed. */
export async function setProviderCredentials(
  { repository, provider }: Deps,
  ex: Executor,
  clinicId: number,
  credentials: ProviderCredentials | null,
): Promise<void> {
  if (!provider) throw new Error('payments: credentials without a provider');
  await repository.saveProviderCredentials(ex, clinicId, {
    appKey: credentials?.appKey ?? null,
    secret: credentials
      ? encryptText(provider.sealKey, credentials.secret, secretAt(clinicId))
      : null,
  });
}
