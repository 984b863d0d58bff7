import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { TextField, type TextFieldProps } from './text-field';

function Controlled(props: Omit<TextFieldProps, 'value' | 'onChange'>) {
  const [value, setValue] = useState('');
  return <TextField {...props} value={value} onChange={(event) => setValue(event.target.value)} />;
}

describe('TextField', () => {
  it('is a named, required text box that takes typing', async () => {
    const user = userEvent.setup();
    render(<Controlled name="phone" label="Phone" type="tel" required />);

    const box = screen.getByRole('textbox', { name: 'Phone' });
    expect(box).toBeRequired();
    expect(box).toHaveAttribute('name', 'phone');
    expect(box).toHaveAttribute('type', 'tel');
    expect(box).toHaveAttribute('aria-invalid', 'false');
    expect(box).not.toHaveAccessibleDescription();

    await user.type(box, '050');
    expect(box).toHaveValue('050');
  });

  it('is described by its helper text and marked invalid on error', () => {
    render(
      <TextField
        id="code"
        label="Code"
        value=""
        onChange={() => {}}
        error
        helperText="Wrong code"
      />,
    );

    const box = screen.getByRole('textbox', { name: 'Code' });
    expect(box).toBeInvalid();
    expect(box).toHaveAccessibleDescription('Wrong code');
    expect(screen.getByText('Wrong code')).toHaveAttribute('id', 'code-helper-text');
    expect(screen.getByText('Code', { selector: 'label' })).toHaveAttribute('id', 'code-label');
  });

  it('passes input attributes on, letting them replace the description', () => {
    render(
      <>
        <p id="sent">Sent to 1234</p>
        <TextField
          label="Code"
          value=""
          onChange={() => {}}
          helperText="Wrong code"
          slotProps={{ htmlInput: { inputMode: 'numeric', 'aria-describedby': 'sent' } }}
        />
      </>,
    );

    const box = screen.getByRole('textbox', { name: 'Code' });
    expect(box).toHaveAttribute('inputmode', 'numeric');
    expect(box).toHaveAccessibleDescription('Sent to 1234');
  });

  it('is a native select with its options when `select` is set', async () => {
    const user = userEvent.setup();
    render(
      <Controlled name="payments" label="Payments" select error helperText="Choose one">
        <option value="">Choose</option>
        <option value="2">2 payments</option>
      </Controlled>,
    );

    const select = screen.getByRole('combobox', { name: 'Payments' });
    expect(select.tagName).toBe('SELECT');
    expect(select).toHaveAttribute('name', 'payments');
    expect(select).toBeInvalid();
    expect(select).toHaveAccessibleDescription('Choose one');

    await user.selectOptions(select, '2 payments');
    expect(select).toHaveValue('2');
  });
});
