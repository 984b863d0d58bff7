// Over 400 lines: the my-appointments page's journeys share the patient, their appointments and the
// page's routes; split by describe, each file would repeat them.
import { act, screen, waitFor, within } from '@testing-library/react';
import type { RouteObject } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppointmentsRoute } from '../../app/clinic-flow-routes';
import { configureApiClient } from '../../lib/api-client';
import { useClinicStore } from '../../lib/clinic/clinic-store';
import { initialSessionState, useSessionStore } from '../../lib/patient-session/session-store';
import { clinicFixture } from '../../test/clinic-fixture';
import { apiError, json, stubApi } from '../../test/fake-api';
import { renderRoutes } from '../../test/render';

// The page as the app's route composes it.
const routes: RouteObject[] = [
  { path: 'appointments/:clinicId', element: <AppointmentsRoute /> },
  { path: 'clinic/:clinicId', element: <h1>Clinic</h1> },
  { path: 'login/:clinicId', element: <h1>Login</h1> },
  { path: 'booking/:clinicId', element: <h1>Booking</h1> },
];

const patient = { id: 7, id_number: '039845125', first_name: 'דנה', last_name: 'לוי', phone: '' };

const cleaning = {
  id: 101,
  caregiver_id: 11,
  appointment_type_id: 3,
  caregiver_name: 'ד״ר רונית כהן',
  type_name: 'ניקוי אבנית',
  // 07:00 UTC: 09:00 in Israel in winter, whatever the test machine's zone.
  start_date: '2027-01-04T07:00:00Z',
  end_date: '2027-01-04T07:30:00Z',
  is_marpe_cancellable: true,
};
const checkUp = {
  id: 102,
  caregiver_id: 12,
  appointment_type_id: 1,
  caregiver_name: 'ד״ר אבי לוי',
  type_name: 'בדיקה תקופתית',
  start_date: '2027-03-26T14:15:00+03:00',
  end_date: '2027-03-26T15:00:00+03:00',
  is_marpe_cancellable: false,
};

const waiting = {
  id: 31,
  caregiver_id: 11,
  appointment_type_id: 3,
  caregiver_name: 'ד״ר רונית כהן',
  type_name: 'ניקוי אבנית',
  from_date: '2027-01-04',
  to_date: '2027-01-10',
  part_of_day: 'any',
  joined_at: '2027-01-01T08:00:00Z',
};

const reload = vi.fn();

/** A page load with a stored session, as the app starts. */
function load(options: { language?: 'he' | 'en'; token?: string | null } = {}) {
  const { token = 'session-token', language } = options;
  if (token) localStorage.setItem('token', token);
  useSessionStore.setState(initialSessionState());
  return renderRoutes(routes, { initialEntries: ['/appointments/1'], language });
}

function signedIn(appointments: unknown[]) {
  return stubApi({
    'GET /api/clinic/1': () => json(clinicFixture()),
    'GET /api/patient-auth': () => json(patient),
    'GET /api/appointment/patient-appointments': () => json(appointments),
  });
}

beforeEach(() => {
  configureApiClient({ baseUrl: '/api', reload });
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  reload.mockReset();
  localStorage.clear();
  sessionStorage.clear();
  useClinicStore.setState({ clinic: null, caregivers: [], appointmentTypes: [] });
});

