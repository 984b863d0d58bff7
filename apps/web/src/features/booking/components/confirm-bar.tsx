import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The summary and the confirm button: on a desktop a card beside the steps, sticky at the top; on
 * a phone a bar sticky at the screen's foot, so the confirm stays in reach below a long list of
 * dates and times.
 */
export function ConfirmBar({
  isDesktop,
  summary,
  allowed,
  label,
  onConfirm,
}: {
  isDesktop: boolean;
  summary: ReactNode;
  allowed: boolean;
  label: string;
  onConfirm: () => void;
}) {
  const { t } = useTranslation();
  if (isDesktop) {
    return (
      <Card
        component="aside"
        variant="outlined"
        aria-labelledby="booking-summary-title"
        // Row 1 of its column, beside step 1, however long the steps grow.
        sx={{ position: 'sticky', top: 16, alignSelf: 'start', gridRow: 1, gridColumn: 2 }}
      >
        <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
          <Typography id="booking-summary-title" component="h2" variant="h6">
            {t('booking.summary')}
          </Typography>
          {summary}
          {allowed && (
            <Button variant="contained" size="large" onClick={onConfirm}>
              {label}
            </Button>
          )}
        </CardContent>
      </Card>
    );
  }
  return (
    <Box
      sx={{
        position: 'sticky',
        bottom: 0,
        zIndex: 1,
        py: 1.5,
        bgcolor: 'background.default',
        borderTop: 1,
        borderColor: 'divider',
      }}
    >
      <Button variant="contained" size="large" fullWidth disabled={!allowed} onClick={onConfirm}>
        {label}
      </Button>
    </Box>
  );
}
