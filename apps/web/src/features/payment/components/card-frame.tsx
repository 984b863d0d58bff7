import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import ArrowForwardIcon from '@mui/icons-material/ArrowForward';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useTheme } from '@mui/material/styles';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

/** The provider's card form in a frame, and the way back to the payment details (SPEC § 4). */
export function CardFrame({ src, onBack }: { src: string; onBack: () => void }) {
  const { t } = useTranslation();
  const theme = useTheme();
  const frameRef = useRef<HTMLIFrameElement>(null);
  // "Back" points the way the page reads from: right in Hebrew.
  const BackIcon = theme.direction === 'rtl' ? ArrowForwardIcon : ArrowBackIcon;

  // The submit button that was focused is gone: keyboard and screen-reader users go on in the frame.
  useEffect(() => {
    frameRef.current?.focus();
  }, []);

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Button
        onClick={onBack}
        startIcon={<BackIcon />}
        sx={{ alignSelf: 'flex-start', marginInlineStart: -1 }}
      >
        {t('payment.back')}
      </Button>
      <Box
        component="iframe"
        ref={frameRef}
        src={src}
        title={t('payment.frameTitle')}
        allow="payment"
        sx={{
          display: 'block',
          width: '100%',
          height: 600,
          border: 1,
          borderColor: 'divider',
          borderRadius: 1,
        }}
      />
    </Box>
  );
}
