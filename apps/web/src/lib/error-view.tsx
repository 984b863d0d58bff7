import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

interface ErrorViewProps {
  /** Defaults to the generic error text. */
  message?: string;
  /** Defaults to reloading the page. */
  onRetry?: () => void;
}

/** Replaces a page whose content could not load, so it carries the page's h1. */
export function ErrorView({ message, onRetry }: ErrorViewProps) {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 3, py: 8 }}>
      <Typography component="h1" variant="h5" sx={{ textAlign: 'center' }}>
        {message ?? t('common.error')}
      </Typography>
      <Button variant="contained" onClick={onRetry ?? (() => window.location.reload())}>
        {t('common.reload')}
      </Button>
    </Box>
  );
}
