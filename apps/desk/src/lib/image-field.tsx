import UploadIcon from './icons/upload';
import Alert from '@mui/material/Alert';
import Avatar from '@mui/material/Avatar';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  imageContentTypes,
  MAX_IMAGE_BYTES,
  type ImageContentType,
  type UploadedImage,
} from '@marpe/shared';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from './api';
import { errorText } from './field-errors';

/**
 * An image the clinic shows patients (its logo, a caregiver's photo): a preview, a button that
 * uploads a PNG, JPEG or WebP of at most 1 MiB (checked here first, then by the server), and a
 * button that removes it. Calls `onChange` with the uploaded image's address, or null.
 */
export function ImageField({
  label,
  value,
  onChange,
  alt,
  error,
}: {
  label: string;
  value: string | null;
  onChange: (url: string | null) => void;
  /** What the image shows, for the preview's text alternative. */
  alt: string;
  error?: string | null;
}) {
  const { t } = useTranslation();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  async function upload(file: File) {
    setProblem(null);
    if (!(imageContentTypes as readonly string[]).includes(file.type)) {
      setProblem(t('image.type'));
      return;
    }
    if (file.size > MAX_IMAGE_BYTES) {
      setProblem(t('image.size', { max: MAX_IMAGE_BYTES / 1024 / 1024 }));
      return;
    }
    setBusy(true);
    try {
      const body = new Blob([await file.arrayBuffer()], { type: file.type as ImageContentType });
      const image = await api<UploadedImage>('/api/integration/images', { method: 'POST', body });
      onChange(image.url);
    } catch (failure) {
      setProblem(errorText(t, failure));
    } finally {
      setBusy(false);
    }
  }

  const shown = problem ?? error ?? null;
  return (
    <Stack spacing={1} role="group" aria-labelledby={`${id}-label`}>
      <Typography id={`${id}-label`} component="p" variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Stack direction="row" spacing={2} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Avatar
          src={value ?? undefined}
          alt={value ? alt : undefined}
          variant="rounded"
          sx={{ width: 72, height: 72, bgcolor: 'grey.200', color: 'text.secondary' }}
        >
          {value ? null : t('image.none')}
        </Avatar>
        <input
          ref={input}
          id={`${id}-file`}
          type="file"
          accept={imageContentTypes.join(',')}
          hidden
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (file) void upload(file);
          }}
        />
        <Button
          variant="outlined"
          startIcon={<UploadIcon />}
          loading={busy}
          onClick={() => input.current?.click()}
          aria-describedby={`${id}-help`}
        >
          {value ? t('image.replace') : t('image.upload')}
        </Button>
        {value ? (
          <Button color="error" onClick={() => onChange(null)} disabled={busy}>
            {t('image.remove')}
          </Button>
        ) : null}
      </Stack>
      <Typography id={`${id}-help`} variant="body2" color="text.secondary">
        {t('image.help')}
      </Typography>
      {shown ? <Alert severity="error">{shown}</Alert> : null}
    </Stack>
  );
}
