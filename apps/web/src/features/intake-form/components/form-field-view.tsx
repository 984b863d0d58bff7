import type { FormField, ValidationKind } from '@marpe/shared';
import { applyMask, maxTextAnswerLength } from '@marpe/shared/rules';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../../lib/text-field';
import { datePlaceholder, dottedDateMask, isDateField } from './date-field';
import { PatientText, usePatientLanguage } from './patient-language';
import { SafeHtml } from './safe-html';
import { SignaturePadField } from './signature-pad';

interface FormFieldViewProps {
  field: FormField;
  /** The control's id (the error summary links to it). */
  id: string;
  value: string | boolean | undefined;
  error: ValidationKind | undefined;
  onChange: (value: string | boolean) => void;
}

/** The required label's asterisk is red (docs/product/intake-form.md#the-page). */
const asteriskSx = { '& .MuiFormLabel-asterisk': { color: 'error.main' } } as const;

/**
 * One field of a step, by type (docs/forms.md#field-types). Each control is named after its field:
 * what a patient typed into the server's HTML finds its field by name in a page the app renders
 * afresh (ADR 025).
 */
export function FormFieldView({ field, id, value, error, onChange }: FormFieldViewProps) {
  const { t } = useTranslation();
  const { attributes } = usePatientLanguage();
  const required = field.validations.includes('required');
  const message = error ? <PatientText>{t(`intakeForm.errors.${error}`)}</PatientText> : undefined;
  const messageId = `${id}-message`;
  const text = typeof value === 'string' ? value : '';

  switch (field.type) {
    case 'title':
      return (
        <Typography component="h2" variant="h6" sx={{ mt: 1 }}>
          {field.title}
        </Typography>
      );
    case 'paragraph':
      return <Typography sx={{ whiteSpace: 'pre-line' }}>{field.title}</Typography>;
    case 'html':
      return <SafeHtml html={field.title} />;
    case 'text':
    case 'email': {
      const date = isDateField(field);
      const mask = field.mask && date ? dottedDateMask(field.mask) : field.mask;
      return (
        <TextField
          id={id}
          name={field.name}
          label={field.title}
          type={field.type === 'email' ? 'email' : 'text'}
          // A date kept as the clinic's mask wrote it (an earlier draft's 01/12/2026) shows dotted.
          value={mask && date ? applyMask(mask, text) : text}
          required={required}
          error={error !== undefined}
          helperText={message}
          placeholder={
            date ? datePlaceholder(field.placeholder, t('intakeForm.dateHint')) : field.placeholder
          }
          fullWidth
          onChange={(event) =>
            onChange(mask ? applyMask(mask, event.target.value) : event.target.value)
          }
          sx={asteriskSx}
          slotProps={{
            htmlInput: {
              readOnly: field.readonly,
              // The server refuses longer answers (drafts and submissions alike).
              maxLength: maxTextAnswerLength,
              ...(field.type === 'email' ? { dir: 'ltr', autoComplete: 'email' } : {}),
              ...(mask && /^[#\W]*$/.test(mask) ? { inputMode: 'numeric' } : {}),
            },
          }}
        />
      );
    }
    case 'select':
      return (
        <TextField
          id={id}
          name={field.name}
          select
          label={field.title}
          value={text}
          required={required}
          error={error !== undefined}
          helperText={message}
          fullWidth
          onChange={(event) => onChange(event.target.value)}
          sx={asteriskSx}
          slotProps={{ htmlInput: { disabled: field.readonly } }}
        >
          <option value="" lang={attributes.lang}>
            {t('intakeForm.choose')}
          </option>
          {(field.options ?? []).map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </TextField>
      );
    case 'checkbox':
      return (
        <FormControl error={error !== undefined} required={required}>
          <FormControlLabel
            label={field.title}
            sx={asteriskSx}
            required={required}
            control={
              <Checkbox
                id={id}
                name={field.name}
                checked={value === true}
                required={required}
                onChange={(event) => onChange(event.target.checked)}
                disabled={field.readonly}
                slotProps={{
                  input: {
                    'aria-invalid': error !== undefined || undefined,
                    'aria-describedby': message ? messageId : undefined,
                  },
                }}
              />
            }
          />
          {message && <FormHelperText id={messageId}>{message}</FormHelperText>}
        </FormControl>
      );
    case 'signature': {
      const labelId = `${id}-label`;
      return (
        <FormControl error={error !== undefined} required={required} fullWidth>
          <FormLabel id={labelId} sx={{ mb: 1, ...asteriskSx }}>
            {field.title}
          </FormLabel>
          <Box id={id} tabIndex={-1} sx={{ outline: 'none' }}>
            <SignaturePadField
              labelId={labelId}
              value={text}
              onChange={onChange}
              readOnly={field.readonly}
              invalid={error !== undefined}
              describedBy={message ? messageId : undefined}
            />
          </Box>
          {message && <FormHelperText id={messageId}>{message}</FormHelperText>}
        </FormControl>
      );
    }
  }
}
