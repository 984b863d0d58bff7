// Over 400 lines: the form engine's rules and their properties over one set of field fixtures.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkDraft,
  defaultInputData,
  isVisible,
  parseCondition,
  pruneHidden,
  resolveForm,
  validateStep,
  validateSubmission,
} from './engine.js';
import { fieldTypeRegistry } from './registry.js';
import type { FormField, FormSchema, InputData } from './schema.js';
import { fieldTypes, formSchemaSchema } from './schema.js';
import { addDays, calendarDate, dmy } from './testing.js';

const today = { year: 2026, month: 11, day: 21 };
const png = 'data:image/png;base64,iVBORw0KGgo=';

function field(name: string, type: FormField['type'], extra: Partial<FormField> = {}): FormField {
  return { name, type, title: '', validations: [], ...extra };
}

const schema: FormSchema = formSchemaSchema.parse([
  {
    title: 'פרטים אישיים',
    next_button: 'הבא',
    fields: [
      { name: 'intro', type: 'title', title: 'שלום {{initData.firstName}}' },
      {
        name: 'fullName',
        type: 'text',
        validations: ['required'],
        default: '{{initData.fullName}}',
      },
      { name: 'email', type: 'email', validations: ['emailFormat'] },
      {
        name: 'birthDate',
        type: 'text',
        validations: ['required', 'birthDateFormat'],
        mask: '##/##/####',
      },
      { name: 'guardian', type: 'text', conditions: 'birthDate:age<18', validations: ['required'] },
      { name: 'smoker', type: 'checkbox' },
      { name: 'cigarettes', type: 'text', conditions: 'smoker', validations: ['required'] },
    ],
  },
  {
    title: 'חתימה',
    next_button: 'שליחה',
    prev_button: 'הקודם',
    fields: [
      {
        name: 'gender',
        type: 'select',
        options: [
          { value: 'f', label: 'אישה' },
          { value: 'm', label: 'גבר' },
        ],
      },
      { name: 'consent', type: 'checkbox', validations: ['required'] },
      { name: 'signature', type: 'signature', conditions: 'consent', validations: ['required'] },
      { name: 'note', type: 'html', title: '<b>{{initData.clinic}}</b>' },
    ],
  },
]);

describe('parseCondition', () => {
  it('reads field names and age conditions', () => {
    expect(parseCondition(undefined)).toBeNull();
    expect(parseCondition('  ')).toBeNull();
    expect(parseCondition('smoker')).toEqual({ kind: 'truthy', field: 'smoker' });
    expect(parseCondition('birthDate:age>18')).toEqual({
      kind: 'age',
      field: 'birthDate',
      operator: '>',
      years: 18,
    });
    expect(parseCondition(' birthDate : age < 7 ')).toEqual({
      kind: 'age',
      field: 'birthDate',
      operator: '<',
      years: 7,
    });
    expect(parseCondition('birthDate:age=0')).toEqual({
      kind: 'age',
      field: 'birthDate',
      operator: '=',
      years: 0,
    });
    expect(parseCondition('birthDate:age>=18')).toEqual({
      kind: 'truthy',
      field: 'birthDate:age>=18',
    });
  });
});

