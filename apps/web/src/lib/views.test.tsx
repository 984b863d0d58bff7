import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it, vi } from 'vitest';
import i18next from 'i18next';
import { ErrorView } from './error-view';
import { LoadingView } from './loading-view';

// lib may not import the app, so a bare i18next instance with the two keys stands in.
const i18n = i18next.createInstance();
void i18n.init({
  lng: 'he',
  initAsync: false,
  resources: {
    he: {
      translation: {
        common: { loading: 'טוען…', error: 'אירעה שגיאה', reload: 'טעינה מחדש' },
      },
    },
  },
});

describe('LoadingView', () => {
  it('is a status with a labelled progress indicator', () => {
    render(
      <I18nextProvider i18n={i18n}>
        <LoadingView />
      </I18nextProvider>,
    );

    expect(screen.getByRole('status')).toContainElement(
      screen.getByRole('progressbar', { name: 'טוען…' }),
    );
  });
});

describe('ErrorView', () => {
  it('shows the message as the page heading and retries', async () => {
    const onRetry = vi.fn();
    render(
      <I18nextProvider i18n={i18n}>
        <ErrorView onRetry={onRetry} />
      </I18nextProvider>,
    );

    expect(screen.getByRole('heading', { level: 1, name: 'אירעה שגיאה' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'טעינה מחדש' }));
    expect(onRetry).toHaveBeenCalledOnce();
  });

  it('shows a specific message', () => {
    render(
      <I18nextProvider i18n={i18n}>
        <ErrorView message="שגיאה בטעינת הטופס" onRetry={() => undefined} />
      </I18nextProvider>,
    );

    expect(screen.getByRole('heading', { name: 'שגיאה בטעינת הטופס' })).toBeInTheDocument();
  });
});
