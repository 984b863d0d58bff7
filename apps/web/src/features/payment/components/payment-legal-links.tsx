import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import { useTranslation } from 'react-i18next';
import { VisuallyHidden } from '../../../lib/text-runs';

const legalLinks = [
  { href: '/privacy', labelKey: 'legal.privacy' },
  { href: '/terms', labelKey: 'legal.terms' },
  { href: '/accessibility', labelKey: 'legal.accessibility' },
] as const;

/**
 * The privacy policy, terms and accessibility statement, one step from the payment. They open in a
 * new tab, so that reading them loses neither the form nor an open card frame.
 */
export function PaymentLegalLinks() {
  const { t } = useTranslation();
  return (
    <Box
      component="nav"
      aria-label={t('payment.legalLinks')}
      sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 2, typography: 'body2' }}
    >
      {legalLinks.map(({ href, labelKey }) => (
        <Link
          key={href}
          href={href}
          target="_blank"
          rel="noopener"
          sx={{ display: 'inline-flex', alignItems: 'center', minHeight: 44 }}
        >
          {t(labelKey)}
          <VisuallyHidden>{` (${t('payment.newTab')})`}</VisuallyHidden>
        </Link>
      ))}
    </Box>
  );
}