describe('isVisible', () => {
  it('shows a field with no condition', () => {
    expect(isVisible(field('a', 'text'), {}, today)).toBe(true);
  });

  it('shows a field when the named field is truthy', () => {
    const f = field('a', 'text', { conditions: 'smoker' });
    expect(isVisible(f, { smoker: true }, today)).toBe(true);
    expect(isVisible(f, { smoker: 'כן' }, today)).toBe(true);
    expect(isVisible(f, { smoker: false }, today)).toBe(false);
    expect(isVisible(f, { smoker: '' }, today)).toBe(false);
    expect(isVisible(f, {}, today)).toBe(false);
  });

  it('compares age: > means at least N, on the birthday itself', () => {
    const adult = field('a', 'text', { conditions: 'birthDate:age>18' });
    expect(isVisible(adult, { birthDate: '21/11/2008' }, today)).toBe(true);
    expect(isVisible(adult, { birthDate: '22/11/2008' }, today)).toBe(false);
    const minor = field('a', 'text', { conditions: 'birthDate:age<18' });
    expect(isVisible(minor, { birthDate: '21/11/2008' }, today)).toBe(false);
    expect(isVisible(minor, { birthDate: '22/11/2008' }, today)).toBe(true);
    const exactly = field('a', 'text', { conditions: 'birthDate:age=18' });
    expect(isVisible(exactly, { birthDate: '21/11/2008' }, today)).toBe(true);
    expect(isVisible(exactly, { birthDate: '22/11/2007' }, today)).toBe(true);
    expect(isVisible(exactly, { birthDate: '21/11/2007' }, today)).toBe(false);
  });

  it('counts a 29 February birthday on 1 March in non-leap years', () => {
    const adult = field('a', 'text', { conditions: 'birthDate:age>18' });
    const birthDate = '29/02/2008';
    expect(isVisible(adult, { birthDate }, { year: 2026, month: 2, day: 28 })).toBe(false);
    expect(isVisible(adult, { birthDate }, { year: 2026, month: 3, day: 1 })).toBe(true);
    expect(isVisible(adult, { birthDate: '29/02/2004' }, { year: 2022, month: 2, day: 28 })).toBe(
      false,
    );
    expect(isVisible(adult, { birthDate: '29/02/2004' }, { year: 2022, month: 3, day: 1 })).toBe(
      true,
    );
  });

  it('reads dots, dashes and 2-digit years like dateFormat', () => {
    const adult = field('a', 'text', { conditions: 'birthDate:age>18' });
    expect(isVisible(adult, { birthDate: '01.01.1990' }, today)).toBe(true);
    expect(isVisible(adult, { birthDate: '01-01-90' }, today)).toBe(true);
  });

  it('hides the field when the date is missing or malformed', () => {
    for (const op of ['>', '<', '=']) {
      const f = field('a', 'text', { conditions: `birthDate:age${op}0` });
      for (const birthDate of [undefined, '', 'abc', '31/02/2000', '1/1/2000', true]) {
        const data: InputData = birthDate === undefined ? {} : { birthDate };
        expect(isVisible(f, data, today), `${op} ${String(birthDate)}`).toBe(false);
      }
    }
  });

  it('makes >N and <N complementary for every valid date, and =N their boundary', () => {
    fc.assert(
      fc.property(calendarDate(1900, 2026), fc.integer({ min: 0, max: 130 }), (birth, n) => {
        const data = { birthDate: dmy(birth) };
        const gt = isVisible({ conditions: `birthDate:age>${n}` }, data, today);
        const lt = isVisible({ conditions: `birthDate:age<${n}` }, data, today);
        const eq = isVisible({ conditions: `birthDate:age=${n}` }, data, today);
        const eqNext = isVisible(
          { conditions: `birthDate:age=${n}` },
          { birthDate: dmy(addDays(birth, -1)) },
          today,
        );
        return gt !== lt && (!eq || gt) && (eq || !eqNext || lt);
      }),
    );
  });

  it('flips >N exactly on the Nth birthday', () => {
    fc.assert(
      fc.property(calendarDate(1900, 2000), fc.integer({ min: 1, max: 100 }), (birth, n) => {
        if (birth.month === 2 && birth.day === 29) return true;
        const birthday = { ...birth, year: birth.year + n };
        const cond = { conditions: `birthDate:age>${n}` };
        const data = { birthDate: dmy(birth) };
        return isVisible(cond, data, birthday) && !isVisible(cond, data, addDays(birthday, -1));
      }),
    );
  });
});

