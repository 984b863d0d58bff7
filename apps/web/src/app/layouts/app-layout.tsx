import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import { useEffect, useRef, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router';
import { keepsFocus } from '../../lib/keep-focus';
import { NavigationGuard } from '../navigation-guard';
import { TopBar } from './top-bar';

function focusMain(preferHeading: boolean) {
  const main = document.getElementById('main');
  const heading = preferHeading ? main?.querySelector<HTMLElement>('h1') : null;
  const target = heading ?? main;
  if (!target) return;
  if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
  target.focus();
}

/** After a client-side navigation, move focus to the new page's heading so screen readers announce it. */
function useFocusOnNavigation() {
  const { pathname, state } = useLocation();
  const previous = useRef(pathname);
  useEffect(() => {
    if (previous.current === pathname) return;
    previous.current = pathname;
    if (!keepsFocus(state)) focusMain(true);
  }, [pathname, state]);
}

function SkipLink() {
  const { t } = useTranslation();
  // Focus main directly: a bare #main would also become a router navigation.
  const onClick = (event: MouseEvent) => {
    event.preventDefault();
    focusMain(false);
  };
  return (
    <Link
      href="#main"
      onClick={onClick}
      sx={{
        position: 'absolute',
        insetInlineStart: 8,
        top: 8,
        zIndex: (theme) => theme.zIndex.tooltip + 1,
        px: 2,
        py: 1.5,
        bgcolor: 'background.paper',
        borderRadius: 1,
        boxShadow: 3,
        transform: 'translateY(-200%)',
        '&:focus': { transform: 'none' },
      }}
    >
      {t('app.skipToContent')}
    </Link>
  );
}

/** Root of every page: skip link, app bar, the page's own layout, and per-navigation effects. */
export function AppLayout({ publicOrigin }: { publicOrigin: string }) {
  useFocusOnNavigation();
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: '100dvh' }}>
      <SkipLink />
      <TopBar />
      <Outlet />
      <NavigationGuard publicOrigin={publicOrigin} />
    </Box>
  );
}
