import type { Clinic } from '@marpe/shared';
import ArrowBackIcon from '../icons/arrow-back';
import ArrowForwardIcon from '../icons/arrow-forward';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';

/**
 * The link back to the clinic page atop the pages that follow it
 * (docs/product/clinic-page.md#back-link).
 */
export function BackToClinic({ clinicId }: { clinicId: number }) {
  const { t } = useTranslation();
  const theme = useTheme();
  // "Back" points the way the page reads from: right in Hebrew.
  const BackIcon = theme.direction === 'rtl' ? ArrowForwardIcon : ArrowBackIcon;
  return (
    <Button
      component={RouterLink}
      to={`/clinic/${clinicId}`}
      startIcon={<BackIcon />}
      sx={{ alignSelf: 'flex-start', marginInlineStart: -1 }}
    >
      {t('clinic.backToClinic')}
    </Button>
  );
}

/** The clinic's logo and name, so the patient knows whose page this is. */
export function ClinicBadge({ clinic }: { clinic: Clinic }) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
      {/* The clinic's name follows, so the logo is decorative. */}
      <Avatar
        src={clinic.logo_url ?? undefined}
        alt=""
        sx={{
          width: 64,
          height: 64,
          bgcolor: 'background.paper',
          color: 'text.primary',
          border: 1,
          borderColor: 'divider',
          '& img': { objectFit: 'contain' },
        }}
      >
        {clinic.logo_url ? undefined : <span aria-hidden="true">{clinic.name.slice(0, 1)}</span>}
      </Avatar>
      <Typography sx={{ fontWeight: 500, fontSize: '1.125rem' }}>
        <bdi>{clinic.name}</bdi>
      </Typography>
    </Box>
  );
}