describe('pruneHidden', () => {
  it('deletes values of fields that became hidden', () => {
    expect(
      pruneHidden(schema, { smoker: false, cigarettes: '10', fullName: 'דנה' }, today),
    ).toEqual({
      smoker: false,
      fullName: 'דנה',
    });
    expect(pruneHidden(schema, { smoker: true, cigarettes: '10' }, today)).toEqual({
      smoker: true,
      cigarettes: '10',
    });
  });

  it('deletes along chains of conditions', () => {
    const chained: FormSchema = [
      {
        title: '',
        next_button: '',
        fields: [
          field('a', 'checkbox'),
          field('b', 'checkbox', { conditions: 'a' }),
          field('c', 'text', { conditions: 'b' }),
        ],
      },
    ];
    expect(pruneHidden(chained, { a: false, b: true, c: 'x' }, today)).toEqual({ a: false });
    expect(pruneHidden(chained, { b: true, c: 'x' }, today)).toEqual({});
  });

  it('keeps a value while a visible field of the same name remains', () => {
    const twins: FormSchema = [
      {
        title: '',
        next_button: '',
        fields: [
          field('adult', 'checkbox'),
          field('phone', 'text', { conditions: 'adult' }),
          field('phone', 'text', { conditions: 'minor' }),
          field('minor', 'checkbox'),
        ],
      },
    ];
    expect(pruneHidden(twins, { adult: false, minor: true, phone: '050' }, today)).toEqual({
      adult: false,
      minor: true,
      phone: '050',
    });
    expect(pruneHidden(twins, { adult: false, minor: false, phone: '050' }, today)).toEqual({
      adult: false,
      minor: false,
    });
  });

  it('leaves unrelated keys, is idempotent, and leaves only visible fields’ values', () => {
    const value = fc.oneof(fc.boolean(), fc.constantFrom('', 'x', '01/01/2000', '01/01/2020'));
    const data = fc.record(
      {
        fullName: value,
        birthDate: value,
        guardian: value,
        smoker: value,
        cigarettes: value,
        consent: value,
        signature: value,
        other: value,
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(data, (input) => {
        const out = pruneHidden(schema, input, today);
        const fields = schema.flatMap((s) => s.fields);
        const allVisible = Object.keys(out).every(
          (key) =>
            fields.filter((f) => f.name === key).every((f) => isVisible(f, out, today)) ||
            !fields.some((f) => f.name === key),
        );
        return (
          allVisible &&
          out.other === input.other &&
          JSON.stringify(pruneHidden(schema, out, today)) === JSON.stringify(out)
        );
      }),
    );
  });
});

describe('validateStep', () => {
  const [first, second] = schema as [FormSchema[number], FormSchema[number]];

  it('checks visible fields with validations, cleaning text first', () => {
    expect(validateStep(first, { fullName: ' \u200f ', birthDate: '01/01/1990' }, today)).toEqual({
      fullName: 'required',
    });
    expect(
      validateStep(first, { fullName: 'דנה', birthDate: '01/01/1800', email: 'x' }, today),
    ).toEqual({
      birthDate: 'birthDateFormat',
      email: 'emailFormat',
    });
    expect(
      validateStep(
        first,
        { fullName: 'דנה', birthDate: '01.01.90', email: ' dana@example.com\u200b' },
        today,
      ),
    ).toEqual({});
  });

  it('skips hidden fields and checks them once shown', () => {
    const adult = { fullName: 'דנה', birthDate: '01/01/1990' };
    expect(validateStep(first, adult, today)).toEqual({});
    expect(validateStep(first, { ...adult, birthDate: '01/01/2015' }, today)).toEqual({
      guardian: 'required',
    });
    expect(validateStep(first, { ...adult, smoker: true }, today)).toEqual({
      cigarettes: 'required',
    });
  });

  it('wants a ticked required checkbox and then the signature it reveals', () => {
    expect(validateStep(second, {}, today)).toEqual({ consent: 'required' });
    expect(validateStep(second, { consent: true }, today)).toEqual({ signature: 'required' });
    expect(validateStep(second, { consent: true, signature: png }, today)).toEqual({});
  });

  it('never checks title, paragraph or html fields', () => {
    const display: FormSchema[number] = {
      title: '',
      next_button: '',
      fields: (['title', 'paragraph', 'html'] as const).map((type) =>
        field(type, type, { validations: ['required'] }),
      ),
    };
    expect(validateStep(display, {}, today)).toEqual({});
  });
});

describe('validateSubmission', () => {
  const good = {
    fullName: '  דנה כהן\u200f ',
    email: 'dana@example.com',
    birthDate: '01.02.90',
    smoker: false,
    gender: 'f',
    consent: true,
    signature: png,
  };

  it('accepts a good submission and stores cleaned, normalised values', () => {
    expect(validateSubmission(schema, good, today)).toEqual({
      values: { ...good, fullName: 'דנה כהן', birthDate: '01/02/1990' },
      errors: {},
    });
  });

  it('drops hidden fields’ values without error', () => {
    const result = validateSubmission(
      schema,
      { ...good, cigarettes: '20', guardian: 'אבא' },
      today,
    );
    expect(result.errors).toEqual({});
    expect(result.values).not.toHaveProperty('cigarettes');
    expect(result.values).not.toHaveProperty('guardian');
  });

  it('applies every step’s validations', () => {
    const { errors } = validateSubmission(
      schema,
      { ...good, fullName: '', birthDate: '01/01/2015', consent: false },
      today,
    );
    expect(errors).toEqual({ fullName: 'required', guardian: 'required', consent: 'required' });
  });

  it('refuses options, signatures and value types that do not fit', () => {
    expect(validateSubmission(schema, { ...good, gender: 'x' }, today).errors).toEqual({
      gender: 'invalid_option',
    });
    expect(
      validateSubmission(schema, { ...good, signature: 'data:image/gif;base64,AAAA' }, today)
        .errors,
    ).toEqual({
      signature: 'invalid_signature',
    });
    expect(validateSubmission(schema, { ...good, smoker: 'yes' }, today).errors).toEqual({
      smoker: 'invalid_value',
      cigarettes: 'required', // 'yes' is truthy, so the condition shows it
    });
    expect(validateSubmission(schema, { ...good, fullName: true }, today).errors).toEqual({
      fullName: 'invalid_value',
    });
  });

  it('reports keys that name no value-holding field', () => {
    expect(validateSubmission(schema, { ...good, hacker: 'x', intro: 'y' }, today).errors).toEqual({
      hacker: 'unknown_field',
      intro: 'unknown_field',
    });
  });

  it('accepts an empty optional select', () => {
    const result = validateSubmission(schema, { ...good, gender: '' }, today);
    expect(result.errors).toEqual({});
  });

  it('forces a readonly field to its default', () => {
    const ro: FormSchema = [
      {
        title: '',
        next_button: '',
        fields: [field('id', 'text', { readonly: true, default: '123' })],
      },
    ];
    expect(validateSubmission(ro, { id: '999' }, today).values).toEqual({ id: '123' });
    expect(validateSubmission(ro, {}, today).values).toEqual({ id: '123' });
  });

  it('keeps only visible value-holding fields for any input', () => {
    const value = fc.oneof(
      fc.boolean(),
      fc.string({ maxLength: 5 }),
      fc.constantFrom('01/01/2000', png, 'f'),
    );
    const keys = [
      'fullName',
      'email',
      'birthDate',
      'guardian',
      'smoker',
      'cigarettes',
      'gender',
      'consent',
      'signature',
    ];
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...keys), value), (input) => {
        const { values, errors } = validateSubmission(schema, input, today);
        const pruned = pruneHidden(schema, input, today);
        const fields = schema.flatMap((s) => s.fields);
        return (
          Object.keys(errors).every((k) => keys.includes(k)) &&
          Object.keys(values).every((k) =>
            fields.some((f) => f.name === k && isVisible(f, pruned, today)),
          )
        );
      }),
    );
  });
});

