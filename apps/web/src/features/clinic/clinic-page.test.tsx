// Over 400 lines: the clinic page's journeys share one clinic fixture, its answers and the page's
// routes; split by describe, each file would repeat them.
import type { ClinicData } from '@marpe/shared';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RouteObject } from 'react-router';
import { createRoutes } from '../../app/router';
import { configureApiClient } from '../../lib/api-client';
import { useBookingConfirmation } from '../../lib/booking-confirmation';
import { useClinicStore } from '../../lib/clinic/clinic-store';
import { useSessionStore } from '../../lib/patient-session/session-store';
import { clinicFixture } from '../../test/clinic-fixture';
import { renderRoutes } from '../../test/render';
import { ClinicPage } from './clinic-page';

const routes: RouteObject[] = [
  { path: '/', element: <h1>Home</h1> },
  { path: 'clinic/:clinicId/:clinicName?', element: <ClinicPage /> },
];

function json(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

/** Stubs the network: each call answers with the next of `answers` (the last one repeats). */
function stubApi(...answers: (() => Response)[]) {
  let call = 0;
  const fetchMock = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => {
    const answer = answers[Math.min(call, answers.length - 1)];
    call += 1;
    if (!answer) throw new Error('stubApi needs an answer');
    return answer();
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function renderClinic(
  data: ClinicData = clinicFixture(),
  { path = '/clinic/1', language = 'he' as const as 'he' | 'en' } = {},
) {
  const fetchMock = stubApi(() => json(data));
  return { fetchMock, ...renderRoutes(routes, { initialEntries: [path], language }) };
}

const clinicName = 'מרפאת שיניים לב העיר';

beforeAll(() => {
  configureApiClient({ baseUrl: '/api' });
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  useBookingConfirmation.setState({ displayConfirmation: false });
  useClinicStore.setState({ clinic: null, caregivers: [], appointmentTypes: [] });
  document.title = '';
});

describe('clinic page', () => {
  it('loads the clinic and shows its header: hero, logo, name, address, description', async () => {
    const { fetchMock } = renderClinic();

    expect(screen.getByRole('progressbar', { name: 'טוען…' })).toBeInTheDocument();
    const heading = await screen.findByRole('heading', { level: 1, name: clinicName });
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(fetchMock).toHaveBeenCalledOnce();
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe('/api/clinic/1');

    // Decorative hero and logo (the name is the heading beside it), the address.
    const hero = screen.getByTestId('clinic-hero');
    expect(hero).toHaveAttribute('src', '/img/cover.jpg');
    expect(hero).toHaveAttribute('alt', '');
    const logo = screen.getByTestId('clinic-logo').querySelector('img');
    expect(logo).toHaveAttribute('src', '/img/logo.png');
    expect(logo).toHaveAttribute('alt', '');
    expect(screen.queryByRole('img', { name: clinicName })).toBeNull();
    expect(heading.parentElement).toHaveTextContent('שדרות רוטשילד 45, תל אביב-יפו');

    // The description keeps its line breaks.
    const description = screen.getByText(/^שורה ראשונה/);
    expect(description.textContent).toBe('שורה ראשונה\nשורה שנייה\n\nפסקה שנייה');
    expect(description).toHaveStyle({ whiteSpace: 'pre-line' });

    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([
      'סוגי טיפולים',
      'המטפלים במרפאה',
      'פרטי התקשרות',
      'שעות הקבלה',
    ]);
  });

  it('lists the appointment types and the caregivers with their next slot on the clinic clock', async () => {
    renderClinic();
    await screen.findByRole('heading', { level: 1, name: clinicName });

    const types = screen.getByRole('list', { name: 'סוגי טיפולים' });
    expect(
      within(types)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['בדיקה תקופתית', 'ניקוי אבנית']);

    const caregivers = within(screen.getByRole('list', { name: 'המטפלים במרפאה' })).getAllByRole(
      'listitem',
    );
    expect(caregivers).toHaveLength(2);
    const [cohen, peretz] = caregivers as [HTMLElement, HTMLElement];
    expect(within(cohen).getByRole('heading', { level: 3 })).toHaveTextContent('ד"ר יעל כהן');
    expect(cohen).toHaveTextContent('מס׳ רישיון: 1-23456');
    // 06:00 UTC on the morning Israel moves to summer time, on the clinic's clock.
    expect(cohen).toHaveTextContent('התור הפנוי הקרוב: 26.03.2027 09:00');
    expect(within(cohen).getByText('26.03.2027 09:00').tagName).toBe('BDI');
    // Shown short, said in full: a screen reader hears the words, not the digits twice.
    expect(
      within(cohen).getByText('26.03.2027 09:00').closest('[aria-hidden="true"]'),
    ).not.toBeNull();
    expect(within(cohen).getByText('יום שישי, 26 במרץ 2027, בשעה 09:00')).not.toHaveAttribute(
      'aria-hidden',
    );
    // The picture is decorative (the name follows it).
    expect(cohen.querySelector('img')).toHaveAttribute('alt', '');
    expect(cohen.querySelector('img')).toHaveAttribute('src', '/img/cohen.jpg');
    expect(within(peretz).getByRole('heading', { level: 3 })).toHaveTextContent('ד"ר נועה פרץ');
    expect(peretz).toHaveTextContent('מס׳ רישיון: 1-40562');
    expect(peretz).toHaveTextContent('אין כרגע תורים פנויים');
    expect(peretz.querySelector('img')).toBeNull();
  });

  it('shows the contact card and the opening hours, a closed day included', async () => {
    renderClinic();
    await screen.findByRole('heading', { level: 1, name: clinicName });

    const contact = screen.getByRole('region', { name: 'פרטי התקשרות' });
    expect(contact).toHaveTextContent('שדרות רוטשילד 45, תל אביב-יפו');
    expect(within(contact).getByRole('link', { name: 'טלפון: 03-5551234' })).toHaveAttribute(
      'href',
      'tel:035551234',
    );
    expect(
      within(contact).getByRole('link', { name: 'דוא״ל: info@clinic.example' }),
    ).toHaveAttribute('href', 'mailto:info@clinic.example');

    const hours = within(screen.getByRole('region', { name: 'שעות הקבלה' })).getByRole('table', {
      name: 'שעות הקבלה',
    });
    expect(
      within(hours)
        .getAllByRole('row')
        .map((row) => {
          const cell = within(row).getByRole('cell');
          // What the eye reads: the hours' short form is hidden from screen readers.
          const shown = cell.querySelector('[aria-hidden="true"]') ?? cell;
          return [within(row).getByRole('rowheader').textContent, shown.textContent];
        }),
    ).toEqual([
      ['ראשון', '08:00 - 19:00'],
      ['שני', '08:00 - 19:00'],
      ['שלישי', '08:00 - 19:00'],
      ['רביעי', '08:00 - 19:00'],
      ['חמישי', '08:00 - 19:00'],
      ['שישי', '08:00 - 13:00'],
      ['שבת', 'סגור'],
    ]);
    // Said "08:00 עד 19:00", not "08:00 minus 19:00".
    expect(within(hours).getAllByRole('row')[0]).toHaveAccessibleName('ראשון 08:00 עד 19:00');
  });

  it('offers to book (a link to /login/1 that goes on to booking) and to call the clinic', async () => {
    renderClinic();
    await screen.findByRole('heading', { level: 1, name: clinicName });

    expect(screen.getByRole('link', { name: 'קביעת תור' })).toHaveAttribute(
      'href',
      '/login/1?next=booking',
    );
    expect(screen.getByRole('link', { name: 'התקשרו למרפאה' })).toHaveAttribute(
      'href',
      'tel:035551234',
    );
    expect(screen.queryByText('אין כרגע תורים פנויים אצל המטפלים במרפאה')).not.toBeInTheDocument();
  });

  it('feeds the clinic store from the loaded data', async () => {
    renderClinic();
    await screen.findByRole('heading', { level: 1, name: clinicName });

    await waitFor(() => expect(useClinicStore.getState().clinic?.id).toBe(1));
    const state = useClinicStore.getState();
    expect(state.caregivers.map((c) => c.id)).toEqual([11, 12]);
    expect(state.appointmentTypes.map((t) => t.id)).toEqual([1, 2]);
    expect(state.isAcceptNewPatients).toBe(true);
    expect(state.loading).toBe(false);
  });

  it('the title-less initial in avatars, an unbroken licence, the default title translated, my appointments once logged in', async () => {
    const data = clinicFixture();
    // The clinic's title is the default heading in Hebrew: translated on the English page.
    data.clinic.opening_hours.title = 'שעות פעילות';
    data.caregivers = data.caregivers.map((c) => ({ ...c, image: null }));
    useSessionStore.setState({
      patient: { id: 7, id_number: '039845125', first_name: 'דנה', last_name: 'לוי', phone: '' },
      session: 'checked',
      token: 't',
      authenticatedBy: 'session',
    });
    try {
      renderClinic(data, { language: 'en' });
      await screen.findByRole('heading', { level: 1, name: clinicName });
      expect(screen.getByRole('table', { name: 'Opening hours' })).toBeInTheDocument();
      const [cohen] = within(screen.getByRole('list', { name: 'Caregivers' })).getAllByRole(
        'listitem',
      ) as [HTMLElement];
      expect(within(cohen).getByText('י')).toBeInTheDocument();
      expect(within(cohen).getByText('1-23456')).toHaveStyle({ whiteSpace: 'nowrap' });
      expect(screen.getByRole('link', { name: 'My appointments' })).toHaveAttribute(
        'href',
        '/appointments/1',
      );
    } finally {
      useSessionStore.setState({ patient: null, token: null, authenticatedBy: null });
    }
  });

  it('a custom opening-hours title is the clinic’s own words, kept in English; no my appointments logged out', async () => {
    const data = clinicFixture();
    data.clinic.opening_hours.title = 'שעות קבלה';
    renderClinic(data, { language: 'en' });
    await screen.findByRole('heading', { level: 1, name: clinicName });
    expect(screen.getByRole('table', { name: 'שעות קבלה' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'My appointments' })).toBeNull();
  });

  it('speaks English, with the default opening-hours title', async () => {
    const data = clinicFixture();
    data.clinic.opening_hours.title = null;
    renderClinic(data, { language: 'en' });

    await screen.findByRole('heading', { level: 1, name: clinicName });
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([
      'Appointment types',
      'Caregivers',
      'Contact details',
      'Opening hours',
    ]);
    const [cohen, peretz] = within(screen.getByRole('list', { name: 'Caregivers' })).getAllByRole(
      'listitem',
    ) as [HTMLElement, HTMLElement];
    expect(cohen).toHaveTextContent('License no.: 1-23456');
    expect(cohen).toHaveTextContent('Next available: 26.03.2027 09:00');
    expect(within(cohen).getByText('Friday, 26 March 2027, at 09:00')).toBeInTheDocument();
    expect(peretz).toHaveTextContent('No available appointments at the moment');
    const rows = within(screen.getByRole('table', { name: 'Opening hours' })).getAllByRole('row');
    expect(rows[0]).toHaveTextContent('Sunday08:00 - 19:00');
    expect(rows[0]).toHaveAccessibleName('Sunday 08:00 to 19:00');
    expect(rows[6]).toHaveTextContent('SaturdayClosed');
    expect(screen.getByRole('link', { name: 'Phone: 03-5551234' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Email: info@clinic.example' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Book an appointment' })).toHaveAttribute(
      'href',
      '/login/1?next=booking',
    );
    expect(screen.getByRole('link', { name: 'Call the clinic' })).toBeInTheDocument();
  });

  it('hero: the cover, else the logo, else the default cover; a broken picture gives way', async () => {
    const data = clinicFixture();
    data.clinic.image_url = null;
    renderClinic(data);
    await screen.findByRole('heading', { level: 1, name: clinicName });

    const hero = screen.getByTestId('clinic-hero');
    expect(hero).toHaveAttribute('src', '/img/logo.png');
    fireEvent.error(hero);
    expect(screen.getByTestId('clinic-hero').getAttribute('src')).toMatch(/default-cover.*\.svg/);
  });

  it('hero: no cover and no logo shows the default cover and an initial for the logo', async () => {
    const data = clinicFixture();
    data.clinic.image_url = null;
    data.clinic.logo_url = null;
    data.clinic.email = null;
    renderClinic(data);
    await screen.findByRole('heading', { level: 1, name: clinicName });

    expect(screen.getByTestId('clinic-hero').getAttribute('src')).toMatch(/default-cover.*\.svg/);
    expect(screen.queryByRole('img', { name: clinicName })).not.toBeInTheDocument();
    // No e-mail: no mailto link.
    expect(screen.queryByRole('link', { name: /^דוא״ל/ })).not.toBeInTheDocument();
  });

  it('without any available slot: a message instead of the book button, the call button stays', async () => {
    const data = clinicFixture();
    data.caregivers = data.caregivers.map((c) => ({ ...c, first_available_slot: null }));
    renderClinic(data);
    await screen.findByRole('heading', { level: 1, name: clinicName });

    expect(screen.queryByRole('link', { name: 'קביעת תור' })).not.toBeInTheDocument();
    expect(screen.getByText('אין כרגע תורים פנויים אצל המטפלים במרפאה')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'התקשרו למרפאה' })).toHaveAttribute(
      'href',
      'tel:035551234',
    );
  });

  it('the no-appointments message in English', async () => {
    const data = clinicFixture();
    data.caregivers = [];
    renderClinic(data, { language: 'en' });
    await screen.findByRole('heading', { level: 1, name: clinicName });

    expect(
      screen.getByText("No appointments available for the clinic's caregivers at this time"),
    ).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Caregivers' })).not.toBeInTheDocument();
  });

  it('shows the booking-confirmed snackbar for 3 s when the flag is set, then clears the flag', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
    useBookingConfirmation.getState().showConfirmation();
    renderClinic();

    // The message's code loads when it first shows; its 3 s count from then.
    expect(await screen.findByRole('alert')).toHaveTextContent('התור נקבע בהצלחה');
    await screen.findByRole('heading', { level: 1, name: clinicName });
    act(() => vi.advanceTimersByTime(2000));
    expect(useBookingConfirmation.getState().displayConfirmation).toBe(true);
    act(() => vi.advanceTimersByTime(1100));
    expect(useBookingConfirmation.getState().displayConfirmation).toBe(false);
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
  });

  it('shows no snackbar without the flag', async () => {
    renderClinic();
    await screen.findByRole('heading', { level: 1, name: clinicName });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('an unknown clinic (404 clinic_not_found) says so and links home', async () => {
    stubApi(() => json({ code: 'clinic_not_found', message: 'Clinic not found' }, 404));
    const { user, router } = renderRoutes(routes, { initialEntries: ['/clinic/999'] });

    expect(
      await screen.findByRole('heading', { level: 1, name: 'המרפאה לא נמצאה' }),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'לדף הבית' }));
    expect(await screen.findByRole('heading', { name: 'Home' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });

  it('a clinic id that cannot exist is not found without asking the server', async () => {
    const fetchMock = stubApi(() => json(clinicFixture()));
    renderRoutes(routes, { initialEntries: ['/clinic/abc/name'], language: 'en' });

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Clinic not found' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('another failure shows the error view, whose reload tries again', async () => {
    const data = clinicFixture();
    stubApi(
      () => json({ code: 'internal_error', message: 'boom' }, 500),
      () => json({ code: 'internal_error', message: 'boom' }, 500),
      () => json(data),
    );
    const { user } = renderRoutes(routes, { initialEntries: ['/clinic/1'] });

    expect(
      await screen.findByRole(
        'heading',
        { level: 1, name: 'לא הצלחנו לטעון את פרטי המרפאה' },
        { timeout: 4000 },
      ),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'טעינה מחדש' }));
    expect(await screen.findByRole('heading', { level: 1, name: clinicName })).toBeInTheDocument();
  });
});

describe('clinic page address', () => {
  it('replaces the name in the URL with its normalised form, keeping query and hash', async () => {
    const { router } = renderClinic(clinicFixture(), {
      path: '/clinic/1/מרפאת%20שיניים ״לב״ ד"ר?caregiverId=3#top',
    });

    await waitFor(() =>
      expect(decodeURIComponent(router.state.location.pathname)).toBe(
        '/clinic/1/מרפאת-שיניים-לב-דר',
      ),
    );
    expect(router.state.historyAction).toBe('REPLACE');
    expect(router.state.location.search).toBe('?caregiverId=3');
    expect(router.state.location.hash).toBe('#top');
    expect(await screen.findByRole('heading', { level: 1, name: clinicName })).toBeInTheDocument();
  });

  it('leaves a normalised name, and no name, alone', async () => {
    for (const path of ['/clinic/1/מרפאת-שיניים-לב-העיר', '/clinic/1']) {
      const { router, unmount } = renderClinic(clinicFixture(), { path });
      await screen.findByRole('heading', { level: 1, name: clinicName });
      expect(router.state.historyAction).toBe('POP');
      expect(decodeURIComponent(router.state.location.pathname)).toBe(path);
      unmount();
    }
  });

  it('in the app: lazy route, the clinic name as title once loaded, focus left alone', async () => {
    stubApi(() => json(clinicFixture()));
    const { router } = renderRoutes(
      createRoutes({
        parentSiteUrl: 'https://marpe.example/',
        publicOrigin: 'http://localhost:3000',
      }),
      {
        initialEntries: ['/clinic/1/לב העיר'],
      },
    );

    await waitFor(() => expect(document.title).toBe('מרפאה חכמה'));
    expect(await screen.findByRole('heading', { level: 1, name: clinicName })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe(clinicName));
    expect(decodeURIComponent(router.state.location.pathname)).toBe('/clinic/1/לב-העיר');
    await waitFor(() =>
      expect(document.head.querySelector('link[rel="canonical"]')?.getAttribute('href')).toBe(
        `http://localhost:3000/clinic/1/${encodeURIComponent('לב-העיר')}`,
      ),
    );
    // Rewriting the address is not a new page: focus stays at the start of the document.
    expect(document.activeElement).toBe(document.body);

    await act(() => router.navigate('/terms'));
    await waitFor(() => expect(document.title).toBe('תנאי שימוש'));
    document.head.querySelector('link[rel="canonical"]')?.remove();
  });

  it('in the app: an unknown clinic is titled as such', async () => {
    stubApi(() => json({ code: 'clinic_not_found', message: 'Clinic not found' }, 404));
    renderRoutes(
      createRoutes({
        parentSiteUrl: 'https://marpe.example/',
        publicOrigin: 'http://localhost:3000',
      }),
      {
        initialEntries: ['/clinic/999'],
      },
    );

    await screen.findByRole('heading', { level: 1, name: 'המרפאה לא נמצאה' });
    await waitFor(() => expect(document.title).toBe('המרפאה לא נמצאה'));
    document.head.querySelector('link[rel="canonical"]')?.remove();
  });
});
