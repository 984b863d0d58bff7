import {
  defaultReminderSettings,
  type OpeningHours,
  type ReminderSettings,
  type WeekDay,
} from '@marpe/shared';

// The clinics a fresh demo install shows: /clinic/1, open and booking, and /clinic/2, still
// setting up (no working hours: the page says no appointments are available). Images live in
// apps/web/public/demo.

export const DEMO_CLINIC_ID = 1;
export const DEMO_SETUP_CLINIC_ID = 2;

/** The demo clinic's card terminal: in demo mode the frame is the built-in sandbox's. */
export const DEMO_CARD_TERMINAL = 'marpedemo';

const weekday = { start: '08:00', end: '19:00' };

export const demoOpeningHours: OpeningHours = {
  title: 'שעות פעילות',
  days: {
    sunday: weekday,
    monday: weekday,
    tuesday: weekday,
    wednesday: weekday,
    thursday: weekday,
    friday: { start: '08:00', end: '13:00' },
    saturday: null,
  },
};

export const demoClinic = {
  id: DEMO_CLINIC_ID,
  name: 'מרפאת שיניים לב העיר',
  description: [
    'מרפאת שיניים לב העיר מטפלת במשפחות תל אביביות כבר למעלה מעשרים שנה, בסבלנות ובגישה אישית.',
    'הצוות שלנו משלב ניסיון רב עם טכנולוגיה מתקדמת: צילומים דיגיטליים, טיפולים משמרים, הלבנה ויישור שיניים.',
    'אפשר לקבוע תור בקלות דרך האתר. מטופלים חדשים מתקבלים בברכה.',
  ].join('\n\n'),
  imageUrl: '/demo/clinic-cover.svg',
  logoUrl: '/demo/clinic-logo.svg',
  phone: '03-5551234',
  email: 'info@demo-clinic.example',
  street: 'שדרות רוטשילד',
  homeNumber: '45',
  city: 'תל אביב-יפו',
  openingHours: demoOpeningHours,
  isAcceptNewPatients: true,
  isAutoSmsEnabled: false,
  timezone: 'Asia/Jerusalem',
  defaultSlotStepMinutes: 15,
  defaultMinNoticeMinutes: 120,
  defaultBookingHorizonDays: 60,
  cardTerminal: DEMO_CARD_TERMINAL,
};

export const demoAppointmentTypes = [
  { key: 'checkup', name: 'בדיקה תקופתית', durationMinutes: 20 },
  { key: 'cleaning', name: 'ניקוי אבנית', durationMinutes: 45 },
  { key: 'filling', name: 'סתימה', durationMinutes: 30 },
  { key: 'orthodontics', name: 'ייעוץ אורתודונטי', durationMinutes: 30 },
] as const;

export type DemoAppointmentTypeKey = (typeof demoAppointmentTypes)[number]['key'];

export interface DemoHours {
  start: string;
  end: string;
}

export interface DemoCaregiver {
  name: string;
  image: string | null;
  licenseNumber: string;
  googleCalendarSyncCalendarId: string | null;
  appointmentTypes: readonly DemoAppointmentTypeKey[];
  /** Own booking rules; absent ones inherit the clinic's. */
  rules?: { slotStepMinutes?: number; minNoticeMinutes?: number; bookingHorizonDays?: number };
  weeklyHours?: Partial<Record<WeekDay, readonly DemoHours[]>>;
  /** day null: every day. */
  breaks?: readonly (DemoHours & { day: WeekDay | null })[];
  /**
   * Exceptions placed relative to the seed time: on the first of the caregiver's working days at
   * least `daysAhead` days from today; no hours is a day off.
   */
  exceptions?: readonly { daysAhead: number; hours: readonly DemoHours[]; note: string }[];
}

const cohenDay = [
  { start: '08:00', end: '14:00' },
  { start: '15:00', end: '19:00' },
];
const leviDay = [{ start: '11:00', end: '19:00' }];
const avrahamDay = [{ start: '08:00', end: '13:00' }];

