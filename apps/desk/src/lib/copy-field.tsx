import ContentCopyIcon from './icons/content-copy';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useRef, useState } from 'react';

export interface CopyFieldProps {
  /** The field's label: what the value is ("The link", "API key"). */
  label: string;
  value: string;
  /** The button's name and the two outcomes, in the caller's words. */
  texts: { copy: string; copied: string; failed: string };
  helperText?: string;
  /** An element that says more about the value (a "shown once" warning). */
  describedBy?: string;
  fullWidth?: boolean;
}

/**
 * A value the server gives once (a link, a key, a secret), read-only, with a copy button; where
 * the browser refuses the clipboard (an http address, a refused permission) the value is selected
 * to copy by hand. The outcome is announced in a status line.
 */
export function CopyField({
  label,
  value,
  texts,
  helperText,
  describedBy,
  fullWidth,
}: CopyFieldProps) {
  const field = useRef<HTMLInputElement>(null);
  const [copy, setCopy] = useState<'idle' | 'copied' | 'failed'>('idle');

  async function copyValue() {
    try {
      await navigator.clipboard.writeText(value);
      setCopy('copied');
    } catch {
      field.current?.focus();
      field.current?.select();
      setCopy('failed');
    }
  }

  return (
    <>
      <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'flex-start' }}>
        <TextField
          inputRef={field}
          label={label}
          value={value}
          onFocus={(e) => e.target.select()}
          slotProps={{
            htmlInput: {
              readOnly: true,
              dir: 'ltr',
              spellCheck: false,
              ...(describedBy ? { 'aria-describedby': describedBy } : {}),
            },
          }}
          helperText={helperText}
          fullWidth={fullWidth}
        />
        <Button
          variant="contained"
          startIcon={<ContentCopyIcon />}
          onClick={() => void copyValue()}
          sx={{ flexShrink: 0, mt: 1 }}
        >
          {texts.copy}
        </Button>
      </Stack>
      <Typography role="status" sx={{ minHeight: '1.5em' }}>
        {copy === 'copied' ? texts.copied : copy === 'failed' ? texts.failed : ''}
      </Typography>
    </>
  );
}
