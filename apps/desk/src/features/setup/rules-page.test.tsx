import type { IntegrationClinic, SetupChecklist, StaffSession } from '@marpe/shared';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { initDeskI18n } from '../../app/i18n/init';
import { createDeskQueryClient, DeskProviders } from '../../app/providers';
import { NotifyProvider } from '../../lib/notify';
import { ClinicContext, type ClinicContextValue } from '../../lib/session';
import { RulesPage } from './rules-page';

const session: StaffSession = {
  account: { id: 1, name: 'רונית מזרחי', phone: '0527000001' },
  memberships: [{ clinic_id: 7, clinic_name: 'מרפאה', role: 'owner' }],
  method: 'sms',
  expires_at: '2031-01-01T00:00:00Z',
  idle_timeout_minutes: 60,
  has_passkey: false,
};

const owner: ClinicContextValue = {
  clinicId: 7,
  clinicName: 'מרפאה',
  role: 'owner',
  memberships: session.memberships,
  isOwner: true,
  session,
  switchClinic: () => undefined,
};

const clinic: IntegrationClinic = {
  id: 7,
  name: 'מרפאה',
  description: '',
  image_url: null,
  logo_url: null,
  phone: '03-5550000',
  email: null,
  address: { street: 'הרצל', home_number: '12', city: 'תל אביב-יפו' },
  opening_hours: {
    title: null,
    days: {
      sunday: null,
      monday: null,
      tuesday: null,
      wednesday: null,
      thursday: null,
      friday: null,
      saturday: null,
    },
  },
  timezone: 'Asia/Jerusalem',
  settings: {
    is_accept_new_patients: true,
    is_auto_sms_enabled: false,
    messaging_channel: 'sms',
    card_terminal: null,
    cancel_notice_minutes: 1440,
    max_upcoming_appointments: 3,
    calendar_event_detail: 'full',
    message_caps: { per_recipient_per_hour: 3, per_recipient_per_day: 10, per_clinic_per_day: 500 },
    waitlist_offers_per_entry_per_day: 1,
    change_notices: { booked: false, moved: true, cancelled: true },
    calendar_all_day_events_block: true,
  },
  default_marpe_rules: { slot_step_minutes: 15, min_notice_minutes: 120, booking_horizon_days: 60 },
  message_cap_ceilings: {
    per_recipient_per_hour: 5,
    per_recipient_per_day: 20,
    per_clinic_per_day: 2000,
  },
};

const checklist: SetupChecklist = {
  steps: [],
  ready_for_patients: false,
  clinic_page_path: '/clinic/7/x',
};

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** The rules page over a stubbed API serving `served`; returns the PATCH bodies it receives. */
async function renderRules(language: 'he' | 'en', served: IntegrationClinic = clinic) {
  const patches: unknown[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      if (url === '/api/integration/clinic' && init?.method === 'PATCH') {
        const body = JSON.parse(String(init.body)) as { settings: object };
        patches.push(body);
        return json(200, { ...served, settings: { ...served.settings, ...body.settings } });
      }
      if (url === '/api/integration/clinic') return json(200, served);
      if (url.startsWith('/api/integration/setup')) return json(200, checklist);
      return json(404, { code: 'not_found', message: url });
    }),
  );
  const i18n = await initDeskI18n(language);
  const router = createMemoryRouter([{ path: '/setup/rules', element: <RulesPage /> }], {
    initialEntries: ['/setup/rules'],
  });
  render(
    <DeskProviders i18n={i18n} queryClient={createDeskQueryClient()}>
      <ClinicContext.Provider value={owner}>
        <NotifyProvider>
          <RouterProvider router={router} />
        </NotifyProvider>
      </ClinicContext.Provider>
    </DeskProviders>,
  );
  return patches;
}

describe('the booking rules step: telling patients of changes', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it(
    'shows the three switches as saved and sends the ones changed with the rules',
    { timeout: 30_000 },
    async () => {
      const patches = await renderRules('en');

      const booked = await screen.findByRole('switch', { name: 'When an appointment is booked' });
      const moved = screen.getByRole('switch', { name: 'When an appointment is moved' });
      const cancelled = screen.getByRole('switch', { name: 'When an appointment is cancelled' });
      expect([booked, moved, cancelled].map((s) => (s as HTMLInputElement).checked)).toEqual([
        false,
        true,
        true,
      ]);
      expect(moved).toHaveAccessibleDescription('Names the old and the new time');

      await userEvent.click(booked);
      await userEvent.click(cancelled);
      await userEvent.click(screen.getByRole('button', { name: /Save/ }));
      await vi.waitFor(() => expect(patches).toHaveLength(1));
      expect(patches[0]).toMatchObject({
        settings: { change_notices: { booked: true, moved: true, cancelled: false } },
      });
    },
  );
});

describe('the booking rules step: all-day calendar events', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it(
    'shows the setting as saved, with its hint, and sends it turned off with the rules',
    { timeout: 30_000 },
    async () => {
      const patches = await renderRules('he');
      const blocks = await screen.findByRole('switch', {
        name: 'ימי חופשה ואירועים של יום שלם ביומן חוסמים תורים',
      });
      expect((blocks as HTMLInputElement).checked).toBe(true);
      expect(blocks).toHaveAccessibleDescription(/כשכבוי, חוסמים רק אירועים של יום שלם/);

      await userEvent.click(blocks);
      await userEvent.click(screen.getByRole('button', { name: /שמירה/ }));
      await vi.waitFor(() => expect(patches).toHaveLength(1));
      expect(patches[0]).toMatchObject({ settings: { calendar_all_day_events_block: false } });
    },
  );

  it(
    'shows a clinic that turned it off as off, in English, and keeps it off when other rules are saved',
    { timeout: 30_000 },
    async () => {
      const patches = await renderRules('en', {
        ...clinic,
        settings: { ...clinic.settings, calendar_all_day_events_block: false },
      });
      const blocks = await screen.findByRole('switch', {
        name: 'All-day calendar events (days off) block bookings',
      });
      expect((blocks as HTMLInputElement).checked).toBe(false);
      expect(blocks).toHaveAccessibleDescription(/only all-day events marked "Busy" block/);

      await userEvent.click(screen.getByRole('switch', { name: 'When an appointment is booked' }));
      await userEvent.click(screen.getByRole('button', { name: /Save/ }));
      await vi.waitFor(() => expect(patches).toHaveLength(1));
      expect(patches[0]).toMatchObject({
        settings: { calendar_all_day_events_block: false, change_notices: { booked: true } },
      });
    },
  );
});
