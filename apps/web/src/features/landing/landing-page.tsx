import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import logoUrl from '../../assets/marpe-logo.svg';

/**
 * The home page. A patient who lands here (typed the address, or opened an old link) learns what
 * Marpe does for them and that the way to their clinic is the link the clinic sends: there is no
 * clinic list to browse. A clinic's people get the parent site.
 */
export function LandingPage({ parentSiteUrl }: { parentSiteUrl: string }) {
  const { t } = useTranslation();
  const patientsId = useId();
  return (
    <>
      <Link href={parentSiteUrl} sx={{ display: 'inline-block', mb: 3, borderRadius: '50%' }}>
        <img src={logoUrl} alt={t('landing.logoLink')} height={120} width={120} />
      </Link>
      <Typography
        component="h1"
        variant="h4"
        sx={{ fontSize: { xs: '1.75rem', sm: '2.125rem' }, textWrap: 'balance', mb: 1.5 }}
      >
        {t('landing.heading')}
      </Typography>
      <Typography component="p" variant="h6" color="textSecondary">
        {t('landing.tagline')}
      </Typography>
      <Box
        component="section"
        aria-labelledby={patientsId}
        sx={{
          mt: 4,
          p: { xs: 2.5, sm: 3 },
          width: '100%',
          maxWidth: '34rem',
          textAlign: 'start',
          border: 1,
          borderColor: 'divider',
          borderRadius: 2,
          display: 'flex',
          flexDirection: 'column',
          gap: 1.5,
        }}
      >
        <Typography id={patientsId} component="h2" variant="h6" sx={{ fontWeight: 700 }}>
          {t('landing.patients.heading')}
        </Typography>
        <Typography>{t('landing.patients.intro')}</Typography>
        <Typography component="h3" sx={{ fontWeight: 700, mt: 1 }}>
          {t('landing.patients.howHeading')}
        </Typography>
        <Typography>{t('landing.patients.how')}</Typography>
        <Typography color="textSecondary">{t('landing.patients.noLink')}</Typography>
      </Box>
      <Link href={parentSiteUrl} sx={{ mt: 3 }}>
        {t('landing.clinics')}
      </Link>
    </>
  );
}
