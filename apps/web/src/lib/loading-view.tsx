import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { useTranslation } from 'react-i18next';

/** Stand-in while a page or its data loads. */
export function LoadingView() {
  const { t } = useTranslation();
  return (
    <Box
      role="status"
      sx={{ display: 'flex', justifyContent: 'center', alignItems: 'center', py: 8 }}
    >
      <CircularProgress aria-label={t('common.loading')} />
    </Box>
  );
}
