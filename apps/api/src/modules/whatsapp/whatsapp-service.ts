import type {
  ValidationDetails,
  WaSignupBody,
  WhatsAppConnectResponse,
  WhatsAppStatus,
} from '@marpe/shared';
import { audit } from '../../platform/audit.js';
import type { Database } from '../../platform/db/client.js';
import { AppError } from '../../platform/errors.js';
import {
  findLiveConnectionToken,
  issueConnectionToken,
  useConnectionToken,
} from '../../platform/connection-tokens.js';
import type { GraphSignup } from './graph-signup.js';
import {
  deleteConnection,
  findClinicWhatsApp,
  saveConnection,
  setMessagingChannel,
} from '../messaging/whatsapp-connections.js';
import type { SealingKey } from '../../platform/crypto.js';

/** How long a connection link works: a day is enough to find the business's Facebook login. */
export const WHATSAPP_LINK_TTL_MS = 24 * 3600_000;

/** The audit actor of the connection page's call (nobody signs in there). */
export const WHATSAPP_SIGNUP_ACTOR = 'whatsapp_signup';

export interface WhatsAppServiceDeps {
  db: Database;
  clock: () => number;
  /** `whatsappTokenKey(dataKey)`. */
  tokenKey: SealingKey;
  publicOrigin: string;
  /** Null when the server has no Meta app (META_APP_ID…): connections are refused (503). */
  graph: GraphSignup | null;
}

const notConfigured = () =>
  new AppError(
    'service_unavailable',
    503,
    'WhatsApp is not set up on this server (META_APP_ID, META_APP_SECRET, META_CONFIG_ID)',
  );

const clinicGone = (clinicId: number) =>
  new AppError('clinic_not_found', 404, `No clinic ${clinicId}`);

function invalidClientId(): AppError {
  const message =
    'This connection link is unknown, used or expired: ask the clinic software for a new one';
  const details: ValidationDetails = { issues: [{ path: 'clientId', message }] };
  return new AppError('validation_failed', 400, `Invalid request: clientId: ${message}`, details);
}

export function createWhatsAppService(deps: WhatsAppServiceDeps) {
  const { db, clock, tokenKey, graph } = deps;

  return {
    /** `POST /api/integration/whatsapp/connect`: a single-use link to the connection page. */
    async startConnection(clinicId: number, actor: string): Promise<WhatsAppConnectResponse> {
      if (!graph) throw notConfigured();
      const createdAt = new Date(clock());
      const issued = await db.transaction(async (tx) => {
        const token = await issueConnectionToken(tx, {
          clinicId,
          purpose: 'whatsapp',
          createdAt,
          ttlMs: WHATSAPP_LINK_TTL_MS,
        });
        await audit(tx, {
          clinicId,
          actor,
          action: 'whatsapp.connect_start',
          targetType: 'whatsapp_connection',
          details: { expires_at: token.expiresAt.toISOString() },
          at: createdAt,
        });
        return token;
      });
      return {
        client_id: issued.token,
        url: `${deps.publicOrigin}/whatsapp-signup/${issued.token}`,
        expires_at: issued.expiresAt.toISOString(),
      };
    },

    /** `GET /api/integration/whatsapp`. */
    async status(clinicId: number): Promise<WhatsAppStatus> {
      const found = await findClinicWhatsApp(db, clinicId);
      if (!found) throw clinicGone(clinicId);
      const { connection } = found;
      return {
        connected: connection !== null,
        waba_id: connection?.wabaId ?? null,
        phone_number_id: connection?.phoneNumberId ?? null,
        business_id: connection?.businessId ?? null,
        connected_at: connection?.connectedAt.toISOString() ?? null,
        messaging_channel: connection ? found.messagingChannel : 'sms',
      };
    },

    /** `DELETE /api/integration/whatsapp`: messages go by SMS again. */
    async disconnect(clinicId: number, actor: string): Promise<void> {
      const at = new Date(clock());
      await db.transaction(async (tx) => {
        if (!(await deleteConnection(tx, clinicId))) {
          throw new AppError('not_found', 404, 'WhatsApp is not connected');
        }
        await setMessagingChannel(tx, clinicId, 'sms');
        await audit(tx, {
          clinicId,
          actor,
          action: 'whatsapp.disconnect',
          targetType: 'whatsapp_connection',
          at,
        });
      });
    },

    /**
     * `POST /api/wa-signup`: exchanges the code at the Graph API and connects the link's clinic,
     * which then sends its patients' messages by WhatsApp. Until it succeeds nothing is stored
     * and the link keeps working, so a failed try can be repeated from the same page.
     */
    async completeSignup(body: WaSignupBody): Promise<void> {
      if (!graph) throw notConfigured();
      const link = await findLiveConnectionToken(db, 'whatsapp', body.clientId, new Date(clock()));
      if (!link) throw invalidClientId();

      let accessToken: string;
      try {
        accessToken = await graph.exchangeCode(body.code);
      } catch (error) {
        const reason = error instanceof Error ? error.message : 'unknown error';
        throw new AppError(
          'service_unavailable',
          502,
          `Meta did not confirm the sign-up (${reason}); start the connection again`,
        );
      }

      const at = new Date(clock());
      await db.transaction(async (tx) => {
        if (!(await useConnectionToken(tx, 'whatsapp', body.clientId, at))) {
          throw invalidClientId();
        }
        await saveConnection(tx, tokenKey, link.clinicId, {
          wabaId: body.wabaId,
          phoneNumberId: body.phoneId,
          businessId: body.businessId,
          accessToken,
          connectedAt: at,
        });
        await setMessagingChannel(tx, link.clinicId, 'whatsapp');
        await audit(tx, {
          clinicId: link.clinicId,
          actor: WHATSAPP_SIGNUP_ACTOR,
          action: 'whatsapp.connect',
          targetType: 'whatsapp_connection',
          details: {
            waba_id: body.wabaId,
            phone_number_id: body.phoneId,
            business_id: body.businessId,
          },
          at,
        });
      });
    },
  };
}

export type WhatsAppService = ReturnType<typeof createWhatsAppService>;
