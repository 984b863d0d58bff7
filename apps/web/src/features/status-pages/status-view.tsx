import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { CallClinicButton } from '../../lib/clinic/call-clinic-button';
import { parseClinicId, useClinic } from '../../lib/clinic/get-clinic';
import { StatusLayout } from '../../lib/status-layout';
import { ClinicText } from '../../lib/text-runs';

/**
 * The clinic a link belonged to, when the page that sent the patient here named it
 * (`?clinic=<id>`): its name, a tap-to-call button and its page, so the next step is one tap
 * away. Nothing while it loads or when it is unknown: the page's own text stands alone.
 */
function LinkClinic() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const { data } = useClinic(parseClinicId(params.get('clinic') ?? undefined));
  if (!data) return null;
  const { id, name, phone } = data.clinic;
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 1.5, mt: 1 }}>
      <Typography component="p" variant="h6">
        <ClinicText>{name}</ClinicText>
      </Typography>
      {phone && <CallClinicButton phone={phone} />}
      <Button component={RouterLink} to={`/clinic/${id}`}>
        {t('status.clinicPage')}
      </Button>
    </Box>
  );
}

/** The status pages' layout, with the link's clinic under the text. */
export function StatusView({
  image,
  heading,
  text,
}: {
  image: ReactNode;
  heading: string;
  text: string;
}) {
  return (
    <StatusLayout image={image} heading={heading} text={text}>
      <LinkClinic />
    </StatusLayout>
  );
}
