import SearchOffIcon from '../icons/search-off';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { usePageTitle } from '../page-title';
import { StatusLayout } from '../status-layout';

/** A clinic address that names no clinic: the way home. */
export function ClinicNotFound() {
  const { t } = useTranslation();
  const heading = t('errors.clinic_not_found');
  usePageTitle(heading);
  return (
    <StatusLayout
      image={<SearchOffIcon sx={{ fontSize: 72, color: 'text.secondary' }} />}
      heading={heading}
      text={t('clinic.notFoundText')}
    >
      <Button component={RouterLink} to="/" variant="contained" sx={{ mt: 1 }}>
        {t('clinic.home')}
      </Button>
    </StatusLayout>
  );
}
