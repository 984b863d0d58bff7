import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import { VisuallyHidden } from '../../lib/text-runs';

const legalLinks = [
  { to: '/privacy', labelKey: 'legal.privacy' },
  { to: '/terms', labelKey: 'legal.terms' },
  { to: '/accessibility', labelKey: 'legal.accessibility' },
] as const;

/**
 * A payment link's page: leaving it would lose the form or an open card frame, so the legal pages
 * open in a new tab from there.
 */
const keepsPageOpen = /^\/p\//;

/**
 * The privacy, terms and accessibility statement links, one step away from every page (Israeli
 * accessibility rules expect the statement to be). Fixed to the window's foot on the landing page;
 * elsewhere a quiet line after the page's content.
 */
export function LegalFooter({ fixed = false }: { fixed?: boolean }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const newTab = keepsPageOpen.test(pathname);
  return (
    <Box
      component="footer"
      sx={{
        ...(fixed ? { position: 'fixed', insetInline: 0, bottom: 0 } : { mt: 'auto' }),
        display: 'flex',
        flexWrap: 'wrap',
        justifyContent: 'center',
        alignItems: 'center',
        columnGap: 0.75,
        px: 1,
        py: 0.5,
        bgcolor: 'background.paper',
        borderTop: 1,
        borderColor: 'divider',
        typography: 'body2',
      }}
    >
      {legalLinks.map(({ to, labelKey }, index) => (
        <Fragment key={to}>
          {index > 0 && (
            <Box component="span" aria-hidden="true" sx={{ color: 'text.secondary' }}>
              |
            </Box>
          )}
          <Link
            component={RouterLink}
            to={to}
            aria-current={pathname === to ? 'page' : undefined}
            {...(newTab && { target: '_blank', rel: 'noopener' })}
            sx={{ display: 'inline-flex', alignItems: 'center', minHeight: 44, px: 0.25 }}
          >
            {t(labelKey)}
            {newTab && <VisuallyHidden>{` (${t('legal.newTab')})`}</VisuallyHidden>}
          </Link>
        </Fragment>
      ))}
    </Box>
  );
}