describe('resolveForm', () => {
  it('resolves titles and string defaults; unresolved defaults become empty; html values escaped', () => {
    const resolved = resolveForm(schema, { firstName: 'דנה', clinic: 'שן & <חיוך>' });
    const fields = resolved.flatMap((s) => s.fields);
    expect(fields.find((f) => f.name === 'intro')?.title).toBe('שלום דנה');
    expect(fields.find((f) => f.name === 'fullName')?.default).toBe('');
    expect(fields.find((f) => f.name === 'note')?.title).toBe('<b>שן &amp; &lt;חיוך&gt;</b>');
    expect(
      resolveForm(schema, { fullName: 'דנה כהן' })
        .flatMap((s) => s.fields)
        .find((f) => f.name === 'fullName')?.default,
    ).toBe('דנה כהן');
    expect(formSchemaSchema.safeParse(resolved).success).toBe(true);
  });

  it('leaves the given schema untouched', () => {
    const before = JSON.stringify(schema);
    resolveForm(schema, { firstName: 'x' });
    expect(JSON.stringify(schema)).toBe(before);
  });
});

describe('defaultInputData', () => {
  it('starts from defaults of the right type', () => {
    const s: FormSchema = [
      {
        title: '',
        next_button: '',
        fields: [
          field('a', 'text', { default: 'x' }),
          field('b', 'checkbox', { default: true }),
          field('c', 'checkbox', { default: 'yes' }),
          field('d', 'title', { default: 'no' }),
          field('a', 'text', { default: 'second' }),
        ],
      },
    ];
    expect(defaultInputData(s)).toEqual({ a: 'x', b: true });
  });
});

