import type { FormSchema } from '@marpe/shared';
import { describe, expect, it } from 'vitest';
import { answerSteps, answerValue, browserHtmlParagraphs } from './answers';

const PNG = 'data:image/png;base64,iVBORw0KGgo=';
const today = { year: 2027, month: 3, day: 24 };

const schema: FormSchema = [
  {
    title: 'פרטים אישיים',
    next_button: 'המשך',
    fields: [
      { name: 'hello', type: 'title', title: 'שלום דנה', validations: [] },
      { name: 'intro', type: 'paragraph', title: 'שורה אחת\n\nשורה שתיים', validations: [] },
      { name: 'name', type: 'text', title: 'שם', validations: ['required'] },
      {
        name: 'birth',
        type: 'text',
        title: 'תאריך לידה',
        validations: ['birthDateFormat'],
      },
      {
        name: 'smoking',
        type: 'select',
        title: 'עישון',
        options: [
          { value: 'never', label: 'אף פעם' },
          { value: 'past', label: 'בעבר' },
        ],
        validations: [],
      },
      { name: 'allergies', type: 'checkbox', title: 'אלרגיות', validations: [] },
      {
        name: 'details',
        type: 'text',
        title: 'פרטי האלרגיה',
        conditions: 'allergies',
        validations: [],
      },
      { name: 'pregnant', type: 'checkbox', title: 'הריון', validations: [] },
      { name: 'notes', type: 'text', title: '', validations: [] },
    ],
  },
  {
    title: 'קטינים',
    next_button: 'המשך',
    fields: [
      {
        name: 'guardian',
        type: 'text',
        title: 'אפוטרופוס',
        conditions: 'birth:age<18',
        validations: [],
      },
    ],
  },
  {
    title: 'חתימה',
    next_button: 'שליחה',
    fields: [
      {
        name: 'consent',
        type: 'html',
        title: '<p>אני <b>מאשר/ת</b></p><script>x()</script>',
        validations: [],
      },
      { name: 'sign', type: 'signature', title: 'חתימת המטופל/ת', validations: ['required'] },
      { name: 'name', type: 'text', title: 'שם (שוב)', validations: [] },
    ],
  },
];

describe('the answers as the patient saw them', () => {
  it('says each answer in readable form, in the form’s order', () => {
    const steps = answerSteps(
      schema,
      {
        name: 'דנה לוי',
        birth: '15.05.90',
        smoking: 'past',
        allergies: false,
        details: 'נשאר מטיוטה',
        pregnant: true,
        sign: PNG,
      },
      '2027-03-24T08:00:00Z',
      'Asia/Jerusalem',
    );
    expect(steps.map((s) => s.title)).toEqual(['פרטים אישיים', 'חתימה']);
    expect(steps[0]?.blocks).toEqual([
      { kind: 'heading', text: 'שלום דנה' },
      { kind: 'text', paragraphs: ['שורה אחת', 'שורה שתיים'] },
      { kind: 'answer', label: 'שם', value: { kind: 'text', text: 'דנה לוי' } },
      // A two-digit year is read as the form reads it: 1990, never 2090.
      {
        kind: 'answer',
        label: 'תאריך לידה',
        value: { kind: 'date', date: { year: 1990, month: 5, day: 15 } },
      },
      { kind: 'answer', label: 'עישון', value: { kind: 'text', text: 'בעבר' } },
      { kind: 'answer', label: 'אלרגיות', value: { kind: 'no' } },
      // Hidden by its checkbox: not shown, whatever value was kept.
      { kind: 'answer', label: 'הריון', value: { kind: 'yes' } },
      // No title: the field's name; no answer: said as such.
      { kind: 'answer', label: 'notes', value: { kind: 'empty' } },
    ]);
    expect(steps[1]?.blocks).toEqual([
      { kind: 'text', paragraphs: ['אני מאשר/ת'] },
      { kind: 'signature', label: 'חתימת המטופל/ת', dataUrl: PNG },
      // The name was answered on the first step: shown once.
    ]);
  });

  it('shows a step its age condition showed on the day of the submit', () => {
    const values = { birth: '01/04/2009', sign: PNG };
    const before = answerSteps(schema, values, '2027-03-24T08:00:00Z', 'Asia/Jerusalem');
    expect(before.map((s) => s.title)).toContain('קטינים');
    const after = answerSteps(schema, values, '2027-04-02T08:00:00Z', 'Asia/Jerusalem');
    expect(after.map((s) => s.title)).not.toContain('קטינים');
    // The clinic's day, not the computer's: 31 March 22:30 UTC is already 1 April in Israel.
    const birthday = answerSteps(schema, values, '2027-03-31T22:30:00Z', 'Asia/Jerusalem');
    expect(birthday.map((s) => s.title)).not.toContain('קטינים');
  });

  it('never passes a signature that is not an image on', () => {
    const steps = answerSteps(
      schema,
      { sign: 'javascript:alert(1)' },
      '2027-03-24T08:00:00Z',
      'UTC',
    );
    expect(steps.at(-1)?.blocks).toContainEqual({
      kind: 'signature',
      label: 'חתימת המטופל/ת',
      dataUrl: null,
    });
  });

  it('reads values by their field type', () => {
    const [step] = schema;
    const field = (name: string) => {
      const found = step?.fields.find((f) => f.name === name);
      if (!found) throw new Error(name);
      return found;
    };
    expect(answerValue(field('smoking'), 'unknown', today)).toEqual({
      kind: 'text',
      text: 'unknown',
    });
    expect(answerValue(field('allergies'), undefined, today)).toEqual({ kind: 'no' });
    expect(answerValue(field('birth'), 'not a date', today)).toEqual({
      kind: 'text',
      text: 'not a date',
    });
    expect(answerValue(field('name'), '   ', today)).toEqual({ kind: 'empty' });
  });

  it('keeps only the text of html, by the page’s allow-list', () => {
    expect(
      browserHtmlParagraphs(
        '<p>one <a href="javascript:x">two</a></p><ul><li>a</li><li>b</li></ul>',
      ),
    ).toEqual(['one two', '• a', '• b']);
  });
});
