// Over 400 lines: the booking page's journeys share one clinic, its answers and the page's routes
// (the first 125 lines); split by describe, each file would repeat them.
import type { ClinicData } from '@marpe/shared';
import { screen, waitFor, within } from '@testing-library/react';
import type { RouteObject } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BookingRoute } from '../../app/clinic-flow-routes';
import { configureApiClient } from '../../lib/api-client';
import { useSessionStore } from '../../lib/patient-session/session-store';
import { clinicFixture } from '../../test/clinic-fixture';
import { json, stubApi } from '../../test/fake-api';
import { renderRoutes } from '../../test/render';
// The page loads step 3's code when it first shows it; loaded here once, so that no test's
// first wait is spent on compiling it (a loaded machine takes longer than the queries wait).
import './components/date-time-step';
import { formatLocalDate } from './format';
import { useBookingStore } from './stores/booking-store';

/** The list's item at `index`, failing the test when there is none. */
function at<T>(list: readonly T[], index: number): T {
  const item = list[index];
  if (item === undefined) throw new Error(`no item ${index}`);
  return item;
}

// The page as the app's route composes it.
const routes: RouteObject[] = [
  { path: 'booking/:clinicId', element: <BookingRoute /> },
  { path: 'booking/:clinicId/confirmation', element: <h1>Confirmed</h1> },
];
const patient = { id: 7, id_number: '039845125', first_name: 'דנה', last_name: 'לוי', phone: '' };
const slots = [
  { start: '2027-03-28T09:00:00+03:00', end: '2027-03-28T09:20:00+03:00' },
  { start: '2027-03-28T09:30:00+03:00', end: '2027-03-28T09:50:00+03:00' },
];

function clinic(): ClinicData {
  const data = clinicFixture();
  data.caregivers = data.caregivers.map((c) => ({
    ...c,
    default_appointment_types: [1, 2],
    first_available_slot: { start: '2027-03-28T06:00:00.000Z' },
    google_calendar_sync_calendar_id: `${c.id}@calendar`,
  }));
  return data;
}

/** The patient's waitlist entry, as the API answers a join. */
const WAITLIST_ENTRY = {
  id: 5,
  caregiver_id: 11,
  appointment_type_id: 1,
  caregiver_name: 'ד"ר יעל כהן',
  type_name: 'בדיקה תקופתית',
  from_date: '2027-03-28',
  to_date: '2027-04-10',
  part_of_day: 'any',
  joined_at: '2027-03-27T08:00:00.000Z',
};

/** The patient's appointment that "change time" moves, on the first offered date. */
const ownAppointment = {
  id: 5,
  caregiver_id: 11,
  appointment_type_id: 1,
  caregiver_name: 'ד"ר יעל כהן',
  type_name: 'בדיקה תקופתית',
  start_date: '2027-03-28T11:00:00+03:00',
  end_date: '2027-03-28T11:20:00+03:00',
  is_marpe_cancellable: true,
};

function stub(overrides: Parameters<typeof stubApi>[0] = {}) {
  return stubApi({
    'GET /api/appointment/patient-appointments': () => json([]),
    'GET /api/appointment/upcoming-cap': () => json({ max: 3, held: 0 }),
    ...overrides,
    'GET /api/clinic/1': () => json(clinic()),
    'GET /api/appointment/available-dates': () => json(['2027-03-28', '2027-03-29']),
    'GET /api/appointment/available-slots': () => json(slots),
    'POST /api/appointment': () =>
      json(
        {
          id: 9,
          clinic_id: 1,
          caregiver_id: 11,
          appointment_type_id: 1,
          start_date: at(slots, 1).start,
          end_date: at(slots, 1).end,
          sms_sent: false,
        },
        201,
      ),
    ...overrides,
  });
}

/** jsdom lays nothing out and scrolls nothing: the page's scroll requests are recorded. */
const scrolledIntoView = vi.fn();

/** A desktop-wide window (jsdom has no media queries): the summary card beside the steps. */
function asDesktop() {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: query.includes('min-width'),
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  }));
}

