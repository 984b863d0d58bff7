import AppBar from '@mui/material/AppBar';
import Link from '@mui/material/Link';
import Toolbar from '@mui/material/Toolbar';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import logoUrl from '../../assets/marpe-logo.svg';
import { lazyOnOpen } from '../../lib/lazy-on-open';
import { hideVerifiedNotice, useVerifiedNotice } from '../../features/patient-auth/verified-notice';
import { LanguageMenu } from './language-menu';

const VerifiedSnackbar = lazyOnOpen(
  async () =>
    (await import('../../features/patient-auth/components/verified-snackbar')).VerifiedSnackbar,
);

export function TopBar() {
  const { t } = useTranslation();
  const verifiedNotice = useVerifiedNotice();
  return (
    <AppBar position="static" color="primary" elevation={0}>
      <Toolbar sx={{ justifyContent: 'space-between', gap: 2 }}>
        <Link
          component={RouterLink}
          to="/"
          color="inherit"
          underline="none"
          sx={{ display: 'inline-flex', alignItems: 'center', gap: 1.5, minHeight: 44 }}
        >
          {/* The brand text next to it already names the link. */}
          <img src={logoUrl} alt="" width={36} height={36} />
          <span style={{ fontSize: '1.375rem', fontWeight: 700 }}>{t('app.brand')}</span>
        </Link>
        <LanguageMenu />
      </Toolbar>
      {/* Here because the top bar stays as the login page gives way to the next one. */}
      <VerifiedSnackbar open={verifiedNotice} onClose={hideVerifiedNotice} />
    </AppBar>
  );
}
