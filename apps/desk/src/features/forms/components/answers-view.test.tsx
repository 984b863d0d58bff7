import type { FormSchema } from '@marpe/shared';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { initDeskI18n } from '../../../app/i18n/init';
import { createDeskQueryClient, DeskProviders } from '../../../app/providers';
import { AnswersView } from './answers-view';

const PNG = 'data:image/png;base64,iVBORw0KGgo=';

const schema: FormSchema = [
  {
    title: 'Your details',
    next_button: 'Next',
    is_ltr: true,
    fields: [
      { name: 'welcome', type: 'title', title: 'Hello Dana', validations: [] },
      { name: 'birth', type: 'text', title: 'Date of birth', validations: ['birthDateFormat'] },
      {
        name: 'smoking',
        type: 'select',
        title: 'Smoking',
        options: [
          { value: 'never', label: 'Never' },
          { value: 'past', label: 'In the past' },
        ],
        validations: [],
      },
      { name: 'allergies', type: 'checkbox', title: 'Allergies', validations: [] },
      { name: 'consent', type: 'checkbox', title: 'I agree', validations: [] },
      { name: 'notes', type: 'text', title: 'Notes', validations: [] },
      { name: 'sign', type: 'signature', title: 'Signature of the patient', validations: [] },
    ],
  },
];

async function renderAnswers(language: 'he' | 'en') {
  const i18n = await initDeskI18n(language);
  render(
    <DeskProviders i18n={i18n} queryClient={createDeskQueryClient()}>
      <AnswersView
        schema={schema}
        values={{
          birth: '15/05/1990',
          smoking: 'past',
          allergies: true,
          consent: false,
          sign: PNG,
        }}
        submittedAt="2027-03-24T08:00:00Z"
        timeZone="Asia/Jerusalem"
      />
    </DeskProviders>,
  );
}

/** The answer a question's term is followed by. */
const answerTo = (question: string) => {
  const term = screen.getByText(question, { selector: 'dt' });
  const answer = term.nextElementSibling;
  if (!(answer instanceof HTMLElement)) throw new Error(`no answer to ${question}`);
  return answer;
};

describe('the answers view', () => {
  it('says each answer in readable form (English)', async () => {
    await renderAnswers('en');
    expect(screen.getByRole('heading', { level: 3, name: 'Your details' })).toBeVisible();
    expect(screen.getByRole('heading', { level: 4, name: 'Hello Dana' })).toBeVisible();
    expect(answerTo('Date of birth')).toHaveTextContent('15 May 1990');
    expect(answerTo('Smoking')).toHaveTextContent('In the past');
    expect(answerTo('Allergies')).toHaveTextContent('Yes');
    expect(answerTo('I agree')).toHaveTextContent('No');
    expect(answerTo('Notes')).toHaveTextContent('Not filled in');
    const signature = within(answerTo('Signature of the patient')).getByRole('img', {
      name: 'Signature: Signature of the patient',
    });
    expect(signature).toHaveAttribute('src', PNG);
  });

  it('says dates and yes/no in Hebrew', async () => {
    await renderAnswers('he');
    expect(answerTo('Date of birth')).toHaveTextContent('15 במאי 1990');
    expect(answerTo('Allergies')).toHaveTextContent('כן');
    expect(answerTo('I agree')).toHaveTextContent('לא');
  });
});
