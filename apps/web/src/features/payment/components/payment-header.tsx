import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { ClinicText } from '../../../lib/text-runs';

/** The logo's box: fixed, so the name beside it does not move when the image arrives (CLS). */
const LOGO_BOX = { width: 96, height: 64 } as const;

/**
 * Who asks: the clinic's logo with its name beside it, so a link that arrived by SMS says at once
 * which clinic sent it (ADR 032).
 */
export function PaymentHeader({
  clinicName,
  clinicLogo,
}: {
  clinicName: string;
  clinicLogo: string;
}) {
  const { t } = useTranslation();
  if (!clinicName && !clinicLogo) return null;
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
      {clinicLogo && (
        <Box
          sx={{
            ...LOGO_BOX,
            flexShrink: 0,
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'center',
          }}
        >
          <Box
            component="img"
            src={clinicLogo}
            alt={t('payment.logoAlt')}
            sx={{ maxHeight: '100%', maxWidth: '100%', objectFit: 'contain' }}
          />
        </Box>
      )}
      {clinicName && (
        <Typography component="p" sx={{ fontSize: '1.25rem', fontWeight: 700, minWidth: 0 }}>
          <ClinicText>{clinicName}</ClinicText>
        </Typography>
      )}
    </Box>
  );
}
