import type { Clinic } from '@marpe/shared';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import defaultCoverUrl from '../assets/default-cover.svg';
import { ClinicText } from '../../../lib/text-runs';

/**
 * Hero candidates in order (docs/product/clinic-page.md#what-it-shows); a picture that fails to
 * load gives way to the next.
 */
function useHeroSource(clinic: Clinic) {
  const fallback = { src: defaultCoverUrl, kind: 'cover' as const };
  const candidates = [
    ...(clinic.image_url ? [{ src: clinic.image_url, kind: 'cover' as const }] : []),
    ...(clinic.logo_url ? [{ src: clinic.logo_url, kind: 'logo' as const }] : []),
  ];
  const [failed, setFailed] = useState<string[]>([]);
  const current = candidates.find((candidate) => !failed.includes(candidate.src)) ?? fallback;
  const onError = () =>
    setFailed((list) => (list.includes(current.src) ? list : [...list, current.src]));
  return { ...current, onError };
}

export function ClinicHeader({ clinic }: { clinic: Clinic }) {
  const { t } = useTranslation();
  const hero = useHeroSource(clinic);
  const avatarSize = { xs: 50, sm: 80, md: 120 };

  return (
    <Box sx={{ mb: { xs: 3, md: 4 } }}>
      <Box
        component="img"
        // Decorative: the heading names the clinic.
        alt=""
        src={hero.src}
        onError={hero.onError}
        data-testid="clinic-hero"
        sx={{
          display: 'block',
          width: '100%',
          height: { xs: 140, sm: 200, md: 260 },
          borderRadius: 3,
          bgcolor: hero.kind === 'logo' ? 'grey.50' : '#E0F7FA',
          // A logo standing in for the cover is shown whole, not cropped.
          objectFit: hero.kind === 'logo' ? 'contain' : 'cover',
          p: hero.kind === 'logo' ? 3 : 0,
          border: 1,
          borderColor: 'divider',
        }}
      />
      <Box
        sx={{
          display: 'flex',
          alignItems: 'flex-end',
          gap: { xs: 1.5, sm: 2.5 },
          paddingInline: { xs: 1.5, sm: 3 },
        }}
      >
        {/* The clinic's name is the heading beside it: named too, it would be said twice. */}
        <Avatar
          src={clinic.logo_url ?? undefined}
          alt=""
          data-testid="clinic-logo"
          sx={{
            width: avatarSize,
            height: avatarSize,
            // Half the avatar rises over the hero.
            mt: { xs: '-25px', sm: '-40px', md: '-60px' },
            flexShrink: 0,
            bgcolor: 'background.paper',
            color: 'text.primary',
            fontSize: { xs: '1.5rem', sm: '2rem', md: '3rem' },
            border: 4,
            borderColor: 'background.paper',
            boxShadow: 2,
            '& img': { objectFit: 'contain' },
          }}
        >
          {/* No logo: the clinic's initial, decorative next to the heading. */}
          {clinic.logo_url ? undefined : <span aria-hidden="true">{clinic.name.slice(0, 1)}</span>}
        </Avatar>
        <Box sx={{ minWidth: 0, pt: 1.5 }}>
          <Typography
            component="h1"
            variant="h4"
            sx={{ fontSize: { xs: '1.5rem', sm: '1.875rem', md: '2.125rem' }, lineHeight: 1.25 }}
          >
            <ClinicText>{clinic.name}</ClinicText>
          </Typography>
          <Typography color="textSecondary" sx={{ mt: 0.5 }}>
            <ClinicText>
              {t('clinic.address', {
                street: clinic.address.street,
                homeNumber: clinic.address.home_number,
                city: clinic.address.city,
              })}
            </ClinicText>
          </Typography>
        </Box>
      </Box>
    </Box>
  );
}
