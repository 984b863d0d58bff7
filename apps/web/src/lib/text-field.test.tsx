import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { labelShrinks, TextField, type TextFieldProps } from './text-field';

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

  describe('its label sits above the field whenever something shows inside it', () => {
    it.each([
      ['text', { type: 'text', placeholder: 'Dana' }],
      ['email', { type: 'email', placeholder: 'name@example.com' }],
      ['tel', { type: 'tel', placeholder: '050-1234567' }],
      ['date-like mask', { type: 'text', placeholder: 'DD/MM/YYYY' }],
      ['date', { type: 'date' }],
      ['time', { type: 'time' }],
      ['select', { select: true }],
    ] as const)('%s: shrunk', (_, props) => {
      expect(labelShrinks(props)).toBe(true);
    });

    it.each([
      ['text', { type: 'text' }],
      ['email', { type: 'email' }],
      ['tel', { type: 'tel' }],
      ['an empty placeholder', { type: 'text', placeholder: '' }],
      ['no type', {}],
    ] as const)('%s without a placeholder: left to focus and value', (_, props) => {
      expect(labelShrinks(props)).toBeUndefined();
    });

    it('an explicit choice wins', () => {
      expect(labelShrinks({ shrink: false, placeholder: 'DD/MM/YYYY' })).toBe(false);
      expect(labelShrinks({ shrink: true, type: 'text' })).toBe(true);
    });

    it.each([
      ['text', <TextField key="t" label="ID" value="" onChange={() => {}} placeholder="123" />],
      [
        'email',
        <TextField
          key="e"
          label="ID"
          type="email"
          value=""
          onChange={() => {}}
          placeholder="a@b.c"
        />,
      ],
      [
        'tel',
        <TextField key="p" label="ID" type="tel" value="" onChange={() => {}} placeholder="050" />,
      ],
      ['date', <TextField key="d" label="ID" type="date" value="" onChange={() => {}} />],
      [
        'select',
        <TextField key="s" label="ID" select value="" onChange={() => {}}>
          <option value="">Choose</option>
        </TextField>,
      ],
    ])('%s: the empty field renders its label shrunk, in a notch of the outline', (_, field) => {
      const { container } = render(field);
      const label = screen.getByText('ID', { selector: 'label' });
      expect(label).toHaveAttribute('data-shrink', 'true');
      expect(label).toHaveClass('MuiInputLabel-shrink');
      // The outline leaves a gap for the label: its legend, sized to the label's text, is open.
      const legend = container.querySelector('legend');
      expect(legend).toHaveTextContent('ID');
      expect(legend && getComputedStyle(legend).maxWidth).toBe('100%');
    });

    it('an empty field without a placeholder keeps its label inside until focused', async () => {
      const user = userEvent.setup();
      const { container } = render(<Controlled label="Name" />);
      const label = screen.getByText('Name', { selector: 'label' });
      expect(label).toHaveAttribute('data-shrink', 'false');
      const legend = container.querySelector('legend');
      expect(legend && getComputedStyle(legend).maxWidth).toBe('0.01px');
      await user.click(screen.getByRole('textbox', { name: 'Name' }));
      expect(label).toHaveAttribute('data-shrink', 'true');
    });
  });
});
