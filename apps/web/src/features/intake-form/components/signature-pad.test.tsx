import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../../test/render';
import { SignaturePadField } from './signature-pad';

function renderPad(language: 'he' | 'en' = 'he') {
  return renderWithProviders(
    <>
      <span id="label">Signature</span>
      <SignaturePadField labelId="label" value="" onChange={() => {}} />
    </>,
    { language },
  );
}

describe('SignaturePadField', () => {
  it('the empty pad shows "sign here" and is described by it', () => {
    renderPad();

    const pad = screen.getByRole('img', { name: /^משטח חתימה, ריק/ });
    expect(pad).toHaveAccessibleDescription('חתמו כאן');
    expect(screen.getByText('חתמו כאן')).toBeInTheDocument();
  });

  it('its lock button says what a press does, and a locked pad drops the hint', async () => {
    const user = userEvent.setup();
    renderPad('en');

    await user.click(screen.getByRole('button', { name: 'Lock signature against changes' }));
    expect(screen.getByRole('button', { name: 'Unlock to change signature' })).toBeInTheDocument();
    expect(screen.queryByText('Sign here')).not.toBeInTheDocument();
    expect(
      screen.getByRole('img', { name: /^Signature pad, empty/ }),
    ).not.toHaveAccessibleDescription();
    expect(screen.getByRole('button', { name: 'Type a name instead of drawing' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Unlock to change signature' }));
    expect(screen.getByText('Sign here')).toBeInTheDocument();
  });
});
