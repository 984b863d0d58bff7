import type { FormSchema, InitData } from '@marpe/shared';
import { eq } from 'drizzle-orm';
import type { Executor } from '../platform/db/client.js';
import { clinics, formTemplates } from '../platform/db/schema.js';
import { DEMO_CLINIC_ID, demoClinic } from './demo-clinic.js';

// The demo clinic's intake form: every field type, every validation kind, a checkbox-driven
// condition, age conditions (a guardian signs for a patient under 18), masks, initData
// placeholders and signatures. The demo links fill initData with demoFormInitData.

export const DEMO_FORM_NAME = 'שאלון רפואי';

export const demoFormInitData: InitData = {
  firstName: 'דנה',
  lastName: 'לוי',
  clinicName: demoClinic.name,
};

export const demoFormSchema: FormSchema = [
  {
    title: 'פרטים אישיים',
    next_button: 'המשך',
    fields: [
      { name: 'welcome', type: 'title', title: 'שלום {{initData.firstName}},', validations: [] },
      {
        name: 'intro',
        type: 'paragraph',
        title:
          'לפני הביקור ב{{initData.clinicName}} נבקש למלא שאלון רפואי קצר. המידע נשמר מוצפן ומשמש רק את הצוות המטפל.',
        validations: [],
      },
      {
        name: 'first_name',
        type: 'text',
        title: 'שם פרטי',
        default: '{{initData.firstName}}',
        validations: ['required'],
      },
      {
        name: 'last_name',
        type: 'text',
        title: 'שם משפחה',
        default: '{{initData.lastName}}',
        validations: ['required'],
      },
      {
        name: 'id_number',
        type: 'text',
        title: 'תעודת זהות',
        mask: '#########',
        placeholder: '9 ספרות',
        validations: ['required', 'idFormat'],
      },
      {
        name: 'birth_date',
        type: 'text',
        title: 'תאריך לידה',
        mask: '##/##/####',
        placeholder: 'DD/MM/YYYY',
        validations: ['required', 'birthDateFormat'],
      },
      {
        name: 'phone',
        type: 'text',
        title: 'טלפון נייד',
        mask: '###-#######',
        placeholder: '050-1234567',
        validations: ['required', 'phoneFormat'],
      },
      {
        name: 'email',
        type: 'email',
        title: 'דואר אלקטרוני',
        placeholder: 'name@example.com',
        validations: ['emailFormat'],
      },
      {
        name: 'gender',
        type: 'select',
        title: 'מין',
        options: [
          { value: 'female', label: 'נקבה' },
          { value: 'male', label: 'זכר' },
          { value: 'other', label: 'אחר' },
        ],
        validations: ['required'],
      },
    ],
  },
  {
    title: 'היסטוריה רפואית',
    next_button: 'המשך',
    prev_button: 'חזרה',
    fields: [
      {
        name: 'last_visit_date',
        type: 'text',
        title: 'מועד הביקור האחרון אצל רופא שיניים (אם ידוע)',
        mask: '##/##/####',
        placeholder: 'DD/MM/YYYY',
        validations: ['dateFormat'],
      },
      {
        name: 'has_allergies',
        type: 'checkbox',
        title: 'יש לי רגישות או אלרגיה לתרופות, ללטקס או לחומרי הרדמה',
        default: false,
        validations: [],
      },
      {
        name: 'allergies_details',
        type: 'text',
        title: 'פירוט האלרגיות',
        conditions: 'has_allergies',
        validations: ['required'],
      },
      {
        name: 'takes_medication',
        type: 'checkbox',
        title: 'אני נוטל/ת תרופות באופן קבוע',
        default: false,
        validations: [],
      },
      {
        name: 'medications',
        type: 'text',
        title: 'אילו תרופות?',
        conditions: 'takes_medication',
        validations: ['required'],
      },
      {
        name: 'blood_thinners',
        type: 'checkbox',
        title: 'אני נוטל/ת מדללי דם',
        default: false,
        validations: [],
      },
      {
        name: 'diabetes',
        type: 'checkbox',
        title: 'סוכרת',
        default: false,
        validations: [],
      },
      {
        name: 'heart_disease',
        type: 'checkbox',
        title: 'מחלת לב או לחץ דם גבוה',
        default: false,
        validations: [],
      },
      {
        name: 'smoking',
        type: 'select',
        title: 'עישון',
        options: [
          { value: 'never', label: 'לא מעשן/ת' },
          { value: 'past', label: 'עישנתי בעבר' },
          { value: 'current', label: 'מעשן/ת' },
        ],
        validations: ['required'],
      },
    ],
  },
  {
    title: 'הצהרה וחתימה',
    next_button: 'שליחה',
    prev_button: 'חזרה',
    fields: [
      {
        name: 'declaration',
        type: 'html',
        title:
          '<p>אני, <strong>{{initData.firstName}} {{initData.lastName}}</strong>, מצהיר/ה כי הפרטים שמסרתי נכונים ומלאים, ואעדכן את {{initData.clinicName}} בכל שינוי במצבי הרפואי.</p>',
        validations: [],
      },
      {
        name: 'consent',
        type: 'checkbox',
        title: 'קראתי ואני מאשר/ת את ההצהרה',
        default: false,
        validations: ['required'],
      },
      {
        name: 'patient_signature',
        type: 'signature',
        title: 'חתימת המטופל/ת',
        conditions: 'birth_date:age>18',
        validations: ['required'],
      },
      {
        name: 'guardian_title',
        type: 'title',
        title: 'מטופל/ת מתחת לגיל 18: נדרשת חתימת הורה או אפוטרופוס',
        conditions: 'birth_date:age<18',
        validations: [],
      },
      {
        name: 'guardian_name',
        type: 'text',
        title: 'שם ההורה או האפוטרופוס',
        conditions: 'birth_date:age<18',
        validations: ['required'],
      },
      {
        name: 'guardian_id_number',
        type: 'text',
        title: 'תעודת הזהות של ההורה או האפוטרופוס',
        mask: '#########',
        conditions: 'birth_date:age<18',
        validations: ['required', 'idFormat'],
      },
      {
        name: 'guardian_signature',
        type: 'signature',
        title: 'חתימת ההורה או האפוטרופוס',
        conditions: 'birth_date:age<18',
        validations: ['required'],
      },
    ],
  },
];

/** Creates or refreshes the demo clinic's form (idempotent); returns its template id. */
export async function seedDemoForm(ex: Executor): Promise<number> {
  const [row] = await ex
    .insert(formTemplates)
    .values({ clinicId: DEMO_CLINIC_ID, name: DEMO_FORM_NAME, schema: demoFormSchema })
    .onConflictDoUpdate({
      target: [formTemplates.clinicId, formTemplates.name],
      set: { schema: demoFormSchema, updatedAt: new Date() },
    })
    .returning({ id: formTemplates.id });
  if (!row) throw new Error('demo data: form template not saved');
  return row.id;
}

/**
 * Adds the form to a demo clinic seeded before forms existed; leaves a clinic 1 that is not the
 * demo clinic alone. Returns whether the demo clinic has its form.
 */
export async function ensureDemoForm(ex: Executor): Promise<boolean> {
  const [clinic] = await ex
    .select({ name: clinics.name })
    .from(clinics)
    .where(eq(clinics.id, DEMO_CLINIC_ID));
  if (clinic?.name !== demoClinic.name) return false;
  await seedDemoForm(ex);
  return true;
}
