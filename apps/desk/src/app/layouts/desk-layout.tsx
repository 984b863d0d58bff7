import LogoutIcon from '../../lib/icons/logout';
import MenuIcon from '../../lib/icons/menu';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useQueryClient } from '@tanstack/react-query';
import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import type { StaffSession } from '@marpe/shared';
import { api } from '../../lib/api';
import { LanguageMenu } from '../../lib/language-menu';
import { NotifyProvider } from '../../lib/notify';
import { ClinicContext, sessionQueryKey, useCurrentClinic } from '../../lib/session';
import { PageLoading } from '../../lib/page-loading';
import { navGroupsFor } from '../../lib/navigation';
import { SessionEndedDialog } from './session-ended-dialog';

const drawerWidth = 232;

/**
 * The signed-in desk: a bar with the clinic (a switcher when the member works at several), the
 * language and sign-out; the side navigation the member's role may use (a drawer on a tablet);
 * the page. A skip link leads past the navigation to the page's heading.
 */
export function DeskLayout({ session }: { session: StaffSession }) {
  const { t } = useTranslation();
  const clinic = useCurrentClinic(session);
  const wide = useMediaQuery('(min-width:1024px)');
  const [open, setOpen] = useState(false);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();

  async function signOut() {
    await api('/api/staff-auth/sign-out', { method: 'POST' }).catch(() => undefined);
    // The session first: a page's query refetched while the rest is cleared must not read as a
    // session that ended under it (the sign-in dialog).
    queryClient.setQueryData(sessionQueryKey, null);
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionQueryKey[0] });
    void navigate('/sign-in', { replace: true });
  }

  const nav = (
    <Box component="nav" aria-label={t('nav.label')}>
      {navGroupsFor(clinic.role).map(({ group, items }) => (
        <List
          key={group}
          dense
          aria-labelledby={`nav-group-${group}`}
          subheader={
            <ListSubheader id={`nav-group-${group}`} disableSticky>
              {t(`nav.groups.${group}`)}
            </ListSubheader>
          }
        >
          {items.map((item) => (
            <ListItem key={item.path} disablePadding>
              <ListItemButton
                component={NavLink}
                to={item.path}
                onClick={() => setOpen(false)}
                selected={location.pathname.startsWith(item.path)}
              >
                <ListItemText primary={t(`nav.${item.label}`)} />
              </ListItemButton>
            </ListItem>
          ))}
        </List>
      ))}
    </Box>
  );

  return (
    <ClinicContext.Provider value={{ ...clinic, session }}>
      <NotifyProvider>
        <Link
          href="#main"
          sx={{
            position: 'absolute',
            insetInlineStart: 8,
            top: -48,
            zIndex: 2000,
            bgcolor: 'background.paper',
            p: 1,
            '&:focus': { top: 8 },
          }}
        >
          {t('skipToContent')}
        </Link>
        <AppBar position="fixed" elevation={1} sx={{ zIndex: (theme) => theme.zIndex.drawer + 1 }}>
          <Toolbar sx={{ gap: 1 }}>
            {wide ? null : (
              <IconButton
                color="inherit"
                edge="start"
                aria-label={t('nav.open')}
                aria-expanded={open}
                onClick={() => setOpen(true)}
              >
                <MenuIcon />
              </IconButton>
            )}
            <Typography component="p" sx={{ fontWeight: 700, whiteSpace: 'nowrap' }}>
              {t('app.name')}
            </Typography>
            <Box sx={{ flexGrow: 1, minWidth: 0, mx: 2 }}>
              {clinic.memberships.length > 1 ? (
                <TextField
                  select
                  size="small"
                  label={t('clinic.switch')}
                  value={clinic.clinicId}
                  onChange={(e) => clinic.switchClinic(Number(e.target.value))}
                  sx={{ maxWidth: 320, bgcolor: 'background.paper', borderRadius: 1 }}
                >
                  {clinic.memberships.map((m) => (
                    <MenuItem key={m.clinic_id} value={m.clinic_id}>
                      {m.clinic_name}
                    </MenuItem>
                  ))}
                </TextField>
              ) : (
                <Typography component="p" noWrap>
                  {clinic.clinicName}
                </Typography>
              )}
            </Box>
            <Typography component="p" noWrap sx={{ display: { xs: 'none', md: 'block' } }}>
              {session.account.name} · {t(`roles.${clinic.role}`)}
            </Typography>
            <LanguageMenu color="inherit" />
            <Button color="inherit" startIcon={<LogoutIcon />} onClick={() => void signOut()}>
              {t('signOut')}
            </Button>
          </Toolbar>
        </AppBar>
        <Box sx={{ display: 'flex' }}>
          {wide ? (
            <Drawer
              variant="permanent"
              sx={{
                width: drawerWidth,
                flexShrink: 0,
                '& .MuiDrawer-paper': { width: drawerWidth, boxSizing: 'border-box' },
              }}
            >
              <Toolbar />
              {nav}
            </Drawer>
          ) : (
            <Drawer
              open={open}
              onClose={() => setOpen(false)}
              sx={{ '& .MuiDrawer-paper': { width: drawerWidth } }}
            >
              {nav}
            </Drawer>
          )}
          <Box
            component="main"
            id="main"
            tabIndex={-1}
            sx={{ flexGrow: 1, minWidth: 0, p: { xs: 2, md: 3 }, bgcolor: 'background.default' }}
          >
            <Toolbar />
            <Suspense fallback={<PageLoading />}>
              <Outlet key={clinic.clinicId} />
            </Suspense>
          </Box>
        </Box>
        <SessionEndedDialog />
      </NotifyProvider>
    </ClinicContext.Provider>
  );
}
