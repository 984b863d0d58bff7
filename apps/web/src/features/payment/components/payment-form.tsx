import { isReceiptEmail } from '@marpe/shared/rules';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../../lib/text-field';
import { InstalmentSplit } from './payment-details';

interface PaymentFormProps {
  /**
   * The most payments the clinic offers; the selector shows only above 1
   * (docs/product/payments.md#number-of-payments).
   */
  numPayments: number;
  /** The sum, split under the selector as the frame will charge it. */
  amountAgorot: number;
  email: string;
  payments: number;
  onEmailChange: (email: string) => void;
  onPaymentsChange: (payments: number) => void;
  /** Called with the trimmed email once it is valid. */
  onPay: (email: string) => void;
  /** Back from the frame: the submit button takes the focus again. */
  focusSubmit?: boolean;
  /** Said just before the submit button (where the card will be typed). */
  children?: ReactNode;
}

const emailId = 'payment-email';

/** Receipt email, number of payments and submit (docs/product/payments.md#the-page). */
export function PaymentForm({
  numPayments,
  amountAgorot,
  email,
  payments,
  onEmailChange,
  onPaymentsChange,
  onPay,
  focusSubmit = false,
  children,
}: PaymentFormProps) {
  const { t } = useTranslation();
  const [invalid, setInvalid] = useState(false);
  const emailRef = useRef<HTMLInputElement>(null);
  const submitRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (focusSubmit) submitRef.current?.focus();
  }, [focusSubmit]);

  const changeEmail = (value: string) => {
    onEmailChange(value);
    // Once marked, the message follows the value.
    if (invalid) setInvalid(!isReceiptEmail(value.trim()));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = email.trim();
    if (!isReceiptEmail(value)) {
      setInvalid(true);
      emailRef.current?.focus();
      return;
    }
    onPay(value);
  };

  return (
    <Box
      component="form"
      noValidate
      onSubmit={submit}
      sx={{ display: 'flex', flexDirection: 'column', gap: 2.5 }}
    >
      <TextField
        id={emailId}
        // Names let what was typed before the app took over the page carry into the page it
        // renders afresh in another language (lib/typed-before-app.ts).
        name="email"
        inputRef={emailRef}
        label={t('payment.email')}
        type="email"
        value={email}
        required
        error={invalid}
        helperText={invalid ? t('payment.invalidEmail') : undefined}
        fullWidth
        onChange={(event) => changeEmail(event.target.value)}
        slotProps={{
          htmlInput: { dir: 'ltr', autoComplete: 'email', spellCheck: false },
        }}
      />
      {numPayments > 1 && (
        <TextField
          id="payment-count"
          name="payments"
          select
          label={t('payment.payments')}
          value={String(payments)}
          fullWidth
          // The split before the frame opens, not only inside it (ADR 032): it describes the
          // choice.
          helperText={
            payments > 1 ? (
              <InstalmentSplit amountAgorot={amountAgorot} payments={payments} />
            ) : undefined
          }
          onChange={(event) => onPaymentsChange(Number(event.target.value))}
          slotProps={{ inputLabel: { shrink: true } }}
        >
          {Array.from({ length: numPayments }, (_, index) => index + 1).map((count) => (
            <option key={count} value={count}>
              {count === 1 ? t('payment.regular') : t('payment.paymentsCount', { count })}
            </option>
          ))}
        </TextField>
      )}
      {children}
      <Button
        ref={submitRef}
        type="submit"
        variant="contained"
        size="large"
        sx={{ alignSelf: { sm: 'flex-start' }, minWidth: { sm: 200 } }}
      >
        {t('payment.submit')}
      </Button>
    </Box>
  );
}
