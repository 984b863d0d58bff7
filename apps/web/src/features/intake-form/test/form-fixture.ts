import type { IntakeFormData } from '@marpe/shared';

/** A small form with every field type the flow tests need (no signature: jsdom has no canvas). */
export function formFixture(overrides: Partial<IntakeFormData> = {}): IntakeFormData {
  return {
    headerImage: '/logo.png',
    initData: { firstName: 'דנה' },
    schema: [
      {
        title: 'שלום {{initData.firstName}}',
        next_button: 'הבא',
        fields: [
          {
            name: 'fullName',
            type: 'text',
            title: 'שם מלא',
            validations: ['required'],
            default: '{{initData.firstName}}',
          },
          { name: 'email', type: 'email', title: 'דוא״ל', validations: ['emailFormat'] },
          {
            name: 'phone',
            type: 'text',
            title: 'טלפון',
            validations: ['phoneFormat'],
            mask: '###-#######',
          },
          { name: 'smoker', type: 'checkbox', title: 'מעשן/ת', validations: [] },
          {
            name: 'packs',
            type: 'select',
            title: 'כמה חפיסות ביום',
            validations: ['required'],
            conditions: 'smoker',
            options: [
              { value: '1', label: 'אחת' },
              { value: '2', label: 'שתיים' },
            ],
          },
          {
            name: 'note',
            type: 'html',
            title:
              '<p>שימו <b>לב</b><script>window.hacked = true</script><img src=x onerror="window.hacked = true"></p>',
            validations: [],
          },
        ],
      },
      {
        title: 'אישור',
        next_button: 'שליחה',
        prev_button: 'הקודם',
        fields: [
          { name: 'agree', type: 'checkbox', title: 'אני מאשר/ת', validations: ['required'] },
        ],
      },
    ],
    ...overrides,
  };
}