describe('my appointments page', () => {
  it('greets the patient and shows the clinic, the actions and one card per appointment', async () => {
    const { callsTo } = signedIn([cleaning, checkUp]);
    load();

    expect(
      await screen.findByRole('heading', { level: 1, name: 'מרפאת שיניים לב העיר' }),
    ).toBeInTheDocument();
    expect(screen.getByText('שלום, דנה')).toBeVisible();
    expect(screen.getByRole('button', { name: 'התנתקות' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'חזרה למרפאה' })).toHaveAttribute('href', '/clinic/1');
    expect(screen.getByRole('link', { name: 'קביעת תור' })).toHaveAttribute('href', '/booking/1');

    const list = await screen.findByRole('list', { name: 'התורים הקרובים' });
    const cards = within(list).getAllByRole('article');
    expect(cards).toHaveLength(2);
    const [first, second] = cards as [HTMLElement, HTMLElement];
    expect(within(first).getByRole('heading', { level: 3, name: 'ד״ר רונית כהן' })).toBeVisible();
    expect(within(first).getByText('ניקוי אבנית')).toBeVisible();
    // Shown short with the weekday; said in words (the short form is hidden from screen readers).
    expect(within(first).getByText('04.01.2027')).toBeVisible();
    expect(within(first).getByText('09:00 – 09:30')).toBeVisible();
    expect(within(first).getByText('04.01.2027').parentElement).toHaveTextContent(
      /^יום שני, 04\.01\.2027$/,
    );
    expect(within(first).getByText('04.01.2027').closest('[aria-hidden="true"]')).not.toBeNull();
    expect(
      within(first).getByText('יום שני, 4 בינואר 2027, משעה 09:00 עד 09:30'),
    ).toBeInTheDocument();
    expect(within(second).getByText('26.03.2027')).toBeVisible();
    expect(within(second).getByText('14:15 – 15:00')).toBeVisible();
    // The card's buttons are described by the same words.
    expect(within(first).getByRole('button', { name: 'ביטול תור' })).toHaveAccessibleDescription(
      'יום שני, 4 בינואר 2027, משעה 09:00 עד 09:30',
    );
    expect(
      callsTo('GET /api/appointment/patient-appointments')[0]?.headers.get('Authorization'),
    ).toBe('Bearer session-token');
  });

  it('a cancellable appointment has an active button; another is aria-disabled, focusable and explained', async () => {
    signedIn([cleaning, checkUp]);
    const { user } = load();

    const list = await screen.findByRole('list', { name: 'התורים הקרובים' });
    const [first, second] = within(list).getAllByRole('article') as [HTMLElement, HTMLElement];
    const active = within(first).getByRole('button', { name: 'ביטול תור' });
    expect(active).not.toHaveAttribute('aria-disabled');

    const blocked = within(second).getByRole('button', { name: 'ביטול תור' });
    expect(blocked).toHaveAttribute('aria-disabled', 'true');
    expect(blocked).not.toBeDisabled();
    expect(blocked).toHaveAccessibleDescription(/לביטול התור יש לפנות למרפאה/);

    // Reachable by keyboard; focus shows the tooltip, and pressing it does nothing.
    blocked.focus();
    expect(
      await screen.findByRole('tooltip', { name: /לביטול התור יש לפנות למרפאה/ }),
    ).toBeInTheDocument();
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('a cancellable appointment can be moved: "change time" opens its booking steps', async () => {
    signedIn([cleaning, checkUp]);
    const { user } = load();

    const list = await screen.findByRole('list', { name: 'התורים הקרובים' });
    const [first, second] = within(list).getAllByRole('article') as [HTMLElement, HTMLElement];
    expect(within(second).queryByRole('link', { name: 'שינוי מועד' })).not.toBeInTheDocument();
    const change = within(first).getByRole('link', { name: 'שינוי מועד' });
    expect(change).toHaveAttribute(
      'href',
      '/booking/1?caregiverId=11&appointmentTypeId=3&reschedule=101',
    );
    await user.click(change);
    expect(await screen.findByRole('heading', { name: 'Booking' })).toBeInTheDocument();
  });

  it('the clinic details open from a named button, with the address and the phone and e-mail links', async () => {
    signedIn([]);
    const { user } = load({ language: 'en' });

    const info = await screen.findByRole('button', { name: 'Clinic details' });
    expect(info).toHaveAttribute('aria-expanded', 'false');
    await user.click(info);
    const details = await screen.findByRole('dialog', { name: 'Clinic details' });
    expect(within(details).getByText('שדרות רוטשילד 45, תל אביב-יפו')).toBeVisible();
    expect(within(details).getByRole('link', { name: 'Phone: 03-5551234' })).toHaveAttribute(
      'href',
      'tel:035551234',
    );
    expect(
      within(details).getByRole('link', { name: 'Email: info@clinic.example' }),
    ).toHaveAttribute('href', 'mailto:info@clinic.example');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(info).toHaveFocus();
  });

  it('no appointments: says so, and offers to book one', async () => {
    signedIn([]);
    load({ language: 'en' });

    expect(await screen.findByText('You have no upcoming appointments')).toBeVisible();
    expect(screen.queryByRole('article')).not.toBeInTheDocument();
    // Not a dead end: a way on, under the message.
    const upcoming = screen.getByRole('region', { name: 'Upcoming appointments' });
    expect(within(upcoming).getByRole('link', { name: 'Book an appointment' })).toHaveAttribute(
      'href',
      '/booking/1',
    );
  });

  it('cancelling: confirm, the call, the success snackbar and the list reloaded', async () => {
    const { callsTo } = stubApi({
      'GET /api/clinic/1': () => json(clinicFixture()),
      'GET /api/patient-auth': () => json(patient),
      'GET /api/appointment/patient-appointments': [
        () => json([cleaning, checkUp]),
        () => json([checkUp]),
      ],
      'PUT /api/appointment/patient-appointments': () => json({ status: 'ok' }),
    });
    const { user } = load({ language: 'en' });

    const list = await screen.findByRole('list', { name: 'Upcoming appointments' });
    const [first] = within(list).getAllByRole('article') as [HTMLElement];
    await user.click(within(first).getByRole('button', { name: 'Cancel appointment' }));

    const dialog = await screen.findByRole('dialog', { name: 'Cancel this appointment?' });
    expect(within(dialog).getByText('04.01.2027')).toBeVisible();
    // Return closes it without a call.
    await user.click(within(dialog).getByRole('button', { name: 'Return' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(callsTo('PUT /api/appointment/patient-appointments')).toHaveLength(0);

    await user.click(within(first).getByRole('button', { name: 'Cancel appointment' }));
    const again = await screen.findByRole('dialog', { name: 'Cancel this appointment?' });
    await user.click(within(again).getByRole('button', { name: 'Cancel appointment' }));

    expect(await screen.findByText('Appointment cancelled successfully')).toBeVisible();
    expect(callsTo('PUT /api/appointment/patient-appointments')[0]?.body).toEqual({
      appointmentId: 101,
    });
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(1));
    expect(callsTo('GET /api/appointment/patient-appointments')).toHaveLength(2);
    await waitFor(() =>
      expect(
        screen.getByRole('heading', { level: 2, name: 'Upcoming appointments' }),
      ).toHaveFocus(),
    );
  });

  it('a failed cancellation shows the error snackbar for the default 5 seconds and reloads the list', async () => {
    const { callsTo } = stubApi({
      'GET /api/clinic/1': () => json(clinicFixture()),
      'GET /api/patient-auth': () => json(patient),
      'GET /api/appointment/patient-appointments': () => json([cleaning]),
      'PUT /api/appointment/patient-appointments': () => apiError(409, 'not_cancellable'),
    });
    const { user } = load({ language: 'en' });

    await user.click(await screen.findByRole('button', { name: 'Cancel appointment' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this appointment?' });
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel appointment' }));

    const message = await screen.findByText(
      'An error occurred. Please try again or contact the clinic.',
    );
    expect(message).toBeVisible();
    await waitFor(() =>
      expect(callsTo('GET /api/appointment/patient-appointments')).toHaveLength(2),
    );
    // No timeout of its own: the default, 5000 ms (docs/product/site.md#snackbars).
    act(() => {
      vi.advanceTimersByTime(4000);
    });
    expect(
      screen.getByText('An error occurred. Please try again or contact the clinic.'),
    ).toBeVisible();
    act(() => {
      vi.advanceTimersByTime(1100);
    });
    await waitFor(() =>
      expect(
        screen.queryByText('An error occurred. Please try again or contact the clinic.'),
      ).not.toBeInTheDocument(),
    );
  });

  it('the cancel dialog is described by the appointment and held open while the call is pending', async () => {
    let answer!: (response: Response) => void;
    stubApi({
      'GET /api/clinic/1': () => json(clinicFixture()),
      'GET /api/patient-auth': () => json(patient),
      'GET /api/appointment/patient-appointments': [() => json([cleaning]), () => json([])],
      'PUT /api/appointment/patient-appointments': () =>
        new Promise<Response>((resolve) => (answer = resolve)),
    });
    const { user } = load({ language: 'en' });

    await user.click(await screen.findByRole('button', { name: 'Cancel appointment' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this appointment?' });
    // One line each, no "·" to dangle at a line's end.
    expect(dialog).toHaveAccessibleDescription(
      /^ניקוי אבנית\s+ד״ר רונית כהן\s+04\.01\.2027 09:00 – 09:30$/,
    );
    expect(dialog).not.toHaveTextContent('·');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel appointment' }));

    await waitFor(() =>
      expect(within(dialog).getByRole('button', { name: 'Return' })).toBeDisabled(),
    );
    expect(within(dialog).getByRole('button', { name: /Cancel appointment/ })).toBeDisabled();
    await user.keyboard('{Escape}');
    expect(screen.getByRole('dialog', { name: 'Cancel this appointment?' })).toBeVisible();

    answer(json({ status: 'ok' }));
    expect(await screen.findByText('Appointment cancelled successfully')).toBeVisible();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('leaving the waitlist: confirm or stay, pending, the call, the snackbar and focus on the heading', async () => {
    let answer!: (response: Response) => void;
    const { callsTo } = stubApi({
      'GET /api/clinic/1': () => json(clinicFixture()),
      'GET /api/patient-auth': () => json(patient),
      'GET /api/appointment/patient-appointments': () => json([]),
      'GET /api/waitlist': [() => json([waiting]), () => json([])],
      'DELETE /api/waitlist/31': () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    const { user } = load({ language: 'en' });

    const section = await screen.findByRole('region', { name: 'Waiting for a time' });
    const leave = within(section).getByRole('button', { name: 'Leave the waitlist' });
    // The range is shown short and said in words.
    expect(within(section).getByText('04.01.2027 to 10.01.2027')).toBeVisible();
    expect(leave).toHaveAccessibleDescription(/^Monday, 4 January 2027 to Sunday, 10 January 2027/);
    await user.click(leave);
    const dialog = await screen.findByRole('dialog', { name: 'Leave the waitlist?' });
    expect(dialog).toHaveAccessibleDescription(
      "You won't get more messages about times freeing up with ד״ר רונית כהן (ניקוי אבנית).",
    );
    // Stay closes it without a call, and focus goes back to the button.
    await user.click(within(dialog).getByRole('button', { name: 'Stay' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(leave).toHaveFocus();
    expect(callsTo('DELETE /api/waitlist/31')).toHaveLength(0);

    await user.click(leave);
    const again = await screen.findByRole('dialog', { name: 'Leave the waitlist?' });
    await user.click(within(again).getByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(within(again).getByRole('button', { name: 'Stay' })).toBeDisabled());
    expect(within(again).getByRole('button', { name: /Leave/ })).toBeDisabled();
    await user.keyboard('{Escape}');
    expect(screen.getByRole('dialog', { name: 'Leave the waitlist?' })).toBeVisible();

    answer(json({ status: 'ok' }));
    expect(await screen.findByText('You left the waitlist')).toBeVisible();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() =>
      expect(screen.getByRole('heading', { level: 2, name: 'Waiting for a time' })).toHaveFocus(),
    );
    expect(callsTo('DELETE /api/waitlist/31')).toHaveLength(1);
  });

  it('a failed leave shows the error snackbar and keeps the entry', async () => {
    stubApi({
      'GET /api/clinic/1': () => json(clinicFixture()),
      'GET /api/patient-auth': () => json(patient),
      'GET /api/appointment/patient-appointments': () => json([]),
      'GET /api/waitlist': () => json([waiting]),
      'DELETE /api/waitlist/31': () => apiError(404, 'waitlist_entry_not_found'),
    });
    const { user } = load({ language: 'en' });

    await user.click(await screen.findByRole('button', { name: 'Leave the waitlist' }));
    const dialog = await screen.findByRole('dialog', { name: 'Leave the waitlist?' });
    await user.click(within(dialog).getByRole('button', { name: 'Leave' }));

    expect(await screen.findByText('Something went wrong. Please try again.')).toBeVisible();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('article', { name: 'ד״ר רונית כהן' })).toBeVisible();
  });

  it('logout clears the session and goes to the clinic page', async () => {
    const { callsTo } = stubApi({
      'GET /api/clinic/1': () => json(clinicFixture()),
      'GET /api/patient-auth': () => json(patient),
      'GET /api/appointment/patient-appointments': () => json([]),
      'GET /api/patient-auth/logout': () => json({ status: 'ok' }),
    });
    const { user, router } = load();

    await user.click(await screen.findByRole('button', { name: 'התנתקות' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Clinic' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/clinic/1');
    expect(callsTo('GET /api/patient-auth/logout')).toHaveLength(1);
    expect(localStorage.getItem('token')).toBeNull();
    expect(useSessionStore.getState().patient).toBeNull();
  });

  it('without a patient: replaced by the login page', async () => {
    const { fetchMock } = stubApi({ 'GET /api/clinic/1': () => json(clinicFixture()) });
    const { router } = load({ token: null });

    expect(await screen.findByRole('heading', { level: 1, name: 'Login' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login/1');
    expect(router.state.historyAction).toBe('REPLACE');
    expect(fetchMock.mock.calls.map(([url]) => String(url))).not.toContain(
      '/api/appointment/patient-appointments',
    );
  });

  it('a stored session the server refuses: replaced by the login page', async () => {
    stubApi({
      'GET /api/clinic/1': () => json(clinicFixture()),
      'GET /api/patient-auth': () => apiError(401, 'unauthorized'),
    });
    const { router } = load();

    expect(await screen.findByRole('heading', { level: 1, name: 'Login' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login/1');
  });
});
