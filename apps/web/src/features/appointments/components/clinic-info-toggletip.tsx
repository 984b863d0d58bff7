import type { Clinic } from '@marpe/shared';
import InfoOutlinedIcon from '../../../lib/icons/info-outlined';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Popover from '@mui/material/Popover';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { telHref } from '../../../lib/clinic/tel-href';
import { Ltr } from '../../../lib/text-runs';

/**
 * docs/product/appointments.md#the-page calls this an info tooltip. A hover tooltip cannot hold
 * links a keyboard can reach (focus leaving the trigger closes it), so it is a toggletip: a button
 * that opens a popover, which takes focus, holds the links, and closes on Escape with focus back on
 * the button.
 */
export function ClinicInfoToggletip({ clinic }: { clinic: Clinic }) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const popoverId = useId();
  const titleId = useId();
  const open = anchor !== null;

  return (
    <>
      <IconButton
        aria-label={t('appointments.clinicInfo')}
        aria-expanded={open}
        aria-controls={open ? popoverId : undefined}
        aria-haspopup="dialog"
        onClick={(event) => setAnchor(event.currentTarget)}
        sx={{ color: 'primary.dark' }}
      >
        <InfoOutlinedIcon />
      </IconButton>
      <Popover
        id={popoverId}
        open={open}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
        transformOrigin={{ vertical: 'top', horizontal: 'center' }}
        slotProps={{
          paper: { role: 'dialog', 'aria-labelledby': titleId, sx: { p: 2, maxWidth: 320 } },
        }}
      >
        <Typography id={titleId} component="h2" variant="subtitle1" sx={{ fontWeight: 500 }}>
          {t('appointments.clinicInfo')}
        </Typography>
        <Box
          component="ul"
          role="list"
          sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 0.5, mt: 1 }}
        >
          <li>
            <bdi>
              {t('clinic.address', {
                street: clinic.address.street,
                homeNumber: clinic.address.home_number,
                city: clinic.address.city,
              })}
            </bdi>
          </li>
          <li>
            {/* The name adds what an icon would say and keeps the visible text (WCAG 2.5.3). */}
            <Link
              href={telHref(clinic.phone)}
              aria-label={`${t('clinic.phoneLabel')}: ${clinic.phone}`}
            >
              <Ltr>{clinic.phone}</Ltr>
            </Link>
          </li>
          {clinic.email && (
            <li>
              <Link
                href={`mailto:${clinic.email}`}
                aria-label={`${t('clinic.emailLabel')}: ${clinic.email}`}
              >
                <Ltr>{clinic.email}</Ltr>
              </Link>
            </li>
          )}
        </Box>
      </Popover>
    </>
  );
}
