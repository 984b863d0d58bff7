import type { Clinic } from '@marpe/shared';
import EmailOutlinedIcon from '../../../lib/icons/email-outlined';
import PhoneOutlinedIcon from '../../../lib/icons/phone-outlined';
import PlaceOutlinedIcon from '../../../lib/icons/place-outlined';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { telHref } from '../../../lib/clinic/tel-href';
import { SideCard } from './side-card';
import { ClinicText, Ltr, VisuallyHidden } from '../../../lib/text-runs';

function Row({ icon, children }: { icon: ReactNode; children: ReactNode }) {
  return (
    <Box
      component="li"
      sx={{ display: 'flex', alignItems: 'flex-start', gap: 1.5, py: 0.75, minHeight: 44 }}
    >
      <Box sx={{ display: 'flex', color: 'text.secondary', pt: 0.25 }}>{icon}</Box>
      <Box sx={{ minWidth: 0, overflowWrap: 'anywhere', alignSelf: 'center' }}>{children}</Box>
    </Box>
  );
}

export function ContactCard({ clinic }: { clinic: Clinic }) {
  const { t } = useTranslation();
  return (
    <SideCard title={t('clinic.contact')}>
      {() => (
        <Box component="ul" role="list" sx={{ listStyle: 'none', m: 0, p: 0, typography: 'body1' }}>
          <Row icon={<PlaceOutlinedIcon />}>
            <VisuallyHidden>{t('clinic.addressLabel')}:</VisuallyHidden>{' '}
            <ClinicText>
              {t('clinic.address', {
                street: clinic.address.street,
                homeNumber: clinic.address.home_number,
                city: clinic.address.city,
              })}
            </ClinicText>
          </Row>
          <Row icon={<PhoneOutlinedIcon />}>
            {/* The name adds what the icon says and keeps the visible text (WCAG 2.5.3). */}
            <Link
              href={telHref(clinic.phone)}
              aria-label={`${t('clinic.phoneLabel')}: ${clinic.phone}`}
            >
              <Ltr>{clinic.phone}</Ltr>
            </Link>
          </Row>
          {clinic.email && (
            <Row icon={<EmailOutlinedIcon />}>
              <Link
                href={`mailto:${clinic.email}`}
                aria-label={`${t('clinic.emailLabel')}: ${clinic.email}`}
              >
                <Ltr>{clinic.email}</Ltr>
              </Link>
            </Row>
          )}
        </Box>
      )}
    </SideCard>
  );
}
