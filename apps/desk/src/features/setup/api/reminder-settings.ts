import type { ReminderSettings } from '@marpe/shared';
import { api } from '../../../lib/api';

export const reminderSettingsQueryKey = ['setup', 'reminder-settings'] as const;

export const getReminderSettings = () =>
  api<ReminderSettings>('/api/integration/reminders/settings');

export const saveReminderSettings = (body: ReminderSettings) =>
  api<ReminderSettings>('/api/integration/reminders/settings', { method: 'PUT', body });
