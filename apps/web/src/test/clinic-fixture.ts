import type { Caregiver, ClinicData, MarpeRules } from '@marpe/shared';

// Test data only: a clinic on Israeli time with one caregiver bookable and one not.

const rules: MarpeRules = {
  slot_step_minutes: 15,
  min_notice_minutes: 60,
  booking_horizon_days: 30,
  weekly_hours: {
    sunday: [{ start: '09:00', end: '17:00' }],
    monday: [],
    tuesday: [],
    wednesday: [],
    thursday: [],
    friday: [],
    saturday: [],
  },
  breaks: [],
  exceptions: [],
};

const caregiver = (fields: Partial<Caregiver> & Pick<Caregiver, 'id' | 'name'>): Caregiver => ({
  image: null,
  license_number: '1-00000',
  default_appointment_types: [1],
  first_available_slot: null,
  google_calendar_sync_calendar_id: null,
  marpe_rules: rules,
  ...fields,
});

export function clinicFixture(): ClinicData {
  return {
    clinic: {
      id: 1,
      name: 'מרפאת שיניים לב העיר',
      description: 'שורה ראשונה\nשורה שנייה\n\nפסקה שנייה',
      image_url: '/img/cover.jpg',
      logo_url: '/img/logo.png',
      phone: '03-5551234',
      email: 'info@clinic.example',
      address: { street: 'שדרות רוטשילד', home_number: '45', city: 'תל אביב-יפו' },
      opening_hours: {
        title: 'שעות הקבלה',
        days: {
          sunday: { start: '08:00', end: '19:00' },
          monday: { start: '08:00', end: '19:00' },
          tuesday: { start: '08:00', end: '19:00' },
          wednesday: { start: '08:00', end: '19:00' },
          thursday: { start: '08:00', end: '19:00' },
          friday: { start: '08:00', end: '13:00' },
          saturday: null,
        },
      },
      settings: { is_accept_new_patients: true, is_auto_sms_enabled: false },
      timezone: 'Asia/Jerusalem',
    },
    caregivers: [
      caregiver({
        id: 11,
        name: 'ד"ר יעל כהן',
        image: '/img/cohen.jpg',
        license_number: '1-23456',
        // Israel moves to summer time that morning: 06:00 UTC is 09:00 on the clinic's clock.
        first_available_slot: { start: '2027-03-26T06:00:00.000Z' },
      }),
      caregiver({ id: 12, name: 'ד"ר נועה פרץ', license_number: '1-40562' }),
    ],
    appointmentTypes: [
      { id: 1, name: 'בדיקה תקופתית', duration_minutes: 20 },
      { id: 2, name: 'ניקוי אבנית', duration_minutes: 45 },
    ],
  };
}
