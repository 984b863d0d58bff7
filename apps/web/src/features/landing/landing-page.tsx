import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import logoUrl from '../../assets/marpe-logo.svg';

export function LandingPage({ parentSiteUrl }: { parentSiteUrl: string }) {
  const { t } = useTranslation();
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
    </>
  );
}
