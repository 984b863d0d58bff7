import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { matchPagePath, patientPage } from '@marpe/shared/rules';
import { Link as RouterLink, useLocation } from 'react-router';
import { VisuallyHidden } from '../../lib/text-runs';
import { lazyPageIds, webPages } from '../pages';

/** The pages the registry puts in the footer, each under its title. */
const legalLinks = lazyPageIds
  .filter((id) => patientPage(id).inFooter)
  .map((id) => ({ to: patientPage(id).path, labelKey: webPages[id].titleKey }));

/**
 * A page leaving which would lose what the patient is doing (a payment link's form or open card
 * frame): the legal pages open in a new tab from there.
 */
const keepsPageOpen = (pathname: string) =>
  lazyPageIds.some(
    (id) => patientPage(id).keepsPageOpen && matchPagePath(patientPage(id).path, pathname),
  );

/**
 * The privacy, terms and accessibility statement links, one step away from every page (Israeli
 * accessibility rules expect the statement to be). Fixed to the window's foot on the landing page;
 * elsewhere a quiet line after the page's content.
 */
export function LegalFooter({ fixed = false }: { fixed?: boolean }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const newTab = keepsPageOpen(pathname);
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
