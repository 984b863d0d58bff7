import type { OpeningHours } from '@marpe/shared';

// The clinic a fresh demo install shows at /clinic/1. Images live in apps/web/public/demo.

export const DEMO_CLINIC_ID = 1;

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
};

export const demoAppointmentTypes = [
  { key: 'checkup', name: 'בדיקה תקופתית', durationMinutes: 20 },
  { key: 'cleaning', name: 'ניקוי אבנית', durationMinutes: 45 },
  { key: 'filling', name: 'סתימה', durationMinutes: 30 },
  { key: 'orthodontics', name: 'ייעוץ אורתודונטי', durationMinutes: 30 },
] as const;

export type DemoAppointmentTypeKey = (typeof demoAppointmentTypes)[number]['key'];

export const demoCaregivers: readonly {
  name: string;
  image: string | null;
  licenseNumber: string;
  googleCalendarSyncCalendarId: string;
  appointmentTypes: readonly DemoAppointmentTypeKey[];
}[] = [
  {
    name: 'ד"ר יעל כהן',
    image: '/demo/caregiver-cohen.svg',
    licenseNumber: '1-23456',
    googleCalendarSyncCalendarId: 'dr-cohen@demo-clinic.example',
    appointmentTypes: ['checkup', 'cleaning', 'filling'],
  },
  {
    name: 'ד"ר אבי לוי',
    image: '/demo/caregiver-levi.svg',
    licenseNumber: '1-31874',
    googleCalendarSyncCalendarId: 'dr-levi@demo-clinic.example',
    appointmentTypes: ['checkup', 'filling', 'orthodontics'],
  },
  {
    name: 'ד"ר מיכל אברהם',
    image: null,
    licenseNumber: '1-27315',
    googleCalendarSyncCalendarId: 'dr-avraham@demo-clinic.example',
    appointmentTypes: ['checkup', 'cleaning'],
  },
  {
    // Later demo data leaves her without working hours, to show the "no appointments" state.
    name: 'ד"ר נועה פרץ',
    image: null,
    licenseNumber: '1-40562',
    googleCalendarSyncCalendarId: 'dr-peretz@demo-clinic.example',
    appointmentTypes: ['orthodontics', 'checkup'],
  },
];