beforeEach(() => {
  scrolledIntoView.mockReset();
  Element.prototype.scrollIntoView = scrolledIntoView;
  configureApiClient({ baseUrl: '/api' });
  useBookingStore.getState().reset();
  useSessionStore.setState({ patient, session: 'checked', token: 't', authenticatedBy: 'session' });
});
afterEach(() => {
  vi.unstubAllGlobals();
  useSessionStore.setState({ patient: null, token: null, authenticatedBy: null });
});

describe('booking page', () => {
  it('shows the verification form to a patient not authenticated', async () => {
    useSessionStore.setState({ patient: null, token: null });
    stub();
    renderRoutes(routes, { initialEntries: ['/booking/1'] });
    expect(await screen.findByRole('heading', { level: 1, name: 'קביעת תור' })).toBeVisible();
    expect(screen.getByRole('textbox', { name: 'מספר תעודת זהות' })).toBeInTheDocument();
  });

  it("verified here: 'Successfully Authenticated' shows over the steps that replace the form", async () => {
    useSessionStore.setState({ patient: null, token: null, session: 'checked' });
    stubApi({
      'GET /api/clinic/1': () => json(clinic()),
      'GET /api/appointment/available-dates': () => json(['2027-03-28']),
      'GET /api/appointment/available-slots': () => json(slots),
      'POST /api/patient-auth/login': () => json({ twoFactorToken: 'tft-1' }),
      'POST /api/patient-auth/two-factor': () => json({ patient, token: 'session-token' }),
    });
    const { user } = renderRoutes(routes, { initialEntries: ['/booking/1'] });

    // The demo patient's ID number, which passes the check digit.
    await user.type(await screen.findByRole('textbox', { name: 'מספר תעודת זהות' }), '039845128');
    await user.type(screen.getByRole('textbox', { name: 'טלפון נייד' }), '0501234567');
    await user.click(screen.getByRole('button', { name: 'המשך' }));
    await user.type(await screen.findByRole('textbox', { name: 'קוד אימות' }), '123456');

    expect(await screen.findByRole('region', { name: 'בחירת מטפל' })).toBeInTheDocument();
    expect(screen.getByText('האימות הצליח')).toBeVisible();
    // Typing a form's worth of keys takes seconds on a loaded machine.
  }, 30_000);

  it('caregiver, type, first date and a slot, then the dialog confirms', async () => {
    const api = stub();
    const { user, router } = renderRoutes(routes, { initialEntries: ['/booking/1'] });
    const cohen = await screen.findByRole('button', { name: /^ד"ר יעל כהן/ });
    const peretz = screen.getByRole('button', { name: /^ד"ר נועה פרץ/ });
    await user.click(cohen);
    expect(cohen).toHaveAttribute('aria-pressed', 'true');
    expect(peretz).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'ביטול הבחירה בד"ר יעל כהן' }));
    expect(peretz).toBeEnabled();
    await user.click(peretz);
    await user.click(screen.getByRole('button', { name: 'ביטול הבחירה בד"ר נועה פרץ' }));
    await user.click(screen.getByRole('button', { name: /^ד"ר יעל כהן/ }));

    await user.selectOptions(screen.getByRole('combobox', { name: 'סוג התור' }), '1');
    expect(screen.getByRole('option', { name: /ניקוי אבנית/ })).toBeDisabled();

    // The times' heading names their date, as a person says it.
    const times = await screen.findByRole('radiogroup', {
      name: 'שעות פנויות ביום ראשון, 28 במרץ 2027',
    });
    expect(screen.getByRole('button', { name: /יום ראשון, 28 במרץ 2027/ })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await user.click(within(times).getByRole('radio', { name: '09:30' }));
    await waitFor(() =>
      expect(router.state.location.search).toBe(
        '?caregiverId=11&appointmentTypeId=1&date=2027-03-28',
      ),
    );

    await user.click(screen.getByRole('button', { name: 'אישור התור' }));
    const dialog = await screen.findByRole('dialog', { name: 'אישור התור' });
    expect(within(dialog).getByText(formatLocalDate('2027-03-28'))).toBeVisible();
    expect(within(dialog).getByText('09:30')).toBeVisible();
    expect(within(dialog).getByText('20 דקות')).toBeVisible();
    await user.click(within(dialog).getByRole('button', { name: 'אישור התור' }));
    expect(await screen.findByRole('heading', { name: 'Confirmed' })).toBeVisible();
    expect(api.callsTo('POST /api/appointment')[0]?.body).toEqual({
      clinicId: 1,
      caregiverId: 11,
      appointmentTypeId: 1,
      startDate: at(slots, 1).start,
      endDate: at(slots, 1).end,
    });
  }, 30_000);

  it('preselects from the address', async () => {
    stub();
    renderRoutes(routes, {
      initialEntries: ['/booking/1?caregiverId=12&appointmentTypeId=2&date=2027-03-29'],
    });
    expect(await screen.findByRole('button', { name: /^ד"ר נועה פרץ/ })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await waitFor(() =>
      expect(screen.getByRole('button', { name: /יום שני, 29 במרץ 2027/ })).toHaveAttribute(
        'aria-pressed',
        'true',
      ),
    );
  });
});

describe('what the rules allow, told early', () => {
  it('disabled caregiver cards look it; a photo-less avatar shows the name, not the title', async () => {
    stub();
    const { user } = renderRoutes(routes, { initialEntries: ['/booking/1'] });
    const cohen = await screen.findByRole('button', { name: /^ד"ר יעל כהן/ });
    const peretz = screen.getByRole('button', { name: /^ד"ר נועה פרץ/ });
    expect(within(peretz).getByText('נ')).toBeInTheDocument();
    await user.click(cohen);
    expect(peretz).toBeDisabled();
    const card = peretz.closest('.MuiCard-root');
    expect(card && getComputedStyle(card).borderStyle).toBe('dashed');
  });

  it("marks the dates of the patient's appointments, starts on a free one, and says why a marked one has no times", async () => {
    stub({ 'GET /api/appointment/patient-appointments': () => json([ownAppointment]) });
    const { user } = renderRoutes(routes, {
      initialEntries: ['/booking/1?caregiverId=11&appointmentTypeId=1'],
    });
    await waitFor(() =>
      expect(screen.getByRole('button', { name: /יום שני, 29 במרץ 2027/ })).toHaveAttribute(
        'aria-pressed',
        'true',
      ),
    );
    const marked = screen.getByRole('button', { name: /יום ראשון, 28 במרץ 2027/ });
    expect(marked).toHaveAccessibleName('יום ראשון, 28 במרץ 2027, יש לכם כבר תור בתאריך הזה');
    expect(within(marked).getByText('יש לכם תור')).toBeVisible();
    expect(screen.getByRole('button', { name: /יום שני, 29 במרץ 2027/ })).not.toHaveAccessibleName(
      /יש לכם כבר תור/,
    );
    await user.click(marked);
    expect(await screen.findByText(/אפשר לקבוע רק תור אחד בכל תאריך/)).toBeVisible();
    expect(screen.queryByRole('radiogroup', { name: /^שעות פנויות/ })).toBeNull();
    expect(screen.getByRole('link', { name: 'התורים שלי' })).toHaveAttribute(
      'href',
      '/appointments/1',
    );
    expect(screen.getByRole('button', { name: 'אישור התור' })).toBeDisabled();
  }, 30_000);

  it('tells a patient at the cap on arrival, with a link to my appointments', async () => {
    stub({ 'GET /api/appointment/upcoming-cap': () => json({ max: 3, held: 3 }) });
    renderRoutes(routes, { initialEntries: ['/booking/1'], language: 'en' });
    const text = await screen.findByText(/You already have 3 upcoming appointments/);
    const note = text.closest('[role="note"]') as HTMLElement;
    expect(within(note).getByRole('link', { name: 'My appointments' })).toHaveAttribute(
      'href',
      '/appointments/1',
    );
  });

  it('Hebrew plurals: one and two have their own words', async () => {
    stub({ 'GET /api/appointment/upcoming-cap': () => json({ max: 2, held: 2 }) });
    renderRoutes(routes, { initialEntries: ['/booking/1'] });
    expect(await screen.findByText(/יש לכם כבר שני תורים עתידיים/)).toBeVisible();
  });

  it('failed times: a retry beside the message, the dates stay', async () => {
    stub({
      'GET /api/appointment/available-slots': [
        () => json({ code: 'error', message: 'down' }, 500),
        () => json(slots),
      ],
    });
    const { user } = renderRoutes(routes, {
      initialEntries: ['/booking/1?caregiverId=11&appointmentTypeId=1'],
    });
    const failed = await screen.findByText('טעינת השעות הפנויות נכשלה');
    expect(screen.getByRole('button', { name: /יום ראשון, 28 במרץ 2027/ })).toBeVisible();
    expect(screen.getByRole('button', { name: /יום שני, 29 במרץ 2027/ })).toBeVisible();
    await user.click(
      within(failed.closest('.MuiAlert-root') as HTMLElement).getByRole('button', {
        name: 'לנסות שוב',
      }),
    );
    const times = await screen.findByRole('radiogroup', { name: /^שעות פנויות/ });
    expect(within(times).getAllByRole('radio')).toHaveLength(2);
  });

  it('learns of a time taken meanwhile when the patient comes back to the page, and says so', async () => {
    const api = stub({
      'GET /api/appointment/available-slots': [() => json(slots), () => json([at(slots, 1)])],
    });
    const { user } = renderRoutes(routes, {
      initialEntries: ['/booking/1?caregiverId=11&appointmentTypeId=1'],
    });
    const times = await screen.findByRole('radiogroup', { name: /^שעות פנויות/ });
    await user.click(within(times).getByRole('radio', { name: /09:00/ }));
    const asked = () =>
      api.calls.filter((c) => c.path.startsWith('/api/appointment/available-slots'));
    expect(asked()).toHaveLength(1);
    // Back to the tab: the date's times again; 09:00 went to someone else meanwhile.
    document.dispatchEvent(new Event('visibilitychange'));
    const note = await screen.findByText('השעה 09:00 שבחרתם כבר נתפסה. בחרו שעה אחרת.');
    expect(note.closest('[role="status"]')).not.toBeNull();
    expect(asked()).toHaveLength(2);
    expect(within(times).queryByRole('radio', { name: /09:00/ })).toBeNull();
    expect(within(times).getByRole('radio', { name: /09:30/ })).not.toBeChecked();
    // Choosing again clears the note.
    await user.click(within(times).getByRole('radio', { name: /09:30/ }));
    expect(screen.queryByText(/כבר נתפסה/)).toBeNull();
  });

  it('change time: the current appointment, and old → new in the confirm dialog', async () => {
    stub({ 'GET /api/appointment/patient-appointments': () => json([ownAppointment]) });
    const { user } = renderRoutes(routes, {
      initialEntries: ['/booking/1?caregiverId=11&appointmentTypeId=1&reschedule=5'],
    });
    const current = await screen.findByRole('region', { name: 'התור הנוכחי' });
    expect(current).toHaveTextContent(`${formatLocalDate('2027-03-28')} 11:00`);
    // Said as a person says it, not as digits and dots.
    expect(within(current).getByText('יום ראשון, 28 במרץ 2027, בשעה 11:00')).toBeInTheDocument();
    // Its own date is not marked: the moved appointment counts as itself.
    await waitFor(() =>
      expect(screen.getByRole('button', { name: /יום ראשון, 28 במרץ 2027/ })).toHaveAttribute(
        'aria-pressed',
        'true',
      ),
    );
    const times = await screen.findByRole('radiogroup', { name: /^שעות פנויות/ });
    await user.click(within(times).getByRole('radio', { name: '09:30' }));
    // "Change time" says what it does: the page's button, the dialog's title and its button.
    expect(screen.queryByRole('button', { name: 'אישור התור' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'אישור שינוי המועד' }));
    const dialog = await screen.findByRole('dialog', { name: 'לשנות את מועד התור?' });
    expect(within(dialog).getByRole('button', { name: 'אישור שינוי המועד' })).toBeVisible();
    expect(within(dialog).queryByRole('button', { name: 'אישור התור' })).toBeNull();
    const terms = within(dialog)
      .getAllByRole('term')
      .map((el) => el.textContent);
    expect(terms.slice(0, 2)).toEqual(['התור הנוכחי', 'המועד החדש']);
    const [oldValue, newValue] = within(dialog).getAllByRole('definition') as [
      HTMLElement,
      HTMLElement,
    ];
    expect(oldValue).toHaveTextContent(`${formatLocalDate('2027-03-28')} 11:00`);
    expect(newValue).toHaveTextContent(`${formatLocalDate('2027-03-28')} 09:30`);
    expect(within(oldValue).getByText('יום ראשון, 28 במרץ 2027, בשעה 11:00')).toBeInTheDocument();
    expect(within(newValue).getByText('יום ראשון, 28 במרץ 2027, בשעה 09:30')).toBeInTheDocument();
  }, 30_000);
});

describe('a booking page a patient reads at a glance', () => {
  it('says why a type choice dropped the chosen caregiver, and what to do, politely', async () => {
    const data = clinic();
    data.caregivers = data.caregivers.map((c) =>
      c.id === 12 ? { ...c, default_appointment_types: [1] } : c,
    );
    stubApi({
      'GET /api/clinic/1': () => json(data),
      'GET /api/appointment/patient-appointments': () => json([]),
      'GET /api/appointment/upcoming-cap': () => json({ max: 3, held: 0 }),
      'GET /api/appointment/available-dates': () => json(['2027-03-28']),
      'GET /api/appointment/available-slots': () => json(slots),
    });
    const { user } = renderRoutes(routes, { initialEntries: ['/booking/1'] });
    await user.click(await screen.findByRole('button', { name: /^ד"ר נועה פרץ/ }));
    const live = screen.getByRole('status');
    expect(live).toBeEmptyDOMElement();
    await user.selectOptions(screen.getByRole('combobox', { name: 'סוג התור' }), '2');
    expect(live).toHaveTextContent(
      'לא ניתן לקבוע ״ניקוי אבנית״ אצל ד"ר נועה פרץ, ולכן ביטלנו את הבחירה. בחרו מטפל אחר מהרשימה.',
    );
    expect(screen.queryByRole('button', { name: /^ד"ר נועה פרץ/ })).toBeNull();
    // Choosing another caregiver answers it.
    await user.click(screen.getByRole('button', { name: /^ד"ר יעל כהן/ }));
    expect(live).toBeEmptyDOMElement();
  });

  it('in English too', async () => {
    const data = clinic();
    data.caregivers = data.caregivers.map((c) =>
      c.id === 12 ? { ...c, default_appointment_types: [1] } : c,
    );
    stubApi({
      'GET /api/clinic/1': () => json(data),
      'GET /api/appointment/patient-appointments': () => json([]),
      'GET /api/appointment/upcoming-cap': () => json({ max: 3, held: 0 }),
    });
    const { user } = renderRoutes(routes, {
      initialEntries: ['/booking/1?caregiverId=12'],
      language: 'en',
    });
    await screen.findByRole('button', { name: /^ד"ר נועה פרץ/ });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Appointment type' }), '2');
    expect(screen.getByRole('status')).toHaveTextContent(
      'ניקוי אבנית can\'t be booked with ד"ר נועה פרץ, so we cleared that choice. Choose another caregiver from the list.',
    );
  });

  it('dates under month headings, each short to the eye and named in full', async () => {
    stubApi({
      'GET /api/clinic/1': () => json(clinic()),
      'GET /api/appointment/patient-appointments': () => json([]),
      'GET /api/appointment/upcoming-cap': () => json({ max: 3, held: 0 }),
      'GET /api/appointment/available-dates': () => json(['2027-03-30', '2027-04-01']),
      'GET /api/appointment/available-slots': () => json(slots),
    });
    renderRoutes(routes, { initialEntries: ['/booking/1?caregiverId=11&appointmentTypeId=1'] });
    const dates = await screen.findByRole('group', { name: 'תאריכים פנויים' });
    const march = within(dates).getByRole('group', { name: 'מרץ 2027' });
    const april = within(dates).getByRole('group', { name: 'אפריל 2027' });
    expect(within(march).getByRole('heading', { level: 4, name: 'מרץ 2027' })).toBeVisible();
    const tuesday = within(march).getByRole('button', { name: 'יום שלישי, 30 במרץ 2027' });
    expect(tuesday).toHaveTextContent('ג׳30');
    expect(
      within(april).getByRole('button', { name: 'יום חמישי, 1 באפריל 2027' }),
    ).toHaveTextContent('ה׳1');
    await waitFor(() => expect(tuesday).toHaveAttribute('aria-pressed', 'true'));
  });

  it('the summary shows the chosen date before a time is chosen', async () => {
    asDesktop();
    stub();
    const { user } = renderRoutes(routes, {
      initialEntries: ['/booking/1?caregiverId=11&appointmentTypeId=1'],
    });
    const summary = await screen.findByRole('complementary', { name: 'סיכום התור' });
    await screen.findByRole('radiogroup', { name: /^שעות פנויות/ });
    const row = (term: string) =>
      within(summary).getByText(term, { selector: 'dt' }).nextElementSibling as HTMLElement;
    expect(row('תאריך')).toHaveTextContent(formatLocalDate('2027-03-28'));
    expect(within(row('תאריך')).getByText('יום ראשון, 28 במרץ 2027')).toBeInTheDocument();
    expect(row('שעה')).toHaveTextContent('טרם נבחר');
    await user.click(screen.getByRole('button', { name: 'יום שני, 29 במרץ 2027' }));
    await waitFor(() => expect(row('תאריך')).toHaveTextContent(formatLocalDate('2027-03-29')));
    const nextTimes = await screen.findByRole('radiogroup', {
      name: 'שעות פנויות ביום שני, 29 במרץ 2027',
    });
    await user.click(within(nextTimes).getByRole('radio', { name: '09:30' }));
    expect(row('שעה')).toHaveTextContent('09:30');
  }, 30_000);

  it('on a phone, choosing a caregiver brings the type step into view', async () => {
    stub();
    const { user } = renderRoutes(routes, { initialEntries: ['/booking/1'] });
    await user.click(await screen.findByRole('button', { name: /^ד"ר יעל כהן/ }));
    await waitFor(() => expect(scrolledIntoView).toHaveBeenCalledTimes(1));
    const target = scrolledIntoView.mock.contexts[0] as HTMLElement;
    expect(within(target).getByRole('combobox', { name: 'סוג התור' })).toBeInTheDocument();
  });

  it('after joining the waitlist, says so instead of offering to join again', async () => {
    const api = stub({
      'POST /api/waitlist': () => json(WAITLIST_ENTRY, 201),
    });
    const { user } = renderRoutes(routes, {
      initialEntries: ['/booking/1?caregiverId=11&appointmentTypeId=1'],
    });
    await screen.findByRole('radiogroup', { name: /^שעות פנויות/ });
    await user.click(
      screen.getByRole('button', { name: 'אף אחד מהמועדים לא מתאים? אפשר לקבל הודעה כשמתפנה תור' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'הודעה כשמתפנה תור' });
    // What joining does, said as its consequence, not promised before it.
    expect(
      within(dialog).getByText(/^אם תצטרפו לרשימת ההמתנה, נשלח לכם הודעה כשיתפנה תור/),
    ).toBeVisible();
    await user.click(within(dialog).getByRole('button', { name: 'להודיע לי' }));
    await waitFor(() => expect(api.callsTo('POST /api/waitlist')).toHaveLength(1));
    const note = await screen.findByText(
      /^אתם ברשימת ההמתנה לתור אצל ד"ר יעל כהן \(בדיקה תקופתית\)/,
    );
    // Found once the dialog has closed (the page is hidden from the tree while it is open).
    expect(
      await within(note.closest('[role="note"]') as HTMLElement).findByRole('link', {
        name: 'התורים שלי',
      }),
    ).toHaveAttribute('href', '/appointments/1');
    expect(screen.queryByRole('button', { name: /אפשר לקבל הודעה כשמתפנה תור/ })).toBeNull();
    expect(screen.getByText('נוספתם לרשימת ההמתנה. נשלח לכם הודעה כשיתפנה תור.')).toBeVisible();
  }, 30_000);
});

describe('a fully booked caregiver', () => {
  it('is left out of step 1 and offered the waitlist, for a type of its own', async () => {
    const data = clinic();
    data.caregivers = data.caregivers.map((c) =>
      c.id === 12 ? { ...c, first_available_slot: null } : c,
    );
    const api = stubApi({
      'GET /api/clinic/1': () => json(data),
      'GET /api/appointment/patient-appointments': () => json([]),
      'GET /api/appointment/upcoming-cap': () => json({ max: 3, held: 0 }),
      'POST /api/waitlist': () =>
        json(
          {
            id: 5,
            caregiver_id: 12,
            appointment_type_id: 2,
            caregiver_name: 'ד"ר נועה פרץ',
            type_name: 'ניקוי אבנית',
            from_date: '2027-03-28',
            to_date: '2027-04-10',
            part_of_day: 'any',
            joined_at: '2027-03-27T08:00:00.000Z',
          },
          201,
        ),
    });
    const { user } = renderRoutes(routes, { initialEntries: ['/booking/1'] });
    await screen.findByRole('button', { name: /^ד"ר יעל כהן/ });
    expect(screen.queryByRole('button', { name: /^ד"ר נועה פרץ/ })).toBeNull();
    // One caregiver: named, in the singular, and no message promised before joining.
    const booked = screen.getByRole('region', {
      name: 'אין כרגע תורים פנויים אצל ד"ר נועה פרץ. אפשר להצטרף לרשימת ההמתנה ולקבל הודעה כשיתפנה תור.',
    });
    await user.click(
      within(booked).getByRole('button', { name: 'להודיע לי כשמתפנה תור אצל ד"ר נועה פרץ' }),
    );

    const dialog = await screen.findByRole('dialog', { name: /כשמתפנה תור/ });
    // The pages' one date format whatever the device's locale: text fields, not a date input.
    const from = within(dialog).getByRole('textbox', { name: /מתאריך/ });
    expect((from as HTMLInputElement).value).toMatch(/^\d{2}\.\d{2}\.\d{4}$/);
    expect(within(dialog).getByText('עד 14 ימים, החל מהיום (יום.חודש.שנה)')).toBeVisible();
    await user.clear(from);
    await user.type(from, '31/02/2027');
    await user.click(within(dialog).getByRole('button', { name: 'להודיע לי' }));
    expect(await within(dialog).findByText(/יש להזין תאריך מהיום והלאה/)).toBeVisible();
    await user.clear(from);
    await user.type(from, '1/4/2027');
    const to = within(dialog).getByRole('textbox', { name: /עד תאריך/ });
    await user.clear(to);
    await user.type(to, '10.04.2027');
    const kind = within(dialog).getByRole('radiogroup', { name: 'סוג התור' });
    await user.click(within(kind).getByRole('radio', { name: /ניקוי אבנית/ }));
    await user.click(within(dialog).getByRole('button', { name: 'להודיע לי' }));
    await waitFor(() => expect(api.callsTo('POST /api/waitlist')).toHaveLength(1));
    expect(api.callsTo('POST /api/waitlist')[0]?.body).toMatchObject({
      clinicId: 1,
      caregiverId: 12,
      appointmentTypeId: 2,
      partOfDay: 'any',
      fromDate: '2027-04-01',
      toDate: '2027-04-10',
    });
    // On the list now: said in place of the button.
    expect(await within(booked).findByText('אתם ברשימת ההמתנה')).toBeVisible();
    expect(within(booked).queryByRole('button')).toBeNull();
    expect(await within(booked).findByRole('link', { name: 'התורים שלי' })).toHaveAttribute(
      'href',
      '/appointments/1',
    );
  }, 30_000);
});
