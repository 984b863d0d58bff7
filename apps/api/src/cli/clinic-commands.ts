import { createApiKeys } from '../modules/integration/api-keys.js';
import { createClinicRepository } from '../modules/clinics/setup-repository.js';
import { createClinic } from '../modules/clinics/create-clinic.js';
import { createStaffMembers } from '../modules/staff/staff-members.js';
import { createStaffRepository } from '../modules/staff/staff-repository.js';
import {
  CREATE_CLINIC_USAGE,
  CREATE_KEY_USAGE,
  parseCreateClinicArgs,
  parseCreateKeyArgs,
  parseRevokeKeyArgs,
  REVOKE_KEY_USAGE,
} from './clinic-args.js';
import type { WithDatabase } from './open-database.js';

export const CLINIC_COMMANDS_USAGE = [CREATE_CLINIC_USAGE, CREATE_KEY_USAGE, REVOKE_KEY_USAGE].join(
  '\n',
);

/** The audit actor of everything the operator's CLI writes. */
const ACTOR = 'cli';

/**
 * `create-clinic`, `create-key` and `revoke-key`. The running server sees their changes through
 * the database's change notifications (its clinic page cache) or reads them anew (keys).
 */
export function clinicCommands(
  withDatabase: WithDatabase,
): Record<string, (args: readonly string[]) => Promise<void>> {
  return {
    'create-clinic': async (args) => {
      const options = parseCreateClinicArgs(args);
      if (options === 'help') {
        console.log(CREATE_CLINIC_USAGE);
        return;
      }
      await withDatabase(async (database, config) => {
        const repository = createClinicRepository(database.db);
        const { owner, ...clinic } = options;
        const id = await createClinic(repository, clinic, ACTOR, Date.now());
        console.log(id);
        if (!owner) {
          console.error(
            `Clinic ${id} created. Next: npm run marpe -- create-key --clinic ${id}, then load its caregivers through the integration API; or run it again with --owner-phone to set it up in the desk.`,
          );
          return;
        }
        const members = createStaffMembers({
          repository: createStaffRepository(database.db),
          messaging: null,
          clock: Date.now,
          publicOrigin: config.publicOrigin,
        });
        const invitation = await members.invite(
          { clinicId: id, actor: ACTOR },
          { ...owner, role: 'owner', sendSms: false },
        );
        console.log(invitation.url);
        console.error(
          `Clinic ${id} created. Send its owner (${owner.name}, ${owner.phone}) the invitation link above: it works once, until ${invitation.expires_at}, and opens the desk, where the clinic is set up (docs/desk.md).`,
        );
      });
    },

    'create-key': async (args) => {
      const options = parseCreateKeyArgs(args);
      if (options === 'help') {
        console.log(CREATE_KEY_USAGE);
        return;
      }
      await withDatabase(async (database) => {
        const apiKeys = createApiKeys({ db: database.db, clock: Date.now });
        const created = await apiKeys.create(options.clinicId, options.name, ACTOR);
        console.log(created.key);
        console.error(
          `API key ${created.id} ("${created.name}") for clinic ${created.clinicId}. Store it now: it will not be shown again.`,
        );
      });
    },

    'revoke-key': async (args) => {
      const options = parseRevokeKeyArgs(args);
      if (options === 'help') {
        console.log(REVOKE_KEY_USAGE);
        return;
      }
      await withDatabase(async (database) => {
        const apiKeys = createApiKeys({ db: database.db, clock: Date.now });
        if (!(await apiKeys.revoke(options.clinicId, options.keyId, ACTOR))) {
          throw new Error(`clinic ${options.clinicId} has no live API key ${options.keyId}`);
        }
        console.error(`API key ${options.keyId} of clinic ${options.clinicId} revoked.`);
      });
    },
  };
}
