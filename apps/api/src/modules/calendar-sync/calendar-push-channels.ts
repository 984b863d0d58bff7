import { randomUUID } from 'node:crypto';
import { randomToken, sha256Hex } from '../../platform/crypto.js';
import type { ProviderChannel } from './calendar-provider.js';
import { clinicErrorText, DAY, failureState, type CalendarSyncDeps } from './calendar-sync-deps.js';
import type { CalendarSyncRow } from './calendar-sync-repository.js';

/** Push channels are asked for a week (a provider may grant less) and renewed a day before they end. */
const CHANNEL_LIFETIME_MS = 7 * DAY;
const CHANNEL_RENEW_BEFORE_MS = DAY;

/** Where each provider sends its push notifications. */
export const NOTIFY_PATHS = {
  google: '/api/calendar-sync/google/notify',
  microsoft: '/api/calendar-sync/microsoft/notify',
} as const;

/** The push channels of the synced calendars: opened, renewed before they end, stopped. */
export function createPushChannels(
  deps: Pick<CalendarSyncDeps, 'api' | 'repository' | 'log' | 'publicOrigin'>,
) {
  const { api, repository, log } = deps;

  async function stopChannel(channel: ProviderChannel) {
    if (!api) return;
    try {
      await api.stopChannel(channel);
    } catch (error) {
      // It expires by itself; its notifications are refused meanwhile.
      log.warn({ error: clinicErrorText(error) }, 'calendar push channel not stopped');
    }
  }

  /**
   * A call about a channel. No access or no calendar fails the pass with it; anything else (the
   * provider refusing our address, a rate limit) is logged and answered null: the poll keeps the
   * mirror fresh meanwhile.
   */
  async function orPoll<T>(
    caregiverId: number,
    what: 'opened' | 'renewed',
    call: () => Promise<T>,
  ): Promise<{ value: T } | null> {
    try {
      return { value: await call() };
    } catch (error) {
      if (failureState(error) !== 'error') throw error;
      log.warn(
        { caregiverId, error: clinicErrorText(error) },
        `calendar push channel not ${what}; polling`,
      );
      return null;
    }
  }

  /**
   * A push channel, extended where the provider can (Graph), else a new one stored as soon as the
   * provider opens it and the old one stopped once the new one is in place. At most one channel per calendar is live: a pass that fails after this keeps
   * the stored one for the next pass instead of opening another.
   */
  async function ensureChannel(
    row: CalendarSyncRow & { provider: keyof typeof NOTIFY_PATHS },
    now: number,
  ): Promise<void> {
    if (!api) return;
    if (
      row.channelId &&
      row.channelExpiresAt &&
      row.channelExpiresAt.getTime() - now > CHANNEL_RENEW_BEFORE_MS
    ) {
      return;
    }
    if (row.channelId && row.channelResourceId && row.channelTokenHash) {
      const channel = {
        id: row.channelId,
        resourceId: row.channelResourceId,
        calendarId: row.calendarId,
      };
      const renewal = await orPoll(row.caregiverId, 'renewed', () =>
        api.renewChannel(channel, { expiration: now + CHANNEL_LIFETIME_MS, now }),
      );
      // Not renewed now: it lives on until its end, and the next pass tries again.
      if (!renewal) return;
      if (renewal.value) {
        await repository.saveChannel(row.caregiverId, row.calendarId, {
          channelId: row.channelId,
          channelResourceId: row.channelResourceId,
          channelTokenHash: row.channelTokenHash,
          channelExpiresAt: new Date(renewal.value.expiration),
        });
        return;
      }
    }
    const token = randomToken(32);
    const opened = await orPoll(row.caregiverId, 'opened', () =>
      api.openChannel(row.calendarId, {
        id: randomUUID(),
        token,
        address: `${deps.publicOrigin}${NOTIFY_PATHS[row.provider]}`,
        expiration: now + CHANNEL_LIFETIME_MS,
        now,
      }),
    );
    if (!opened) return;
    const answer = opened.value;
    const saved = await repository.saveChannel(row.caregiverId, row.calendarId, {
      channelId: answer.id,
      channelResourceId: answer.resourceId,
      channelTokenHash: sha256Hex(token),
      channelExpiresAt: new Date(answer.expiration),
    });
    if (!saved) {
      // The caregiver's calendar changed meanwhile: this channel watches one nobody syncs.
      await stopChannel({
        id: answer.id,
        resourceId: answer.resourceId,
        calendarId: row.calendarId,
      });
      return;
    }
    if (row.channelId && row.channelResourceId) {
      await stopChannel({
        id: row.channelId,
        resourceId: row.channelResourceId,
        calendarId: row.calendarId,
      });
    }
  }

  return { ensureChannel, stopChannel };
}