describe('checkDraft', () => {
  it('accepts a half-filled form as typed: blanks, bad formats, hidden fields and all', () => {
    expect(
      checkDraft(schema, {
        fullName: '  דנה ',
        email: 'not-an-email',
        birthDate: '31/02',
        guardian: 'x',
        smoker: false,
        gender: '',
        consent: true,
        signature: png,
      }),
    ).toEqual({});
  });

  it('refuses unknown keys, display fields, wrong types and bad shapes', () => {
    expect(
      checkDraft(schema, {
        nope: 'x',
        note: 'x',
        smoker: 'yes',
        fullName: true,
        gender: 'x',
        signature: 'data:text/html,<script>',
      }),
    ).toEqual({
      nope: 'unknown_field',
      note: 'unknown_field',
      smoker: 'invalid_value',
      fullName: 'invalid_value',
      gender: 'invalid_option',
      signature: 'invalid_signature',
    });
  });

  it('lets any field of a shared name accept its value', () => {
    const shared: FormSchema = [
      {
        title: '',
        next_button: '',
        fields: [
          field('answer', 'checkbox'),
          field('answer', 'select', { options: [{ value: 'a', label: 'A' }] }),
        ],
      },
    ];
    expect(checkDraft(shared, { answer: true })).toEqual({});
    expect(checkDraft(shared, { answer: 'a' })).toEqual({});
    expect(checkDraft(shared, { answer: 'b' })).toEqual({ answer: 'invalid_option' });
  });
});

describe('fieldTypeRegistry', () => {
  it('covers every field type; display types hold no value and are not validated', () => {
    expect(Object.keys(fieldTypeRegistry).sort()).toEqual([...fieldTypes].sort());
    for (const type of ['html', 'title', 'paragraph'] as const) {
      expect(fieldTypeRegistry[type]).toMatchObject({ hasValue: false, validated: false });
    }
    expect(fieldTypes.filter((t) => fieldTypeRegistry[t].cleans)).toEqual(['text', 'email']);
  });
});

describe('docs/forms.md example', () => {
  it('parses, resolves and accepts the submission it describes', async () => {
    const { readFile } = await import('node:fs/promises');
    const doc = await readFile(new URL('../../../../docs/forms.md', import.meta.url), 'utf8');
    const json = /```json\n([\s\S]*?)\n```/.exec(doc)?.[1] ?? '';
    const example = resolveForm(formSchemaSchema.parse(JSON.parse(json)), {
      firstName: 'דנה',
      fullName: 'דנה כהן',
      idNumber: '123456782',
      clinicName: 'מרפאת שן',
    });
    expect(example[0]?.fields[0]?.title).toBe('שלום דנה, נא למלא את הטופס');
    const input = {
      ...defaultInputData(example),
      phone: '050-1234567',
      birthDate: '01.02.90',
      smoker: false,
      consent: true,
      signature: png,
    };
    expect(validateSubmission(example, input, today)).toEqual({
      values: {
        fullName: 'דנה כהן',
        idNumber: '123456782',
        phone: '050-1234567',
        birthDate: '01/02/1990',
        smoker: false,
        consent: true,
        signature: png,
      },
      errors: {},
    });
    expect(
      validateStep(example[0] as FormSchema[number], { ...input, birthDate: '01/02/2015' }, today),
    ).toEqual({ guardianName: 'required' });
  });
});
