import SearchOffIcon from '../icons/search-off';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { usePageTitle } from '../page-title';

export function ClinicNotFound() {
  const { t } = useTranslation();
  const heading = t('errors.clinic_not_found');
  usePageTitle(heading);
  return (
    <Box
      sx={{
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        textAlign: 'center',
        gap: 2,
        py: 6,
      }}
    >
      <SearchOffIcon sx={{ fontSize: 72, color: 'text.secondary' }} />
      <Typography component="h1" variant="h4">
        {heading}
      </Typography>
      <Typography sx={{ maxWidth: '36em' }}>{t('clinic.notFoundText')}</Typography>
      <Button component={RouterLink} to="/" variant="contained" sx={{ mt: 1 }}>
        {t('clinic.home')}
      </Button>
    </Box>
  );
}