export const demoCaregivers: readonly DemoCaregiver[] = [
  {
    name: 'ד"ר יעל כהן',
    image: '/demo/caregiver-cohen.svg',
    licenseNumber: '1-23456',
    googleCalendarSyncCalendarId: 'dr-cohen@demo-clinic.example',
    appointmentTypes: ['checkup', 'cleaning', 'filling'],
    weeklyHours: {
      sunday: cohenDay,
      monday: cohenDay,
      tuesday: cohenDay,
      wednesday: cohenDay,
      thursday: cohenDay,
    },
    exceptions: [{ daysAhead: 8, hours: [], note: 'כנס רפואת שיניים' }],
  },
  {
    name: 'ד"ר אבי לוי',
    image: '/demo/caregiver-levi.svg',
    licenseNumber: '1-31874',
    googleCalendarSyncCalendarId: 'dr-levi@demo-clinic.example',
    appointmentTypes: ['checkup', 'filling', 'orthodontics'],
    rules: { slotStepMinutes: 30 },
    weeklyHours: { sunday: leviDay, tuesday: leviDay, thursday: leviDay },
    breaks: [{ day: null, start: '14:00', end: '14:30' }],
    exceptions: [
      { daysAhead: 10, hours: [{ start: '08:00', end: '12:00' }], note: 'משמרת בוקר' },
      { daysAhead: 17, hours: [], note: 'חופשה' },
    ],
  },
  {
    name: 'ד"ר מיכל אברהם',
    image: null,
    licenseNumber: '1-27315',
    googleCalendarSyncCalendarId: 'dr-avraham@demo-clinic.example',
    appointmentTypes: ['checkup', 'cleaning'],
    rules: { minNoticeMinutes: 24 * 60, bookingHorizonDays: 30 },
    weeklyHours: {
      monday: avrahamDay,
      wednesday: avrahamDay,
      friday: [{ start: '08:00', end: '12:00' }],
    },
  },
  {
    // No working hours: she has no slots, and the page says so.
    name: 'ד"ר נועה פרץ',
    image: null,
    licenseNumber: '1-40562',
    googleCalendarSyncCalendarId: 'dr-peretz@demo-clinic.example',
    appointmentTypes: ['orthodontics', 'checkup'],
  },
];

/** Demo patients of clinic 1; id numbers get their check digit when seeded. */
export const demoPatients = [
  { idNumberBase: '03984512', firstName: 'דנה', lastName: 'לוי', phone: '0501234567' },
  { idNumberBase: '20547718', firstName: 'יוסי', lastName: 'כהן', phone: '0527654321' },
  { idNumberBase: '31266904', firstName: 'מירב', lastName: 'אזולאי', phone: '0541112233' },
  { idNumberBase: '05873341', firstName: 'אורי', lastName: 'בן דוד', phone: '0589876543' },
] as const;

/** Booked appointments are placed on this many days after the seed day (tomorrow onward). */
export const DEMO_BOOKING_DAYS = 7;

/**
 * Upcoming appointments each demo patient holds after seeding; their other bookings lie two weeks
 * earlier, in the past. Below the clinic's cap (3), so a demo patient logging in can book: the
 * README's דנה לוי among them.
 */
export const DEMO_UPCOMING_PER_PATIENT = 1;

export const demoSetupClinic = {
  id: DEMO_SETUP_CLINIC_ID,
  name: 'מרפאת השיניים הכרמל',
  description: [
    'מרפאת שיניים חדשה במרכז הכרמל בחיפה.',
    'אנחנו משלימים את ההכנות לפתיחה; זימון תורים באתר ייפתח בקרוב.',
  ].join('\n\n'),
  imageUrl: null,
  logoUrl: null,
  phone: '04-8551234',
  email: 'info@carmel-dental.example',
  street: 'שדרות הנשיא',
  homeNumber: '120',
  city: 'חיפה',
  openingHours: {
    title: null,
    days: {
      sunday: { start: '09:00', end: '17:00' },
      monday: { start: '09:00', end: '17:00' },
      tuesday: { start: '09:00', end: '17:00' },
      wednesday: { start: '09:00', end: '17:00' },
      thursday: { start: '09:00', end: '17:00' },
      friday: null,
      saturday: null,
    },
  } satisfies OpeningHours,
  isAcceptNewPatients: true,
  isAutoSmsEnabled: true,
  timezone: 'Asia/Jerusalem',
};

export const demoSetupAppointmentTypes = [
  { key: 'checkup', name: 'בדיקה ראשונה', durationMinutes: 30 },
  { key: 'cleaning', name: 'ניקוי אבנית', durationMinutes: 40 },
] as const;

export const demoSetupCaregivers: readonly {
  name: string;
  licenseNumber: string;
  appointmentTypes: readonly (typeof demoSetupAppointmentTypes)[number]['key'][];
}[] = [
  { name: 'ד"ר רונית שמעוני', licenseNumber: '1-35120', appointmentTypes: ['checkup', 'cleaning'] },
  { name: 'ד"ר עמית גולן', licenseNumber: '1-42871', appointmentTypes: ['checkup'] },
];

/**
 * Demo clinic 1 reminds its patients the day before and 2 hours before, outside 21:00–08:00 and
 * Shabbat and holidays: the reminders of the demo bookings show up in /api/dev/messages.
 */
export const demoReminderSettings: ReminderSettings = {
  ...defaultReminderSettings,
  enabled: true,
  observe_shabbat_and_holidays: true,
};

/**
 * Demo clinic 1's desk staff (docs/desk.md): its owner and a front-desk member. They sign in at
 * /desk with these phones; their codes show up in /api/dev/messages like the patients'.
 */
export const demoStaff = [
  { phone: '0527000001', name: 'רונית מזרחי', role: 'owner' },
  { phone: '0527000002', name: 'שירה דוד', role: 'front_desk' },
] as const;
